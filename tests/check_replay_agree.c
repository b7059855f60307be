// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the replay engine's agreement with a recording
 * (replay/follow.c): the copy of the governor live at capture, driven by
 * the recorded entries, on hand-built idle periods and on recordings of
 * a loop that does what the kernel's idle loop does.  Scores are worked
 * out by hand in the comments (doc/replay.md, doc/scoring.md).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cpuidle-core.h"
#include "replay.h"
#include "check_replay.h"

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
	/* the free-running column's two selects; at the end, the primed
	 * copy run over a and b; then the copies: the one started at the
	 * first entry and the primed one select a, the one started at b is
	 * told a first (a reflect: a's tick), then all three select b with
	 * b's inputs */
	ck_assert_int_eq(nlog, 10);
	for (i = 0; i < 6; i++) {
		if (i == 1 || i == 3)
			continue;
		ck_assert_int_eq(logv[i].sleep, 2 * MS);
		ck_assert_int_eq(logv[i].dtick, MS);
		ck_assert(logv[i].got_tick);
	}
	ck_assert_int_eq(logv[3].sleep, 1500 * US);
	ck_assert(!logv[3].got_tick);
	ck_assert(logv[6].got_tick);
	for (i = 7; i < 10; i++) {
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
 * three the copies' poll_time_limit is @want, as the primed copy's run
 * over them (the first reflects of its device) shows: it is told each
 * entry as every copy is.  Returns the finished CPU (to free).
 */
static struct replay_cpu *follow_polls(struct idle_period *p, bool seen,
				       const bool *want)
{
	static struct replay_setup s;
	struct replay_cpu *rc;
	int i, n;

	setup_skl(&s);
	add_fixed(&s, 0, false);
	follow(&s, 0);
	s.poll_ends_seen = seen;
	init_skl(&s);
	rc = start(&s);
	for (i = 0; i < 4; i++) {
		p[i].state = 0;
		replay_cpu_feed(rc, &p[i]);
	}
	replay_cpu_finish(rc);
	/* the first reflects of the primed copy: its run over them */
	for (i = n = 0; i < nlog && n < 3; i++)
		if (logv[i].dev == &rc->g[0].k[REPLAY_PRIMED].dev)
			ck_assert_int_eq(logv[i].poll_limit, want[n++]);
	ck_assert_int_eq(n, 3);
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
	/* the entries where a copy of another history chose otherwise
	 * (until the kernel ruled it out) are not scored either */
	ck_assert_uint_ge(sc->agree_warmup, REPLAY_WARMUP);
	ck_assert_uint_le(sc->agree_warmup, REPLAY_WARMUP + 16);
	ck_assert_uint_eq(sc->agree_n + sc->agree_warmup, (u64)n);
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
	 * the warm-up, and agrees at every entry; where the primed copy
	 * chose otherwise (until it alone disagreed 3 times) the entry is
	 * not scored */
	ck_assert_uint_ge(sc->agree_warmup, REPLAY_WARMUP);
	ck_assert_uint_le(sc->agree_warmup, REPLAY_WARMUP + 16);
	ck_assert_uint_eq(sc->agree_n + sc->agree_warmup, N);
	ck_assert_uint_eq(sc->agree_same, sc->agree_n);
	ck_assert_uint_eq(sc->miss_n, sc->agree_n);
	ck_assert_uint_eq(sc->miss[0][0] + sc->miss[1][1] + sc->miss[2][2],
			  sc->agree_n);
	free(rc);
}
END_TEST

static Suite *replay_agree_suite(void)
{
	Suite *s = suite_create("replay_agree");
	TCase *tc = tcase_create("engine");

	tcase_add_test(tc, test_agreement_entries);
	tcase_add_test(tc, test_agreement_mid_run);
	tcase_add_test(tc, test_agreement_fresh_select);
	tcase_add_test(tc, test_agreement_out_of_step);
	tcase_add_test(tc, test_agreement_no_timer);
	tcase_add_test(tc, test_agreement_poll_limit);
	tcase_add_test(tc, test_agreement_poll_seen);
	tcase_add_loop_test(tc, test_agreement_kernel_loop, 0, 5);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(replay_agree_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
