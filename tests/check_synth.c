// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The workload synthesiser.  The small cases are worked out by hand in
 * the comments (timer, tick and IPI times with "aligned" phases); the
 * random patterns are checked against their defining distributions.
 */
#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"
#include "synth.h"
#include "trace.h"

#define MS	1000000ULL
#define US	1000ULL

static struct synth_spec spec;
static struct synth_params params;

static void setup_gen(struct synth_gen *g, const char *pattern,
		      uint32_t cpus, double secs, uint64_t seed, uint32_t hz,
		      uint32_t cpu)
{
	struct idl_err err;

	ck_assert_msg(synth_parse(pattern, &spec, &err) == 0, "%s", err.msg);
	params.nr_cpus = cpus;
	params.duration_ns = (uint64_t)(secs * 1e9);
	params.seed = seed;
	params.hz = hz;
	synth_gen_init(g, &spec, &params, cpu);
}

struct want {
	uint64_t entry, exit;
	int64_t sleep, dtick;
	uint8_t cause;
	uint32_t detail;
	bool got_tick;
};

static void expect(struct synth_gen *g, const struct want *w, int n)
{
	struct idle_period p;
	int i;

	for (i = 0; i < n; i++) {
		ck_assert_msg(synth_gen_next(g, &p) == 1, "period %d missing", i);
		ck_assert_uint_eq(p.entry_ns, w[i].entry);
		ck_assert_uint_eq(p.exit_ns, w[i].exit);
		ck_assert_int_eq(p.sleep_length_ns, w[i].sleep);
		ck_assert_int_eq(p.delta_tick_ns, w[i].dtick);
		ck_assert_uint_eq(p.wake_cause, w[i].cause);
		ck_assert_uint_eq(p.wake_detail, w[i].detail);
		ck_assert_int_eq(!!(p.flags & IP_GOT_TICK), w[i].got_tick);
		ck_assert(p.flags & IP_SLEEP_EXACT);
		ck_assert(!(p.flags & IP_TICK_STOPPED));
		ck_assert_int_eq(p.state, TRACE_STATE_UNKNOWN);
	}
}

START_TEST(test_parse)
{
	struct synth_spec s;
	struct idl_err err;

	ck_assert_int_eq(synth_parse("periodic", &s, &err), 0);
	ck_assert_int_eq(s.nr_src, 5);	/* 73,113,211,347,401 Hz */
	ck_assert(s.src[0].rate_hz == 73 && s.src[4].rate_hz == 401);
	ck_assert(s.busy_us == 10);
	ck_assert_int_eq(synth_parse("poisson:500+bursty:5,20,1000+pingpong:50"
				     "+tick+busy:3.5+periodic:10,20", &s, &err), 0);
	ck_assert_int_eq(s.nr_src, 6);
	ck_assert_int_eq(s.src[1].kind, SYNTH_BURSTY);
	ck_assert_uint_eq(s.src[1].on_ns, 5 * MS);
	ck_assert_uint_eq(s.src[1].off_ns, 20 * MS);
	ck_assert(s.busy_us == 3.5);
	ck_assert(!s.aligned);

	static const char *const bad[] = {
		"", "busy:5", "poisson", "poisson:0", "poisson:-3", "poisson:1,2",
		"bursty:1,2", "periodic:x", "periodic:10,", "tick:5", "wobble",
		"busy:5+aligned", "poisson:1e9", "periodic:nan",
		"periodic+", "+periodic", "periodic++tick", "tick+tick+periodic",
		"busy:1+busy:2+periodic", "aligned+periodic+aligned",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(synth_parse(bad[i], &s, &err) == -1, "%s", bad[i]);
		ck_assert_int_eq(err.status, 2);
	}
	synth_parse("periodic:10+wobble:3", &s, &err);
	ck_assert_msg(strstr(err.msg, "term 2 ('wobble:3')"), "%s", err.msg);
	synth_parse("tick+periodic+tick", &s, &err);
	ck_assert_msg(strstr(err.msg, "'tick' given twice"), "%s", err.msg);
	/* two sources of one kind are two sources */
	ck_assert_int_eq(synth_parse("poisson:10+poisson:20", &s, &err), 0);
	ck_assert_int_eq(s.nr_src, 2);
}
END_TEST

START_TEST(test_tick_nsec)
{
	ck_assert_uint_eq(synth_tick_nsec(250), 4000000);
	ck_assert_uint_eq(synth_tick_nsec(1000), 1000000);
	ck_assert_uint_eq(synth_tick_nsec(300), 3333333);
	ck_assert_uint_eq(synth_tick_nsec(100), 10000000);
}
END_TEST

/*
 * Timers at 400 Hz (every 2.5 ms) and 125 Hz (every 8 ms), both from 0;
 * ticks every 4 ms (HZ=250); no busy time, so each period starts where
 * the previous ended.  Sleep length = next timer - entry; delta tick =
 * next multiple of 4 ms after entry - entry.
 */
START_TEST(test_periodic_by_hand)
{
	static const struct want w[] = {
		{ 0,        2500 * US, 2500 * US, 4000 * US, WAKE_HRTIMER, 400, false },
		{ 2500 * US, 5 * MS,   2500 * US, 1500 * US, WAKE_HRTIMER, 400, true },
		{ 5 * MS,   7500 * US, 2500 * US, 3000 * US, WAKE_HRTIMER, 400, false },
		{ 7500 * US, 8 * MS,    500 * US,  500 * US, WAKE_HRTIMER, 125, true },
		{ 8 * MS,   10 * MS,   2000 * US, 4000 * US, WAKE_HRTIMER, 400, false },
		{ 10 * MS,  12500 * US, 2500 * US, 2000 * US, WAKE_HRTIMER, 400, true },
		{ 12500 * US, 15 * MS, 2500 * US, 3500 * US, WAKE_HRTIMER, 400, false },
		{ 15 * MS,  16 * MS,   1000 * US, 1000 * US, WAKE_HRTIMER, 125, true },
		{ 16 * MS,  17500 * US, 1500 * US, 4000 * US, WAKE_HRTIMER, 400, false },
		{ 17500 * US, 20 * MS, 2500 * US, 2500 * US, WAKE_HRTIMER, 400, true },
	};
	struct synth_gen g;
	struct idle_period p;

	setup_gen(&g, "periodic:400,125+busy:0+aligned", 1, 0.020, 1, 250, 0);
	expect(&g, w, 10);
	/* the next timer (22.5 ms) is past the 20 ms duration */
	ck_assert_int_eq(synth_gen_next(&g, &p), 0);
}
END_TEST

/* The tick as a wake source: tick-only idle, then tick + a timer. */
START_TEST(test_tick_by_hand)
{
	static const struct want only[] = {
		{ 0,      4 * MS,  TRACE_NO_TIMER, 4 * MS, WAKE_TICK, 0, true },
		{ 4 * MS, 8 * MS,  TRACE_NO_TIMER, 4 * MS, WAKE_TICK, 0, true },
		{ 8 * MS, 12 * MS, TRACE_NO_TIMER, 4 * MS, WAKE_TICK, 0, true },
	};
	static const struct want mixed[] = {
		{ 0,         2500 * US, 2500 * US, 4000 * US, WAKE_HRTIMER, 400, false },
		{ 2500 * US, 4 * MS,    2500 * US, 1500 * US, WAKE_TICK, 0, true },
		{ 4 * MS,    5 * MS,    1000 * US, 4000 * US, WAKE_HRTIMER, 400, false },
		{ 5 * MS,    7500 * US, 2500 * US, 3000 * US, WAKE_HRTIMER, 400, false },
		{ 7500 * US, 8 * MS,    2500 * US,  500 * US, WAKE_TICK, 0, true },
		{ 8 * MS,    10 * MS,   2000 * US, 4000 * US, WAKE_HRTIMER, 400, false },
	};
	struct synth_gen g;
	struct idle_period p;

	setup_gen(&g, "tick+busy:0", 1, 0.012, 1, 250, 0);
	expect(&g, only, 3);
	ck_assert_int_eq(synth_gen_next(&g, &p), 0);
	setup_gen(&g, "tick+periodic:400+aligned+busy:0", 1, 1, 1, 250, 0);
	expect(&g, mixed, 6);
}
END_TEST

/* IPIs every 10 ms per CPU of a pair, CPU 1 half a period after CPU 0. */
START_TEST(test_pingpong_by_hand)
{
	static const struct want c0[] = {
		{ 0,       10 * MS, TRACE_NO_TIMER, 4 * MS, WAKE_IPI, 1, true },
		{ 10 * MS, 20 * MS, TRACE_NO_TIMER, 2 * MS, WAKE_IPI, 1, true },
	};
	static const struct want c1[] = {
		{ 0,       5 * MS,  TRACE_NO_TIMER, 4 * MS, WAKE_IPI, 0, true },
		{ 5 * MS,  15 * MS, TRACE_NO_TIMER, 3 * MS, WAKE_IPI, 0, true },
	};
	struct synth_gen g;
	struct idle_period p;

	setup_gen(&g, "pingpong:100+aligned+busy:0", 3, 1, 1, 250, 0);
	expect(&g, c0, 2);
	setup_gen(&g, "pingpong:100+aligned+busy:0", 3, 1, 1, 250, 1);
	expect(&g, c1, 2);
	/* CPU 2 has no partner among 3 CPUs: no wakeups at all */
	setup_gen(&g, "pingpong:100+aligned+busy:0", 3, 1, 1, 250, 2);
	ck_assert_int_eq(synth_gen_next(&g, &p), 0);
}
END_TEST

/* Hash of a CPU's whole output. */
static uint64_t digest(const char *pattern, uint32_t cpus, uint64_t seed,
		       uint32_t cpu, uint64_t *n)
{
	struct synth_gen g;
	struct idle_period p;
	uint64_t h = 1469598103934665603ULL;

	setup_gen(&g, pattern, cpus, 2, seed, 250, cpu);
	*n = 0;
	while (synth_gen_next(&g, &p)) {
		h = (h ^ p.entry_ns) * 1099511628211ULL;
		h = (h ^ p.exit_ns) * 1099511628211ULL;
		h = (h ^ (uint64_t)p.sleep_length_ns) * 1099511628211ULL;
		h = (h ^ p.wake_detail) * 1099511628211ULL;
		(*n)++;
	}
	return h;
}

START_TEST(test_reproducible)
{
	const char *pat = "periodic+poisson:300+pingpong:50+bursty:5,15,2000+busy:20";
	uint64_t a, b, c, d, n1, n2;

	a = digest(pat, 4, 7, 1, &n1);
	b = digest(pat, 4, 7, 1, &n2);
	ck_assert_uint_eq(a, b);
	ck_assert_uint_eq(n1, n2);
	ck_assert_uint_gt(n1, 1000);
	c = digest(pat, 4, 8, 1, &n2);
	ck_assert_uint_ne(a, c);
	/* a CPU's periods do not depend on how many CPUs there are */
	d = digest(pat, 64, 7, 1, &n2);
	ck_assert_uint_eq(a, d);
	/* and CPUs differ from each other */
	ck_assert_uint_ne(a, digest(pat, 4, 7, 0, &n2));
}
END_TEST

/*
 * Poisson at 1000 Hz for 100 s with no busy time: ~100000 wakeups (sd
 * 316), gaps exponential: P(gap > 1 ms) = 1/e.  With a 100 Hz timer as
 * well, the sleep length is the distance to the next multiple of 10 ms.
 */
START_TEST(test_poisson)
{
	struct synth_gen g;
	struct idle_period p;
	uint64_t n = 0, irq = 0, longer = 0, timer_wakes = 0, bad = 0;
	int64_t next;

	/* counters, not ck_assert, in loops: each assert writes to a pipe */
	setup_gen(&g, "poisson:1000+busy:0", 1, 100, 3, 250, 0);
	while (synth_gen_next(&g, &p)) {
		n++;
		longer += p.exit_ns - p.entry_ns > 1 * MS;
		irq += p.wake_cause == WAKE_IRQ && p.wake_detail == 32 &&
		       p.sleep_length_ns == TRACE_NO_TIMER;
	}
	ck_assert_msg(n > 99000 && n < 101000, "%" PRIu64 " wakeups", n);
	ck_assert_uint_eq(irq, n);
	ck_assert_msg(fabs((double)longer / (double)n - exp(-1)) < 0.006,
		      "P(gap > 1ms) = %f", (double)longer / (double)n);

	setup_gen(&g, "poisson:1000+periodic:100+busy:0+aligned", 1, 10, 3,
		  250, 0);
	n = 0;
	while (synth_gen_next(&g, &p)) {
		next = (int64_t)((p.entry_ns / (10 * MS) + 1) * (10 * MS));
		bad += p.sleep_length_ns != next - (int64_t)p.entry_ns ||
		       p.exit_ns > (uint64_t)next;
		timer_wakes += p.wake_cause == WAKE_HRTIMER;
		n++;
	}
	ck_assert_uint_eq(bad, 0);
	/* 1000 timer expiries in 10 s, each ending one period */
	ck_assert_uint_eq(timer_wakes, 1000);
	ck_assert_msg(n > 10700 && n < 11300, "%" PRIu64, n);
}
END_TEST

/* Bursty: wakeups only in the first 10 ms of every 100 ms. */
START_TEST(test_bursty)
{
	struct synth_gen g;
	struct idle_period p;
	uint64_t n = 0, outside = 0;

	setup_gen(&g, "bursty:10,90,10000+busy:0+aligned", 1, 10, 5, 250, 0);
	while (synth_gen_next(&g, &p)) {
		outside += p.exit_ns % (100 * MS) >= 10 * MS;
		n++;
	}
	ck_assert_uint_eq(outside, 0);
	/* 10000 Hz x 10% of 10 s = 10000, sd 100 */
	ck_assert_msg(n > 9600 && n < 10400, "%" PRIu64, n);
}
END_TEST

/* busy:50: the run time between a wakeup and the next entry averages 50 us. */
START_TEST(test_busy)
{
	struct synth_gen g;
	struct idle_period p;
	uint64_t n = 0, last = 0, sum = 0;

	setup_gen(&g, "periodic:1000+busy:50", 1, 10, 9, 250, 0);
	while (synth_gen_next(&g, &p)) {
		if (n++)
			sum += p.entry_ns - last;
		last = p.exit_ns;
	}
	ck_assert_msg(fabs((double)sum / (double)(n - 1) - 50000) < 2500,
		      "mean busy %f ns", (double)sum / (double)(n - 1));
}
END_TEST

/* synth_write output reads back as the generators produce it. */
START_TEST(test_write_and_speed)
{
	char path[] = "/tmp/check_synth-XXXXXX";
	struct trace_meta m;
	struct trace_writer *w;
	struct trace_reader *r;
	struct synth_gen g;
	struct idle_period p, q;
	struct idl_err err;
	uint64_t n, k = 0, bad = 0;
	double t0, t1, t2;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(synth_parse("poisson:100000+periodic+busy:1", &spec,
				     &err), 0);
	params = (struct synth_params){ 4, 25 * 1000 * MS, 11, 250 };
	t0 = idl_mono_s();
	synth_gen_init(&g, &spec, &params, 2);
	while (synth_gen_next(&g, &p))
		k++;
	t1 = idl_mono_s();
	trace_meta_init(&m);
	w = trace_writer_create(path, &m, &err);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(synth_write(&spec, &params, w, &n, &err), 0);
	ck_assert_int_eq(trace_writer_close(w, &err), 0);
	t2 = idl_mono_s();
	printf("synth: generate %.1f M periods/s, generate+write %.1f M/s"
	       " (%" PRIu64 " periods)\n", (double)k / (t1 - t0) / 1e6,
	       (double)n / (t2 - t1) / 1e6, n);
	ck_assert_uint_gt(n, 4 * k - 4 * k / 20);

	r = trace_reader_open(path, &err);
	ck_assert_ptr_nonnull(r);
	synth_gen_init(&g, &spec, &params, 2);
	k = 0;
	while (trace_reader_next(r, 2, &p, &err) == 1) {
		bad += !synth_gen_next(&g, &q) || p.entry_ns != q.entry_ns ||
		       p.exit_ns != q.exit_ns || p.flags != q.flags;
		k++;
	}
	ck_assert_uint_eq(bad, 0);
	ck_assert_int_eq(synth_gen_next(&g, &q), 0);
	ck_assert_ptr_null(trace_reader_damage(r));
	ck_assert_uint_eq(trace_reader_meta(r)->nr_periods, n);
	trace_reader_close(r);
	unlink(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("synth");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_tick_nsec);
	tcase_add_test(tc, test_periodic_by_hand);
	tcase_add_test(tc, test_tick_by_hand);
	tcase_add_test(tc, test_pingpong_by_hand);
	tcase_add_test(tc, test_reproducible);
	tcase_add_test(tc, test_poisson);
	tcase_add_test(tc, test_bursty);
	tcase_add_test(tc, test_busy);
	tcase_add_test(tc, test_write_and_speed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
