/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fixtures of the replay engine's unit tests (check_replay*.c): the skl
 * C-state table, a test governor "fixed" that returns a configured state
 * and tick decision and logs what the engine showed it (so the simulated
 * idle loop itself can be checked), replay setups on skl, and hand-built
 * idle periods.
 */
#ifndef IDLELAB_TESTS_CHECK_REPLAY_H
#define IDLELAB_TESTS_CHECK_REPLAY_H

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpuidle-core.h"
#include "replay.h"

#define US	1000LL
#define MS	1000000LL
#define TICK	(4 * MS)		/* HZ=250 */

/* intel_idle skl_cstates behind the poll state (ns). */
static const struct { const char *n; s64 lat, res; unsigned int fl; } skl[] = {
	{ "POLL", 0, 0, CSTATE_POLLING },
	{ "C1", 2 * US, 2 * US, 0 },
	{ "C1E", 10 * US, 20 * US, 0 },
	{ "C3", 70 * US, 100 * US, 0 },
	{ "C6", 85 * US, 200 * US, 0 },
	{ "C7s", 124 * US, 800 * US, 0 },
	{ "C8", 200 * US, 800 * US, 0 },
	{ "C9", 480 * US, 5000 * US, 0 },
	{ "C10", 890 * US, 5000 * US, 0 },
};

static inline void skl_table(struct cstate_table *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "skl-test");
	t->count = (int)(sizeof(skl) / sizeof(skl[0]));
	for (i = 0; i < sizeof(skl) / sizeof(skl[0]); i++) {
		snprintf(t->states[i].name, sizeof(t->states[i].name), "%s",
			 skl[i].n);
		t->states[i].exit_latency_ns = skl[i].lat;
		t->states[i].target_residency_ns = skl[i].res;
		t->states[i].flags = skl[i].fl;
		t->states[i].power = NAN;
		t->states[i].entry_energy = NAN;
	}
}

/* ------------------------------------------------ the "fixed" governor */

#define LOG_MAX	64
static struct {
	s64	sleep, dtick;
	bool	stopped, got_tick, poll_limit;
	const struct cpuidle_device *dev;	/* whose reflect */
} logv[LOG_MAX];
static int nlog;

static inline int fixed_select(struct cpuidle_driver *drv,
			       struct cpuidle_device *dev, bool *stop_tick)
{
	(void)drv;
	if (nlog < LOG_MAX) {
		logv[nlog].sleep = idl_current_env->sleep_length;
		logv[nlog].dtick = idl_current_env->delta_tick;
		logv[nlog].stopped = tick_nohz_tick_stopped();
	}
	*stop_tick = gov_param(dev, 1);
	return (int)gov_param(dev, 0);
}

static inline void fixed_reflect(struct cpuidle_device *dev, int index)
{
	(void)index;
	if (nlog < LOG_MAX) {
		logv[nlog].got_tick = tick_nohz_idle_got_tick();
		logv[nlog].poll_limit = dev->poll_time_limit;
		logv[nlog].dev = dev;
		nlog++;
	}
}

static const struct idl_gov_param fixed_params[] = {
	{ "state", "state to return", 0, 0, 9 },
	{ "stop", "stop_tick", 0, 0, 1 },
	{ NULL, NULL, 0, 0, 0 }
};

static const struct idl_governor_ops fixed_ops = {
	.name = "fixed", .select = fixed_select, .reflect = fixed_reflect,
	.params = fixed_params, .data_size = 8,
};

static inline void add_fixed(struct replay_setup *s, int state, bool stop)
{
	struct idl_governor *g = &s->gov[s->ngov++];

	memset(g, 0, sizeof(*g));
	g->ops = &fixed_ops;
	g->param[0] = state;
	g->param[1] = stop;
	snprintf(g->spec, sizeof(g->spec), "fixed:state=%d", state);
}

static inline void add_gov(struct replay_setup *s, const char *spec)
{
	char err[256];

	ck_assert_msg(!idl_governor_parse(&s->gov[s->ngov++], spec, err,
					  sizeof(err)), "%s", err);
}

/* A setup on the skl table, HZ 250, no latency limit. */
static inline void setup_skl(struct replay_setup *s)
{
	memset(s, 0, sizeof(*s));
	s->tick_nsec = TICK;
	s->own_hz = true;
	s->latency_req = 2000000000000LL;
	s->merge_gap_ns = 20 * US;
	s->own_table = true;
	nlog = 0;
}

static inline void init_skl(struct replay_setup *s)
{
	struct cstate_table t;
	struct idl_err err;

	skl_table(&t);
	ck_assert_int_eq(replay_setup_init(s, &t, &err), 0);
}

static inline struct replay_cpu *start(const struct replay_setup *s)
{
	struct replay_cpu *rc = malloc(sizeof(*rc));
	struct idl_err err;

	ck_assert_ptr_nonnull(rc);
	ck_assert_int_eq(replay_cpu_init(rc, s, 0, &err), 0);
	return rc;
}

static inline struct idle_period period(u64 entry, s64 dur, s64 sleep,
					s64 dtick, int cause)
{
	struct idle_period p;

	memset(&p, 0, sizeof(p));
	p.entry_ns = entry;
	p.exit_ns = entry + (u64)dur;
	p.sleep_length_ns = sleep;
	p.delta_tick_ns = dtick;
	p.wake_cause = (uint8_t)cause;
	p.state = TRACE_STATE_UNKNOWN;
	p.flags = IP_TICK_EXACT;
	return p;
}

#endif /* IDLELAB_TESTS_CHECK_REPLAY_H */
