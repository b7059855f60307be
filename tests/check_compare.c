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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"

static const double a[] = { 10, 12, 14 };
static const double b[] = { 13, 15, 17 };
static const double c[] = { 16, 18, 20 };

/*
 * stat_fmt2() must write what printf("%.2f") writes: the reference is
 * glibc's printf itself, on ties of the last digit (0.125, 2.675,
 * -0.005), signs of zero, carries (9.995, 99.999), the bounds of the
 * fast path (1e9) and 200,000 pseudo-random values of every scale.
 */
START_TEST(test_fmt2_is_printf)
{
	static const double fixed[] = {
		0, -0.0, 0.125, 0.375, 2.675, 1.005, -0.005, -0.004, 0.004999,
		9.995, 99.999, 0.5, 1.5, 1e-300, -1e-300, 999999999.995,
		1e9, -1e9, 123456789.125, 4503599627370497.0, 1e300, NAN,
		INFINITY, -INFINITY, 0.015, 0.025, 1.115, 1.125, 33.335,
	};
	char want[400], got[STAT_FMT2_LEN];
	unsigned long long x = 88172645463325252ull;
	size_t i;
	int n;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]) + 200000; i++) {
		double v;

		if (i < sizeof(fixed) / sizeof(fixed[0])) {
			v = fixed[i];
		} else {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* mantissa and a scale of 1e-4 .. 1e11, both signs;
			 * every eighth one on a multiple of 0.005 */
			v = (double)(x >> 11) / 9007199254740992.0 *
			    pow(10, (double)(x % 16) - 4) * (x & 32 ? -1 : 1);
			if (!(x & 0x700))
				v = (double)((long long)(x >> 40) % 200000) * 0.005;
		}
		snprintf(want, sizeof(want), "%.2f", v);
		n = stat_fmt2(got, v);
		ck_assert_msg(!strcmp(got, want) && n == (int)strlen(want),
			      "%.17g: got '%s', printf '%s'", v, got, want);
	}
}
END_TEST

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
	struct cmp_summary sum;
	char buf[96];

	ck_assert_int_eq(results_load(fixture("live-small.json"), &rs, &err), 0);
	ck_assert_int_eq(rs.nconfigs, 3);
	ck_assert_int_eq(rs.nbench, 3);
	ck_assert_int_eq(cmp_table_build(&t, &rs, 1, STAT_SIG_TTEST, &err), 0);
	ck_assert_int_eq(t.ncols, 3);
	ck_assert_int_eq(t.nrows, 3);
	/*
	 * pingpong, menu vs haltpoll: latency 12 -> 15 (lower better: 0.8),
	 * ops 110 -> 95 (higher better: 95/110), one line each
	 */
	cmp_metric_summary(&t, 0, &sum);
	ck_assert_int_eq(sum.kind, CMP_SUM_RATIO);
	ck_assert_double_eq_tol(sum.value[1], 0.8, 1e-12);
	cmp_summary_text(buf, sizeof(buf), &sum, 1, "us");
	ck_assert_str_eq(buf, "20% worse");
	cmp_metric_summary(&t, 1, &sum);
	ck_assert_double_eq_tol(sum.value[1], 95.0 / 110.0, 1e-12);
	ck_assert_double_eq_tol(sum.value[2], 1, 1e-12);
	cmp_summary_text(buf, sizeof(buf), &sum, 2, "ops/s");
	ck_assert_str_eq(buf, "no change");
	/* ladder has no timer runs: missing, not fatal */
	ck_assert_ptr_null(cmp_cell(&t, 2, 2));
	cmp_metric_summary(&t, 2, &sum);
	ck_assert(isnan(sum.value[2]));
	cmp_summary_text(buf, sizeof(buf), &sum, 2, "us");
	ck_assert_str_eq(buf, "n/a");
	cmp_table_free(&t);
	results_free(&rs);
}
END_TEST

/*
 * The summary rule (doc/compare.md) on generated result sets: values of
 * the kinds that trip a ratio (zero, near zero, large) among ordinary
 * ones, several cases and runs, either direction, and an "oracle" column
 * that is at least as good as every other in every case, anywhere among
 * the columns (the baseline too).  Whatever the set, the oracle's line
 * must rank it first, every column keeps a figure, and a column that is
 * at least as good as another in every case never ranks below it.
 */
static unsigned long long gen_seed = 88172645463325252ull;

static double urand(void)
{
	gen_seed ^= gen_seed << 13;
	gen_seed ^= gen_seed >> 7;
	gen_seed ^= gen_seed << 17;
	return (double)(gen_seed >> 11) / 9007199254740992.0;
}

static double gen_value(void)
{
	double u = urand();

	if (u < 0.2)
		return 0;
	if (u < 0.3)
		return urand() * 1e-6;
	if (u < 0.9)
		return 0.1 + urand() * 100;
	return urand() * 1e7;
}

#define GEN_CASES	6

struct gen_set {
	struct res_set		rs;
	struct res_bench	y[GEN_CASES];
	double			mean[GEN_CASES][RES_MAX_CONFIGS];
	int			oracle;
	bool			hib;
	bool			pct;	/* a percentage: "m_pct", in % */
};

static void gen_series(struct gen_set *g, int k, int col)
{
	struct res_series *sr = &g->y[k].series[col];
	size_t i;

	sr->config = col;
	sr->n = 1 + (size_t)(urand() * 4);
	sr->v = calloc(sr->n, sizeof(double));
	ck_assert_ptr_nonnull(sr->v);
	for (i = 0; i < sr->n; i++)
		sr->v[i] = gen_value();
	g->mean[k][col] = stat_amean(sr->v, sr->n);
}

static void gen_make(struct gen_set *g)
{
	int ncases = 1 + (int)(urand() * GEN_CASES), k, col;
	bool zero_oracle = urand() < 0.5;

	memset(g, 0, sizeof(*g));
	g->rs.nconfigs = 2 + (int)(urand() * 7);
	g->oracle = (int)(urand() * g->rs.nconfigs);
	g->hib = urand() < 0.3;
	g->pct = urand() < 0.3;
	for (col = 0; col < g->rs.nconfigs; col++)
		snprintf(g->rs.configs[col], RES_NAME_LEN, "col%d", col);
	g->rs.nbench = ncases;
	g->rs.bench = g->y;
	for (k = 0; k < ncases; k++) {
		struct res_bench *y = &g->y[k];
		double best = g->hib ? 0 : INFINITY;

		snprintf(y->name, sizeof(y->name), "b");
		snprintf(y->kase, sizeof(y->kase), "k%d", k);
		snprintf(y->metric, sizeof(y->metric), g->pct ? "m_pct" : "m");
		snprintf(y->unit, sizeof(y->unit), g->pct ? "%%" : "us");
		y->higher_is_better = g->hib;
		y->nseries = g->rs.nconfigs;
		for (col = 0; col < g->rs.nconfigs; col++) {
			if (col == g->oracle)
				continue;
			gen_series(g, k, col);
			best = g->hib ? fmax(best, g->mean[k][col]) :
					fmin(best, g->mean[k][col]);
		}
		/* one run at the best mean, or no misses at all */
		y->series[g->oracle].config = g->oracle;
		y->series[g->oracle].n = 1;
		y->series[g->oracle].v = calloc(1, sizeof(double));
		y->series[g->oracle].v[0] = zero_oracle && !g->hib ? 0 : best;
		g->mean[k][g->oracle] = y->series[g->oracle].v[0];
	}
}

static void gen_free(struct gen_set *g)
{
	int k, col;

	for (k = 0; k < g->rs.nbench; k++)
		for (col = 0; col < g->y[k].nseries; col++)
			free(g->y[k].series[col].v);
}

/* At least as good as @y in every case. */
static bool dominates(const struct gen_set *g, int x, int y)
{
	int k;

	for (k = 0; k < g->rs.nbench; k++)
		if (g->hib ? g->mean[k][x] < g->mean[k][y] :
			     g->mean[k][x] > g->mean[k][y])
			return false;
	return true;
}

/* The rule's choice, worked out here from the means alone. */
static enum cmp_sum_kind expected_kind(const struct gen_set *g)
{
	int k, col;

	if (g->pct)		/* a percentage changes by points */
		return CMP_SUM_DIFF;
	for (k = 0; k < g->rs.nbench; k++) {
		double max = 0;

		for (col = 0; col < g->rs.nconfigs; col++)
			max = fmax(max, fabs(g->mean[k][col]));
		for (col = 0; col < g->rs.nconfigs; col++)
			if (!(g->mean[k][col] > 0 &&
			      g->mean[k][col] >= 0.01 * max))
				return CMP_SUM_DIFF;
	}
	return CMP_SUM_RATIO;
}

static bool ranks_at_least(const struct cmp_summary *s, int x, int y)
{
	double tol = 1e-9 * fmax(1, fabs(s->value[y]));

	return s->value[x] >= s->value[y] - tol;
}

/*
 * One printed mmtests row: each cell's value and change (the text after
 * "(" or "*" up to its unit).  Returns the cells found.
 */
static int mm_cells(const char *line, char val[][32], char chg[][32], int max)
{
	const char *p = line, *o;
	int n = 0, k;

	while (n < max && (o = strpbrk(p, "(*"))) {
		const char *e = o;

		/* the value: the word before the change */
		while (e > line && e[-1] == ' ')
			e--;
		for (k = 0; e - k > line && e[-k - 1] != ' '; k++)
			;
		snprintf(val[n], 32, "%.*s", k, e - k);
		o++;
		while (*o == ' ')
			o++;
		for (k = 0; o[k] && o[k] != '%' && o[k] != ' ' && k < 31; k++)
			;
		snprintf(chg[n], 32, "%.*s", k, o);
		n++;
		p = strpbrk(o, ")*");
		if (!p)
			break;
		p++;
	}
	return n;
}

/*
 * The per-case tables of the same generated sets: no change is shown
 * between values that print the same, and a percentage is compared in
 * points, never by ratio (no "%" after a change, "pts" in every
 * normalized cell).
 */
START_TEST(test_case_tables_property)
{
	struct gen_set *g = malloc(sizeof(*g));
	char val[RES_MAX_CONFIGS][32], chg[RES_MAX_CONFIGS][32];
	int iter, pcts = 0, equal = 0;

	ck_assert_ptr_nonnull(g);
	for (iter = 0; iter < 3000; iter++) {
		struct cmp_table t;
		struct idl_err err;
		char *buf = NULL, *line, *save;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		int n, k;

		ck_assert_ptr_nonnull(f);
		gen_make(g);
		ck_assert_int_eq(cmp_table_build(&t, &g->rs, 1,
						 STAT_SIG_TTEST, &err), 0);
		cmp_print_mmtests(f, &t);
		fputs("-- normalized\n", f);
		cmp_print_normalized(f, &t);
		fclose(f);
		pcts += g->pct;
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (!strncmp(line, "-- normalized", 13))
				break;
			if (!strchr(line, '(') && !strchr(line, '*'))
				continue;
			if (g->pct)
				ck_assert_msg(!strchr(line, '%'),
					      "set %d: a ratio of a percentage: %s",
					      iter, line);
			n = mm_cells(line, val, chg, RES_MAX_CONFIGS);
			for (k = 1; k < n; k++) {
				if (strcmp(val[k], val[0]) ||
				    !strcmp(val[k], "n/a"))
					continue;
				equal++;
				ck_assert_msg(!strcmp(chg[k], "0.00"),
					      "set %d: %s vs %s: change %s: %s",
					      iter, val[0], val[k], chg[k], line);
			}
		}
		if (g->pct)
			for (; line; line = strtok_r(NULL, "\n", &save))
				if (strchr(line, '[') &&
				    strncmp(line, "Case:", 5))
					ck_assert_msg(strstr(line, " pts]"),
						      "set %d: %s", iter, line);
		free(buf);
		cmp_table_free(&t);
		gen_free(g);
	}
	ck_assert_int_gt(pcts, 100);
	ck_assert_int_gt(equal, 100);
	free(g);
}
END_TEST

START_TEST(test_summary_property)
{
	struct gen_set *g = malloc(sizeof(*g));
	int iter, x, y, ratios = 0, diffs = 0;

	ck_assert_ptr_nonnull(g);
	for (iter = 0; iter < 3000; iter++) {
		struct cmp_table t;
		struct cmp_summary s;
		struct idl_err err;

		gen_make(g);
		ck_assert_int_eq(cmp_table_build(&t, &g->rs, 1,
						 STAT_SIG_TTEST, &err), 0);
		cmp_metric_summary(&t, 0, &s);
		ck_assert_int_eq(s.kind, expected_kind(g));
		ratios += s.kind == CMP_SUM_RATIO;
		diffs += s.kind == CMP_SUM_DIFF;
		ck_assert_double_eq(s.value[0],
				    s.kind == CMP_SUM_RATIO ? 1 : 0);
		for (x = 0; x < g->rs.nconfigs; x++) {
			ck_assert_msg(isfinite(s.value[x]),
				      "set %d: column %d has no figure", iter, x);
			ck_assert_int_eq(s.n[x], g->rs.nbench);
			ck_assert_msg(ranks_at_least(&s, g->oracle, x),
				      "set %d: oracle %d below column %d",
				      iter, g->oracle, x);
			ck_assert_int_ge(cmp_summary_sign(&s, g->oracle),
					 cmp_summary_sign(&s, x));
			for (y = 0; y < g->rs.nconfigs; y++)
				if (dominates(g, x, y))
					ck_assert_msg(ranks_at_least(&s, x, y),
						"set %d: %d dominates %d", iter,
						x, y);
		}
		cmp_table_free(&t);
		gen_free(g);
	}
	/* both halves of the rule were exercised */
	ck_assert_int_gt(ratios, 100);
	ck_assert_int_gt(diffs, 100);
	free(g);
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
	tcase_add_test(tc, test_fmt2_is_printf);
	tcase_add_test(tc, test_spread);
	tcase_add_test(tc, test_pct);
	tcase_add_test(tc, test_ttest);
	tcase_add_test(tc, test_ci_rule);
	tcase_add_test(tc, test_load_and_ratio);
	tcase_add_test(tc, test_load_errors);
	tcase_add_test(tc, test_summary_property);
	tcase_add_test(tc, test_case_tables_property);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
