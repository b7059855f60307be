// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whole-trace replay: prepare each trace (table, what-ifs, CPUs), run one
 * work unit per (trace, CPU) on -j threads, merge the per-CPU results in
 * CPU order.  Every unit opens its own reader and streams its CPU's
 * periods, so memory does not depend on trace length.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "events.h"
#include "plugin.h"
#include "host.h"
#include "lib/paths.h"
#include "run.h"
#include "text.h"

#define PROGRESS_STEP		65536

const char *replay_default_trace(void)
{
	static const char *const cand[] = {
		IDLELAB_SRCDIR "/traces/data/default.idl",
		IDLELAB_DATADIR "/default.idl",
		IDLELAB_DATADIR "/traces/default.idl",
		IDLELAB_DATADIR "/traces/data/default.idl",
	};
	size_t i;

	for (i = 0; i < sizeof(cand) / sizeof(cand[0]); i++)
		if (access(cand[i], R_OK) == 0)
			return cand[i];
	return NULL;
}

/* --disable takes an index or a state name (case-insensitive). */
static int resolve_disable(const struct cstate_table *t, const char *arg,
			   u64 *mask, struct idl_err *err)
{
	char *end;
	long v;
	int i;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (*arg && !*end && !errno) {
		if (v < 0 || v >= t->count)
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "--disable %s: table '%s' has states 0..%d",
					   arg, t->name, t->count - 1);
		*mask |= 1ULL << v;
		return 0;
	}
	for (i = 0; i < t->count; i++)
		if (!strcasecmp(t->states[i].name, arg)) {
			*mask |= 1ULL << i;
			return 0;
		}
	return idl_err_set(err, IDL_EXIT_BADINPUT,
			   "--disable %s: no such state in table '%s'", arg,
			   t->name);
}

/*
 * The columns that are the governor live at capture.  A column naming it
 * without tunables runs with the capture's tunables (when the trace has
 * them); one with tunables is the live governor if they are the
 * capture's, or if the trace does not know them.  Agreement with the
 * kernel is measured on these columns (follow.c).
 */
static int live_columns(struct replay_setup *s, const struct replay_opts *o,
			const struct trace_meta *m, const char *path,
			struct idl_err *err)
{
	bool known = m->governor_params[0] != '\0';
	struct idl_governor cap;
	char msg[512];
	int i;

	if (!m->governor[0])
		return 0;
	for (i = 0; i < s->ngov; i++) {
		struct idl_governor *g = &s->gov[i];

		/* a plugin built from the same governor counts too */
		if (strcmp(idl_plugin_name(g->ops), m->governor))
			continue;
		cap = *g;
		idl_governor_defaults(&cap);
		if (known && idl_governor_apply(&cap, m->governor_params, msg,
						sizeof(msg)))
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "%s: the tunables of the live "
					   "governor: %s", path, msg);
		if (!o->gov_has_params[i] && known) {
			memcpy(g->param, cap.param, sizeof(g->param));
			s->capture_tunables[i] = true;
		}
		s->follows[i] = !known || !o->gov_has_params[i] ||
			!memcmp(g->param, cap.param, sizeof(g->param));
		s->nfollow += s->follows[i];
	}
	return 0;
}

static int setup_trace(struct replay_trace *tr, const struct replay_opts *o,
		       struct idl_err *err)
{
	struct replay_setup *s = &tr->setup;
	const struct trace_meta *m = &tr->meta;
	struct cstate_table table;
	int i;

	memset(s, 0, sizeof(*s));
	if (o->machine || o->states_file) {
		if (cstate_table_resolve(o->machine, o->states_file, &table,
					 err))
			return -1;
	} else {
		table = m->table;
		s->own_table = true;
	}
	for (i = 0; i < o->ndisable; i++)
		if (resolve_disable(&table, o->disable[i], &s->disabled, err))
			return -1;
	s->tick_nsec = idl_tick_nsec_for_hz(o->hz ? o->hz :
					    m->hz ? m->hz : 250);
	s->own_hz = m->hz && (!o->hz || o->hz == m->hz);
	s->latency_fixed = o->latency_req >= 0;
	s->latency_req = o->latency_req >= 0 ? o->latency_req :
			 m->latency_req_ns >= 0 ? m->latency_req_ns :
			 NO_CONSTRAINT_NS;
	s->merge_gap_ns = o->merge_gap_ns;
	s->ngov = o->ngov;
	for (i = 0; i < o->ngov; i++)
		s->gov[i] = o->gov[i];
	if (s->own_table && live_columns(s, o, m, tr->path, err))
		return -1;
	s->events_seen = m->events_seen;
	s->miss_recorded = !m->events_seen ||
			   (m->events_seen & (1U << EV_CPU_IDLE_MISS));
	s->poll_ends_seen = m->poll_ends_seen;
	s->residency_lag_ns = m->residency_lag_ns > 0 ? m->residency_lag_ns : 0;
	if (replay_setup_init(s, &table, err))
		return -1;
	replay_energy_model(&s->table, &tr->energy);
	return 0;
}

/* CPUs of a trace whose header does not say: one pass over the file. */
static int scan_cpus(struct trace_reader *r, const char *path,
		     unsigned int *ncpu, struct idl_err *err)
{
	struct idle_period p;
	unsigned int max = 0;
	int ret;

	while ((ret = trace_reader_next(r, -1, &p, err)) == 1)
		if (p.cpu + 1 > max)
			max = p.cpu + 1;
	if (ret < 0)
		return -1;
	if (max > TRACE_MAX_CPUS)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: CPU number %u out of range", path,
				   max - 1);
	*ncpu = max;
	return trace_reader_rewind(r, err);
}

static int open_trace(struct replay_trace *tr, const char *path,
		      const struct replay_opts *o, struct idl_err *err)
{
	struct trace_reader *r;
	unsigned int n;

	snprintf(tr->path, sizeof(tr->path), "%s", path);
	snprintf(tr->shown, sizeof(tr->shown), "%s", path);
	idl_text_clean(tr->shown);
	r = trace_reader_open(path, err);
	if (!r)
		return -1;
	tr->meta = *trace_reader_meta(r);
	n = tr->meta.nr_cpus;
	if ((!n || n > TRACE_MAX_CPUS) && scan_cpus(r, path, &n, err)) {
		trace_reader_close(r);
		return -1;
	}
	trace_reader_close(r);
	tr->ncpu = n;
	return setup_trace(tr, o, err);
}

static int synth_trace(struct replay_trace *tr, const struct replay_opts *o,
		       struct idl_err *err)
{
	struct trace_meta *m = &tr->meta;
	struct replay_opts so = *o;

	snprintf(tr->path, sizeof(tr->path), "synthetic:%llu",
		 (unsigned long long)o->synth_periods);
	snprintf(tr->shown, sizeof(tr->shown), "%s", tr->path);
	memset(m, 0, sizeof(*m));
	m->hz = o->hz ? o->hz : 250;
	m->latency_req_ns = -1;
	m->nr_cpus = o->synth_cpus ? o->synth_cpus : 1;
	snprintf(m->source, sizeof(m->source), "replay --synthetic");
	if (cstate_table_resolve(o->machine ? o->machine : "skx",
				 o->states_file, &m->table, err))
		return -1;
	so.machine = so.states_file = NULL;
	tr->ncpu = m->nr_cpus;
	return setup_trace(tr, &so, err);
}

struct work {
	struct replay_run	*run;
	const struct replay_opts *o;
	size_t			nunits;
	size_t			next;		/* atomic */
	size_t			done_units;	/* atomic */
	u64			done_periods;	/* atomic */
	pthread_mutex_t		lock;
	size_t			err_unit;	/* lowest failed unit */
	struct idl_err		err;
};

static u64 xorshift(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* A deterministic mix of short and long periods (bench and tests). */
static void synth_period(u64 *x, u64 *now, s64 tick, unsigned int cpu,
			 struct idle_period *p)
{
	u64 r = xorshift(x), bits = 10 + r % 14;
	u64 dur = (1ULL << bits) + ((r >> 8) & ((1ULL << bits) - 1));
	unsigned int c = (r >> 40) % 10;

	memset(p, 0, sizeof(*p));
	p->cpu = cpu;
	p->entry_ns = *now;
	p->exit_ns = *now + dur;
	p->state = TRACE_STATE_UNKNOWN;
	p->delta_tick_ns = 1 + (s64)((r >> 30) % (u64)tick);
	p->flags = IP_TICK_EXACT;
	if (c < 3) {
		p->wake_cause = WAKE_TIMER;
		p->sleep_length_ns = (s64)dur;
		p->flags |= IP_SLEEP_EXACT;
	} else {
		p->wake_cause = c < 8 ? WAKE_IRQ : WAKE_IPI;
		p->sleep_length_ns = (r >> 50) % 8 ? (s64)dur +
			(s64)((r >> 20) % 8000000) : TRACE_NO_TIMER;
	}
	*now = p->exit_ns + 2000;
}

/* Periods handed to the engine at a time: one decoded batch on the stack. */
#define RUN_BATCH		256

/* @n more periods done: the plugin's counter and the progress line's. */
static void count_done(struct work *w, u64 *done, int n)
{
	if (w->run->progress)
		__atomic_add_fetch(w->run->progress, (u64)n, __ATOMIC_RELAXED);
	if ((*done + (u64)n) / PROGRESS_STEP != *done / PROGRESS_STEP)
		__atomic_add_fetch(&w->done_periods,
				   ((*done + (u64)n) / PROGRESS_STEP -
				    *done / PROGRESS_STEP) * PROGRESS_STEP,
				   __ATOMIC_RELAXED);
	*done += (u64)n;
}

static int run_source(struct work *w, struct replay_trace *tr,
		      struct replay_cpu *rc, unsigned int cpu,
		      struct idl_err *err)
{
	struct trace_reader *r;
	struct idle_period p[RUN_BATCH];
	u64 n = 0;
	int ret, k;

	if (w->o->synth_periods) {
		u64 x = 0x9E3779B97F4A7C15ULL * (cpu + 1), now = 1000000;

		while (n < w->o->synth_periods) {
			for (k = 0; k < RUN_BATCH &&
			     n + (u64)k < w->o->synth_periods; k++)
				synth_period(&x, &now, tr->setup.tick_nsec,
					     cpu, &p[k]);
			replay_cpu_feed_batch(rc, p, k);
			count_done(w, &n, k);
		}
		return 0;
	}
	r = trace_reader_open(tr->path, err);
	if (!r)
		return -1;
	while ((ret = trace_reader_batch(r, (int)cpu, p, RUN_BATCH,
					 err)) > 0) {
		replay_cpu_feed_batch(rc, p, ret);
		count_done(w, &n, ret);
	}
	/*
	 * Each CPU's reader checks only its own blocks (and sees truncation):
	 * report the damage the lowest CPU saw, whatever the thread order.
	 */
	if (!ret && trace_reader_damage(r)) {
		pthread_mutex_lock(&w->lock);
		if (!tr->damage[0] || cpu < tr->damage_cpu) {
			tr->damage_cpu = cpu;
			snprintf(tr->damage, sizeof(tr->damage), "%s",
				 trace_reader_damage(r));
		}
		pthread_mutex_unlock(&w->lock);
	}
	trace_reader_close(r);
	return ret;
}

static int run_unit(struct work *w, size_t unit, struct idl_err *err)
{
	struct replay_run *run = w->run;
	struct replay_trace *tr = NULL;
	struct replay_cpu_result *res;
	struct replay_explain ex;
	struct replay_disagree dis;
	struct replay_cpu *rc;
	int t, gi, ret;

	for (t = 0; t < run->ntrace; t++) {
		if (unit < run->tr[t].ncpu) {
			tr = &run->tr[t];
			break;
		}
		unit -= run->tr[t].ncpu;
	}
	res = &tr->cpus[unit];
	res->cpu = (unsigned int)unit;
	rc = malloc(sizeof(*rc));
	if (!rc)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	if (replay_cpu_init(rc, &tr->setup, res->cpu, err)) {
		free(rc);
		return -1;
	}
	if (tr->explain && tr->explain[unit]) {
		ex.cpu = w->o->explain_cpu;
		ex.by_time = w->o->explain_by_time;
		ex.from = w->o->explain_from;
		ex.to = w->o->explain_to;
		ex.base_ns = tr->meta.start_ns;
		ex.out = tr->explain[unit];
		idl_explain_init(&ex.gov, ex.out, "      | ");
		rc->ex = &ex;
	}
	memset(&dis, 0, sizeof(dis));
	if (tr->disagree && replay_disagree_open(&dis, tr->disagree[unit],
						 w->o->disagreements,
						 tr->meta.start_ns, err)) {
		replay_cpu_finish(rc);
		free(rc);
		return -1;
	}
	if (tr->disagree)
		rc->dis = &dis;
	ret = run_source(w, tr, rc, res->cpu, err);
	replay_cpu_finish(rc);
	replay_disagree_close(&dis);
	res->wl = rc->wl;
	for (gi = 0; gi < tr->setup.ngov; gi++)
		res->sc[gi] = rc->g[gi].sc;
	free(rc);
	return ret;
}

static void *worker(void *arg)
{
	struct work *w = arg;
	struct idl_err err;
	size_t u;

	while ((u = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED)) <
	       w->nunits) {
		memset(&err, 0, sizeof(err));
		if (run_unit(w, u, &err)) {
			pthread_mutex_lock(&w->lock);
			if (u < w->err_unit) {
				w->err_unit = u;
				w->err = err;
			}
			pthread_mutex_unlock(&w->lock);
		}
		__atomic_add_fetch(&w->done_units, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* Progress on stderr while the workers run (only if asked for). */
static void wait_progress(struct work *w, u64 expected, double t0)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };
	bool shown = false;

	while (__atomic_load_n(&w->done_units, __ATOMIC_ACQUIRE) <
	       w->nunits) {
		u64 d;

		nanosleep(&ts, NULL);
		if (idl_mono_s() - t0 < 1.0)
			continue;
		d = __atomic_load_n(&w->done_periods, __ATOMIC_RELAXED);
		if (expected)
			fprintf(stderr, "\rreplay: %llu of %llu periods (%.0f%%)",
				(unsigned long long)d,
				(unsigned long long)expected,
				100.0 * (double)d / (double)expected);
		else
			fprintf(stderr, "\rreplay: %llu periods",
				(unsigned long long)d);
		shown = true;
	}
	if (shown)
		fputs("\r\033[K", stderr);
}

static int tmp_file(FILE **f, struct idl_err *err)
{
	*f = tmpfile();
	if (!*f)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "cannot create a temporary file: %s",
				   strerror(errno));
	return 0;
}

static int alloc_results(struct replay_trace *tr, const struct replay_opts *o,
			 struct idl_err *err)
{
	unsigned int u;

	tr->cpus = calloc(tr->ncpu ? tr->ncpu : 1, sizeof(*tr->cpus));
	if (!tr->cpus)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	if (o->disagreements && tr->setup.nfollow) {
		tr->disagree = calloc(tr->ncpu ? tr->ncpu : 1,
				      sizeof(*tr->disagree));
		if (!tr->disagree)
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "out of memory");
		for (u = 0; u < tr->ncpu; u++)
			if (tmp_file(&tr->disagree[u], err))
				return -1;
	}
	if (o->explain_cpu < 0 || (unsigned int)o->explain_cpu >= tr->ncpu)
		return 0;
	tr->explain = calloc(tr->ncpu, sizeof(*tr->explain));
	if (!tr->explain)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	return tmp_file(&tr->explain[(unsigned int)o->explain_cpu], err);
}

static void merge(struct replay_trace *tr)
{
	unsigned int u;
	int gi;

	for (u = 0; u < tr->ncpu; u++) {
		replay_workload_add(&tr->wl, &tr->cpus[u].wl);
		for (gi = 0; gi < tr->setup.ngov; gi++)
			replay_score_add(&tr->total[gi], &tr->cpus[u].sc[gi]);
	}
}

static void close_files(FILE **f, unsigned int n)
{
	unsigned int u;

	if (!f)
		return;
	for (u = 0; u < n; u++)
		if (f[u])
			fclose(f[u]);
	free(f);
}

int replay_run_units(struct replay_run *run, const struct replay_opts *o,
		     struct idl_err *err)
{
	struct work w;
	pthread_t th[256];
	int nth, i, t;
	u64 expected = 0;
	double t0 = idl_mono_s();

	memset(&w, 0, sizeof(w));
	w.run = run;
	w.o = o;
	w.err_unit = (size_t)-1;
	pthread_mutex_init(&w.lock, NULL);
	for (t = 0; t < run->ntrace; t++) {
		w.nunits += run->tr[t].ncpu;
		expected += o->synth_periods ?
			o->synth_periods * run->tr[t].ncpu :
			run->tr[t].meta.nr_periods;
	}
	nth = o->jobs < 1 ? 1 : o->jobs > 256 ? 256 : o->jobs;
	if ((size_t)nth > w.nunits)
		nth = w.nunits ? (int)w.nunits : 1;
	for (i = 0; i < nth; i++)
		if (pthread_create(&th[i], NULL, worker, &w)) {
			nth = i;
			break;
		}
	if (!nth)
		worker(&w);
	else if (o->progress)
		wait_progress(&w, expected, t0);
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&w.lock);
	if (w.err_unit != (size_t)-1) {
		*err = w.err;
		return -1;
	}
	return 0;
}

int replay_prepare(struct replay_run *run, const struct replay_opts *o,
		   char **paths, int npaths, struct idl_err *err)
{
	int t;

	memset(run, 0, sizeof(*run));
	run->ntrace = o->synth_periods ? 1 : npaths;
	run->tr = calloc(run->ntrace ? run->ntrace : 1, sizeof(*run->tr));
	if (!run->tr)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	for (t = 0; t < run->ntrace; t++) {
		struct replay_trace *tr = &run->tr[t];

		if (o->synth_periods ? synth_trace(tr, o, err) :
		    open_trace(tr, paths[t], o, err))
			return -1;
		if (alloc_results(tr, o, err))
			return -1;
	}
	return 0;
}

int replay_run(struct replay_run *run, const struct replay_opts *o,
	       char **paths, int npaths, struct idl_err *err)
{
	struct replay_contained *c;
	int t, ret;

	if (replay_prepare(run, o, paths, npaths, err))
		return -1;
	if (replay_contain_start(run, o, &c, err))
		return -1;
	ret = replay_run_units(run, o, err);
	if (replay_contain_finish(run, c, o->plugin_timeout, ret ? NULL : err))
		ret = -1;
	for (t = 0; !ret && t < run->ntrace; t++)
		merge(&run->tr[t]);
	return ret;
}

void replay_run_free(struct replay_run *run)
{
	int t;

	for (t = 0; t < run->ntrace; t++) {
		struct replay_trace *tr = &run->tr[t];

		close_files(tr->explain, tr->ncpu);
		close_files(tr->disagree, tr->ncpu);
		free(tr->cpus);
	}
	for (t = 0; t < REPLAY_MAX_GOV; t++)
		free(run->failed[t]);
	free(run->tr);
	memset(run, 0, sizeof(*run));
}
