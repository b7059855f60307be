// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cyclictest (rt-tests): timer wakeup latency per thread for the
 * duration.  Always with --laptop, so that it never writes
 * /dev/cpu_dma_latency.
 */
#include "config.h"

#include <string.h>

#include "bench.h"

/* "T: 0 (17953) P: 0 I:1000 C:   1996 Min:     49 Act:  104 Avg:  106 Max:    3022" */
int parse_cyclictest(const char *out, struct bench_result *r,
		     struct idl_err *err)
{
	double sum = 0, cycles = 0, max = 0, min = -1;
	const char *p = out;
	int threads = 0;

	while ((p = strstr(p, "T:")) != NULL) {
		double c, mn, avg, mx;
		const char *line = p;
		const char *eol = strchrnul(p, '\n');

		p = eol;
		if (line != out && line[-1] != '\n')
			continue;
		if (bench_num_after(line, " C:", &c) ||
		    bench_num_after(line, "Min:", &mn) ||
		    bench_num_after(line, "Avg:", &avg) ||
		    bench_num_after(line, "Max:", &mx) ||
		    strstr(line, "Max:") > eol)
			continue;
		sum += avg * c;
		cycles += c;
		if (mx > max)
			max = mx;
		if (min < 0 || mn < min)
			min = mn;
		threads++;
	}
	if (!threads || cycles <= 0)
		return bench_missing(err, "cyclictest", "'T:' summary lines");
	bench_add(r, "latency-avg", "", "us", false, sum / cycles);
	bench_add(r, "latency-max", "", "us", false, max);
	bench_add(r, "latency-min", "", "us", false, min);
	return 0;
}

static int cyclictest_run(const struct bench_args *a, struct bench_result *r,
			  struct idl_err *err)
{
	char th[16], in[16], d[16];
	char *argv[] = { "cyclictest", "--laptop", "-m", "-q", "-t", th, "-i",
			 in, "-D", d, NULL };

	err->status = 0;
	bench_fmt(th, sizeof(th), "%.0f", bench_opt_num(a, "threads", err));
	bench_fmt(in, sizeof(in), "%.0f", bench_opt_num(a, "interval", err));
	if (err->status)
		return -1;
	bench_fmt(d, sizeof(d), "%.0f", bench_whole_s(a));
	return bench_tool_once(a, argv, parse_cyclictest, r, err);
}

const struct bench_def bench_def_cyclictest = {
	.name = "cyclictest",
	.summary = "cyclictest --laptop: wakeup latency",
	.binary = "cyclictest",
	.package = "rt-tests",
	.opts = (const struct bench_opt[]){
		{ "threads", BENCH_DFL_CPUS, "measuring threads (-t)" },
		{ "interval", "1000", "wakeup interval, us (-i)" },
		{ NULL }
	},
	.run = cyclictest_run,
};
