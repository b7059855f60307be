// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdeepest: a cpuidle governor in the kernel's style, for idlelab's tests
 * (tests/plugin-cli.sh): the deepest enabled state whose target
 * residency fits the sleep length less margin_pct percent, within the
 * latency limit; the tick is kept when that state is worth less than a
 * tick.  Built with `idlelab governor build`; its module parameter is a
 * tunable.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/tick.h>

static unsigned int margin_pct __read_mostly;
module_param(margin_pct, uint, 0644);

struct kdeepest_device {
	int	selects;
};
static DEFINE_PER_CPU(struct kdeepest_device, kdeepest_devices);

static int kdeepest_select(struct cpuidle_driver *drv,
			   struct cpuidle_device *dev, bool *stop_tick)
{
	struct kdeepest_device *data = this_cpu_ptr(&kdeepest_devices);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	ktime_t delta_tick, sleep = tick_nohz_get_sleep_length(&delta_tick);
	s64 fit = sleep - div_s64(sleep * margin_pct, 100);
	int i, idx = 0;

	data->selects++;
	for (i = 1; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];

		if (dev->states_usage[i].disable ||
		    s->exit_latency_ns > latency_req)
			continue;
		if (s->target_residency_ns <= fit)
			idx = i;
	}
	if (drv->states[idx].target_residency_ns < TICK_NSEC &&
	    !tick_nohz_tick_stopped())
		*stop_tick = false;
	return idx;
}

static void kdeepest_reflect(struct cpuidle_device *dev, int index)
{
	dev->last_state_idx = index;
}

static struct cpuidle_governor kdeepest_governor = {
	.name =		"kdeepest",
	.rating =	1,
	.select =	kdeepest_select,
	.reflect =	kdeepest_reflect,
};

static int __init init_kdeepest(void)
{
	return cpuidle_register_governor(&kdeepest_governor);
}

postcore_initcall(init_kdeepest);
