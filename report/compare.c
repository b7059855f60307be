// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Comparison tables.  Every number printed here is defined in
 * doc/compare.md, which also says which published report shape each
 * style follows (mmtests' compare-kernels, LKML benchmark reports).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

static bool same_key(const struct res_bench *b, const struct cmp_row *r)
{
	return !strcmp(b->name, r->name) && !strcmp(b->kase, r->kase) &&
	       !strcmp(b->metric, r->metric);
}

static int add_rows(struct cmp_table *t, const struct res_set *rs,
		    struct idl_err *err)
{
	int i, r;

	for (i = 0; i < rs->nbench; i++) {
		const struct res_bench *b = &rs->bench[i];
		struct cmp_row *nr;

		for (r = 0; r < t->nrows; r++)
			if (same_key(b, &t->row[r]))
				break;
		if (r < t->nrows)
			continue;
		nr = realloc(t->row, (t->nrows + 1) * sizeof(*t->row));
		if (!nr)
			return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
		t->row = nr;
		t->row[t->nrows++] = (struct cmp_row){
			b->name, b->kase, b->metric, b->unit, b->higher_is_better
		};
	}
	return 0;
}

int cmp_table_build(struct cmp_table *t, const struct res_set *sets,
		    int nsets, enum stat_sig_rule rule, struct idl_err *err)
{
	int s, c;

	memset(t, 0, sizeof(*t));
	t->rule = rule;
	for (s = 0; s < nsets; s++) {
		for (c = 0; c < sets[s].nconfigs; c++) {
			struct cmp_column *col;

			if (t->ncols >= CMP_MAX_COLUMNS)
				return idl_err_set(err, IDL_EXIT_BADINPUT,
						   "more than %d columns to compare",
						   CMP_MAX_COLUMNS);
			col = &t->col[t->ncols++];
			col->rs = &sets[s];
			col->config = c;
			/* several inputs: say which one each column is from */
			if (nsets > 1 && sets[s].nconfigs > 1)
				snprintf(col->title, sizeof(col->title), "%s/%s",
					 sets[s].label, sets[s].configs[c]);
			else if (nsets > 1)
				snprintf(col->title, sizeof(col->title), "%s",
					 sets[s].label);
			else
				snprintf(col->title, sizeof(col->title), "%s",
					 sets[s].configs[c]);
		}
		if (add_rows(t, &sets[s], err))
			return -1;
	}
	return 0;
}

void cmp_table_free(struct cmp_table *t)
{
	free(t->row);
	t->row = NULL;
}

const struct res_series *cmp_cell(const struct cmp_table *t, int r, int c)
{
	const struct cmp_column *col = &t->col[c];
	int i;

	for (i = 0; i < col->rs->nbench; i++)
		if (same_key(&col->rs->bench[i], &t->row[r]))
			return results_series(&col->rs->bench[i], col->config);
	return NULL;
}

/* ------------------------------------------------------------ statistics */

enum cmp_stat { ST_MIN, ST_MEAN, ST_STDDEV, ST_COEFFVAR, ST_MAX, ST_COUNT };

static const char *stat_label(enum cmp_stat s, bool hib)
{
	static const char *const names[] = {
		"Min", NULL, "Stddev", "CoeffVar", "Max"
	};

	if (s == ST_MEAN)
		return hib ? "Hmean" : "Amean";
	return names[s];
}

static double stat_value(enum cmp_stat s, const struct res_series *v, bool hib)
{
	switch (s) {
	case ST_MIN:
		return stat_min(v->v, v->n);
	case ST_MEAN:
		return stat_mean_for(v->v, v->n, hib);
	case ST_STDDEV:
		return stat_stddev(v->v, v->n);
	case ST_COEFFVAR:
		return stat_coeffvar(v->v, v->n);
	default:
		return stat_max(v->v, v->n);
	}
}

/* Spread statistics are better when lower, whatever the metric. */
static bool stat_hib(enum cmp_stat s, bool hib)
{
	return (s == ST_STDDEV || s == ST_COEFFVAR) ? false : hib;
}

static void row_label(char *buf, size_t len, const struct cmp_row *r)
{
	if (r->kase[0])
		snprintf(buf, len, "%s-%s", r->metric, r->kase);
	else
		snprintf(buf, len, "%s", r->metric);
}

static bool cell_significant(const struct cmp_table *t, int r, int c)
{
	const struct res_series *b = cmp_cell(t, r, 0), *v = cmp_cell(t, r, c);
	struct stat_sig sig;

	if (!b || !v || c == 0)
		return false;
	stat_significance(b->v, b->n, v->v, v->n, t->rule, &sig);
	return sig.significant;
}

/* ------------------------------------------------------- mmtests style */

static int label_width(const struct cmp_table *t, const char *name)
{
	char buf[2 * RES_NAME_LEN + 2];
	int r, w = 8;

	for (r = 0; r < t->nrows; r++) {
		if (strcmp(t->row[r].name, name))
			continue;
		row_label(buf, sizeof(buf), &t->row[r]);
		if ((int)strlen(buf) > w)
			w = (int)strlen(buf);
	}
	return w;
}

static int value_width(const struct cmp_table *t, const char *name)
{
	int r, c, s, w = 10;
	char buf[64];

	for (r = 0; r < t->nrows; r++) {
		if (strcmp(t->row[r].name, name))
			continue;
		for (c = 0; c < t->ncols; c++) {
			const struct res_series *v = cmp_cell(t, r, c);

			for (s = 0; v && s < ST_COUNT; s++) {
				int n = snprintf(buf, sizeof(buf), "%.2f",
					stat_value(s, v, t->row[r].higher_is_better));
				if (n > w)
					w = n;
			}
		}
	}
	for (c = 0; c < t->ncols; c++)
		if ((int)strlen(t->col[c].title) - 11 > w)
			w = (int)strlen(t->col[c].title) - 11;
	return w;
}

static void print_mmtests_cell(FILE *f, const struct cmp_table *t, int r,
			       int c, enum cmp_stat s, int w)
{
	const struct cmp_row *row = &t->row[r];
	const struct res_series *b = cmp_cell(t, r, 0), *v = cmp_cell(t, r, c);
	double val, base, pct;
	bool sig;

	if (!v) {
		fprintf(f, "  %*s %10s", w, "n/a", "");
		return;
	}
	val = stat_value(s, v, row->higher_is_better);
	base = b ? stat_value(s, b, row->higher_is_better) : NAN;
	pct = stat_pct_better(base, val, stat_hib(s, row->higher_is_better));
	sig = s == ST_MEAN && cell_significant(t, r, c);
	if (isnan(pct))
		fprintf(f, "  %*.2f (%7s%%)", w, val, "n/a");
	else if (sig)
		fprintf(f, "  %*.2f *%7.2f%%*", w, val, pct);
	else
		fprintf(f, "  %*.2f (%7.2f%%)", w, val, pct);
}

static void print_mmtests_bench(FILE *f, const struct cmp_table *t,
				const char *name)
{
	int lw = label_width(t, name), vw = value_width(t, name);
	char buf[2 * RES_NAME_LEN + 2];
	int r, c, s, line;

	fprintf(f, "%s\n\n", name);
	fprintf(f, "%-*s", 10 + lw, "");
	for (c = 0; c < t->ncols; c++)
		fprintf(f, "  %*s", vw + 11, t->col[c].title);
	fputc('\n', f);
	line = 10 + lw + t->ncols * (vw + 13);
	for (c = 0; c < line; c++)
		fputc('-', f);
	fputc('\n', f);
	for (s = 0; s < ST_COUNT; s++) {
		for (r = 0; r < t->nrows; r++) {
			const struct cmp_row *row = &t->row[r];

			if (strcmp(row->name, name))
				continue;
			row_label(buf, sizeof(buf), row);
			fprintf(f, "%-10s%-*s", stat_label(s, row->higher_is_better),
				lw, buf);
			for (c = 0; c < t->ncols; c++)
				print_mmtests_cell(f, t, r, c, s, vw);
			fputc('\n', f);
		}
	}
	fputc('\n', f);
}

/* Benchmarks in order of first appearance; calls @fn once per name. */
static void for_each_benchmark(FILE *f, const struct cmp_table *t,
			       void (*fn)(FILE *, const struct cmp_table *,
					  const char *))
{
	int r, q;

	for (r = 0; r < t->nrows; r++) {
		for (q = 0; q < r; q++)
			if (!strcmp(t->row[q].name, t->row[r].name))
				break;
		if (q == r)
			fn(f, t, t->row[r].name);
	}
}

void cmp_print_mmtests(FILE *f, const struct cmp_table *t)
{
	for_each_benchmark(f, t, print_mmtests_bench);
}

/* ---------------------------------------------------- normalized style */

static void normalized_units(char *buf, size_t len, const struct cmp_row *r)
{
	if (!r->higher_is_better && (!strcmp(r->unit, "s") ||
				     !strcmp(r->unit, "sec")))
		snprintf(buf, len, "Normalized time in seconds");
	else if (r->higher_is_better && strstr(r->unit, "/s"))
		snprintf(buf, len, "Normalized throughput");
	else if (r->unit[0])
		snprintf(buf, len, "Normalized %s (%s)", r->metric, r->unit);
	else
		snprintf(buf, len, "Normalized %s", r->metric);
}

static void print_normalized_cell(FILE *f, const struct cmp_table *t, int r,
				  int c, int width)
{
	const struct cmp_row *row = &t->row[r];
	const struct res_series *b = cmp_cell(t, r, 0), *v = cmp_cell(t, r, c);
	double bm = b ? stat_amean(b->v, b->n) : NAN, m, pct;
	char cell[64];

	if (!v || isnan(bm) || bm == 0) {
		fprintf(f, " %*s", width, "n/a");
		return;
	}
	m = stat_amean(v->v, v->n);
	pct = row->higher_is_better ? (m - bm) / bm * 100 : (bm - m) / bm * 100;
	snprintf(cell, sizeof(cell), "%.2f [%6.2f](%5.2f)", m / bm, pct,
		 stat_coeffvar(v->v, v->n));
	fprintf(f, " %*s", width, cell);
}

/* One table per (benchmark, metric); its rows are the cases. */
static void print_normalized_metric(FILE *f, const struct cmp_table *t, int r0)
{
	const struct cmp_row *first = &t->row[r0];
	char title[RES_NAME_LEN * 2 + 16], units[160];
	int r, c, cw[CMP_MAX_COLUMNS], lw = 8;

	for (r = r0; r < t->nrows; r++)
		if (!strcmp(t->row[r].name, first->name) &&
		    !strcmp(t->row[r].metric, first->metric) &&
		    (int)strlen(t->row[r].kase) > lw)
			lw = (int)strlen(t->row[r].kase);
	normalized_units(units, sizeof(units), first);
	fprintf(f, "==================================================================\n");
	fprintf(f, "Test          : %s %s\n", first->name, first->metric);
	fprintf(f, "Units         : %s\n", units);
	fprintf(f, "Interpretation: %s is better\n",
		first->higher_is_better ? "Higher" : "Lower");
	fprintf(f, "Statistic     : AMean\n");
	fprintf(f, "==================================================================\n");
	fprintf(f, "%-*s", lw + 1, "Case:");
	for (c = 0; c < t->ncols; c++) {
		snprintf(title, sizeof(title), "%s[pct imp](CV)", t->col[c].title);
		cw[c] = (int)strlen(title) > 22 ? (int)strlen(title) : 22;
		fprintf(f, " %*s", cw[c], title);
	}
	fputc('\n', f);
	for (r = r0; r < t->nrows; r++) {
		const struct cmp_row *row = &t->row[r];

		if (strcmp(row->name, first->name) ||
		    strcmp(row->metric, first->metric))
			continue;
		fprintf(f, "%*s ", lw, row->kase[0] ? row->kase : "-");
		for (c = 0; c < t->ncols; c++)
			print_normalized_cell(f, t, r, c, cw[c]);
		fputc('\n', f);
	}
	fprintf(f, "\n\n");
}

void cmp_print_normalized(FILE *f, const struct cmp_table *t)
{
	int r, q;

	for (r = 0; r < t->nrows; r++) {
		for (q = 0; q < r; q++)
			if (!strcmp(t->row[q].name, t->row[r].name) &&
			    !strcmp(t->row[q].metric, t->row[r].metric))
				break;
		if (q == r)
			print_normalized_metric(f, t, r);
	}
}

/* -------------------------------------------------------------- summary */

double cmp_benchmark_ratio(const struct cmp_table *t, const char *name, int c)
{
	double ratios[256];
	size_t n = 0;
	int r;

	for (r = 0; r < t->nrows && n < 256; r++) {
		const struct res_series *b, *v;
		double bm, m;

		if (strcmp(t->row[r].name, name))
			continue;
		b = cmp_cell(t, r, 0);
		v = cmp_cell(t, r, c);
		if (!b || !v)
			continue;
		bm = stat_amean(b->v, b->n);
		m = stat_amean(v->v, v->n);
		if (!(bm > 0) || !(m > 0))
			continue;
		ratios[n++] = t->row[r].higher_is_better ? m / bm : bm / m;
	}
	return stat_geomean(ratios, n);
}

static void print_summary_line(FILE *f, const struct cmp_table *t,
			       const char *name)
{
	int c;

	fprintf(f, "  %-22s", name);
	for (c = 0; c < t->ncols; c++) {
		double g = cmp_benchmark_ratio(t, name, c);
		long pct = lround((g - 1) * 100);
		char cell[32];

		if (isnan(g))
			snprintf(cell, sizeof(cell), "n/a");
		else if (pct == 0)
			snprintf(cell, sizeof(cell), "no change");
		else
			snprintf(cell, sizeof(cell), "%ld%% %s", labs(pct),
				 pct > 0 ? "better" : "worse");
		fprintf(f, "  %-14s", cell);
	}
	fputc('\n', f);
}

void cmp_print_summary(FILE *f, const struct cmp_table *t)
{
	int c;

	fprintf(f, "  %-22s", "");
	for (c = 0; c < t->ncols; c++)
		fprintf(f, "  %-14s", t->col[c].title);
	fprintf(f, "\n  ");
	for (c = 0; c < 22 + t->ncols * 16; c++)
		fputc('-', f);
	fputc('\n', f);
	for_each_benchmark(f, t, print_summary_line);
	fputc('\n', f);
}

/* ----------------------------------------------------------------- idle */

void cmp_print_idle(FILE *f, const struct cmp_table *t)
{
	const char *states[RES_MAX_STATES * 2];
	int ns = 0, c, s, q;
	bool any = false;

	for (c = 0; c < t->ncols; c++) {
		const struct res_idle *ri = &t->col[c].rs->idle[t->col[c].config];

		any |= ri->present;
		for (s = 0; s < ri->nstates; s++) {
			for (q = 0; q < ns; q++)
				if (!strcmp(states[q], ri->state[s]))
					break;
			if (q == ns && ns < RES_MAX_STATES * 2)
				states[ns++] = ri->state[s];
		}
	}
	if (!any)
		return;
	fprintf(f, "idle governor behaviour\n\n%-28s", "");
	for (c = 0; c < t->ncols; c++)
		fprintf(f, " %14s", t->col[c].title);
	fputc('\n', f);
	for (s = -3; s < ns; s++) {
		char label[48];

		if (s == -3)
			snprintf(label, sizeof(label), "above %%");
		else if (s == -2)
			snprintf(label, sizeof(label), "below %%");
		else if (s == -1)
			snprintf(label, sizeof(label), "energy");
		else
			snprintf(label, sizeof(label), "residency %% %s", states[s]);
		fprintf(f, "%-28s", label);
		for (c = 0; c < t->ncols; c++) {
			const struct res_idle *ri =
				&t->col[c].rs->idle[t->col[c].config];
			double v = NAN;

			if (s == -3)
				v = ri->present ? ri->above_pct : NAN;
			else if (s == -2)
				v = ri->present ? ri->below_pct : NAN;
			else if (s == -1)
				v = ri->has_energy ? ri->energy : NAN;
			else
				for (q = 0; q < ri->nstates; q++)
					if (!strcmp(ri->state[q], states[s]))
						v = ri->residency_pct[q];
			if (isnan(v))
				fprintf(f, " %14s", "n/a");
			else
				fprintf(f, " %14.2f", v);
		}
		if (s == -1) {
			const struct res_idle *ri = &t->col[0].rs->idle[t->col[0].config];

			if (ri->has_energy)
				fprintf(f, "  %s%s", ri->energy_unit,
					ri->energy_modelled ? " (modelled)" : "");
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}
