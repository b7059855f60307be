// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the replay engine (replay/engine.c, setup.c, score.c)
 * on hand-built idle periods whose scores are worked out by hand in the
 * comments (doc/replay.md, doc/scoring.md).  A test governor "fixed"
 * returns a configured state and tick decision and logs what the engine
 * showed it, so the simulated idle loop itself can be checked.
 */
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

static void skl_table(struct cstate_table *t)
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
} logv[LOG_MAX];
static int nlog;

static int fixed_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			bool *stop_tick)
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

static void fixed_reflect(struct cpuidle_device *dev, int index)
{
	(void)index;
	if (nlog < LOG_MAX) {
		logv[nlog].got_tick = tick_nohz_idle_got_tick();
		logv[nlog].poll_limit = dev->poll_time_limit;
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

static void add_fixed(struct replay_setup *s, int state, bool stop)
{
	struct idl_governor *g = &s->gov[s->ngov++];

	memset(g, 0, sizeof(*g));
	g->ops = &fixed_ops;
	g->param[0] = state;
	g->param[1] = stop;
	snprintf(g->spec, sizeof(g->spec), "fixed:state=%d", state);
}

static void add_gov(struct replay_setup *s, const char *spec)
{
	char err[256];

	ck_assert_msg(!idl_governor_parse(&s->gov[s->ngov++], spec, err,
					  sizeof(err)), "%s", err);
}

/* A setup on the skl table, HZ 250, no latency limit. */
static void setup_skl(struct replay_setup *s)
{
	memset(s, 0, sizeof(*s));
	s->tick_nsec = TICK;
	s->own_hz = true;
	s->latency_req = 2000000000000LL;
	s->merge_gap_ns = 20 * US;
	s->own_table = true;
	nlog = 0;
}

static void init_skl(struct replay_setup *s)
{
	struct cstate_table t;
	struct idl_err err;

	skl_table(&t);
	ck_assert_int_eq(replay_setup_init(s, &t, &err), 0);
}

static struct replay_cpu *start(const struct replay_setup *s)
{
	struct replay_cpu *rc = malloc(sizeof(*rc));
	struct idl_err err;

	ck_assert_ptr_nonnull(rc);
	ck_assert_int_eq(replay_cpu_init(rc, s, 0, &err), 0);
	return rc;
}

static struct idle_period period(u64 entry, s64 dur, s64 sleep, s64 dtick,
				 int cause)
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

/*
 * Ten idle periods of exactly 1 ms (IRQ wakeups, no timer, next tick in
 * 3 ms), replayed by the oracle on skl.
 *  - oracle(1 ms): deepest state with target <= 1 ms: C8 (800 us; C9 needs
 *    5 ms), so 10 entries of C8, 10 ms of residency.
 *  - kernel rule for C8 at 1 ms: not above (1 ms >= 800 us); below would
 *    need 1 ms - 200 us >= 5 ms (C9): no.  above = below = 0.
 *  - the tick is stopped (no timer, sleep KTIME_MAX > 3 ms) for 1 ms < one
 *    tick: 10 short stops, no tick wakeups.
 *  - latency: 10 wakeups x 200 us = 2 ms; p50 = p99 = max = 200 us;
 *    no excess over the oracle (it is the oracle).
 *  - energy, derived model: steps (L_i - L_{i-1}) / T_i:
 *      C1 2/2 = 1, C1E 8/20 = 0.4, C3 60/100 = 0.6, C6 15/200 = 0.075,
 *      C7s 39/800 = 0.04875, C8 76/800 = 0.095, C9 280/5000 = 0.056,
 *      C10 410/5000 = 0.082; S = 2.35675 > 0.9, so kappa = 0.9 / S.
 *    P(C8) = 1 - kappa (1 + 0.4 + 0.6 + 0.075 + 0.04875 + 0.095)
 *          = 1 - kappa * 2.21875; E(C8) = kappa * 200000 ns.
 *    One period: P(C8) * 1e6 + E(C8) active-ns; total in active-ms
 *    = 10 * that / 1e6.
 */
/*
 * The engine looks the oracle's state and the duration bin up by
 * interval (replay_cut()): the same as the two rules on every built-in
 * table, with states disabled and latency limits, at every residency,
 * next to it and at durations spread over all the powers of two.
 */
START_TEST(test_cut_table)
{
	const struct cstate_table *const *b = cstate_builtin_list();
	static const s64 lat[] = { 2000000000000LL, 0, 50 * US, 3 * US };
	struct replay_setup s;
	struct idl_err err;
	u64 x = 88172645463325252ULL, bad = 0;
	int t, l, d, i, k;

	for (t = 0; b[t]; t++)
		for (l = 0; l < 4; l++)
			for (d = 0; d < 3; d++) {
				memset(&s, 0, sizeof(s));
				s.latency_req = lat[l];
				/* none, state 1, every other state */
				s.disabled = !d ? 0 : d == 1 ? 2 :
					0x2aaULL & ((1ULL << b[t]->count) - 1);
				ck_assert_int_eq(replay_setup_init(&s, b[t],
								   &err), 0);
				for (i = 0; i < 2200; i++) {
					s64 ns;

					if (i < 3 * CSTATE_MAX) {
						k = i / 3;
						ns = s.bin_res[k % s.table.count] +
						     i % 3 - 1;
					} else if (i < 3 * CSTATE_MAX + 8) {
						ns = i % 2 ? -1 : 0;
					} else {
						x ^= x << 13;
						x ^= x >> 7;
						x ^= x << 17;
						ns = (s64)(x >> (x % 64)) >> 1;
					}
					k = (int)replay_cut(&s, ns);
					bad += s.cut_orc[k] !=
					       replay_oracle_state(&s, ns);
					bad += s.cut_bin[k] !=
					       replay_state_bin(&s, ns);
				}
			}
	ck_assert_int_gt(t, 10);
	ck_assert_uint_eq(bad, 0);
}
END_TEST

START_TEST(test_oracle_1ms)
{
	struct replay_setup s;
	struct replay_cpu *rc;
	struct replay_energy m;
	struct replay_latency l;
	const struct replay_score *sc;
	double kappa = 0.9 / 2.35675, e;
	int i;

	setup_skl(&s);
	add_gov(&s, "oracle");
	init_skl(&s);
	rc = start(&s);
	for (i = 0; i < 10; i++) {
		struct idle_period p = period((u64)(i + 1) * 2 * MS, MS,
					      TRACE_NO_TIMER, 3 * MS, WAKE_IRQ);
		replay_cpu_feed(rc, &p);
	}
	replay_cpu_finish(rc);
	sc = &rc->g[0].sc;
	ck_assert_uint_eq(rc->wl.merged, 10);
	ck_assert_uint_eq(rc->wl.idle_ns, 10 * MS);
	ck_assert_uint_eq(rc->wl.hist[6], 10);
	ck_assert_uint_eq(rc->wl.oracle_entries[6], 10);
	ck_assert_uint_eq(sc->selects, 10);
	ck_assert_uint_eq(sc->entries[6], 10);
	ck_assert_uint_eq(sc->residency_ns[6], 10 * MS);
	for (i = 0; i < 9; i++) {
		ck_assert_uint_eq(sc->above[i], 0);
		ck_assert_uint_eq(sc->below[i], 0);
	}
	ck_assert_uint_eq(sc->vs[REPLAY_SAME][6], 10);
	ck_assert_uint_eq(sc->tick_stops, 10);
	ck_assert_uint_eq(sc->short_tick_stops, 10);
	ck_assert_uint_eq(sc->tick_wakeups, 0);
	ck_assert_uint_eq(sc->wake[WAKE_IRQ][6], 10);
	ck_assert_uint_eq(sc->excess_lat_ns, 0);
	replay_latency_of(&s, sc, REPLAY_NCAUSE, &l);
	ck_assert_uint_eq(l.n, 10);
	ck_assert_uint_eq(l.total_ns, 2 * MS);
	ck_assert_int_eq(l.p50_ns, 200 * US);
	ck_assert_int_eq(l.p99_ns, 200 * US);
	ck_assert_int_eq(l.max_ns, 200 * US);
	replay_energy_model(&s.table, &m);
	ck_assert_int_eq(m.model, REPLAY_ENERGY_DERIVED);
	e = 10 * ((1 - kappa * 2.21875) * 1e6 + kappa * 200000) / 1e6;
	ck_assert_double_eq_tol(replay_energy_of(&m, sc->entries,
						 sc->residency_ns, 9), e, 1e-9);
	free(rc);
}
END_TEST

/*
 * The other miss classes on the same ten 1 ms periods, with "fixed"
 * stopping the tick:
 *  - C9 (480/5000 us): 1 ms < 5 ms target and shallower states exist:
 *    above 10 times; deeper than the oracle's C8: too deep 10 times.
 *    Latency 10 x 480 us = 4.8 ms; excess over C8's 200 us: 10 x 280 us.
 *    Energy: P(C9) = 1 - kappa (2.21875 + 0.056), E(C9) = kappa * 480 us;
 *    regret against ten C8 periods (test_oracle_1ms).
 *  - C1E (10/20 us): 1 ms - 10 us >= C3's 100 us: below 10 times, too
 *    shallow 10 times; latency 10 x 10 us, no excess.
 */
START_TEST(test_miss_classes)
{
	struct replay_setup s;
	struct replay_cpu *rc;
	struct replay_energy m;
	const struct replay_score *c9, *c1e;
	double kappa = 0.9 / 2.35675, e9, e8;
	int i;

	setup_skl(&s);
	add_fixed(&s, 7, true);
	add_fixed(&s, 2, true);
	init_skl(&s);
	rc = start(&s);
	for (i = 0; i < 10; i++) {
		struct idle_period p = period((u64)(i + 1) * 2 * MS, MS,
					      TRACE_NO_TIMER, 3 * MS, WAKE_IRQ);
		replay_cpu_feed(rc, &p);
	}
	replay_cpu_finish(rc);
	c9 = &rc->g[0].sc;
	c1e = &rc->g[1].sc;
	ck_assert_uint_eq(c9->above[7], 10);
	ck_assert_uint_eq(c9->below[7], 0);
	ck_assert_uint_eq(c9->vs[REPLAY_DEEP][7], 10);
	ck_assert_uint_eq(c9->vs_cause[REPLAY_DEEP][WAKE_IRQ], 10);
	ck_assert_uint_eq(c9->excess_lat_ns, 10 * 280 * US);
	ck_assert_uint_eq(c1e->below[2], 10);
	ck_assert_uint_eq(c1e->above[2], 0);
	ck_assert_uint_eq(c1e->vs[REPLAY_SHALLOW][2], 10);
	ck_assert_uint_eq(c1e->excess_lat_ns, 0);
	ck_assert_uint_eq(c1e->wake[WAKE_IRQ][2], 10);
	replay_energy_model(&s.table, &m);
	e9 = 10 * ((1 - kappa * 2.27475) * 1e6 + kappa * 480000) / 1e6;
	e8 = 10 * ((1 - kappa * 2.21875) * 1e6 + kappa * 200000) / 1e6;
	ck_assert_double_eq_tol(replay_energy_of(&m, c9->entries,
						 c9->residency_ns, 9), e9, 1e-9);
	ck_assert_double_eq_tol(replay_energy_of(&m, rc->wl.oracle_entries,
						 rc->wl.oracle_res, 9), e8, 1e-9);
	ck_assert(e9 > e8);
	free(rc);
}
END_TEST

/*
 * The same 1 ms periods with what-ifs, still the oracle:
 *  - C8 disabled: the deepest fit is C7s (800 us): 10 entries of state 5.
 *  - latency_req 100 us: C7s (124 us) and deeper are not allowed: C6
 *    (85 us, 200 us target), state 4.
 */
/*
 * Recorded periods that are not idle time are counted and left out, by
 * one-at-a-time feeding and by batches alike: one that ends before it
 * starts, one longer than TRACE_MAX_PERIOD_NS, one that overlaps the
 * period before it.
 */
START_TEST(test_bad_periods)
{
	struct replay_setup s;
	struct idle_period p[5];
	int batch, i;

	setup_skl(&s);
	add_gov(&s, "oracle");
	init_skl(&s);
	p[0] = period(10 * MS, MS, TRACE_NO_TIMER, 3 * MS, WAKE_IRQ);
	p[1] = period(20 * MS, MS, TRACE_NO_TIMER, 3 * MS, WAKE_IRQ);
	p[1].exit_ns = p[1].entry_ns - 1;
	p[2] = period(30 * MS, (s64)TRACE_MAX_PERIOD_NS + 1, TRACE_NO_TIMER,
		      3 * MS, WAKE_IRQ);
	p[3] = period(10 * MS + MS / 2, MS, TRACE_NO_TIMER, 3 * MS, WAKE_IRQ);
	p[4] = period(40 * MS, 2 * MS, TRACE_NO_TIMER, 3 * MS, WAKE_IRQ);
	for (batch = 0; batch < 2; batch++) {
		struct replay_cpu *rc = start(&s);

		if (batch)
			replay_cpu_feed_batch(rc, p, 5);
		else
			for (i = 0; i < 5; i++)
				replay_cpu_feed(rc, &p[i]);
		replay_cpu_finish(rc);
		ck_assert_uint_eq(rc->wl.recorded, 5);
		ck_assert_uint_eq(rc->wl.bad, 3);
		ck_assert_uint_eq(rc->wl.merged, 2);
		ck_assert_uint_eq(rc->wl.idle_ns, 3 * MS);
		ck_assert_uint_eq(rc->g[0].sc.selects, 2);
		free(rc);
	}
}
END_TEST

START_TEST(test_oracle_whatif)
{
	struct replay_setup s;
	struct replay_cpu *rc;
	int i, round;

	for (round = 0; round < 2; round++) {
		setup_skl(&s);
		if (round == 0)
			s.disabled = 1ULL << 6;
		else
			s.latency_req = 100 * US;
		add_gov(&s, "oracle");
		init_skl(&s);
		rc = start(&s);
		for (i = 0; i < 10; i++) {
			struct idle_period p = period((u64)(i + 1) * 2 * MS,
						      MS, TRACE_NO_TIMER,
						      3 * MS, WAKE_IRQ);
			replay_cpu_feed(rc, &p);
		}
		replay_cpu_finish(rc);
		ck_assert_uint_eq(rc->g[0].sc.entries[round ? 4 : 5], 10);
		ck_assert_uint_eq(rc->g[0].sc.vs[REPLAY_SAME][round ? 4 : 5],
				  10);
		ck_assert_uint_eq(rc->g[0].sc.lat_violations, 0);
		free(rc);
	}
}
END_TEST

/*
 * Recorded PM QoS constraints (IP_QOS_KNOWN): twenty 1 ms periods (IRQ,
 * no timer), the last ten entered under 100 us.  There the oracle's
 * allowed states end at C6 (85 us; C7s needs 124): C6 instead of C8 (as
 * test_oracle_whatif's 100 us limit), for the oracle governor, which reads
 * the constraint, and for the scoring's oracle; "fixed" C8 is then too
 * deep and violates it ten times.  Under a recorded 0 us constraint menu
 * returns the first state at every select (governors.md: latency_req
 * == 0).  --latency-req (latency_fixed) replaces the recorded values.
 */
START_TEST(test_recorded_latency)
{
	struct replay_setup s;
	struct replay_cpu *rc;
	const struct replay_score *o, *f, *m;
	int i, round;

	for (round = 0; round < 2; round++) {
		setup_skl(&s);
		s.latency_fixed = round == 1;
		add_gov(&s, "oracle");
		add_fixed(&s, 6, true);
		init_skl(&s);
		rc = start(&s);
		for (i = 0; i < 20; i++) {
			struct idle_period p = period((u64)(i + 1) * 2 * MS,
						      MS, TRACE_NO_TIMER,
						      3 * MS, WAKE_IRQ);
			if (i >= 10) {
				p.flags |= IP_QOS_KNOWN;
				p.qos_latency_us = 100;
			}
			replay_cpu_feed(rc, &p);
		}
		replay_cpu_finish(rc);
		o = &rc->g[0].sc;
		f = &rc->g[1].sc;
		ck_assert_uint_eq(rc->wl.qos_periods, round ? 0 : 10);
		ck_assert_uint_eq(o->entries[6], round ? 20 : 10);
		ck_assert_uint_eq(o->entries[4], round ? 0 : 10);
		ck_assert_uint_eq(o->vs[REPLAY_SAME][6], round ? 20 : 10);
		ck_assert_uint_eq(o->vs[REPLAY_SAME][4], round ? 0 : 10);
		ck_assert_uint_eq(o->lat_violations, 0);
		ck_assert_uint_eq(rc->wl.oracle_entries[4], round ? 0 : 10);
		ck_assert_uint_eq(rc->wl.oracle_entries[6], round ? 20 : 10);
		ck_assert_uint_eq(rc->wl.idle_ns, 20 * MS);
		ck_assert_uint_eq(f->vs[REPLAY_DEEP][6], round ? 0 : 10);
		ck_assert_uint_eq(f->lat_violations, round ? 0 : 10);
		free(rc);
	}

	setup_skl(&s);
	add_gov(&s, "menu");
	init_skl(&s);
	rc = start(&s);
	for (i = 0; i < 20; i++) {
		struct idle_period p = period((u64)(i + 1) * 2 * MS, MS,
					      TRACE_NO_TIMER, 3 * MS,
					      WAKE_IRQ);

		p.flags |= IP_QOS_KNOWN;
		p.qos_latency_us = 0;
		replay_cpu_feed(rc, &p);
	}
	replay_cpu_finish(rc);
	m = &rc->g[0].sc;
	ck_assert_uint_gt(m->selects, 0);
	ck_assert_uint_eq(m->entries[0], m->selects);
	ck_assert_uint_eq(m->lat_violations, 0);
	free(rc);
}
END_TEST

/*
 * Tick splitting: "fixed" returns C1 and keeps the tick; one 10 ms
 * period (IRQ, no timer), next tick 1 ms after entry, HZ 250.
 *   select 1 at 0:   dtick 1 ms -> tick wakeup after 1 ms
 *   select 2 at 1:   dtick 4 ms -> tick wakeup after 4 ms
 *   select 3 at 5:   dtick 4 ms -> tick wakeup after 4 ms
 *   select 4 at 9:   dtick 4 ms, 1 ms left -> the IRQ after 1 ms
 * got_tick: 1, 1, 1, 0.  Kernel rule, C1 (2/2 us) vs C1E (20 us): every
 * segment is "below".  Oracle at 10, 9, 5 ms remaining: C10 (5 ms);
 * at 1 ms: C8: all four too shallow (3 by tick, 1 by IRQ).
 * Latency: 4 x 2 us = 8 us; the oracle's states are slower: no excess.
 */
START_TEST(test_tick_split)
{
	static const s64 dtick[4] = { MS, 4 * MS, 4 * MS, 4 * MS };
	static const s64 at[4] = { 0, MS, 5 * MS, 9 * MS };
	static const bool got[4] = { true, true, true, false };
	struct replay_setup s;
	struct replay_cpu *rc;
	const struct replay_score *sc;
	struct idle_period p = period(100 * MS, 10 * MS, TRACE_NO_TIMER, MS,
				      WAKE_IRQ);
	int i;

	setup_skl(&s);
	add_fixed(&s, 1, false);
	init_skl(&s);
	rc = start(&s);
	replay_cpu_feed(rc, &p);
	replay_cpu_finish(rc);
	sc = &rc->g[0].sc;
	ck_assert_int_eq(nlog, 4);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(logv[i].dtick, dtick[i]);
		/* no timer: the kernel's KTIME_MAX - now */
		ck_assert_int_eq(logv[i].sleep, KTIME_MAX - 100 * MS - at[i]);
		ck_assert(!logv[i].stopped);
		ck_assert_int_eq(logv[i].got_tick, got[i]);
	}
	ck_assert_uint_eq(sc->selects, 4);
	ck_assert_uint_eq(sc->tick_wakeups, 3);
	ck_assert_uint_eq(sc->entries[1], 4);
	ck_assert_uint_eq(sc->residency_ns[1], 10 * MS);
	ck_assert_uint_eq(sc->below[1], 4);
	ck_assert_uint_eq(sc->vs[REPLAY_SHALLOW][1], 4);
	ck_assert_uint_eq(sc->vs_cause[REPLAY_SHALLOW][WAKE_TICK], 3);
	ck_assert_uint_eq(sc->vs_cause[REPLAY_SHALLOW][WAKE_IRQ], 1);
	ck_assert_uint_eq(sc->wake[WAKE_TICK][1], 3);
	ck_assert_uint_eq(sc->excess_lat_ns, 0);
	ck_assert_uint_eq(rc->wl.merged, 1);
	free(rc);
}
END_TEST

/*
 * Stopping the tick.  (a) "fixed" C1 with stop_tick: no timer, so the
 * tick stops at once and the 10 ms period is one segment (10 ms >= one
 * tick: not a short stop).  (b) a timer predicted 0.5 ms after entry,
 * before the next tick (1 ms): delta_next is the timer's 0.5 ms (the
 * next programmed interrupt), the kernel keeps the tick (stop denied),
 * the tick fires at 1 ms; at the re-selection the predicted timer has
 * passed, the sleep length is unknown (KTIME_MAX - now, as with no
 * timer) and the stop succeeds: two segments, 1 ms and 9 ms; the second
 * select still sees the tick running.
 */
START_TEST(test_tick_stop)
{
	struct replay_setup s;
	struct replay_cpu *rc;
	const struct replay_score *sc;
	struct idle_period p = period(100 * MS, 10 * MS, TRACE_NO_TIMER, MS,
				      WAKE_IRQ);

	setup_skl(&s);
	add_fixed(&s, 1, true);
	init_skl(&s);
	rc = start(&s);
	replay_cpu_feed(rc, &p);
	replay_cpu_finish(rc);
	sc = &rc->g[0].sc;
	ck_assert_uint_eq(sc->selects, 1);
	ck_assert_uint_eq(sc->tick_stops, 1);
	ck_assert_uint_eq(sc->short_tick_stops, 0);
	ck_assert_uint_eq(sc->tick_wakeups, 0);
	free(rc);

	setup_skl(&s);
	add_fixed(&s, 1, true);
	init_skl(&s);
	rc = start(&s);
	p.sleep_length_ns = 500 * US;
	replay_cpu_feed(rc, &p);
	replay_cpu_finish(rc);
	sc = &rc->g[0].sc;
	ck_assert_int_eq(nlog, 2);
	ck_assert_int_eq(logv[0].sleep, 500 * US);
	ck_assert_int_eq(logv[0].dtick, 500 * US);
	ck_assert_int_eq(logv[1].sleep, KTIME_MAX - 101 * MS);
	ck_assert_int_eq(logv[1].dtick, 4 * MS);
	ck_assert(!logv[1].stopped);
	ck_assert_uint_eq(sc->selects, 2);
	ck_assert_uint_eq(sc->stop_denied, 1);
	ck_assert_uint_eq(sc->tick_stops, 1);
	ck_assert_uint_eq(sc->tick_wakeups, 1);
	ck_assert_uint_eq(sc->residency_ns[1], 10 * MS);
	free(rc);
}
END_TEST

/*
 * The idle loop going on: period 2 was entered with the kernel's tick
 * stopped (IP_TICK_STOPPED), so no task ran since period 1 and the tick
 * is as the governor left it: "fixed" C1 stopped it in period 1 (no
 * timer), so its first select in period 2 sees the tick stopped and
 * delta_tick = the sleep length (2 ms), and cannot stop it again.
 * Period 3 has no such flag: a task ran, the tick runs again; its timer
 * (2 ms) comes before the next tick (3 ms), so it is delta_next and the
 * stop is denied.
 */
START_TEST(test_loop_goes_on)
{
	struct replay_setup s;
	struct replay_cpu *rc;
	struct idle_period p1 = period(10 * MS, MS, TRACE_NO_TIMER, MS,
				       WAKE_IRQ);
	struct idle_period p2 = period(11 * MS + 100 * US, MS, 2 * MS,
				       900 * US, WAKE_IRQ);
	struct idle_period p3 = period(20 * MS, MS, 2 * MS, 3 * MS, WAKE_IRQ);

	p2.flags |= IP_TICK_STOPPED;
	setup_skl(&s);
	add_fixed(&s, 1, true);
	init_skl(&s);
	rc = start(&s);
	replay_cpu_feed(rc, &p1);
	replay_cpu_feed(rc, &p2);
	replay_cpu_feed(rc, &p3);
	replay_cpu_finish(rc);
	ck_assert_int_eq(nlog, 3);
	ck_assert(!logv[0].stopped);
	ck_assert(logv[1].stopped);
	ck_assert_int_eq(logv[1].dtick, 2 * MS);
	ck_assert(!logv[2].stopped);
	ck_assert_int_eq(logv[2].dtick, 2 * MS);
	ck_assert_uint_eq(rc->g[0].sc.tick_stops, 1);
	ck_assert_uint_eq(rc->g[0].sc.stop_denied, 1);
	free(rc);
}
END_TEST

/*
 * Poll time limit: "fixed" returns POLL (tick kept) for a 50 us period.
 * skl's default poll limit: first state after 0 with target >= 10 us is
 * C1E (20 us), below TICK_NSEC/16 = 250 us: 20 us.  Segments 20, 20 and
 * 10 us; poll_time_limit 1, 1, 0.  Kernel rule for POLL: below whenever
 * the residency reaches C1's 2 us target: 3 times.  Oracle at 50, 30 us
 * remaining: C1E; at 10 us: C1: three times too shallow.
 */
START_TEST(test_poll_limit)
{
	struct replay_setup s;
	struct replay_cpu *rc;
	const struct replay_score *sc;
	struct idle_period p = period(100 * MS, 50 * US, TRACE_NO_TIMER,
				      3 * MS, WAKE_IRQ);

	setup_skl(&s);
	add_fixed(&s, 0, false);
	init_skl(&s);
	rc = start(&s);
	replay_cpu_feed(rc, &p);
	replay_cpu_finish(rc);
	sc = &rc->g[0].sc;
	ck_assert_int_eq(nlog, 3);
	ck_assert(logv[0].poll_limit && logv[1].poll_limit);
	ck_assert(!logv[2].poll_limit);
	ck_assert_uint_eq(sc->selects, 3);
	ck_assert_uint_eq(sc->poll_limits, 2);
	ck_assert_uint_eq(sc->residency_ns[0], 50 * US);
	ck_assert_uint_eq(sc->below[0], 3);
	ck_assert_uint_eq(sc->vs[REPLAY_SHALLOW][0], 3);
	ck_assert_uint_eq(sc->vs_cause[REPLAY_SHALLOW][REPLAY_CAUSE_POLL], 2);
	ck_assert_uint_eq(sc->wake[REPLAY_CAUSE_POLL][0], 2);
	free(rc);
}
END_TEST

/*
 * Merging: a recorded tick wakeup at 1 ms followed by a re-entry 5 us
 * later (within the 20 us merge gap) and an IRQ at 3 ms is one workload
 * period of 3 ms; with a 30 us gap they stay two periods.
 */
START_TEST(test_merge)
{
	struct replay_setup s;
	struct replay_cpu *rc;
	int round;

	for (round = 0; round < 2; round++) {
		u64 gap = round ? 30 * US : 5 * US;
		struct idle_period a = period(10 * MS, MS, TRACE_NO_TIMER,
					      MS, WAKE_TICK);
		struct idle_period b = period(11 * MS + gap,
					      2 * MS - (s64)gap,
					      TRACE_NO_TIMER, MS, WAKE_IRQ);

		setup_skl(&s);
		add_gov(&s, "oracle");
		init_skl(&s);
		rc = start(&s);
		replay_cpu_feed(rc, &a);
		replay_cpu_feed(rc, &b);
		replay_cpu_finish(rc);
		ck_assert_uint_eq(rc->wl.recorded, 2);
		ck_assert_uint_eq(rc->wl.merged, round ? 2 : 1);
		ck_assert_uint_eq(rc->wl.idle_ns, round ? 3 * MS - gap : 3 * MS);
		ck_assert_uint_eq(rc->wl.cause[WAKE_IRQ], 1);
		ck_assert_uint_eq(rc->wl.cause[WAKE_TICK], round ? 1 : 0);
		free(rc);
	}
}
END_TEST

/* Make column @gi the governor live at capture (follow.c). */
static void follow(struct replay_setup *s, int gi)
{
	s->follows[gi] = true;
	s->nfollow++;
	s->miss_recorded = true;
}

/*
 * Agreement is per recorded entry, on a kernel-driven copy.  The kernel
 * kept the tick: entry A [10, 11 ms] in C1 woken by the tick, entry B at
 * 11.005 ms (sleep length 1.5 ms from its entry, next tick 3.995 ms) in
 * C1E until an IRQ at 13 ms.  The live column is "fixed" C1 keeping the
 * tick.
 *  - agreement: A is the CPU's first entry, never scored (what came
 *    before it is unknown); B is, and differs (C1 against the kernel's
 *    C1E);
 *  - the copy selects at A with A's inputs (2 ms, 1 ms) and at B with B's
 *    own (1.5 ms; delta_next 1.5 ms, the timer before the tick at
 *    3.995 ms); after A it is told the tick woke the CPU
 *    (got_tick), after B not;
 *  - miss classes: the copy's C1 for 1 ms (A) and 1.995 ms (B) is
 *    "below" (C1E's 20 us would fit), like the kernel's recorded "below"
 *    for A (not scored); B was recorded without a miss: 0 of 1 agree.
 *  - the free-running column splits the merged period as before (2
 *    selects) and is not compared.
 * The copy sees each entry one entry late: its selects are the first
 * and the last of the four logged.
 */
START_TEST(test_agreement_entries)
{
	struct replay_setup s;
	struct replay_cpu *rc;
	struct idle_period a = period(10 * MS, MS, 2 * MS, MS, WAKE_TICK);
	struct idle_period b = period(11 * MS + 5 * US, 2 * MS - 5 * US,
				      1500 * US, 4 * MS - 5 * US, WAKE_IRQ);
	const struct replay_score *sc;
	int i;

	a.state = 1;
	a.flags |= IP_MISS_BELOW;
	b.state = 2;
	setup_skl(&s);
	add_fixed(&s, 1, false);
	follow(&s, 0);
	init_skl(&s);
	rc = start(&s);
	replay_cpu_feed(rc, &a);
	replay_cpu_feed(rc, &b);
	replay_cpu_finish(rc);
	sc = &rc->g[0].sc;
	ck_assert_uint_eq(rc->wl.merged, 1);
	ck_assert_uint_eq(sc->selects, 2);
	ck_assert_uint_eq(sc->agree_n, 1);
	ck_assert_uint_eq(sc->agree_same, 0);
	ck_assert_uint_eq(sc->agree_warmup, 1);
	/* the free-running column's selects, the copies': the one started
	 * at b is told a first (a reflect: a's tick), then both select b
	 * with b's inputs */
	ck_assert_int_eq(nlog, 6);
	ck_assert_int_eq(logv[0].sleep, 2 * MS);
	ck_assert_int_eq(logv[0].dtick, MS);
	ck_assert(logv[0].got_tick);
	ck_assert(logv[3].got_tick);
	for (i = 4; i < 6; i++) {
		ck_assert_int_eq(logv[i].sleep, 1500 * US);
		ck_assert_int_eq(logv[i].dtick, 1500 * US);
		ck_assert(!logv[i].got_tick);
	}
	ck_assert_uint_eq(sc->miss_n, 1);
	ck_assert_uint_eq(sc->miss[2][2], 0);
	ck_assert_uint_eq(sc->miss[0][2], 1);
	free(rc);
}
END_TEST

/*
 * "No timer" (TRACE_NO_TIMER) recorded for a period entered at 20 ms with
 * the tick stopped: both the free-running column and the kernel-driven
 * copy read the kernel's no-timer value, KTIME_MAX - 20 ms, as the sleep
 * length, and the copy (tick stopped: the next event is that "timer"
 * too) as delta_tick; the copy's select is the last one logged.
 */
START_TEST(test_agreement_no_timer)
{
	struct replay_setup s;
	struct replay_cpu *rc;
	struct idle_period p = period(20 * MS, MS, TRACE_NO_TIMER,
				      TRACE_NO_TIMER, WAKE_IRQ);
	int i;

	p.state = 1;
	p.flags |= IP_TICK_STOPPED;
	setup_skl(&s);
	add_fixed(&s, 1, true);
	follow(&s, 0);
	init_skl(&s);
	rc = start(&s);
	replay_cpu_feed(rc, &p);
	replay_cpu_finish(rc);
	ck_assert_int_ge(nlog, 2);
	for (i = 0; i < nlog; i++)
		ck_assert_int_eq(logv[i].sleep, 9223372036834775807LL);
	ck_assert_int_eq(logv[nlog - 1].dtick, 9223372036834775807LL);
	free(rc);
}
END_TEST

/*
 * The POLL entries @p[0..3] through "fixed" C1, live at capture, on skl
 * (@seen: the capture showed how polls ended): after each of the first
 * three the copy's poll_time_limit is @want.  The copy steps one entry
 * late.  Returns the finished CPU (to free).
 */
static struct replay_cpu *follow_polls(struct idle_period *p, bool seen,
				       const bool *want)
{
	static struct replay_setup s;
	struct replay_cpu *rc;
	int i;

	setup_skl(&s);
	add_fixed(&s, 0, false);
	follow(&s, 0);
	s.poll_ends_seen = seen;
	init_skl(&s);
	rc = start(&s);
	for (i = 0; i < 4; i++) {
		p[i].state = 0;
		replay_cpu_feed(rc, &p[i]);
		if (i)
			ck_assert_int_eq(rc->g[0].k[0].dev.poll_time_limit,
					 want[i - 1]);
	}
	replay_cpu_finish(rc);
	return rc;
}

/*
 * A poll that ran out: the copy is told so only when the poll lasted
 * the limit (20 us on skl: C1E's target residency, the first of at
 * least 10 us) and the next entry came within the merge gap (20 us).
 * POLL entries: 300 us followed after 5 us (ran out), 300 us followed
 * after 200 us (need_resched ended it: a task ran), 15 us followed
 * after 5 us (too short).  The copy steps one entry late.
 */
START_TEST(test_agreement_poll_limit)
{
	static const bool want[3] = { true, false, false };
	struct replay_cpu *rc;
	struct idle_period p[4];

	p[0] = period(MS, 300 * US, TRACE_NO_TIMER, 3 * MS, WAKE_UNKNOWN);
	p[1] = period(MS + 305 * US, 300 * US, TRACE_NO_TIMER, 3 * MS,
		      WAKE_IPI);
	p[2] = period(MS + 805 * US, 15 * US, TRACE_NO_TIMER, 3 * MS,
		      WAKE_IPI);
	p[3] = period(MS + 825 * US, 50 * US, TRACE_NO_TIMER, 3 * MS,
		      WAKE_IPI);
	rc = follow_polls(p, false, want);
	ck_assert_uint_eq(rc->g[0].sc.agree_n, 3);	/* not the first */
	ck_assert_uint_eq(rc->g[0].sc.agree_same, 3);
	free(rc);
}
END_TEST

/*
 * When the capture showed how polls ended (poll_ends_seen), the copy is
 * told what the trace says: a 300 us poll followed after 5 us without
 * IP_POLL_LIMIT was ended by need_resched; a 15 us one with it ran out
 * (haltpoll's window is shorter than the core's limit); so did a 300 us
 * one.  Without it, the guess of test_agreement_poll_limit, but a poll
 * woken by a timer (WAKE_HRTIMER) did not run out, however long.
 */
START_TEST(test_agreement_poll_seen)
{
	static const bool want[2][3] = {
		{ false, true, true },		/* poll_ends_seen */
		{ false, false, true },		/* guessed */
	};
	struct idle_period p[4];
	int seen;

	for (seen = 0; seen < 2; seen++) {
		p[0] = period(MS, 300 * US, TRACE_NO_TIMER, 3 * MS,
			      seen ? WAKE_HRTIMER : WAKE_UNKNOWN);
		p[1] = period(MS + 305 * US, 15 * US, TRACE_NO_TIMER, 3 * MS,
			      WAKE_UNKNOWN);
		p[2] = period(MS + 325 * US, 300 * US, TRACE_NO_TIMER,
			      3 * MS, WAKE_UNKNOWN);
		p[3] = period(MS + 630 * US, 50 * US, TRACE_NO_TIMER, 3 * MS,
			      WAKE_IPI);
		p[1].flags |= IP_POLL_LIMIT;
		p[2].flags |= IP_POLL_LIMIT;
		free(follow_polls(p, !seen, want[seen]));
	}
}
END_TEST

/*
 * What-if HZ: 1000 (TICK 1 ms) on a trace without usable delta_tick:
 * the tick grid is the multiples of 1 ms.  "fixed" C1 keeping the tick
 * over a 10 ms period entered at 100.5 ms: ticks at 101, 102, ... 110 ms:
 * 10 tick wakeups, 11 segments (the last one 0.5 ms).
 */
START_TEST(test_whatif_hz)
{
	struct replay_setup s;
	struct replay_cpu *rc;
	struct idle_period p = period(100 * MS + 500 * US, 10 * MS,
				      TRACE_NO_TIMER, 3 * MS, WAKE_IRQ);

	setup_skl(&s);
	s.tick_nsec = MS;
	s.own_hz = false;
	add_fixed(&s, 1, false);
	init_skl(&s);
	rc = start(&s);
	replay_cpu_feed(rc, &p);
	replay_cpu_finish(rc);
	ck_assert_uint_eq(rc->g[0].sc.tick_wakeups, 10);
	ck_assert_uint_eq(rc->g[0].sc.selects, 11);
	ck_assert_uint_eq(rc->g[0].sc.tick_exact, 0);
	ck_assert_int_eq(logv[0].dtick, 500 * US);
	free(rc);
}
END_TEST

/*
 * Agreement on a kernel-style recording: a plain loop that does what the
 * kernel's idle loop does (select with the recorded inputs, enter, the
 * core's accounting, reflect) records 2000 entries of a governor on skl
 * (with its polling state): random idle times and timers, a tick that
 * is sometimes stopped (IP_TICK_STOPPED) or fires inside a period
 * (IP_GOT_TICK), polls that run out their limit (the loop then goes on
 * within 3 us) or end earlier (a task runs for 40 us).  The replay's
 * copy of the same governor must choose the recorded state at every
 * entry and agree on every miss class.
 */
static void record_loop_dur(const char *spec, const struct cstate_table *t,
			    struct idle_period *rec, int n, const s64 *durs)
{
	struct cpuidle_driver drv;
	struct cpuidle_device dev;
	struct idl_governor g;
	struct idl_env env;
	u64 x = 12345, now = MS;
	char err[256];
	int i;

	cstate_table_to_driver(t, &drv);
	memset(&dev, 0, sizeof(dev));
	memset(&env, 0, sizeof(env));
	env.tick_nsec = TICK;
	env.latency_req = 2000000000000LL;
	idl_env_set_current(&env);
	ck_assert_msg(!idl_governor_parse(&g, spec, err, sizeof(err)), "%s", err);
	ck_assert_int_eq(idl_governor_attach(&dev, &g, &drv), 0);
	for (i = 0; i < n; i++) {
		bool stop = true, tick;
		s64 dur, sleep, gap = 40 * US, lim;
		enum idl_miss miss;
		int st;

		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		dur = durs ? durs[i] : 2 * US + (s64)(x % (3 * MS));
		sleep = (x >> 32) % 5 ? dur + (s64)((x >> 20) % (2 * MS)) :
			TRACE_NO_TIMER;
		tick = !((x >> 40) % 7);
		rec[i] = period(now, dur, sleep, dur + 500 * US > TICK ? TICK :
				dur + 500 * US, WAKE_IRQ);
		if (!((x >> 44) % 3))
			rec[i].flags |= IP_TICK_STOPPED;
		/* with no timer the kernel returns KTIME_MAX - now */
		env.sleep_length = sleep == TRACE_NO_TIMER ?
				   KTIME_MAX - (s64)now : sleep;
		env.delta_tick = rec[i].delta_tick_ns;
		env.tick_stopped = rec[i].flags & IP_TICK_STOPPED;
		env.got_tick = false;
		st = g.ops->select(&drv, &dev, &stop);
		if (drv.states[st].flags & CPUIDLE_FLAG_POLLING) {
			lim = (s64)idl_core_poll_limit(&drv, &dev);
			dev.poll_time_limit = dur >= lim;
			if (dev.poll_time_limit) {
				dur = lim + 1 * US;
				gap = 3 * US;
			}
			rec[i].exit_ns = rec[i].entry_ns + (u64)dur;
		}
		rec[i].state = (int16_t)st;
		miss = idl_core_account(&drv, &dev, st, dur);
		if (tick)
			rec[i].flags |= IP_GOT_TICK;
		env.got_tick = tick;
		if (g.ops->reflect)
			g.ops->reflect(&dev, st);
		rec[i].flags |= miss == IDL_MISS_ABOVE ? IP_MISS_ABOVE :
				miss == IDL_MISS_BELOW ? IP_MISS_BELOW : 0;
		now += (u64)(dur + gap);
	}
	idl_governor_detach(&dev, &drv);
}

static void record_loop(const char *spec, const struct cstate_table *t,
			struct idle_period *rec, int n)
{
	record_loop_dur(spec, t, rec, n, NULL);
}

/*
 * Replay @n recorded entries of ladder on @t through its kernel-driven
 * copy; every entry after the warm-up is scored.  The disagreements.
 */
static u64 ladder_from(const struct cstate_table *t,
		       const struct idle_period *rec, int n)
{
	const struct replay_score *sc;
	struct replay_setup s;
	struct replay_cpu *rc;
	struct idl_err ierr;
	u64 missed;
	int i;

	setup_skl(&s);
	add_gov(&s, "ladder");
	follow(&s, 0);
	ck_assert_int_eq(replay_setup_init(&s, t, &ierr), 0);
	rc = start(&s);
	for (i = 0; i < n; i++)
		replay_cpu_feed(rc, &rec[i]);
	replay_cpu_finish(rc);
	sc = &rc->g[0].sc;
	ck_assert_uint_eq(sc->agree_n, (u64)(n - REPLAY_WARMUP));
	missed = sc->agree_n - sc->agree_same;
	free(rc);
	return missed;
}

/*
 * A capture that begins with the governor running.  ladder on skl, every
 * period 15 us: 13 us above C1's exit latency, four promote to C1E, 5 us
 * above C1E's 10 us demote at once: a cycle of five whose count a copy
 * started fresh at a later entry does not share, and never gets back
 * (nothing resets C1's count but the promotion).  Seen from entry SKIP
 * on, the copy started at the first entry disagrees once per cycle; one
 * started at a later entry is in phase, and after the warm-up every
 * decision agrees.
 */
START_TEST(test_agreement_mid_run)
{
	enum { N = 3000, SKIP = 2 };
	static struct idle_period rec[N];
	static s64 durs[N];
	struct cstate_table t;
	int i;

	for (i = 0; i < N; i++)
		durs[i] = 15 * US;
	skl_table(&t);
	record_loop_dur("ladder", &t, rec, N, durs);
	/* every decision after the warm-up agrees */
	ck_assert_uint_eq(ladder_from(&t, rec + SKIP, N - SKIP), 0);
}
END_TEST

/*
 * A capture that begins with ladder deep, on skl (POLL, then C1 where a
 * fresh ladder starts).  The kernel ran 3 ms periods from enable: after
 * 4 promotions from each state it sits in the deepest; the trace starts
 * at entry SKIP there.  After 300 such entries, one period per state
 * of 1.5 times its exit latency (the residency ladder reads is then
 * short of the demotion time, and not below zero, which as u64 would
 * be huge) demotes down to C1; then 15 us periods, the cycle of five of
 * test_agreement_mid_run (C1's count is 0 there: its last promotion
 * reset it).  The copy started at the trace's first entry selects for
 * it as a fresh device would: last state C1, residency 0, which as u64
 * is past C1's promotion time, so its C1 count is one ahead and it
 * promotes one entry early, 300 entries after the warm-up ended.  The
 * copy started at the next entry agreed as often; it goes on beside the
 * scored one and is scored from that disagreement on: exactly one.
 */
START_TEST(test_agreement_fresh_select)
{
	enum { N = 1000, SKIP = 40, DEEP = 340 };
	static struct idle_period rec[N];
	static s64 durs[N];
	struct cstate_table t;
	int i;

	skl_table(&t);
	for (i = 0; i < N; i++)
		durs[i] = i < DEEP ? 3 * MS : 15 * US;
	/* 1.5 exit latencies: past the wrap, short of the demotion time */
	for (i = 0; i < t.count - 2; i++)
		durs[DEEP + i] = t.states[t.count - 1 - i].exit_latency_ns * 3 / 2;
	record_loop_dur("ladder", &t, rec, N, durs);
	ck_assert_int_eq(rec[SKIP].state, t.count - 1);
	ck_assert_int_eq(rec[DEEP + t.count - 2].state, 1);
	ck_assert_uint_eq(ladder_from(&t, rec + SKIP, N - SKIP), 1);
}
END_TEST

/*
 * One period measured short: ladder on skl in the cycle of five of
 * test_agreement_mid_run (15 us periods), and one C1 period from entry
 * 1000 on recorded as 3 us, which leaves 1 us above C1's exit
 * latency: no promotion counted where the kernel counted one.  The
 * scored copy is then one count behind and disagrees each cycle; the
 * copies restarted after its first disagreement that begin after one
 * of the kernel's promotions from C1 are in step.  Once the scored copy
 * has disagreed 3 times and such a copy has agreed at 8 entries or
 * more (14 entries into the window, about three cycles of two
 * disagreements), it is scored: at most 6 disagreements, where waiting
 * for the window's end (64 entries) gave 26.
 */
START_TEST(test_agreement_out_of_step)
{
	enum { N = 2000 };
	static struct idle_period rec[N];
	static s64 durs[N];
	struct cstate_table t;
	u64 missed;
	int i, err;

	for (i = 0; i < N; i++)
		durs[i] = 15 * US;
	skl_table(&t);
	record_loop_dur("ladder", &t, rec, N, durs);
	for (err = 1000; rec[err].state != 1; err++)
		;
	rec[err].exit_ns = rec[err].entry_ns + 3 * US;
	missed = ladder_from(&t, rec, N);
	ck_assert_uint_ge(missed, 1);
	ck_assert_uint_le(missed, 6);
}
END_TEST

START_TEST(test_agreement_kernel_loop)
{
	static const char *const specs[] = {
		"menu", "teo", "ladder", "haltpoll",
		"haltpoll:guest_halt_poll_ns=100000",
	};
	enum { N = 2000 };
	static struct idle_period rec[N];
	const struct replay_score *sc;
	struct cstate_table t;
	struct replay_setup s;
	struct replay_cpu *rc;
	struct idl_err ierr;
	int i;

	skl_table(&t);
	record_loop(specs[_i], &t, rec, N);
	setup_skl(&s);
	add_gov(&s, specs[_i]);
	follow(&s, 0);
	ck_assert_int_eq(replay_setup_init(&s, &t, &ierr), 0);
	rc = start(&s);
	for (i = 0; i < N; i++)
		replay_cpu_feed(rc, &rec[i]);
	replay_cpu_finish(rc);
	sc = &rc->g[0].sc;
	/* from the first entry: the copy started there is scored after
	 * the warm-up */
	ck_assert_uint_eq(sc->agree_warmup, REPLAY_WARMUP);
	ck_assert_uint_eq(sc->agree_n, N - REPLAY_WARMUP);
	ck_assert_uint_eq(sc->agree_same, N - REPLAY_WARMUP);
	ck_assert_uint_eq(sc->miss_n, N - REPLAY_WARMUP);
	ck_assert_uint_eq(sc->miss[0][0] + sc->miss[1][1] + sc->miss[2][2],
			  N - REPLAY_WARMUP);
	free(rc);
}
END_TEST

/*
 * Energy model with power data in the table (mW, uJ): POLL 1000 mW,
 * C1 100 mW + 2 uJ per entry.  One 1 ms C1 residency and one entry:
 * 100 mW * 1 ms = 0.1 mJ, plus 2 uJ = 0.002 mJ: 0.102 mJ.
 * And a small derived table where the plain rule applies (kappa 1):
 * POLL 0/0, C1 1/10 us, C6 50/500 us: steps 0.1 and 0.098 (S < 0.9),
 * P(C1) = 0.9, P(C6) = 0.802; E(C6) = 50 us at active power.
 */
START_TEST(test_energy_models)
{
	struct cstate_table t;
	struct replay_energy m;
	u64 entries[3] = { 0, 1, 0 }, res[3] = { 0, MS, 0 };
	u64 e6[3] = { 0, 0, 1 }, r6[3] = { 0, 0, MS };

	skl_table(&t);
	t.count = 2;
	t.power_unit = CSTATE_POWER_MW;
	t.states[0].power = 1000;
	t.states[1].power = 100;
	t.states[1].entry_energy = 2;
	replay_energy_model(&t, &m);
	ck_assert_int_eq(m.model, REPLAY_ENERGY_TABLE);
	ck_assert_str_eq(m.unit, "mJ");
	ck_assert_double_eq_tol(replay_energy_of(&m, entries, res, 2), 0.102,
				1e-12);

	skl_table(&t);
	t.count = 3;
	t.states[1].exit_latency_ns = 1 * US;
	t.states[1].target_residency_ns = 10 * US;
	t.states[2].exit_latency_ns = 50 * US;
	t.states[2].target_residency_ns = 500 * US;
	replay_energy_model(&t, &m);
	ck_assert_int_eq(m.model, REPLAY_ENERGY_DERIVED);
	ck_assert_double_eq_tol(m.kappa, 1.0, 1e-12);
	ck_assert_double_eq_tol(m.power[1] * 1e6, 0.9, 1e-12);
	ck_assert_double_eq_tol(m.power[2] * 1e6, 0.802, 1e-12);
	/* 1 ms of C6: 0.802 * 1 ms + 0.05 ms = 0.852 active-ms */
	ck_assert_double_eq_tol(replay_energy_of(&m, e6, r6, 3), 0.852,
				1e-12);
	/* break-even at C6's target (500 us) against C1:
	 * C1: 0.9 * 500 + 1 = 451 us; C6: 0.802 * 500 + 50 = 451 us */
}
END_TEST

/* Latency percentiles are exact (nearest rank) over per-state counts:
 * 98 wakeups from C1 (2 us) and 2 from C6 (85 us): p50 = 2 us,
 * p99 = rank 99 = 85 us, mean = (98 * 2 + 2 * 85) / 100 = 3.66 us. */
START_TEST(test_latency_percentiles)
{
	struct replay_setup s;
	struct replay_score sc;
	struct replay_latency l;

	setup_skl(&s);
	add_gov(&s, "oracle");
	init_skl(&s);
	memset(&sc, 0, sizeof(sc));
	sc.wake[WAKE_IRQ][1] = 98;
	sc.wake[WAKE_TIMER][4] = 2;
	replay_latency_of(&s, &sc, REPLAY_NCAUSE, &l);
	ck_assert_uint_eq(l.n, 100);
	ck_assert_int_eq(l.p50_ns, 2 * US);
	ck_assert_int_eq(l.p99_ns, 85 * US);
	ck_assert_int_eq(l.max_ns, 85 * US);
	ck_assert_double_eq_tol(l.mean_ns, 3660.0, 1e-9);
	replay_latency_of(&s, &sc, WAKE_TIMER, &l);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_int_eq(l.p50_ns, 85 * US);
}
END_TEST

/* The counter @name/@key of a governor's internals; fails if absent. */
static const struct replay_stat *stat_of(const struct replay_stats *st,
					 const char *name, const char *key)
{
	u32 i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->s[i].name, name) &&
		    !strcmp(st->s[i].key, key ? key : ""))
			return &st->s[i];
	ck_abort_msg("no internals counter %s/%s", name, key ? key : "");
	return NULL;
}

/*
 * teo's internals on ten 2 ms periods that each end on their 2 ms timer
 * (next tick in 3 ms), on skl, worked out by hand (pulse 1024, decay
 * x -= x >> 3 on every update, before the pulse):
 *  - update 1 runs on the zeroed device (state 0, residency 0, sleep 0):
 *    timer bin = duration bin = POLL: a hit; a short idle.
 *  - every select: candidate C10, no intercepts, sleep length 2 ms below
 *    its 5 ms: C8 (path sleep_length, 10 times); 2 ms < tick: tick kept,
 *    C8's 800 us fits delta_tick.
 *  - updates 2-10: measured >= 2 ms - C8's exit latency, timer 2 ms: both
 *    bins C8: 9 hits, no intercepts.
 *  - hits C8 after 9 pulses: 1024, 1920, 2704, 3390, 3991, 4517, 4977,
 *    5379, 5731.  hits POLL: 1024 then 9 decays: 896, 784, 686, 601, 526,
 *    461, 404, 354, 310; short_idles the same (310).  total: 10 pulses:
 *    ... 5731, 6039.
 * Two CPUs merged: SUM counters double; LAST ones add up over 2 CPUs.
 */
START_TEST(test_internals_teo)
{
	struct replay_setup s;
	struct replay_cpu *rc;
	struct replay_score sum;
	const struct replay_stats *st;
	const struct replay_stat *x;
	int i;

	setup_skl(&s);
	add_gov(&s, "teo");
	init_skl(&s);
	rc = start(&s);
	for (i = 0; i < 10; i++) {
		struct idle_period p = period((u64)(i + 1) * 3 * MS, 2 * MS,
					      2 * MS, 3 * MS, WAKE_TIMER);
		replay_cpu_feed(rc, &p);
	}
	replay_cpu_finish(rc);
	ck_assert_uint_eq(rc->g[0].sc.entries[6], 10);
	st = &rc->g[0].sc.internals;
	ck_assert_uint_eq(st->dropped, 0);
	ck_assert_int_eq(stat_of(st, "n_hits", "POLL")->value, 1);
	ck_assert_int_eq(stat_of(st, "n_hits", "C8")->value, 9);
	for (i = 0; i < 9; i++)
		ck_assert_int_eq(stat_of(st, "n_intercepts",
					 skl[i].n)->value, 0);
	x = stat_of(st, "hits", "C8");
	ck_assert_int_eq(x->value, 5731);
	ck_assert_int_eq(x->kind, IDL_STAT_LAST);
	ck_assert_int_eq(stat_of(st, "hits", "POLL")->value, 310);
	ck_assert_int_eq(stat_of(st, "short_idles", NULL)->value, 310);
	ck_assert_int_eq(stat_of(st, "total", NULL)->value, 6039);
	ck_assert_int_eq(stat_of(st, "path", "sleep_length")->value, 10);
	ck_assert_int_eq(stat_of(st, "path", "intercepts")->value, 0);
	ck_assert_int_eq(stat_of(st, "path", "delta_tick")->value, 0);
	ck_assert_int_eq(stat_of(st, "artificial_wakeups", NULL)->value, 0);

	memset(&sum, 0, sizeof(sum));
	replay_score_add(&sum, &rc->g[0].sc);
	replay_score_add(&sum, &rc->g[0].sc);
	ck_assert_uint_eq(sum.internals.n, st->n);
	x = stat_of(&sum.internals, "n_hits", "C8");
	ck_assert_int_eq(x->value, 18);
	ck_assert_uint_eq(x->cpus, 2);
	x = stat_of(&sum.internals, "hits", "C8");
	ck_assert_int_eq(x->value, 2 * 5731);
	ck_assert_uint_eq(x->cpus, 2);
	free(rc);
}
END_TEST

/*
 * menu's counters partition its decisions: every select ends on exactly
 * one path, takes its prediction from one source and asks for the
 * typical interval once; every select but the first updates one
 * bucket's factor.  A mixed stream (timer, IRQ, tick wakeups) on skl.
 */
START_TEST(test_internals_menu)
{
	static const char *const paths[] = { "fit", "state0",
		"latency_limit", "poll_override", "below_tick", "retain_tick",
		"stopped_deeper", "stopped_keep" };
	static const char *const from[] = { "typical", "typical<timer",
		"timer", "next_timer" };
	static const char *const typ[] = { "accepted", "no_data", "spread" };
	static const char *const bucket[] = { "<10us", "<100us", "<1ms",
		"<10ms", "<100ms", ">=100ms" };
	struct replay_setup s;
	struct replay_cpu *rc;
	const struct replay_stats *st;
	long long n, np = 0, nf = 0, nt = 0, nu = 0;
	size_t i;

	setup_skl(&s);
	add_gov(&s, "menu");
	init_skl(&s);
	rc = start(&s);
	for (i = 0; i < 300; i++) {
		static const s64 dur[] = { 30 * US, 700 * US, 2 * MS, 9 * MS };
		struct idle_period p = period((u64)(i + 1) * 20 * MS,
					      dur[i % 4], 3 * MS, 3 * MS,
					      i % 4 == 2 ? WAKE_TIMER :
					      WAKE_IRQ);
		replay_cpu_feed(rc, &p);
	}
	replay_cpu_finish(rc);
	n = (long long)rc->g[0].sc.selects;
	ck_assert_int_ge(n, 300);
	st = &rc->g[0].sc.internals;
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		np += stat_of(st, "path", paths[i])->value;
	for (i = 0; i < sizeof(from) / sizeof(from[0]); i++)
		nf += stat_of(st, "predicted_by", from[i])->value;
	for (i = 0; i < sizeof(typ) / sizeof(typ[0]); i++)
		nt += stat_of(st, "typical", typ[i])->value;
	for (i = 0; i < sizeof(bucket) / sizeof(bucket[0]); i++) {
		nu += stat_of(st, "factor_updates", bucket[i])->value;
		ck_assert_int_gt(stat_of(st, "correction_factor",
					 bucket[i])->value, 0);
	}
	ck_assert_int_eq(np, n);
	ck_assert_int_eq(nf, n);
	ck_assert_int_eq(nt, n);
	ck_assert_int_eq(nu, n - 1);
	/* buckets never asked for keep the initial factor, 1024 * 8 */
	ck_assert_int_eq(stat_of(st, "correction_factor", "<10us")->value,
			 8192);
	free(rc);
}
END_TEST

static Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("engine");

	tcase_add_test(tc, test_oracle_1ms);
	tcase_add_test(tc, test_miss_classes);
	tcase_add_test(tc, test_bad_periods);
	tcase_add_test(tc, test_oracle_whatif);
	tcase_add_test(tc, test_recorded_latency);
	tcase_add_test(tc, test_tick_split);
	tcase_add_test(tc, test_tick_stop);
	tcase_add_test(tc, test_loop_goes_on);
	tcase_add_test(tc, test_poll_limit);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_whatif_hz);
	tcase_add_test(tc, test_agreement_entries);
	tcase_add_test(tc, test_agreement_mid_run);
	tcase_add_test(tc, test_agreement_fresh_select);
	tcase_add_test(tc, test_agreement_out_of_step);
	tcase_add_test(tc, test_agreement_no_timer);
	tcase_add_test(tc, test_agreement_poll_limit);
	tcase_add_test(tc, test_agreement_poll_seen);
	tcase_add_loop_test(tc, test_agreement_kernel_loop, 0, 5);
	tcase_add_test(tc, test_energy_models);
	tcase_add_test(tc, test_latency_percentiles);
	tcase_add_test(tc, test_internals_teo);
	tcase_add_test(tc, test_internals_menu);
	tcase_add_test(tc, test_cut_table);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(replay_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
