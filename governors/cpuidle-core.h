/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cpuidle core's part around a governor (drivers/cpuidle/cpuidle.c,
 * poll_state.c, sysfs.c), as far as it changes what a governor sees next:
 * the default poll time limit, the accounting after an idle period
 * (last_residency_ns, usage, above/below) and state disabling.
 * Used by `idlelab decide` and by the replay engine alike.
 * See doc/governors.md sections 3.3 and 3.4 (the kernel's
 * cpuidle_enter_state(), cpuidle_poll_time() and cpuidle_state_store()).
 */
#ifndef IDLELAB_CPUIDLE_CORE_H
#define IDLELAB_CPUIDLE_CORE_H

#include <idlelab/governor.h>

enum idl_miss {
	IDL_MISS_NONE = 0,
	IDL_MISS_ABOVE,		/* too deep: residency < target residency */
	IDL_MISS_BELOW,		/* too shallow: the next enabled deeper state fit */
};

/*
 * The poll state's time limit: dev->poll_limit_ns if non-zero, otherwise
 * the default (first enabled state after 0 with target residency >= 10 us,
 * capped at TICK_NSEC/16), which is then cached in dev->poll_limit_ns.
 * Needs the current environment (TICK_NSEC).
 */
u64 idl_core_poll_limit(struct cpuidle_driver *drv, struct cpuidle_device *dev);

/*
 * State @entered was entered and left after @residency_ns: set
 * last_residency_ns, update the usage statistics and classify the period
 * exactly as cpuidle_enter_state() does.
 */
enum idl_miss idl_core_account(struct cpuidle_driver *drv,
			       struct cpuidle_device *dev, int entered,
			       s64 residency_ns);

/* The same classification, without touching @dev. */
enum idl_miss idl_core_classify(const struct cpuidle_driver *drv,
				const struct cpuidle_device *dev, int entered,
				s64 residency_ns);

/* The selection was not entered (-EBUSY / rejected). */
void idl_core_reject(struct cpuidle_device *dev, int index, bool rejected);

/* A write to stateN/disable: sets the user bit and resets poll_limit_ns. */
void idl_core_set_disabled(struct cpuidle_device *dev, int index,
			   bool disabled);

#endif /* IDLELAB_CPUIDLE_CORE_H */
