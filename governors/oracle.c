// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oracle: a governor with hindsight (not a kernel governor).  See oracle.h.
 */
#include "config.h"

#include <idlelab/governor.h>

#include "oracle.h"

struct oracle_device {
	idl_oracle_cost_fn	cost;
	void			*cost_ctx;
};

static inline bool state_enabled(const struct cpuidle_device *dev, int i)
{
	return !dev->states_usage[i].disable;
}

/* The default rule: deepest enabled state that pays off and is allowed. */
static int oracle_deepest_fit(struct cpuidle_driver *drv,
			      struct cpuidle_device *dev, s64 idle_ns,
			      s64 latency_req)
{
	int i, idx = -1, first = -1;

	for (i = 0; i < drv->state_count; i++) {
		const struct cpuidle_state *s = &drv->states[i];

		if (!state_enabled(dev, i) || s->exit_latency_ns > latency_req)
			continue;
		if (first < 0)
			first = i;
		if (s->target_residency_ns <= idle_ns)
			idx = i;
	}
	/* Nothing pays off: the shallowest allowed state (POLL). */
	if (idx < 0)
		idx = first < 0 ? 0 : first;
	return idx;
}

static int oracle_cheapest(struct cpuidle_driver *drv,
			   struct cpuidle_device *dev,
			   const struct oracle_device *od, s64 idle_ns,
			   s64 latency_req)
{
	double best = 0;
	int i, idx = -1;

	for (i = 0; i < drv->state_count; i++) {
		double c;

		if (!state_enabled(dev, i) ||
		    drv->states[i].exit_latency_ns > latency_req)
			continue;
		c = od->cost(drv, i, idle_ns, od->cost_ctx);
		if (idx < 0 || c < best) {
			best = c;
			idx = i;
		}
	}
	return idx < 0 ? 0 : idx;
}

static int oracle_select(struct cpuidle_driver *drv,
			 struct cpuidle_device *dev, bool *stop_tick)
{
	struct oracle_device *od = gov_data(dev);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	s64 idle_ns = idl_hindsight_idle_ns();
	int idx;

	if (od->cost)
		idx = oracle_cheapest(drv, dev, od, idle_ns, latency_req);
	else
		idx = oracle_deepest_fit(drv, dev, idle_ns, latency_req);
	*stop_tick = !(drv->states[idx].flags & CPUIDLE_FLAG_POLLING);
	gov_explain(dev, "oracle: idle %lld ns, latency_req %lld -> %d (%s)",
		    (long long)idle_ns, (long long)latency_req, idx,
		    od->cost ? "lowest cost" : "deepest fit");
	return idx;
}

static void oracle_reflect(struct cpuidle_device *dev, int index)
{
	dev->last_state_idx = index;
}

void idl_oracle_set_cost(struct cpuidle_device *dev, idl_oracle_cost_fn cost,
			 void *ctx)
{
	struct oracle_device *od = gov_data(dev);

	od->cost = cost;
	od->cost_ctx = ctx;
}

static const struct idl_gov_param oracle_params[] = {
	{ NULL, NULL, 0, 0, 0 }
};

const struct idl_governor_ops idl_gov_oracle = {
	.name		= "oracle",
	.rating		= 0,
	.kernel_version	= NULL,		/* no kernel counterpart: hindsight */
	.data_size	= sizeof(struct oracle_device),
	.params		= oracle_params,
	.select		= oracle_select,
	.reflect	= oracle_reflect,
	.needs_hindsight = true,
};
