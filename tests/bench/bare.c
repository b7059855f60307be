// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reference of `make bench` for replay: a governor's own cost.  It
 * decodes every idle period of a trace into memory first, then times
 * only the idle loop around the governor, as replay's run_gov() drives it
 * (replay/engine.c): the inputs of each select, select(), the kernel's
 * tick stop rule, tick wakeups and poll time limits (the re-selections
 * they cause), the cpuidle core's accounting that reflect() reads, and
 * reflect().  No scoring, no oracle, no trace reading.
 *
 * usage: bare [-r RUNS] TRACE GOVERNOR...
 * prints per governor: periods, selects, the fastest run's seconds and
 * million periods per second.  Built by `make bench`, not by `make check`.
 *
 * It makes the same calls with the same inputs as replay on a trace
 * whose recorded periods replay does not merge (tick or poll-limit
 * wakeups followed by a re-entry; the synthetic traces of `make bench`
 * have none): it counts such periods, and the bench prints its selects
 * beside replay's.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuidle-core.h"
#include "host.h"
#include "replay.h"

/* what the loop reads of a recorded period */
struct bare_period {
	u64	entry_ns;
	s64	dur, sleep, dtick;
	u8	flags, cause;
};

struct bare_cpu {
	struct bare_period	*p;
	size_t			n, cap;
};

struct bare {
	struct replay_setup	s;
	unsigned int		ncpu;
	struct bare_cpu		cpu[TRACE_MAX_CPUS];
	u64			periods, mergeable;
};

static int push(struct bare_cpu *c, const struct idle_period *ip)
{
	struct bare_period *p;

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 65536;
		p = realloc(c->p, c->cap * sizeof(*p));
		if (!p)
			return -1;
		c->p = p;
	}
	p = &c->p[c->n++];
	p->entry_ns = ip->entry_ns;
	p->dur = (s64)(ip->exit_ns - ip->entry_ns);
	p->sleep = ip->sleep_length_ns;
	p->dtick = ip->delta_tick_ns;
	p->flags = ip->flags;
	p->cause = ip->wake_cause;
	return 0;
}

/* Would replay merge @ip into the period before it (replay.h)? */
static bool merges(const struct bare_cpu *c, const struct idle_period *ip,
		   s64 gap)
{
	const struct bare_period *l = c->n ? &c->p[c->n - 1] : NULL;
	u64 end;

	if (!l || (l->cause != WAKE_TICK && !(l->flags & IP_POLL_LIMIT)))
		return false;
	end = l->entry_ns + (u64)l->dur;
	return ip->entry_ns >= end && ip->entry_ns - end <= (u64)gap;
}

static int load(struct bare *b, const char *path, struct idl_err *err)
{
	struct trace_reader *r = trace_reader_open(path, err);
	const struct trace_meta *m;
	struct idle_period ip;
	int ret;

	if (!r)
		return -1;
	m = trace_reader_meta(r);
	b->s.tick_nsec = idl_tick_nsec_for_hz(m->hz ? m->hz : 250);
	b->s.own_hz = m->hz;
	b->s.own_table = true;
	b->s.latency_req = m->latency_req_ns >= 0 ? m->latency_req_ns :
			   NO_CONSTRAINT_NS;
	b->s.merge_gap_ns = -1;
	if (replay_setup_init(&b->s, &m->table, err)) {
		trace_reader_close(r);
		return -1;
	}
	while ((ret = trace_reader_next(r, -1, &ip, err)) == 1) {
		struct bare_cpu *c = &b->cpu[ip.cpu];

		if (ip.exit_ns - ip.entry_ns > REPLAY_MAX_PERIOD_NS)
			continue;
		b->mergeable += merges(c, &ip, b->s.merge_gap_ns);
		if (push(c, &ip)) {
			ret = idl_err_set(err, 1, "out of memory");
			break;
		}
		if (ip.cpu + 1 > b->ncpu)
			b->ncpu = ip.cpu + 1;
		b->periods++;
	}
	trace_reader_close(r);
	return ret;
}

/* first_tick() of replay/engine.c: the first tick after entry, (0, T] */
static s64 first_tick(const struct replay_setup *s,
		      const struct bare_period *p)
{
	s64 t = s->tick_nsec, d = p->dtick;

	if (s->own_hz) {
		if (d > 0 && d <= t)
			return d;
		d %= t;
		return d > 0 ? d : d + t;
	}
	return t - (s64)(p->entry_ns % (u64)t);
}

struct loop {
	const struct replay_setup *s;
	struct cpuidle_driver	drv;
	struct cpuidle_device	dev;
	const struct idl_governor_ops *ops;
	struct idl_env		env;
	bool			stopped;
	u64			selects;
};

/* One period: replay's run_gov() without its scoring. */
static void period(struct loop *l, const struct bare_period *p)
{
	struct idl_env *env = &l->env;
	s64 t = l->s->tick_nsec, elapsed = 0, next_tick = first_tick(l->s, p);
	bool stopped = (p->flags & IP_TICK_STOPPED) && l->stopped;

	for (;;) {
		s64 remain = p->dur - elapsed, sleep = p->sleep, dtick, seg;
		bool stop = true, by_tick = false, by_poll = false;
		int idx;

		if (sleep != TRACE_NO_TIMER && elapsed)
			sleep = sleep - elapsed <= 0 ? KTIME_MAX :
				sleep - elapsed;
		while (next_tick <= elapsed)
			next_tick += t;
		dtick = stopped ? sleep : next_tick - elapsed;
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
		if (!stopped && dtick < seg) {
			seg = dtick;
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

static int attach(struct loop *l, const struct replay_setup *s,
		  const struct idl_governor *g, unsigned int cpu)
{
	int i;

	memset(l, 0, sizeof(*l));
	l->s = s;
	l->drv = s->drv;
	l->ops = g->ops;
	l->env.tick_nsec = s->tick_nsec;
	l->env.latency_req = s->latency_req;
	l->dev.cpu = cpu;
	for (i = 0; i < s->table.count; i++) {
		if (s->table.states[i].disabled)
			l->dev.states_usage[i].disable |=
				CPUIDLE_STATE_DISABLED_BY_USER;
		if (s->table.states[i].flags & CSTATE_UNUSABLE)
			l->dev.states_usage[i].disable |=
				CPUIDLE_STATE_DISABLED_BY_DRIVER;
	}
	idl_env_set_current(&l->env);
	return idl_governor_attach(&l->dev, g, &l->drv);
}

/* One run over every CPU's periods: the seconds of the loops alone. */
static int run(struct bare *b, const struct idl_governor *g, double *secs,
	       u64 *selects)
{
	struct loop l;
	unsigned int c;
	size_t i;
	double t0;

	*secs = 0;
	*selects = 0;
	for (c = 0; c < b->ncpu; c++) {
		if (attach(&l, &b->s, g, c))
			return -1;
		t0 = idl_mono_s();
		for (i = 0; i < b->cpu[c].n; i++)
			period(&l, &b->cpu[c].p[i]);
		*secs += idl_mono_s() - t0;
		*selects += l.selects;
		idl_governor_detach(&l.dev, &l.drv);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct bare b;
	struct idl_err err = { 0 };
	int runs = 5, i, k, opt;

	while ((opt = getopt(argc, argv, "r:")) != -1) {
		if (opt != 'r')
			goto usage;
		runs = atoi(optarg);
	}
	if (argc - optind < 2 || runs < 1)
		goto usage;
	if (load(&b, argv[optind], &err)) {
		fprintf(stderr, "bare: %s\n", err.msg);
		return 1;
	}
	if (b.mergeable)
		printf("# %llu periods that replay merges: its selects differ\n",
		       (unsigned long long)b.mergeable);
	for (i = optind + 1; i < argc; i++) {
		struct idl_governor g;
		double best = 0, secs;
		u64 sel = 0;
		char msg[512];

		if (idl_governor_parse(&g, argv[i], msg, sizeof(msg))) {
			fprintf(stderr, "bare: %s\n", msg);
			return 2;
		}
		for (k = 0; k < runs; k++) {
			if (run(&b, &g, &secs, &sel)) {
				fprintf(stderr, "bare: cannot attach %s\n",
					argv[i]);
				return 1;
			}
			if (!k || secs < best)
				best = secs;
		}
		printf("%s %llu %llu %.4f %.2f\n", argv[i],
		       (unsigned long long)b.periods, (unsigned long long)sel,
		       best, best > 0 ? (double)b.periods / best / 1e6 : 0.0);
	}
	return 0;
usage:
	fprintf(stderr, "usage: bare [-r RUNS] TRACE GOVERNOR...\n");
	return 2;
}
