// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kparam: a kernel-style governor for idlelab's tests (tests/plugin-cli.sh)
 * whose every decision shows its module parameter: state 0 while
 * guest_halt_poll_ns is non-zero, else state 1.  It registers as
 * "haltpoll" with haltpoll's parameter, so replay hands it the tunables
 * of captures made under haltpoll (guest_halt_poll_ns=0 in the bundled
 * ones) and its default (200000) on the others: replaying both kinds at
 * once on several threads shows whether one trace's value leaks into
 * another's decisions.
 */
#include <linux/cpuidle.h>
#include <linux/module.h>

static unsigned int guest_halt_poll_ns __read_mostly = 200000;
module_param(guest_halt_poll_ns, uint, 0644);

static int kparam_select(struct cpuidle_driver *drv,
			 struct cpuidle_device *dev, bool *stop_tick)
{
	if (drv->state_count < 2 || guest_halt_poll_ns) {
		*stop_tick = false;
		return 0;
	}
	return 1;
}

static void kparam_reflect(struct cpuidle_device *dev, int index)
{
	dev->last_state_idx = index;
}

static struct cpuidle_governor kparam_governor = {
	.name =		"haltpoll",
	.rating =	1,
	.select =	kparam_select,
	.reflect =	kparam_reflect,
};

static int __init init_kparam(void)
{
	return cpuidle_register_governor(&kparam_governor);
}

postcore_initcall(init_kparam);
