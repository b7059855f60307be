// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wakeup (built in): a messenger wakes its workers (futex or condvar) and
 * they measure how long the wakeup took, in the spirit of schbench.
 */
#include "config.h"

#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"
#include "host.h"

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
	uint64_t		deadline;
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

static void *wakeup_worker(void *arg)
{
	struct worker *wk = arg;
	struct wakeup *w = wk->w;

	while (!atomic_load(&w->quit)) {
		if (!ev_wait(&wk->ev, w->use_cond))
			continue;
		if (atomic_load(&w->quit))
			break;
		hist_add(&wk->h, idl_mono_ns() - atomic_load(&wk->wake_ns));
		bench_spin(w->work_ns, w->deadline);
		if (atomic_fetch_sub(&w->pending, 1) == 1)
			ev_post(&w->done, w->use_cond);
	}
	return NULL;
}

static uint64_t wakeup_messenger(struct wakeup *w, uint64_t sleep_ns)
{
	uint64_t rounds = 0;
	int i;

	while (!bench_stop && idl_mono_ns() < w->deadline) {
		atomic_store(&w->pending, w->nr);
		for (i = 0; i < w->nr; i++) {
			atomic_store(&w->workers[i].wake_ns, idl_mono_ns());
			ev_post(&w->workers[i].ev, w->use_cond);
		}
		while (atomic_load(&w->pending) > 0 && !bench_stop)
			ev_wait(&w->done, w->use_cond);
		rounds++;
		if (sleep_ns)
			bench_pause(sleep_ns, w->deadline);
	}
	return rounds;
}

static int wakeup_run(const struct bench_args *a, struct bench_result *r,
		      struct idl_err *err)
{
	pthread_t tid[WAKEUP_MAX_WORKERS];
	struct wakeup w = { 0 };
	struct hist *all;
	char mode[16];
	double workers, work, sleep_us;
	uint64_t start, rounds;
	int i;

	err->status = 0;
	workers = bench_opt_num(a, "workers", err);
	work = bench_opt_num(a, "work", err);
	sleep_us = bench_opt_num(a, "sleep", err);
	if (err->status || bench_opt_str(a, "mode", mode, sizeof(mode), err))
		return -1;
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
	w.deadline = bench_deadline_ns(a);
	for (i = 0; i < w.nr; i++) {
		ev_init(&w.workers[i].ev);
		hist_init(&w.workers[i].h);
		w.workers[i].w = &w;
		pthread_create(&tid[i], NULL, wakeup_worker, &w.workers[i]);
	}
	start = idl_mono_ns();
	rounds = wakeup_messenger(&w, (uint64_t)(sleep_us * 1000));
	start = idl_mono_ns() - start;
	atomic_store(&w.quit, true);
	for (i = 0; i < w.nr; i++) {
		ev_post(&w.workers[i].ev, w.use_cond);
		pthread_join(tid[i], NULL);
		hist_merge(all, &w.workers[i].h);
	}
	bench_add_percentiles(r, "wakeup", "", all);
	bench_add(r, "rounds/s", "", "ops/s", true,
		  start ? rounds * 1e9 / (double)start : 0);
	free(w.workers);
	free(all);
	return 0;
}

const struct bench_def bench_def_wakeup = {
	.name = "wakeup",
	.summary = "messenger/worker wakeups (futex or condvar): latency",
	.opts = (const struct bench_opt[]){
		{ "workers", BENCH_DFL_CPUS, "worker threads (1..64)" },
		{ "work", "20", "busy time of a worker per wakeup, us" },
		{ "sleep", "500", "pause of the messenger between rounds, us" },
		{ "mode", "futex", "how workers wait: futex or cond" },
		{ NULL }
	},
	.run = wakeup_run,
};
