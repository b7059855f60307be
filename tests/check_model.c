// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The event model on hand-built event sequences.  Every expected value
 * is worked out in the comments from the rules of doc/importing.md and
 * the kernel's tick_nohz_get_sleep_length() (doc/governors.md section
 * 3.2), not from the code.
 * HZ = 250 throughout: TICK_NSEC = 4 000 000 ns.
 * The model where the trace is silent is in check_model_infer.c, the
 * import stages around it in check_model_import.c.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "model-events.h"

/*
 * CPU 0 goes idle at 2 ms with hrtimer_wakeup armed for 5 ms and the tick
 * armed for 4 ms.  That period has no exit; the next one is entered at
 * 4.0003 ms, after the tick fired at 4.0001 ms: the kernel's "now" (its
 * idle entry time) is at the last event before select, the tick's
 * expiry, so sleep length = delta_tick = 5 - 4.0001 ms (the tick was not
 * re-armed: the hrtimer is the next event), both exact.  The hrtimer
 * interrupt at 5 ms runs after the exit: wake cause hrtimer, detail =
 * hash of its name.
 */
START_TEST(test_sleep_is_programmed_timer)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		sw(1000, 0, 42, 0),
		hr(EV_HRTIMER_START, 500000, 0, 0x2000, 5000000, false, HRW),
		hr(EV_HRTIMER_START, 600000, 0, TICK0, 4000000, true, 1),
		idle(2000000, 0, 1),
		hr(EV_HRTIMER_EXPIRE_ENTRY, 4000100, 0, TICK0, 4000000, true, 1),
		idle(4000300, 0, 1),
		idle(5000050, 0, EV_IDLE_EXIT),
		hr(EV_HRTIMER_EXPIRE_ENTRY, 5000060, 0, 0x2000, 5000000, false,
		   HRW),
	};

	feed(m, e, 8);
	finish(m);
	/* the first period (2 ms .. tick at 4 ms) has no exit: dropped */
	ck_assert_int_eq(model_get_stats(m)->no_exit, 1);
	ck_assert_int_eq(ngot, 1);
	ck_assert_uint_eq(got[0].entry_ns, 4000300);
	ck_assert_uint_eq(got[0].exit_ns, 5000050);
	ck_assert_int_eq(got[0].sleep_length_ns, 5000000 - 4000100);
	/* the tick fired at 4 ms and was not re-armed: no tick pending,
	 * next event = the hrtimer */
	ck_assert_int_eq(got[0].delta_tick_ns, 5000000 - 4000100);
	ck_assert_int_eq(got[0].wake_cause, WAKE_HRTIMER);
	ck_assert_uint_eq(got[0].wake_detail, HRW);
	ck_assert(got[0].flags & IP_SLEEP_EXACT);
	ck_assert(got[0].flags & IP_TICK_EXACT);
	ck_assert(!(got[0].flags & IP_GOT_TICK));
	model_free(m);
}
END_TEST

/* A tick wakeup: tick at 4 ms, other timer at 9 ms, idle from 3 ms. */
START_TEST(test_tick_wakeup)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		sw(1000, 0, 42, 0),
		hr(EV_HRTIMER_START, 500000, 0, 0x2000, 9000000, false, HRW),
		hr(EV_HRTIMER_START, 600000, 0, TICK0, 4000000, true, 1),
		idle(3000000, 0, 1),
		idle(4000020, 0, EV_IDLE_EXIT),
		hr(EV_HRTIMER_EXPIRE_ENTRY, 4000030, 0, TICK0, 4000000, true, 1),
		hr(EV_HRTIMER_START, 4000040, 0, TICK0, 8000000, true, 1),
		idle(4000100, 0, 1),
	};

	feed(m, e, 8);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].sleep_length_ns, 6000000);	/* 9 - 3 */
	ck_assert_int_eq(got[0].delta_tick_ns, 1000000);	/* 4 - 3 */
	ck_assert_int_eq(got[0].wake_cause, WAKE_TICK);
	ck_assert(got[0].flags & IP_GOT_TICK);
	ck_assert(!(got[0].flags & IP_TICK_STOPPED));
	ck_assert_int_eq(model_get_stats(m)->partial_end, 1);
	model_free(m);
}
END_TEST

/*
 * Wheel timers: jiffy 1000 seen at 10 ms, the tick grid at multiples of
 * 4 ms, so jiffy 1000 starts at 8 ms and jiffy J at 8 + 4 (J - 1000) ms.
 * A timer for CPU 1 (flags low bits = 1) in bucket 1003 expires at 20 ms;
 * a deferrable one (bucket 1002) and one for CPU 0 (bucket 1002) do not
 * count.  CPU 1 idle at 11 ms: sleep = 20 - 11 = 9 ms, exact.
 */
START_TEST(test_wheel_timer_cpu_flags)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		hr(EV_HRTIMER_START, 100, 1, TICK1, 12000000, true, 1),
		wheel(10000000, 0, 0x3000, 1000, 1003, 1 | (3U << 22)),
		wheel(10000100, 1, 0x3100, 1000, 1002,
		      1 | EV_TIMER_DEFERRABLE),
		wheel(10000200, 1, 0x3200, 1000, 1002, 0),
		idle(11000000, 1, 1),
		idle(11500000, 1, EV_IDLE_EXIT),
	};

	feed(m, e, 6);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_uint_eq(got[0].cpu, 1);
	ck_assert_int_eq(got[0].sleep_length_ns, 9000000);
	ck_assert(got[0].flags & IP_SLEEP_EXACT);
	ck_assert_int_eq(got[0].delta_tick_ns, 1000000);	/* 12 - 11 */
	model_free(m);
}
END_TEST

/*
 * delta_tick_ns is the time to the tick itself, also when a timer comes
 * first (replay takes the kernel's delta_next as the earlier of the two,
 * and ticks on the tick's grid): tick armed for 8 ms, hrtimer_wakeup for
 * 5 ms, CPU 0 idle at 2 ms -> sleep 3 ms, delta_tick 6 ms, both exact.
 */
START_TEST(test_tick_after_timer)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		hr(EV_HRTIMER_START, 100, 0, TICK0, 8000000, true, 1),
		hr(EV_HRTIMER_START, 1000000, 0, 0x2000, 5000000, false, HRW),
		idle(2000000, 0, 1),
		idle(2500000, 0, EV_IDLE_EXIT),
	};

	feed(m, e, 4);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].sleep_length_ns, 3000000);
	ck_assert_int_eq(got[0].delta_tick_ns, 6000000);
	ck_assert(got[0].flags & IP_TICK_EXACT);
	model_free(m);
}
END_TEST

/*
 * tick_nohz_get_sleep_length() (doc/governors.md section 3.2): with the
 * tick running, a wheel timer due within one jiffy of the last jiffies
 * update makes the kernel return delta_next (time to the next programmed
 * event) as the sleep length.  Jiffy 1000 is current
 * at 9 ms and the timer is in bucket 1001 (12 ms); the tick was re-armed
 * for 10 ms: sleep = delta_tick = 10 - 9 = 1 ms, not 12 - 9 = 3 ms.
 */
START_TEST(test_wheel_within_a_jiffy)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		hr(EV_HRTIMER_START, 100, 0, TICK0, 12000000, true, 1),
		wheel(8500000, 0, 0x3000, 1000, 1001, 0),
		hr(EV_HRTIMER_START, 8600000, 0, TICK0, 10000000, true, 1),
		idle(9000000, 0, 1),
		idle(9500000, 0, EV_IDLE_EXIT),
	};

	feed(m, e, 5);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].delta_tick_ns, 1000000);
	ck_assert_int_eq(got[0].sleep_length_ns, 1000000);
	model_free(m);
}
END_TEST

/*
 * Without bucket_expiry in the trace (6.1), the wheel's bucket comes
 * from the index's level, as calc_index() rounds: expires 1001 at level
 * 1 (idx 64..127, 8 jiffies) is in bucket ((1001 >> 3) + 1) << 3 =
 * 1008, at 8 + 8 * 4 = 40 ms: not within a jiffy of jiffy 1000 (the
 * current one at 9 ms), so sleep = 40 - 9 = 31 ms.  At level 0 expires
 * 1000 is in bucket 1001 (12 ms): within a jiffy, sleep = delta_tick =
 * 1 ms.  A timer already due (expires 995 < jiffies 1000) is in the
 * bucket of the wheel's clock, 1000: within a jiffy too.
 */
static int64_t sleep_with_wheel(uint64_t expires, uint32_t idx)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		hr(EV_HRTIMER_START, 100, 0, TICK0, 12000000, true, 1),
		wheel(8500000, 0, 0x3000, 1000, 0, idx << EV_TIMER_ARRAYSHIFT),
		hr(EV_HRTIMER_START, 8600000, 0, TICK0, 10000000, true, 1),
		idle(9000000, 0, 1),
		idle(9500000, 0, EV_IDLE_EXIT),
	};
	int64_t sleep;

	e[1].timer.expires = (int64_t)expires;
	e[1].timer.has_bucket = false;
	e[1].timer.has_idx = true;
	feed(m, e, 5);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].delta_tick_ns, 1000000);
	sleep = got[0].sleep_length_ns;
	model_free(m);
	return sleep;
}

START_TEST(test_wheel_bucket_from_idx)
{
	ck_assert_int_eq(sleep_with_wheel(1001, 64 + 62), 31000000);
	ck_assert_int_eq(sleep_with_wheel(1000, 41), 1000000);
	ck_assert_int_eq(sleep_with_wheel(995, 40), 1000000);
}
END_TEST

/* An exit without entry and an entry without exit are not emitted. */
START_TEST(test_partial_periods)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		idle(1000, 0, EV_IDLE_EXIT),
		idle(2000, 1, 1),
		idle(3000, 1, EV_IDLE_EXIT),
		idle(3500, 1, EV_IDLE_EXIT),	/* a second exit: lost entry */
		idle(4000, 0, 1),
	};

	feed(m, e, 5);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_uint_eq(got[0].cpu, 1);
	ck_assert_int_eq(model_get_stats(m)->partial_start, 1);
	ck_assert_int_eq(model_get_stats(m)->partial_end, 1);
	ck_assert_int_eq(model_get_stats(m)->no_entry, 1);
	/* no timers known: no sleep length, not exact */
	ck_assert_int_eq(got[0].sleep_length_ns, TRACE_NO_TIMER);
	ck_assert(!(got[0].flags & IP_SLEEP_EXACT));
	model_free(m);
}
END_TEST

/* cpu_idle_miss flags the period that just ended on that CPU. */
START_TEST(test_miss_flags)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		idle(1000, 0, 2),
		idle(5000, 0, EV_IDLE_EXIT),
		ev(EV_CPU_IDLE_MISS, 5100, 0),
		idle(6000, 0, 1),
		idle(9000, 0, EV_IDLE_EXIT),
		ev(EV_CPU_IDLE_MISS, 9100, 0),
	};

	e[2].miss.cpu_id = 0;
	e[2].miss.state = 2;
	e[2].miss.below = false;
	e[5].miss.cpu_id = 0;
	e[5].miss.state = 1;
	e[5].miss.below = true;
	feed(m, e, 6);
	finish(m);
	ck_assert_int_eq(ngot, 2);
	ck_assert_int_eq(got[0].state, 2);
	ck_assert(got[0].flags & IP_MISS_ABOVE);
	ck_assert(!(got[0].flags & IP_MISS_BELOW));
	ck_assert(got[1].flags & IP_MISS_BELOW);
	model_free(m);
}
END_TEST

/* A PM QoS event: pm_qos_update_target with @prev and @curr (us). */
static struct raw_event qos(uint64_t ts, uint32_t cpu, int32_t prev,
			    int32_t curr)
{
	struct raw_event e = ev(EV_PM_QOS_UPDATE, ts, cpu);

	e.qos.prev = prev;
	e.qos.curr = curr;
	return e;
}

static struct raw_event dev_qos_req(uint64_t ts, uint32_t cpu, int32_t dev)
{
	struct raw_event e = ev(EV_DEV_QOS_REQUEST, ts, cpu);

	e.dqreq.cpu = dev;
	return e;
}

/* Period @i's constraint: -1 if it carries none. */
static int64_t qos_of(int i)
{
	return got[i].flags & IP_QOS_KNOWN ? (int64_t)got[i].qos_latency_us : -1;
}

/*
 * Which constraint a pm_qos_update_target is (the request event traced
 * before it on the same CPU says), and the one each period is entered
 * under.  Periods of 1 us on CPUs 0 and 1 every 10 us.
 *  1. no request events in the capture: the chain from the default
 *     (2 000 000 000 us): 2e9 -> 0 is taken, so is 0 -> 5; an update
 *     with prev 7 (not the chain's 5: another constraint) is not;
 *  2. a dev_pm_qos request for cpu1, then its update to 3: CPU 1 only
 *     (min of 5 and 3); one for a device that is no CPU: ignored;
 *     S32_MAX on cpu1: its constraint gone, back to the global 5;
 *  3. a pm_qos_update_request, then 5 -> 9: taken; from now on an update
 *     with no request before it (a frequency limit's) is not, even one
 *     that continues the chain.
 * The trace's constraint at the start is the first taken prev_value.
 */
START_TEST(test_qos_constraints)
{
	struct model *m = mk(true);
	struct raw_event e[64];
	/* periods 0..5 of CPUs 0 and 1 */
	static const int64_t want[6][2] = {
		{ -1, -1 }, { 0, 0 }, { 5, 5 }, { 5, 3 }, { 9, 9 }, { 9, 9 },
	};
	struct model_stats st;
	int n = 0, i, nth[2] = { 0, 0 };
	uint64_t t = 1000;

#define PERIODS() do { \
		e[n++] = idle(t, 0, 1); e[n++] = idle(t + 1000, 0, \
						      EV_IDLE_EXIT); \
		e[n++] = idle(t + 2000, 1, 1); e[n++] = idle(t + 3000, 1, \
							      EV_IDLE_EXIT); \
		t += 10000; \
	} while (0)
	PERIODS();
	e[n++] = qos(t++, 0, 2000000000, 0);
	PERIODS();
	e[n++] = qos(t++, 0, 0, 5);
	e[n++] = qos(t++, 1, 7, 1);			/* not the chain */
	PERIODS();
	e[n++] = dev_qos_req(t++, 0, 1);
	e[n++] = qos(t++, 0, INT32_MAX, 3);
	e[n++] = dev_qos_req(t++, 1, -1);
	e[n++] = qos(t++, 1, 0, 1);			/* another device */
	PERIODS();
	e[n++] = dev_qos_req(t++, 0, 1);
	e[n++] = qos(t++, 0, 3, INT32_MAX);
	e[n++] = ev(EV_PM_QOS_REQUEST, t++, 1);
	e[n++] = qos(t++, 1, 5, 9);
	PERIODS();
	e[n++] = qos(t++, 0, 9, 1);			/* no request */
	PERIODS();
#undef PERIODS
	ck_assert_int_le(n, 64);
	feed(m, e, n);
	finish(m);
	ck_assert_int_eq(ngot, 12);
	/* in each CPU's order (CPUs' periods may be emitted interleaved) */
	for (i = 0; i < 12; i++) {
		int k = nth[got[i].cpu]++;

		ck_assert_uint_lt(got[i].cpu, 2);
		ck_assert_int_eq(qos_of(i), want[k][got[i].cpu]);
	}
	st = *model_get_stats(m);
	ck_assert_int_eq(st.qos_start_us, 2000000000);
	ck_assert_uint_eq(st.qos_changes, 3);
	model_free(m);
}
END_TEST

/* IRQ after exit within the window; an IPI sent during the period. */
START_TEST(test_irq_and_ipi_causes)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		idle(1000, 1, 1),
		idle(50000, 1, EV_IDLE_EXIT),
		ev(EV_IRQ_HANDLER_ENTRY, 52000, 1),
		idle(100000, 1, 1),
		ev(EV_IPI_SEND_CPU, 150000, 0),
		idle(151000, 1, EV_IDLE_EXIT),
		idle(200000, 1, 1),
		idle(300000, 1, EV_IDLE_EXIT),
		/* 150 us after the exit: outside the 100 us window */
		ev(EV_IRQ_HANDLER_ENTRY, 450000, 1),
	};

	e[2].irq.irq = 36;
	e[4].ipi.target = 1;
	e[8].irq.irq = 7;
	feed(m, e, 9);
	finish(m);
	ck_assert_int_eq(ngot, 3);
	ck_assert_int_eq(got[0].wake_cause, WAKE_IRQ);
	ck_assert_uint_eq(got[0].wake_detail, 36);
	ck_assert_int_eq(got[1].wake_cause, WAKE_IPI);
	ck_assert_uint_eq(got[1].wake_detail, 0);	/* sender CPU */
	ck_assert_int_eq(got[2].wake_cause, WAKE_UNKNOWN);
	model_free(m);
}
END_TEST

/* A timer fires whose start was not seen: sleep = fire - entry. */
START_TEST(test_unknown_timer)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		hr(EV_HRTIMER_START, 100, 0, 0x2000, 90000000, false, HRW),
		idle(1000000, 0, 1),
		idle(3000000, 0, EV_IDLE_EXIT),
		hr(EV_HRTIMER_EXPIRE_ENTRY, 3000010, 0, 0x2100, 3000000, false,
		   PTO),
	};

	feed(m, e, 4);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].wake_cause, WAKE_HRTIMER);
	ck_assert_int_eq(got[0].sleep_length_ns, 2000010);
	ck_assert(!(got[0].flags & IP_SLEEP_EXACT));
	model_free(m);
}
END_TEST

/*
 * Tick stopped: tick_stop during the first iteration after select, so the
 * first period is not "stopped at entry" and sees the tick as it was
 * (4 ms); the stop re-arms the tick to 20 ms.  The second period of the
 * same idle loop is stopped and sees the re-armed tick, from the
 * kernel's "now" (the previous exit at 2 ms, the last event before its
 * select).  After a switch to a task and back, the flag is clear again.
 */
START_TEST(test_tick_stopped)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		sw(100, 0, 42, 0),
		hr(EV_HRTIMER_START, 200, 0, TICK0, 4000000, true, 1),
		ev(EV_TICK_STOP, 1000000, 0),
		hr(EV_HRTIMER_START, 1000100, 0, TICK0, 20000000, true, 1),
		idle(1000200, 0, 1),
		idle(2000000, 0, EV_IDLE_EXIT),
		idle(2000500, 0, 1),
		idle(3000000, 0, EV_IDLE_EXIT),
		sw(3000100, 0, 0, 42),
		sw(3500000, 0, 42, 0),
		idle(3600000, 0, 1),
		idle(3700000, 0, EV_IDLE_EXIT),
	};

	e[2].tick_stop.success = 1;
	feed(m, e, 12);
	finish(m);
	ck_assert_int_eq(ngot, 3);
	ck_assert(!(got[0].flags & IP_TICK_STOPPED));
	ck_assert_int_eq(got[0].delta_tick_ns, 4000000 - 1000200);
	ck_assert(got[1].flags & IP_TICK_STOPPED);
	ck_assert_int_eq(got[1].delta_tick_ns, 20000000 - 2000000);
	ck_assert(!(got[2].flags & IP_TICK_STOPPED));
	model_free(m);
}
END_TEST

/*
 * The tick stop after a select programs the tick's timer to the next
 * event tick_nohz_next_event() found, a timer armed before the capture
 * (30 ms) included: that is the sleep length's timer part.  A second
 * select in the same loop finds it unchanged (nothing re-programmed):
 * the same 30 ms.  A stop that cancels the timer found none.
 */
START_TEST(test_tick_stop_programmed)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		sw(100, 0, 42, 0),
		ev(EV_TICK_STOP, 1000, 0),
		hr(EV_HRTIMER_START, 1100, 0, TICK0, 30000000, true, 1),
		idle(1200, 0, 1),
		idle(2000000, 0, EV_IDLE_EXIT),
		idle(2000500, 0, 1),
		idle(3000000, 0, EV_IDLE_EXIT),
		sw(3000100, 0, 0, 42),
		sw(3500000, 0, 42, 0),
		ev(EV_TICK_STOP, 3500500, 0),
		hr(EV_HRTIMER_CANCEL, 3500600, 0, TICK0, 0, true, 1),
		idle(3600000, 0, 1),
		idle(3700000, 0, EV_IDLE_EXIT),
		idle(3800000, 0, 1),
	};

	e[1].tick_stop.success = 1;
	e[9].tick_stop.success = 1;
	feed(m, e, 14);
	finish(m);
	ck_assert_int_eq(ngot, 3);
	ck_assert_int_eq(got[0].sleep_length_ns, 30000000 - 100);
	ck_assert(got[0].flags & IP_SLEEP_EXACT);
	ck_assert_int_eq(got[1].sleep_length_ns, 30000000 - 2000000);
	ck_assert_int_eq(got[2].sleep_length_ns, TRACE_NO_TIMER);
	ck_assert_uint_eq(model_get_stats(m)->stop_next_used, 3);
	model_free(m);
}
END_TEST

/*
 * Trace clock = mono + 7 ms: the offset is learnt from an expiry
 * ("now" 1 ms at trace time 8 ms), so a timer armed for mono 10 ms is
 * 17 ms trace time; idle at 12 ms -> sleep 5 ms.
 */
START_TEST(test_clock_offset)
{
	struct model *m = mk(false);
	struct raw_event e[] = {
		hr(EV_HRTIMER_START, 100, 0, 0x2100, 1000000, false, PTO),
		hr(EV_HRTIMER_EXPIRE_ENTRY, 8000000, 0, 0x2100, 1000000, false,
		   PTO),
		hr(EV_HRTIMER_START, 9000000, 0, 0x2000, 10000000, false, HRW),
		idle(12000000, 0, 1),
		idle(13000000, 0, EV_IDLE_EXIT),
	};

	feed(m, e, 5);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].sleep_length_ns, 5000000);
	ck_assert(got[0].flags & IP_SLEEP_EXACT);
	model_free(m);
}
END_TEST

/* A model of POLL and a state of 1 us residency at HZ 250 (@o: HZ 250,
 * CLOCK_MONOTONIC; its poll state and default limit are set here). */
static struct model *poll_model(struct model_opts *o)
{
	struct cstate_table t;
	struct idl_err err;
	struct model *m;

	memset(&t, 0, sizeof(t));
	t.count = 2;
	t.states[0].flags = CSTATE_POLLING;
	t.states[1].target_residency_ns = 1000;
	model_poll_opts(&t, 250, o);
	m = model_create(o, collect, NULL, &err);
	ck_assert_ptr_nonnull(m);
	ngot = 0;
	return m;
}

/*
 * Poll limit (cpuidle_poll_time(), doc/governors.md section 3.3): table
 * POLL + a state with 1 us residency (below the 10 us minimum, skipped),
 * HZ 250 -> limit = TICK_NSEC/16 = 250 us.
 * A 300 us poll with no wake evidence ended on the limit; a 300 us poll
 * with an interrupt inside did not; a 200 us one is below the limit.
 */
START_TEST(test_poll_limit)
{
	struct model_opts o = { .hz = 250, .clock_is_mono = true };
	struct model *m;
	struct raw_event e[] = {
		idle(1000, 0, 0), idle(301000, 0, EV_IDLE_EXIT),
		idle(400000, 0, 0), ev(EV_IRQ_HANDLER_ENTRY, 500000, 0),
		idle(700000, 0, EV_IDLE_EXIT),
		idle(800000, 0, 0), idle(1000000, 0, EV_IDLE_EXIT),
	};

	m = poll_model(&o);
	ck_assert_int_eq(o.poll_state, 0);
	ck_assert_int_eq(o.poll_limit_ns, 250000);
	feed(m, e, 7);
	finish(m);
	ck_assert_int_eq(ngot, 3);
	ck_assert(got[0].flags & IP_POLL_LIMIT);
	ck_assert(!(got[1].flags & IP_POLL_LIMIT));
	ck_assert(!(got[2].flags & IP_POLL_LIMIT));
	model_free(m);
}
END_TEST

/* @e with its context flags known, need_resched as @resched */
static struct raw_event ctx(struct raw_event e, bool resched)
{
	e.ctx = EV_CTX_KNOWN | (resched ? EV_CTX_RESCHED : 0);
	return e;
}

static struct raw_event wakeup(uint64_t ts, uint32_t cpu, int32_t target)
{
	struct raw_event e = ev(EV_SCHED_WAKEUP, ts, cpu);

	e.wakeup.target_cpu = target;
	return e;
}

/*
 * How a poll ended, when the capture shows it: only need_resched ends a
 * poll before its limit (haltpoll's own window, shorter than the default
 * 250 us of test_poll_limit).  From the exit's need-resched flag: 60 us
 * without it ran out its window; 300 us with it was woken; 100 us with
 * an interrupt inside but no need_resched ran out (the interrupt woke
 * nothing).  Then, without flags, from wakeups: a 60 us poll with a
 * wakeup of its CPU from CPU 1 was woken, the next 60 us one ran out;
 * one whose wakeup the CPU traced after its exit and cpu_idle_miss (a
 * wakeup queued for a polling CPU) was woken; one after which an
 * interrupt came and woke a task ran out.
 */
START_TEST(test_poll_end_seen)
{
	struct model_opts o = { .hz = 250, .clock_is_mono = true };
	struct model *m;
	const struct model_stats *st;
	struct raw_event e[] = {
		idle(1000, 0, 0), ctx(idle(61000, 0, EV_IDLE_EXIT), false),
		idle(100000, 0, 0), ctx(idle(400000, 0, EV_IDLE_EXIT), true),
		idle(500000, 0, 0), ev(EV_IRQ_HANDLER_ENTRY, 550000, 0),
		ctx(idle(600000, 0, EV_IDLE_EXIT), false),
		idle(700000, 0, 0), wakeup(730000, 1, 0),
		idle(760000, 0, EV_IDLE_EXIT),
		idle(800000, 0, 0), idle(860000, 0, EV_IDLE_EXIT),
		idle(900000, 0, 0), idle(960000, 0, EV_IDLE_EXIT),
		ev(EV_CPU_IDLE_MISS, 960000, 0), wakeup(963000, 0, 0),
		idle(1000000, 0, 0), idle(1060000, 0, EV_IDLE_EXIT),
		ev(EV_CPU_IDLE_MISS, 1060000, 0),
		ev(EV_IRQ_HANDLER_ENTRY, 1062000, 0), wakeup(1063000, 0, 0),
		idle(1100000, 0, 1), idle(1160000, 0, EV_IDLE_EXIT),
	};

	m = poll_model(&o);
	feed(m, e, (int)(sizeof(e) / sizeof(e[0])));
	finish(m);
	ck_assert_int_eq(ngot, 8);
	ck_assert(got[0].flags & IP_POLL_LIMIT);
	ck_assert(!(got[1].flags & IP_POLL_LIMIT));
	ck_assert(got[2].flags & IP_POLL_LIMIT);
	ck_assert(!(got[3].flags & IP_POLL_LIMIT));
	ck_assert(got[4].flags & IP_POLL_LIMIT);
	ck_assert(!(got[5].flags & IP_POLL_LIMIT));
	ck_assert(got[5].flags & IP_MISS_ABOVE);
	ck_assert(got[6].flags & IP_POLL_LIMIT);
	ck_assert(!(got[7].flags & IP_POLL_LIMIT));	/* not a poll */
	st = model_get_stats(m);
	ck_assert_uint_eq(st->poll_periods, 7);
	ck_assert_uint_eq(st->poll_ends_seen, 7);
	model_free(m);
}
END_TEST

/* Beyond the window: a period before the last one written is dropped. */
START_TEST(test_disordered)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		idle(5000, 0, 1), idle(5100, 0, EV_IDLE_EXIT),
		idle(4000, 0, 1), idle(6000, 0, EV_IDLE_EXIT),
		idle(7000, 0, 1), idle(6500, 0, EV_IDLE_EXIT),
	};

	feed(m, e, 6);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(model_get_stats(m)->disordered, 2);
	ck_assert_int_eq(model_get_stats(m)->late_events, 2);
	model_free(m);
}
END_TEST

static Suite *model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sleep_is_programmed_timer);
	tcase_add_test(tc, test_tick_wakeup);
	tcase_add_test(tc, test_wheel_timer_cpu_flags);
	tcase_add_test(tc, test_wheel_within_a_jiffy);
	tcase_add_test(tc, test_wheel_bucket_from_idx);
	tcase_add_test(tc, test_tick_after_timer);
	tcase_add_test(tc, test_partial_periods);
	tcase_add_test(tc, test_miss_flags);
	tcase_add_test(tc, test_qos_constraints);
	tcase_add_test(tc, test_irq_and_ipi_causes);
	tcase_add_test(tc, test_unknown_timer);
	tcase_add_test(tc, test_tick_stopped);
	tcase_add_test(tc, test_tick_stop_programmed);
	tcase_add_test(tc, test_clock_offset);
	tcase_add_test(tc, test_poll_limit);
	tcase_add_test(tc, test_poll_end_seen);
	tcase_add_test(tc, test_disordered);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(model_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
