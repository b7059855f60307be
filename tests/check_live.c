// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the live stage on fixture trees and recorded outputs:
 * sysfs counter deltas, RAPL wrap arithmetic, the energy model,
 * tool-output parsers, histogram percentiles, the run order, and short
 * runs of the built-ins.  Every expected number is worked out by hand in
 * the comments.  The journal, the governors, CPU gaps, resume latency
 * and the session lock are in check_live_journal.c.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "host.h"
#include "idlectl.h"
#include "live.h"
#include "measure.h"

#define FIX	TOP_SRCDIR "/tests/fixtures"

static char *slurp(const char *name)
{
	char path[1024];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/bench/%s", FIX, name);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert(fread(buf, 1, (size_t)n, f) == (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static double metric(const struct bench_result *r, const char *name,
		     const char *case_name)
{
	const struct bench_metric *m = bench_find(r, name, case_name);

	ck_assert_msg(m != NULL, "metric %s/%s missing", name, case_name);
	return m->value;
}

/* ------------------------------------------------------ sysfs deltas */

/*
 * before -> after (README in the fixture):
 *  cpu0: POLL usage 100->150 time 50->80 below 10->14
 *        C1   usage 1000->1600 time 200000->350000 above 20->50 below 30->42
 *        C6   usage 500->700 time 800000->1400000 above 40->90 rejected 5->8
 *  cpu1: POLL usage 100->110 time 50->60 below 10->11
 *        C1   usage 1000->1200 time 200000->300000 above 20->25 below 30->40
 *        C6   usage 500->520 time 800000->1200000 above 40->41
 * Sums of deltas: usage 50+600+200+10+200+20 = 1080, above 30+50+5+1 = 86,
 * below 4+12+1+10 = 27, rejected 3, time 30+150000+600000+10+100000+
 * 400000 = 1250040 us.
 */
START_TEST(test_delta)
{
	struct idle_snapshot b, a, d;
	struct idle_summary s;
	struct idl_err err = { 0 };

	ck_assert_int_eq(idlectl_snapshot(FIX "/sysfs-live/before", &b, &err),
			 0);
	ck_assert_int_eq(idlectl_snapshot(FIX "/sysfs-live/after", &a, &err),
			 0);
	ck_assert_int_eq(b.nr_cpus, 2);
	ck_assert_int_eq(b.nr_states, 3);
	ck_assert_str_eq(b.info[2].name, "C6");
	ck_assert_int_eq(b.info[2].exit_latency_us, 100);
	ck_assert_int_eq(b.info[2].target_residency_us, 300);
	ck_assert(b.info[0].polling && !b.info[1].polling);
	ck_assert_int_eq(idlectl_delta(&b, &a, &d, &err), 0);
	ck_assert_int_eq(d.c[0 * CSTATE_MAX + 1].usage, 600);
	ck_assert_int_eq(d.c[0 * CSTATE_MAX + 2].rejected, 3);
	ck_assert_int_eq(d.c[1 * CSTATE_MAX + 2].time_us, 400000);
	ck_assert_int_eq(d.c[1 * CSTATE_MAX + 1].below, 10);
	idlectl_summarize(&d, 1e6, &s);
	ck_assert_int_eq(s.usage, 1080);
	ck_assert_int_eq(s.above, 86);
	ck_assert_int_eq(s.below, 27);
	ck_assert_int_eq(s.rejected, 3);
	ck_assert_int_eq(s.time_us, 1250040);
	ck_assert_double_eq_tol(s.above_pct, 7.962963, 1e-5);	/* 86/1080 */
	ck_assert_double_eq_tol(s.below_pct, 2.5, 1e-9);	/* 27/1080 */
	ck_assert_double_eq_tol(s.idle_pct, 62.502, 1e-9);	/* /2e6 */
	ck_assert_double_eq_tol(s.residency_pct[1], 19.999360, 1e-5);
	ck_assert_double_eq_tol(s.residency_pct[2], 79.997440, 1e-5);
	/* backwards counters are refused */
	idlectl_snapshot_free(&d);
	ck_assert_int_eq(idlectl_delta(&a, &b, &d, &err), -1);
	ck_assert(strstr(err.msg, "backwards") != NULL);
	idlectl_snapshot_free(&a);
	idlectl_snapshot_free(&b);
}
END_TEST

/*
 * Energy model on the same delta (exit latencies POLL 0, C1 2, C6 100 us;
 * powers POLL 1, C1 0.5, C6 0.25): state time 40*1 + 250000*0.5 +
 * 1000000*0.25 = 375040; entries 60*0 + 800*2 + 220*100 = 23600; busy
 * 2e6 - 1250040 = 749960.  Sum 1148600 us = 1.1486 CPU-seconds.
 */
START_TEST(test_energy_model)
{
	struct idle_snapshot b, a, d;
	struct idl_err err = { 0 };

	ck_assert_int_eq(idlectl_snapshot(FIX "/sysfs-live/before", &b, &err),
			 0);
	ck_assert_int_eq(idlectl_snapshot(FIX "/sysfs-live/after", &a, &err),
			 0);
	ck_assert_int_eq(idlectl_delta(&b, &a, &d, &err), 0);
	ck_assert_double_eq_tol(energy_model_state_power(&d, 0), 1.0, 1e-12);
	ck_assert_double_eq_tol(energy_model_state_power(&d, 1), 0.5, 1e-12);
	ck_assert_double_eq_tol(energy_model_state_power(&d, 2), 0.25, 1e-12);
	ck_assert_double_eq_tol(energy_modelled(&d, 1e6), 1.1486, 1e-9);
	idlectl_snapshot_free(&a);
	idlectl_snapshot_free(&b);
	idlectl_snapshot_free(&d);
}
END_TEST

/* --------------------------------------------------------------- RAPL */

START_TEST(test_rapl)
{
	struct rapl r;
	uint64_t v[RAPL_MAX_ZONES];

	/* no wrap, wrap (max 262143328850: 100 before the end, then 50) */
	ck_assert_uint_eq(rapl_delta(1000, 4000, 262143328850ull), 3000);
	ck_assert_uint_eq(rapl_delta(262143328750ull, 50, 262143328850ull),
			  150);
	ck_assert_uint_eq(rapl_delta(7, 7, 100), 0);
	/* top-level intel-rapl:N only, sorted */
	ck_assert_int_eq(rapl_open(FIX "/sysfs-live/powercap", &r), 2);
	ck_assert_str_eq(r.z[0].name, "package-0");
	ck_assert_str_eq(r.z[1].name, "package-1");
	ck_assert_uint_eq(r.z[1].max_range_uj, 65532610987ull);
	ck_assert_int_eq(rapl_read(&r, v), 0);
	ck_assert_uint_eq(v[0], 123456789);
	ck_assert_uint_eq(v[1], 987654);
	ck_assert_int_eq(rapl_open("/nonexistent", &r), 0);
}
END_TEST

/* --------------------------------------------------------------- perf */

/*
 * libpfm4, opened at the first perfctr_open() (bench/live/measure.c), encodes
 * the software events on any machine: whether the kernel then counts
 * them (root, perf_event_paranoid, seccomp) varies, libpfm4's part does
 * not.  Twice, the second time with the library already open.
 */
START_TEST(test_perfctr)
{
	struct perfctr p;
	struct idl_err err;
	uint64_t v[PERFCTR_MAX_EVENTS];
	int round, i, sw;

	for (round = 0; round < 2; round++) {
		ck_assert_int_eq(perfctr_open(&p, 1, &err), 0);
		ck_assert_int_eq(p.nr, 5);
		for (i = sw = 0; i < p.nr; i++) {
			ck_assert_ptr_null(strstr(p.ev[i].status, "libpfm4"));
			if (strstr(p.ev[i].pfm_name, "perf::PERF_COUNT_SW"))
				sw++;
		}
		ck_assert_int_eq(sw, 3);
		perfctr_read(&p, v);
		perfctr_close(&p);
	}
}
END_TEST

/* ------------------------------------------------------------ parsers */

START_TEST(test_parse_tools)
{
	struct bench_result r = { 0 };
	struct idl_err err = { 0 };
	char *s;

	s = slurp("hackbench.txt");		/* "Time: 0.274" */
	ck_assert_int_eq(parse_hackbench(s, &r, &err), 0);
	ck_assert_double_eq_tol(metric(&r, "time", ""), 0.274, 1e-12);
	free(s);
	memset(&r, 0, sizeof(r));
	s = slurp("perf-pipe.txt");
	ck_assert_int_eq(parse_perf_pipe(s, &r, &err), 0);
	ck_assert_double_eq_tol(metric(&r, "time", ""), 0.809, 1e-12);
	ck_assert_double_eq_tol(metric(&r, "usecs/op", ""), 40.4514, 1e-9);
	ck_assert_double_eq_tol(metric(&r, "ops/s", ""), 24721, 1e-9);
	ck_assert(bench_find(&r, "ops/s", "")->higher_is_better);
	free(s);
	memset(&r, 0, sizeof(r));
	s = slurp("perf-messaging.txt");
	ck_assert_int_eq(parse_perf_messaging(s, &r, &err), 0);
	ck_assert_double_eq_tol(metric(&r, "time", ""), 0.186, 1e-12);
	free(s);
	memset(&r, 0, sizeof(r));
	s = slurp("tbench.txt");
	ck_assert_int_eq(parse_tbench(s, &r, &err), 0);
	ck_assert_double_eq_tol(metric(&r, "throughput", ""), 505.861, 1e-9);
	ck_assert_double_eq_tol(metric(&r, "max-latency", ""), 4.116, 1e-9);
	free(s);
	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(parse_hackbench("garbage\n", &r, &err), -1);
	ck_assert(strstr(err.msg, "hackbench") != NULL);
}
END_TEST

START_TEST(test_parse_stress_ng)
{
	struct bench_result r = { 0 };
	struct idl_err err = { 0 };
	char *s = slurp("stress-ng-timer.txt");

	/* "timer 43429 2.01 0.02 1.98 21603.94 21718.45" */
	ck_assert_int_eq(parse_stress_ng(s, "timer", &r, &err), 0);
	ck_assert_double_eq_tol(metric(&r, "bogo-ops/s", "timer"), 21603.94,
				1e-9);
	ck_assert_double_eq_tol(metric(&r, "cpu-time", "timer"), 2.00, 1e-9);
	ck_assert_int_eq(parse_stress_ng(s, "futex", &r, &err), -1);
	free(s);
	memset(&r, 0, sizeof(r));
	s = slurp("stress-ng-cyclic.txt");	/* percentiles in ns */
	ck_assert_int_eq(parse_stress_ng(s, "cyclic", &r, &err), 0);
	ck_assert_double_eq_tol(metric(&r, "latency-p50", "cyclic"), 50.124,
				1e-9);
	ck_assert_double_eq_tol(metric(&r, "latency-p99", "cyclic"), 126.307,
				1e-9);
	ck_assert_double_eq_tol(metric(&r, "latency-p99.9", "cyclic"), 277.25,
				1e-9);
	ck_assert_double_eq_tol(metric(&r, "latency-mean", "cyclic"),
				53.28087, 1e-9);
	ck_assert_double_eq_tol(metric(&r, "latency-max", "cyclic"), 525.819,
				1e-9);
	free(s);
}
END_TEST

START_TEST(test_parse_latency_tools)
{
	struct bench_result r = { 0 };
	struct idl_err err = { 0 };
	char *s = slurp("sockperf.txt");
	char ansi[] = "a\033[2;35mbc\033[0md";

	strip_ansi(ansi);
	ck_assert_str_eq(ansi, "abcd");
	ck_assert_int_eq(parse_sockperf(s, &r, &err), 0);
	ck_assert_double_eq_tol(metric(&r, "latency-avg", ""), 12.482, 1e-9);
	ck_assert_double_eq_tol(metric(&r, "latency-p50", ""), 7.295, 1e-9);
	ck_assert_double_eq_tol(metric(&r, "latency-p99", ""), 54.866, 1e-9);
	ck_assert_double_eq_tol(metric(&r, "latency-p99.9", ""), 93.848, 1e-9);
	free(s);
	memset(&r, 0, sizeof(r));
	s = slurp("sockperf-tcp.txt");		/* what the adapter runs */
	ck_assert_int_eq(parse_sockperf(s, &r, &err), 0);
	ck_assert_double_eq_tol(metric(&r, "latency-avg", ""), 20.615, 1e-9);
	ck_assert_double_eq_tol(metric(&r, "latency-p50", ""), 7.706, 1e-9);
	ck_assert_double_eq_tol(metric(&r, "latency-p90", ""), 8.707, 1e-9);
	ck_assert_double_eq_tol(metric(&r, "latency-p99", ""), 68.946, 1e-9);
	ck_assert_double_eq_tol(metric(&r, "latency-p99.9", ""), 2436.644,
				1e-9);
	free(s);
	memset(&r, 0, sizeof(r));
	/* T:0 C 1996 Avg 106, T:1 C 1331 Avg 107: (211576+142417)/3327 */
	s = slurp("cyclictest.txt");
	ck_assert_int_eq(parse_cyclictest(s, &r, &err), 0);
	ck_assert_double_eq_tol(metric(&r, "latency-avg", ""),
				353993.0 / 3327.0, 1e-9);
	ck_assert_double_eq_tol(metric(&r, "latency-max", ""), 3038, 1e-9);
	ck_assert_double_eq_tol(metric(&r, "latency-min", ""), 40, 1e-9);
	free(s);
	memset(&r, 0, sizeof(r));
	s = slurp("fio.json");
	ck_assert_int_eq(parse_fio_json(s, &r, &err), 0);
	ck_assert_double_eq_tol(metric(&r, "iops", ""), 12823.588206, 1e-6);
	ck_assert_double_eq_tol(metric(&r, "clat-mean", ""), 76.23033067,
				1e-6);
	ck_assert_double_eq_tol(metric(&r, "clat-p50", ""), 73.216, 1e-9);
	ck_assert_double_eq_tol(metric(&r, "clat-p99", ""), 140.288, 1e-9);
	free(s);
}
END_TEST

/* ---------------------------------------------- histogram and options */

START_TEST(test_hist)
{
	struct hist *h = malloc(sizeof(*h));
	int i;

	hist_init(h);
	for (i = 1; i <= 10; i++)	/* exact region */
		hist_add(h, (uint64_t)i);
	/* nearest rank: p50 -> 5th value, p90 -> 9th, p99 -> 10th */
	ck_assert_double_eq(hist_percentile(h, 50), 5);
	ck_assert_double_eq(hist_percentile(h, 90), 9);
	ck_assert_double_eq(hist_percentile(h, 99), 10);
	ck_assert_double_eq_tol(hist_mean(h), 5.5, 1e-12);
	hist_init(h);
	hist_add(h, 1000);
	hist_add(h, 3000);
	/* 1000 is in [1000, 1008) (2^9 range, width 8): middle 1004 */
	ck_assert_double_eq(hist_percentile(h, 50), 1004);
	/* 3000: 2^11 range, width 32, bucket [2976, 3008): middle 2992 */
	ck_assert_double_eq(hist_percentile(h, 100), 2992);
	hist_add(h, 10);	/* a middle below the minimum is clamped */
	ck_assert_double_eq(hist_percentile(h, 1), 10);
	free(h);
}
END_TEST

START_TEST(test_opts)
{
	const struct bench_def *const *d;
	const struct bench_opt *o;
	struct bench_args a = { .def = bench_find_def("pingpong"),
				.opts = "gap=5:cpu-b=1", .nr_cpus = 4 };
	struct idl_err err = { 0 };
	cpu_set_t all, one;
	int first = -1, second = -1, c;
	char buf[32];

	ck_assert_double_eq(bench_opt_num(&a, "cpu-b", &err), 1);
	ck_assert_double_eq(bench_opt_num(&a, "gap", &err), 5);
	/* defaults come from the definition, machine ones from the run:
	 * the CPUs this process may run on */
	ck_assert_int_eq(sched_getaffinity(0, sizeof(all), &all), 0);
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &all)) {
			if (first < 0)
				first = c;
			else if (second < 0)
				second = c;
		}
	ck_assert_double_eq(bench_opt_num(&a, "cpu-a", &err), first);
	a.opts = "";
	ck_assert_double_eq(bench_opt_num(&a, "cpu-b", &err),
			    second < 0 ? first : second);
	CPU_ZERO(&one);
	CPU_SET(second < 0 ? first : second, &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);
	ck_assert_double_eq(bench_opt_num(&a, "cpu-a", &err),
			    second < 0 ? first : second);
	ck_assert_double_eq(bench_opt_num(&a, "cpu-b", &err),
			    second < 0 ? first : second);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(all), &all), 0);
	ck_assert_int_eq(bench_opt_str(&a, "nope", buf, sizeof(buf), &err),
			 -1);
	ck_assert(strstr(err.msg, "option 'nope' not declared") != NULL);
	a.def = bench_find_def("wakeup");
	a.opts = "mode=cond";
	a.nr_cpus = 1;
	ck_assert_int_eq(bench_opt_str(&a, "mode", buf, sizeof(buf), &err),
			 0);
	ck_assert_str_eq(buf, "cond");
	ck_assert_double_eq(bench_opt_num(&a, "workers", &err), 1);
	ck_assert_double_eq(bench_opt_num(&a, "work", &err), 20);
	a.opts = "work=abc";
	ck_assert(isnan(bench_opt_num(&a, "work", &err)));
	ck_assert(strstr(err.msg, "work=abc: not a number in 0..1000000000"));
	ck_assert_int_eq(bench_spec_check(bench_find_def("pingpong"),
					  "gap=1:cpu-a=0", &err), 0);
	ck_assert_int_eq(bench_spec_check(bench_find_def("pingpong"),
					  "gap=1:bogus=2", &err), -1);
	ck_assert(strstr(err.msg, "unknown option 'bogus=2' "
			 "(it takes: cpu-a cpu-b gap)") != NULL);
	ck_assert(bench_find_def("pingpong") && !bench_find_def("nope"));
	ck_assert_int_eq(bench_spec_check(bench_find_def("timer"), "rates=7",
					  &err), 0);
	ck_assert_int_eq(bench_spec_check(bench_find_def("timer"),
					  "rates=7:gap=2", &err), -1);
	ck_assert(strstr(err.msg, "benchmark timer: unknown option 'gap=2'"));
	ck_assert_int_eq(bench_spec_check(bench_find_def("fio"), "size",
					  &err), -1);
	ck_assert(bench_available(bench_find_def("timer")));
	/* every option has help and a default that a run can read */
	for (d = bench_list(); *d; d++)
		for (o = (*d)->opts; o->key; o++) {
			ck_assert(o->dfl && o->help && o->help[0]);
			a.def = *d;
			a.opts = "";
			ck_assert_int_eq(bench_opt_str(&a, o->key, buf,
						       sizeof(buf), &err), 0);
			ck_assert(buf[0]);
		}
}
END_TEST

START_TEST(test_plan_order)
{
	int a[5], b[5], seen, i, rep, differs = 0;

	live_plan_order(5, 0, false, 0, a);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(a[i], i);
	for (rep = 0; rep < 8; rep++) {
		live_plan_order(5, rep, true, 42, a);
		live_plan_order(5, rep, true, 42, b);
		seen = 0;
		for (i = 0; i < 5; i++) {
			ck_assert_int_eq(a[i], b[i]);	/* deterministic */
			seen |= 1 << a[i];
			differs += a[i] != i;
		}
		ck_assert_int_eq(seen, 0x1f);		/* a permutation */
	}
	ck_assert_int_gt(differs, 0);
}
END_TEST

/* ---------------------------------------------------------- built-ins */

START_TEST(test_builtins_run)
{
	struct bench_args a = { .duration_s = 0.3, .opts = "",
				.nr_cpus = (unsigned int)
					sysconf(_SC_NPROCESSORS_ONLN) };
	struct bench_result r = { 0 };
	struct idl_err err = { 0 };

	ck_assert_int_eq(bench_run(bench_find_def("pingpong"), &a, &r, &err),
			 0);
	ck_assert_double_gt(metric(&r, "ops/s", ""), 100);
	ck_assert(metric(&r, "rtt-p50", "") <= metric(&r, "rtt-p99", ""));
	/* a CPU it cannot run on: refused, whichever thread it is for */
	memset(&r, 0, sizeof(r));
	a.opts = "cpu-b=1023";
	ck_assert_int_eq(bench_run(bench_find_def("pingpong"), &a, &r, &err),
			 -1);
	ck_assert_int_eq(err.status, IDL_EXIT_BADINPUT);
	ck_assert_msg(strstr(err.msg, "thread that echoes to CPU 1023"),
		      "%s", err.msg);
	a.opts = "cpu-a=1023";
	ck_assert_int_eq(bench_run(bench_find_def("pingpong"), &a, &r, &err),
			 -1);
	ck_assert_msg(strstr(err.msg, "thread that measures to CPU 1023"),
		      "%s", err.msg);
	memset(&r, 0, sizeof(r));
	a.opts = "rates=100/200";
	ck_assert_int_eq(bench_run(bench_find_def("timer"), &a, &r, &err), 0);
	ck_assert_double_ge(metric(&r, "lateness-p50", "100Hz"), 0);
	ck_assert(metric(&r, "lateness-p50", "") <=
		  metric(&r, "lateness-max", ""));
	memset(&r, 0, sizeof(r));
	a.opts = "mode=cond:workers=2:sleep=200";
	ck_assert_int_eq(bench_run(bench_find_def("wakeup"), &a, &r, &err), 0);
	ck_assert_double_gt(metric(&r, "rounds/s", ""), 10);
	memset(&r, 0, sizeof(r));
	a.opts = "workers=1";
	ck_assert_int_eq(bench_run(bench_find_def("wakeup"), &a, &r, &err), 0);
	ck_assert_double_gt(metric(&r, "wakeup-p50", ""), 0);
	a.opts = "rates=0";
	ck_assert_int_eq(bench_run(bench_find_def("timer"), &a, &r, &err), -1);
}
END_TEST

static Suite *live_suite(void)
{
	Suite *s = suite_create("live");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_delta);
	tcase_add_test(tc, test_energy_model);
	tcase_add_test(tc, test_rapl);
	tcase_add_test(tc, test_perfctr);
	tcase_add_test(tc, test_parse_tools);
	tcase_add_test(tc, test_parse_stress_ng);
	tcase_add_test(tc, test_parse_latency_tools);
	tcase_add_test(tc, test_hist);
	tcase_add_test(tc, test_opts);
	tcase_add_test(tc, test_plan_order);
	tcase_add_test(tc, test_builtins_run);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(live_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
