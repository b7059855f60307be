// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cpuidle core's bookkeeping around a governor: what
 * cpuidle_enter_state() records after an idle period, the poll state's
 * default time limit, and the sysfs "disable" attribute.  Only the parts
 * that change what a governor reads next are modelled.
 * See doc/governors.md sections 3.3 and 3.4.
 */
#include "config.h"

#include "cpuidle-core.h"

/* The poll loop never polls for less than this before looking deeper. */
#define CPUIDLE_POLL_MIN_NS	(10 * NSEC_PER_USEC)

static inline bool state_enabled(const struct cpuidle_device *dev, int i)
{
	return !dev->states_usage[i].disable;
}

u64 idl_core_poll_limit(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	u64 max = (u64)(TICK_NSEC / 16);
	u64 limit = max;
	int i;

	if (dev->poll_limit_ns)
		return dev->poll_limit_ns;

	/* Poll no longer than the first real state worth entering needs. */
	for (i = 1; i < drv->state_count; i++) {
		u64 t;

		if (!state_enabled(dev, i))
			continue;
		t = (u64)drv->states[i].target_residency_ns;
		if (t < CPUIDLE_POLL_MIN_NS)
			continue;
		limit = t < max ? t : max;
		break;
	}
	dev->poll_limit_ns = limit;
	return limit;
}

/* Was a shallower state available?  Then entering this one was "above". */
static bool shallower_enabled(const struct cpuidle_device *dev, int entered)
{
	int i;

	for (i = entered - 1; i >= 0; i--)
		if (state_enabled(dev, i))
			return true;
	return false;
}

/* Would the nearest enabled deeper state have paid off?  Then "below". */
static bool deeper_fits(const struct cpuidle_driver *drv,
			const struct cpuidle_device *dev, int entered,
			s64 residency_ns, s64 delay)
{
	int i;

	for (i = entered + 1; i < drv->state_count; i++) {
		if (!state_enabled(dev, i))
			continue;
		return residency_ns - delay >=
		       drv->states[i].target_residency_ns;
	}
	return false;
}

enum idl_miss idl_core_classify(const struct cpuidle_driver *drv,
				const struct cpuidle_device *dev, int entered,
				s64 residency_ns)
{
	s64 delay = drv->states[entered].exit_latency_ns;

	if (residency_ns < drv->states[entered].target_residency_ns) {
		if (shallower_enabled(dev, entered))
			return IDL_MISS_ABOVE;
	} else if (residency_ns > delay) {
		if (deeper_fits(drv, dev, entered, residency_ns, delay))
			return IDL_MISS_BELOW;
	}
	return IDL_MISS_NONE;
}

enum idl_miss idl_core_account(struct cpuidle_driver *drv,
			       struct cpuidle_device *dev, int entered,
			       s64 residency_ns)
{
	struct cpuidle_state_usage *u = &dev->states_usage[entered];
	enum idl_miss miss = idl_core_classify(drv, dev, entered, residency_ns);

	/* The raw residency: the exit latency is left to the governors. */
	dev->last_residency_ns = (u64)residency_ns;
	u->time_ns += (u64)residency_ns;
	u->usage++;
	if (miss == IDL_MISS_ABOVE)
		u->above++;
	else if (miss == IDL_MISS_BELOW)
		u->below++;
	return miss;
}

void idl_core_reject(struct cpuidle_device *dev, int index, bool rejected)
{
	dev->last_residency_ns = 0;
	if (rejected)
		dev->states_usage[index].rejected++;
}

void idl_core_set_disabled(struct cpuidle_device *dev, int index,
			   bool disabled)
{
	struct cpuidle_state_usage *u = &dev->states_usage[index];

	if (disabled)
		u->disable |= CPUIDLE_STATE_DISABLED_BY_USER;
	else
		u->disable &= ~(unsigned long long)CPUIDLE_STATE_DISABLED_BY_USER;
	/* Any write to the attribute drops the cached poll limit. */
	dev->poll_limit_ns = 0;
}
