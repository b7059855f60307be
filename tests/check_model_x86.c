// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The model on x86: acpi_idle and POLL take interrupts inside the period
 * (HLT with interrupts on), the local APIC timer and the IPIs are system
 * vectors (irq_vectors:local_timer_entry, call_function_single_entry,
 * ...), not irq_handler_entry, and 6.1 traces no ipi_send events.  The
 * events carry the context flags of ftrace's irq-info column, as a lab
 * capture of Debian's amd64 kernels has them (doc/lab.md).
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model-events.h"

#define VEC_TIMER 236		/* LOCAL_TIMER_VECTOR */
#define VEC_CFS 251		/* CALL_FUNCTION_SINGLE_VECTOR */

static struct raw_event ipi_send(uint64_t ts, uint32_t from, uint32_t to)
{
	struct raw_event e = ev(EV_IPI_SEND_CPU, ts, from);

	e.ipi.target = to;
	return e;
}

static void run(const struct raw_event *a, int n)
{
	struct model *m = mk(true);

	feed(m, a, n);
	finish(m);
	model_free(m);
}

/*
 * An IPI taken inside the period (call_function_single, 200 us in) woke
 * it.  Without an ipi_send event (6.1) the receipt alone says so, the
 * sender unknown; with one from CPU 1 just before, that is the sender.
 */
START_TEST(test_ipi_received)
{
	struct raw_event a[] = {
		ipi_send(1195000, 1, 0),
		at(idle(1000000, 0, 2), 0),
		irq(EV_VEC_IPI_ENTRY, 1200000, VEC_CFS),
		irq(EV_VEC_EXIT, 1203000, VEC_CFS),
		at(idle(1205000, 0, EV_IDLE_EXIT), 0),
		at(idle(1300000, 0, 1), 0),
	};

	run(a + 1, 5);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].wake_cause, WAKE_IPI);
	ck_assert_uint_eq(got[0].wake_detail, WAKE_IPI_NO_SENDER);
	/* the send during the period, in time order */
	{
		struct raw_event b[6] = { a[1], a[0], a[2], a[3], a[4], a[5] };

		run(b, 6);
	}
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].wake_cause, WAKE_IPI);
	ck_assert_uint_eq(got[0].wake_detail, 1);
}
END_TEST

/*
 * The local APIC timer's vector is the timer's interrupt, as arm64's
 * arch_timer IRQ: the hrtimer it runs first is the cause, the tick
 * (got_tick) or another (hrtimer_wakeup).  Anything else it would be
 * an IRQ of vector 236.
 */
START_TEST(test_local_timer_runs_the_timer)
{
	struct raw_event a[] = {
		at(idle(1000000, 0, 2), 0),
		irq(EV_VEC_ENTRY, 1400000, VEC_TIMER),
		tick_expire(1400002),
		irq(EV_VEC_EXIT, 1400010, VEC_TIMER),
		at(idle(1400012, 0, EV_IDLE_EXIT), 0),
		at(idle(1500000, 0, 1), 0),
	};

	run(a, 6);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].wake_cause, WAKE_TICK);
	ck_assert(got[0].flags & IP_GOT_TICK);

	a[2] = at(hr(EV_HRTIMER_EXPIRE_ENTRY, 1400002, 0, 0x3000, 1400000,
		     false, HRW), EV_CTX_HARDIRQ);
	run(a, 6);
	ck_assert_int_eq(ngot, 1);
	ck_assert_int_eq(got[0].wake_cause, WAKE_HRTIMER);
	ck_assert_uint_eq(got[0].wake_detail, HRW);
	ck_assert(!(got[0].flags & IP_GOT_TICK));
}
END_TEST

/*
 * An IPI woke the period inside it; right after the exit the local
 * timer runs the tick.  Due (its hrtimer armed at 1.5 ms) by the exit
 * at 1.501 ms, it was pending there and ran before reflect: the
 * period's got_tick (an x86 lab capture: due 1 us before the exit, run
 * 1 us after it, the kernel's got_tick 1).  Due 3 us after the exit, it
 * fired after reflect: the next period's (the kernel's 0 for this one).
 */
START_TEST(test_tick_pending_at_exit)
{
	static const int64_t due[2] = { 1500000, 1504000 };
	int k;

	for (k = 0; k < 2; k++) {
		struct raw_event a[] = {
			at(hr(EV_HRTIMER_START, 900000, 0, TICK0, due[k],
			      true, 1), 0),
			at(idle(1000000, 0, 2), 0),
			irq(EV_VEC_IPI_ENTRY, 1497000, VEC_CFS),
			irq(EV_VEC_EXIT, 1500000, VEC_CFS),
			at(idle(1501000, 0, EV_IDLE_EXIT), 0),
			irq(EV_VEC_ENTRY, 1505000, VEC_TIMER),
			tick_expire(1505002),
			irq(EV_VEC_EXIT, 1505010, VEC_TIMER),
			at(idle(1600000, 0, 1), 0),
			at(idle(1700000, 0, EV_IDLE_EXIT), 0),
			at(idle(1800000, 0, 1), 0),
		};

		run(a, 11);
		ck_assert_int_eq(ngot, 2);
		ck_assert_int_eq(got[0].wake_cause, WAKE_IPI);
		ck_assert_int_eq(!!(got[0].flags & IP_GOT_TICK), !k);
		ck_assert_int_eq(!!(got[1].flags & IP_GOT_TICK), k);
	}
}
END_TEST

static Suite *model_x86_suite(void)
{
	Suite *s = suite_create("model_x86");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ipi_received);
	tcase_add_test(tc, test_local_timer_runs_the_timer);
	tcase_add_test(tc, test_tick_pending_at_exit);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(model_x86_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
