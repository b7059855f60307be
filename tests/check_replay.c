// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the replay engine (replay/engine.c, setup.c, score.c)
 * on hand-built idle periods whose scores are worked out by hand in the
 * comments (doc/replay.md, doc/scoring.md): the oracle, miss classes,
 * the tick, polling, merged periods and what-if HZ.  The test governor
 * "fixed" (check_replay.h) returns a configured state and tick decision
 * and logs what the engine showed it, so the simulated idle loop itself
 * can be checked.  Agreement with a recording is in check_replay_agree.c,
 * energy, latency and the governors' internals in check_replay_stats.c.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cpuidle-core.h"
#include "replay.h"
#include "check_replay.h"

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
