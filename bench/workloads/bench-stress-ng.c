// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stress-ng: one stressor for the duration with --metrics-brief; cyclic
 * (SCHED_RR) also reports its latency percentiles.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/*
 * "stress-ng: metrc: [PID] timer  43429  2.01  0.02  1.98  21603.94 ..."
 * and, for cyclic, "cyclic:   99.00%:     126307 ns" percentile lines.
 */
static int stress_ng_metrics(const char *out, const char *stressor,
			     struct bench_result *r)
{
	const char *p = out;
	size_t sl = strlen(stressor);

	while ((p = strstr(p, "metrc: [")) != NULL) {
		double v[6];
		char *end;
		int i;

		p = strchr(p, ']');
		if (!p)
			break;
		p++;
		while (*p == ' ')
			p++;
		if (strncmp(p, stressor, sl) || p[sl] != ' ')
			continue;
		end = (char *)p + sl;
		for (i = 0; i < 6; i++) {
			const char *s = end;

			v[i] = strtod(s, &end);
			if (end == s)
				break;
		}
		if (i < 5)
			continue;
		bench_add(r, "bogo-ops/s", stressor, "ops/s", true, v[4]);
		bench_add(r, "cpu-time", stressor, "s", false, v[2] + v[3]);
		return 1;
	}
	return 0;
}

static int stress_ng_cyclic(const char *out, struct bench_result *r)
{
	static const struct { const char *key, *name; } pct[] = {
		{ "cyclic:   50.00%:", "latency-p50" },
		{ "cyclic:   90.00%:", "latency-p90" },
		{ "cyclic:   99.00%:", "latency-p99" },
		{ "cyclic:   99.90%:", "latency-p99.9" },
	};
	double v;
	size_t i;
	int n = 0;

	if (!bench_num_after(out, "cyclic:   mean: ", &v)) {
		bench_add(r, "latency-mean", "cyclic", "us", false, v / 1e3);
		n++;
	}
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		if (!bench_num_after(out, pct[i].key, &v)) {
			bench_add(r, pct[i].name, "cyclic", "us", false,
				  v / 1e3);
			n++;
		}
	if (!bench_num_after(out, ", max: ", &v)) {
		bench_add(r, "latency-max", "cyclic", "us", false, v / 1e3);
		n++;
	}
	return n;
}

int parse_stress_ng(const char *out, const char *stressor,
		    struct bench_result *r, struct idl_err *err)
{
	int n = stress_ng_metrics(out, stressor, r);

	if (!strcmp(stressor, "cyclic"))
		n += stress_ng_cyclic(out, r);
	if (!n)
		return bench_missing(err, "stress-ng",
				     "metrics for the stressor");
	return 0;
}

/* Stressors that leave CPUs idle between wakeups: timers, sleeps, waits. */
#define STRESSORS	"timer hrtimers nanosleep futex pipe switch cyclic " \
			"sleep poll clock"

static bool known_stressor(const char *st)
{
	const char *p = STRESSORS;
	size_t n;

	for (; *p; p += n + strspn(p + n, " ")) {
		n = strcspn(p, " ");
		if (n == strlen(st) && !strncmp(p, st, n))
			return true;
	}
	return false;
}

static int stress_ng_run(const struct bench_args *a, struct bench_result *r,
			 struct idl_err *err)
{
	char st[32], opt[48], w[16], t[16], sl[24];
	char *argv[16] = { "stress-ng", opt, w, "-t", t, "--metrics-brief" };
	char *out = NULL;
	int n = 6, rc;

	if (bench_opt_str(a, "stressor", st, sizeof(st), err))
		return -1;
	if (!known_stressor(st))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "stress-ng: stressor '%s' not supported "
				   "(" STRESSORS ")", st);
	err->status = 0;
	snprintf(opt, sizeof(opt), "--%s", st);
	bench_fmt(w, sizeof(w), "%.0f", bench_opt_num(a, "workers", err));
	bench_fmt(t, sizeof(t), "%.0fs", bench_whole_s(a));
	if (!strcmp(st, "cyclic")) {
		bench_fmt(sl, sizeof(sl), "%.0f",
			  bench_opt_num(a, "sleep", err));
		argv[n++] = "--cyclic-policy";
		argv[n++] = "rr";
		argv[n++] = "--cyclic-sleep";
		argv[n++] = sl;
	}
	if (err->status)
		return -1;
	argv[n] = NULL;
	rc = bench_tool_output(a, argv, &out, err);
	if (!rc && !bench_stop)
		rc = parse_stress_ng(out, st, r, err);
	free(out);
	return rc;
}

const struct bench_def bench_def_stress_ng = {
	.name = "stress-ng",
	.summary = "stress-ng stressor (stressor=timer|hrtimers|...)",
	.binary = "stress-ng",
	.package = "stress-ng",
	.opts = (const struct bench_opt[]){
		{ "stressor", "timer", "one of: " STRESSORS },
		{ "workers", "1", "instances of the stressor" },
		{ "sleep", "500000", "cyclic only: sleep between wakeups, ns" },
		{ NULL }
	},
	.run = stress_ng_run,
};
