// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tbench (dbench): tbench_srv and tbench clients over 127.0.0.1 for
 * the duration: throughput and the worst latency.
 */
#include "config.h"

#include <string.h>

#include "bench.h"

/* "Throughput 505.861 MB/sec  2 clients  2 procs  max_latency=4.116 ms" */
int parse_tbench(const char *out, struct bench_result *r,
		 struct idl_err *err)
{
	double tp, lat;

	if (bench_num_after(out, "\nThroughput ", &tp))
		return bench_missing(err, "tbench", "'Throughput' line");
	bench_add(r, "throughput", "", "MB/s", true, tp);
	if (!bench_num_after(strstr(out, "\nThroughput "), "max_latency=",
			     &lat))
		bench_add(r, "max-latency", "", "ms", false, lat);
	return 0;
}

static int tbench_run(const struct bench_args *a, struct bench_result *r,
		      struct idl_err *err)
{
	char c[16], t[16];
	char *srv[] = { "tbench_srv", NULL };
	char *argv[] = { "tbench", "-t", t, c, "127.0.0.1", NULL };

	err->status = 0;
	bench_fmt(c, sizeof(c), "%.0f", bench_opt_num(a, "clients", err));
	if (err->status)
		return -1;
	bench_fmt(t, sizeof(t), "%.0f", bench_whole_s(a));
	return bench_tool_served(a, srv, "tbench_srv", 7003, argv,
				 parse_tbench, r, err);
}

const struct bench_def bench_def_tbench = {
	.name = "tbench",
	.summary = "tbench over 127.0.0.1: throughput, max latency",
	.binary = "tbench",
	.package = "dbench",
	.opts = (const struct bench_opt[]){
		{ "clients", BENCH_DFL_CPUS, "client processes" },
		{ NULL }
	},
	.run = tbench_run,
};
