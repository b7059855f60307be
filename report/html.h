/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A self-contained HTML report: the comparison tables and SVG plots
 * rendered by gnuplot (embedded inline, so the page needs no network and
 * no other file).  Without gnuplot the page carries the tables only.
 */
#ifndef IDLELAB_HTML_H
#define IDLELAB_HTML_H

#include "compare.h"
#include "pareto.h"
#include "plot.h"

struct html_opts {
	const char	*title;
	const char	*gnuplot;	/* path or name; NULL = "gnuplot" */
	bool		no_plots;
};

/* Write the page to @path atomically (temp file + rename). */
int html_report_write(const char *path, const struct cmp_table *t,
		      const struct res_set *sets, int nsets,
		      const struct html_opts *o, struct idl_err *err);

/* The Pareto report of a sweep (pareto-html.c). */
int html_pareto_write(const char *path, const struct pareto *pa,
		      const struct html_opts *o, struct idl_err *err);

/* Shared by the pages. */
extern const char html_page_style[];
void html_escape(FILE *f, const char *s);
void html_svg(FILE *f, struct plot *p, const char *what);

#endif /* IDLELAB_HTML_H */
