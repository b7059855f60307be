// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The event model on hand-built event sequences.  Every expected value
 * is worked out in the comments from the rules of doc/importing.md and
 * the kernel's tick_nohz_get_sleep_length() (doc/governors.md section
 * 3.2), not from the code.
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


/*
 * A timer armed before the capture (its start never seen) fires on
 * CPU 0 at 9 ms, after two periods: A (1-2 ms) had no known timer, B
 * (3-4 ms) knew one at 20 ms.  Both had the unseen timer pending, so
 * their sleep lengths become 9 - 1 = 8 ms and 9 - 3 = 6 ms, estimates
 * (not exact).  C (10-11 ms), entered after it fired, keeps its own.
 * Periods wait for this in order: none is out before the timer fires.
 */
START_TEST(test_timer_armed_before)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		idle(1000000, 0, 1),
		idle(2000000, 0, EV_IDLE_EXIT),
		hr(EV_HRTIMER_START, 2500000, 0, 0x2000, 20000000, false, HRW),
		idle(3000000, 0, 1),
		idle(4000000, 0, EV_IDLE_EXIT),
		hr(EV_HRTIMER_EXPIRE_ENTRY, 9000000, 0, 0x2200, 9000000, false,
		   PTO),
		idle(10000000, 0, 1),
		idle(11000000, 0, EV_IDLE_EXIT),
	};

	feed(m, e, 5);
	ck_assert_int_eq(ngot, 0);
	feed(m, e + 5, 3);
	finish(m);
	ck_assert_int_eq(ngot, 3);
	ck_assert_int_eq(got[0].sleep_length_ns, 8000000);
	ck_assert(!(got[0].flags & IP_SLEEP_EXACT));
	ck_assert_int_eq(got[1].sleep_length_ns, 6000000);
	ck_assert(!(got[1].flags & IP_SLEEP_EXACT));
	ck_assert_int_eq(got[2].sleep_length_ns, 20000000 - 10000000);
	ck_assert(got[2].flags & IP_SLEEP_EXACT);
	ck_assert_int_eq(model_get_stats(m)->hold_bounded, 1);
	ck_assert_int_eq(model_get_stats(m)->hold_lowered, 1);
	model_free(m);
}
END_TEST

/*
 * The timer wheel traces timer_cancel just before it runs a timer.  A
 * timer armed before the capture (0x3001), detached and run at 8 ms,
 * was pending all along: it bounds the sleep length of A (1-2 ms, no
 * other timer) by 8 ms - 1 ms.  The detach does not make it known (an
 * earlier import took it for known, and A kept "no timer").  A timer
 * that was known (0x3000, armed at 0.5 ms) is A's exact sleep length,
 * and its detach and run bound nothing.
 */
START_TEST(test_wheel_cancel_then_run)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		wheel(500000, 0, 0x3000, 100, 102, 0),
		ev(EV_TIMER_CANCEL, 600000, 0),
		idle(1000000, 0, 1),
		idle(2000000, 0, EV_IDLE_EXIT),
		ev(EV_TIMER_CANCEL, 8000000, 0),
		ev(EV_TIMER_EXPIRE_ENTRY, 8000010, 0),
	};

	e[1].timer.timer = 0x3000;	/* cancelled before the idle period */
	e[4].timer.timer = 0x3001;	/* another, armed before the capture */
	e[5].timer.timer = 0x3001;
	e[5].timer.now = 102;
	e[5].timer.has_now = true;
	feed(m, e, 6);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].sleep_length_ns, 8000010 - 1000000);
	ck_assert(!(got[0].flags & IP_SLEEP_EXACT));
	ck_assert_int_eq(model_get_stats(m)->hold_bounded, 1);
	model_free(m);

	/* 0x3000 stays armed: known, the one timer of A */
	m = mk(true);
	e[1] = idle(1000000, 0, 1);
	e[2] = idle(2000000, 0, EV_IDLE_EXIT);
	e[3] = ev(EV_TIMER_CANCEL, 8000000, 0);
	e[3].timer.timer = 0x3000;
	e[4] = ev(EV_TIMER_EXPIRE_ENTRY, 8000010, 0);
	e[4].timer.timer = 0x3000;
	e[4].timer.now = 102;
	e[4].timer.has_now = true;
	feed(m, e, 5);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert(got[0].flags & IP_SLEEP_EXACT);
	ck_assert_int_eq(model_get_stats(m)->hold_bounded, 0);
	ck_assert_int_eq(model_get_stats(m)->hold_lowered, 0);
	model_free(m);
}
END_TEST

/*
 * Without sched_switch events the end of an idle loop shows as:
 * need_resched at the exit ("N" in the flags column), a task woken onto
 * the CPU, or the tick's handler re-arming its hrtimer in hard-irq
 * context (it does so only while the tick runs).  Each time the tick
 * was stopped (tick_stop) in the loop before; after each, the next
 * period is not "stopped at entry".  A period in the same loop without
 * such evidence is (the control).
 */
START_TEST(test_loop_end_evidence)
{
	struct model *m = mk(true);
	struct raw_event e[32];
	int n = 0, k;
	uint64_t t = 1000000;

	for (k = 0; k < 4; k++, t += 1000000) {
		e[n] = ev(EV_TICK_STOP, t, 0);
		e[n++].tick_stop.success = 1;
		e[n++] = idle(t + 10000, 0, 1);
		e[n++] = idle(t + 100000, 0, EV_IDLE_EXIT);
		switch (k) {
		case 0:		/* control: the loop goes on */
			break;
		case 1:
			e[n - 1].ctx = EV_CTX_KNOWN | EV_CTX_RESCHED;
			break;
		case 2:
			e[n] = ev(EV_SCHED_WAKEUP, t + 50000, 1);
			e[n++].wakeup.target_cpu = 0;
			break;
		case 3:
			e[n++] = hr(EV_HRTIMER_EXPIRE_ENTRY, t + 50000, 0,
				    TICK0, (int64_t)t + 40000, true, 1);
			e[n] = hr(EV_HRTIMER_START, t + 50010, 0, TICK0,
				  (int64_t)t + 4040000, true, 1);
			e[n++].ctx = EV_CTX_KNOWN | EV_CTX_HARDIRQ;
			break;
		}
		e[n++] = idle(t + 200000, 0, 1);
		e[n++] = idle(t + 300000, 0, EV_IDLE_EXIT);
	}
	feed(m, e, n);
	finish(m);
	ck_assert_int_eq(ngot, 8);
	ck_assert(got[1].flags & IP_TICK_STOPPED);	/* control */
	ck_assert(!(got[3].flags & IP_TICK_STOPPED));	/* need_resched */
	ck_assert(!(got[5].flags & IP_TICK_STOPPED));	/* wakeup */
	ck_assert(!(got[7].flags & IP_TICK_STOPPED));	/* tick restart */
	model_free(m);
}
END_TEST

/*
 * A pending hrtimer long overdue at select (due at 1 ms, the CPU idles
 * at 10 ms) fired unseen: dropped and counted; one due 10 us before the
 * kernel's "now" (the CPU's last event, 11.96 ms) is an interrupt still
 * to be taken and stays (negative sleep).
 */
START_TEST(test_overdue_timer)
{
	struct model *m = mk(true);
	struct raw_event e[] = {
		hr(EV_HRTIMER_START, 100000, 0, 0x2000, 1000000, false, HRW),
		idle(10000000, 0, 1),
		idle(11000000, 0, EV_IDLE_EXIT),
		hr(EV_HRTIMER_START, 11100000, 0, 0x2100, 11950000, false, HRW),
		ev(EV_IRQ_HANDLER_ENTRY, 11960000, 0),
		idle(12000000, 0, 1),
		idle(13000000, 0, EV_IDLE_EXIT),
	};

	feed(m, e, 7);
	finish(m);
	ck_assert_int_eq(ngot, 2);
	ck_assert_int_eq(model_get_stats(m)->stale_timers, 1);
	ck_assert_int_eq(got[0].sleep_length_ns, TRACE_NO_TIMER);
	ck_assert_int_eq(got[1].sleep_length_ns, 11950000 - 11960000);
	model_free(m);
}
END_TEST

/*
 * The tick fires inside a period (1-4.01 ms) and its handler re-arms it
 * for 8 ms in the same interrupt: the next select (entry at 4.02 ms, the
 * loop went on: "now" is the exit at 4.01 ms) sees it pending, so
 * delta_tick = 8 - 4.01 ms, exact, not the 20 ms hrtimer.
 */
START_TEST(test_tick_rearmed_in_period)
{
	struct raw_event e[] = {
		hr(EV_HRTIMER_START, 500000, 0, 0x2000, 20000000, false, HRW),
		hr(EV_HRTIMER_START, 600000, 0, TICK0, 4000000, true, 1),
		sw(1000, 0, 42, 0),
		idle(1000000, 0, 1),
		hr(EV_HRTIMER_EXPIRE_ENTRY, 4000000, 0, TICK0, 4000000, true, 1),
		hr(EV_HRTIMER_START, 4000002, 0, TICK0, 8000000, true, 1),
		idle(4010000, 0, EV_IDLE_EXIT),
		idle(4020000, 0, 1),
		idle(5000000, 0, EV_IDLE_EXIT),
		idle(6000000, 0, 1),
	};
	struct model *m = mk(true);

	e[4].ctx = e[5].ctx = EV_CTX_KNOWN | EV_CTX_HARDIRQ;
	feed(m, e, 10);
	finish(m);
	ck_assert_int_eq(ngot, 2);
	ck_assert(got[0].flags & IP_GOT_TICK);
	ck_assert_int_eq(got[1].delta_tick_ns, 8000000 - 4010000);
	ck_assert(got[1].flags & IP_TICK_EXACT);
	ck_assert(!(got[1].flags & IP_TICK_STOPPED));
	model_free(m);
}
END_TEST

/*
 * "Now" when the last event came long before the entry.  A timer armed at
 * 1 ms, due at 1.2 ms, entry at 1.3 ms (300 us after the last event):
 * the timer had not fired by the entry, so interrupts were off from
 * 1.2 ms on: the CPU was in the idle path, "now" is the last event (1 ms)
 * and the sleep length 200 us, not -100 us.  Without a timer in the gap
 * (due at 2.5 ms, entry at 2.3 ms) "now" stays the entry: 200 us.  With
 * one in the gap (due at 3.75 ms, entry at 3.8 ms) but a period ended by
 * a wakeup from CPU 1, not by that timer (its expiry lost), "now" stays
 * the entry as well: -50 us.
 */
START_TEST(test_now_before_pending)
{
	struct raw_event e[] = {
		hr(EV_HRTIMER_START, 1000000, 0, 0x2000, 1200000, false, HRW),
		idle(1300000, 0, 1),
		hr(EV_HRTIMER_EXPIRE_ENTRY, 1310000, 0, 0x2000, 1200000, false,
		   HRW),
		idle(1320000, 0, EV_IDLE_EXIT),
		hr(EV_HRTIMER_START, 2000000, 0, 0x2100, 2500000, false, HRW),
		idle(2300000, 0, 1),
		idle(2400000, 0, EV_IDLE_EXIT),
		hr(EV_HRTIMER_START, 3500000, 0, 0x2200, 3750000, false, 7),
		idle(3800000, 0, 1),
		ev(EV_SCHED_WAKEUP, 3850000, 1),
		idle(3860000, 0, EV_IDLE_EXIT),
		idle(4500000, 0, 1),
	};
	struct model *m = mk(true);

	e[9].wakeup.target_cpu = 0;
	feed(m, e, 12);
	finish(m);
	ck_assert_int_eq(ngot, 3);
	ck_assert_int_eq(got[0].sleep_length_ns, 200000);
	ck_assert_int_eq(got[1].sleep_length_ns, 200000);
	ck_assert_int_eq(got[2].wake_cause, WAKE_SCHED);
	ck_assert_int_eq(got[2].sleep_length_ns, 3750000 - 3800000);
	model_free(m);
}
END_TEST

/*
 * Tick events the trace lost: the tick, armed for 4 ms, is 2 ms overdue
 * at an entry at 6 ms (more than 100 us): it fired and was re-armed
 * unseen on its grid, so delta_tick is to 8 ms, not exact.  Overdue by
 * 50 us ("now" at 4.05 ms) it is an interrupt still to come: kept, exact.
 */
START_TEST(test_tick_events_lost)
{
	struct raw_event a[] = {
		hr(EV_HRTIMER_START, 600000, 0, TICK0, 4000000, true, 1),
		sw(5990000, 0, 42, 0),
		idle(6000000, 0, 1),
		idle(6500000, 0, EV_IDLE_EXIT),
		idle(7000000, 0, 1),
	};
	struct raw_event b[] = {
		hr(EV_HRTIMER_START, 600000, 0, TICK0, 4000000, true, 1),
		sw(4050000, 0, 42, 0),
		idle(4060000, 0, 1),
		idle(4600000, 0, EV_IDLE_EXIT),
		idle(5000000, 0, 1),
	};
	struct model *m = mk(true);

	feed(m, a, 5);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].delta_tick_ns, 8000000 - 5990000);
	ck_assert(!(got[0].flags & IP_TICK_EXACT));
	ck_assert_int_eq(model_get_stats(m)->lost_ticks, 1);
	model_free(m);

	m = mk(true);
	feed(m, b, 5);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].delta_tick_ns, 4000000 - 4050000);
	ck_assert(got[0].flags & IP_TICK_EXACT);
	model_free(m);
}
END_TEST

/*
 * perf script captures lose a few timer events: a task that arms a new
 * sleep timer (hrtimer_wakeup, pid 7) has left its previous one, whose
 * expiry the trace lacks: it is not pending at the next entry, whose
 * sleep length is to the new timer from "now", the arming at 1.8 ms.
 */
START_TEST(test_sleep_timer_superseded)
{
	struct raw_event e[] = {
		hr(EV_HRTIMER_START, 1000000, 0, 0x2000, 1500000, false, HRW),
		hr(EV_HRTIMER_START, 1800000, 0, 0x2100, 2500000, false, HRW),
		idle(1810000, 0, 1),
		idle(2600000, 0, EV_IDLE_EXIT),
		idle(3000000, 0, 1),
	};
	struct model *m = mk(true);

	e[0].ctx = e[1].ctx = EV_CTX_TASK_KNOWN;
	e[0].pid = e[1].pid = 7;
	feed(m, e, 5);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].sleep_length_ns, 2500000 - 1800000);
	ck_assert_int_eq(model_get_stats(m)->ended_sleeps, 1);
	model_free(m);
}
END_TEST

static struct raw_event in(struct raw_event e, bool idle_task)
{
	e.ctx |= EV_CTX_TASK_KNOWN | (idle_task ? EV_CTX_IDLE_TASK : 0);
	return e;
}

/*
 * The kernel's got_idle_tick is set by any tick in the idle loop and read
 * by the next reflect (governors.md section 3.3).  Tick at 4 ms, timer
 * hrtimer X (0x2000) armed for 3 ms:
 * (a) period 2-3.97 ms woken by X inside it; the tick at 4 ms, 30 us
 *     after the exit in the idle task (the loop goes on), comes after
 *     that period's reflect: not its, the next period's (4.1-5 ms),
 *     which holds no tick of its own.
 * (b) the same tick 30 us after the exit but in a task (the idle loop
 *     ended): nobody's, and not the wake cause either.
 * (c) a period with no cause inside, and the tick in the idle task 10 us
 *     after its exit: the wake interrupt taken after the exit (a driver
 *     that enters with interrupts off): the period's.
 * (d) CPU 1 wakes a task on CPU 0 during the period; the tick 10 us after
 *     the exit came after reflect: neither the period's got_tick nor its
 *     cause (sched), the next period's got_tick.
 * (e) no cause, the tick 40 us after the exit: too late to be the wake
 *     interrupt (reflect ran within microseconds): the next period's.
 */
START_TEST(test_got_tick_latch)
{
	struct raw_event a[] = {
		hr(EV_HRTIMER_START, 1000000, 0, 0x2000, 3000000, false, HRW),
		idle(2000000, 0, 1),
		in(hr(EV_HRTIMER_EXPIRE_ENTRY, 3000005, 0, 0x2000, 3000000,
		      false, HRW), true),
		idle(3970000, 0, EV_IDLE_EXIT),
		in(hr(EV_HRTIMER_EXPIRE_ENTRY, 4000000, 0, TICK0, 4000000,
		      true, 1), true),
		idle(4100000, 0, 1),
		idle(5000000, 0, EV_IDLE_EXIT),
		idle(6000000, 0, 1),
	};
	struct raw_event b[] = {
		idle(3900000, 0, 1),
		idle(3970000, 0, EV_IDLE_EXIT),
		in(hr(EV_HRTIMER_EXPIRE_ENTRY, 4000000, 0, TICK0, 4000000,
		      true, 1), false),
		idle(6000000, 0, 1),
	};
	struct raw_event c[] = {
		idle(3900000, 0, 1),
		idle(3990000, 0, EV_IDLE_EXIT),
		in(hr(EV_HRTIMER_EXPIRE_ENTRY, 4000000, 0, TICK0, 4000000,
		      true, 1), true),
		idle(6000000, 0, 1),
	};
	struct raw_event d[] = {
		idle(3900000, 0, 1),
		ev(EV_SCHED_WAKEUP, 3950000, 1),
		idle(3990000, 0, EV_IDLE_EXIT),
		in(hr(EV_HRTIMER_EXPIRE_ENTRY, 4000000, 0, TICK0, 4000000,
		      true, 1), true),
		idle(4200000, 0, 1),
		idle(5000000, 0, EV_IDLE_EXIT),
		idle(6000000, 0, 1),
	};
	struct raw_event f[] = {
		idle(3900000, 0, 1),
		idle(3960000, 0, EV_IDLE_EXIT),
		in(hr(EV_HRTIMER_EXPIRE_ENTRY, 4000000, 0, TICK0, 4000000,
		      true, 1), true),
		idle(4200000, 0, 1),
		idle(5000000, 0, EV_IDLE_EXIT),
		idle(6000000, 0, 1),
	};
	struct model *m = mk(true);
	int i;

	feed(m, a, 8);
	finish(m);
	ck_assert_int_eq(ngot, 2);
	ck_assert_int_eq(got[0].wake_cause, WAKE_HRTIMER);
	ck_assert(!(got[0].flags & IP_GOT_TICK));
	ck_assert(got[1].flags & IP_GOT_TICK);
	model_free(m);

	m = mk(true);
	feed(m, b, 4);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert(!(got[0].flags & IP_GOT_TICK));
	ck_assert_int_ne(got[0].wake_cause, WAKE_TICK);
	model_free(m);

	m = mk(true);
	feed(m, c, 4);
	finish(m);
	ck_assert_int_eq(ngot, 1);
	ck_assert(got[0].flags & IP_GOT_TICK);
	ck_assert_int_eq(got[0].wake_cause, WAKE_TICK);
	model_free(m);

	d[1].wakeup.target_cpu = 0;
	for (i = 0; i < 2; i++) {
		m = mk(true);
		feed(m, i ? f : d, i ? 6 : 7);
		finish(m);
		ck_assert_int_eq(ngot, 2);
		ck_assert(!(got[0].flags & IP_GOT_TICK));
		ck_assert_int_eq(got[0].wake_cause,
				 i ? WAKE_UNKNOWN : WAKE_SCHED);
		ck_assert(got[1].flags & IP_GOT_TICK);
		model_free(m);
	}
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
	tcase_add_test(tc, test_out_of_order);
	tcase_add_test(tc, test_timer_armed_before);
	tcase_add_test(tc, test_wheel_cancel_then_run);
	tcase_add_test(tc, test_loop_end_evidence);
	tcase_add_test(tc, test_overdue_timer);
	tcase_add_test(tc, test_got_tick_latch);
	tcase_add_test(tc, test_tick_rearmed_in_period);
	tcase_add_test(tc, test_now_before_pending);
	tcase_add_test(tc, test_tick_events_lost);
	tcase_add_test(tc, test_sleep_timer_superseded);
	tcase_add_test(tc, test_poll_limit);
	tcase_add_test(tc, test_poll_end_seen);
	tcase_add_test(tc, test_disordered);
	tcase_add_test(tc, test_hz_estimate);
	tcase_add_test(tc, test_hz_estimate_merge);
	tcase_add_test(tc, test_sorter_stragglers);
	tcase_add_test(tc, test_text_lines);
	tcase_add_test(tc, test_event_names);
	tcase_add_test(tc, test_fast_numbers);
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
