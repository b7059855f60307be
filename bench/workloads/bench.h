/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Benchmarks for `idlelab live`: built-in C benchmarks (pingpong, timer,
 * wakeup) and adapters for Debian tools (hackbench, perf bench,
 * stress-ng, tbench, sockperf, cyclictest, fio).  Each is one file,
 * bench/bench-NAME.c, whose struct bench_def holds everything about it
 * (options with their defaults and help included); BENCHMARKS in
 * bench/Makefile.inc lists them.
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
#include <stdio.h>		/* bench_fmt() */
#include <time.h>

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

struct bench_def;

/* Parameters of one benchmark run. */
struct bench_args {
	const struct bench_def *def;	/* set by bench_run() */
	double		duration_s;	/* bounded run time */
	const char	*opts;		/* "key=val:key=val" from the spec, or "" */
	const char	*workdir;	/* scratch directory (fio) */
	unsigned int	nr_cpus;
};

/*
 * One option of a benchmark: its key in a spec, its default as it would
 * be written there (or one of the BENCH_DFL_ words below) and a line of
 * help.  `idlelab live --list-bench` and the man page print these.
 */
struct bench_opt {
	const char	*key;
	const char	*dfl;
	const char	*help;
};

/* Defaults that depend on the machine a run is on. */
#define BENCH_DFL_CPUS	"$cpus"	/* the number of CPUs */
/* the first and second CPU idlelab may run on (offline CPUs, and those
 * outside its affinity, are not); the second is the first on one CPU */
#define BENCH_DFL_CPU0	"$cpu0"
#define BENCH_DFL_CPU1	"$cpu1"

/* A benchmark, defined as bench_def_NAME in bench/bench-NAME.c. */
struct bench_def {
	const char	*name;
	const char	*summary;
	const char	*binary;	/* external tool, NULL for built-ins */
	const char	*package;	/* Debian package providing it */
	const struct bench_opt *opts;	/* ends with { NULL } */
	int (*run)(const struct bench_args *a, struct bench_result *r,
		   struct idl_err *err);
};

const struct bench_def *bench_find_def(const char *name);
const struct bench_def *const *bench_list(void);	/* NULL-terminated */
/* 1 if the benchmark can run here (built-in, or its binary on PATH). */
bool bench_available(const struct bench_def *d);
/* Run @d with @a (its options read through @d). */
int bench_run(const struct bench_def *d, const struct bench_args *a,
	      struct bench_result *r, struct idl_err *err);

/*
 * Options of a run, read through its benchmark's definition: the value
 * in the spec "name:key=val:key=val", else the definition's default.
 * bench_opt_num() returns NAN and sets @err on a value that is not a
 * non-negative number; both set @err for a key the definition lacks.
 */
double bench_opt_num(const struct bench_args *a, const char *key,
		     struct idl_err *err);
int bench_opt_str(const struct bench_args *a, const char *key, char *buf,
		  size_t len, struct idl_err *err);
/* Refuse keys the benchmark does not declare, naming the ones it does. */
int bench_spec_check(const struct bench_def *d, const char *opts,
		     struct idl_err *err);
/* An option's default in words, for listings ("4", "number of CPUs"). */
const char *bench_opt_default_text(const struct bench_opt *o);

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

/* ------------------------------------------------ parsers of tool output
 * Each in its benchmark's file: plain functions of the captured text,
 * tested on recorded outputs (tests/fixtures/bench/).
 */
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

/* ------------- helpers shared by benchmarks (bench/workloads/common.c) */

/* Built-ins: the end of the run, and rtt-p50/p90/p99-style metrics (us). */
uint64_t bench_deadline_ns(const struct bench_args *a);
void bench_ns_to_ts(uint64_t ns, struct timespec *ts);
/* Sleep (pause) or busy-wait (spin) @ns, but never past @deadline nor
 * on after a stop: a long option value cannot outlast the run. */
void bench_pause(uint64_t ns, uint64_t deadline);
void bench_spin(uint64_t ns, uint64_t deadline);
void bench_add_percentiles(struct bench_result *r, const char *prefix,
			   const char *case_name, const struct hist *h);

/* Parsers: the number right after @key in @s (NULL-safe), 0 or -1. */
int bench_num_after(const char *s, const char *key, double *v);
/* The error of output that lacks @what. */
int bench_missing(struct idl_err *err, const char *tool, const char *what);
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

/* Tools: the run's duration in whole seconds, at least 1. */
double bench_whole_s(const struct bench_args *a);
/* Format one number into an argv slot (a macro: literal formats). */
#define bench_fmt(buf, len, f, v)	snprintf(buf, len, f, (double)(v))

/*
 * Run a tool once (a non-zero exit is an error quoting its output) and
 * hand its output to @parse.  bench_tool_served() first starts @srv and
 * waits until it listens on 127.0.0.1:@port, and stops it afterwards.
 * bench_tool_repeat() is for tools with a fixed amount of work: it runs
 * them until the duration is used and reports the mean of each metric.
 */
int bench_tool_once(const struct bench_args *a, char *const argv[],
		    int (*parse)(const char *, struct bench_result *,
				 struct idl_err *),
		    struct bench_result *r, struct idl_err *err);
int bench_tool_served(const struct bench_args *a, char *const srv[],
		      const char *srv_name, int port, char *const argv[],
		      int (*parse)(const char *, struct bench_result *,
				   struct idl_err *),
		      struct bench_result *r, struct idl_err *err);
int bench_tool_repeat(const struct bench_args *a, char *const argv[],
		      int (*parse)(const char *, struct bench_result *,
				   struct idl_err *),
		      struct bench_result *r, struct idl_err *err);
/* Run a tool once, capturing its output: 0, or -1 with @err set. */
int bench_tool_output(const struct bench_args *a, char *const argv[],
		      char **out, struct idl_err *err);

#endif /* IDLELAB_BENCH_H */
