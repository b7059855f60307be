// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The import stages around the event model, on hand-built events and
 * lines: the sorter that restores time order, the HZ estimate, and the
 * text-line parsers (the general one and the fast path), each field read
 * as printed.  The model itself is in check_model.c.
 * HZ = 250 throughout: TICK_NSEC = 4 000 000 ns.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "model.h"
#include "text-import.h"
#include "model-events.h"

/* The sorter restores time order: shuffled input, same periods. */
START_TEST(test_out_of_order)
{
	struct raw_event e[] = {
		idle(3000, 1, EV_IDLE_EXIT),
		idle(1000, 0, 1),
		idle(2000, 1, 1),
		idle(9000, 0, EV_IDLE_EXIT),
		ev(EV_IRQ_HANDLER_ENTRY, 9050, 0),
		idle(4000, 1, 2),
		idle(8000, 1, EV_IDLE_EXIT),
	};
	struct model *m = mk(true);
	struct idl_err err;
	struct ev_sorter *s = ev_sorter_create(4, m, &err);
	int i;

	e[4].irq.irq = 5;
	ck_assert_ptr_nonnull(s);
	for (i = 0; i < 7; i++)
		ck_assert_int_eq(ev_sorter_push(s, &e[i], &err), 0);
	ck_assert_int_eq(ev_sorter_flush(s, &err), 0);
	finish(m);
	ck_assert_int_eq(ngot, 3);
	ck_assert_int_eq(model_get_stats(m)->late_events, 0);
	/* no timer is known: every period waits for one until the end,
	 * then each CPU's go out in order, CPU 0 before CPU 1 */
	ck_assert_uint_eq(got[0].cpu, 0);
	ck_assert_uint_eq(got[0].exit_ns, 9000);
	ck_assert_int_eq(got[0].wake_cause, WAKE_IRQ);
	ck_assert_uint_eq(got[0].wake_detail, 5);
	ck_assert_uint_eq(got[1].cpu, 1);
	ck_assert_uint_eq(got[1].entry_ns, 2000);
	ck_assert_uint_eq(got[1].exit_ns, 3000);
	ck_assert_uint_eq(got[2].entry_ns, 4000);
	ck_assert_int_eq(got[2].state, 2);
	ev_sorter_free(s);
	model_free(m);
}
END_TEST

START_TEST(test_hz_estimate)
{
	struct hz_est h;
	struct raw_event a = hr(EV_HRTIMER_START, 1, 0, TICK0, 8000000, true,
				1);
	struct raw_event b = hr(EV_HRTIMER_START, 2, 0, TICK0, 12000000, true,
				1);

	hz_est_init(&h);
	ck_assert_uint_eq(hz_est_result(&h), 0);
	hz_est_feed(&h, &a);
	hz_est_feed(&h, &b);
	ck_assert_uint_eq(hz_est_result(&h), 250);
	ck_assert(ev_is_tick_function("tick_nohz_handler"));
	ck_assert(ev_is_tick_function("tick_sched_timer"));
	ck_assert(!ev_is_tick_function("hrtimer_wakeup"));
	ck_assert_uint_eq(ev_name_hash("hrtimer_wakeup"), HRW);
}
END_TEST

/*
 * The tick handler is tick_nohz_handler from 6.9, the release that
 * brought timer migration (before: tick_sched_timer, and 6.7-6.8's
 * tick_nohz_highres_handler): a capture whose tick has that name comes
 * from a kernel that migrates timers, without a migration in it.  Any
 * other hrtimer of that name (not the tick) says nothing.
 */
START_TEST(test_tmigr_from_tick_name)
{
	static const char *const names[] = {
		"tick_sched_timer", "tick_nohz_highres_handler",
		"tick_nohz_handler",
	};
	struct hz_est h;
	struct raw_event e;
	int i;

	for (i = 0; i < 3; i++) {
		hz_est_init(&h);
		e = hr(EV_HRTIMER_EXPIRE_ENTRY, 1, 0, TICK0, 8000000, true,
		       ev_name_hash(names[i]));
		hz_est_feed(&h, &e);
		ck_assert_int_eq(h.tmigr_seen, i == 2);
	}
	hz_est_init(&h);
	e = hr(EV_HRTIMER_START, 1, 0, 0x777, 8000000, false,
	       ev_name_hash("tick_nohz_handler"));
	hz_est_feed(&h, &e);
	ck_assert(!h.tmigr_seen);
}
END_TEST

/*
 * The scan of a text file estimates HZ chunk by chunk and merges the
 * estimators in file order: cut anywhere, the merged estimator is the one
 * fed everything.  Ticks re-armed 4 ms apart on CPU 0 (the smallest gap
 * only across the cut at 3), 3 ms apart on CPU 1 (bigger than 1/HZ but
 * the smallest gap of the run when seen whole), and jiffies of timer_start.
 */
START_TEST(test_hz_estimate_merge)
{
	struct raw_event e[] = {
		hr(EV_HRTIMER_START, 1, 0, TICK0, 8000000, true, 1),
		wheel(2, 1, 0x2000, 100, 105, 1),
		hr(EV_HRTIMER_START, 3, 1, TICK1, 9000000, true, 1),
		hr(EV_HRTIMER_START, 4, 0, TICK0, 12000000, true, 1),
		hr(EV_HRTIMER_START, 5, 1, TICK1, 12000000, true, 1),
		wheel(600000000, 1, 0x2000, 250, 255, 1),
		hr(EV_HRTIMER_START, 600000001, 0, TICK0, 20000000, true, 1),
		wheel(900000000, 0, 0x2001, 325, 330, 0),
	};
	const int n = sizeof(e) / sizeof(e[0]);
	struct hz_est all, a, b;
	int cut, i;

	hz_est_init(&all);
	for (i = 0; i < n; i++)
		hz_est_feed(&all, &e[i]);
	for (cut = 0; cut <= n; cut++) {
		hz_est_init(&a);
		hz_est_init(&b);
		for (i = 0; i < n; i++)
			hz_est_feed(i < cut ? &a : &b, &e[i]);
		hz_est_merge(&a, &b);
		ck_assert_int_eq(a.tick_min_gap, all.tick_min_gap);
		ck_assert_int_eq(memcmp(a.tick_last, all.tick_last,
					sizeof(a.tick_last)), 0);
		ck_assert_uint_eq(a.j0, all.j0);
		ck_assert_uint_eq(a.j1, all.j1);
		ck_assert_uint_eq(a.j0_ts, all.j0_ts);
		ck_assert_uint_eq(a.j1_ts, all.j1_ts);
		ck_assert_uint_eq(hz_est_result(&a), hz_est_result(&all));
	}
	/* 3 ms gaps on CPU 1 are no standard HZ; jiffies say 250 */
	ck_assert_int_eq(all.tick_min_gap, 3000000);
	ck_assert_uint_eq(hz_est_result(&all), 250);
}
END_TEST

/*
 * The sorter holds in-order events and stragglers apart: a mix of both
 * must still come out in time order.  Window 6: pushing the 7th event
 * (40) releases 5, the 8th (35) releases 10, and so on: the model sees
 * 5 10 20 25 30 35 40 40 45 45 50 60, then the flush 65 ... 100, never
 * an event older than the one before (late_events counts those).
 */
START_TEST(test_sorter_stragglers)
{
	static const uint64_t in[] = { 10, 20, 30, 25, 40, 5, 40, 35, 50, 60,
				       45, 45, 70, 65, 80, 90, 85, 100 };
	struct model_opts o = { .hz = 250, .poll_state = -1 };
	struct idl_err err;
	struct model *m = model_create(&o, collect, NULL, &err);
	struct ev_sorter *s = ev_sorter_create(6, m, &err);
	const struct model_stats *st;
	size_t i;

	ck_assert_ptr_nonnull(s);
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		struct raw_event e = ev(EV_IRQ_HANDLER_ENTRY, in[i] * 1000, 0);

		ck_assert_int_eq(ev_sorter_push(s, &e, &err), 0);
	}
	ck_assert_int_eq(ev_sorter_flush(s, &err), 0);
	st = model_get_stats(m);
	ck_assert_uint_eq(st->events, sizeof(in) / sizeof(in[0]));
	ck_assert_uint_eq(st->late_events, 0);
	ck_assert_uint_eq(st->first_ts, 5000);
	ck_assert_uint_eq(st->last_ts, 100000);
	ev_sorter_free(s);
	model_free(m);
}
END_TEST

/* ---- text lines: each field read as printed, by hand */
static struct raw_event tl_ev[8];
static int tl_n;

static int tl_sink(void *ctx, const struct raw_event *e, struct idl_err *err)
{
	(void)ctx;
	(void)err;
	ck_assert_int_lt(tl_n, 8);
	tl_ev[tl_n++] = *e;
	return 0;
}

static int tl(const char *text, char *buffer)
{
	char line[512];
	struct idl_err err;

	snprintf(line, sizeof(line), "%s", text);
	tl_n = 0;
	return import_text_line("t", 1, line, NULL, buffer, 64, tl_sink, NULL,
				&err);
}

START_TEST(test_text_lines)
{
	char buf[64];

	/* usec timestamp, -1 exit, CRLF, instance prefix */
	ck_assert_int_eq(tl("foo:  <idle>-0 [003] 12.000250: cpu_idle: "
			    "state=-1 cpu_id=3\r\n", buf), 0);
	ck_assert_int_eq(tl_n, 1);
	ck_assert_str_eq(buf, "foo");
	ck_assert_uint_eq(tl_ev[0].ts, 12000250000ULL);
	ck_assert_uint_eq(tl_ev[0].cpu, 3);
	ck_assert_uint_eq(tl_ev[0].idle.state, EV_IDLE_EXIT);
	/* the task column: pid 0 is a CPU's idle task */
	ck_assert_uint_eq(tl_ev[0].ctx, EV_CTX_TASK_KNOWN | EV_CTX_IDLE_TASK);
	ck_assert_int_eq(tl("  kworker/0:10-100 [000] 1.0: cpu_idle: "
			    "state=1 cpu_id=0", buf), 0);
	ck_assert_uint_eq(tl_ev[0].ctx, EV_CTX_TASK_KNOWN);
	ck_assert_int_eq(tl("  swapper     0 [000] 1.0: power:cpu_idle: "
			    "state=1 cpu_id=0", buf), 0);
	ck_assert_uint_eq(tl_ev[0].ctx, EV_CTX_TASK_KNOWN | EV_CTX_IDLE_TASK);
	ck_assert_int_eq(tl("  perf 17/17 [001] 1.0: power:cpu_idle: "
			    "state=1 cpu_id=1", buf), 0);
	ck_assert_uint_eq(tl_ev[0].ctx, EV_CTX_TASK_KNOWN);
	ck_assert_int_eq(tl("[001] 1.0: cpu_idle: state=1 cpu_id=1", buf), 0);
	ck_assert_uint_eq(tl_ev[0].ctx, 0);
	/* perf script -F without the tid, a tid of -1: no pid */
	ck_assert_int_eq(tl("  ksoftirqd/0 [000] 1.0: cpu_idle: "
			    "state=1 cpu_id=0", buf), 0);
	ck_assert_uint_eq(tl_ev[0].ctx, 0);
	ck_assert_int_eq(tl("  perf 12/-1 [000] 1.0: cpu_idle: "
			    "state=1 cpu_id=0", buf), 0);
	ck_assert_uint_eq(tl_ev[0].ctx, 0);
	ck_assert_int_eq(tl("  perf 12/13 [000] 1.0: cpu_idle: "
			    "state=1 cpu_id=0", buf), 0);
	ck_assert_int_eq(tl_ev[0].pid, 13);
	/* ftrace's record-tgid column */
	ck_assert_int_eq(tl("  bash-1234 (  1230) [000] 1.0: cpu_idle: "
			    "state=1 cpu_id=0", buf), 0);
	ck_assert_uint_eq(tl_ev[0].ctx, EV_CTX_TASK_KNOWN);
	ck_assert_int_eq(tl_ev[0].pid, 1234);
	ck_assert_int_eq(tl("  <idle>-0 (-------) [000] 1.0: cpu_idle: "
			    "state=1 cpu_id=0", buf), 0);
	ck_assert_uint_eq(tl_ev[0].ctx, EV_CTX_TASK_KNOWN | EV_CTX_IDLE_TASK);
	/* irq-info column, nsec, pointer and function with an offset */
	ck_assert_int_eq(tl("  sh-5 [001] d.h1. 7.000000001: hrtimer_start: "
			    "hrtimer=0xffff8880aa function=tick_nohz_handler/0x0 "
			    "expires=7004000000 softexpires=7004000000 mode=ABS",
			    buf), 0);
	ck_assert_str_eq(buf, "");
	ck_assert_uint_eq(tl_ev[0].ts, 7000000001ULL);
	ck_assert_uint_eq(tl_ev[0].ctx, EV_CTX_KNOWN | EV_CTX_HARDIRQ |
					EV_CTX_TASK_KNOWN);
	ck_assert_uint_eq(tl_ev[0].timer.timer, 0xffff8880aaULL);
	ck_assert(tl_ev[0].timer.is_tick);
	ck_assert_int_eq(tl_ev[0].timer.expires, 7004000000LL);
	/* timer_start: cpu=, flags letters, [timeout=] gives now */
	ck_assert_int_eq(tl("  sh-5 [000] 7.5: timer_start: timer=00000000ab "
			    "function=process_timeout expires=1100 "
			    "[timeout=100] bucket_expiry=1104 cpu=1 idx=9 "
			    "flags=D|P", buf), 0);
	ck_assert_uint_eq(tl_ev[0].timer.flags,
			  1 | EV_TIMER_DEFERRABLE | EV_TIMER_PINNED |
			  9U << EV_TIMER_ARRAYSHIFT);
	ck_assert_uint_eq(tl_ev[0].timer.now, 1000);
	ck_assert_uint_eq(tl_ev[0].timer.bucket_expiry, 1104);
	ck_assert(tl_ev[0].timer.has_bucket && tl_ev[0].timer.has_idx);
	ck_assert_uint_eq(tl_ev[0].timer.fn, PTO);
	/* before bucket_expiry was traced (6.1): the index only */
	ck_assert_int_eq(tl("  sh-5 [000] 7.5: timer_start: timer=00000000ab "
			    "function=process_timeout expires=1085 "
			    "[timeout=125] cpu=0 idx=68 flags=", buf), 0);
	ck_assert_uint_eq(tl_ev[0].timer.flags, 68U << EV_TIMER_ARRAYSHIFT);
	ck_assert(!tl_ev[0].timer.has_bucket && tl_ev[0].timer.has_idx);
	ck_assert_int_eq(tl("  sh-5 [000] 7.5: timer_start: timer=00000000ab "
			    "function=process_timeout expires=1085 "
			    "[timeout=125] cpu=0 idx=576 flags=", buf), -1);
	/* cpumask: hex words, CPUs 0, 2 and 32 */
	ck_assert_int_eq(tl("  sh-5 [000] 8.0: ipi_send_cpumask: "
			    "cpumask=00000001,00000005 callsite=x callback=y",
			    buf), 0);
	ck_assert_int_eq(tl_n, 3);
	ck_assert_uint_eq(tl_ev[0].ipi.target, 0);
	ck_assert_uint_eq(tl_ev[1].ipi.target, 2);
	ck_assert_uint_eq(tl_ev[2].ipi.target, 32);
	/* trace-cmd's sched plugin formats; a comm with spaces */
	ck_assert_int_eq(tl("  rs:main Q:Reg-238 [003] 9.0: sched_switch: "
			    "rs:main Q:Reg:238 [120] S ==> swapper/3:0 [120]",
			    buf), 0);
	ck_assert_int_eq(tl_ev[0].sw.prev_pid, 238);
	ck_assert_int_eq(tl_ev[0].sw.next_pid, 0);
	ck_assert_int_eq(tl("  sh-5 [000] 9.1: sched_wakeup: sh:6 [120] "
			    "success=1 CPU:002", buf), 0);
	ck_assert_int_eq(tl_ev[0].wakeup.target_cpu, 2);
	/* interrupt ends: the vector or irq; softirq context from 's' */
	ck_assert_int_eq(tl("  sh-5 [000] ..s.. 9.2: softirq_exit: vec=7 "
			    "[action=SCHED]", buf), 0);
	ck_assert_int_eq(tl_n, 1);
	ck_assert_uint_eq(tl_ev[0].type, EV_SOFTIRQ_EXIT);
	ck_assert_int_eq(tl_ev[0].irq.irq, 7);
	ck_assert_uint_eq(tl_ev[0].ctx, EV_CTX_KNOWN | EV_CTX_SOFTIRQ |
					EV_CTX_TASK_KNOWN);
	ck_assert_int_eq(tl("  sh-5 [000] d.H.. 9.2: irq_handler_exit: irq=11 "
			    "ret=handled", buf), 0);
	ck_assert_uint_eq(tl_ev[0].type, EV_IRQ_HANDLER_EXIT);
	ck_assert_int_eq(tl_ev[0].irq.irq, 11);
	ck_assert_uint_eq(tl_ev[0].ctx, EV_CTX_KNOWN | EV_CTX_HARDIRQ |
					EV_CTX_SOFTIRQ | EV_CTX_TASK_KNOWN);
	/* unknown event: skipped; known event, bad field: error */
	ck_assert_int_eq(tl("  sh-5 [000] 9.2: softirq_raise: vec=1", buf), 0);
	ck_assert_int_eq(tl_n, 0);
	ck_assert_int_eq(tl("  sh-5 [000] 9.3: cpu_idle: state=x cpu_id=0",
			    buf), -1);
	ck_assert_int_eq(tl("CPU:1 [LOST 42 EVENTS]", buf), 0);
	ck_assert_int_eq(tl_ev[0].type, EV_LOST);
	ck_assert_uint_eq(tl_ev[0].lost.count, 42);
	ck_assert_int_eq(tl("bar: CPU:1 [3889 EVENTS DROPPED]", buf), 0);
	ck_assert_str_eq(buf, "bar");
	ck_assert_uint_eq(tl_ev[0].lost.count, 3889);
}
END_TEST

/* Every event name the importers read, and names that are nearly one. */
START_TEST(test_event_names)
{
	static const struct {
		const char	*name;
		uint16_t	type;
	} names[] = {
		{ "cpu_idle", EV_CPU_IDLE },
		{ "cpu_idle_miss", EV_CPU_IDLE_MISS },
		{ "hrtimer_start", EV_HRTIMER_START },
		{ "hrtimer_cancel", EV_HRTIMER_CANCEL },
		{ "hrtimer_expire_entry", EV_HRTIMER_EXPIRE_ENTRY },
		{ "timer_start", EV_TIMER_START },
		{ "timer_cancel", EV_TIMER_CANCEL },
		{ "timer_expire_entry", EV_TIMER_EXPIRE_ENTRY },
		{ "tick_stop", EV_TICK_STOP },
		{ "irq_handler_entry", EV_IRQ_HANDLER_ENTRY },
		{ "ipi_send_cpu", EV_IPI_SEND_CPU },
		{ "ipi_send_cpumask", EV_IPI_SEND_CPUMASK },
		{ "sched_wakeup", EV_SCHED_WAKEUP },
		{ "sched_switch", EV_SCHED_SWITCH },
		{ "pm_qos_update_target", EV_PM_QOS_UPDATE },
		{ "pm_qos_add_request", EV_PM_QOS_REQUEST },
		{ "pm_qos_update_request", EV_PM_QOS_REQUEST },
		{ "pm_qos_remove_request", EV_PM_QOS_REQUEST },
		{ "dev_pm_qos_add_request", EV_DEV_QOS_REQUEST },
		{ "dev_pm_qos_update_request", EV_DEV_QOS_REQUEST },
		{ "dev_pm_qos_remove_request", EV_DEV_QOS_REQUEST },
		{ "irq_handler_exit", EV_IRQ_HANDLER_EXIT },
		{ "softirq_entry", EV_SOFTIRQ_ENTRY },
		{ "softirq_exit", EV_SOFTIRQ_EXIT },
		{ "pm_qos_update_flags", EV_NONE },
		{ "dev_pm_qos_update_reques", EV_NONE },
		/* other events of the same groups, and near misses */
		{ "", EV_NONE }, { "c", EV_NONE }, { "cpu_idl", EV_NONE },
		{ "cpu_idlE", EV_NONE }, { "Cpu_idle", EV_NONE },
		{ "cpu_idle_mist", EV_NONE }, { "hrtimer_expire_exit", EV_NONE },
		{ "timer_expire_exit", EV_NONE }, { "timer_init", EV_NONE },
		{ "sched_wakeup_new", EV_NONE }, { "sched_waking", EV_NONE },
		{ "ipi_send_cpv", EV_NONE }, { "irq_handler_exiT", EV_NONE },
		{ "softirq_raise", EV_NONE }, { "softirq_exiT", EV_NONE },
		{ "hrtimer_starts", EV_NONE }, { "tick_stoq", EV_NONE },
		{ "hrtimer_expire_entrz", EV_NONE }, { "xpi_send_cpumask", EV_NONE },
	};
	char buf[32];
	size_t i, n;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		n = strlen(names[i].name);
		/* not NUL-terminated where the fast path calls it */
		memcpy(buf, names[i].name, n);
		memcpy(buf + n, ": x", 4);
		ck_assert_msg(text_event_type(buf, n) == names[i].type,
			      "%s", names[i].name);
	}
}
END_TEST

/*
 * The fast path reads numbers eight bytes at a time: numbers of every
 * length from 1 to 20 digits (hex: 1 to 17), starting at every offset
 * modulo 8, read by the fast path and by the general parser (a byte
 * loop) give the same event, and the value the test computes itself.  Longer numbers than
 * the fast reader takes go to the general decoder, in the same call.
 */
static int fast_one(char *line, struct raw_event *e, int *n)
{
	struct text_fast f = { .path = "t", .want = NULL, .sink = tl_sink };
	struct idl_err err;
	int r;

	tl_n = 0;
	r = text_fast_line(&f, 1, line, strlen(line), &err);
	*n = tl_n;
	if (tl_n)
		*e = tl_ev[0];
	return r;
}

START_TEST(test_fast_numbers)
{
	/* zeros after the text: the chunk buffers' slack */
	char line[512], copy[512], buf[64], digits[24];
	struct raw_event fast = { 0 }, gen;
	uint64_t want, x = 0x9E3779B97F4A7C15ULL;
	int len, pad, flen, i, r, nf;

	for (len = 1; len <= 20; len++) {
		for (pad = 0; pad < 8; pad++) {
			want = 0;
			for (i = 0; i < len; i++) {
				x = x * 6364136223846793005ULL +
				    1442695040888963407ULL;
				digits[i] = (char)('0' + (x >> 60) % 10);
				want = want * 10 + (uint64_t)(digits[i] - '0');
			}
			digits[len] = 0;
			memset(line, 0, sizeof(line));
			snprintf(line, sizeof(line), "%*s<idle>-0 [001] d.h1. "
				 "7.000000001: hrtimer_start: hrtimer=0xaa "
				 "function=foo expires=%s softexpires=1 "
				 "mode=ABS", pad + 1, "", digits);
			memcpy(copy, line, sizeof(line));
			r = fast_one(line, &fast, &nf);
			/* the same result either way */
			ck_assert_int_eq(r, tl(copy, buf));
			gen = tl_ev[0];
			if (len > 18) {
				/* past the fast reader: the general decoder's,
				 * within the same call */
				if (!r)
					ck_assert_int_eq(fast.timer.expires,
							 gen.timer.expires);
				continue;
			}
			ck_assert_int_eq(r, 0);
			ck_assert_int_eq(nf, 1);
			ck_assert_int_eq(fast.timer.expires, (int64_t)want);
			ck_assert_int_eq(gen.timer.expires, (int64_t)want);
			ck_assert_uint_eq(fast.ts, 7000000001ULL);
		}
	}
	/* pointers: 1 to 17 hex digits of either case, with or without
	 * 0x, at every offset modulo 8 */
	for (len = 1; len <= 17; len++) {
		for (pad = 0; pad < 16; pad++) {
			static const char hexd[] = "0123456789abcdefABCDEF";
			unsigned int d;

			want = 0;
			for (i = 0; i < len; i++) {
				x = x * 6364136223846793005ULL +
				    1442695040888963407ULL;
				d = (unsigned int)(x >> 59) % 22;
				digits[i] = hexd[d];
				want = want << 4 | (d < 16 ? d : d - 6);
			}
			digits[len] = 0;
			memset(line, 0, sizeof(line));
			snprintf(line, sizeof(line), "%*s<idle>-0 [001] d.h1. "
				 "7.000000001: hrtimer_cancel: hrtimer=%s%s",
				 pad % 8 + 1, "", pad < 8 ? "0x" : "", digits);
			memcpy(copy, line, sizeof(line));
			r = fast_one(line, &fast, &nf);
			ck_assert_int_eq(r, tl(copy, buf));
			if (len > 16) {
				/* the general decoder's, as for decimals */
				if (!r)
					ck_assert_uint_eq(fast.timer.timer,
							  tl_ev[0].timer.timer);
				continue;
			}
			ck_assert_int_eq(r, 0);
			ck_assert_int_eq(nf, 1);
			ck_assert_uint_eq(fast.timer.timer, want);
			ck_assert_uint_eq(tl_ev[0].timer.timer, want);
		}
	}
	/* timestamps: 1 to 9 digits of seconds and of fraction */
	for (len = 1; len <= 9; len++) {
		for (flen = 1; flen <= 9; flen++) {
			uint64_t sec = 0, frac = 0, scale = 1;

			for (i = 0; i < len; i++)
				sec = sec * 10 + (uint64_t)((i * 7 + 3) % 10);
			for (i = 0; i < flen; i++)
				frac = frac * 10 + (uint64_t)((i * 3 + 1) % 10);
			for (i = flen; i < 9; i++)
				scale *= 10;
			memset(line, 0, sizeof(line));
			snprintf(line, sizeof(line), "%*s<idle>-0 [%03d] d..1. "
				 "%0*llu.%0*llu: cpu_idle: state=%d cpu_id=%d",
				 len, "", flen, len, (unsigned long long)sec,
				 flen, (unsigned long long)frac, len, flen);
			ck_assert_int_eq(fast_one(line, &fast, &nf), 0);
			ck_assert_int_eq(nf, 1);
			ck_assert_uint_eq(fast.ts, sec * 1000000000ULL +
						   frac * scale);
			ck_assert_uint_eq(fast.cpu, (unsigned int)flen);
			ck_assert_uint_eq(fast.idle.state, (unsigned int)len);
			ck_assert_uint_eq(fast.idle.cpu_id, (unsigned int)flen);
		}
	}
}
END_TEST

static Suite *model_import_suite(void)
{
	Suite *s = suite_create("model_import");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_out_of_order);
	tcase_add_test(tc, test_hz_estimate);
	tcase_add_test(tc, test_hz_estimate_merge);
	tcase_add_test(tc, test_tmigr_from_tick_name);
	tcase_add_test(tc, test_sorter_stragglers);
	tcase_add_test(tc, test_text_lines);
	tcase_add_test(tc, test_event_names);
	tcase_add_test(tc, test_fast_numbers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(model_import_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
