// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kold: a governor in the style of kernels before 4.17 and 5.7, for
 * idlelab's tests: tick_nohz_get_sleep_length() without its argument,
 * residencies and the latency limit in microseconds.  It returns the
 * deepest state whose target residency (us) fits the sleep length (us)
 * and whose exit latency (us) fits the limit.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/tick.h>

static int kold_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       bool *stop_tick)
{
	int latency_req = cpuidle_governor_latency_req(dev->cpu);
	unsigned int sleep_us = ktime_to_us(tick_nohz_get_sleep_length());
	int i, idx = 0;

	for (i = 1; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];

		if (s->disabled || dev->states_usage[i].disable ||
		    s->exit_latency > latency_req)
			continue;
		if (s->target_residency <= sleep_us)
			idx = i;
	}
	return idx;
}

static struct cpuidle_governor kold_governor = {
	.name =		"kold",
	.rating =	1,
	.select =	kold_select,
};

static int __init init_kold(void)
{
	return cpuidle_register_governor(&kold_governor);
}

postcore_initcall(init_kold);
