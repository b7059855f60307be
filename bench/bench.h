/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Benchmarks for `idlelab live`: a small registry of built-in C
 * benchmarks (pingpong, timer, wakeup) and adapters for Debian tools
 * (hackbench, perf bench, stress-ng, tbench, sockperf, cyclictest, fio).
 *
 * Every benchmark fills a struct bench_result: a list of metrics, each
 * with a unit and a direction.  Parsers of tool output are plain
 * functions of the text, so they are tested on recorded outputs.
 */
#ifndef IDLELAB_BENCH_H
#define IDLELAB_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define BENCH_MAX_METRICS	48
#define BENCH_NAME_LEN		48

struct bench_metric {
	char	name[BENCH_NAME_LEN];	/* "rtt-p99", "ops/s" */
	char	case_name[BENCH_NAME_LEN];	/* sub-result, "" if none */
	char	unit[16];		/* "us", "ops/s", "s" */
	bool	higher_is_better;
	double	value;
};

struct bench_result {
	int			n;
	struct bench_metric	m[BENCH_MAX_METRICS];
};

/* Append a metric; silently ignores overflow (the table is generous). */
void bench_add(struct bench_result *r, const char *name, const char *case_name,
	       const char *unit, bool higher_is_better, double value);
const struct bench_metric *bench_find(const struct bench_result *r,
				      const char *name, const char *case_name);

/* Parameters of one benchmark run. */
struct bench_args {
	double		duration_s;	/* bounded run time */
	const char	*opts;		/* "key=val:key=val" from the spec, or "" */
	const char	*workdir;	/* scratch directory (fio) */
	unsigned int	nr_cpus;
};

struct bench_def {
	const char	*name;
	const char	*summary;
	const char	*binary;	/* external tool, NULL for built-ins */
	const char	*package;	/* Debian package providing it */
	const char *const *keys;	/* option keys it takes */
	int (*run)(const struct bench_args *a, struct bench_result *r,
		   struct idl_err *err);
};

const struct bench_def *bench_find_def(const char *name);
const struct bench_def *const *bench_list(void);	/* NULL-terminated */
/* 1 if the benchmark can run here (built-in, or its binary on PATH). */
bool bench_available(const struct bench_def *d);

/*
 * Option strings of a spec "name:key=val:key=val".  Returns the value of
 * @key as a number, or @dfl when absent; sets @err on a malformed value.
 */
double bench_opt_num(const char *opts, const char *key, double dfl,
		     struct idl_err *err);
/* Copy the string value of @key into @buf; returns 1 if present. */
int bench_opt_str(const char *opts, const char *key, char *buf, size_t len);
/* Check a spec's option keys against the benchmark's, before running. */
int bench_spec_check(const struct bench_def *d, const char *opts,
		     struct idl_err *err);
/* Reject keys that a benchmark does not know. */
int bench_opts_check(const char *bench, const char *opts,
		     const char *const *known, struct idl_err *err);

/*
 * Stop request: set by the signal handler of `idlelab live`; every
 * benchmark loop polls it and ends early.
 */
extern volatile sig_atomic_t bench_stop;

/* ------------------------------------------------------------- histogram
 * Latency histogram with bounded memory: exact below 64 ns, then 64
 * sub-buckets per power of two (relative error < 1/64).
 */
#define HIST_SUB_BITS	6
#define HIST_SUB	(1 << HIST_SUB_BITS)
#define HIST_MAX_EXP	42
#define HIST_BUCKETS	(HIST_SUB + (HIST_MAX_EXP - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t	count;
	uint64_t	min, max;
	double		sum;
	uint32_t	b[HIST_BUCKETS];
};

void hist_init(struct hist *h);
void hist_add(struct hist *h, uint64_t v);
void hist_merge(struct hist *dst, const struct hist *src);
/* Nearest-rank percentile (p in 0..100), reported as the bucket middle
 * clamped to [min, max]; 0 when empty. */
double hist_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h);

/* ------------------------------------------------------- built-ins */
int bench_pingpong(const struct bench_args *a, struct bench_result *r,
		   struct idl_err *err);
int bench_timer(const struct bench_args *a, struct bench_result *r,
		struct idl_err *err);
int bench_wakeup(const struct bench_args *a, struct bench_result *r,
		 struct idl_err *err);

/* --------------------------------------------- parsers of tool output */
int parse_hackbench(const char *out, struct bench_result *r,
		    struct idl_err *err);
int parse_perf_pipe(const char *out, struct bench_result *r,
		    struct idl_err *err);
int parse_perf_messaging(const char *out, struct bench_result *r,
			 struct idl_err *err);
int parse_stress_ng(const char *out, const char *stressor,
		    struct bench_result *r, struct idl_err *err);
int parse_tbench(const char *out, struct bench_result *r,
		 struct idl_err *err);
int parse_sockperf(const char *out, struct bench_result *r,
		   struct idl_err *err);
int parse_cyclictest(const char *out, struct bench_result *r,
		     struct idl_err *err);
int parse_fio_json(const char *out, struct bench_result *r,
		   struct idl_err *err);
/* Remove ANSI escape sequences in place. */
void strip_ansi(char *s);

/*
 * Run argv (argv[0] looked up on PATH) with stdout and stderr captured
 * into a malloc'd buffer (*out, NUL-terminated).  The child is killed
 * after @timeout_s or when bench_stop is set.  Returns the exit status,
 * or -1 with @err set.
 */
int bench_exec(char *const argv[], double timeout_s, char **out,
	       struct idl_err *err);
bool bench_on_path(const char *binary);
/* CLOCK_MONOTONIC in seconds */
double bench_mono_s(void);

/* Adapters for Debian-packaged tools (bench/adapters.c). */
int bench_hackbench(const struct bench_args *a, struct bench_result *r,
		    struct idl_err *err);
int bench_perf_pipe(const struct bench_args *a, struct bench_result *r,
		    struct idl_err *err);
int bench_perf_messaging(const struct bench_args *a, struct bench_result *r,
			 struct idl_err *err);
int bench_stress_ng(const struct bench_args *a, struct bench_result *r,
		    struct idl_err *err);
int bench_tbench(const struct bench_args *a, struct bench_result *r,
		 struct idl_err *err);
int bench_sockperf(const struct bench_args *a, struct bench_result *r,
		   struct idl_err *err);
int bench_cyclictest(const struct bench_args *a, struct bench_result *r,
		     struct idl_err *err);
int bench_fio(const struct bench_args *a, struct bench_result *r,
	      struct idl_err *err);

#endif /* IDLELAB_BENCH_H */
