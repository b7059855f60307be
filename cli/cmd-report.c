// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab report RESULTS... -o report.html: one self-contained page with
 * the comparison tables and plots.
 */
#include "config.h"

#include <stdio.h>

#include "cli.h"
#include "error.h"
#include "html.h"
#include "options.h"

#define MAX_INPUTS	16

static const char report_usage[] =
"usage: idlelab report [OPTIONS] -o FILE.html RESULTS...\n"
"\n"
"Write a self-contained HTML page (tables and gnuplot SVG plots) comparing\n"
"results; the first configuration of the first input is the baseline.\n"
"On the results of a sweep, plot its configurations and their Pareto\n"
"front (doc/sweep.md).\n";

/* The page of one sweep's results: its configurations and fronts. */
static int report_sweep(const char *path, const char *out,
			const struct html_opts *o)
{
	struct pareto pa;
	struct idl_err err;
	int ret = pareto_load(&pa, path, PARETO_LAT_MEAN, &err);

	if (!ret)
		ret = html_pareto_write(out, &pa, o, &err);
	pareto_free(&pa);
	if (ret)
		idl_err_print(&err);
	return ret ? err.status : IDL_EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct html_opts o = { .title = "idlelab report" };
	int rule = -1;		/* -1: not given (not for a sweep) */
	const char *out = NULL;
	const struct idl_option opts[] = {
		IDL_OPT_OUTPUT('o', "output", &out, "FILE",
			"the page to write (required)"),
		IDL_OPT_STR('t', "title", &o.title, "TEXT",
			"page title (default \"idlelab report\")"),
		/* in the order of enum stat_sig_rule */
		IDL_OPT_CHOICE('S', "significance", &rule, "RULE",
			"ttest (default) or ci", "ttest", "ci"),
		IDL_OPT_FLAG(0, "no-plots", &o.no_plots, "tables only"),
		IDL_OPT_END
	};
	const struct idl_cmdline cl = {
		.usage = report_usage, .opts = opts, .operand = "RESULTS",
		.min_operands = 1, .max_operands = MAX_INPUTS,
		.input_operands = true,
	};
	struct res_set sets[MAX_INPUTS];
	struct cmp_table t;
	struct idl_err err;
	int first = idl_parse_options(argc, argv, &cl), n, i, ret;

	if (first < 0)
		return idl_opts_status(first);
	if (!out)
		return idl_usage_error("-o FILE is required");
	n = argc - first;
	for (i = 0; i < n; i++)
		if (pareto_is_sweep(argv[first + i])) {
			if (n > 1)
				return idl_usage_error("%s is a sweep's "
					"results: report it alone",
					argv[first + i]);
			if (rule >= 0)
				return idl_usage_error("--significance is for "
					"benchmark runs, not a sweep's results");
			return report_sweep(argv[first], out, &o);
		}
	if (rule < 0)
		rule = STAT_SIG_TTEST;
	if (results_load_all(argv + first, n, sets, &err)) {
		idl_err_print(&err);
		return err.status;
	}
	ret = cmp_table_build(&t, sets, n, rule, &err);
	if (!ret)
		ret = html_report_write(out, &t, sets, n, &o, &err);
	if (ret)
		idl_err_print(&err);
	cmp_table_free(&t);
	for (i = 0; i < n; i++)
		results_free(&sets[i]);
	return ret ? err.status : IDL_EXIT_OK;
}
