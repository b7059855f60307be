// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * koob: a cpuidle governor in the kernel's style with an off-by-one, for
 * idlelab's tests (tests/plugin-cli.sh): its ring of the last residencies
 * wraps one entry late, so every ninth reflect writes one past the ring.
 * Its choice is the state whose target residency the first entry of the
 * ring fits (0 while that is empty).  In the kernel the stray write lands
 * in this CPU's own per-CPU data, after the ring; where CPUs' copies lay
 * side by side it landed in the next CPU's write index, and replay -j 2
 * of it changed from run to run.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/tick.h>

#define KOOB_RING	8

struct koob_cpu {
	int		next;
	unsigned int	ring[KOOB_RING];
};
static DEFINE_PER_CPU(struct koob_cpu, koob_cpus);

static int koob_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       bool *stop_tick)
{
	struct koob_cpu *data = per_cpu_ptr(&koob_cpus, dev->cpu);
	unsigned int oldest = data->ring[0];
	int i, idx = 0;

	for (i = 1; i < drv->state_count; i++)
		if (!dev->states_usage[i].disable &&
		    drv->states[i].target_residency_ns <= (s64)oldest * 1000)
			idx = i;
	*stop_tick = false;
	return idx;
}

static void koob_reflect(struct cpuidle_device *dev, int index)
{
	struct koob_cpu *data = per_cpu_ptr(&koob_cpus, dev->cpu);

	dev->last_state_idx = index;
	/* the bug: the ring wraps after writing ring[KOOB_RING] */
	data->ring[data->next] = (unsigned int)(dev->last_residency_ns / 1000);
	if (++data->next > KOOB_RING)
		data->next = 0;
}

static struct cpuidle_governor koob_governor = {
	.name =		"koob",
	.rating =	1,
	.select =	koob_select,
	.reflect =	koob_reflect,
};

static int __init init_koob(void)
{
	return cpuidle_register_governor(&koob_governor);
}

postcore_initcall(init_koob);
