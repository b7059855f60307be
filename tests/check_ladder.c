// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ladder (doc/governors.md section 5).  Expected values are worked out by
 * hand from those rules for the skl-like table
 *   0 POLL 0/0 polling, 1 C1 2000/2000, 2 C1E 10000/20000, 3 C6 133000/400000
 * whose ladder thresholds are (first = 1):
 *   C1:  promotion_time 2000,  demotion_time 0
 *   C1E: promotion_time 10000, demotion_time 10000
 *   C6:  promotion_time 0,     demotion_time 133000
 */
#include "config.h"

#include <stdlib.h>

#include "govtest.h"

/* Select, enter the selected state for @res ns, reflect. */
static int step(struct gt *t, u64 res)
{
	bool stop;
	int idx = gt_select(t, &stop);

	ck_assert(stop);	/* ladder never keeps the tick */
	gt_reflect(t, idx, res, false, false);
	return idx;
}

START_TEST(enable_starts_at_first)
{
	struct gt t;

	gt_init(&t, "ladder", gt_table_skl);
	ck_assert_int_eq(t.dev.last_state_idx, 1);
	gt_fini(&t);
}
END_TEST

START_TEST(promotion_after_four)
{
	struct gt t;

	gt_init(&t, "ladder", gt_table_skl);
	/* 10000 - 2000 = 8000 > 2000: three long periods stay at C1 ... */
	t.dev.last_residency_ns = 10000;
	ck_assert_int_eq(step(&t, 10000), 1);
	ck_assert_int_eq(step(&t, 10000), 1);
	ck_assert_int_eq(step(&t, 10000), 1);
	/* ... the fourth promotes to C1E */
	ck_assert_int_eq(step(&t, 15000), 2);
	/* 15000 - 10000 = 5000 < 10000: one short period demotes */
	ck_assert_int_eq(step(&t, 50000), 1);
	gt_fini(&t);
}
END_TEST

START_TEST(promotion_count_param)
{
	struct gt t;

	gt_init(&t, "ladder:promotion_count=2", gt_table_skl);
	t.dev.last_residency_ns = 10000;
	ck_assert_int_eq(step(&t, 10000), 1);
	ck_assert_int_eq(step(&t, 10000), 2);
	gt_fini(&t);
}
END_TEST

START_TEST(demotion_count_param)
{
	struct gt t;

	gt_init(&t, "ladder:demotion_count=2", gt_table_skl);
	t.gov.ops->reflect(&t.dev, 2);
	t.dev.last_residency_ns = 12000;	/* r = 2000 < 10000 */
	ck_assert_int_eq(step(&t, 12000), 2);
	ck_assert_int_eq(step(&t, 12000), 1);
	gt_fini(&t);
}
END_TEST

START_TEST(first_select_counts_toward_promotion)
{
	struct gt t;

	/* The zeroed device: residency 0 - 2000 < 0 reads as huge. */
	gt_init(&t, "ladder", gt_table_skl);
	ck_assert_int_eq(step(&t, 10000), 1);
	ck_assert_int_eq(step(&t, 10000), 1);
	ck_assert_int_eq(step(&t, 10000), 1);
	ck_assert_int_eq(step(&t, 10000), 2);
	gt_fini(&t);
}
END_TEST

START_TEST(negative_residency_promotes)
{
	struct gt t;

	gt_init(&t, "ladder", gt_table_skl);
	t.gov.ops->reflect(&t.dev, 2);
	/* 5000 - 10000 < 0: never a demotion, always toward promotion */
	t.dev.last_residency_ns = 5000;
	ck_assert_int_eq(step(&t, 5000), 2);
	ck_assert_int_eq(step(&t, 5000), 2);
	ck_assert_int_eq(step(&t, 5000), 2);
	ck_assert_int_eq(step(&t, 5000), 3);
	gt_fini(&t);
}
END_TEST

START_TEST(busy_counts_toward_promotion)
{
	struct gt t;
	int i;

	gt_init(&t, "ladder", gt_table_skl);
	t.gov.ops->reflect(&t.dev, 2);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(gt_select(&t, NULL), 2);
		gt_busy(&t, 2);
	}
	ck_assert_int_eq(gt_select(&t, NULL), 3);
	gt_fini(&t);
}
END_TEST

START_TEST(latency_req_zero)
{
	struct gt t;
	bool stop;

	gt_init(&t, "ladder", gt_table_skl);
	t.env.latency_req = 0;
	ck_assert_int_eq(gt_select(&t, &stop), 0);
	ck_assert(stop);
	ck_assert_int_eq(t.dev.last_state_idx, 0);
	/* reflect(0) leaves last_state_idx alone */
	gt_reflect(&t, 0, 5000, false, false);
	t.env.latency_req = 2000000000000LL;
	/* state 0's thresholds were never set (0): r = 5000 > 0 and a
	 * promotion count of 1 >= 0 promotes at once */
	ck_assert_int_eq(gt_select(&t, NULL), 1);
	gt_fini(&t);
}
END_TEST

START_TEST(stuck_at_poll_after_busy)
{
	struct gt t;

	gt_init(&t, "ladder", gt_table_skl);
	t.env.latency_req = 0;
	ck_assert_int_eq(gt_select(&t, NULL), 0);
	gt_busy(&t, 0);
	t.env.latency_req = 2000000000000LL;
	/* r = 0 is not > 0, and 0 is not above first: stays at 0 */
	ck_assert_int_eq(gt_select(&t, NULL), 0);
	gt_busy(&t, 0);
	ck_assert_int_eq(gt_select(&t, NULL), 0);
	gt_fini(&t);
}
END_TEST

START_TEST(disabled_last_state_falls_back)
{
	struct gt t;

	gt_init(&t, "ladder", gt_table_skl);
	t.gov.ops->reflect(&t.dev, 3);
	t.dev.last_residency_ns = 1000000;
	idl_core_set_disabled(&t.dev, 3, true);
	ck_assert_int_eq(gt_select(&t, NULL), 2);
	ck_assert_int_eq(t.dev.last_state_idx, 2);
	gt_fini(&t);
}
END_TEST

START_TEST(latency_req_demotes_to_first)
{
	struct gt t;

	gt_init(&t, "ladder", gt_table_skl);
	t.gov.ops->reflect(&t.dev, 3);
	t.dev.last_residency_ns = 1000000;
	/* C6 133000 and C1E 10000 are both above 5000: down to C1 */
	t.env.latency_req = 5000;
	ck_assert_int_eq(gt_select(&t, NULL), 1);
	gt_fini(&t);
}
END_TEST

START_TEST(no_promotion_into_disabled_or_slow)
{
	struct gt t;
	int i;

	gt_init(&t, "ladder", gt_table_skl);
	idl_core_set_disabled(&t.dev, 2, true);
	for (i = 0; i < 8; i++)
		ck_assert_int_eq(step(&t, 100000), 1);
	idl_core_set_disabled(&t.dev, 2, false);
	t.env.latency_req = 9999;	/* C1E needs 10000 */
	for (i = 0; i < 8; i++)
		ck_assert_int_eq(step(&t, 100000), 1);
	gt_fini(&t);
}
END_TEST

START_TEST(vm_table_always_one)
{
	static const u64 res[] = { 0, 1, 999, 1000, 1001, 50000, 4000000,
				   100000000 };
	struct gt t;
	size_t i, k;

	gt_init(&t, "ladder", gt_table_vm);
	for (k = 0; k < 3; k++)
		for (i = 0; i < sizeof(res) / sizeof(res[0]); i++)
			ck_assert_int_eq(step(&t, res[i]), 1);
	gt_fini(&t);
}
END_TEST

static Suite *ladder_suite(void)
{
	Suite *s = suite_create("ladder");
	TCase *tc = tcase_create("ladder");

	tcase_add_test(tc, enable_starts_at_first);
	tcase_add_test(tc, promotion_after_four);
	tcase_add_test(tc, promotion_count_param);
	tcase_add_test(tc, demotion_count_param);
	tcase_add_test(tc, first_select_counts_toward_promotion);
	tcase_add_test(tc, negative_residency_promotes);
	tcase_add_test(tc, busy_counts_toward_promotion);
	tcase_add_test(tc, latency_req_zero);
	tcase_add_test(tc, stuck_at_poll_after_busy);
	tcase_add_test(tc, disabled_last_state_falls_back);
	tcase_add_test(tc, latency_req_demotes_to_first);
	tcase_add_test(tc, no_promotion_into_disabled_or_slow);
	tcase_add_test(tc, vm_table_always_one);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(ladder_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
