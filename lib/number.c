// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Numbers from text the user typed (options, governor and benchmark
 * parameters, pattern terms): one set of parsers for all of them, which
 * refuse NaN, infinities, hexadecimal, blanks, trailing characters and
 * values out of range (number.h).
 */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"

/* Decimal digits and nothing else, at most @max. */
static int parse_digits(const char *s, uint64_t max, uint64_t *v)
{
	unsigned long long x;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	errno = 0;
	x = strtoull(s, NULL, 10);
	if (errno || x > max)
		return -1;
	*v = x;
	return 0;
}

int idl_parse_int(const char *s, long long min, long long max, long long *v)
{
	bool neg = *s == '-';
	long long x;
	uint64_t m;

	/* the magnitude goes up to 2^63 for a negative number */
	if (parse_digits(s + (neg || *s == '+'), (uint64_t)LLONG_MAX + neg,
			 &m))
		return -1;
	x = neg && m ? -(long long)(m - 1) - 1 : (long long)m;
	if (x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

int idl_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	uint64_t x;

	if (parse_digits(s + (*s == '+'), max, &x) || x < min)
		return -1;
	*v = x;
	return 0;
}

/* The characters of a decimal floating-point number. */
#define NUMBER_CHARS	"0123456789.eE+-"

int idl_parse_double(const char *s, double min, double max, bool above_min,
		     double *v)
{
	char *end;
	double x;

	/* strtod() without its blanks, hexadecimal, "inf" and "nan" */
	if (!*s || strspn(s, NUMBER_CHARS) != strlen(s))
		return -1;
	errno = 0;
	x = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(x) || x > max ||
	    (above_min ? x <= min : x < min))
		return -1;
	*v = x;
	return 0;
}

int idl_parse_time(const char *s, uint64_t *ns)
{
	static const struct { const char *name; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	size_t n = strspn(s, NUMBER_CHARS), i;
	char num[64];
	double v, t;

	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(s + n, units[i].name))
			continue;
		if (idl_parse_double(num, 0, DBL_MAX, false, &v))
			return -1;
		t = v * units[i].ns + 0.5;
		if (t >= 18446744073709551616.0)	/* 2^64 */
			return -1;
		*ns = (uint64_t)t;
		return 0;
	}
	return -1;
}

int idl_parse_cpu(const char *s, int max, int *cpu)
{
	long long v;

	if (*s < '0' || *s > '9' || idl_parse_int(s, 0, max, &v))
		return -1;
	*cpu = (int)v;
	return 0;
}

/* One item of a CPU list, "N" or "A-B" with A <= B. */
static int parse_cpu_range(const char *s, size_t len, int max, int *a,
			   int *b)
{
	char buf[32], *dash;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	dash = strchr(buf, '-');
	if (dash)
		*dash = '\0';
	if (idl_parse_cpu(buf, max, a))
		return -1;
	*b = *a;
	if (dash && (idl_parse_cpu(dash + 1, max, b) || *b < *a))
		return -1;
	return 0;
}

int idl_parse_cpulist(const char *s, int max, uint64_t *mask, size_t nwords)
{
	size_t len;
	int a, b;

	if (mask)
		memset(mask, 0, nwords * sizeof(*mask));
	for (;;) {
		len = strcspn(s, ",");
		if (parse_cpu_range(s, len, max, &a, &b))
			return -1;
		for (; mask && a <= b; a++) {
			if ((size_t)a / 64 >= nwords)
				return -1;
			mask[a / 64] |= 1ULL << (a % 64);
		}
		if (!s[len])
			return 0;
		s += len + 1;
	}
}
