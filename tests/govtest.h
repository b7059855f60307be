/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test helpers shared by check_ladder, check_haltpoll and check_govcore:
 * two C-state tables, and one CPU driven as the cpuidle core drives it
 * (the same sequence `idlelab decide` plays, doc/governors.md section 4).
 */
#ifndef IDLELAB_TESTS_GOVTEST_H
#define IDLELAB_TESTS_GOVTEST_H

#include <check.h>
#include <string.h>

#include <idlelab/governor.h>

#include "cpuidle-core.h"

struct gt {
	struct cpuidle_driver	drv;
	struct cpuidle_device	dev;
	struct idl_env		env;
	struct idl_governor	gov;
};

static inline void gt_state(struct cpuidle_driver *drv, const char *name,
			    s64 lat, s64 res, unsigned int flags)
{
	struct cpuidle_state *s = &drv->states[drv->state_count++];

	strcpy(s->name, name);
	s->exit_latency_ns = lat;
	s->target_residency_ns = res;
	s->exit_latency = (unsigned int)(lat / 1000);
	s->target_residency = (unsigned int)(res / 1000);
	s->flags = flags;
}

/* The development VM: cpuidle-haltpoll's two states. */
static inline void gt_table_vm(struct cpuidle_driver *drv)
{
	gt_state(drv, "POLL", 0, 0, CPUIDLE_FLAG_POLLING);
	gt_state(drv, "haltpoll", 1000, 1000, 0);
}

/* A Skylake-like intel_idle table (the example of doc/governors.md
 * section 4). */
static inline void gt_table_skl(struct cpuidle_driver *drv)
{
	gt_state(drv, "POLL", 0, 0, CPUIDLE_FLAG_POLLING);
	gt_state(drv, "C1", 2000, 2000, 0);
	gt_state(drv, "C1E", 10000, 20000, 0);
	gt_state(drv, "C6", 133000, 400000, CPUIDLE_FLAG_TIMER_STOP);
}

/* A zeroed CPU with @spec attached, HZ 250, no latency constraint. */
static inline void gt_init(struct gt *t, const char *spec,
			   void (*table)(struct cpuidle_driver *))
{
	char err[256];

	memset(t, 0, sizeof(*t));
	table(&t->drv);
	t->env.tick_nsec = idl_tick_nsec_for_hz(250);
	t->env.latency_req = 2000000000000LL;
	t->env.sleep_length = KTIME_MAX;
	t->env.delta_tick = t->env.tick_nsec;
	idl_env_set_current(&t->env);
	ck_assert_msg(idl_governor_parse(&t->gov, spec, err, sizeof(err)) == 0,
		      "%s: %s", spec, err);
	ck_assert_int_eq(idl_governor_attach(&t->dev, &t->gov, &t->drv), 0);
}

static inline void gt_fini(struct gt *t)
{
	idl_governor_detach(&t->dev, &t->drv);
	idl_env_set_current(NULL);
}

/* select(); returns the index, *stop gets stop_tick. */
static inline int gt_select(struct gt *t, bool *stop)
{
	bool st = true;
	int idx = t->gov.ops->select(&t->drv, &t->dev, &st);

	if (stop)
		*stop = st;
	return idx;
}

/* State @idx was entered for @res ns; the core accounts, then reflect(). */
static inline void gt_reflect(struct gt *t, int idx, u64 res, bool got_tick,
			      bool poll_time_limit)
{
	if ((t->drv.states[idx].flags & CPUIDLE_FLAG_POLLING) &&
	    !t->dev.poll_limit_ns)
		idl_core_poll_limit(&t->drv, &t->dev);
	idl_core_account(&t->drv, &t->dev, idx, (s64)res);
	t->dev.poll_time_limit = poll_time_limit;
	t->env.got_tick = got_tick;
	t->gov.ops->reflect(&t->dev, idx);
}

static inline void gt_busy(struct gt *t, int idx)
{
	idl_core_reject(&t->dev, idx, false);
}

#endif /* IDLELAB_TESTS_GOVTEST_H */
