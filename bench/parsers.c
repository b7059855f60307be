// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parsers of the output of external benchmark tools.  Each takes the
 * whole captured output (stdout and stderr) and adds metrics; the
 * formats are those of the Debian bookworm packages, with recorded
 * samples under tests/fixtures/bench/.
 */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* Number after the first occurrence of @key in @s (NULL-safe). */
static int num_after(const char *s, const char *key, double *v)
{
	const char *p = strstr(s, key);
	char *end;

	if (!p)
		return -1;
	*v = strtod(p + strlen(key), &end);
	return end == p + strlen(key) ? -1 : 0;
}

static int missing(struct idl_err *err, const char *tool, const char *what)
{
	return idl_err_set(err, IDL_EXIT_FAILURE,
			   "%s: output has no %s (tool failed or its "
			   "format changed)", tool, what);
}

void strip_ansi(char *s)
{
	char *w = s;

	while (*s) {
		if (s[0] == '\033' && s[1] == '[') {
			s += 2;
			while (*s && !(*s >= '@' && *s <= '~'))
				s++;
			if (*s)
				s++;
			continue;
		}
		*w++ = *s++;
	}
	*w = '\0';
}

/* "Time: 0.274" */
int parse_hackbench(const char *out, struct bench_result *r,
		    struct idl_err *err)
{
	double t;

	if (num_after(out, "\nTime: ", &t) && num_after(out, "Time: ", &t))
		return missing(err, "hackbench", "'Time:' line");
	bench_add(r, "time", "", "s", false, t);
	return 0;
}

/* "Total time: 0.809 [sec]", "40.451400 usecs/op", "24721 ops/sec" */
int parse_perf_pipe(const char *out, struct bench_result *r,
		    struct idl_err *err)
{
	const char *p;
	double t, v;

	if (num_after(out, "Total time: ", &t))
		return missing(err, "perf bench sched pipe", "'Total time'");
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

int parse_perf_messaging(const char *out, struct bench_result *r,
			 struct idl_err *err)
{
	double t;

	if (num_after(out, "Total time: ", &t))
		return missing(err, "perf bench sched messaging",
			       "'Total time'");
	bench_add(r, "time", "", "s", false, t);
	return 0;
}

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

	if (!num_after(out, "cyclic:   mean: ", &v)) {
		bench_add(r, "latency-mean", "cyclic", "us", false, v / 1e3);
		n++;
	}
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		if (!num_after(out, pct[i].key, &v)) {
			bench_add(r, pct[i].name, "cyclic", "us", false,
				  v / 1e3);
			n++;
		}
	if (!num_after(out, ", max: ", &v)) {
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
		return missing(err, "stress-ng", "metrics for the stressor");
	return 0;
}

/* "Throughput 505.861 MB/sec  2 clients  2 procs  max_latency=4.116 ms" */
int parse_tbench(const char *out, struct bench_result *r,
		 struct idl_err *err)
{
	double tp, lat;

	if (num_after(out, "\nThroughput ", &tp))
		return missing(err, "tbench", "'Throughput' line");
	bench_add(r, "throughput", "", "MB/s", true, tp);
	if (!num_after(strstr(out, "\nThroughput "), "max_latency=", &lat))
		bench_add(r, "max-latency", "", "ms", false, lat);
	return 0;
}

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
	if (num_after(s, "Summary: Latency is ", &v)) {
		free(s);
		return missing(err, "sockperf", "'Summary: Latency' line");
	}
	bench_add(r, "latency-avg", "", "us", false, v);
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		if (!num_after(s, pct[i].key, &v))
			bench_add(r, pct[i].name, "", "us", false, v);
	free(s);
	return 0;
}

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
		if (num_after(line, " C:", &c) || num_after(line, "Min:", &mn) ||
		    num_after(line, "Avg:", &avg) ||
		    num_after(line, "Max:", &mx) ||
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
		return missing(err, "cyclictest", "'T:' summary lines");
	bench_add(r, "latency-avg", "", "us", false, sum / cycles);
	bench_add(r, "latency-max", "", "us", false, max);
	bench_add(r, "latency-min", "", "us", false, min);
	return 0;
}

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
		return missing(err, "fio", "JSON report");
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
		return missing(err, "fio", "jobs");
	bench_add(r, "iops", "", "ops/s", true, iops);
	bench_add(r, "clat-mean", "", "us", false, mean / (double)n / 1e3);
	bench_add(r, "clat-p50", "", "us", false, p50 / (double)n / 1e3);
	bench_add(r, "clat-p99", "", "us", false, p99 / (double)n / 1e3);
	return 0;
}
