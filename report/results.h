/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Results files (doc/results-format.md) as compare and report see them:
 * a set of configurations (columns) and benchmarks, each with the runs'
 * values per configuration, plus what the idle governor did.
 */
#ifndef IDLELAB_RESULTS_H
#define IDLELAB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

#define RES_MAX_CONFIGS		32
#define RES_MAX_STATES		10
#define RES_NAME_LEN		64

struct res_series {
	int	config;		/* index into res_set.configs */
	size_t	n;
	double	*v;
};

struct res_bench {
	char	name[RES_NAME_LEN];
	char	kase[RES_NAME_LEN];	/* "case": sub-result, may be "" */
	char	metric[RES_NAME_LEN];
	char	unit[32];
	bool	higher_is_better;
	/* only some configurations can have it (agreement with the
	 * kernel: the live governor's column): the others are no gap */
	bool	only_some;
	int	nseries;
	struct res_series series[RES_MAX_CONFIGS];
};

struct res_idle {
	bool	present;
	double	above_pct, below_pct;
	int	nstates;
	char	state[RES_MAX_STATES][32];
	double	residency_pct[RES_MAX_STATES];
	bool	has_energy, energy_modelled;
	double	energy;
	char	energy_unit[16];
};

/*
 * Replay detail (the "replay" section of a replay results file), summed
 * over the traces that share the first trace's C-state table: the
 * workload's idle durations binned by state and each config's choices
 * against the oracle, by state and by wake cause.
 */
#define RES_MAX_CAUSES		10

struct res_vs_oracle {
	double	same, deep, shallow;
};

struct res_replay {
	int	nstates;
	char	state[RES_MAX_STATES][32];
	long long target_residency_ns[RES_MAX_STATES];
	double	idle_hist[RES_MAX_STATES];	/* periods per state bin */
	int	ncauses;
	char	cause[RES_MAX_CAUSES][16];
	struct res_vs_oracle by_state[RES_MAX_CONFIGS][RES_MAX_STATES];
	struct res_vs_oracle by_cause[RES_MAX_CONFIGS][RES_MAX_CAUSES];
};

struct res_set {
	char	path[512];
	char	kind[16];		/* live / replay */
	char	label[RES_NAME_LEN];	/* file or directory base name */
	int	nconfigs;
	char	configs[RES_MAX_CONFIGS][RES_NAME_LEN];
	struct res_idle idle[RES_MAX_CONFIGS];
	char	idle_scope[160];	/* what "idle" covers, if it says */
	int	nbench;
	struct res_bench *bench;
	struct res_replay *replay;	/* NULL unless a replay file has one */
};

/* Load a results file, or DIR/results.json for a live results directory. */
int results_load(const char *path, struct res_set *rs, struct idl_err *err);
void results_free(struct res_set *rs);
/* Load @n inputs; on error none stays loaded. */
int results_load_all(char *const *paths, int n, struct res_set *sets,
		     struct idl_err *err);

struct json_t;
/* Fill rs->replay from a results file's "replay" object (results-replay.c). */
int results_load_replay(struct res_set *rs, struct json_t *replay,
			struct idl_err *err);

/* The values of @config in @b, or NULL when that config has no runs. */
const struct res_series *results_series(const struct res_bench *b,
					int config);

#endif /* IDLELAB_RESULTS_H */
