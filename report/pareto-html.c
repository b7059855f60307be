// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report of a sweep: every configuration's whole-sweep energy regret
 * against its exit latency, the Pareto front joined by a line and the
 * defaults marked, then the fronts as text (doc/sweep.md).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "html.h"

/* Data block @name: "x y label" of the points @want selects. */
static int points(FILE *s, const char *name, const struct pareto *pa,
		  const int *idx, int n, int want)
{
	const struct pareto_point *p = pa->all;
	int i, k = 0;

	fprintf(s, "$%s << EOD\n", name);
	for (i = 0; i < n; i++) {
		const struct pareto_point *q = &p[idx[i]];

		if (!q->valid || (want == 1 && !q->front) ||
		    (want == 2 && !q->defaults))
			continue;
		fprintf(s, "%.10g %.10g \"", q->obj[0], q->obj[1]);
		plot_quote(s, q->config);
		fputs("\"\n", s);
		k++;
	}
	fputs("EOD\n", s);
	return k;
}

static void plot_front(FILE *f, const struct pareto *pa,
		       const struct html_opts *o)
{
	int *idx = calloc((size_t)pa->nconf, sizeof(*idx));
	int nd;
	struct plot p;

	if (!idx || plot_begin(&p, o->gnuplot, "configurations and the "
			       "Pareto front (whole sweep)", 900, 480)) {
		free(idx);
		return;
	}
	pareto_order(pa->all, pa->nconf, false, idx);
	fprintf(p.script, "set xlabel '%s'\nset ylabel '%s'\n",
		pareto_obj_name(pa, 0, true), pareto_obj_name(pa, 1, true));
	points(p.script, "all", pa, idx, pa->nconf, 0);
	points(p.script, "front", pa, idx, pa->nconf, 1);
	nd = points(p.script, "def", pa, idx, pa->nconf, 2);
	fputs("plot $all using 1:2 with points pt 7 ps 0.8 lc rgb '#9999aa' "
	      "title 'configurations', "
	      "$front using 1:2 with linespoints pt 7 ps 1.2 lw 2 "
	      "lc rgb '#17631c' title 'Pareto front', "
	      "$front using 1:2:3 with labels offset 1,0.8 left font ',9' "
	      "noenhanced notitle", p.script);
	if (nd)
		fputs(", $def using 1:2 with points pt 6 ps 2.2 lw 2 "
		      "lc rgb '#a11' title 'defaults', $def using 1:2:3 with "
		      "labels offset 1,-0.8 left font ',9' tc rgb '#a11' "
		      "noenhanced notitle", p.script);
	fputc('\n', p.script);
	free(idx);
	html_svg(f, &p, "pareto");
}

static void text_block(FILE *f, const struct pareto *pa)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	pareto_print(m, pa);
	fclose(m);
	fputs("<pre>", f);
	html_escape(f, buf);
	fputs("</pre>\n", f);
	free(buf);
}

struct page {
	const struct pareto	*pa;
	const struct html_opts	*o;
	bool			plots;
};

static int write_page(FILE *f, void *ctx, struct idl_err *err)
{
	const struct page *pg = ctx;

	(void)err;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	      "charset=\"utf-8\"><title>", f);
	html_escape(f, pg->o->title);
	fprintf(f, "</title><style>%s</style></head><body>\n<h1>",
		html_page_style);
	html_escape(f, pg->o->title);
	fprintf(f, "</h1>\n<p>Sweep %s: %d configurations, %d trace &times; "
		"table groups.</p>\n", pg->pa->id, pg->pa->nconf,
		pg->pa->ngroup);
	if (pg->plots) {
		plot_front(f, pg->pa, pg->o);
		plot_close();
	} else
		fprintf(f, "<p class=\"note\">%s: tables only.</p>\n",
			pg->o->no_plots ? "plots left out (--no-plots)" :
			"gnuplot is not installed");
	text_block(f, pg->pa);
	fprintf(f, "<p class=\"note\">Made by idlelab %s.</p>\n</body>"
		"</html>\n", PACKAGE_VERSION);
	return 0;
}

int html_pareto_write(const char *path, const struct pareto *pa,
		      const struct html_opts *o, struct idl_err *err)
{
	struct page pg = { pa, o, !o->no_plots && plot_available(o->gnuplot) };

	return idl_write_atomic(path, write_page, &pg, err);
}
