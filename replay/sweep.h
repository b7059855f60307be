/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parameter sweeps: every governor configuration x every trace x every
 * table, each (configuration, trace, table) cell replayed once, in an
 * order and a division into shards that depend only on the set of cells
 * (doc/sweep.md).
 */
#ifndef IDLELAB_REPLAY_SWEEP_H
#define IDLELAB_REPLAY_SWEEP_H

#include <stdbool.h>
#include <stdio.h>

#include <idlelab/governor.h>

#include "error.h"

#define SWEEP_DEFAULT_MAX_CELLS	10000	/* more need --force */
#define SWEEP_HARD_MAX_CELLS	10000000	/* even with --force */
#define SWEEP_MAX_CONFIGS	100000	/* per -g, before the cell limit */
#define SWEEP_OWN_TABLE		"own"	/* the trace's own table */

struct sweep_config {
	struct idl_governor	gov;	/* gov.spec: the canonical spec */
	bool			has_params;
};

struct sweep_cell {
	unsigned int	conf, trace, table;
};

struct sweep {
	/* what was asked, as given (recorded in the results) */
	char			**specs;
	int			nspec;
	/* the grid, each list in its canonical order */
	struct sweep_config	*conf;
	unsigned int		nconf, conf_cap;
	/* configurations by spec: index + 1, 0 free (duplicates found in
	 * constant time: a grid has up to SWEEP_MAX_CONFIGS of them) */
	unsigned int		*conf_hash;
	size_t			conf_hash_size;
	char			**traces;
	unsigned int		ntrace;
	char			**tables;	/* SWEEP_OWN_TABLE first */
	unsigned int		ntable;
	/* cells in canonical order: trace, table, configuration */
	struct sweep_cell	*cell;
	size_t			ncell;
	char			id[17];		/* of the set of cells */
};

struct sweep_run_opts {
	unsigned int	shard, nshard;	/* 1-based; 0/0: everything */
	int		jobs;
	bool		progress;
	unsigned int	plugin_timeout;
};

/* Expand one -g SPEC (lists a|b|c, ranges LO..HI/STEP) into @s. */
int sweep_add_spec(struct sweep *s, const char *spec, struct idl_err *err);
/* Fix the grid: traces, tables (@machines besides the own), cells, id. */
int sweep_plan(struct sweep *s, char **traces, int ntrace, char **machines,
	       int nmachine, size_t max_cells, struct idl_err *err);
/* Is cell @i (canonical index) in shard @shard of @nshard? */
static inline bool sweep_in_shard(size_t i, unsigned int shard,
				  unsigned int nshard)
{
	return !nshard || i % nshard == shard - 1;
}
size_t sweep_shard_cells(const struct sweep *s, unsigned int shard,
			 unsigned int nshard);
/*
 * Replay the cells of the shard and write the results (doc/sweep.md) to
 * @f; 1 when some cell has no numbers (a plugin failed), 0, or -1 with
 * @err.
 */
int sweep_run(const struct sweep *s, const struct sweep_run_opts *o,
	      FILE *f, struct idl_err *err);
void sweep_free(struct sweep *s);

/* sweep-merge.c: join shard files into the unsharded results */
int sweep_merge(char **paths, int npaths, FILE *out, struct idl_err *err);

#endif /* IDLELAB_REPLAY_SWEEP_H */
