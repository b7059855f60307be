// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Agreement with the kernel.  Every governor column that is the governor
 * live at capture (setup->follows[]) gets a second, kernel-driven copy
 * per CPU.  At each recorded entry the copy selects with the inputs the
 * trace recorded for that entry; its choice is compared with the state
 * the kernel entered.  Then it is told what the kernel really did: the
 * recorded state was entered for the recorded time (the core's
 * accounting, then reflect()), so that what it learns follows the
 * kernel's own history whatever it chose.  One comparison per recorded
 * entry, each kernel decision counted once (doc/scoring.md).
 *
 * The governor's state at the start of a capture is not known (it ran
 * before): copies started at each of a CPU's first recorded entries
 * run through a warm-up, and the one that agreed most with the kernel
 * is scored from then on (REPLAY_WARMUP in replay.h), with the first
 * that agreed as often beside it until one of the two disagrees alone.
 *
 * The free-running columns of engine.c are unaffected: they simulate
 * what each governor would have done on its own.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cpuidle-core.h"
#include "events.h"
#include "replay.h"

/* Start copy @j of governor @gi, fresh as the kernel's enable(). */
static int attach_copy(struct replay_cpu *rc, int gi, int j)
{
	const struct replay_setup *s = rc->setup;
	struct replay_kcopy *k = &rc->g[gi].k[j];

	/* the same disabled states as the free-running copy */
	k->dev = rc->g[gi].dev;
	k->dev.governor = NULL;
	k->dev.governor_data = NULL;
	k->dev.last_state_idx = 0;
	k->dev.last_residency_ns = 0;
	k->dev.poll_limit_ns = 0;
	k->dev.poll_time_limit = false;
	k->last_tick = false;
	k->stop = -1;
	k->same = 0;
	if (idl_governor_attach(&k->dev, &s->gov[gi], &rc->drv))
		return -1;
	k->attached = true;
	return 0;
}

static void detach_copy(struct replay_cpu *rc, struct replay_kcopy *k)
{
	if (!k->attached)
		return;
	idl_governor_detach(&k->dev, &rc->drv);
	k->attached = false;
}

int replay_follow_init(struct replay_cpu *rc, struct idl_err *err)
{
	const struct replay_setup *s = rc->setup;
	int gi;

	for (gi = 0; gi < s->ngov; gi++) {
		if (!s->follows[gi] || s->skip[gi])
			continue;
		rc->g[gi].kscore = 0;
		rc->g[gi].kalt = -1;
		rc->g[gi].kmiss = 0;
		rc->g[gi].sync_from = 0;
		rc->g[gi].kwit = -1;
		rc->g[gi].wit_due = true;
		rc->g[gi].last_hist = false;
		memset(&rc->g[gi].early, 0, sizeof(rc->g[gi].early));
		memset(rc->g[gi].k, 0, sizeof(rc->g[gi].k));
		if (attach_copy(rc, gi, 0))
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "cannot attach governor %s",
					   s->gov[gi].spec);
	}
	rc->nprime = 0;
	rc->prime = NULL;
	if (s->nfollow) {
		rc->prime = malloc(REPLAY_PRIME * sizeof(*rc->prime));
		if (!rc->prime)
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "out of memory");
	}
	return 0;
}

static bool seen(const struct replay_setup *s, int ev)
{
	return !s->events_seen || (s->events_seen & (1U << ev));
}

static const char *exactness(bool exact)
{
	return exact ? "exact" : "estimated";
}

/* Where the tick-stopped input came from, for the reports. */
static const char *tick_source(const struct replay_setup *s)
{
	if (!seen(s, EV_TICK_STOP))
		return "estimated: no tick_stop events";
	if (!seen(s, EV_SCHED_SWITCH))
		return "estimated: no sched_switch events";
	return "from tick_stop and sched_switch";
}

static void report(struct replay_cpu *rc, int gi, const struct idle_period *p,
		   int idx, bool stop, int last_state, s64 last_res,
		   bool last_tick, bool last_poll)
{
	const struct replay_setup *s = rc->setup;
	struct replay_disagree *d = rc->dis;
	const struct cstate_table *t = &s->table;
	FILE *f = d->out;
	u64 at = p->entry_ns >= d->base_ns ? p->entry_ns - d->base_ns : 0;
	char lat[48];

	d->count++;
	fprintf(f, "disagreement %llu: cpu %u entry %llu%s at +%llu.%09llu s: "
		"kernel %d %s, %s %d %s (%s)\n",
		(unsigned long long)d->count, rc->cpu,
		(unsigned long long)rc->kindex,
		rc->kindex == 0 ? " (first, not scored)" :
		rc->kindex < REPLAY_WARMUP ? " (warm-up)" :
		rc->khist ? " (history before the trace, not scored)" : "",
		(unsigned long long)(at / 1000000000ULL),
		(unsigned long long)(at % 1000000000ULL), p->state,
		t->states[p->state].name, s->gov[gi].spec, idx,
		idx >= 0 ? t->states[idx].name : "invalid",
		stop ? "stop tick" : "keep tick");
	fprintf(f, "  inputs: sleep_length %lld ns (%s), delta_tick %lld ns "
		"(%s), tick %s (%s), %s\n",
		(long long)p->sleep_length_ns,
		exactness(p->flags & IP_SLEEP_EXACT),
		(long long)p->delta_tick_ns,
		exactness(p->flags & IP_TICK_EXACT),
		p->flags & IP_TICK_STOPPED ? "stopped" : "running",
		tick_source(s),
		replay_latency_text(replay_latency_req(s, p), lat,
				    sizeof(lat)));
	fprintf(f, "  before: last state %d, last residency %lld ns, got_tick "
		"%s, poll_time_limit %s (from the previous recorded entry)\n",
		last_state, (long long)last_res,
		last_tick ? "yes" : "no", last_poll ? "yes" : "no");
	fprintf(f, "  recorded: idle %lld ns, woken by %s%s\n",
		(long long)(p->exit_ns - p->entry_ns),
		wake_cause_name(p->wake_cause < WAKE_CAUSE_COUNT ?
				p->wake_cause : WAKE_UNKNOWN),
		p->flags & IP_MISS_ABOVE ? ", kernel: above" :
		p->flags & IP_MISS_BELOW ? ", kernel: below" : "");
	if (d->len)
		fwrite(d->buf, 1, d->len, f);
}

/* The kernel stopped the tick after the select of @p; the copy kept it. */
static void report_tick(struct replay_cpu *rc, int gi,
			const struct idle_period *p)
{
	struct replay_disagree *d = rc->dis;
	u64 at = p->entry_ns >= d->base_ns ? p->entry_ns - d->base_ns : 0;

	d->count++;
	fprintf(d->out, "disagreement %llu: cpu %u entry %llu at "
		"+%llu.%09llu s: the kernel stopped the tick after this "
		"select, %s kept it\n", (unsigned long long)d->count, rc->cpu,
		(unsigned long long)(rc->kindex - 1),
		(unsigned long long)(at / 1000000000ULL),
		(unsigned long long)(at % 1000000000ULL), rc->setup->gov[gi].spec);
	fprintf(d->out, "  inputs: sleep_length %lld ns (%s), delta_tick "
		"%lld ns (%s), state %d, idle %lld ns\n",
		(long long)p->sleep_length_ns,
		exactness(p->flags & IP_SLEEP_EXACT),
		(long long)p->delta_tick_ns,
		exactness(p->flags & IP_TICK_EXACT), p->state,
		(long long)(p->exit_ns - p->entry_ns));
	if (d->len)	/* the explain lines of that select, the last one */
		fwrite(d->buf, 1, d->len, d->out);
}

static int miss_of_flags(uint8_t flags)
{
	return flags & IP_MISS_ABOVE ? IDL_MISS_ABOVE :
	       flags & IP_MISS_BELOW ? IDL_MISS_BELOW : IDL_MISS_NONE;
}

/* Does a period's wake cause mean a task was woken (which ends a poll)?
 * Timers mostly wake their task; the tick and device interrupts need
 * not. */
static bool woken(u8 cause)
{
	return cause == WAKE_HRTIMER || cause == WAKE_TIMER ||
	       cause == WAKE_IPI || cause == WAKE_SCHED;
}

/*
 * The state the kernel entered at @p: its copy is accounted and told.
 * A poll ran out as the trace says, when the capture showed how its
 * polls ended (trace_meta.poll_ends_seen); otherwise when it lasted the
 * copy's poll limit and the idle loop went on at once (the next entry
 * within the merge gap), a guess that a task's short run can fool.
 */
/* @p's idle time as the kernel measured it (replay.h, residency_lag_ns) */
static s64 kernel_residency(const struct replay_setup *s,
			    const struct idle_period *p)
{
	s64 d = (s64)(p->exit_ns - p->entry_ns);

	return d > s->residency_lag_ns ? d - s->residency_lag_ns : 0;
}

static void enter_recorded(struct replay_cpu *rc, struct replay_kcopy *k,
			   const struct idle_period *p, s64 gap)
{
	const struct replay_setup *s = rc->setup;
	struct cpuidle_driver *drv = &rc->drv;
	struct cpuidle_device *dev = &k->dev;
	s64 dur = kernel_residency(s, p);
	int st = p->state;

	if (drv->states[st].flags & CPUIDLE_FLAG_POLLING) {
		s64 lim = (s64)idl_core_poll_limit(drv, dev);

		dev->poll_time_limit = s->poll_ends_seen ?
			(p->flags & IP_POLL_LIMIT) :
			dur >= lim && gap >= 0 && gap <= s->merge_gap_ns &&
			!woken(p->wake_cause);
	}
	idl_core_account(drv, dev, st, dur);
	k->last_tick = (p->flags & IP_GOT_TICK) ||
		       p->wake_cause == WAKE_TICK;
	rc->env.got_tick = k->last_tick;
	rc->env.now_ns = p->exit_ns;
	if (dev->governor->ops->reflect)
		dev->governor->ops->reflect(dev, st);
}

static void begin_explain(struct replay_disagree *d)
{
	if (!d || d->count >= d->limit || !d->mem)
		return;
	fseeko(d->mem, 0, SEEK_SET);
}

static void end_explain(struct replay_disagree *d)
{
	if (!d || d->count >= d->limit || !d->mem)
		return;
	fflush(d->mem);
	d->len = (size_t)ftello(d->mem);
}

/* The inputs the trace recorded for @p's select. */
static void set_inputs(struct replay_cpu *rc, const struct idle_period *p)
{
	struct idl_env *env = &rc->env;

	env->sleep_length = replay_sleep_input(p->sleep_length_ns, p->entry_ns);
	env->delta_tick = replay_sleep_input(replay_delta_next(p->sleep_length_ns,
							       p->delta_tick_ns),
					     p->entry_ns);
	env->tick_stopped = p->flags & IP_TICK_STOPPED;
	env->sleep_length_queried = false;
	env->got_tick = false;
	env->hindsight_idle_ns = (s64)(p->exit_ns - p->entry_ns);
	env->now_ns = p->entry_ns;
	env->latency_req = replay_latency_req(rc->setup, p);
}

static void agree_sum(struct replay_agree *to, const struct replay_agree *a)
{
	int i, j;

	to->n += a->n;
	to->same += a->same;
	to->faster += a->faster;
	to->tick_n += a->tick_n;
	to->tick_same += a->tick_same;
	to->miss_n += a->miss_n;
	to->hist += a->hist;
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			to->miss[i][j] += a->miss[i][j];
}

static void agree_add(struct replay_score *sc, const struct replay_agree *a)
{
	int i, j;

	sc->agree_n += a->n;
	sc->agree_same += a->same;
	sc->agree_faster += a->faster;
	sc->agree_tick_n += a->tick_n;
	sc->agree_tick_same += a->tick_same;
	sc->miss_n += a->miss_n;
	sc->agree_warmup += a->hist;
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			sc->miss[i][j] += a->miss[i][j];
}

/*
 * Copy @j selects for @p; the scored one (@score) tallies into @a and
 * reports a disagreement.  Returns whether it chose the recorded state.
 */
static bool select_copy(struct replay_cpu *rc, int gi, int j,
			const struct idle_period *p, bool score,
			struct replay_agree *a)
{
	const struct replay_setup *s = rc->setup;
	const struct replay_gov_cpu *g = &rc->g[gi];
	struct replay_kcopy *k = &rc->g[gi].k[j];
	const struct replay_kcopy *w;
	struct cpuidle_device *dev = &k->dev;
	struct replay_disagree *d = rc->dis;
	bool want = score && d && d->count < d->limit;
	bool stop = true;
	int last_state = dev->last_state_idx;
	s64 last_res = (s64)dev->last_residency_ns;
	bool last_poll = dev->poll_time_limit, last_tick = k->last_tick;
	int idx;

	set_inputs(rc, p);
	if (want) {
		begin_explain(d);
		dev->explain = &d->ex;
	}
	idx = dev->governor->ops->select(&rc->drv, dev, &stop);
	dev->explain = NULL;
	if (want)
		end_explain(d);
	if (idx < 0 || idx >= rc->drv.state_count)
		idx = -1;
	k->stop = rc->env.tick_stopped ? -1 : stop;
	k->idx = (int16_t)idx;
	if (!score)
		return idx == p->state;
	/* the witness selected first (follow_one()) */
	w = g->kwit >= 0 ? &g->k[g->kwit] : NULL;
	rc->khist = w && (w->idx != idx || w->stop != k->stop);
	if (rc->khist) {
		a->hist++;
		if (want && idx != p->state)
			report(rc, gi, p, idx, stop, last_state, last_res,
			       last_tick, last_poll);
		return idx == p->state;
	}
	a->n++;
	if (idx == p->state) {
		a->same++;
	} else {
		a->faster += idx >= 0 &&
			rc->drv.states[p->state].exit_latency_ns <
			rc->drv.states[idx].exit_latency_ns;
		if (want)
			report(rc, gi, p, idx, stop, last_state, last_res,
			       last_tick, last_poll);
	}
	if (s->miss_recorded && idx >= 0) {
		a->miss_n++;
		a->miss[miss_of_flags(p->flags)]
		       [idl_core_classify(&rc->drv, dev, idx,
					  kernel_residency(s, p))]++;
	}
	return idx == p->state;
}

/*
 * At the warm-up's end, the witness of another history: the primed
 * copy, or when that is the one scored, the best of those started
 * fresh (the earliest among equals).
 */
static void choose_witness(struct replay_gov_cpu *g, int best)
{
	int j, wit = -1;

	g->wit_due = false;
	g->wrun = 0;
	g->wbad = 0;
	if (best != REPLAY_PRIMED && g->k[REPLAY_PRIMED].attached) {
		g->kwit = REPLAY_PRIMED;
		return;
	}
	for (j = 0; j < REPLAY_FOLLOW_COPIES; j++)
		if (g->k[j].attached && (wit < 0 || g->k[j].same >
					 g->k[wit].same))
			wit = j;
	g->kwit = wit;
}

/*
 * The end of a window: the copy that agreed most goes on, the others
 * stop.  Among equals, the scored one (after a disagreement: nothing
 * showed it wrong since), else the one with the longest history; the
 * first other equal goes on beside it (kalt).  Equals can differ in
 * what no entry of the window showed: at the start of a capture, the
 * copy started at the first entry selected for it as a fresh device
 * (exact when the trace begins where the governor was enabled), where
 * a running kernel had history (ladder: a promotion counted in state
 * 0 from residency 0, which showed 900 entries later in a lab capture).
 */
static void choose_copy(struct replay_cpu *rc, int gi)
{
	struct replay_gov_cpu *g = &rc->g[gi];
	int j, best = g->kscore, alt = -1;

	for (j = 0; j < REPLAY_KCOPIES; j++)
		if (g->k[j].attached && g->k[j].same > g->k[best].same)
			best = j;
	if (best == g->kwit)
		g->kwit = -1;
	if (g->wit_due)
		choose_witness(g, best);
	for (j = 0; j < REPLAY_KCOPIES; j++) {
		if (j == best || j == g->kwit)
			continue;
		if (alt < 0 && g->k[j].attached &&
		    g->k[j].same == g->k[best].same)
			alt = j;
		else
			detach_copy(rc, &g->k[j]);
	}
	g->kscore = best;
	g->kalt = alt;
	g->sync_from = -1;
}

/*
 * Outside a window, with an equal beside the scored copy: the one that
 * disagreed alone stops, and the other is scored from the next entry
 * on.  True when the scored copy is still out of step (both disagreed,
 * or none ran beside it).
 */
static bool settle_alt(struct replay_cpu *rc, struct replay_gov_cpu *g,
		       bool score_same, bool alt_same)
{
	int alt = g->kalt;

	if (alt < 0)
		return !score_same;
	if (score_same == alt_same && score_same)
		return false;
	g->kalt = -1;
	if (alt_same) {
		detach_copy(rc, &g->k[g->kscore]);
		g->kscore = alt;
		if (alt == g->kwit)
			g->kwit = -1;
		return false;
	}
	if (alt != g->kwit)
		detach_copy(rc, &g->k[alt]);
	return !score_same;
}

/* A free slot for a copy started at this entry, or -1. */
static int free_copy(const struct replay_gov_cpu *g)
{
	int j;

	for (j = 0; j < REPLAY_KCOPIES; j++)
		if (!g->k[j].attached)
			return j;
	return -1;
}

/*
 * A window ends early when the scored copy keeps disagreeing: it did at
 * REPLAY_OUT_OF_STEP entries of the window while another copy agreed at
 * every one of the last REPLAY_FOLLOW_COPIES or more, all copies
 * running.  Else a capture that ends within the window scores the copy
 * out of step to its end (after one residency on ladder's threshold, a
 * copy one count off disagreed 7 times in the last 40 entries of a 6 s
 * recording).  Switching at the first disagreement to a copy with a few
 * entries of history cost menu more than it saved.
 */
static bool out_of_step(const struct replay_gov_cpu *g, s64 w)
{
	u32 all = (u32)(w - (REPLAY_FOLLOW_COPIES - 1) + 1);
	int j;

	if (g->kmiss < REPLAY_OUT_OF_STEP || w < 2 * REPLAY_FOLLOW_COPIES - 2)
		return false;
	for (j = 0; j < REPLAY_KCOPIES; j++)
		if (j != g->kscore && g->k[j].attached && g->k[j].same == all)
			return true;
	return false;
}

/*
 * After the scored copy's select: the witness stops once both chose
 * alike REPLAY_WARMUP times in a row, once it alone disagreed with the
 * kernel REPLAY_OUT_OF_STEP times (its history ruled out), or at the
 * CPU's REPLAY_PRIME-th entry (a history that never washes out,
 * ladder's count one off, is then the scored copy's own business:
 * resynchronisation).
 */
static void witness_done(struct replay_cpu *rc, struct replay_gov_cpu *g,
			 bool alike, bool refuted)
{
	g->wrun = alike ? g->wrun + 1 : 0;
	g->wbad += refuted;
	if (g->wrun < REPLAY_WARMUP && rc->kindex + 1 < REPLAY_PRIME &&
	    g->wbad < REPLAY_OUT_OF_STEP)
		return;
	if (g->kwit != g->kalt)
		detach_copy(rc, &g->k[g->kwit]);
	g->kwit = -1;
}

static void follow_one(struct replay_cpu *rc, int gi,
		       const struct idle_period *p, s64 gap)
{
	struct replay_gov_cpu *g = &rc->g[gi];
	s64 i = (s64)rc->kindex, w = i - g->sync_from;
	bool sync = g->sync_from >= 0, same;
	struct replay_agree a = { 0 };
	bool alt_same = false;
	int j;

	/* a copy started here is told the entry before first, as one that
	 * had run would have been: its reflect, not a fresh device's */
	if (sync && w > 0 && w < REPLAY_FOLLOW_COPIES &&
	    (j = free_copy(g)) >= 0 && !attach_copy(rc, gi, j))
		enter_recorded(rc, &g->k[j], &rc->kprev, rc->kprev_gap);
	/* the witness first: the scored copy's choice is compared */
	if (g->kwit >= 0)
		select_copy(rc, gi, g->kwit, p, false, NULL);
	for (j = 0; j < REPLAY_KCOPIES; j++) {
		if (!g->k[j].attached)
			continue;
		if (j != g->kwit)
			same = select_copy(rc, gi, j, p, j == g->kscore, &a);
		else
			same = g->k[j].idx == p->state;
		if (sync && same && w >= REPLAY_FOLLOW_COPIES - 1)
			g->k[j].same++;
		if (j == g->kalt)
			alt_same = same;
		enter_recorded(rc, &g->k[j], p, gap);
	}
	/* the first entry is never scored: the state and residency of the
	 * one before it, which every governor's select reads, are unknown */
	if (i > 0 && i < REPLAY_WARMUP)
		agree_sum(&g->early, &a);
	else if (i >= REPLAY_WARMUP)
		agree_add(&g->sc, &a);
	g->last_hist = a.hist;
	if (g->kwit >= 0)
		witness_done(rc, g, !a.hist,
			     a.hist && g->k[g->kscore].idx == p->state);
	if (sync && a.same < a.n)
		g->kmiss++;
	if (sync && (w == REPLAY_WARMUP - 1 || out_of_step(g, w)))
		choose_copy(rc, gi);
	else if (!sync && settle_alt(rc, g, a.same == a.n, alt_same)) {
		/* restart copies from the next entry, and compare */
		g->sync_from = i;
		g->kmiss = 1;
		for (j = 0; j < REPLAY_KCOPIES; j++)
			g->k[j].same = 0;
	}
}

/*
 * The kernel stopped the tick after the select of @prev when @next, in
 * the same idle loop, found it stopped and @prev did not.  Only then is
 * the kernel's tick decision known from the trace.
 */
static bool followed(const struct replay_gov_cpu *g)
{
	return g->k[g->kscore].attached;
}

static void tick_agreement(struct replay_cpu *rc, const struct idle_period *prev,
			   const struct idle_period *next)
{
	const struct replay_setup *s = rc->setup;
	struct replay_agree a = { .tick_n = 1 };
	int gi;

	if ((prev->flags & IP_TICK_STOPPED) || !(next->flags & IP_TICK_STOPPED))
		return;
	if (rc->kindex == 1)	/* @prev is the first entry: never scored */
		return;
	for (gi = 0; gi < s->ngov; gi++) {
		struct replay_gov_cpu *g = &rc->g[gi];
		const struct replay_kcopy *k = &g->k[g->kscore];

		if (!k->attached || k->stop < 0 || g->last_hist)
			continue;
		a.tick_same = k->stop == 1;
		if (rc->kindex - 1 < REPLAY_WARMUP)
			agree_sum(&g->early, &a);
		else
			agree_add(&g->sc, &a);
		if (k->stop != 1 && rc->dis && rc->dis->count < rc->dis->limit)
			report_tick(rc, gi, prev);
	}
}

static bool usable(const struct replay_cpu *rc, const struct idle_period *p)
{
	return p->state >= 0 && p->state < rc->drv.state_count;
}

static void step(struct replay_cpu *rc, const struct idle_period *p, s64 gap)
{
	int gi;

	idl_env_set_current(&rc->env);
	for (gi = 0; gi < rc->setup->ngov; gi++)
		if (followed(&rc->g[gi]))
			follow_one(rc, gi, p, gap);
	rc->kprev = *p;
	rc->kprev_gap = gap;
	rc->kindex++;
}

static s64 gap_between(const struct idle_period *p,
		       const struct idle_period *next)
{
	return next->entry_ns >= p->exit_ns ?
	       (s64)(next->entry_ns - p->exit_ns) : -1;
}

static void feed_one(struct replay_cpu *rc, const struct idle_period *p)
{
	if (rc->khave) {
		step(rc, &rc->kpend, gap_between(&rc->kpend, p));
		tick_agreement(rc, &rc->kpend, p);
	}
	rc->kpend = *p;
	rc->khave = true;
}

/*
 * The primed copy of each followed governor (REPLAY_PRIMED) runs over
 * the held entries as every copy runs over an entry, unscored; then all
 * the copies go through them from the first.
 */
static void release_prime(struct replay_cpu *rc)
{
	struct replay_gov_cpu *g;
	u32 i, n = rc->nprime;
	int gi;

	idl_env_set_current(&rc->env);
	for (gi = 0; gi < rc->setup->ngov; gi++) {
		g = &rc->g[gi];
		if (!followed(g) || n < 2 ||
		    attach_copy(rc, gi, REPLAY_PRIMED))
			continue;
		for (i = 0; i < n; i++) {
			select_copy(rc, gi, REPLAY_PRIMED, &rc->prime[i],
				    false, NULL);
			enter_recorded(rc, &g->k[REPLAY_PRIMED], &rc->prime[i],
				       i + 1 < n ? gap_between(&rc->prime[i],
							       &rc->prime[i + 1])
					 : -1);
		}
	}
	rc->nprime = 0;
	for (i = 0; i < n; i++)
		feed_one(rc, &rc->prime[i]);
	free(rc->prime);
	rc->prime = NULL;
}

void replay_follow_feed(struct replay_cpu *rc, const struct idle_period *p)
{
	if (!rc->setup->nfollow || !usable(rc, p))
		return;
	if (!rc->prime) {
		feed_one(rc, p);
		return;
	}
	rc->prime[rc->nprime++] = *p;
	if (rc->nprime == REPLAY_PRIME)
		release_prime(rc);
}

/* A CPU whose warm-up did not end is scored from its first entry. */
void replay_follow_finish(struct replay_cpu *rc)
{
	const struct replay_setup *s = rc->setup;
	int gi, j;

	if (rc->prime)
		release_prime(rc);
	if (rc->khave)
		step(rc, &rc->kpend, -1);
	rc->khave = false;
	idl_env_set_current(&rc->env);
	for (gi = 0; gi < s->ngov; gi++) {
		struct replay_gov_cpu *g = &rc->g[gi];

		if (!followed(g))
			continue;
		if (rc->kindex < REPLAY_WARMUP) {
			agree_add(&g->sc, &g->early);
			g->sc.agree_warmup += rc->kindex > 0;
		} else
			g->sc.agree_warmup += REPLAY_WARMUP;
		for (j = 0; j < REPLAY_KCOPIES; j++)
			detach_copy(rc, &g->k[j]);
	}
}

int replay_disagree_open(struct replay_disagree *d, FILE *out, u64 limit,
			 u64 base_ns, struct idl_err *err)
{
	memset(d, 0, sizeof(*d));
	d->out = out;
	d->limit = limit;
	d->base_ns = base_ns;
	d->mem = open_memstream(&d->buf, &d->len);
	if (!d->mem)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	idl_explain_init(&d->ex, d->mem, "  | ");
	return 0;
}

void replay_disagree_close(struct replay_disagree *d)
{
	if (d->mem)
		fclose(d->mem);
	free(d->buf);
	d->mem = NULL;
	d->buf = NULL;
}
