/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oracle: the hindsight governor.  It knows the idle duration that follows
 * each select() (idl_hindsight_idle_ns()) and picks the best state for it,
 * which gives replay an upper bound to score real governors against.
 *
 * Default rule: the deepest enabled state whose target residency fits the
 * idle duration and whose exit latency fits latency_req.  A caller with a
 * power model replaces the rule by a cost function: the oracle then picks
 * the enabled state within latency_req with the lowest cost (the
 * shallowest one on a tie).
 */
#ifndef IDLELAB_ORACLE_H
#define IDLELAB_ORACLE_H

#include <idlelab/governor.h>

/* Cost (e.g. energy) of spending @idle_ns in state @index. */
typedef double (*idl_oracle_cost_fn)(const struct cpuidle_driver *drv,
				     int index, s64 idle_ns, void *ctx);

/*
 * Use @cost (NULL: back to the default rule) for @dev, which must have the
 * oracle attached.  Call it after idl_governor_attach(); enable() does
 * not reset it.
 */
void idl_oracle_set_cost(struct cpuidle_device *dev, idl_oracle_cost_fn cost,
			 void *ctx);

#endif /* IDLELAB_ORACLE_H */
