/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Comparison tables in the shapes kernel developers read: mmtests'
 * compare-kernels rows, the "Normalized [pct imp](CV)" tables, and a
 * one-line-per-benchmark summary (geometric mean of the ratios).
 */
#ifndef IDLELAB_COMPARE_H
#define IDLELAB_COMPARE_H

#include <stdio.h>

#include "results.h"
#include "stats.h"

#define CMP_MAX_COLUMNS	32

/* One column: a configuration of one results set. */
struct cmp_column {
	const struct res_set	*rs;
	int			config;
	char			title[RES_NAME_LEN * 2];
};

/*
 * A row key: one (benchmark, case, metric) found in any input.  The rows
 * of one benchmark, and of one benchmark and metric, are chained in
 * order (-1 ends a chain), so that printing stays linear in the rows.
 */
struct cmp_row {
	const char	*name, *kase, *metric, *unit;
	bool		higher_is_better;
	bool		first_of_name, first_of_metric;
	int		next_of_name, next_of_metric;
};

struct cmp_table {
	int			ncols;
	struct cmp_column	col[CMP_MAX_COLUMNS];
	int			nrows;
	struct cmp_row		*row;
	enum stat_sig_rule	rule;
	/* cell[r * ncols + c]: the values of row r in column c, or NULL */
	const struct res_series	**cell;
	/* hash of benchmark names: index of the first row of each + 1 */
	int			*by_name;
	size_t			by_name_mask;
};

/*
 * Build the columns (every config of every set, the first one being the
 * baseline) and the union of benchmark rows.  Returns -1 on error.
 */
int cmp_table_build(struct cmp_table *t, const struct res_set *sets,
		    int nsets, enum stat_sig_rule rule, struct idl_err *err);
void cmp_table_free(struct cmp_table *t);

/* Values of row @r in column @c, or NULL (missing: reported, not fatal). */
const struct res_series *cmp_cell(const struct cmp_table *t, int r, int c);

void cmp_print_mmtests(FILE *f, const struct cmp_table *t);
void cmp_print_normalized(FILE *f, const struct cmp_table *t);
void cmp_print_summary(FILE *f, const struct cmp_table *t);
void cmp_print_idle(FILE *f, const struct cmp_table *t);
void cmp_print_csv(FILE *f, const struct cmp_table *t);
void cmp_print_json(FILE *f, const struct cmp_table *t);

/* The first row of benchmark @name, or -1. */
int cmp_first_row(const struct cmp_table *t, const char *name);

/* Geometric mean over a benchmark's rows of the per-row ratio
 * (column mean vs baseline mean, >1 = better); NAN if nothing to compare. */
double cmp_benchmark_ratio(const struct cmp_table *t, const char *name, int c);

#endif /* IDLELAB_COMPARE_H */
