/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Summary statistics and significance tests for benchmark comparisons,
 * following mmtests' definitions (see doc/compare.md): sample standard
 * deviation (n - 1), coefficient of variation against the arithmetic mean,
 * harmonic mean for higher-is-better metrics, and two significance rules.
 */
#ifndef IDLELAB_STATS_H
#define IDLELAB_STATS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * @v as printf("%.2f") writes it, into @buf (at least STAT_FMT2_LEN
 * bytes); its length.  Exact: values near a tie of the last digit, and
 * large or non-finite ones, go to snprintf (a table of 100,000 rows
 * formats millions of numbers).
 */
#define STAT_FMT2_LEN	320	/* DBL_MAX takes 312 */
int stat_fmt2(char *buf, double v);

double stat_amean(const double *v, size_t n);
double stat_hmean(const double *v, size_t n);	/* NAN if any v <= 0 */
double stat_geomean(const double *v, size_t n);	/* NAN if any v <= 0 */
double stat_stddev(const double *v, size_t n);	/* sample; NAN if n < 2 */
double stat_coeffvar(const double *v, size_t n);	/* stddev*100/amean */
double stat_min(const double *v, size_t n);
double stat_max(const double *v, size_t n);

/*
 * The mean mmtests compares: Hmean when higher is better, Amean when
 * lower is better.
 */
double stat_mean_for(const double *v, size_t n, bool higher_is_better);

/* Percentage against the baseline, signed so that positive is better. */
double stat_pct_better(double base, double val, bool higher_is_better);

enum stat_sig_rule {
	STAT_SIG_TTEST,	/* two-sample t-test, p < 0.10 (mmtests before 2024) */
	STAT_SIG_CI,	/* 95% interval separation (mmtests since late 2024) */
};

struct stat_sig {
	double	t, df, p;	/* t-test figures (NAN when not computable) */
	double	cidiff;		/* (new - base) / (sum of the CI half-widths) */
	bool	significant;	/* under the rule asked for */
};

/* "ttest" or "ci"; -1 for anything else. */
int stat_parse_rule(const char *name, enum stat_sig_rule *rule);

/* Compare two samples; needs at least two values on each side. */
void stat_significance(const double *base, size_t nb, const double *val,
		       size_t nv, enum stat_sig_rule rule,
		       struct stat_sig *out);

#endif /* IDLELAB_STATS_H */
