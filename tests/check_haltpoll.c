// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * haltpoll (doc/governors.md section 6) on the development VM's table
 * (0 POLL, 1 haltpoll idle 1000/1000).  Default tunables:
 * guest_halt_poll_ns 200000, shrink 2, grow 2, grow_start 50000,
 * allow_shrink 1.  Expected windows are worked out by hand.
 */
#include "config.h"

#include <stdlib.h>

#include "govtest.h"

static void expect(struct gt *t, int idx, bool stop_tick)
{
	bool stop;

	ck_assert_int_eq(gt_select(t, &stop), idx);
	ck_assert_int_eq(stop, stop_tick);
}

START_TEST(enable_clears_window)
{
	struct gt t;

	memset(&t, 0, sizeof(t));
	gt_init(&t, "haltpoll", gt_table_vm);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 0);
	/* no window: halt with the tick allowed to stop */
	expect(&t, 1, true);
	gt_fini(&t);
}
END_TEST

START_TEST(grow_from_zero_to_grow_start)
{
	struct gt t;

	gt_init(&t, "haltpoll", gt_table_vm);
	expect(&t, 1, true);
	/* 30000 in (0, 200000]: 0 * 2 = 0 -> raised to grow_start */
	gt_reflect(&t, 1, 30000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 50000);
	/* last was halt: poll, keep the tick */
	expect(&t, 0, false);
	gt_fini(&t);
}
END_TEST

START_TEST(poll_halt_alternation)
{
	struct gt t;

	gt_init(&t, "haltpoll", gt_table_vm);
	expect(&t, 1, true);
	gt_reflect(&t, 1, 30000, false, false);	/* window 50000 */
	expect(&t, 0, false);
	/* the poll ended by an event: poll again */
	gt_reflect(&t, 0, 20000, false, false);
	expect(&t, 0, false);
	/* the poll ran out its window: halt */
	gt_reflect(&t, 0, 50100, false, true);
	expect(&t, 1, true);
	/* 40000 is not above the window 50000: no change */
	gt_reflect(&t, 1, 40000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 50000);
	expect(&t, 0, false);
	gt_fini(&t);
}
END_TEST

START_TEST(grow_doubles_up_to_cap)
{
	struct gt t;

	gt_init(&t, "haltpoll", gt_table_vm);
	gt_reflect(&t, 1, 30000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 50000);
	gt_reflect(&t, 1, 60000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 100000);
	gt_reflect(&t, 1, 150000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 200000);
	/* 200000 is not above the window: unchanged */
	gt_reflect(&t, 1, 200000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 200000);
	gt_fini(&t);
}
END_TEST

START_TEST(grow_capped_at_poll_ns)
{
	struct gt t;

	gt_init(&t, "haltpoll:guest_halt_poll_ns=120000", gt_table_vm);
	gt_reflect(&t, 1, 1000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 50000);
	gt_reflect(&t, 1, 60000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 100000);
	gt_reflect(&t, 1, 110000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 120000);
	gt_fini(&t);
}
END_TEST

START_TEST(shrink_halves_then_drops)
{
	struct gt t;

	gt_init(&t, "haltpoll", gt_table_vm);
	gt_reflect(&t, 1, 30000, false, false);
	gt_reflect(&t, 1, 60000, false, false);
	gt_reflect(&t, 1, 150000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 200000);
	gt_reflect(&t, 1, 300000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 100000);
	gt_reflect(&t, 1, 300000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 50000);
	/* 25000 < grow_start: dropped to 0 (since 6.9) */
	gt_reflect(&t, 1, 300000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 0);
	expect(&t, 1, true);
	gt_fini(&t);
}
END_TEST

START_TEST(shrink_tunables)
{
	struct gt t;

	gt_init(&t, "haltpoll:guest_halt_poll_allow_shrink=0", gt_table_vm);
	gt_reflect(&t, 1, 30000, false, false);
	gt_reflect(&t, 1, 1000000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 50000);
	gt_fini(&t);

	gt_init(&t, "haltpoll:guest_halt_poll_shrink=0", gt_table_vm);
	gt_reflect(&t, 1, 30000, false, false);
	gt_reflect(&t, 1, 60000, false, false);
	gt_reflect(&t, 1, 1000000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 0);
	gt_fini(&t);
}
END_TEST

START_TEST(u32_window_wraps)
{
	struct gt t;

	gt_init(&t, "haltpoll:guest_halt_poll_ns=4294967295,"
		"guest_halt_poll_grow_start=3000000000", gt_table_vm);
	gt_reflect(&t, 1, 1000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 3000000000u);
	/* 3e9 * 2 = 6e9 truncates to 1705032704 < grow_start: 3e9 again */
	gt_reflect(&t, 1, 3500000000u, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 3000000000u);
	gt_fini(&t);
}
END_TEST

START_TEST(poll_ns_zero_always_halts)
{
	static const u64 res[] = { 0, 1, 1000, 50000, 200000, 4000000 };
	struct gt t;
	size_t i;

	gt_init(&t, "haltpoll:guest_halt_poll_ns=0", gt_table_vm);
	for (i = 0; i < sizeof(res) / sizeof(res[0]); i++) {
		expect(&t, 1, true);
		gt_reflect(&t, 1, res[i], i & 1, false);
		ck_assert_uint_eq(t.dev.poll_limit_ns, 0);
	}
	expect(&t, 1, true);
	gt_busy(&t, 1);
	expect(&t, 1, true);
	gt_fini(&t);
}
END_TEST

START_TEST(latency_req_zero_polls)
{
	struct gt t;

	gt_init(&t, "haltpoll", gt_table_vm);
	t.env.latency_req = 0;
	expect(&t, 0, false);
	gt_fini(&t);
}
END_TEST

START_TEST(core_poll_limit_opens_window)
{
	struct gt t;

	/* Entering POLL with no window caches the core's default, 250000
	 * at HZ 250 on this table; haltpoll then sees a window. */
	gt_init(&t, "haltpoll:guest_halt_poll_ns=0", gt_table_vm);
	t.env.latency_req = 0;
	expect(&t, 0, false);
	gt_reflect(&t, 0, 3000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 250000);
	t.env.latency_req = 2000000000000LL;
	expect(&t, 0, false);
	gt_reflect(&t, 0, 250100, false, true);
	expect(&t, 1, true);
	/* 100000 > guest_halt_poll_ns 0: shrink 250000 / 2 */
	gt_reflect(&t, 1, 100000, false, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 125000);
	/* a disable write resets the window */
	idl_core_set_disabled(&t.dev, 1, false);
	ck_assert_uint_eq(t.dev.poll_limit_ns, 0);
	expect(&t, 1, true);
	gt_fini(&t);
}
END_TEST

static Suite *haltpoll_suite(void)
{
	Suite *s = suite_create("haltpoll");
	TCase *tc = tcase_create("haltpoll");

	tcase_add_test(tc, enable_clears_window);
	tcase_add_test(tc, grow_from_zero_to_grow_start);
	tcase_add_test(tc, poll_halt_alternation);
	tcase_add_test(tc, grow_doubles_up_to_cap);
	tcase_add_test(tc, grow_capped_at_poll_ns);
	tcase_add_test(tc, shrink_halves_then_drops);
	tcase_add_test(tc, shrink_tunables);
	tcase_add_test(tc, u32_window_wraps);
	tcase_add_test(tc, poll_ns_zero_always_halts);
	tcase_add_test(tc, latency_req_zero_polls);
	tcase_add_test(tc, core_poll_limit_opens_window);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(haltpoll_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
