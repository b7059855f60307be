// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `replay --bare RUNS`: each governor's own cost, the reference that
 * `make bench` puts replay's speed beside (doc/performance.md).  A CPU's
 * idle periods are decoded into memory first; then only the idle loop
 * around one governor is timed, as the engine drives it (run_gov() in
 * engine.c): the inputs of each select, select(), the kernel's tick stop
 * rule, the re-selections after tick wakeups and poll time limits, the
 * core's accounting that reflect() reads, reflect().  No trace reading,
 * no merging, no scoring.
 *
 * It is part of the idlelab binary so that the governors' code sits at
 * the same addresses in both measurements: on the development VM a
 * governor's speed moved by up to 27 % with where the linker put it.
 *
 * It makes the same calls with the same inputs as replay wherever replay
 * merges nothing (a tick or poll-limit wakeup followed by a re-entry
 * within the merge gap); it counts the periods replay would merge.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cpuidle-core.h"
#include "host.h"
#include "run.h"

/* what the loop reads of a recorded period */
struct bare_period {
	u64	entry_ns;
	s64	dur, sleep, dtick;
	s64	latency_req;		/* replay_latency_req() */
	u8	flags;
};

struct bare_cpu {
	struct bare_period	*p;
	size_t			n, cap;
	u64			mergeable;
	/* the last period read, for the merge test */
	u64			last_exit;
	u8			last_cause, last_flags;
	bool			have_last;
};

struct bare_loop {
	const struct replay_setup *s;
	struct cpuidle_driver	drv;
	struct cpuidle_device	dev;
	const struct idl_governor_ops *ops;
	struct idl_env		env;
	bool			stopped;
	u64			selects;
};

static int push(struct bare_cpu *c, const struct idle_period *ip,
		const struct replay_setup *s)
{
	struct bare_period *p;

	if (c->have_last && replay_merges(c->last_cause, c->last_flags,
					  c->last_exit, ip->entry_ns,
					  s->merge_gap_ns))
		c->mergeable++;
	c->have_last = true;
	c->last_exit = ip->exit_ns;
	c->last_cause = ip->wake_cause;
	c->last_flags = ip->flags;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 65536;

		p = realloc(c->p, cap * sizeof(*p));
		if (!p)
			return -1;
		c->p = p;
		c->cap = cap;
	}
	p = &c->p[c->n++];
	p->entry_ns = ip->entry_ns;
	p->dur = (s64)(ip->exit_ns - ip->entry_ns);
	p->sleep = ip->sleep_length_ns;
	p->dtick = ip->delta_tick_ns;
	p->latency_req = replay_latency_req(s, ip);
	p->flags = ip->flags;
	return 0;
}

/* CPU @cpu's periods of @tr, as replay reads them; damage is told once
 * per trace (*@warned). */
static int load_cpu(const struct replay_trace *tr, unsigned int cpu,
		    struct bare_cpu *c, bool *warned, struct idl_err *err)
{
	struct idle_period p[256];
	struct trace_reader *r;
	int ret, i;

	r = trace_reader_open(tr->path, err);
	if (!r)
		return -1;
	while ((ret = trace_reader_batch(r, (int)cpu, p, 256, err)) > 0)
		for (i = 0; i < ret; i++) {
			if (p[i].exit_ns - p[i].entry_ns >
			    TRACE_MAX_PERIOD_NS)
				continue;
			if (push(c, &p[i], &tr->setup)) {
				ret = idl_err_set(err, IDL_EXIT_FAILURE,
						  "out of memory");
				break;
			}
		}
	/* as replay does: the periods before the damage count */
	if (!ret && trace_reader_damage(r) && !*warned) {
		idl_warn("%s", trace_reader_damage(r));
		*warned = true;
	}
	trace_reader_close(r);
	return ret;
}

/* One period: the engine's run_gov() without its scoring. */
static void run_period(struct bare_loop *l, const struct bare_period *p)
{
	struct idl_env *env = &l->env;
	s64 t = l->s->tick_nsec, elapsed = 0, next_tick;
	bool stopped = (p->flags & IP_TICK_STOPPED) && l->stopped, exact;

	next_tick = replay_first_tick(l->s, p->entry_ns, p->dtick, p->flags,
				      &exact);
	env->latency_req = p->latency_req;

	for (;;) {
		s64 remain = p->dur - elapsed, dtick, seg, tick;
		s64 sleep = replay_sleep_at(p->sleep, p->entry_ns, elapsed);
		bool stop = true, by_tick = false, by_poll = false;
		int idx;

		while (next_tick <= elapsed)
			next_tick += t;
		tick = next_tick - elapsed;
		dtick = stopped ? sleep : replay_delta_next(sleep, tick);
		env->sleep_length = sleep;
		env->delta_tick = dtick;
		env->tick_stopped = stopped;
		env->got_tick = false;
		env->sleep_length_queried = false;
		env->hindsight_idle_ns = remain;
		env->now_ns = p->entry_ns + (u64)elapsed;
		idx = l->ops->select(&l->drv, &l->dev, &stop);
		if (idx < 0 || idx >= l->drv.state_count)
			idx = 0;
		if (!stopped && stop && sleep > dtick)
			stopped = true;
		seg = remain;
		if (!stopped && tick < seg) {
			seg = tick;
			by_tick = true;
		}
		if (l->drv.states[idx].flags & CPUIDLE_FLAG_POLLING) {
			s64 lim = (s64)idl_core_poll_limit(&l->drv, &l->dev);

			if (lim <= 0)
				lim = 1;
			if (lim < seg) {
				seg = lim;
				by_tick = false;
				by_poll = true;
			}
			l->dev.poll_time_limit = by_poll;
		}
		idl_core_account(&l->drv, &l->dev, idx, seg);
		env->got_tick = by_tick;
		env->now_ns = p->entry_ns + (u64)(elapsed + seg);
		if (l->ops->reflect)
			l->ops->reflect(&l->dev, idx);
		l->selects++;
		elapsed += seg;
		if (by_tick)
			next_tick += t;
		else if (!by_poll)
			break;
	}
	l->stopped = stopped;
}

/* Attached as replay_cpu_init() attaches a column. */
static int bare_attach(struct bare_loop *l, const struct replay_setup *s,
		       const struct idl_governor *g, unsigned int cpu)
{
	memset(l, 0, sizeof(*l));
	l->s = s;
	l->drv = s->drv;
	l->ops = g->ops;
	l->env.tick_nsec = s->tick_nsec;
	l->env.latency_req = s->latency_req;
	replay_dev_init(&l->dev, s, cpu);
	idl_env_set_current(&l->env);
	return idl_governor_attach(&l->dev, g, &l->drv);
}

struct bare_sum {
	u64	periods, selects;
	double	secs;			/* the fastest run's, summed */
};

/* @runs timed loops of governor @gi over @c; the fastest counts. */
static int time_gov(const struct replay_setup *s, int gi, unsigned int cpu,
		    const struct bare_cpu *c, unsigned int runs,
		    struct bare_sum *sum, struct idl_err *err)
{
	struct bare_loop l;
	double best = 0, t0, t;
	unsigned int k;
	size_t i;

	for (k = 0; k < runs; k++) {
		if (bare_attach(&l, s, &s->gov[gi], cpu))
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "cannot attach governor %s",
					   s->gov[gi].spec);
		t0 = idl_mono_s();
		for (i = 0; i < c->n; i++)
			run_period(&l, &c->p[i]);
		t = idl_mono_s() - t0;
		idl_governor_detach(&l.dev, &l.drv);
		if (!k || t < best)
			best = t;
	}
	sum->periods += c->n;
	sum->selects += l.selects;
	sum->secs += best;
	return 0;
}

int replay_bare(const struct replay_run *run, unsigned int runs, FILE *out,
		struct idl_err *err)
{
	struct bare_sum sum[REPLAY_MAX_GOV];
	const struct replay_setup *s0 = &run->tr[0].setup;
	u64 mergeable = 0;
	int t, gi, ret = 0;
	unsigned int cpu;

	memset(sum, 0, sizeof(sum));
	for (t = 0; !ret && t < run->ntrace; t++) {
		const struct replay_trace *tr = &run->tr[t];
		bool warned = false;

		for (cpu = 0; !ret && cpu < tr->ncpu; cpu++) {
			struct bare_cpu c;

			memset(&c, 0, sizeof(c));
			ret = load_cpu(tr, cpu, &c, &warned, err);
			for (gi = 0; !ret && gi < tr->setup.ngov; gi++)
				ret = time_gov(&tr->setup, gi, cpu, &c, runs,
					       &sum[gi], err);
			mergeable += c.mergeable;
			free(c.p);
		}
	}
	if (ret)
		return -1;
	fprintf(out, "# bare loop: each CPU's periods in memory, %u run%s "
		"per governor and CPU, the fastest counts\n", runs,
		runs == 1 ? "" : "s");
	if (mergeable)
		fprintf(out, "# %llu periods that replay merges: its selects "
			"differ\n", (unsigned long long)mergeable);
	fprintf(out, "%-16s %10s %10s %9s %10s\n", "governor", "periods",
		"selects", "seconds", "Mperiods/s");
	for (gi = 0; gi < s0->ngov; gi++)
		fprintf(out, "%-16s %10llu %10llu %9.4f %10.2f\n",
			s0->gov[gi].spec, (unsigned long long)sum[gi].periods,
			(unsigned long long)sum[gi].selects, sum[gi].secs,
			sum[gi].secs > 0 ? (double)sum[gi].periods /
			sum[gi].secs / 1e6 : 0.0);
	return 0;
}
