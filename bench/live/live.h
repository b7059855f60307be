/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run loop of `idlelab live`: the interleaved plan of governors and
 * benchmarks, one measured run at a time, and the results directory
 * (doc/live.md).  Safety (journal, lock, signals) is the caller's.
 */
#ifndef IDLELAB_LIVE_H
#define IDLELAB_LIVE_H

#include <stdbool.h>

#include "bench.h"
#include "idlectl.h"

#define LIVE_MAX_BENCH	16

struct live_bench {
	const struct bench_def	*def;
	char			opts[256];	/* after the ':' of the spec */
	char			spec[320];	/* as given */
};

struct live_opts {
	const char		*root;		/* sysfs root */
	char			govs[IDLECTL_MAX_GOVS][IDLECTL_GOV_LEN];
	int			nr_govs;
	struct live_bench	bench[LIVE_MAX_BENCH];
	int			nr_bench;
	int			runs;
	double			warmup_s, duration_s;
	bool			shuffle;
	unsigned int		seed;
	bool			record;
	bool			probe_inputs;	/* of the recordings */
	long			latency_limit_us;	/* -1: not set */
	const char		*outdir;
	bool			overwrite;	/* an earlier session's results */
	const char		*initial_governor;
	bool			quiet;
};

/*
 * Does @dir hold an earlier session's results (results.json, runs/NNN-*)?
 * Then -1 with @err set (exit 2), unless @overwrite: then they are
 * removed.  Nothing else in @dir is touched.
 */
int live_outdir_prepare(const char *dir, bool overwrite, bool check_only,
			struct idl_err *err);

/*
 * The order of the governors in repetition @rep: round robin, shuffled
 * per repetition with @seed when @shuffle (deterministic for a seed).
 */
void live_plan_order(int nr_govs, int rep, bool shuffle, unsigned int seed,
		     int *order);

/*
 * Run the whole plan.  Returns 0, 1 if stopped by a signal (results so
 * far are written), or -1 with @err set.  The governor is left at the
 * last one used: the caller restores it from the journal.
 */
int live_run(const struct live_opts *o, struct idl_err *err);

/* Write a JSON document to @path atomically (temp + rename). */
struct json_t;
int live_write_json(const char *path, struct json_t *doc,
		    struct idl_err *err);

#endif /* IDLELAB_LIVE_H */
