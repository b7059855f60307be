// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Summary statistics for comparisons.  Numerical distributions come from
 * GSL; this file only combines them the way mmtests reports do.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "stats.h"

double stat_amean(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		sum += v[i];
	return sum / n;
}

double stat_hmean(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return NAN;
		sum += 1 / v[i];
	}
	return n / sum;
}

double stat_geomean(const double *v, size_t n)
{
	double logsum = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return NAN;
		logsum += log(v[i]);
	}
	return exp(logsum / n);
}

double stat_stddev(const double *v, size_t n)
{
	double mean, ss = 0;
	size_t i;

	if (n < 2)
		return NAN;
	mean = stat_amean(v, n);
	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (n - 1));
}

double stat_coeffvar(const double *v, size_t n)
{
	double sd = stat_stddev(v, n), mean = stat_amean(v, n);

	/* mmtests reports 0 rather than NaN for a single run */
	if (isnan(sd))
		sd = 0;
	if (isnan(mean) || mean == 0)
		return 0;
	return sd * 100 / fabs(mean);	/* a spread, whatever the sign */
}

double stat_min(const double *v, size_t n)
{
	double m = NAN;
	size_t i;

	for (i = 0; i < n; i++)
		if (i == 0 || v[i] < m)
			m = v[i];
	return m;
}

double stat_max(const double *v, size_t n)
{
	double m = NAN;
	size_t i;

	for (i = 0; i < n; i++)
		if (i == 0 || v[i] > m)
			m = v[i];
	return m;
}

double stat_mean_for(const double *v, size_t n, bool higher_is_better)
{
	return higher_is_better ? stat_hmean(v, n) : stat_amean(v, n);
}

/*
 * mmtests' pdiff/pndiff, including their conventions for zero values,
 * so that our percentages read the same as theirs.  A negative base
 * (a regret below the oracle's) is measured by its size, so that the
 * sign still says better or worse; mmtests' values are never negative.
 */
double stat_pct_better(double base, double val, bool higher_is_better)
{
	if (isnan(base) || isnan(val))
		return NAN;
	if (base < 0)
		return (higher_is_better ? val - base : base - val) * 100 /
		       -base;
	if (higher_is_better) {
		if (val == base || val == 0)
			return 0;
		if (base == 0)
			return 100;
		return val * 100 / base - 100;
	}
	if (val == base)
		return 0;
	if (val == 0)
		return 100;
	if (base == 0)
		return -99;
	return 100 - val * 100 / base;
}

void stat_significance(const double *base, size_t nb, const double *val,
		       size_t nv, enum stat_sig_rule rule,
		       struct stat_sig *out)
{
	double mb = stat_amean(base, nb), mv = stat_amean(val, nv);
	double sb = stat_stddev(base, nb), sv = stat_stddev(val, nv);
	double se, z, ci_sum;

	out->t = out->df = out->p = out->cidiff = NAN;
	out->significant = false;
	if (nb < 2 || nv < 2)
		return;

	/* t statistic on the unpooled standard error, df = n1 + n2 - 2 */
	se = sqrt(sb * sb / nb + sv * sv / nv);
	out->df = (double)(nb + nv - 2);
	if (se > 0) {
		out->t = (mv - mb) / se;
		out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
	} else {
		out->t = mv == mb ? 0 : INFINITY;
		out->p = mv == mb ? 1 : 0;
	}

	/* each side's 95% band is qnorm(0.975) standard deviations wide */
	z = gsl_cdf_ugaussian_Qinv(0.025);
	ci_sum = z * sb + z * sv;
	out->cidiff = ci_sum > 0 ? (mv - mb) / ci_sum : (mv - mb);

	if (rule == STAT_SIG_TTEST)
		out->significant = out->p < 0.10;
	else
		out->significant = fabs(out->cidiff) > 1;
}

int stat_parse_rule(const char *name, enum stat_sig_rule *rule)
{
	if (!strcmp(name, "ttest"))
		*rule = STAT_SIG_TTEST;
	else if (!strcmp(name, "ci"))
		*rule = STAT_SIG_CI;
	else
		return -1;
	return 0;
}

int stat_fmt2(char *buf, double v)
{
	double a = fabs(v), s, fl;
	unsigned long long cents, ip;
	char tmp[24], *p = tmp + sizeof(tmp);
	int n = 0;

	/* |v| < 1e9: v * 100 is within 1.2e-5 of its exact value, so the
	 * rounding of a value 1e-4 or more from a tie is that of printf */
	if (!(a < 1e9))
		return snprintf(buf, STAT_FMT2_LEN, "%.2f", v);
	s = a * 100;
	fl = floor(s);
	if (fabs(s - fl - 0.5) < 1e-4)
		return snprintf(buf, STAT_FMT2_LEN, "%.2f", v);
	cents = (unsigned long long)fl + (s - fl > 0.5);
	ip = cents / 100;
	*--p = (char)('0' + cents % 10);
	*--p = (char)('0' + cents / 10 % 10);
	*--p = '.';
	do
		*--p = (char)('0' + ip % 10);
	while ((ip /= 10));
	if (signbit(v))		/* printf: "-0.00" too */
		buf[n++] = '-';
	memcpy(buf + n, p, (size_t)(tmp + sizeof(tmp) - p));
	n += (int)(tmp + sizeof(tmp) - p);
	buf[n] = '\0';
	return n;
}
