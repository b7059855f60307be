// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Comparison tables.  Every number printed here is defined in
 * doc/compare.md, which also says which published report shape each
 * style follows (mmtests' compare-kernels, LKML benchmark reports).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

/*
 * Building the table is linear in the benchmarks of all inputs: rows are
 * found by hashing their key (open addressing, FNV-1a), and every cell,
 * chain and first-of flag is worked out once here.
 */
static uint64_t hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (h ^ 0xff) * 1099511628211ull;	/* a separator */
}

static uint64_t key_hash(const char *name, const char *kase,
			 const char *metric, int parts)
{
	uint64_t h = hash_str(14695981039346656037ull, name);

	if (parts > 1)
		h = hash_str(h, metric);
	if (parts > 2)
		h = hash_str(h, kase);
	return h;
}

static bool row_is(const struct cmp_row *r, const char *name,
		   const char *kase, const char *metric, int parts)
{
	return !strcmp(r->name, name) &&
	       (parts < 2 || !strcmp(r->metric, metric)) &&
	       (parts < 3 || !strcmp(r->kase, kase));
}

/*
 * The slot of (name[, metric[, case]]) in @tab (entries: row + 1, 0 is
 * free): the one holding it, or the free one where it goes.
 */
static int *slot(int *tab, size_t mask, const struct cmp_row *rows,
		 const char *name, const char *kase, const char *metric,
		 int parts)
{
	size_t i = key_hash(name, kase, metric, parts) & mask;

	while (tab[i] && !row_is(&rows[tab[i] - 1], name, kase, metric,
				 parts))
		i = (i + 1) & mask;
	return &tab[i];
}

struct build {
	int	*rows, *metrics;	/* hashes by full key, name+metric */
	int	*last_name, *last_metric;	/* last row of each chain */
	size_t	mask;
};

static void chain(struct cmp_table *t, int r, int *first, int *last,
		  bool name)
{
	struct cmp_row *row = &t->row[r];

	if (!*first) {
		*first = r + 1;
		*(name ? &row->first_of_name : &row->first_of_metric) = true;
	} else {
		*(name ? &t->row[*last].next_of_name :
		  &t->row[*last].next_of_metric) = r;
	}
	*last = r;
}

static int add_row(struct cmp_table *t, struct build *b,
		   const struct res_bench *rb)
{
	int r = t->nrows++, *f;
	struct cmp_row *row = &t->row[r];

	*row = (struct cmp_row){
		.name = rb->name, .kase = rb->kase, .metric = rb->metric,
		.unit = rb->unit, .higher_is_better = rb->higher_is_better,
		.next_of_name = -1, .next_of_metric = -1
	};
	f = slot(t->by_name, t->by_name_mask, t->row, rb->name, "", "", 1);
	chain(t, r, f, &b->last_name[f - t->by_name], true);
	f = slot(b->metrics, b->mask, t->row, rb->name, "", rb->metric, 2);
	chain(t, r, f, &b->last_metric[f - b->metrics], false);
	return r;
}

/* A row met again in another set must mean the same: a value in ms
 * beside one in us, or a lower-is-better beside a higher-is-better,
 * would make every ratio and "better" wrong. */
static int same_meaning(const struct cmp_row *row, const struct res_bench *rb,
			const struct res_set *rs, struct idl_err *err)
{
	if (strcmp(row->unit, rb->unit))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s %s %s is "
				   "in '%s' here, in '%s' in an earlier file",
				   rs->path, rb->name, rb->kase, rb->metric,
				   rb->unit, row->unit);
	if (row->higher_is_better != rb->higher_is_better)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s %s %s: "
				   "%s is better here, the other way in an "
				   "earlier file", rs->path, rb->name,
				   rb->kase, rb->metric,
				   rb->higher_is_better ? "higher" : "lower");
	return 0;
}

static int add_set(struct cmp_table *t, struct build *b,
		   const struct res_set *rs, int col0, struct idl_err *err)
{
	int i, c, *f;

	for (i = 0; i < rs->nbench; i++) {
		const struct res_bench *rb = &rs->bench[i];

		f = slot(b->rows, b->mask, t->row, rb->name, rb->kase,
			 rb->metric, 3);
		if (!*f)
			*f = add_row(t, b, rb) + 1;
		else if (same_meaning(&t->row[*f - 1], rb, rs, err))
			return -1;
		t->row[*f - 1].only_some |= rb->only_some;
		for (c = col0; c < t->ncols && t->col[c].rs == rs; c++)
			t->cell[(size_t)(*f - 1) * CMP_MAX_COLUMNS + c] =
				results_series(rb, t->col[c].config);
	}
	return 0;
}

/* Cells were laid out CMP_MAX_COLUMNS wide while columns were added. */
static void pack_cells(struct cmp_table *t)
{
	size_t r;
	int c;

	for (r = 0; r < (size_t)t->nrows; r++)
		for (c = 0; c < t->ncols; c++)
			t->cell[r * t->ncols + c] =
				t->cell[r * CMP_MAX_COLUMNS + c];
}

/* Input @s's name in titles: its label, numbered when another input has
 * the same (d1/res.json and d2/res.json, a file given twice). */
static void input_label(char *buf, size_t len, const struct res_set *sets,
			int nsets, int s)
{
	int i;

	for (i = 0; i < nsets; i++)
		if (i != s && !strcmp(sets[i].label, sets[s].label))
			break;
	if (i < nsets)
		snprintf(buf, len, "%s#%d", sets[s].label, s + 1);
	else
		snprintf(buf, len, "%s", sets[s].label);
}

static void set_title(struct cmp_column *col, const struct res_set *sets,
		      int nsets, int s, int c)
{
	char label[RES_NAME_LEN + 16];

	input_label(label, sizeof(label), sets, nsets, s);
	/* several inputs: say which one each column is from */
	if (nsets > 1 && sets[s].nconfigs > 1)
		snprintf(col->title, sizeof(col->title), "%s/%s", label,
			 sets[s].configs[c]);
	else if (nsets > 1)
		snprintf(col->title, sizeof(col->title), "%s", label);
	else
		snprintf(col->title, sizeof(col->title), "%s",
			 sets[s].configs[c]);
}

static int build_alloc(struct cmp_table *t, struct build *b, size_t n,
		       struct idl_err *err)
{
	size_t size = 16;

	while (size < 2 * n)
		size *= 2;
	b->mask = size - 1;
	t->by_name_mask = size - 1;
	t->row = calloc(n + 1, sizeof(*t->row));
	t->cell = calloc((n + 1) * CMP_MAX_COLUMNS, sizeof(*t->cell));
	t->by_name = calloc(size, sizeof(int));
	b->rows = calloc(size, sizeof(int));
	b->metrics = calloc(size, sizeof(int));
	b->last_name = calloc(size, sizeof(int));
	b->last_metric = calloc(size, sizeof(int));
	if (t->row && t->cell && t->by_name && b->rows && b->metrics &&
	    b->last_name && b->last_metric)
		return 0;
	return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
}

static void build_free(struct build *b)
{
	free(b->rows);
	free(b->metrics);
	free(b->last_name);
	free(b->last_metric);
}

int cmp_table_build(struct cmp_table *t, const struct res_set *sets,
		    int nsets, enum stat_sig_rule rule, struct idl_err *err)
{
	struct build b = { 0 };
	size_t n = 0;
	int s, c, col0, ret = 0;

	memset(t, 0, sizeof(*t));
	t->rule = rule;
	for (s = 0; s < nsets; s++)
		n += (size_t)sets[s].nbench;
	if (build_alloc(t, &b, n, err)) {
		build_free(&b);
		return -1;
	}
	for (s = 0; s < nsets && !ret; s++) {
		col0 = t->ncols;
		for (c = 0; c < sets[s].nconfigs; c++) {
			if (t->ncols >= CMP_MAX_COLUMNS) {
				ret = idl_err_set(err, IDL_EXIT_BADINPUT,
						  "more than %d columns to compare",
						  CMP_MAX_COLUMNS);
				break;
			}
			t->col[t->ncols].rs = &sets[s];
			t->col[t->ncols].config = c;
			set_title(&t->col[t->ncols++], sets, nsets, s, c);
		}
		if (!ret)
			ret = add_set(t, &b, &sets[s], col0, err);
	}
	build_free(&b);
	pack_cells(t);
	if (!ret)
		cmp_mark_diff(t);
	if (ret)
		cmp_table_free(t);	/* (safe to free again) */
	return ret;
}

void cmp_table_free(struct cmp_table *t)
{
	free(t->row);
	free(t->cell);
	free(t->by_name);
	t->row = NULL;
	t->cell = NULL;
	t->by_name = NULL;
}

const struct res_series *cmp_cell(const struct cmp_table *t, int r, int c)
{
	return t->cell[(size_t)r * t->ncols + c];
}

int cmp_first_row(const struct cmp_table *t, const char *name)
{
	size_t i = key_hash(name, "", "", 1) & t->by_name_mask;

	if (!t->by_name)
		return -1;
	while (t->by_name[i] && strcmp(t->row[t->by_name[i] - 1].name, name))
		i = (i + 1) & t->by_name_mask;
	return t->by_name[i] - 1;
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

	for (r = cmp_first_row(t, name); r >= 0; r = t->row[r].next_of_name) {
		row_label(buf, sizeof(buf), &t->row[r]);
		if ((int)strlen(buf) > w)
			w = (int)strlen(buf);
	}
	return w;
}

/* Every cell of a benchmark has at most one run: only the mean is shown. */
static bool single_runs(const struct cmp_table *t, const char *name)
{
	int r, c;

	for (r = cmp_first_row(t, name); r >= 0; r = t->row[r].next_of_name)
		for (c = 0; c < t->ncols; c++)
			if (cmp_cell(t, r, c) && cmp_cell(t, r, c)->n > 1)
				return false;
	return true;
}

/* Do @a and @b print the same ("%.2f")?  Then nothing changed. */
/* @s right-aligned in @width columns (fprintf's "%*s") */
static void put_right(FILE *f, const char *s, int width)
{
	static const char spaces[] = "                                ";
	int n = width - (int)strlen(s), k;

	for (; n > 0; n -= k) {
		k = n < (int)sizeof(spaces) - 1 ? n : (int)sizeof(spaces) - 1;
		fwrite(spaces, 1, (size_t)k, f);
	}
	fputs(s, f);
}

/* "%.2f" of @v in @buf, which is returned */
static const char *fmt2(char *buf, double v)
{
	stat_fmt2(buf, v);
	return buf;
}

static bool print_same(double a, double b)
{
	char x[STAT_FMT2_LEN], y[STAT_FMT2_LEN];

	stat_fmt2(x, a);
	stat_fmt2(y, b);
	return !strcmp(x, y);
}

/*
 * The change of cell (r, c) against the baseline, better when positive:
 * in percent of the baseline, or, on a row compared by difference
 * (cmp_mark_diff()), in the metric's unit (points for a percentage).
 */
static double cell_change(const struct cmp_table *t, int r, int c,
			  enum cmp_stat s)
{
	const struct cmp_row *row = &t->row[r];
	const struct res_series *b = cmp_cell(t, r, 0), *v = cmp_cell(t, r, c);
	bool hib = stat_hib(s, row->higher_is_better);
	double bv, vv, d;

	if (!b || !v)
		return NAN;
	bv = stat_value(s, b, row->higher_is_better);
	vv = stat_value(s, v, row->higher_is_better);
	if (isfinite(bv) && isfinite(vv) && print_same(bv, vv))
		return 0;
	if (row->by_diff)
		d = hib ? vv - bv : bv - vv;
	else
		d = stat_pct_better(bv, vv, hib);
	return fabs(d) < 0.005 ? 0 : d;	/* no "-0.00" */
}

/* Widths that fit every value and change of a benchmark's block; the
 * unit after a change is "%" or " pts" (sfx: the wider of those used). */
struct mm_widths {
	int	label, value, pct, sfx;
	bool	mean_only;
};

static void mm_widths(const struct cmp_table *t, const char *name,
		      struct mm_widths *w)
{
	int r, c, s, n;
	char buf[STAT_FMT2_LEN];

	w->label = label_width(t, name);
	w->value = 10;
	w->pct = 7;
	w->sfx = 1;
	w->mean_only = single_runs(t, name);
	for (r = cmp_first_row(t, name); r >= 0; r = t->row[r].next_of_name) {
		if (t->row[r].by_diff)
			w->sfx = 4;
		for (c = 0; c < t->ncols; c++) {
			const struct res_series *v = cmp_cell(t, r, c);

			for (s = 0; v && s < ST_COUNT; s++) {
				n = stat_fmt2(buf, stat_value(s, v,
					t->row[r].higher_is_better));
				if (n > w->value)
					w->value = n;
				n = stat_fmt2(buf, cell_change(t, r, c, s));
				if (n > w->pct)
					w->pct = n;
			}
		}
	}
	for (c = 0; c < t->ncols; c++)
		if ((int)strlen(t->col[c].title) - w->pct - 3 - w->sfx >
		    w->value)
			w->value = (int)strlen(t->col[c].title) - w->pct - 3 -
				   w->sfx;
}

static void print_mmtests_cell(FILE *f, const struct cmp_table *t, int r,
			       int c, enum cmp_stat s,
			       const struct mm_widths *w)
{
	const struct cmp_row *row = &t->row[r];
	const struct res_series *v = cmp_cell(t, r, c);
	double d = cell_change(t, r, c, s);
	const char *sfx = row->by_diff ? " pts" : "%";
	int pad = w->sfx - (int)strlen(sfx);
	char val[STAT_FMT2_LEN], chg[STAT_FMT2_LEN];
	bool sig;

	if (!v) {
		fprintf(f, "  %*s %*s", w->value, "n/a", w->pct + 2 + w->sfx,
			"");
		return;
	}
	sig = s == ST_MEAN && !isnan(d) && cell_significant(t, r, c);
	/* a spread of one run, a harmonic mean of values <= 0 */
	if (isnan(stat_value(s, v, row->higher_is_better)))
		fprintf(f, "  %*s (%*s%s)%*s", w->value, "n/a", w->pct, "n/a",
			sfx, pad, "");
	else {
		/* "  VALUE (CHANGE%)" or, significant, "  VALUE *CHANGE%*":
		 * put together by hand, a row of a million cells spent a
		 * third of its time in fprintf */
		fputs("  ", f);
		put_right(f, fmt2(val, stat_value(s, v, row->higher_is_better)),
			  w->value);
		fputs(sig ? " *" : " (", f);
		put_right(f, isnan(d) ? "n/a" : fmt2(chg, d), w->pct);
		fputs(sfx, f);
		fputc(sig ? '*' : ')', f);
		put_right(f, "", pad);
	}
}

static void print_mmtests_bench(FILE *f, const struct cmp_table *t,
				const char *name)
{
	char buf[2 * RES_NAME_LEN + 2];
	struct mm_widths w;
	int r, c, s, line;

	mm_widths(t, name, &w);
	fprintf(f, "%s\n\n", name);
	fprintf(f, "%-*s", 10 + w.label, "");
	for (c = 0; c < t->ncols; c++)
		fprintf(f, "  %*s", w.value + w.pct + 3 + w.sfx,
			t->col[c].title);
	fputc('\n', f);
	line = 10 + w.label + t->ncols * (w.value + w.pct + 5 + w.sfx);
	for (c = 0; c < line; c++)
		fputc('-', f);
	fputc('\n', f);
	for (s = 0; s < ST_COUNT; s++) {
		if (w.mean_only && s != ST_MEAN)
			continue;
		for (r = cmp_first_row(t, name); r >= 0;
		     r = t->row[r].next_of_name) {
			const struct cmp_row *row = &t->row[r];

			row_label(buf, sizeof(buf), row);
			fprintf(f, "%-10s%-*s",
				stat_label(s, row->higher_is_better), w.label,
				buf);
			for (c = 0; c < t->ncols; c++)
				print_mmtests_cell(f, t, r, c, s, &w);
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
	int r;

	for (r = 0; r < t->nrows; r++)
		if (t->row[r].first_of_name)
			fn(f, t, t->row[r].name);
}

void cmp_print_mmtests(FILE *f, const struct cmp_table *t)
{
	for_each_benchmark(f, t, print_mmtests_bench);
}

/* ---------------------------------------------------- normalized style */

static void normalized_units(char *buf, size_t len, const struct cmp_row *r)
{
	if (r->by_diff)
		snprintf(buf, len, "Difference of %s%s%s%s", r->metric,
			 *cmp_diff_unit(r) ? " (" : "", cmp_diff_unit(r),
			 *cmp_diff_unit(r) ? ")" : "");
	else if (!r->higher_is_better && (!strcmp(r->unit, "s") ||
				     !strcmp(r->unit, "sec")))
		snprintf(buf, len, "Normalized time in seconds");
	else if (r->higher_is_better && strstr(r->unit, "/s"))
		snprintf(buf, len, "Normalized throughput");
	else if (r->unit[0])
		snprintf(buf, len, "Normalized %s (%s)", r->metric, r->unit);
	else
		snprintf(buf, len, "Normalized %s", r->metric);
}

/* The text of one cell, `ratio [pct imp](CV)`, `- [diff UNIT](CV)` on a
 * metric compared by difference, or "n/a". */
static void normalized_cell(char *cell, size_t len, const struct cmp_table *t,
			    int r, int c)
{
	const struct cmp_row *row = &t->row[r];
	const struct res_series *b = cmp_cell(t, r, 0), *v = cmp_cell(t, r, c);
	double bm = b ? stat_amean(b->v, b->n) : NAN, m, pct;
	char x[STAT_FMT2_LEN], cv[STAT_FMT2_LEN], ratio[STAT_FMT2_LEN];

	if (v && isfinite(bm) && row->by_diff) {
		/* a difference in the metric's unit, no ratio */
		m = stat_amean(v->v, v->n);
		pct = print_same(m, bm) ? 0 :
		      row->higher_is_better ? m - bm : bm - m;
		snprintf(cell, len, "   - [%6s%s%s](%5s)",
			 fmt2(x, fabs(pct) < 0.005 ? 0 : pct),
			 *cmp_diff_unit(row) ? " " : "", cmp_diff_unit(row),
			 fmt2(cv, stat_coeffvar(v->v, v->n)));
		return;
	}
	if (!v || isnan(bm) || bm == 0) {
		snprintf(cell, len, "n/a");
		return;
	}
	m = stat_amean(v->v, v->n);
	if (print_same(m, bm)) {
		snprintf(cell, len, "1.00 [  0.00](%5s)",
			 fmt2(cv, stat_coeffvar(v->v, v->n)));
		return;
	}
	/* of the base's size: a rise from -99.7 to -2.7 is a rise */
	pct = (row->higher_is_better ? m - bm : bm - m) / fabs(bm) * 100;
	if (fabs(pct) < 0.005)
		pct = 0;	/* no "-0.00" */
	/* a ratio to a negative base reads backwards: none */
	fmt2(x, pct);
	fmt2(cv, stat_coeffvar(v->v, v->n));
	if (bm > 0)
		snprintf(cell, len, "%s [%6s](%5s)", fmt2(ratio, m / bm), x,
			 cv);
	else
		snprintf(cell, len, "   - [%6s](%5s)", x, cv);
}

/* One table per (benchmark, metric); its rows are the cases. */
static void print_normalized_metric(FILE *f, const struct cmp_table *t, int r0)
{
	const struct cmp_row *first = &t->row[r0];
	char title[RES_NAME_LEN * 2 + 16], units[160], cell[4 * STAT_FMT2_LEN];
	int r, c, cw[CMP_MAX_COLUMNS], lw = 8;

	for (c = 0; c < t->ncols; c++) {
		snprintf(title, sizeof(title), "%s[%s imp](CV)",
			 t->col[c].title, first->by_diff ? "diff" : "pct");
		cw[c] = (int)strlen(title) > 22 ? (int)strlen(title) : 22;
	}
	for (r = r0; r >= 0; r = t->row[r].next_of_metric) {
		if ((int)strlen(t->row[r].kase) > lw)
			lw = (int)strlen(t->row[r].kase);
		for (c = 0; c < t->ncols; c++) {
			normalized_cell(cell, sizeof(cell), t, r, c);
			if ((int)strlen(cell) > cw[c])
				cw[c] = (int)strlen(cell);
		}
	}
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
		snprintf(title, sizeof(title), "%s[%s imp](CV)",
			 t->col[c].title, first->by_diff ? "diff" : "pct");
		fprintf(f, " %*s", cw[c], title);
	}
	fputc('\n', f);
	for (r = r0; r >= 0; r = t->row[r].next_of_metric) {
		const struct cmp_row *row = &t->row[r];

		fprintf(f, "%*s ", lw, row->kase[0] ? row->kase : "-");
		for (c = 0; c < t->ncols; c++) {
			normalized_cell(cell, sizeof(cell), t, r, c);
			fprintf(f, " %*s", cw[c], cell);
		}
		fputc('\n', f);
	}
	fprintf(f, "\n\n");
}

void cmp_print_normalized(FILE *f, const struct cmp_table *t)
{
	int r;

	for (r = 0; r < t->nrows; r++)
		if (t->row[r].first_of_metric)
			print_normalized_metric(f, t, r);
}

/* ----------------------------------------------------------------- idle */

/* What each input's idle figures cover, where it says (replay: pooled). */
static void print_idle_scopes(FILE *f, const struct cmp_table *t)
{
	const struct res_set *last = NULL;
	int c;

	for (c = 0; c < t->ncols; c++) {
		const struct res_set *rs = t->col[c].rs;

		if (rs == last || !rs->idle_scope[0])
			continue;
		last = rs;
		if (t->col[t->ncols - 1].rs == t->col[0].rs)
			fprintf(f, "(%s)\n", rs->idle_scope);
		else
			fprintf(f, "(%s: %s)\n", rs->label, rs->idle_scope);
	}
}

/* Row @s of the idle table (-3 above, -2 below, -1 energy, else a state). */
static double idle_value(const struct res_idle *ri, int s, const char *state)
{
	int q;

	if (s == -3)
		return ri->present ? ri->above_pct : NAN;
	if (s == -2)
		return ri->present ? ri->below_pct : NAN;
	if (s == -1)
		return ri->has_energy ? ri->energy : NAN;
	for (q = 0; q < ri->nstates; q++)
		if (!strcmp(ri->state[q], state))
			return ri->residency_pct[q];
	return NAN;
}

static const struct res_idle *col_idle(const struct cmp_table *t, int c)
{
	return &t->col[c].rs->idle[t->col[c].config];
}

void cmp_print_idle(FILE *f, const struct cmp_table *t)
{
	const char *states[RES_MAX_STATES * 2];
	int ns = 0, c, s, q, w = 14, lw = 28;
	bool any = false;
	char label[48], num[64];

	for (c = 0; c < t->ncols; c++) {
		const struct res_idle *ri = col_idle(t, c);

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
	/* widths that fit every title, label and value */
	for (c = 0; c < t->ncols; c++) {
		if ((int)strlen(t->col[c].title) > w)
			w = (int)strlen(t->col[c].title);
		for (s = -3; s < ns; s++)
			if (snprintf(num, sizeof(num), "%.2f", idle_value(
				col_idle(t, c), s, s >= 0 ? states[s] : "")) > w)
				w = (int)strlen(num);
	}
	for (s = 0; s < ns; s++)
		if ((int)strlen(states[s]) + 12 > lw)
			lw = (int)strlen(states[s]) + 12;
	fprintf(f, "idle governor behaviour\n");
	print_idle_scopes(f, t);
	fprintf(f, "\n%-*s", lw, "");
	for (c = 0; c < t->ncols; c++)
		fprintf(f, " %*s", w, t->col[c].title);
	fputc('\n', f);
	for (s = -3; s < ns; s++) {
		if (s == -3)
			snprintf(label, sizeof(label), "above %%");
		else if (s == -2)
			snprintf(label, sizeof(label), "below %%");
		else if (s == -1)
			snprintf(label, sizeof(label), "energy");
		else
			snprintf(label, sizeof(label), "residency %% %s", states[s]);
		fprintf(f, "%-*s", lw, label);
		for (c = 0; c < t->ncols; c++) {
			double v = idle_value(col_idle(t, c), s,
					      s >= 0 ? states[s] : "");

			if (isnan(v))
				fprintf(f, " %*s", w, "n/a");
			else
				fprintf(f, " %*.2f", w, v);
		}
		if (s == -1 && col_idle(t, 0)->has_energy)
			fprintf(f, "  %s%s", col_idle(t, 0)->energy_unit,
				col_idle(t, 0)->energy_modelled ?
				" (modelled)" : "");
		fputc('\n', f);
	}
	fputc('\n', f);
}
