// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ladder: the step-wise governor, as in Linux 6.18.y
 * (drivers/cpuidle/governors/ladder.c; unchanged in substance since 5.x).
 *
 * It moves one state deeper after promotion_count idle periods that
 * outlasted the current state's exit latency, and one state shallower
 * after demotion_count periods that did not.  It never asks for the tick
 * to be kept.  See doc/governors.md section 5 and the kernel's
 * ladder_select_state().
 *
 * Kernel quirk kept on purpose: the residency minus the exit latency is a
 * signed value compared with unsigned thresholds, so a wakeup shorter than
 * the exit latency (or an -EBUSY, residency 0) reads as a huge residency
 * and counts toward promotion.
 */
#include "config.h"

#include <idlelab/governor.h>


#define PROMOTION_COUNT		4
#define DEMOTION_COUNT		1

enum { PARAM_PROMOTION_COUNT, PARAM_DEMOTION_COUNT };

struct ladder_device_state {
	struct {
		u32 promotion_count;
		u32 demotion_count;
		u64 promotion_time_ns;
		u64 demotion_time_ns;
	} threshold;
	struct {
		int promotion_count;
		int demotion_count;
	} stats;
};

/* The per-CPU private data (the kernel's per_cpu(ladder_devices)). */
struct ladder_device {
	struct ladder_device_state states[CPUIDLE_STATE_MAX];
	/* idlelab: moves from each state, for replay's internals */
	u64 promotions[CPUIDLE_STATE_MAX];
	u64 demotions[CPUIDLE_STATE_MAX];
	u64 fallbacks[CPUIDLE_STATE_MAX];
};

static inline int ladder_first_idx(const struct cpuidle_driver *drv)
{
	return (drv->states[0].flags & CPUIDLE_FLAG_POLLING) ? 1 : 0;
}

/* Leave @old_idx for @new_idx: the old state's counts start over. */
static void ladder_do_selection(struct cpuidle_device *dev,
				struct ladder_device *ldev,
				int old_idx, int new_idx)
{
	ldev->states[old_idx].stats.promotion_count = 0;
	ldev->states[old_idx].stats.demotion_count = 0;
	dev->last_state_idx = new_idx;
}

static void ladder_explain(struct cpuidle_device *dev,
			   const struct ladder_device_state *ls, int last_idx,
			   s64 r)
{
	gov_explain(dev, "ladder: last_idx=%d r=%lld (as u64 %llu) "
		    "promotion_time_ns=%llu demotion_time_ns=%llu",
		    last_idx, (long long)r, (unsigned long long)r,
		    (unsigned long long)ls->threshold.promotion_time_ns,
		    (unsigned long long)ls->threshold.demotion_time_ns);
	gov_explain(dev, "ladder: promotion %d/%u demotion %d/%u (before)",
		    ls->stats.promotion_count, ls->threshold.promotion_count,
		    ls->stats.demotion_count, ls->threshold.demotion_count);
}

static int ladder_select_state(struct cpuidle_driver *drv,
			       struct cpuidle_device *dev, bool *dummy)
{
	struct ladder_device *ldev = gov_data(dev);
	struct ladder_device_state *last_state;
	int last_idx = dev->last_state_idx;
	int first_idx = ladder_first_idx(drv);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	s64 last_residency;

	/* A zero latency limit allows nothing but state 0. */
	if (latency_req == 0) {
		gov_explain(dev, "ladder: latency_req 0 -> state 0");
		ladder_do_selection(dev, ldev, last_idx, 0);
		return 0;
	}

	last_state = &ldev->states[last_idx];
	last_residency = (s64)(dev->last_residency_ns -
			       (u64)drv->states[last_idx].exit_latency_ns);
	ladder_explain(dev, last_state, last_idx, last_residency);

	/* Deeper?  (u64 comparison: a negative residency is huge.) */
	if (last_idx < drv->state_count - 1 &&
	    !dev->states_usage[last_idx + 1].disable &&
	    (u64)last_residency > last_state->threshold.promotion_time_ns &&
	    drv->states[last_idx + 1].exit_latency_ns <= latency_req) {
		last_state->stats.promotion_count++;
		last_state->stats.demotion_count = 0;
		if ((u32)last_state->stats.promotion_count >=
		    last_state->threshold.promotion_count) {
			gov_explain(dev, "ladder: promote");
			ldev->promotions[last_idx]++;
			ladder_do_selection(dev, ldev, last_idx, last_idx + 1);
			return last_idx + 1;
		}
	}

	/* The current state became unusable: fall back at once. */
	if (last_idx > first_idx &&
	    (dev->states_usage[last_idx].disable ||
	     drv->states[last_idx].exit_latency_ns > latency_req)) {
		int i;

		for (i = last_idx - 1; i > first_idx; i--)
			if (drv->states[i].exit_latency_ns <= latency_req)
				break;
		gov_explain(dev, "ladder: state %d not usable", last_idx);
		ldev->fallbacks[last_idx]++;
		ladder_do_selection(dev, ldev, last_idx, i);
		return i;
	}

	/* Shallower? */
	if (last_idx > first_idx &&
	    (u64)last_residency < last_state->threshold.demotion_time_ns) {
		last_state->stats.demotion_count++;
		last_state->stats.promotion_count = 0;
		if ((u32)last_state->stats.demotion_count >=
		    last_state->threshold.demotion_count) {
			gov_explain(dev, "ladder: demote");
			ldev->demotions[last_idx]++;
			ladder_do_selection(dev, ldev, last_idx, last_idx - 1);
			return last_idx - 1;
		}
	}

	gov_explain(dev, "ladder: stay");
	return last_idx;
}

static int ladder_enable_device(struct cpuidle_driver *drv,
				struct cpuidle_device *dev)
{
	struct ladder_device *ldev = gov_data(dev);
	int first_idx = ladder_first_idx(drv);
	int i;

	dev->last_state_idx = first_idx;

	/* State 0's thresholds stay as they were (zero) when it polls. */
	for (i = first_idx; i < drv->state_count; i++) {
		struct ladder_device_state *ls = &ldev->states[i];
		s64 lat = drv->states[i].exit_latency_ns;

		ls->stats.promotion_count = 0;
		ls->stats.demotion_count = 0;
		ls->threshold.promotion_count =
			(u32)gov_param(dev, PARAM_PROMOTION_COUNT);
		ls->threshold.demotion_count =
			(u32)gov_param(dev, PARAM_DEMOTION_COUNT);
		if (i < drv->state_count - 1)
			ls->threshold.promotion_time_ns = (u64)lat;
		if (i > first_idx)
			ls->threshold.demotion_time_ns = (u64)lat;
	}
	return 0;
}

static void ladder_reflect(struct cpuidle_device *dev, int index)
{
	if (index > 0)
		dev->last_state_idx = index;
}

static void ladder_explain_state(struct cpuidle_device *dev,
				 struct idl_explain *ex)
{
	struct ladder_device *ldev = gov_data(dev);
	const struct ladder_device_state *ls =
		&ldev->states[dev->last_state_idx];

	idl_explain_printf(ex, "ladder: now at %d, promotion %d demotion %d",
			   dev->last_state_idx, ls->stats.promotion_count,
			   ls->stats.demotion_count);
}

static void ladder_stats(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			 idl_stat_fn emit, void *ctx)
{
	struct ladder_device *ldev = gov_data(dev);
	int i;

	for (i = 0; i < drv->state_count; i++) {
		const char *name = drv->states[i].name;

		emit(ctx, "promotions_from", name,
		     (long long)ldev->promotions[i], IDL_STAT_SUM);
		emit(ctx, "demotions_from", name,
		     (long long)ldev->demotions[i], IDL_STAT_SUM);
		emit(ctx, "unusable_from", name,
		     (long long)ldev->fallbacks[i], IDL_STAT_SUM);
	}
}

static const struct idl_gov_param ladder_params[] = {
	{ "promotion_count", "idle periods above the exit latency before "
	  "moving one state deeper", PROMOTION_COUNT, 1, 1000000 },
	{ "demotion_count", "idle periods below the exit latency before "
	  "moving one state shallower", DEMOTION_COUNT, 1, 1000000 },
	{ NULL, NULL, 0, 0, 0 }
};

const struct idl_governor_ops idl_gov_ladder = {
	.name		= "ladder",
	.rating		= 10,
	.kernel_version	= "6.18.y",
	.data_size	= sizeof(struct ladder_device),
	.params		= ladder_params,
	.enable		= ladder_enable_device,
	.select		= ladder_select_state,
	.reflect	= ladder_reflect,
	.explain_state	= ladder_explain_state,
	.stats		= ladder_stats,
};
