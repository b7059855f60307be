// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The model's clock relations on a trace clock that drifts against
 * CLOCK_MONOTONIC, as sched_clock (ftrace's "local", perf's clock) does
 * against an NTP-disciplined CLOCK_MONOTONIC (3.3 ppm on the development
 * VM).  Expected values come from the clock pair the events were built
 * with, not from the code.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "model-events.h"

#define OFF	7000000LL	/* trace clock at mono 0 */
#define MS	1000000LL
#define NEV	9000

static struct raw_event evs[NEV];
static int nev;

static void add(struct raw_event e)
{
	ck_assert_int_lt(nev, NEV);
	evs[nev++] = e;
}

/* the trace clock at monotonic time @mono, running @ppm fast */
static uint64_t tr(int64_t mono, int ppm)
{
	return (uint64_t)(OFF + mono + mono / 1000000 * ppm +
			  mono % 1000000 * ppm / 1000000);
}

/*
 * 3.5 s of a 1 ms periodic hrtimer on CPU 0: each expiry stamped 400 to
 * 2400 ns after the clock read its "now" (the expiry), the next one armed
 * 20 us later.  On CPU 1 a jiffies value every jiffy, 15 us after the
 * jiffy began (jiffy 1000 + k starts at mono 4k ms), and the tick armed
 * on the 4 ms grid.  Then at mono 3500.3 ms CPU 0 goes idle with the
 * timer due at 3501 ms, and at 3500.5 ms CPU 1 with a wheel timer for
 * jiffy 1878 (mono (1878 - 1000) * 4 = 3512 ms) armed at 3500.015 ms.
 */
static void build(int ppm)
{
	int64_t k, delay;

	nev = 0;
	add(hr(EV_HRTIMER_START, tr(100, ppm), 1, TICK1, 8 * MS, true, 1));
	add(hr(EV_HRTIMER_START, tr(20000, ppm), 0, 0x2000, MS, false, HRW));
	for (k = 1; k <= 3500; k++) {
		delay = 400 + k * 7919 % 2000;
		add(hr(EV_HRTIMER_EXPIRE_ENTRY, tr(k * MS + delay, ppm), 0,
		       0x2000 + (k - 1) % 2, k * MS, false, HRW));
		if (k % 4 == 0)
			add(wheel(tr(k * MS + 15000, ppm), 1, 0x3100,
				  (uint64_t)(1000 + k / 4),
				  k == 3500 ? 1878 : 5000000, 1));
		add(hr(EV_HRTIMER_START, tr(k * MS + 20000, ppm), 0,
		       0x2000 + k % 2, (k + 1) * MS, false, HRW));
	}
	add(idle(tr(3500 * MS + 300000, ppm), 0, 1));
	add(idle(tr(3500 * MS + 500000, ppm), 1, 1));
	add(idle(tr(3500 * MS + 900000, ppm), 0, EV_IDLE_EXIT));
	add(idle(tr(3500 * MS + 950000, ppm), 1, EV_IDLE_EXIT));
}

static const struct idle_period *period_of(uint32_t cpu)
{
	int i;

	for (i = 0; i < ngot; i++)
		if (got[i].cpu == cpu)
			return &got[i];
	ck_abort_msg("no period of CPU %u", cpu);
	return NULL;
}

/*
 * Sleep lengths from the kernel's "now" (the entry: no event of the CPU
 * within 100 us before it): CPU 0 3501 - 3500.3 = 0.7 ms, CPU 1 3512 -
 * 3500.5 = 11.5 ms, in monotonic time.  The offset is learnt from the
 * lowest stamps, 400 ns after the clock read, so the timer's trace time
 * comes out up to ~0.4 us late: allowed 0..1000 ns over.  An offset
 * taken as a constant would be 5-10 us short after 1-2 s at 5 ppm, and
 * jiffies extrapolated in trace time would begin a tick early.  The
 * drift the summary gives is the clock pair's.
 */
static void check_drift(int ppm)
{
	const struct idle_period *p0, *p1;
	const struct model_stats *st;
	struct model *m = mk(false);

	build(ppm);
	feed(m, evs, nev);
	finish(m);
	p0 = period_of(0);
	p1 = period_of(1);
	ck_assert_msg(p0->sleep_length_ns >= 700000 &&
		      p0->sleep_length_ns <= 701000,
		      "%d ppm: CPU 0 sleep %lld ns, want 700000..701000", ppm,
		      (long long)p0->sleep_length_ns);
	ck_assert(p0->flags & IP_SLEEP_EXACT);
	ck_assert_msg(p1->sleep_length_ns >= 11500000 &&
		      p1->sleep_length_ns <= 11501000,
		      "%d ppm: CPU 1 sleep %lld ns, want 11500000..11501000",
		      ppm, (long long)p1->sleep_length_ns);
	/* the summary's drift: the clock pair's, within 10% + 0.2 ppm */
	st = model_get_stats(m);
	ck_assert(st->drift_known);
	ck_assert_msg(llabs(st->drift_ppb - ppm * 1000LL) <=
		      llabs(ppm * 100LL) + 200,
		      "%d ppm: drift %lld ppb", ppm, (long long)st->drift_ppb);
	model_free(m);
}

START_TEST(test_drift_fast)
{
	check_drift(5);
}
END_TEST

START_TEST(test_drift_slow)
{
	check_drift(-5);
}
END_TEST

START_TEST(test_no_drift)
{
	check_drift(0);
}
END_TEST

/* A clock slewed hard by NTP (chrony slews up to 83 333 ppm; 500 here). */
START_TEST(test_drift_slew)
{
	check_drift(500);
}
END_TEST

static Suite *clock_suite(void)
{
	Suite *s = suite_create("model-clock");
	TCase *tc = tcase_create("drift");

	tcase_add_test(tc, test_no_drift);
	tcase_add_test(tc, test_drift_fast);
	tcase_add_test(tc, test_drift_slow);
	tcase_add_test(tc, test_drift_slew);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(clock_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
