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

struct res_set {
	char	path[512];
	char	kind[16];		/* live / replay */
	char	label[RES_NAME_LEN];	/* file or directory base name */
	int	nconfigs;
	char	configs[RES_MAX_CONFIGS][RES_NAME_LEN];
	struct res_idle idle[RES_MAX_CONFIGS];
	int	nbench;
	struct res_bench *bench;
};

/* Load a results file, or DIR/results.json for a live results directory. */
int results_load(const char *path, struct res_set *rs, struct idl_err *err);
void results_free(struct res_set *rs);
/* Load @n inputs; on error none stays loaded. */
int results_load_all(char *const *paths, int n, struct res_set *sets,
		     struct idl_err *err);

/* The values of @config in @b, or NULL when that config has no runs. */
const struct res_series *results_series(const struct res_bench *b,
					int config);

#endif /* IDLELAB_RESULTS_H */
