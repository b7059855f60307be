// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Machine-readable comparisons: one record per (row, column) with every
 * statistic that the text tables show.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <jansson.h>

#include "compare.h"
#include "text.h"

struct cmp_cell_stats {
	size_t n;
	double mean, amean, stddev, coeffvar, min, max, pct, ratio;
	struct stat_sig sig;
};

static bool cell_stats(const struct cmp_table *t, int r, int c,
		       struct cmp_cell_stats *cs)
{
	const struct cmp_row *row = &t->row[r];
	const struct res_series *b = cmp_cell(t, r, 0), *v = cmp_cell(t, r, c);
	double bm;

	if (!v)
		return false;
	cs->n = v->n;
	cs->mean = stat_mean_for(v->v, v->n, row->higher_is_better);
	cs->amean = stat_amean(v->v, v->n);
	cs->stddev = stat_stddev(v->v, v->n);
	cs->coeffvar = stat_coeffvar(v->v, v->n);
	cs->min = stat_min(v->v, v->n);
	cs->max = stat_max(v->v, v->n);
	bm = b ? stat_mean_for(b->v, b->n, row->higher_is_better) : NAN;
	cs->pct = stat_pct_better(bm, cs->mean, row->higher_is_better);
	/* as the normalized table: no ratio to a base of 0 or below */
	bm = b ? stat_amean(b->v, b->n) : NAN;
	cs->ratio = bm > 0 ? cs->amean / bm : NAN;
	memset(&cs->sig, 0, sizeof(cs->sig));
	if (b && c)
		stat_significance(b->v, b->n, v->v, v->n, t->rule, &cs->sig);
	else	/* the base column is not compared with itself */
		cs->sig.t = cs->sig.df = cs->sig.p = cs->sig.cidiff = NAN;
	return true;
}

static void csv_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs(",", f);
	else
		fprintf(f, ",%.6g", v);
}

static void csv_str(FILE *f, const char *s)
{
	idl_csv_text(f, s, true);
}

void cmp_print_csv(FILE *f, const struct cmp_table *t)
{
	struct cmp_cell_stats cs;
	int r, c;

	fprintf(f, "benchmark,case,metric,unit,higher_is_better,column,runs,"
		   "mean,amean,stddev,coeffvar,min,max,pct_better,"
		   "normalized,t,p,cidiff,significant\n");
	for (r = 0; r < t->nrows; r++) {
		const struct cmp_row *row = &t->row[r];

		for (c = 0; c < t->ncols; c++) {
			if (!cell_stats(t, r, c, &cs))
				continue;
			csv_str(f, row->name);
			fputc(',', f);
			csv_str(f, row->kase);
			fputc(',', f);
			csv_str(f, row->metric);
			fputc(',', f);
			csv_str(f, row->unit);
			fprintf(f, ",%d,", row->higher_is_better);
			csv_str(f, t->col[c].title);
			fprintf(f, ",%zu", cs.n);
			csv_num(f, cs.mean);
			csv_num(f, cs.amean);
			csv_num(f, cs.stddev);
			csv_num(f, cs.coeffvar);
			csv_num(f, cs.min);
			csv_num(f, cs.max);
			csv_num(f, cs.pct);
			csv_num(f, cs.ratio);
			csv_num(f, cs.sig.t);
			csv_num(f, cs.sig.p);
			csv_num(f, cs.sig.cidiff);
			fprintf(f, ",%d\n", cs.sig.significant);
		}
	}
}

void cmp_print_json(FILE *f, const struct cmp_table *t)
{
	json_t *root = json_object(), *rows = json_array(), *cols = json_array();
	struct cmp_cell_stats cs;
	int r, c;

	for (c = 0; c < t->ncols; c++)
		json_array_append_new(cols, idl_json_string(t->col[c].title));
	json_object_set_new(root, "columns", cols);
	json_object_set_new(root, "significance",
			    idl_json_string(t->rule == STAT_SIG_TTEST ? "ttest" : "ci"));
	for (r = 0; r < t->nrows; r++) {
		const struct cmp_row *row = &t->row[r];

		for (c = 0; c < t->ncols; c++) {
			json_t *o;

			if (!cell_stats(t, r, c, &cs))
				continue;
			o = json_pack("{s:s,s:s,s:s,s:s,s:b,s:s,s:I}",
				      "benchmark", row->name, "case", row->kase,
				      "metric", row->metric, "unit", row->unit,
				      "higher_is_better", row->higher_is_better,
				      "column", t->col[c].title,
				      "runs", (json_int_t)cs.n);
			json_object_set_new(o, "mean", idl_json_number(cs.mean));
			json_object_set_new(o, "amean", idl_json_number(cs.amean));
			json_object_set_new(o, "stddev", idl_json_number(cs.stddev));
			json_object_set_new(o, "coeffvar", idl_json_number(cs.coeffvar));
			json_object_set_new(o, "min", idl_json_number(cs.min));
			json_object_set_new(o, "max", idl_json_number(cs.max));
			json_object_set_new(o, "pct_better", idl_json_number(cs.pct));
			json_object_set_new(o, "normalized", idl_json_number(cs.ratio));
			json_object_set_new(o, "t", idl_json_number(cs.sig.t));
			json_object_set_new(o, "p", idl_json_number(cs.sig.p));
			json_object_set_new(o, "cidiff", idl_json_number(cs.sig.cidiff));
			json_object_set_new(o, "significant",
					    json_boolean(cs.sig.significant));
			json_array_append_new(rows, o);
		}
	}
	json_object_set_new(root, "rows", rows);
	json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(root);
}
