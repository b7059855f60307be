// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The built-in benchmarks: no dependencies, threads of this process,
 * bounded by the run duration and by bench_stop.
 *
 *  pingpong  two threads pinned to two CPUs bounce a byte through two
 *            pipes; each round trip is two wakeups of a sleeping task.
 *  timer     one thread per rate sleeps to absolute deadlines; lateness
 *            is how late the wakeup came (timer slack + exit latency).
 *  wakeup    a messenger wakes its workers (futex or condvar) and they
 *            measure how long the wakeup took, in the spirit of schbench.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void ns_to_ts(uint64_t ns, struct timespec *ts)
{
	ts->tv_sec = (time_t)(ns / 1000000000ull);
	ts->tv_nsec = (long)(ns % 1000000000ull);
}

static int pin_self(unsigned int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static uint64_t deadline_of(const struct bench_args *a)
{
	return now_ns() + (uint64_t)(a->duration_s * 1e9);
}

static void add_percentiles(struct bench_result *r, const char *prefix,
			    const char *case_name, const struct hist *h)
{
	static const double pct[] = { 50, 90, 99 };
	char name[BENCH_NAME_LEN];
	size_t i;

	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		snprintf(name, sizeof(name), "%s-p%g", prefix, pct[i]);
		bench_add(r, name, case_name, "us", false,
			  hist_percentile(h, pct[i]) / 1000.0);
	}
}

/* Retry reads and writes interrupted by our own signal handler. */
static int xfer(int fd, char *c, bool wr)
{
	ssize_t n;

	do
		n = wr ? write(fd, c, 1) : read(fd, c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

/* ------------------------------------------------------------ pingpong */

struct pingpong {
	int		ab[2], ba[2];
	unsigned int	cpu_a, cpu_b;
	uint64_t	deadline, gap_ns, rounds, elapsed;
	int		error;
	struct hist	h;
};

static void *pingpong_echo(void *arg)
{
	struct pingpong *pp = arg;
	char c;

	pin_self(pp->cpu_b);
	for (;;) {
		if (xfer(pp->ab[0], &c, false) || c == 'q')
			break;
		if (xfer(pp->ba[1], &c, true))
			break;
	}
	return NULL;
}

static void *pingpong_drive(void *arg)
{
	struct pingpong *pp = arg;
	uint64_t start = now_ns(), t0, t;
	struct timespec gap;
	char c = 'p';

	if (pin_self(pp->cpu_a))
		pp->error = errno;
	ns_to_ts(pp->gap_ns, &gap);
	while (!bench_stop && (t0 = now_ns()) < pp->deadline) {
		if (xfer(pp->ab[1], &c, true) || xfer(pp->ba[0], &c, false)) {
			pp->error = errno ? errno : EPIPE;
			break;
		}
		t = now_ns();
		hist_add(&pp->h, t - t0);
		pp->rounds++;
		if (pp->gap_ns)
			clock_nanosleep(CLOCK_MONOTONIC, 0, &gap, NULL);
	}
	pp->elapsed = now_ns() - start;
	c = 'q';
	xfer(pp->ab[1], &c, true);
	return NULL;
}

int bench_pingpong(const struct bench_args *a, struct bench_result *r,
		   struct idl_err *err)
{
	struct pingpong *pp;
	pthread_t ta, tb;
	double cpu_a, cpu_b, gap;
	int rc = -1;

	err->status = 0;
	cpu_a = bench_opt_num(a->opts, "cpu-a", 0, err);
	cpu_b = bench_opt_num(a->opts, "cpu-b", a->nr_cpus > 1 ? 1 : 0, err);
	gap = bench_opt_num(a->opts, "gap", 0, err);
	if (err->status)
		return -1;
	pp = calloc(1, sizeof(*pp));
	if (!pp)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	hist_init(&pp->h);
	pp->cpu_a = (unsigned int)cpu_a;
	pp->cpu_b = (unsigned int)cpu_b;
	pp->gap_ns = (uint64_t)(gap * 1000);
	if (pipe(pp->ab) || pipe(pp->ba)) {
		idl_err_set(err, IDL_EXIT_FAILURE, "pingpong: pipe: %s",
			    strerror(errno));
		goto out;
	}
	pp->deadline = deadline_of(a);
	pthread_create(&tb, NULL, pingpong_echo, pp);
	pthread_create(&ta, NULL, pingpong_drive, pp);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	if (pp->error == EINVAL) {
		idl_err_set(err, IDL_EXIT_BADINPUT,
			    "pingpong: cannot pin to CPU %u or %u",
			    pp->cpu_a, pp->cpu_b);
		goto out;
	}
	add_percentiles(r, "rtt", "", &pp->h);
	bench_add(r, "ops/s", "", "ops/s", true,
		  pp->elapsed ? pp->rounds * 1e9 / (double)pp->elapsed : 0);
	rc = 0;
out:
	close(pp->ab[0]);
	close(pp->ab[1]);
	close(pp->ba[0]);
	close(pp->ba[1]);
	free(pp);
	return rc;
}

/* --------------------------------------------------------------- timer */

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
	uint64_t next = now_ns() + period, now;
	struct timespec ts;

	while (!bench_stop && next < t->deadline) {
		ns_to_ts(next, &ts);
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				    NULL) == EINTR)
			continue;
		now = now_ns();
		hist_add(&t->h, now > next ? now - next : 0);
		next += period;
		if (next < now)		/* missed whole periods: skip them */
			next = now + period;
	}
	t->cpu_ns = thread_cpu_ns() - cpu0;
	return NULL;
}

static int timer_rates(const char *opts, double *hz, struct idl_err *err)
{
	char buf[256], *p, *tok, *save, *end;
	int n = 0;

	if (!bench_opt_str(opts, "rates", buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "73/113/211/347/401");
	for (p = buf; (tok = strtok_r(p, "/", &save)); p = NULL) {
		double v = strtod(tok, &end);

		if (*end || !(v > 0 && v <= 100000) || n == TIMER_MAX_RATES)
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "timer: bad rates '%s' (Hz list "
					   "like 73/113, at most %d)", buf,
					   TIMER_MAX_RATES);
		hz[n++] = v;
	}
	return n;
}

int bench_timer(const struct bench_args *a, struct bench_result *r,
		struct idl_err *err)
{
	struct timer_thread *t;
	pthread_t tid[TIMER_MAX_RATES];
	double hz[TIMER_MAX_RATES], cpu = 0;
	struct hist *all;
	char name[32];
	int i, n;

	n = timer_rates(a->opts, hz, err);
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
		t[i].deadline = deadline_of(a);
		hist_init(&t[i].h);
		pthread_create(&tid[i], NULL, timer_thread, &t[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(tid[i], NULL);
		hist_merge(all, &t[i].h);
		cpu += (double)t[i].cpu_ns;
	}
	add_percentiles(r, "lateness", "", all);
	bench_add(r, "lateness-max", "", "us", false, (double)all->max / 1e3);
	bench_add(r, "cpu-time", "", "ms/s", false,
		  cpu / 1e6 / (a->duration_s > 0 ? a->duration_s : 1));
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%gHz", hz[i]);
		bench_add(r, "lateness-p50", name, "us", false,
			  hist_percentile(&t[i].h, 50) / 1e3);
		bench_add(r, "lateness-p99", name, "us", false,
			  hist_percentile(&t[i].h, 99) / 1e3);
	}
	free(t);
	free(all);
	return 0;
}

/* -------------------------------------------------------------- wakeup */

#define WAKEUP_MAX_WORKERS	64

/* A one-shot event: futex word, or mutex + condvar. */
struct event {
	_Atomic uint32_t	word;
	pthread_mutex_t		m;
	pthread_cond_t		c;
};

struct wakeup;

struct worker {
	struct event	ev;
	_Atomic uint64_t wake_ns;
	struct wakeup	*w;
	struct hist	h;
};

struct wakeup {
	bool			use_cond;
	_Atomic bool		quit;
	_Atomic int		pending;
	struct event		done;
	uint64_t		work_ns;
	int			nr;
	struct worker		*workers;
};

static void ev_init(struct event *e)
{
	atomic_store(&e->word, 0);
	pthread_mutex_init(&e->m, NULL);
	pthread_cond_init(&e->c, NULL);
}

static void ev_post(struct event *e, bool use_cond)
{
	if (use_cond) {
		pthread_mutex_lock(&e->m);
		atomic_store(&e->word, 1);
		pthread_cond_signal(&e->c);
		pthread_mutex_unlock(&e->m);
		return;
	}
	atomic_store(&e->word, 1);
	syscall(SYS_futex, &e->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Wait until posted (then consume it) or 100 ms pass; 1 if posted. */
static int ev_wait(struct event *e, bool use_cond)
{
	struct timespec ts = { 0, 100000000 };
	int got;

	if (use_cond) {
		struct timespec abs;

		clock_gettime(CLOCK_REALTIME, &abs);
		abs.tv_nsec += ts.tv_nsec;
		if (abs.tv_nsec >= 1000000000) {
			abs.tv_sec++;
			abs.tv_nsec -= 1000000000;
		}
		pthread_mutex_lock(&e->m);
		if (!atomic_load(&e->word))
			pthread_cond_timedwait(&e->c, &e->m, &abs);
		got = atomic_exchange(&e->word, 0);
		pthread_mutex_unlock(&e->m);
		return got;
	}
	if (!atomic_load(&e->word))
		syscall(SYS_futex, &e->word, FUTEX_WAIT_PRIVATE, 0, &ts,
			NULL, 0);
	return atomic_exchange(&e->word, 0);
}

static void spin_for(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

static void *wakeup_worker(void *arg)
{
	struct worker *wk = arg;
	struct wakeup *w = wk->w;

	while (!atomic_load(&w->quit)) {
		if (!ev_wait(&wk->ev, w->use_cond))
			continue;
		if (atomic_load(&w->quit))
			break;
		hist_add(&wk->h, now_ns() - atomic_load(&wk->wake_ns));
		spin_for(w->work_ns);
		if (atomic_fetch_sub(&w->pending, 1) == 1)
			ev_post(&w->done, w->use_cond);
	}
	return NULL;
}

static uint64_t wakeup_messenger(struct wakeup *w, uint64_t deadline,
				 uint64_t sleep_ns)
{
	struct timespec ts;
	uint64_t rounds = 0;
	int i;

	ns_to_ts(sleep_ns, &ts);
	while (!bench_stop && now_ns() < deadline) {
		atomic_store(&w->pending, w->nr);
		for (i = 0; i < w->nr; i++) {
			atomic_store(&w->workers[i].wake_ns, now_ns());
			ev_post(&w->workers[i].ev, w->use_cond);
		}
		while (atomic_load(&w->pending) > 0 && !bench_stop)
			ev_wait(&w->done, w->use_cond);
		rounds++;
		if (sleep_ns)
			clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	}
	return rounds;
}

int bench_wakeup(const struct bench_args *a, struct bench_result *r,
		 struct idl_err *err)
{
	pthread_t tid[WAKEUP_MAX_WORKERS];
	struct wakeup w = { 0 };
	struct hist *all;
	char mode[16] = "futex";
	double workers, work, sleep_us;
	uint64_t start, rounds;
	int i;

	err->status = 0;
	workers = bench_opt_num(a->opts, "workers", a->nr_cpus, err);
	work = bench_opt_num(a->opts, "work", 20, err);
	sleep_us = bench_opt_num(a->opts, "sleep", 500, err);
	if (err->status)
		return -1;
	bench_opt_str(a->opts, "mode", mode, sizeof(mode));
	if (strcmp(mode, "futex") && strcmp(mode, "cond"))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "wakeup: mode must be futex or cond");
	if (workers < 1 || workers > WAKEUP_MAX_WORKERS)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "wakeup: workers must be 1..%d",
				   WAKEUP_MAX_WORKERS);
	w.use_cond = !strcmp(mode, "cond");
	w.nr = (int)workers;
	w.work_ns = (uint64_t)(work * 1000);
	w.workers = calloc((size_t)w.nr, sizeof(*w.workers));
	all = malloc(sizeof(*all));
	if (!w.workers || !all) {
		free(w.workers);
		free(all);
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	}
	ev_init(&w.done);
	hist_init(all);
	for (i = 0; i < w.nr; i++) {
		ev_init(&w.workers[i].ev);
		hist_init(&w.workers[i].h);
		w.workers[i].w = &w;
		pthread_create(&tid[i], NULL, wakeup_worker, &w.workers[i]);
	}
	start = now_ns();
	rounds = wakeup_messenger(&w, deadline_of(a),
				  (uint64_t)(sleep_us * 1000));
	start = now_ns() - start;
	atomic_store(&w.quit, true);
	for (i = 0; i < w.nr; i++) {
		ev_post(&w.workers[i].ev, w.use_cond);
		pthread_join(tid[i], NULL);
		hist_merge(all, &w.workers[i].h);
	}
	add_percentiles(r, "wakeup", "", all);
	bench_add(r, "rounds/s", "", "ops/s", true,
		  start ? rounds * 1e9 / (double)start : 0);
	free(w.workers);
	free(all);
	return 0;
}
