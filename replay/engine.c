// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The replay engine's core: for one CPU, an event-driven simulation of
 * the kernel's idle loop (select -> tick stop/retain -> enter -> the
 * core's accounting -> reflect) over the workload's idle periods, for
 * every governor (period by period, or in groups of periods one governor
 * after the other: run_group()).  The workload is fixed (open loop): the
 * non-tick wakeups happen at their recorded times whatever a governor
 * does; what a governor changes -- tick wakeups while the tick is kept,
 * poll time limits -- is simulated.  See doc/replay.md.
 *
 * Hot path: no allocation and no formatting (unless --explain), only
 * integer counters.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cpuidle-core.h"
#include "replay.h"

#ifndef __always_inline		/* glibc's <sys/cdefs.h> has it */
#define __always_inline		inline __attribute__((always_inline))
#endif

static const char *const vs_name[REPLAY_NVS] = {
	"same", "too-deep", "too-shallow"
};

void replay_dev_init(struct cpuidle_device *dev, const struct replay_setup *s,
		     unsigned int cpu)
{
	int i;

	dev->cpu = cpu;
	for (i = 0; i < s->table.count; i++) {
		const struct cstate *c = &s->table.states[i];

		if (c->disabled)
			dev->states_usage[i].disable |=
				CPUIDLE_STATE_DISABLED_BY_USER;
		if (c->flags & CSTATE_UNUSABLE)
			dev->states_usage[i].disable |=
				CPUIDLE_STATE_DISABLED_BY_DRIVER;
	}
}

int replay_cpu_init(struct replay_cpu *rc, const struct replay_setup *s,
		    unsigned int cpu, struct idl_err *err)
{
	int gi;

	memset(rc, 0, sizeof(*rc));
	rc->setup = s;
	rc->drv = s->drv;
	rc->cpu = cpu;
	rc->env.tick_nsec = s->tick_nsec;
	rc->env.latency_req = s->latency_req;
	idl_env_set_current(&rc->env);
	for (gi = 0; gi < s->ngov; gi++) {
		struct cpuidle_device *dev = &rc->g[gi].dev;

		if (s->skip[gi])
			continue;
		replay_dev_init(dev, s, cpu);
		if (idl_governor_attach(dev, &s->gov[gi], &rc->drv)) {
			replay_cpu_finish(rc);
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "cannot attach governor %s",
					   s->gov[gi].spec);
		}
		rc->g[gi].attached = true;
		/* as many rows as the table has intervals: a few KB */
		rc->g[gi].tally = calloc((size_t)s->ncut + 1,
					 sizeof(*rc->g[gi].tally));
		if (!rc->g[gi].tally) {
			replay_cpu_finish(rc);
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "out of memory");
		}
	}
	if (replay_follow_init(rc, err)) {
		replay_cpu_finish(rc);
		return -1;
	}
	return 0;
}

/* A later recorded part's own sleep length, seen from @e into the
 * period that starts at @entry. */
static s64 part_sleep(const struct replay_part *pt, u64 entry, s64 e)
{
	s64 sl;

	if (pt->sleep == TRACE_NO_TIMER)
		return replay_no_timer(entry + (u64)e);
	sl = pt->sleep + (pt->off - e);
	return sl > 0 || !e ? sl : replay_no_timer(entry + (u64)e);
}

struct seg_in {
	s64	remain, sleep, dtick;
	bool	stopped;
};

/* The inputs of a select, before the governor's own lines... */
static void explain_sel(struct replay_cpu *rc, int gi, unsigned int nsel,
			const struct seg_in *in)
{
	fprintf(rc->ex->out, "  %-12s sel %u: remain %lld sleep %lld dtick "
		"%lld tick %s\n", rc->setup->gov[gi].spec, nsel,
		(long long)in->remain, (long long)in->sleep,
		(long long)in->dtick, in->stopped ? "stopped" : "running");
}

/* ... and what came of it. */
static void explain_seg(struct replay_cpu *rc, int gi, const struct seg_in *in,
			int idx, bool stop, s64 seg, int cause, int orc,
			int vs, enum idl_miss miss)
{
	const struct replay_setup *s = rc->setup;

	fprintf(rc->ex->out, "  %-12s -> %d %s%s | end %s after %lld | "
		"oracle %d %s: %s | kernel rule %s\n", s->gov[gi].spec, idx,
		s->table.states[idx].name,
		in->stopped ? "" : stop ? " stop-tick" : " keep-tick",
		replay_cause_name(cause), (long long)seg, orc,
		s->table.states[orc].name, vs_name[vs], replay_miss_name[miss]);
}

/* What every governor's simulation of a period reads, computed once. */
struct period_ctx {
	const struct idle_period *p;	/* its inputs (the first part's) */
	unsigned int parts;		/* recorded parts (rc->part[]) */
	s64	dur, tick0;
	s64	latency_req;		/* at its entry */
	bool	own_latency;		/* a recorded one, not the setup's */
	unsigned int cut;
	int	cause;			/* the workload's wake cause */
	bool	sleep_exact, tick_exact, explain;
};

/*
 * One select's score: the tally (replay.h) and the residency.  The
 * interval of the time left is the period's own at the first select.
 * Returns the oracle's state.
 */
static __always_inline unsigned int
score_seg(const struct replay_setup *s, struct replay_gov_cpu *g,
	  const struct period_ctx *pc, s64 remain, unsigned int idx, s64 seg,
	  unsigned int tcause, unsigned int miss)
{
	unsigned int j;

	g->sc.residency_ns[idx] += (u64)seg;
	/* (rare) a recorded constraint: not in the setup's tallies */
	if (__builtin_expect(pc->own_latency, 0))
		return (unsigned int)replay_score_one(&g->sc, s, remain,
						      (int)tcause, (int)miss,
						      (int)idx,
						      pc->latency_req);
	j = remain == pc->dur ? pc->cut : replay_cut(s, remain);
	g->tally[j][tcause][miss][idx]++;
	return s->cut_orc[j];
}

static s64 sdiff(s64 a, s64 b)
{
	return a > b ? a - b : b - a;
}

/*
 * How a select came about, and how a recorded part began: the first of
 * the period, after a tick wakeup, after the poll time limit.  A part
 * ends as the next one begins, the last one by the workload.
 */
enum { BY_START = 0, BY_TICK, BY_POLL, BY_WORKLOAD };

/* How far a recorded boundary may be from the simulated one: ticks are
 * delivered late on some machines (tens of us on a VM). */
static s64 tolerance(const struct replay_cpu *rc, int why)
{
	return why == BY_TICK ? rc->setup->tick_nsec / 2 :
		rc->setup->merge_gap_ns;
}

/*
 * A select at @e that the kernel also made: the next recorded part that
 * began the same way (@why) near @e.  Returns its index (advancing *@k
 * past the parts the replay did not select at), or -1.
 */
static int aligned_part(const struct replay_cpu *rc, s64 e, int why,
			unsigned int *k)
{
	s64 tol = tolerance(rc, why);

	while (*k < rc->parts && rc->part[*k].off + tol < e)
		(*k)++;
	if (*k < rc->parts && rc->part[*k].kind == why &&
	    sdiff(rc->part[*k].off, e) <= tol)
		return (int)(*k)++;
	return -1;
}

/*
 * One governor over one period.  Inlined in both its callers, like
 * period_begin(): as calls, their prologues and the reloads of what the
 * caller's loop keeps in registers cost as much as the scoring.
 * @simple: a constant, true for a period of one part and no explain
 * lines (run_group()), so that their code is left out there.
 */
static __always_inline void run_gov(struct replay_cpu *rc, int gi,
				    const struct period_ctx *pc, bool simple)
{
	const struct idle_period *p = pc->p;
	const struct replay_setup *s = rc->setup;
	const struct idl_governor_ops *ops = s->gov[gi].ops;
	struct cpuidle_driver *drv = &rc->drv;
	struct replay_gov_cpu *g = &rc->g[gi];
	struct cpuidle_device *dev = &g->dev;
	struct replay_score *sc = &g->sc;
	struct idl_env *env = &rc->env;
	int pcause = pc->cause;
	s64 elapsed = 0, next_tick = pc->tick0, t = s->tick_nsec, dur = pc->dur;
	bool explain = !simple && pc->explain;
	bool stopped;
	unsigned int nsel, kpart = 0;
	int why = BY_START;

	/* the idle loop went on without running a task (the kernel's tick
	 * was stopped at this entry): the tick is as this governor left it */
	stopped = (p->flags & IP_TICK_STOPPED) && g->stopped;
	env->latency_req = pc->latency_req;
	for (nsel = 0;; nsel++) {
		struct seg_in in;
		bool stop = true, by_tick = false, by_poll = false;
		enum idl_miss miss;
		s64 seg, tick;
		int idx, cause, vs, k;
		unsigned int orc;

		in.remain = dur - elapsed;
		/* one recorded part (nothing merged): it is the first select's */
		k = !simple && pc->parts > 1 ?
		    aligned_part(rc, elapsed, why, &kpart) :
		    nsel ? -1 : 0;
		if (k > 0) {
			in.sleep = part_sleep(&rc->part[k], p->entry_ns,
					      elapsed);
			/* its exactness instead of the period's (bit 0) */
			sc->sleep_exact += (rc->part[k].flags &
					    IP_SLEEP_EXACT) -
					   (u64)pc->sleep_exact;
		} else {
			in.sleep = replay_sleep_at(p->sleep_length_ns,
						   p->entry_ns, elapsed);
		}
		while (next_tick <= elapsed)
			next_tick += t;
		tick = next_tick - elapsed;
		in.dtick = stopped ? in.sleep : replay_delta_next(in.sleep, tick);
		in.stopped = stopped;
		env->sleep_length = in.sleep;
		env->delta_tick = in.dtick;
		env->tick_stopped = stopped;
		env->got_tick = false;
		env->sleep_length_queried = false;
		env->hindsight_idle_ns = in.remain;
		env->now_ns = p->entry_ns + (u64)elapsed;

		if (__builtin_expect(explain, 0)) {
			explain_sel(rc, gi, nsel, &in);
			dev->explain = &rc->ex->gov;
		}
		idx = ops->select(drv, dev, &stop);
		if (idx < 0 || idx >= drv->state_count) {
			sc->invalid++;
			idx = 0;
		}
		/* the kernel keeps the tick if a timer comes before it */
		if (!stopped && stop) {
			if (in.sleep > in.dtick) {
				stopped = true;
				sc->tick_stops++;
				if (in.remain < t)
					sc->short_tick_stops++;
			} else {
				sc->stop_denied++;
			}
		}
		seg = in.remain;
		cause = pcause;
		if (!stopped && tick < seg) {
			seg = tick;
			cause = WAKE_TICK;
			by_tick = true;
		}
		/* (written out here and in bare.c: as a shared function, the
		 * governors' own branches were predicted worse after it,
		 * doc/performance.md) */
		if (drv->states[idx].flags & CPUIDLE_FLAG_POLLING) {
			s64 lim = (s64)idl_core_poll_limit(drv, dev);

			if (lim <= 0)
				lim = 1;
			if (lim < seg) {
				seg = lim;
				cause = REPLAY_CAUSE_POLL;
				by_tick = false;
				by_poll = true;
			}
			dev->poll_time_limit = by_poll;
		}
		miss = idl_core_account(drv, dev, idx, seg);
		env->got_tick = cause == WAKE_TICK;
		env->now_ns = p->entry_ns + (u64)(elapsed + seg);
		if (ops->reflect)
			ops->reflect(dev, idx);
		if (__builtin_expect(explain, 0))
			dev->explain = NULL;

		orc = score_seg(s, g, pc, in.remain, (unsigned int)idx, seg,
				by_tick ? REPLAY_TALLY_TICK : (unsigned int)cause,
				miss);
		why = by_tick ? BY_TICK : by_poll ? BY_POLL : BY_WORKLOAD;
		if (__builtin_expect(explain, 0)) {
			vs = idx == (int)orc ? REPLAY_SAME :
			     idx > (int)orc ? REPLAY_DEEP : REPLAY_SHALLOW;
			explain_seg(rc, gi, &in, idx, stop, seg, cause,
				    (int)orc, vs, miss);
		}
		elapsed += seg;
		if (!by_tick && !by_poll)
			break;
		/* cut short: not the bin of the time left (the tally's) */
		sc->seg_hist[s->cut_bin[replay_cut(s, seg)]]++;
		/* another select in this period: its exactness (the first
		 * selects' are the workload's, added at the end) */
		sc->sleep_exact += pc->sleep_exact;
		sc->tick_exact += pc->tick_exact;
		if (by_tick) {
			sc->tick_wakeups++;
			next_tick += t;
		} else {
			sc->poll_limits++;
		}
	}
	g->stopped = stopped;
}

static bool in_window(const struct replay_cpu *rc, const struct idle_period *p)
{
	const struct replay_explain *ex = rc->ex;
	u64 at;

	if (!ex || ex->cpu != (int)rc->cpu)
		return false;
	if (!ex->by_time)
		return rc->index >= ex->from && rc->index <= ex->to;
	at = p->entry_ns - ex->base_ns;
	return p->entry_ns >= ex->base_ns && at >= ex->from &&
	       at <= ex->to;
}

static void explain_period(struct replay_cpu *rc, const struct idle_period *p,
			   s64 dur, s64 tick0)
{
	const struct replay_setup *s = rc->setup;
	FILE *out = rc->ex->out;
	unsigned int k;

	fprintf(out, "cpu %u period %llu entry %llu idle %lld wake %s "
		"sleep %lld%s dtick %lld%s; recorded: parts %u",
		rc->cpu, (unsigned long long)rc->index,
		(unsigned long long)p->entry_ns, (long long)dur,
		replay_cause_name(p->wake_cause < WAKE_CAUSE_COUNT ?
			   p->wake_cause : 0),
		(long long)p->sleep_length_ns,
		p->flags & IP_SLEEP_EXACT ? " (exact)" : " (est)",
		(long long)tick0,
		s->own_hz && (p->flags & IP_TICK_EXACT) ? " (exact)" : " (est)",
		rc->parts);
	/* (the first part's state and flags are the period's) */
	if (p->state >= 0 && s->own_table && p->state < s->table.count)
		fprintf(out, " state %d %s%s", p->state,
			s->table.states[p->state].name,
			p->flags & IP_MISS_ABOVE ? " above" :
			p->flags & IP_MISS_BELOW ? " below" : "");
	for (k = 1; k < rc->parts; k++)
		fprintf(out, "; part %u at +%lld state %d sleep %lld", k,
			(long long)rc->part[k].off, rc->part[k].state,
			(long long)rc->part[k].sleep);
	fputc('\n', out);
}

/* Known states and miss flags of the kernel's recorded entries. */
static void count_recorded(struct replay_workload *wl, int state, u8 flags)
{
	if (state < 0)
		return;
	wl->known_state++;
	if (flags & IP_MISS_ABOVE)
		wl->kernel_above++;
	if (flags & IP_MISS_BELOW)
		wl->kernel_below++;
}

/* Does @p have a recorded constraint that replaces the setup's? */
static bool own_latency(const struct replay_setup *s,
			const struct idle_period *p, struct period_ctx *pc)
{
	pc->latency_req = replay_latency_req(s, p);
	pc->own_latency = pc->latency_req != s->latency_req;
	return pc->own_latency;
}

/*
 * The governor-independent part of a workload period @p made of @parts
 * recorded parts (rc->part[]; the first part's state and flags are
 * @p's own): its context for the governors, the workload's counters.
 * @explain: --explain is on for this CPU (rc->ex).
 */
static __always_inline void period_begin(struct replay_cpu *rc,
					 const struct idle_period *p,
					 unsigned int parts, bool explain,
					 struct period_ctx *pc)
{
	const struct replay_setup *s = rc->setup;
	struct replay_workload *wl = &rc->wl;
	unsigned int k;

	pc->p = p;
	pc->latency_req = s->latency_req;
	pc->own_latency = false;
	pc->parts = parts;
	pc->cause = p->wake_cause < WAKE_CAUSE_COUNT ? p->wake_cause : 0;
	pc->dur = (s64)(p->exit_ns - p->entry_ns);
	pc->tick0 = replay_first_tick(s, p->entry_ns, p->delta_tick_ns,
				      p->flags, &pc->tick_exact);
	pc->cut = replay_cut(s, pc->dur);
	pc->explain = explain && in_window(rc, p);
	/* (IP_SLEEP_EXACT is bit 0) */
	pc->sleep_exact = p->flags & IP_SLEEP_EXACT;
	if (__builtin_expect(p->flags & IP_QOS_KNOWN, 0) &&
	    own_latency(s, p, pc)) {
		wl->qos_periods++;
		replay_workload_one(wl, s, pc->dur, pc->cause, pc->sleep_exact,
				    pc->tick_exact, pc->latency_req);
	} else {
		rc->wtally[pc->cut][pc->cause][pc->sleep_exact]
			  [pc->tick_exact]++;
		rc->wcut_ns[pc->cut] += (u64)pc->dur;
	}
	count_recorded(wl, p->state, p->flags);
	for (k = 1; k < parts; k++)
		count_recorded(wl, rc->part[k].state, rc->part[k].flags);
	if (__builtin_expect(pc->explain, 0))
		explain_period(rc, p, pc->dur, pc->tick0);
	rc->prev_exit = p->exit_ns;
	rc->index++;
	rc->have = false;
}

/* Simulate every governor over the workload period @p (rc->parts). */
static void process(struct replay_cpu *rc, const struct idle_period *p)
{
	const struct replay_setup *s = rc->setup;
	struct period_ctx pc;
	int gi;

	idl_env_set_current(&rc->env);
	period_begin(rc, p, rc->parts, rc->ex != NULL, &pc);
	for (gi = 0; gi < s->ngov; gi++)
		if (!s->skip[gi])
			run_gov(rc, gi, &pc, false);
}

static void add_part(struct replay_cpu *rc, const struct idle_period *p)
{
	struct replay_part *pt = &rc->part[rc->parts];

	if (rc->parts == REPLAY_MAX_PARTS) {
		rc->wl.parts_dropped++;
		return;
	}
	pt->off = (s64)(p->entry_ns - rc->cur.entry_ns);
	pt->end = (s64)(p->exit_ns - rc->cur.entry_ns);
	pt->sleep = p->sleep_length_ns;
	pt->state = p->state;
	pt->flags = p->flags;
	pt->kind = !rc->parts ? BY_START :
		   rc->last_cause == WAKE_TICK ? BY_TICK : BY_POLL;
	rc->parts++;
}

/* Recorded wakeups that a governor made, not the workload. */
static bool mergeable(const struct replay_cpu *rc, const struct idle_period *p)
{
	return replay_merges(rc->last_cause, rc->last_flags, rc->cur.exit_ns,
			     p->entry_ns, rc->setup->merge_gap_ns);
}

void replay_cpu_feed(struct replay_cpu *rc, const struct idle_period *p)
{
	rc->wl.recorded++;
	/* (an exit before the entry wraps above the limit too) */
	if (p->exit_ns - p->entry_ns > TRACE_MAX_PERIOD_NS) {
		rc->wl.bad++;
		return;
	}
	if (rc->setup->nfollow)
		replay_follow_feed(rc, p);
	if (rc->have) {
		if (mergeable(rc, p)) {
			add_part(rc, p);
			rc->cur.exit_ns = p->exit_ns;
			rc->cur.wake_cause = p->wake_cause;
			rc->last_cause = p->wake_cause;
			rc->last_flags = p->flags;
			return;
		}
		process(rc, &rc->cur);
	}
	if (p->entry_ns < rc->prev_exit) {	/* overlaps the last one */
		rc->wl.bad++;
		return;
	}
	rc->cur = *p;
	rc->parts = 0;
	add_part(rc, p);
	rc->last_cause = p->wake_cause;
	rc->last_flags = p->flags;
	rc->have = true;
}


/*
 * Periods simulated governor by governor rather than period by period:
 * each governor's code and data stay in the caches over a group.  The
 * governors are independent (each its own device, state and scores;
 * the driver is read only), so each sees the same calls in the same
 * order either way.
 */
#define REPLAY_GROUP		64

static void run_group(struct replay_cpu *rc, const struct period_ctx *pc,
		      int n)
{
	const struct replay_setup *s = rc->setup;
	int gi, i;

	for (gi = 0; gi < s->ngov; gi++)
		if (!s->skip[gi])
			for (i = 0; i < n; i++)
				run_gov(rc, gi, &pc[i], true);
}

/*
 * replay_cpu_feed() holds each period back until the next one says
 * whether it merges.  One that nothing can merge into is simulated
 * here without the wait, in place in @p, without the copy and the
 * recorded part, in groups (above).  The order of the periods is
 * unchanged.  The agreement feed must see each recorded entry before
 * the previous period is simulated, so with it every period goes
 * through replay_cpu_feed(); so do they all with --explain, whose lines
 * follow the periods.
 */
void replay_cpu_feed_batch(struct replay_cpu *rc, const struct idle_period *p,
			   int n)
{
	struct period_ctx grp[REPLAY_GROUP];
	bool follow = rc->setup->nfollow;
	int i, ng = 0;

	if (follow || rc->ex) {
		for (i = 0; i < n; i++)
			replay_cpu_feed(rc, &p[i]);
		return;
	}
	idl_env_set_current(&rc->env);
	for (i = 0; i < n; i++) {
		const struct idle_period *q = &p[i];

		if (rc->have || replay_merge_target(q->wake_cause, q->flags)) {
			run_group(rc, grp, ng);
			ng = 0;
			replay_cpu_feed(rc, q);
			if (rc->have &&
			    !replay_merge_target(rc->last_cause, rc->last_flags))
				process(rc, &rc->cur);
			continue;
		}
		rc->wl.recorded++;
		/* (an exit before the entry wraps above the limit too) */
		if (q->exit_ns - q->entry_ns > TRACE_MAX_PERIOD_NS ||
		    q->entry_ns < rc->prev_exit) {
			rc->wl.bad++;
			continue;
		}
		period_begin(rc, q, 1, false, &grp[ng]);
		if (++ng == REPLAY_GROUP) {
			run_group(rc, grp, ng);
			ng = 0;
		}
	}
	run_group(rc, grp, ng);
}

void replay_cpu_finish(struct replay_cpu *rc)
{
	int gi;

	if (rc->have)
		process(rc, &rc->cur);
	replay_workload_tally(&rc->wl, rc->setup, rc->wtally, rc->wcut_ns);
	memset(rc->wtally, 0, sizeof(rc->wtally));
	memset(rc->wcut_ns, 0, sizeof(rc->wcut_ns));
	replay_follow_finish(rc);
	idl_env_set_current(&rc->env);
	for (gi = 0; gi < rc->setup->ngov; gi++) {
		const struct idl_governor_ops *ops = rc->setup->gov[gi].ops;

		if (!rc->g[gi].attached)
			continue;
		if (rc->g[gi].tally) {
			replay_score_tally(&rc->g[gi].sc, rc->setup,
					   rc->g[gi].tally);
			/* the first select of every period has the
			 * period's inputs */
			rc->g[gi].sc.sleep_exact += rc->wl.sleep_exact;
			rc->g[gi].sc.tick_exact += rc->wl.tick_exact;
			free(rc->g[gi].tally);
			rc->g[gi].tally = NULL;
		}
		if (ops->stats)
			ops->stats(&rc->drv, &rc->g[gi].dev, replay_stats_emit,
				   &rc->g[gi].sc.internals);
		idl_governor_detach(&rc->g[gi].dev, &rc->drv);
		rc->g[gi].attached = false;
	}
}
