// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The event model where the trace does not show everything, on
 * hand-built event sequences: timers armed before the capture, cancelled
 * or superseded unseen, tick events lost, overdue timers, the kernel's
 * "now" and the end of the idle loop told from indirect evidence, and
 * the period a tick's got_idle_tick belongs to.  Every expected value is
 * worked out in the comments, as in check_model.c.
 * HZ = 250 throughout: TICK_NSEC = 4 000 000 ns.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "model-events.h"

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
 * at an entry at 6 ms (more than 100 us) in a trace without its
 * expiries: it fired and was re-armed unseen on its grid, so delta_tick
 * is to 8 ms, not exact.  Overdue by 50 us ("now" at 4.05 ms) it is an
 * interrupt still to come: kept, exact.  Where the trace shows the
 * tick's expiries (one at 0.5 ms) and the context flags, and lost
 * nothing, 2 ms overdue is an interrupt still to come as well (a 6.1
 * x86 guest without icount: 110 us): delta_tick negative, exact; with
 * lost events, re-armed again.
 */
START_TEST(test_tick_events_lost)
{
	int lost;
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

	for (lost = 0; lost < 2; lost++) {
		struct raw_event c[] = {
			hr(EV_HRTIMER_EXPIRE_ENTRY, 500000, 0, TICK0, 500000,
			   true, 1),
			ev(EV_LOST, 550000, 0),
			a[0], a[1], a[2], a[3], a[4],
		};

		int i;

		c[1].lost.count = 1;
		for (i = 0; i < 7; i++)	/* a tracefs capture's flags */
			c[i].ctx |= EV_CTX_KNOWN;
		m = mk(true);
		feed(m, c, 1);
		feed(m, c + 2 - lost, 5 + lost);
		finish(m);
		ck_assert_int_eq(ngot, 1);
		ck_assert_int_eq(got[0].delta_tick_ns,
				 lost ? 8000000 - 5990000 : 4000000 - 5990000);
		ck_assert_int_eq(!!(got[0].flags & IP_TICK_EXACT), !lost);
		ck_assert_int_eq(model_get_stats(m)->lost_ticks, lost);
		model_free(m);
	}
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

static Suite *model_infer_suite(void)
{
	Suite *s = suite_create("model_infer");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_timer_armed_before);
	tcase_add_test(tc, test_wheel_cancel_then_run);
	tcase_add_test(tc, test_loop_end_evidence);
	tcase_add_test(tc, test_overdue_timer);
	tcase_add_test(tc, test_got_tick_latch);
	tcase_add_test(tc, test_tick_rearmed_in_period);
	tcase_add_test(tc, test_now_before_pending);
	tcase_add_test(tc, test_tick_events_lost);
	tcase_add_test(tc, test_sleep_timer_superseded);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(model_infer_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
