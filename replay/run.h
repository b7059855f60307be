/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running a replay over whole traces: one work unit per (trace, CPU),
 * spread over -j threads, per-CPU results merged in a fixed order so
 * that the result does not depend on the number of threads.
 */
#ifndef IDLELAB_REPLAY_RUN_H
#define IDLELAB_REPLAY_RUN_H

#include "replay.h"

#define REPLAY_MAX_DISABLE	CSTATE_MAX

struct replay_opts {
	const char	*machine;	/* --machine */
	const char	*states_file;	/* --states */
	const char	*disable[REPLAY_MAX_DISABLE];
	int		ndisable;
	s64		latency_req;	/* -1: the trace's */
	unsigned int	hz;		/* 0: the trace's */
	s64		merge_gap_ns;
	int		ngov;
	struct idl_governor gov[REPLAY_MAX_GOV];
	bool		gov_has_params[REPLAY_MAX_GOV];	/* NAME:... given */
	int		jobs;
	bool		progress;
	/* --explain CPU[:FROM-TO] */
	int		explain_cpu;	/* -1: off */
	bool		explain_by_time;
	u64		explain_from, explain_to;
	/* seconds a plugin column may go without progress (0: 10) */
	unsigned int	plugin_timeout;
	/* --disagreements N: report the first N per trace */
	u64		disagreements;
	/* --synthetic N[:CPUS]: generated periods instead of traces */
	u64		synth_periods;
	unsigned int	synth_cpus;
};

struct replay_cpu_result {
	unsigned int		cpu;
	struct replay_workload	wl;
	struct replay_score	sc[REPLAY_MAX_GOV];
};

struct replay_trace {
	char			path[512];
	char			shown[512];	/* path, control bytes as '?' */
	struct trace_meta	meta;
	char			damage[512];
	unsigned int		damage_cpu;	/* whose reader saw it */
	struct replay_setup	setup;
	struct replay_energy	energy;
	unsigned int		ncpu;		/* units */
	struct replay_cpu_result *cpus;		/* ncpu entries */
	FILE			**explain;	/* per unit, or NULL */
	FILE			**disagree;	/* per unit, or NULL */
	/* a column with no numbers, and why (run.failed) */
	const char		*failed[REPLAY_MAX_GOV];
	/* merged in CPU order */
	struct replay_workload	wl;
	struct replay_score	total[REPLAY_MAX_GOV];
};

struct replay_run {
	int			ntrace;
	struct replay_trace	*tr;
	/* a plugin column that failed (crashed, stopped making progress):
	 * why; its numbers are empty */
	char			*failed[REPLAY_MAX_GOV];
	/* set in a plugin's process: periods done, seen by the parent */
	u64			*progress;
};

/* Default input: traces/data/default.idl in the source dir, then
 * $(pkgdatadir); NULL if neither exists. */
const char *replay_default_trace(void);

int replay_run(struct replay_run *run, const struct replay_opts *o,
	       char **paths, int npaths, struct idl_err *err);
/* Its first step: each trace opened and set up, nothing run yet. */
int replay_prepare(struct replay_run *run, const struct replay_opts *o,
		   char **paths, int npaths, struct idl_err *err);
/*
 * bare.c: --bare RUNS, the governors' own cost: each governor's idle
 * loop alone over each CPU's periods decoded into memory, timed RUNS
 * times (the fastest counts), printed to @out.
 */
int replay_bare(const struct replay_run *run, unsigned int runs, FILE *out,
		struct idl_err *err);
/* Run every (trace, CPU) unit of the prepared @run (run.c). */
int replay_run_units(struct replay_run *run, const struct replay_opts *o,
		     struct idl_err *err);

/*
 * plugin-columns.c: plugin columns run in their own processes, so that a
 * plugin that crashes, loops or corrupts memory cannot take the replay
 * or the other columns down.  start() forks one process per plugin
 * column (before any thread exists); finish() collects their numbers
 * into @run, or records in run->failed why a column has none.
 */
struct replay_contained;
int replay_contain_start(struct replay_run *run, const struct replay_opts *o,
			 struct replay_contained **c, struct idl_err *err);
int replay_contain_finish(struct replay_run *run, struct replay_contained *c,
			  unsigned int timeout_s, struct idl_err *err);
void replay_run_free(struct replay_run *run);

/* output.c */
enum replay_format { REPLAY_TEXT, REPLAY_CSV, REPLAY_JSON };
struct json_t;
/* One column's numbers, as under "governors" in the replay JSON */
struct json_t *replay_json_column(const struct replay_trace *tr, int gi);
int replay_write(FILE *f, const struct replay_run *run,
		 enum replay_format fmt, bool per_cpu);

#endif /* IDLELAB_REPLAY_RUN_H */
