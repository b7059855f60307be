// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The benchmark registry, spec options and the latency histogram shared
 * by the built-in benchmarks.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

volatile sig_atomic_t bench_stop;


#define KEYS(...)	((const char *const[]){ __VA_ARGS__, NULL })

static const struct bench_def defs[] = {
	{ "pingpong", "pipe ping-pong between two pinned CPUs: round trip",
	  NULL, NULL, KEYS("cpu-a", "cpu-b", "gap"), bench_pingpong },
	{ "timer", "periodic timers (73/113/211/347/401 Hz): lateness",
	  NULL, NULL, KEYS("rates"), bench_timer },
	{ "wakeup", "messenger/worker wakeups (futex or condvar): latency",
	  NULL, NULL, KEYS("workers", "work", "sleep", "mode"), bench_wakeup },
	{ "hackbench", "hackbench groups of senders/receivers: time",
	  "hackbench", "rt-tests", KEYS("groups", "loops", "pipe", "threads"),
	  bench_hackbench },
	{ "perf-pipe", "perf bench sched pipe: usecs/op, ops/s",
	  "perf", "linux-perf", KEYS("loops"), bench_perf_pipe },
	{ "perf-messaging", "perf bench sched messaging: time",
	  "perf", "linux-perf", KEYS("groups", "loops"),
	  bench_perf_messaging },
	{ "stress-ng", "stress-ng stressor (stressor=timer|hrtimers|...)",
	  "stress-ng", "stress-ng", KEYS("stressor", "workers", "sleep"),
	  bench_stress_ng },
	{ "tbench", "tbench over 127.0.0.1: throughput, max latency",
	  "tbench", "dbench", KEYS("clients"), bench_tbench },
	{ "sockperf", "sockperf ping-pong over 127.0.0.1: latency",
	  "sockperf", "sockperf", KEYS("port"), bench_sockperf },
	{ "cyclictest", "cyclictest --laptop: wakeup latency",
	  "cyclictest", "rt-tests", KEYS("threads", "interval"),
	  bench_cyclictest },
	{ "fio", "fio random reads on a scratch file: iops, latency",
	  "fio", "fio", KEYS("size"), bench_fio },
};

#define NDEFS (sizeof(defs) / sizeof(defs[0]))

const struct bench_def *bench_find_def(const char *name)
{
	size_t i;

	for (i = 0; i < NDEFS; i++)
		if (!strcmp(defs[i].name, name))
			return &defs[i];
	return NULL;
}

const struct bench_def *const *bench_list(void)
{
	static const struct bench_def *list[NDEFS + 1];
	size_t i;

	for (i = 0; i < NDEFS; i++)
		list[i] = &defs[i];
	list[NDEFS] = NULL;
	return list;
}

bool bench_on_path(const char *binary)
{
	const char *path = getenv("PATH");
	char buf[4096];
	const char *p, *e;

	if (strchr(binary, '/'))
		return access(binary, X_OK) == 0;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, ':');
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(e - p), p, binary);
		if (access(buf, X_OK) == 0)
			return true;
	}
	return false;
}

bool bench_available(const struct bench_def *d)
{
	return !d->binary || bench_on_path(d->binary);
}

void bench_add(struct bench_result *r, const char *name, const char *case_name,
	       const char *unit, bool higher_is_better, double value)
{
	struct bench_metric *m;

	if (r->n >= BENCH_MAX_METRICS)
		return;
	m = &r->m[r->n++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->case_name, sizeof(m->case_name), "%s",
		 case_name ? case_name : "");
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->higher_is_better = higher_is_better;
	m->value = value;
}

const struct bench_metric *bench_find(const struct bench_result *r,
				      const char *name, const char *case_name)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->m[i].name, name) &&
		    !strcmp(r->m[i].case_name, case_name ? case_name : ""))
			return &r->m[i];
	return NULL;
}

/* ------------------------------------------------------------- options */

/* Find "key=" at the start of a ':'-separated item; returns the value. */
static const char *opt_find(const char *opts, const char *key, size_t *len)
{
	size_t kl = strlen(key);
	const char *p = opts;

	while (p && *p) {
		const char *e = strchrnul(p, ':');

		if ((size_t)(e - p) > kl && !strncmp(p, key, kl) &&
		    p[kl] == '=') {
			*len = (size_t)(e - p) - kl - 1;
			return p + kl + 1;
		}
		p = *e ? e + 1 : NULL;
	}
	return NULL;
}

int bench_opt_str(const char *opts, const char *key, char *buf, size_t len)
{
	size_t vl;
	const char *v = opt_find(opts, key, &vl);

	if (!v)
		return 0;
	snprintf(buf, len, "%.*s", (int)vl, v);
	return 1;
}

double bench_opt_num(const char *opts, const char *key, double dfl,
		     struct idl_err *err)
{
	char buf[64], *end;
	double v;

	if (!bench_opt_str(opts, key, buf, sizeof(buf)))
		return dfl;
	errno = 0;
	v = strtod(buf, &end);
	if (errno || end == buf || *end || !isfinite(v) || v < 0) {
		idl_err_set(err, IDL_EXIT_BADINPUT,
			    "benchmark option %s=%s: not a non-negative number",
			    key, buf);
		return NAN;
	}
	return v;
}

int bench_spec_check(const struct bench_def *d, const char *opts,
		     struct idl_err *err)
{
	return bench_opts_check(d->name, opts, d->keys, err);
}

int bench_opts_check(const char *bench, const char *opts,
		     const char *const *known, struct idl_err *err)
{
	const char *p = opts;

	while (p && *p) {
		const char *e = strchrnul(p, ':');
		const char *eq = memchr(p, '=', (size_t)(e - p));
		size_t kl = eq ? (size_t)(eq - p) : (size_t)(e - p);
		const char *const *k;
		bool ok = false;

		for (k = known; *k && eq; k++)
			if (strlen(*k) == kl && !strncmp(*k, p, kl))
				ok = true;
		if (!ok)
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "benchmark %s: unknown option '%.*s'",
					   bench, (int)(e - p), p);
		p = *e ? e + 1 : NULL;
	}
	return 0;
}

/* ----------------------------------------------------------- histogram */

static unsigned int hist_index(uint64_t v)
{
	unsigned int e;

	if (v < HIST_SUB)
		return (unsigned int)v;
	e = 63 - (unsigned int)__builtin_clzll(v);
	if (e > HIST_MAX_EXP)
		return HIST_BUCKETS - 1;
	return HIST_SUB + (e - HIST_SUB_BITS) * HIST_SUB +
	       (unsigned int)((v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

/* Lower bound and width of bucket @i. */
static void hist_bucket(unsigned int i, double *lo, double *width)
{
	unsigned int e, sub;

	if (i < HIST_SUB) {
		*lo = i;
		*width = 1;
		return;
	}
	e = (i - HIST_SUB) / HIST_SUB + HIST_SUB_BITS;
	sub = (i - HIST_SUB) % HIST_SUB;
	*lo = ldexp(HIST_SUB + sub, (int)(e - HIST_SUB_BITS));
	*width = ldexp(1, (int)(e - HIST_SUB_BITS));
}

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_add(struct hist *h, uint64_t v)
{
	h->b[hist_index(v)]++;
	h->count++;
	h->sum += (double)v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned int i;

	for (i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;
	double lo, width, v;
	unsigned int i;

	if (!h->count)
		return 0;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank)
			break;
	}
	if (i == HIST_BUCKETS)
		i = HIST_BUCKETS - 1;
	hist_bucket(i, &lo, &width);
	v = width > 1 ? lo + width / 2 : lo;
	if (v < (double)h->min)
		v = (double)h->min;
	if (v > (double)h->max)
		v = (double)h->max;
	return v;
}

double hist_mean(const struct hist *h)
{
	return h->count ? h->sum / (double)h->count : 0;
}

double bench_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
