// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The summary: one figure per (benchmark, metric) and column, over the
 * benchmark's cases.  doc/compare.md states the rule; in short, a ratio
 * is only taken where every value of the line is clearly positive, and a
 * line with a zero or near-zero value (a governor with no misses, an
 * oracle) is summed up as a difference in the metric's own unit, so that
 * no column drops out of its own line and no ratio blows up.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

/* A value below this share of its row's largest is "near zero". */
#define NEAR_ZERO_SHARE	0.01

static double cell_mean(const struct cmp_table *t, int r, int c)
{
	const struct res_series *v = cmp_cell(t, r, c);

	return v && v->n ? stat_amean(v->v, v->n) : NAN;
}

/* Can every value of row @r be divided by, and be set against, the others? */
static bool row_ratio_safe(const struct cmp_table *t, int r)
{
	double m, max = 0;
	int c;

	for (c = 0; c < t->ncols; c++) {
		m = cell_mean(t, r, c);
		if (isfinite(m) && fabs(m) > max)
			max = fabs(m);
	}
	for (c = 0; c < t->ncols; c++) {
		m = cell_mean(t, r, c);
		if (isfinite(m) && !(m > 0 && m >= NEAR_ZERO_SHARE * max))
			return false;
	}
	return max > 0;
}

/* A percentage: its changes are points, a ratio of it means nothing. */
static bool row_is_pct(const struct cmp_row *row)
{
	size_t n = strlen(row->metric);

	return !strcmp(row->unit, "%") ||
	       (n > 4 && !strcmp(row->metric + n - 4, "_pct"));
}

const char *cmp_diff_unit(const struct cmp_row *row)
{
	return row_is_pct(row) ? "pts" : row->unit;
}

void cmp_mark_diff(struct cmp_table *t)
{
	bool diff;
	int r0, r;

	for (r0 = 0; r0 < t->nrows; r0++) {
		if (!t->row[r0].first_of_metric)
			continue;
		diff = false;
		for (r = r0; r >= 0; r = t->row[r].next_of_metric)
			diff |= row_is_pct(&t->row[r]) || !row_ratio_safe(t, r);
		for (r = r0; r >= 0; r = t->row[r].next_of_metric)
			t->row[r].by_diff = diff;
	}
}

void cmp_metric_summary(const struct cmp_table *t, int r0,
			struct cmp_summary *s)
{
	bool hib = t->row[r0].higher_is_better;
	double sum[CMP_MAX_COLUMNS] = { 0 };
	int r, c;

	memset(s, 0, sizeof(*s));
	s->kind = t->row[r0].by_diff ? CMP_SUM_DIFF : CMP_SUM_RATIO;
	for (r = r0; r >= 0; r = t->row[r].next_of_metric) {
		double base = cell_mean(t, r, 0);

		if (!isfinite(base))
			continue;
		for (c = 0; c < t->ncols; c++) {
			double m = cell_mean(t, r, c), d;

			if (!isfinite(m))
				continue;
			if (s->kind == CMP_SUM_RATIO)
				d = log(hib ? m / base : base / m);
			else
				d = hib ? m - base : base - m;
			sum[c] += d;
			s->n[c]++;
		}
	}
	for (c = 0; c < t->ncols; c++) {
		double mean = s->n[c] ? sum[c] / s->n[c] : NAN;

		s->value[c] = s->kind == CMP_SUM_RATIO ? exp(mean) : mean;
	}
}

void cmp_summary_text(char *buf, size_t len, const struct cmp_summary *s,
		      int c, const char *unit)
{
	double v = s->value[c];

	if (isnan(v)) {
		snprintf(buf, len, "n/a");
	} else if (s->kind == CMP_SUM_RATIO) {
		long pct = lround((v - 1) * 100);

		if (pct == 0)
			snprintf(buf, len, "no change");
		else
			snprintf(buf, len, "%ld%% %s", labs(pct),
				 pct > 0 ? "better" : "worse");
	} else if (fabs(v) < 0.005) {
		snprintf(buf, len, "no change");
	} else {
		/* a difference of percentages is in points */
		if (!strcmp(unit, "%"))
			unit = "pts";
		snprintf(buf, len, "%.2f%s%s %s", fabs(v), *unit ? " " : "",
			 unit, v > 0 ? "better" : "worse");
	}
}

int cmp_summary_sign(const struct cmp_summary *s, int c)
{
	double v = s->value[c];

	if (isnan(v))
		return 0;
	if (s->kind == CMP_SUM_RATIO)
		v = (double)lround((v - 1) * 100);
	else if (fabs(v) < 0.005)
		v = 0;
	return (v > 0) - (v < 0);
}

/* ---------------------------------------------------------------- text */

struct sum_line {
	int			row;
	struct cmp_summary	s;
};

/* The lines in row order (one per benchmark and metric); @n is set. */
static struct sum_line *summary_lines(const struct cmp_table *t, int *n)
{
	struct sum_line *l = calloc((size_t)t->nrows + 1, sizeof(*l));
	int r;

	*n = 0;
	for (r = 0; l && r < t->nrows; r++) {
		if (!t->row[r].first_of_metric)
			continue;
		l[*n].row = r;
		cmp_metric_summary(t, r, &l[*n].s);
		(*n)++;
	}
	return l;
}

void cmp_print_summary(FILE *f, const struct cmp_table *t)
{
	int n, i, c, bw = 9, mw = 6, cw[CMP_MAX_COLUMNS], line;
	struct sum_line *l = summary_lines(t, &n);
	char cell[96];

	if (!l)
		return;
	for (c = 0; c < t->ncols; c++)
		cw[c] = (int)strlen(t->col[c].title);
	for (i = 0; i < n; i++) {
		const struct cmp_row *row = &t->row[l[i].row];

		if ((int)strlen(row->name) > bw)
			bw = (int)strlen(row->name);
		if ((int)strlen(row->metric) > mw)
			mw = (int)strlen(row->metric);
		for (c = 0; c < t->ncols; c++) {
			cmp_summary_text(cell, sizeof(cell), &l[i].s, c,
					 cmp_diff_unit(row));
			if ((int)strlen(cell) > cw[c])
				cw[c] = (int)strlen(cell);
		}
	}
	fprintf(f, "  %-*s  %-*s", bw, "benchmark", mw, "metric");
	line = bw + 2 + mw;
	for (c = 0; c < t->ncols; c++) {
		fprintf(f, "  %-*s", c == t->ncols - 1 ? 0 : cw[c],
			t->col[c].title);
		line += 2 + cw[c];
	}
	fprintf(f, "\n  ");
	for (c = 0; c < line; c++)
		fputc('-', f);
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		const struct cmp_row *row = &t->row[l[i].row];

		fprintf(f, "  %-*s  %-*s", bw, row->name, mw, row->metric);
		for (c = 0; c < t->ncols; c++) {
			cmp_summary_text(cell, sizeof(cell), &l[i].s, c,
					 cmp_diff_unit(row));
			fprintf(f, "  %-*s", c == t->ncols - 1 ? 0 : cw[c],
				cell);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	free(l);
}
