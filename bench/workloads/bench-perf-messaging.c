// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf-messaging (linux-perf): perf bench sched messaging, repeated
 * for the duration: hackbench's groups, as perf runs them.
 */
#include "config.h"

#include <stdio.h>

#include "bench.h"

int parse_perf_messaging(const char *out, struct bench_result *r,
			 struct idl_err *err)
{
	double t;

	if (bench_num_after(out, "Total time: ", &t))
		return bench_missing(err, "perf bench sched messaging",
				     "'Total time'");
	bench_add(r, "time", "", "s", false, t);
	return 0;
}

static int perf_messaging_run(const struct bench_args *a,
			      struct bench_result *r, struct idl_err *err)
{
	char g[16], l[16];
	char *argv[] = { "perf", "bench", "sched", "messaging", "-g", g,
			 "-l", l, NULL };

	err->status = 0;
	bench_fmt(g, sizeof(g), "%.0f", bench_opt_num(a, "groups", err));
	bench_fmt(l, sizeof(l), "%.0f", bench_opt_num(a, "loops", err));
	if (err->status)
		return -1;
	return bench_tool_repeat(a, argv, parse_perf_messaging, r, err);
}

const struct bench_def bench_def_perf_messaging = {
	.name = "perf-messaging",
	.summary = "perf bench sched messaging: time",
	.binary = "perf",
	.package = "linux-perf",
	.opts = (const struct bench_opt[]){
		{ "groups", "2", "groups of senders and receivers (-g)" },
		{ "loops", "100", "messages each sender sends (-l)" },
		{ NULL }
	},
	.run = perf_messaging_run,
};
