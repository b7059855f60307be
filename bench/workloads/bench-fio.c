// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fio: 4 KiB random reads (psync) on a scratch file in the run's work
 * directory for the duration: IOPS and completion latency.
 */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

static double fio_pct(json_t *clat, const char *key)
{
	json_t *p = json_object_get(clat, "percentile");

	return json_number_value(json_object_get(p, key));
}

/* fio --output-format=json: jobs[].read.{iops, clat_ns{mean,percentile}} */
int parse_fio_json(const char *out, struct bench_result *r,
		   struct idl_err *err)
{
	const char *start = strchr(out, '{');
	json_error_t je;
	json_t *root, *jobs, *job;
	double iops = 0, mean = 0, p50 = 0, p99 = 0;
	size_t i, n;

	root = start ? json_loads(start, JSON_DISABLE_EOF_CHECK, &je) : NULL;
	if (!root)
		return bench_missing(err, "fio", "JSON report");
	jobs = json_object_get(root, "jobs");
	n = json_array_size(jobs);
	for (i = 0; i < n; i++) {
		json_t *rd, *clat;

		job = json_array_get(jobs, i);
		rd = json_object_get(job, "read");
		clat = json_object_get(rd, "clat_ns");
		iops += json_number_value(json_object_get(rd, "iops"));
		mean += json_number_value(json_object_get(clat, "mean"));
		p50 += fio_pct(clat, "50.000000");
		p99 += fio_pct(clat, "99.000000");
	}
	json_decref(root);
	if (!n)
		return bench_missing(err, "fio", "jobs");
	bench_add(r, "iops", "", "ops/s", true, iops);
	bench_add(r, "clat-mean", "", "us", false, mean / (double)n / 1e3);
	bench_add(r, "clat-p50", "", "us", false, p50 / (double)n / 1e3);
	bench_add(r, "clat-p99", "", "us", false, p99 / (double)n / 1e3);
	return 0;
}

static int fio_run(const struct bench_args *a, struct bench_result *r,
		   struct idl_err *err)
{
	char dir[4200], size[32], rt[16], sz[24];
	char *argv[] = { "fio", "--name=idlelab", dir, "--rw=randread",
			 "--bs=4k", size, "--ioengine=psync", rt,
			 "--time_based", "--unlink=1", "--output-format=json",
			 NULL };

	if (bench_opt_str(a, "size", sz, sizeof(sz), err))
		return -1;
	snprintf(size, sizeof(size), "--size=%s", sz);
	snprintf(dir, sizeof(dir), "--directory=%s",
		 a->workdir ? a->workdir : "/tmp");
	bench_fmt(rt, sizeof(rt), "--runtime=%.0f", bench_whole_s(a));
	return bench_tool_once(a, argv, parse_fio_json, r, err);
}

const struct bench_def bench_def_fio = {
	.name = "fio",
	.summary = "fio random reads on a scratch file: iops, latency",
	.binary = "fio",
	.package = "fio",
	.opts = (const struct bench_opt[]){
		{ "size", "16m", "size of the scratch file (fio --size)" },
		{ NULL }
	},
	.run = fio_run,
};
