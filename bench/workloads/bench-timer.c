// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timer (built in): one thread per rate sleeps to absolute deadlines;
 * lateness is how late the wakeup came (timer slack + exit latency).
 */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "host.h"
#include "number.h"

#define TIMER_MAX_RATES	16

struct timer_thread {
	double		hz;
	uint64_t	deadline;
	uint64_t	cpu_ns;
	struct hist	h;
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *timer_thread(void *arg)
{
	struct timer_thread *t = arg;
	uint64_t period = (uint64_t)(1e9 / t->hz), cpu0 = thread_cpu_ns();
	uint64_t next = idl_mono_ns() + period, now;
	struct timespec ts;

	while (!bench_stop && next < t->deadline) {
		bench_ns_to_ts(next, &ts);
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				    NULL) == EINTR)
			continue;
		now = idl_mono_ns();
		hist_add(&t->h, now > next ? now - next : 0);
		next += period;
		if (next < now)		/* missed whole periods: skip them */
			next = now + period;
	}
	t->cpu_ns = thread_cpu_ns() - cpu0;
	return NULL;
}

static int timer_rates(const struct bench_args *a, double *hz,
		       struct idl_err *err)
{
	char buf[256], *p, *tok, *save;
	int n = 0;

	if (bench_opt_str(a, "rates", buf, sizeof(buf), err))
		return -1;
	for (p = buf; (tok = strtok_r(p, "/", &save)); p = NULL) {
		double v;

		if (idl_parse_double(tok, 0, 100000, true, &v) ||
		    n == TIMER_MAX_RATES)
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "timer: bad rates '%s' (Hz list "
					   "like 73/113, at most %d)", buf,
					   TIMER_MAX_RATES);
		hz[n++] = v;
	}
	return n;
}

static void timer_metrics(const struct bench_args *a, struct bench_result *r,
			  const struct timer_thread *t, int n,
			  const struct hist *all, double cpu)
{
	char name[32];
	int i;

	bench_add_percentiles(r, "lateness", "", all);
	bench_add(r, "lateness-max", "", "us", false, (double)all->max / 1e3);
	bench_add(r, "cpu-time", "", "ms/s", false,
		  cpu / 1e6 / (a->duration_s > 0 ? a->duration_s : 1));
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%gHz", t[i].hz);
		bench_add(r, "lateness-p50", name, "us", false,
			  hist_percentile(&t[i].h, 50) / 1e3);
		bench_add(r, "lateness-p99", name, "us", false,
			  hist_percentile(&t[i].h, 99) / 1e3);
	}
}

static int timer_run(const struct bench_args *a, struct bench_result *r,
		     struct idl_err *err)
{
	struct timer_thread *t;
	pthread_t tid[TIMER_MAX_RATES];
	double hz[TIMER_MAX_RATES], cpu = 0;
	struct hist *all;
	int i, n;

	n = timer_rates(a, hz, err);
	if (n <= 0)
		return n < 0 ? -1 : idl_err_set(err, 2, "timer: no rates");
	t = calloc((size_t)n, sizeof(*t));
	all = malloc(sizeof(*all));
	if (!t || !all) {
		free(t);
		free(all);
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	}
	hist_init(all);
	for (i = 0; i < n; i++) {
		t[i].hz = hz[i];
		t[i].deadline = bench_deadline_ns(a);
		hist_init(&t[i].h);
		pthread_create(&tid[i], NULL, timer_thread, &t[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(tid[i], NULL);
		hist_merge(all, &t[i].h);
		cpu += (double)t[i].cpu_ns;
	}
	timer_metrics(a, r, t, n, all, cpu);
	free(t);
	free(all);
	return 0;
}

const struct bench_def bench_def_timer = {
	.name = "timer",
	.summary = "periodic timers (73/113/211/347/401 Hz): lateness",
	.opts = (const struct bench_opt[]){
		{ "rates", "73/113/211/347/401",
		  "timer rates in Hz, '/'-separated (at most 16)" },
		{ NULL }
	},
	.run = timer_run,
};
