// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf-pipe (linux-perf): perf bench sched pipe, repeated for the
 * duration: two tasks passing a token through a pipe.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* "Total time: 0.809 [sec]", "40.451400 usecs/op", "24721 ops/sec" */
int parse_perf_pipe(const char *out, struct bench_result *r,
		    struct idl_err *err)
{
	const char *p;
	double t, v;

	if (bench_num_after(out, "Total time: ", &t))
		return bench_missing(err, "perf bench sched pipe",
				     "'Total time'");
	bench_add(r, "time", "", "s", false, t);
	p = strstr(out, "usecs/op");
	if (p) {
		while (p > out && p[-1] == ' ')
			p--;
		while (p > out && (p[-1] == '.' || (p[-1] >= '0' &&
						    p[-1] <= '9')))
			p--;
		v = strtod(p, NULL);
		bench_add(r, "usecs/op", "", "us", false, v);
	}
	p = strstr(out, " ops/sec");
	if (p) {
		while (p > out && p[-1] >= '0' && p[-1] <= '9')
			p--;
		bench_add(r, "ops/s", "", "ops/s", true, strtod(p, NULL));
	}
	return 0;
}

static int perf_pipe_run(const struct bench_args *a, struct bench_result *r,
			 struct idl_err *err)
{
	char l[16];
	char *argv[] = { "perf", "bench", "sched", "pipe", "-l", l, NULL };

	err->status = 0;
	bench_fmt(l, sizeof(l), "%.0f", bench_opt_num(a, "loops", err));
	if (err->status)
		return -1;
	return bench_tool_repeat(a, argv, parse_perf_pipe, r, err);
}

const struct bench_def bench_def_perf_pipe = {
	.name = "perf-pipe",
	.summary = "perf bench sched pipe: usecs/op, ops/s",
	.binary = "perf",
	.package = "linux-perf",
	.opts = (const struct bench_opt[]){
		{ "loops", "20000", "round trips of one repetition (-l)" },
		{ NULL }
	},
	.run = perf_pipe_run,
};
