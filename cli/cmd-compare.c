// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab compare BASELINE OTHER...: comparison tables from live results
 * directories and replay results files.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "error.h"

#define MAX_INPUTS	16

static const char compare_usage[] =
"usage: idlelab compare [OPTIONS] BASELINE [OTHER...]\n"
"\n"
"Compare results (live results directories or replay JSON files).  The\n"
"columns are every configuration of every input; the first is the baseline.\n"
"\n"
"  -s, --style STYLE          mmtests | normalized | summary | both (default both:\n"
"                             mmtests + normalized + summary)\n"
"  -f, --format FORMAT        text | csv | json (default text)\n"
"  -S, --significance RULE    ttest (p < 0.10, default) | ci (95%% bands)\n"
"  -h, --help                 this help\n";

enum cmp_style { STYLE_MMTESTS = 1, STYLE_NORMALIZED = 2, STYLE_SUMMARY = 4 };

static int parse_style(const char *s)
{
	if (!strcmp(s, "mmtests"))
		return STYLE_MMTESTS;
	if (!strcmp(s, "normalized"))
		return STYLE_NORMALIZED;
	if (!strcmp(s, "summary"))
		return STYLE_SUMMARY;
	if (!strcmp(s, "both"))
		return STYLE_MMTESTS | STYLE_NORMALIZED | STYLE_SUMMARY;
	idl_die(IDL_EXIT_BADINPUT,
		"unknown style '%s' (mmtests, normalized, summary, both)", s);
}

static void report_missing(const struct cmp_table *t)
{
	int r, c;

	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++)
			if (!cmp_cell(t, r, c))
				idl_warn("%s %s%s%s: no runs in '%s' (shown as n/a)",
					 t->row[r].name, t->row[r].metric,
					 t->row[r].kase[0] ? "-" : "",
					 t->row[r].kase, t->col[c].title);
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "style", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "significance", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct res_set sets[MAX_INPUTS];
	enum stat_sig_rule rule = STAT_SIG_TTEST;
	int style = STYLE_MMTESTS | STYLE_NORMALIZED | STYLE_SUMMARY;
	const char *format = "text";
	struct cmp_table t;
	struct idl_err err;
	int opt, i, n;

	while ((opt = getopt_long(argc, argv, "s:f:S:h", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			style = parse_style(optarg);
			break;
		case 'f':
			format = optarg;
			if (strcmp(format, "text") && strcmp(format, "csv") &&
			    strcmp(format, "json"))
				idl_die(IDL_EXIT_BADINPUT,
					"unknown format '%s' (text, csv, json)", format);
			break;
		case 'S':
			if (stat_parse_rule(optarg, &rule))
				idl_die(IDL_EXIT_BADINPUT,
					"unknown significance rule '%s' (ttest, ci)", optarg);
			break;
		case 'h':
			fputs(compare_usage, stdout);
			return IDL_EXIT_OK;
		default:
			fputs(compare_usage, stderr);
			return IDL_EXIT_BADINPUT;
		}
	}
	n = argc - optind;
	if (n < 1 || n > MAX_INPUTS) {
		fputs(compare_usage, stderr);
		return IDL_EXIT_BADINPUT;
	}
	if (results_load_all(argv + optind, n, sets, &err)) {
		idl_err_print(&err);
		return err.status;
	}
	if (cmp_table_build(&t, sets, n, rule, &err)) {
		idl_err_print(&err);
		return err.status;
	}
	report_missing(&t);

	if (!strcmp(format, "csv")) {
		cmp_print_csv(stdout, &t);
	} else if (!strcmp(format, "json")) {
		cmp_print_json(stdout, &t);
	} else {
		if (style & STYLE_MMTESTS)
			cmp_print_mmtests(stdout, &t);
		if (style & STYLE_NORMALIZED)
			cmp_print_normalized(stdout, &t);
		if (style & STYLE_SUMMARY)
			cmp_print_summary(stdout, &t);
		cmp_print_idle(stdout, &t);
	}
	cmp_table_free(&t);
	for (i = 0; i < n; i++)
		results_free(&sets[i]);
	return IDL_EXIT_OK;	/* the dispatcher checks standard output */
}
