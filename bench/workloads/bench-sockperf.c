// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sockperf: a TCP ping-pong over 127.0.0.1 against its own server for
 * the duration: latency average and percentiles.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* "Summary: Latency is 12.482 usec", "---> percentile 99.000 =  54.866" */
int parse_sockperf(const char *out, struct bench_result *r,
		   struct idl_err *err)
{
	static const struct { const char *key, *name; } pct[] = {
		{ "percentile 50.000 =", "latency-p50" },
		{ "percentile 90.000 =", "latency-p90" },
		{ "percentile 99.000 =", "latency-p99" },
		{ "percentile 99.900 =", "latency-p99.9" },
	};
	char *s = strdup(out);
	double v;
	size_t i;

	if (!s)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	strip_ansi(s);
	if (bench_num_after(s, "Summary: Latency is ", &v)) {
		free(s);
		return bench_missing(err, "sockperf",
				     "'Summary: Latency' line");
	}
	bench_add(r, "latency-avg", "", "us", false, v);
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		if (!bench_num_after(s, pct[i].key, &v))
			bench_add(r, pct[i].name, "", "us", false, v);
	free(s);
	return 0;
}

static int sockperf_run(const struct bench_args *a, struct bench_result *r,
			struct idl_err *err)
{
	char p[16], t[16];
	char *srv[] = { "sockperf", "sr", "--tcp", "-i", "127.0.0.1", "-p", p,
			NULL };
	char *argv[] = { "sockperf", "pp", "--tcp", "-i", "127.0.0.1", "-p", p,
			 "-t", t, NULL };
	double port;

	err->status = 0;
	port = bench_opt_num(a, "port", err);
	if (err->status)
		return -1;
	bench_fmt(p, sizeof(p), "%.0f", port);
	bench_fmt(t, sizeof(t), "%.0f", bench_whole_s(a));
	return bench_tool_served(a, srv, "sockperf server", (int)port, argv,
				 parse_sockperf, r, err);
}

const struct bench_def bench_def_sockperf = {
	.name = "sockperf",
	.summary = "sockperf ping-pong over 127.0.0.1: latency",
	.binary = "sockperf",
	.package = "sockperf",
	.opts = (const struct bench_opt[]){
		{ "port", "11111", "TCP port of the server on 127.0.0.1" },
		{ NULL }
	},
	.run = sockperf_run,
};
