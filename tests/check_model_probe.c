// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe events with the kernel's own governor inputs (doc/importing.md,
 * "Probed inputs"): kprobes:idlelab_sleep_length (the return value of
 * tick_nohz_get_sleep_length() in the select before an entry),
 * kprobes:idlelab_residency (dev->last_residency_ns at cpuidle_reflect(),
 * after the exit) and kprobes:idlelab_got_tick (the return value of
 * tick_nohz_idle_got_tick() in the governor's reflect).  Expected values
 * are the probes' own numbers, which must reach the period unchanged.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "trace.h"
#include "text-import.h"
#include "model-events.h"

static struct raw_event probe(uint16_t type, uint64_t ts, uint32_t cpu,
			      int64_t value)
{
	struct raw_event e = ev(type, ts, cpu);

	e.probe.value = value;
	return e;
}

static struct raw_event miss(uint64_t ts, uint32_t cpu, uint32_t state,
			     bool below)
{
	struct raw_event e = ev(EV_CPU_IDLE_MISS, ts, cpu);

	e.miss.cpu_id = cpu;
	e.miss.state = state;
	e.miss.below = below;
	return e;
}

/*
 * hrtimer_wakeup armed for 5 ms: the model alone would give a sleep
 * length of 5 ms less its "now" (about 3 ms).  The probes say 3 123 456
 * ns, a residency of 1 998 765 ns (the trace's period is 2 000 000 ns)
 * and a tick: the period carries exactly those.  The second got_tick is
 * do_idle()'s read after the governor's, which cleared the flag.
 */
START_TEST(test_probes_replace_inputs)
{
	struct model *m = mk(true);
	struct trace_meta meta;
	struct raw_event e[] = {
		sw(1000, 0, 42, 0),
		hr(EV_HRTIMER_START, 500000, 0, 0x2000, 5000000, false, HRW),
		probe(EV_PROBE_SLEEP, 1900000, 0, 3123456),
		idle(2000000, 0, 1),
		idle(4000000, 0, EV_IDLE_EXIT),
		probe(EV_PROBE_RESIDENCY, 4000500, 0, 1998765),
		probe(EV_PROBE_GOT_TICK, 4000600, 0, 1),
		probe(EV_PROBE_GOT_TICK, 4000700, 0, 0),
		sw(4100000, 0, 0, 42),
	};

	feed(m, e, 9);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].sleep_length_ns, 3123456);
	ck_assert(got[0].flags & IP_SLEEP_EXACT);
	ck_assert(got[0].flags & IP_GOT_TICK);
	ck_assert_uint_eq(got[0].entry_ns, 2000000);
	ck_assert_uint_eq(got[0].exit_ns, 2000000 + 1998765);
	ck_assert_uint_eq(model_get_stats(m)->probed_sleep, 1);
	ck_assert_uint_eq(model_get_stats(m)->probed_res, 1);
	ck_assert_uint_eq(model_get_stats(m)->probed_tick, 1);
	/* every period ends where the kernel measured it: no lag */
	trace_meta_init(&meta);
	model_fill_meta(m, &meta);
	ck_assert_int_eq(meta.residency_lag_ns, 0);
	/* the probes are among the event types the trace holds (info
	 * words the lag by them), the lost-events type never is */
	ck_assert_uint_eq(meta.events_seen & (1U << EV_PROBE_SLEEP |
					      1U << EV_PROBE_RESIDENCY |
					      1U << EV_PROBE_GOT_TICK),
			  1U << 22 | 1U << 23 | 1U << 24);
	ck_assert(!(meta.events_seen & (1U << EV_LOST)));
	model_free(m);
}
END_TEST

/*
 * cpu_idle_miss comes before the reflect.  Before any reflect probe is
 * seen it closes its period (the first period keeps the trace's end),
 * after one it waits for them: the second period takes residency
 * 2 999 000 and no tick although the model saw none of that.
 */
START_TEST(test_miss_waits_for_reflect)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		idle(1000000, 0, 2),
		idle(1050000, 0, EV_IDLE_EXIT),
		miss(1050100, 0, 2, false),
		probe(EV_PROBE_RESIDENCY, 1050200, 0, 49000),
		probe(EV_PROBE_GOT_TICK, 1050300, 0, 0),
		idle(2000000, 0, 2),
		idle(5000000, 0, EV_IDLE_EXIT),
		miss(5000100, 0, 2, true),
		probe(EV_PROBE_RESIDENCY, 5000200, 0, 2999000),
		probe(EV_PROBE_GOT_TICK, 5000300, 0, 1),
		idle(6000000, 0, 1),
	};

	feed(m, e, 11);
	finish(m);
	ck_assert_int_eq(ngot, 2);
	ck_assert_uint_eq(got[0].exit_ns, 1050000);
	ck_assert(got[0].flags & IP_MISS_ABOVE);
	ck_assert_uint_eq(got[1].exit_ns, 2000000 + 2999000);
	ck_assert(got[1].flags & IP_MISS_BELOW);
	ck_assert(got[1].flags & IP_GOT_TICK);
	ck_assert_uint_eq(model_get_stats(m)->probed_res, 1);
	model_free(m);
}
END_TEST

/*
 * A residency longer than the traced period is not this period's (the
 * kernel reads its clock inside the cpu_idle events): not used, counted.
 * A sleep length probed in a select that entered nothing (the idle loop
 * ended: a switch to a task) is not the next period's.
 */
START_TEST(test_probes_not_taken)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		sw(1000, 0, 42, 0),
		probe(EV_PROBE_SLEEP, 900000, 0, 777),
		sw(950000, 0, 0, 42),
		sw(960000, 0, 42, 0),
		idle(2000000, 0, 1),
		idle(3000000, 0, EV_IDLE_EXIT),
		probe(EV_PROBE_RESIDENCY, 3000500, 0, 1000001),
		sw(3100000, 0, 0, 42),
	};

	feed(m, e, 8);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_ne(got[0].sleep_length_ns, 777);
	ck_assert_uint_eq(got[0].exit_ns, 3000000);
	ck_assert_uint_eq(model_get_stats(m)->probed_sleep, 0);
	ck_assert_uint_eq(model_get_stats(m)->probe_res_off, 1);
	model_free(m);
}
END_TEST

/* ---- the probes' lines as ftrace prints them */
static struct raw_event line_ev;
static int line_n;

static int one_sink(void *ctx, const struct raw_event *e, struct idl_err *err)
{
	(void)ctx;
	(void)err;
	line_ev = *e;
	line_n++;
	return 0;
}

/* @text through the general parser and the fast path: the same event
 * (the fast path takes lines that start with a blank, as ftrace pads) */
static struct raw_event parse_both(const char *text)
{
	struct text_fast f = { .path = "t", .sink = one_sink };
	struct raw_event general;
	struct idl_err err;
	char line[512], buf[64];

	/* zeros after the text: the chunk buffers' slack */
	memset(line, 0, sizeof(line));
	snprintf(line, sizeof(line), "%s", text);
	line_n = 0;
	ck_assert_int_eq(import_text_line("t", 1, line, NULL, buf, sizeof(buf),
					  one_sink, NULL, &err), 0);
	ck_assert_int_eq(line_n, 1);
	general = line_ev;
	snprintf(line, sizeof(line), "%s", text);
	line_n = 0;
	ck_assert_int_eq(text_fast_line(&f, 1, line, strlen(line), &err), 0);
	ck_assert_int_eq(line_n, 1);
	ck_assert_int_eq(line_ev.type, general.type);
	ck_assert_int_eq(line_ev.probe.value, general.probe.value);
	ck_assert_uint_eq(line_ev.ts, general.ts);
	return general;
}

START_TEST(test_probe_lines)
{
	struct raw_event e;
	struct idl_err err;
	char line[256], buf[64];

	e = parse_both("          <idle>-0       [001] d..1.   712.345678: "
		       "idlelab_sleep_length: (menu_select+0x9c/0x4a0 <- "
		       "tick_nohz_get_sleep_length) ns=1045923");
	ck_assert_int_eq(e.type, EV_PROBE_SLEEP);
	ck_assert_uint_eq(e.cpu, 1);
	ck_assert_uint_eq(e.ts, 712345678000ULL);
	ck_assert_int_eq(e.probe.value, 1045923);
	e = parse_both("  <idle>-0 [000] d..1. 1.000002: idlelab_sleep_length: "
		       "(menu_select+0x9c/0x4a0 <- tick_nohz_get_sleep_length)"
		       " ns=-2500");
	ck_assert_int_eq(e.probe.value, -2500);
	e = parse_both("  <idle>-0 [000] d..1. 1.000003: idlelab_residency: "
		       "(cpuidle_reflect+0x0/0x50) ns=998877");
	ck_assert_int_eq(e.type, EV_PROBE_RESIDENCY);
	ck_assert_int_eq(e.probe.value, 998877);
	e = parse_both("  <idle>-0 [000] d..1. 1.000004: idlelab_got_tick: "
		       "(menu_reflect+0x2c/0x60 <- tick_nohz_idle_got_tick) "
		       "tick=1");
	ck_assert_int_eq(e.type, EV_PROBE_GOT_TICK);
	ck_assert_int_eq(e.probe.value, 1);
	/* perf script names the kprobe group */
	e = parse_both("  swapper 0 [002] 5.000001: kprobes:idlelab_got_tick: "
		       "(menu_reflect+0x2c/0x60 <- tick_nohz_idle_got_tick) "
		       "tick=0");
	ck_assert_int_eq(e.type, EV_PROBE_GOT_TICK);
	ck_assert_int_eq(e.probe.value, 0);
	/* a probe without its value is bad input, named */
	snprintf(line, sizeof(line), "<idle>-0 [000] d..1. 1.0: "
		 "idlelab_residency: (cpuidle_reflect+0x0/0x50) res=5");
	ck_assert_int_eq(import_text_line("t", 7, line, NULL, buf, sizeof(buf),
					  one_sink, NULL, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "t:7: idlelab_residency: no ns="));
}
END_TEST

static Suite *probe_suite(void)
{
	Suite *s = suite_create("model-probe");
	TCase *tc = tcase_create("probes");

	tcase_add_test(tc, test_probes_replace_inputs);
	tcase_add_test(tc, test_miss_waits_for_reflect);
	tcase_add_test(tc, test_probes_not_taken);
	tcase_add_test(tc, test_probe_lines);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(probe_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
