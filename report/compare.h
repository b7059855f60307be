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
	bool		only_some;	/* res_bench.only_some in any input */
	/* its metric is compared by difference, not ratio: a percentage,
	 * or a value not clearly positive in some case (cmp_mark_diff()) */
	bool		by_diff;
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
/*
 * The summary of one (benchmark, metric) over its cases (doc/compare.md):
 * per column, the geometric mean of the ratios to the baseline (better
 * when > 1), or where any value of the line is zero, negative or near
 * zero, the mean difference to the baseline in the metric's unit (better
 * when > 0).  @r0 is the metric's first row; NAN where a column has none.
 */
enum cmp_sum_kind { CMP_SUM_RATIO, CMP_SUM_DIFF };

struct cmp_summary {
	enum cmp_sum_kind	kind;
	double			value[CMP_MAX_COLUMNS];
	int			n[CMP_MAX_COLUMNS];	/* cases used */
};

void cmp_metric_summary(const struct cmp_table *t, int r0,
			struct cmp_summary *s);
/* Set row.by_diff for every metric of a built table. */
void cmp_mark_diff(struct cmp_table *t);
/* The unit of a difference of @row's metric: "pts" for a percentage. */
const char *cmp_diff_unit(const struct cmp_row *row);
/* "12% better", "0.35 % worse", "no change" or "n/a" */
void cmp_summary_text(char *buf, size_t len, const struct cmp_summary *s,
		      int c, const char *unit);
/* 1 better, -1 worse, 0 no change or n/a (as the text rounds) */
int cmp_summary_sign(const struct cmp_summary *s, int c);

#endif /* IDLELAB_COMPARE_H */
