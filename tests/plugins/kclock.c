// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kclock: a kernel-style governor that measures each idle period with
 * local_clock(), as teo did from 5.1 to 6.13, for idlelab's tests: it
 * returns the deepest enabled state whose target residency the last
 * measured period would have covered.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/tick.h>

struct kclock_device {
	u64	selected_at;
	u64	last_span_ns;
};
static DEFINE_PER_CPU(struct kclock_device, kclock_devices);

static int kclock_select(struct cpuidle_driver *drv,
			 struct cpuidle_device *dev, bool *stop_tick)
{
	struct kclock_device *data = per_cpu_ptr(&kclock_devices, dev->cpu);
	int i, idx = 0;

	data->selected_at = local_clock();
	for (i = 1; i < drv->state_count; i++)
		if (!dev->states_usage[i].disable &&
		    drv->states[i].target_residency_ns <= data->last_span_ns)
			idx = i;
	return idx;
}

static void kclock_reflect(struct cpuidle_device *dev, int index)
{
	struct kclock_device *data = per_cpu_ptr(&kclock_devices, dev->cpu);

	data->last_span_ns = local_clock() - data->selected_at;
	dev->last_state_idx = index;
}

static struct cpuidle_governor kclock_governor = {
	.name =		"kclock",
	.rating =	1,
	.select =	kclock_select,
	.reflect =	kclock_reflect,
};

static int __init init_kclock(void)
{
	return cpuidle_register_governor(&kclock_governor);
}

postcore_initcall(init_kclock);
