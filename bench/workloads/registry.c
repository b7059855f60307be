// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The benchmark registry (the list comes from bench/Makefile.inc), the
 * options of a spec read through each benchmark's definition, and the
 * latency histogram of the built-in benchmarks.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <float.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "number.h"

#define BENCH_OPT_MAX	1e9

volatile sig_atomic_t bench_stop;

/* The benchmarks: one line each in bench/Makefile.inc (BENCHMARKS). */
#define IDL_BENCH(sym) extern const struct bench_def sym;
#include "bench/workloads/bench-list.h"
#undef IDL_BENCH
#define IDL_BENCH(sym) &sym,
static const struct bench_def *const defs[] = {
#include "bench/workloads/bench-list.h"
	NULL
};
#undef IDL_BENCH

const struct bench_def *bench_find_def(const char *name)
{
	const struct bench_def *const *d;

	for (d = defs; *d; d++)
		if (!strcmp((*d)->name, name))
			return *d;
	return NULL;
}

const struct bench_def *const *bench_list(void)
{
	return defs;
}

int bench_run(const struct bench_def *d, const struct bench_args *a,
	      struct bench_result *r, struct idl_err *err)
{
	struct bench_args args = *a;

	args.def = d;
	return d->run(&args, r, err);
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

static unsigned int nr_cpus_dfl(unsigned int nr_cpus)
{
	return nr_cpus;
}

/* The @k-th CPU (from 0) this process may run on, else the last of
 * them; 0 if the affinity cannot be read. */
static unsigned int allowed_cpu(int k)
{
	cpu_set_t set;
	unsigned int cpu, found = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		found = cpu;
		if (!k--)
			break;
	}
	return found;
}

static unsigned int cpu0_dfl(unsigned int nr_cpus)
{
	(void)nr_cpus;
	return allowed_cpu(0);
}

static unsigned int cpu1_dfl(unsigned int nr_cpus)
{
	(void)nr_cpus;
	return allowed_cpu(1);
}

/*
 * Defaults that depend on the machine: the word a definition uses, what
 * a listing says for it, and its value for a run on @nr_cpus CPUs.
 */
static const struct {
	const char	*word, *text;
	unsigned int	(*value)(unsigned int nr_cpus);
} machine_dfl[] = {
	{ BENCH_DFL_CPUS, "number of CPUs", nr_cpus_dfl },
	{ BENCH_DFL_CPU0, "first CPU idlelab may run on", cpu0_dfl },
	{ BENCH_DFL_CPU1, "second CPU idlelab may run on, or the first",
	  cpu1_dfl },
};

#define NR_MACHINE_DFL	(sizeof(machine_dfl) / sizeof(machine_dfl[0]))

/* Index of @dfl in machine_dfl[], or NR_MACHINE_DFL for a plain value. */
static size_t machine_dfl_find(const char *dfl)
{
	size_t i;

	for (i = 0; i < NR_MACHINE_DFL; i++)
		if (!strcmp(dfl, machine_dfl[i].word))
			break;
	return i;
}

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

/* The option @key of @d, of length @kl; NULL if it has none. */
static const struct bench_opt *opt_decl(const struct bench_def *d,
					const char *key, size_t kl)
{
	const struct bench_opt *o;

	for (o = d->opts; o->key; o++)
		if (strlen(o->key) == kl && !strncmp(o->key, key, kl))
			return o;
	return NULL;
}

const char *bench_opt_default_text(const struct bench_opt *o)
{
	size_t i = machine_dfl_find(o->dfl);

	return i < NR_MACHINE_DFL ? machine_dfl[i].text : o->dfl;
}

int bench_opt_str(const struct bench_args *a, const char *key, char *buf,
		  size_t len, struct idl_err *err)
{
	const struct bench_opt *o = opt_decl(a->def, key, strlen(key));
	const char *v;
	size_t vl, i;

	if (!o)		/* a benchmark reads only what it declares */
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "benchmark %s: option '%s' not declared",
				   a->def->name, key);
	v = opt_find(a->opts, key, &vl);
	if (v) {
		snprintf(buf, len, "%.*s", (int)vl, v);
		return 0;
	}
	i = machine_dfl_find(o->dfl);
	if (i < NR_MACHINE_DFL)
		snprintf(buf, len, "%u", machine_dfl[i].value(a->nr_cpus));
	else
		snprintf(buf, len, "%s", o->dfl);
	return 0;
}

double bench_opt_num(const struct bench_args *a, const char *key,
		     struct idl_err *err)
{
	char buf[64];
	double v;

	if (bench_opt_str(a, key, buf, sizeof(buf), err))
		return NAN;
	/* every parameter (counts, us, Hz, CPUs, ports) fits, and a value
	 * converted to an int by a benchmark stays defined */
	if (idl_parse_double(buf, 0, BENCH_OPT_MAX, false, &v)) {
		idl_err_set(err, IDL_EXIT_BADINPUT,
			    "benchmark option %s=%s: not a number in 0..%.0f",
			    key, buf, BENCH_OPT_MAX);
		return NAN;
	}
	return v;
}

/* "cpu-a cpu-b gap": the keys @d declares, for messages. */
static void opt_keys(const struct bench_def *d, char *buf, size_t len)
{
	const struct bench_opt *o;
	size_t n = 0;

	buf[0] = '\0';
	for (o = d->opts; o->key && n < len; o++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "",
				      o->key);
}

int bench_spec_check(const struct bench_def *d, const char *opts,
		     struct idl_err *err)
{
	const char *p = opts;
	char keys[256];

	while (p && *p) {
		const char *e = strchrnul(p, ':');
		const char *eq = memchr(p, '=', (size_t)(e - p));

		if (!eq || !opt_decl(d, p, (size_t)(eq - p))) {
			opt_keys(d, keys, sizeof(keys));
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "benchmark %s: unknown option "
					   "'%.*s' (it takes: %s)", d->name,
					   (int)(e - p), p, keys);
		}
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
