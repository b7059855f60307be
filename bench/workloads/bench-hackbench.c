// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hackbench (rt-tests): groups of senders and receivers passing
 * messages, repeated for the duration; the time of one repetition.
 */
#include "config.h"

#include <stdio.h>

#include "bench.h"

/* "Time: 0.274" */
int parse_hackbench(const char *out, struct bench_result *r,
		    struct idl_err *err)
{
	double t;

	if (bench_num_after(out, "\nTime: ", &t) &&
	    bench_num_after(out, "Time: ", &t))
		return bench_missing(err, "hackbench", "'Time:' line");
	bench_add(r, "time", "", "s", false, t);
	return 0;
}

static int hackbench_run(const struct bench_args *a, struct bench_result *r,
			 struct idl_err *err)
{
	char g[16], l[16];
	char *argv[8] = { "hackbench", "-g", g, "-l", l, NULL };
	int n = 5;

	err->status = 0;
	bench_fmt(g, sizeof(g), "%.0f", bench_opt_num(a, "groups", err));
	bench_fmt(l, sizeof(l), "%.0f", bench_opt_num(a, "loops", err));
	if (err->status)
		return -1;
	if (bench_opt_num(a, "pipe", err) > 0)
		argv[n++] = "-p";
	if (bench_opt_num(a, "threads", err) > 0)
		argv[n++] = "-T";
	argv[n] = NULL;
	return bench_tool_repeat(a, argv, parse_hackbench, r, err);
}

const struct bench_def bench_def_hackbench = {
	.name = "hackbench",
	.summary = "hackbench groups of senders/receivers: time",
	.binary = "hackbench",
	.package = "rt-tests",
	.opts = (const struct bench_opt[]){
		{ "groups", "4", "groups of senders and receivers (-g)" },
		{ "loops", "200", "messages each sender sends (-l)" },
		{ "pipe", "0", "1: pipes instead of sockets (-p)" },
		{ "threads", "0", "1: threads instead of processes (-T)" },
		{ NULL }
	},
	.run = hackbench_run,
};
