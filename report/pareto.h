/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pareto fronts of a sweep's configurations (doc/sweep.md): which
 * configurations no other one beats on energy, exit latency and misses
 * together, over the whole sweep and per (trace, table) group, and
 * where each governor's defaults stand.
 */
#ifndef IDLELAB_PARETO_H
#define IDLELAB_PARETO_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

#define PARETO_NOBJ	3

enum pareto_latency { PARETO_LAT_MEAN, PARETO_LAT_P99 };

struct pareto_point {
	const char	*config;	/* borrowed from the results */
	bool		defaults;	/* the governor's default tunables */
	bool		valid;		/* numbers in every cell */
	double		obj[PARETO_NOBJ];	/* lower is better */
	bool		front;
	int		dominated_by;	/* a front point, or -1 */
};

struct pareto_group {
	const char	*trace, *table, *energy_unit;
	struct pareto_point *p;		/* one per configuration */
};

struct pareto {
	void			*root;		/* the results (json_t) */
	const char		*id;
	enum pareto_latency	latency;
	int			nconf, ngroup;
	struct pareto_point	*all;		/* the whole sweep */
	struct pareto_group	*group;
};

/* Is @path the results of idlelab sweep (or merge)? */
bool pareto_is_sweep(const char *path);
int pareto_load(struct pareto *pa, const char *path,
		enum pareto_latency latency, struct idl_err *err);
void pareto_print(FILE *f, const struct pareto *pa);
void pareto_print_csv(FILE *f, const struct pareto *pa);
/* Indices of @p (its front only if @front_only), by energy; the count. */
int pareto_order(const struct pareto_point *p, int n, bool front_only,
		 int *idx);
/* Objective names and units, for tables and plots. */
const char *pareto_obj_name(const struct pareto *pa, int k, bool overall);
void pareto_free(struct pareto *pa);

#endif /* IDLELAB_PARETO_H */
