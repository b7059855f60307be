// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Statistics and comparison tables.  Expected values were worked out
 * independently (by hand and with a closed-form Student t CDF for 4
 * degrees of freedom, cross-checked by numerical integration), never by
 * calling the code under test.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"

static const double a[] = { 10, 12, 14 };
static const double b[] = { 13, 15, 17 };
static const double c[] = { 16, 18, 20 };

START_TEST(test_means)
{
	ck_assert_double_eq_tol(stat_amean(a, 3), 12.0, 1e-12);
	/* 3 / (1/10 + 1/12 + 1/14) */
	ck_assert_double_eq_tol(stat_hmean(a, 3), 11.77570093457944, 1e-12);
	/* (10*12*14)^(1/3) = 1680^(1/3) */
	ck_assert_double_eq_tol(stat_geomean(a, 3), 11.887843905526259, 1e-9);
	ck_assert(isnan(stat_hmean((const double[]){ 1, 0, 2 }, 3)));
	ck_assert(isnan(stat_amean(a, 0)));
}
END_TEST

START_TEST(test_spread)
{
	/* sample stddev: sqrt(((-2)^2 + 0 + 2^2) / 2) = 2 */
	ck_assert_double_eq_tol(stat_stddev(a, 3), 2.0, 1e-12);
	ck_assert_double_eq_tol(stat_coeffvar(a, 3), 16.666666666666668, 1e-9);
	ck_assert_double_eq_tol(stat_coeffvar(b, 3), 13.333333333333334, 1e-9);
	ck_assert(isnan(stat_stddev(a, 1)));
	ck_assert_double_eq(stat_coeffvar(a, 1), 0);
	ck_assert_double_eq(stat_min(b, 3), 13);
	ck_assert_double_eq(stat_max(b, 3), 17);
}
END_TEST

START_TEST(test_pct)
{
	/* lower is better: 100 - 15*100/12 = -25 */
	ck_assert_double_eq_tol(stat_pct_better(12, 15, false), -25.0, 1e-12);
	/* higher is better: 94.824.../109.392...*100 - 100 */
	ck_assert_double_eq_tol(stat_pct_better(109.39226519337018,
						94.82439926062845, true),
				-13.317089564779053, 1e-9);
	ck_assert_double_eq(stat_pct_better(5, 5, true), 0);
	/* mmtests' conventions for zeros */
	ck_assert_double_eq(stat_pct_better(0, 5, true), 100);
	ck_assert_double_eq(stat_pct_better(0, 5, false), -99);
}
END_TEST

START_TEST(test_ttest)
{
	struct stat_sig s;

	/* t = 3 / sqrt(4/3 + 4/3) = 1.8371173, df 4, p = 0.14006598 */
	stat_significance(a, 3, b, 3, STAT_SIG_TTEST, &s);
	ck_assert_double_eq_tol(s.t, 1.8371173070873836, 1e-9);
	ck_assert_double_eq(s.df, 4);
	ck_assert_double_eq_tol(s.p, 0.1400659849120176, 1e-7);
	ck_assert(!s.significant);
	/* t = 6 / sqrt(8/3) = 3.6742346, p = 0.02131164 */
	stat_significance(a, 3, c, 3, STAT_SIG_TTEST, &s);
	ck_assert_double_eq_tol(s.p, 0.02131164112875661, 1e-7);
	ck_assert(s.significant);
}
END_TEST

START_TEST(test_ci_rule)
{
	struct stat_sig s;

	/* (18 - 12) / (1.959964*2 + 1.959964*2) = 0.7653: bands overlap */
	stat_significance(a, 3, c, 3, STAT_SIG_CI, &s);
	ck_assert_double_eq_tol(s.cidiff, 0.765320185386981, 1e-6);
	ck_assert(!s.significant);
	/* identical runs, different means: the difference itself counts */
	stat_significance((const double[]){ 1, 1 }, 2,
			  (const double[]){ 3, 3 }, 2, STAT_SIG_CI, &s);
	ck_assert_double_eq(s.cidiff, 2);
	ck_assert(s.significant);
	/* one run: nothing to test */
	stat_significance(a, 1, c, 3, STAT_SIG_CI, &s);
	ck_assert(!s.significant);
}
END_TEST

static char *fixture(const char *name)
{
	static char path[1024];

	snprintf(path, sizeof(path), "%s/tests/fixtures/results/%s",
		 getenv("top_srcdir") ? getenv("top_srcdir") : ".", name);
	return path;
}

START_TEST(test_load_and_ratio)
{
	struct res_set rs;
	struct cmp_table t;
	struct idl_err err;

	ck_assert_int_eq(results_load(fixture("live-small.json"), &rs, &err), 0);
	ck_assert_int_eq(rs.nconfigs, 3);
	ck_assert_int_eq(rs.nbench, 3);
	ck_assert_int_eq(cmp_table_build(&t, &rs, 1, STAT_SIG_TTEST, &err), 0);
	ck_assert_int_eq(t.ncols, 3);
	ck_assert_int_eq(t.nrows, 3);
	/*
	 * pingpong, menu vs haltpoll: latency 12 -> 15 (lower better: 0.8),
	 * ops 110 -> 95 (higher better: 95/110); geomean sqrt(0.8*0.8636)
	 */
	ck_assert_double_eq_tol(cmp_benchmark_ratio(&t, "pingpong", 1),
				sqrt(0.8 * 95.0 / 110.0), 1e-12);
	/* ladder has no timer runs: missing, not fatal */
	ck_assert_ptr_null(cmp_cell(&t, 2, 2));
	ck_assert(isnan(cmp_benchmark_ratio(&t, "timer", 2)));
	cmp_table_free(&t);
	results_free(&rs);
}
END_TEST

START_TEST(test_load_errors)
{
	struct res_set rs;
	struct idl_err err;

	ck_assert_int_eq(results_load(fixture("bad-config.json"), &rs, &err), -1);
	ck_assert_int_eq(err.status, 2);
	ck_assert_ptr_nonnull(strstr(err.msg, "config 'teo' is not in \"configs\""));
	ck_assert_int_eq(results_load(fixture("bad-syntax.json"), &rs, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "bad-syntax.json:4:"));
	ck_assert_int_eq(results_load(fixture("no-such-file.json"), &rs, &err), -1);
	ck_assert_int_eq(err.status, 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("stats");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_means);
	tcase_add_test(tc, test_spread);
	tcase_add_test(tc, test_pct);
	tcase_add_test(tc, test_ttest);
	tcase_add_test(tc, test_ci_rule);
	tcase_add_test(tc, test_load_and_ratio);
	tcase_add_test(tc, test_load_errors);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
