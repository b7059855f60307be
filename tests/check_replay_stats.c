// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of what the replay engine reports besides its choices: the
 * energy models, wakeup latency percentiles and the governors' internals
 * (teo, menu), on hand-built tables and idle periods whose figures are
 * worked out by hand in the comments (doc/replay.md, doc/scoring.md).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cpuidle-core.h"
#include "replay.h"
#include "check_replay.h"

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

static Suite *replay_stats_suite(void)
{
	Suite *s = suite_create("replay_stats");
	TCase *tc = tcase_create("engine");

	tcase_add_test(tc, test_energy_models);
	tcase_add_test(tc, test_latency_percentiles);
	tcase_add_test(tc, test_internals_teo);
	tcase_add_test(tc, test_internals_menu);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(replay_stats_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
