// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab report RESULTS... -o report.html: one self-contained page with
 * the comparison tables and plots.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "error.h"
#include "html.h"

#define MAX_INPUTS	16

static const char report_usage[] =
"usage: idlelab report [OPTIONS] -o FILE.html RESULTS...\n"
"\n"
"Write a self-contained HTML page (tables and gnuplot SVG plots) comparing\n"
"results; the first configuration of the first input is the baseline.\n"
"\n"
"  -o, --output FILE          the page to write (required)\n"
"  -t, --title TEXT           page title (default \"idlelab report\")\n"
"  -S, --significance RULE    ttest (default) | ci\n"
"      --no-plots             tables only\n"
"  -h, --help                 this help\n";

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "significance", required_argument, NULL, 'S' },
		{ "no-plots", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct html_opts o = { .title = "idlelab report" };
	enum stat_sig_rule rule = STAT_SIG_TTEST;
	struct res_set sets[MAX_INPUTS];
	const char *out = NULL;
	struct cmp_table t;
	struct idl_err err;
	int opt, n, i, ret;

	while ((opt = getopt_long(argc, argv, "o:t:S:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 't':
			o.title = optarg;
			break;
		case 'S':
			if (stat_parse_rule(optarg, &rule))
				idl_die(IDL_EXIT_BADINPUT,
					"unknown significance rule '%s' (ttest, ci)", optarg);
			break;
		case 'P':
			o.no_plots = true;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return IDL_EXIT_OK;
		default:
			fputs(report_usage, stderr);
			return IDL_EXIT_BADINPUT;
		}
	}
	n = argc - optind;
	if (!out || n < 1 || n > MAX_INPUTS) {
		fputs(report_usage, stderr);
		return IDL_EXIT_BADINPUT;
	}
	if (results_load_all(argv + optind, n, sets, &err)) {
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
