// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab compare BASELINE OTHER...: comparison tables from live results
 * directories and replay results files.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "error.h"
#include "options.h"
#include "pareto.h"

#define MAX_INPUTS	16

static const char compare_usage[] =
"usage: idlelab compare [OPTIONS] BASELINE [OTHER...]\n"
"\n"
"Compare results (live results directories or replay JSON files).  The\n"
"columns are every configuration of every input; the first is the baseline.\n"
"On the results of a sweep (idlelab sweep, merge), print the Pareto front\n"
"of its configurations and where the defaults stand (doc/sweep.md).\n";

/* The tables of text output; --style STYLE chooses styles[STYLE]. */
enum cmp_style { STYLE_MMTESTS = 1, STYLE_NORMALIZED = 2, STYLE_SUMMARY = 4 };
static const int styles[] = {	/* mmtests, normalized, summary, both */
	STYLE_MMTESTS, STYLE_NORMALIZED, STYLE_SUMMARY,
	STYLE_MMTESTS | STYLE_NORMALIZED | STYLE_SUMMARY,
};
#define STYLE_BOTH	3
enum cmp_format { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON };

/* The Pareto fronts of one sweep's results. */
static int compare_sweep(const char *path, int format, int latency)
{
	struct pareto pa;
	struct idl_err err;

	if (format == FORMAT_JSON)
		return idl_usage_error("--format json: a sweep's fronts are "
				       "text or csv");
	if (pareto_load(&pa, path, latency, &err)) {
		pareto_free(&pa);
		idl_err_print(&err);
		return err.status;
	}
	if (format == FORMAT_CSV)
		pareto_print_csv(stdout, &pa);
	else
		pareto_print(stdout, &pa);
	pareto_free(&pa);
	return IDL_EXIT_OK;
}

/* Up to 3 distinct names of @n, then how many more ("a, b, c and 2 more"). */
struct name_list {
	const char	*name[64];
	int		n;
};

static void name_add(struct name_list *l, const char *name)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->name[i], name))
			return;
	if (l->n < 64)
		l->name[l->n++] = name;
}

static void name_text(const struct name_list *l, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < l->n && i < 3 && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? ", " : "", l->name[i]);
	if (l->n > 3 && off < len)
		snprintf(buf + off, len - off, " and %d more", l->n - 3);
}

/*
 * Once per benchmark and column, however many rows lack it: which
 * metrics and which cases (a replay of several traces has a row per
 * metric and trace).
 */
static void report_missing(const struct cmp_table *t)
{
	struct name_list metrics, cases;
	char m[256], k[256];
	int r0, r, c, n, missing;

	for (r0 = 0; r0 < t->nrows; r0++) {
		if (!t->row[r0].first_of_name)
			continue;
		for (c = 0; c < t->ncols; c++) {
			n = missing = 0;
			metrics.n = cases.n = 0;
			for (r = r0; r >= 0; r = t->row[r].next_of_name, n++) {
				/* a row only some columns can have: no gap */
				if (cmp_cell(t, r, c) || t->row[r].only_some)
					continue;
				missing++;
				name_add(&metrics, t->row[r].metric);
				if (t->row[r].kase[0])
					name_add(&cases, t->row[r].kase);
			}
			if (!missing)
				continue;
			name_text(&metrics, m, sizeof(m));
			name_text(&cases, k, sizeof(k));
			idl_warn("%s: no runs in '%s' in %d of %d row%s "
				 "(%s%s%s; shown as n/a)", t->row[r0].name,
				 t->col[c].title, missing, n, n == 1 ? "" : "s",
				 m, cases.n == 1 ? "; case " : cases.n ?
				 "; cases " : "", k);
		}
	}
}

int cmd_compare(int argc, char **argv)
{
	/* -1: not given (a sweep's comparison takes neither) */
	int style = -1, format = FORMAT_TEXT, rule = -1;
	int latency = PARETO_LAT_MEAN;
	const struct idl_option opts[] = {
		IDL_OPT_CHOICE('s', "style", &style, "STYLE",
			"mmtests, normalized, summary or both (default both: "
			"mmtests + normalized + summary)",
			"mmtests", "normalized", "summary", "both"),
		IDL_OPT_CHOICE('f', "format", &format, "FORMAT",
			"text (default), csv or json", "text", "csv", "json"),
		/* in the order of enum stat_sig_rule */
		IDL_OPT_CHOICE('S', "significance", &rule, "RULE",
			"ttest (p < 0.10, default) or ci (95% bands)",
			"ttest", "ci"),
		/* in the order of enum pareto_latency */
		IDL_OPT_CHOICE(0, "latency", &latency, "WHICH",
			"a sweep's latency objective: mean (default) or p99",
			"mean", "p99"),
		IDL_OPT_END
	};
	const struct idl_cmdline cl = {
		.usage = compare_usage, .opts = opts, .operand = "BASELINE",
		.min_operands = 1, .max_operands = MAX_INPUTS,
	};
	struct res_set sets[MAX_INPUTS];
	struct cmp_table t;
	struct idl_err err;
	int first = idl_parse_options(argc, argv, &cl), i, n;

	if (first < 0)
		return idl_opts_status(first);
	n = argc - first;
	for (i = 0; i < n; i++)
		if (pareto_is_sweep(argv[first + i])) {
			if (n > 1)
				return idl_usage_error("%s is a sweep's "
					"results: compare it alone",
					argv[first + i]);
			if (style >= 0 || rule >= 0)
				return idl_usage_error("--style and "
					"--significance are for benchmark "
					"runs, not a sweep's results");
			return compare_sweep(argv[first], format, latency);
		}
	if (style < 0)
		style = STYLE_BOTH;
	if (rule < 0)
		rule = STAT_SIG_TTEST;
	if (results_load_all(argv + first, n, sets, &err)) {
		idl_err_print(&err);
		return err.status;
	}
	if (cmp_table_build(&t, sets, n, rule, &err)) {
		idl_err_print(&err);
		for (i = 0; i < n; i++)
			results_free(&sets[i]);
		return err.status;
	}
	report_missing(&t);

	if (format == FORMAT_CSV) {
		cmp_print_csv(stdout, &t);
	} else if (format == FORMAT_JSON) {
		cmp_print_json(stdout, &t);
	} else {
		if (styles[style] & STYLE_MMTESTS)
			cmp_print_mmtests(stdout, &t);
		if (styles[style] & STYLE_NORMALIZED)
			cmp_print_normalized(stdout, &t);
		if (styles[style] & STYLE_SUMMARY)
			cmp_print_summary(stdout, &t);
		cmp_print_idle(stdout, &t);
	}
	cmp_table_free(&t);
	for (i = 0; i < n; i++)
		results_free(&sets[i]);
	return IDL_EXIT_OK;	/* the dispatcher checks standard output */
}
