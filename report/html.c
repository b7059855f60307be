// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML report.  Everything is inline (CSS, SVG), so the file can be
 * mailed or attached to a bug and opened anywhere without a network.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic.h"
#include "html.h"
#include "plot.h"

void html_escape(FILE *f, const char *s)
{
	size_t n;

	for (;;) {
		n = strcspn(s, "<>&\"");
		fwrite(s, 1, n, f);
		s += n;
		if (!*s)
			return;
		fputs(*s == '<' ? "&lt;" : *s == '>' ? "&gt;" :
		      *s == '&' ? "&amp;" : "&quot;", f);
		s++;
	}
}

/* Run one of the text printers into a <pre> block. */
static void pre_block(FILE *f, const struct cmp_table *t,
		      void (*print)(FILE *, const struct cmp_table *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	print(m, t);
	fclose(m);
	fputs("<pre>", f);
	html_escape(f, buf);
	fputs("</pre>\n", f);
	free(buf);
}

/*
 * @svg with its ids and the references to them prefixed by "pN-": every
 * gnuplot SVG names its parts alike (gnuplot_canvas, gpPt1, ...), and
 * one page holds several, whose ids must be unique.
 */
static void put_svg(FILE *f, const char *svg, int n)
{
	static const char *const ref[] = {
		"id='", "id=\"", "href='#", "href=\"#", "url(#"
	};
	const char *s = svg;
	size_t i, len;

	while (*s) {
		for (i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
			len = strlen(ref[i]);
			if (!strncmp(s, ref[i], len))
				break;
		}
		if (i < sizeof(ref) / sizeof(ref[0])) {
			fprintf(f, "%sp%d-", ref[i], n);
			s += len;
		} else {
			fputc(*s++, f);
		}
	}
}

void html_svg(FILE *f, struct plot *p, const char *what)
{
	static int plots;
	char *svg = plot_end(p);

	if (!svg) {
		fprintf(f, "<p class=\"note\">(plot of %s could not be rendered)</p>\n",
			what);
		return;
	}
	/* drop the XML prolog: the SVG element is embedded in HTML */
	fprintf(f, "<div class=\"plot\" data-plot=\"%s\">", what);
	put_svg(f, strstr(svg, "<svg") ? strstr(svg, "<svg") : svg, ++plots);
	fputs("</div>\n", f);
	free(svg);
}

/* Config names on the x axis: slanted when they would run into each other. */
static void config_xtics(struct plot *p, const struct cmp_table *t)
{
	size_t longest = 0;
	int c;

	for (c = 0; c < t->ncols; c++)
		if (strlen(t->col[c].title) > longest)
			longest = strlen(t->col[c].title);
	/* a 720-pixel plot has room for about 80 characters of labels */
	if (t->ncols * (longest + 2) > 80)
		fputs("set xtics rotate by 30 right\n", p->script);
	fputs("set xtics noenhanced\n", p->script);
}

/* Has a cell of row @r several runs?  (one run has no spread to show) */
static bool row_repeated(const struct cmp_table *t, int r)
{
	int c;

	for (c = 0; c < t->ncols; c++)
		if (cmp_cell(t, r, c) && cmp_cell(t, r, c)->n > 1)
			return true;
	return false;
}

static bool any_repeated(const struct cmp_table *t)
{
	int r;

	for (r = 0; r < t->nrows; r++)
		if (row_repeated(t, r))
			return true;
	return false;
}

/* Raw per-run values of one benchmark row, one column of points per config. */
static void plot_runs(FILE *f, const struct cmp_table *t, int r,
		      const struct html_opts *o)
{
	const struct cmp_row *row = &t->row[r];
	char title[256];
	struct plot p;
	int c, cells = 0;
	size_t i;

	for (c = 0; c < t->ncols; c++)
		cells += cmp_cell(t, r, c) != NULL;
	if (!cells)
		return;
	snprintf(title, sizeof(title), "%s %s%s%s (%s, %s is better): every run",
		 row->name, row->metric, row->kase[0] ? " " : "", row->kase,
		 row->unit, row->higher_is_better ? "higher" : "lower");
	if (plot_begin(&p, o->gnuplot, title, 720, 300))
		return;
	config_xtics(&p, t);
	fprintf(p.script, "set xrange [-0.5:%d.5]\nset xtics (", t->ncols - 1);
	for (c = 0; c < t->ncols; c++) {
		fprintf(p.script, "%s\"", c ? ", " : "");
		plot_quote(p.script, t->col[c].title);
		fprintf(p.script, "\" %d", c);
	}
	fputs(")\nset ylabel \"", p.script);
	plot_quote(p.script, row->unit);
	fputs("\" noenhanced\nunset key\n$runs << EOD\n", p.script);
	for (c = 0; c < t->ncols; c++) {
		const struct res_series *v = cmp_cell(t, r, c);

		for (i = 0; v && i < v->n; i++)
			/* spread the runs a little so that equal values show */
			fprintf(p.script, "%g %.10g\n",
				c + 0.3 * ((double)(i + 1) / (v->n + 1) - 0.5),
				v->v[i]);
	}
	fprintf(p.script, "EOD\nplot $runs using 1:2 with points pt 7 ps 0.8 lc rgb '#1f77b4'\n");
	html_svg(f, &p, "runs");
}

static bool any_idle(const struct cmp_table *t)
{
	int c;

	for (c = 0; c < t->ncols; c++)
		if (t->col[c].rs->idle[t->col[c].config].present)
			return true;
	return false;
}

static const struct res_idle *col_idle(const struct cmp_table *t, int c)
{
	return &t->col[c].rs->idle[t->col[c].config];
}

/* Per-config state residency as clustered bars. */
/* Whether any column has a defined (non-null) idle rate to plot: with
 * none, gnuplot refuses the plot ("all points undefined"). */
static bool any_idle_rate(const struct cmp_table *t, bool residency)
{
	int c, s;

	for (c = 0; c < t->ncols; c++) {
		const struct res_idle *ri = col_idle(t, c);

		if (!ri->present)
			continue;
		if (!residency && (isfinite(ri->above_pct) ||
				   isfinite(ri->below_pct)))
			return true;
		for (s = 0; residency && s < ri->nstates; s++)
			if (isfinite(ri->residency_pct[s]))
				return true;
	}
	return false;
}

static void plot_residency(FILE *f, const struct cmp_table *t,
			   const struct html_opts *o)
{
	const struct res_idle *ref = NULL;
	struct plot p;
	int c, s;

	for (c = 0; c < t->ncols && !ref; c++)
		if (col_idle(t, c)->nstates)
			ref = col_idle(t, c);
	if (!ref || !any_idle_rate(t, true) || plot_begin(&p, o->gnuplot, "state residency (% of time)", 720, 320))
		return;
	config_xtics(&p, t);
	fprintf(p.script, "set style data histograms\nset style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1\nset yrange [0:*]\n$res << EOD\nconfig");
	for (s = 0; s < ref->nstates; s++) {
		fputs(" \"", p.script);
		plot_quote(p.script, ref->state[s]);
		fputc('"', p.script);
	}
	fputc('\n', p.script);
	for (c = 0; c < t->ncols; c++) {
		const struct res_idle *ri = col_idle(t, c);

		fputc('"', p.script);
		plot_quote(p.script, t->col[c].title);
		fputc('"', p.script);
		for (s = 0; s < ref->nstates; s++)
			fprintf(p.script, " %g", s < ri->nstates ?
				ri->residency_pct[s] : 0.0);
		fputc('\n', p.script);
	}
	fprintf(p.script, "EOD\nplot for [i=2:%d] $res using i:xtic(1) title columnheader(i)\n",
		ref->nstates + 1);
	html_svg(f, &p, "residency");
}

/* The kernel's above/below rates per config. */
static void plot_misses(FILE *f, const struct cmp_table *t,
			const struct html_opts *o)
{
	struct plot p;
	int c;

	if (!any_idle_rate(t, false) ||
	    plot_begin(&p, o->gnuplot, "mispredictions (kernel rule, % of idle entries)", 720, 300))
		return;
	config_xtics(&p, t);
	fprintf(p.script, "set style data histograms\nset style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1\nset yrange [0:*]\n$m << EOD\n"
		"config \"above (too deep)\" \"below (too shallow)\"\n");
	for (c = 0; c < t->ncols; c++) {
		const struct res_idle *ri = col_idle(t, c);

		fputc('"', p.script);
		plot_quote(p.script, t->col[c].title);
		fprintf(p.script, "\" %g %g\n", ri->present ? ri->above_pct : 0,
			ri->present ? ri->below_pct : 0);
	}
	fprintf(p.script, "EOD\nplot for [i=2:3] $m using i:xtic(1) title columnheader(i)\n");
	html_svg(f, &p, "misses");
}

/* The first lower-is-better latency row, to set against energy. */
static int latency_row(const struct cmp_table *t)
{
	int r;

	for (r = 0; r < t->nrows; r++)
		if (!t->row[r].higher_is_better &&
		    strstr(t->row[r].metric, "latency"))
			return r;
	return -1;
}

static void plot_energy_latency(FILE *f, const struct cmp_table *t,
				const struct html_opts *o)
{
	int r = latency_row(t), c, points = 0;
	char title[256];
	struct plot p;

	/* the energy is the idle table's, pooled over the traces: set it
	 * against a latency of one case only when there is one case */
	if (r < 0 || t->row[r].next_of_metric >= 0)
		return;
	snprintf(title, sizeof(title), "energy vs %s %s (mean)", t->row[r].name,
		 t->row[r].metric);
	if (plot_begin(&p, o->gnuplot, title, 720, 320))
		return;
	fputs("set xlabel 'energy'\nset ylabel \"", p.script);
	plot_quote(p.script, t->row[r].unit);
	fputs("\" noenhanced\nunset key\n"
	      "set offsets graph 0.15, graph 0.25, graph 0.15, graph 0.15\n$e << EOD\n",
	      p.script);
	for (c = 0; c < t->ncols; c++) {
		const struct res_idle *ri = col_idle(t, c);
		const struct res_series *v = cmp_cell(t, r, c);

		if (!ri->has_energy || !v)
			continue;
		fprintf(p.script, "%g %g \"", ri->energy,
			stat_amean(v->v, v->n));
		plot_quote(p.script, t->col[c].title);
		fputs("\"\n", p.script);
		points++;
	}
	fprintf(p.script, "EOD\nplot $e using 1:2 with points pt 7 ps 1.2, "
		"'' using 1:2:3 with labels offset 1,1 left noenhanced\n");
	if (!points) {
		fclose(p.script);
		free(p.buf);
		unlink(p.svg);
		return;
	}
	html_svg(f, &p, "energy-latency");
}

/* Workload idle durations binned by the states' target residencies. */
static void plot_idle_histogram(FILE *f, const struct res_replay *rp,
				const struct html_opts *o)
{
	struct plot p;
	int i;

	if (plot_begin(&p, o->gnuplot,
		       "workload idle periods by duration (bins: state target residencies)",
		       720, 300))
		return;
	fprintf(p.script, "set style data histograms\nset style fill solid 0.8 border -1\n"
		"set yrange [0:*]\nunset key\nset xtics rotate by -20\n$h << EOD\n");
	for (i = 0; i < rp->nstates; i++) {
		fputc('"', p.script);
		plot_quote(p.script, rp->state[i]);
		if (i + 1 < rp->nstates)
			fprintf(p.script, " [%.4g us, %.4g us)",
				rp->target_residency_ns[i] / 1e3,
				rp->target_residency_ns[i + 1] / 1e3);
		else
			fprintf(p.script, " [%.4g us, inf)",
				rp->target_residency_ns[i] / 1e3);
		fprintf(p.script, "\" %g\n", rp->idle_hist[i]);
	}
	fprintf(p.script, "EOD\nplot $h using 2:xtic(1) lc rgb '#1f77b4'\n");
	html_svg(f, &p, "idle-histogram");
}

/* Choices that differ from the oracle's, in % of the choices, by key. */
static void plot_vs_oracle(FILE *f, const struct cmp_table *t, bool by_cause,
			   const struct html_opts *o)
{
	const struct res_replay *rp = t->col[0].rs->replay;
	int n = by_cause ? rp->ncauses : rp->nstates, i, c;
	struct plot p;

	if (!n || plot_begin(&p, o->gnuplot, by_cause ?
			     "choices different from the oracle, by wake cause (%)" :
			     "choices different from the oracle, by chosen state (%)",
			     720, 320))
		return;
	fprintf(p.script, "set style data histograms\nset style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1\nset yrange [0:*]\n$v << EOD\nkey");
	for (c = 0; c < t->ncols; c++) {
		fputs(" \"", p.script);
		plot_quote(p.script, t->col[c].title);
		fputc('"', p.script);
	}
	fputc('\n', p.script);
	for (i = 0; i < n; i++) {
		fputc('"', p.script);
		plot_quote(p.script, by_cause ? rp->cause[i] : rp->state[i]);
		fputc('"', p.script);
		for (c = 0; c < t->ncols; c++) {
			const struct res_replay *cr = t->col[c].rs->replay;
			const struct res_vs_oracle *v = !cr ? NULL : by_cause ?
				&cr->by_cause[t->col[c].config][i] :
				&cr->by_state[t->col[c].config][i];
			double all = v ? v->same + v->deep + v->shallow : 0;

			fprintf(p.script, " %g", all > 0 ?
				(v->deep + v->shallow) * 100 / all : 0.0);
		}
		fputc('\n', p.script);
	}
	fprintf(p.script, "EOD\nplot for [i=2:%d] $v using i:xtic(1) title columnheader(i)\n",
		t->ncols + 1);
	html_svg(f, &p, by_cause ? "vs-oracle-cause" : "vs-oracle-state");
}

static void summary_table(FILE *f, const struct cmp_table *t)
{
	struct cmp_summary s;
	char cell[96];
	int r, c;

	fputs("<table><tr><th>benchmark</th><th>metric</th>", f);
	for (c = 0; c < t->ncols; c++) {
		fputs("<th>", f);
		html_escape(f, t->col[c].title);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (r = 0; r < t->nrows; r++) {
		if (!t->row[r].first_of_metric)
			continue;
		cmp_metric_summary(t, r, &s);
		fputs("<tr><td>", f);
		html_escape(f, t->row[r].name);
		fputs("</td><td>", f);
		html_escape(f, t->row[r].metric);
		fputs("</td>", f);
		for (c = 0; c < t->ncols; c++) {
			int sign = cmp_summary_sign(&s, c);

			cmp_summary_text(cell, sizeof(cell), &s, c,
					 cmp_diff_unit(&t->row[r]));
			if (sign)
				fprintf(f, "<td class=\"%s\">",
					sign > 0 ? "better" : "worse");
			else
				fputs("<td>", f);
			html_escape(f, cell);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

const char html_page_style[] =
"body{font-family:sans-serif;margin:2em;max-width:80em;color:#222}"
"pre{background:#f6f6f6;padding:1em;overflow-x:auto;font-size:90%}"
"table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .8em}"
"td.better{color:#17631c}td.worse{color:#a11}.note{color:#777}"
".plot svg{max-width:100%;height:auto}";

static void write_page(FILE *f, const struct cmp_table *t,
		       const struct res_set *sets, int nsets,
		       const struct html_opts *o, bool plots)
{
	int i, r;

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		   "<title>");
	html_escape(f, o->title);
	fprintf(f, "</title><style>%s</style></head><body>\n<h1>", html_page_style);
	html_escape(f, o->title);
	fputs("</h1>\n<p>Inputs:</p><ul>", f);
	for (i = 0; i < nsets; i++) {
		fputs("<li>", f);
		html_escape(f, sets[i].path);
		fprintf(f, " (%s)</li>", sets[i].kind[0] ? sets[i].kind : "results");
	}
	fputs("</ul>\n<h2>Summary</h2>\n", f);
	summary_table(f, t);
	if (!plots)
		fprintf(f, "<p class=\"note\">%s: tables only.</p>\n",
			o->no_plots ? "plots left out (--no-plots)" :
				      "gnuplot is not installed");
	if (plots && any_idle(t)) {
		fputs("<h2>Idle states</h2>\n", f);
		plot_residency(f, t, o);
		plot_misses(f, t, o);
		plot_energy_latency(f, t, o);
	}
	if (plots && t->col[0].rs->replay) {
		fputs("<h2>Replay</h2>\n", f);
		plot_idle_histogram(f, t->col[0].rs->replay, o);
		plot_vs_oracle(f, t, false, o);
		plot_vs_oracle(f, t, true, o);
	}
	pre_block(f, t, cmp_print_idle);
	fputs("<h2>Benchmarks (mmtests style)</h2>\n", f);
	pre_block(f, t, cmp_print_mmtests);
	fputs("<h2>Normalized</h2>\n", f);
	pre_block(f, t, cmp_print_normalized);
	if (plots && any_repeated(t)) {
		fputs("<h2>Every run</h2>\n", f);
		for (r = 0; r < t->nrows; r++)
			if (row_repeated(t, r))
				plot_runs(f, t, r, o);
	}
	fprintf(f, "<p class=\"note\">Made by idlelab %s.</p>\n</body></html>\n",
		PACKAGE_VERSION);
}

struct page {
	const struct cmp_table	*t;
	const struct res_set	*sets;
	int			nsets;
	const struct html_opts	*o;
	bool			plots;
};

static int write_page_cb(FILE *f, void *ctx, struct idl_err *err)
{
	struct page *pg = ctx;

	(void)err;
	write_page(f, pg->t, pg->sets, pg->nsets, pg->o, pg->plots);
	plot_close();
	return 0;
}

int html_report_write(const char *path, const struct cmp_table *t,
		      const struct res_set *sets, int nsets,
		      const struct html_opts *o, struct idl_err *err)
{
	struct page pg = {
		t, sets, nsets, o, !o->no_plots && plot_available(o->gnuplot)
	};

	return idl_write_atomic(path, write_page_cb, &pg, err);
}
