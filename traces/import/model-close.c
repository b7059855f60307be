// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Closing an idle period: the governor's inputs at its select (sleep
 * length, delta_tick, relative to the kernel's "now"), its wake cause,
 * and the queue that holds it until timers armed before the capture are
 * known (doc/importing.md).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model-int.h"

/* @off: the clock offset at the select (c->sel_ts) */
static int64_t delta_tick(struct model *m, struct cpu_state *c, int64_t off,
			  int64_t hr_t, int64_t sleep, uint8_t *flags)
{
	const struct tick_view *tv = &c->tick_at_sel;
	uint64_t now = (uint64_t)c->sel_ts;
	int64_t t, mono;

	if (tv->known == TK_PENDING) {
		t = tv->exp + off;
		/* long overdue: it fired where the trace lost the events,
		 * and was re-armed on its grid (a stopped tick is not).
		 * Where nothing can have been lost (no lost events, the
		 * tick's expiries traced, and the context flags that perf
		 * script lacks: its captures drop hard-irq events unsaid),
		 * it has not fired: its interrupt is late, and the kernel's
		 * delta_next is negative (a 6.1 x86 guest without icount:
		 * the tick 110 us overdue; menu's walk down from a state
		 * deeper than delta_next then ends in POLL) */
		if (m->tick_ns && t < (int64_t)now - HR_LATE_MAX_NS &&
		    (m->st.lost_events || !m->st.with_flags ||
		     !m->st.by_type[EV_HRTIMER_EXPIRE_ENTRY])) {
			t += ((int64_t)now - t) / m->tick_ns * m->tick_ns;
			if (t < (int64_t)now)
				t += m->tick_ns;
			if (c->stopped_at_sel)
				t = hr_t;
			m->st.lost_ticks++;
		} else {
			*flags |= IP_TICK_EXACT;
		}
		return model_rel(t, now);
	}
	if (tv->known == TK_OFF) {
		*flags |= IP_TICK_EXACT;
		return model_rel(hr_t, now);
	}
	if (c->stopped_at_sel || !m->tick_ns)
		return sleep;
	if (m->grid_phase >= 0) {
		mono = c->sel_ts - off;
		t = mono + m->tick_ns - model_past_grid(m, mono);
		return model_rel(t + off, now);
	}
	return model_min64(m->tick_ns / 2, sleep);
}

static uint8_t pick_cause(const struct cause *ca, uint32_t *detail)
{
	if (ca->ipi_ts && (!ca->ts || ca->ipi_ts < ca->ts)) {
		*detail = ca->ipi_from;
		return WAKE_IPI;
	}
	if (ca->ts) {
		*detail = ca->detail;
		return ca->what;
	}
	if (ca->wake_ts) {
		*detail = ca->wake_from;
		return WAKE_SCHED;
	}
	*detail = 0;
	return WAKE_UNKNOWN;
}

/* ------------------------------------------------- emission */

static int emit(struct model *m, const struct idle_period *p,
		struct idl_err *err)
{
	m->st.periods++;
	m->st.wake[p->wake_cause]++;
	m->st.sleep_exact += !!(p->flags & IP_SLEEP_EXACT);
	m->st.tick_exact += !!(p->flags & IP_TICK_EXACT);
	m->st.estimated += (p->flags & (IP_SLEEP_EXACT | IP_TICK_EXACT)) !=
			   (IP_SLEEP_EXACT | IP_TICK_EXACT);
	m->st.no_timer += p->sleep_length_ns == NONE;
	m->st.too_long += p->exit_ns - p->entry_ns > TRACE_MAX_PERIOD_NS;
	return m->emit(m->ctx, p, err);
}

static struct held *held_at(const struct hold *h, uint32_t k)
{
	return &h->q[(h->head + k) % h->cap];
}

/* Emit the oldest held period of @c. */
static int pop(struct model *m, struct cpu_state *c, struct idl_err *err)
{
	struct hold *h = c->hold;
	struct held *x = held_at(h, 0);

	m->st.hold_unbounded += x->p.sleep_length_ns == NONE;
	h->head = (h->head + 1) % h->cap;
	h->n--;
	m->held--;
	return emit(m, &x->p, err);
}

/*
 * A wheel timer armed before the capture ran on @c at @fire (jiffy
 * @jiffy).  What it bounds depends on what it was, which its re-arm
 * tells, moments later as a rule: deferrable, it counted in no sleep
 * length; pinned, or any timer before timer migration (6.9), in every
 * held period of @c's it was pending for; unpinned under migration,
 * only in those whose select found @c the last CPU awake (it was
 * another CPU's, or @c's own handed to the hierarchy).  Not re-armed
 * within REARM_WAIT_NS (or UNKNOWN_RUNS later): taken for not
 * deferrable and unpinned (none of the 1607 non-deferrable timer_starts
 * of the lab's 6.12 captures was pinned).
 */
static int settle_run(struct model *m, struct cpu_state *c, uint32_t k,
		      int64_t flags, uint64_t now, struct idl_err *err)
{
	struct unknown_run r = c->runs[k];
	bool global = m->tmigr && (flags < 0 || !(flags & EV_TIMER_PINNED));

	memmove(&c->runs[k], &c->runs[k + 1],
		(c->nruns - k - 1) * sizeof(c->runs[0]));
	c->nruns--;
	m->unknown_runs--;
	if (flags >= 0 && (flags & EV_TIMER_DEFERRABLE)) {
		m->st.hold_deferrable++;
		return model_release(m, c, now, err);
	}
	m->st.hold_global += global;
	return model_bound_held(m, c, r.fire, r.jiffy, global, now, err);
}

int model_unknown_run(struct model *m, struct cpu_state *c, uint64_t key,
		      int64_t fire, int64_t jiffy, uint64_t now,
		      struct idl_err *err)
{
	if (c->nruns == UNKNOWN_RUNS && settle_run(m, c, 0, -1, now, err))
		return -1;
	c->runs[c->nruns++] = (struct unknown_run){
		.key = key, .fire = fire, .jiffy = jiffy, .ts = now,
	};
	m->unknown_runs++;
	return 0;
}

/* Wheel timer @key armed again with @flags (EV_TIMER_*). */
int model_rearmed(struct model *m, uint64_t key, uint32_t flags, uint64_t now,
		  struct idl_err *err)
{
	uint32_t i, k;

	for (i = 0; m->unknown_runs && i < m->st.max_cpu; i++)
		for (k = 0; k < m->cpus[i].nruns; k++)
			if (m->cpus[i].runs[k].key == key)
				return settle_run(m, &m->cpus[i], k, flags,
						  now, err);
	return 0;
}

/* The runs of @c that waited long enough for a re-arm (all of them
 * at @now UINT64_MAX). */
int model_settle_runs(struct model *m, struct cpu_state *c, uint64_t now,
		      struct idl_err *err)
{
	while (c->nruns && (now == UINT64_MAX ||
			    now > c->runs[0].ts + (uint64_t)REARM_WAIT_NS))
		if (settle_run(m, c, 0, -1, now, err))
			return -1;
	return 0;
}

/* Emit the held periods of @c that are settled at trace time @now, from
 * the oldest (all of them with @now UINT64_MAX). */
int model_release(struct model *m, struct cpu_state *c, uint64_t now,
		   struct idl_err *err)
{
	uint32_t k;

	/* the periods a pending bound could still shorten wait for it */
	for (k = 0; k < c->nruns; k++)
		if ((int64_t)now > c->runs[k].fire)
			now = c->runs[k].fire > 0 ? (uint64_t)c->runs[k].fire : 0;
	while (c->hold && c->hold->n && held_at(c->hold, 0)->final <= now)
		if (pop(m, c, err))
			return -1;
	return 0;
}

static int grow(struct hold *h, struct idl_err *err)
{
	uint32_t cap = h->cap ? 2 * h->cap : 256, k;
	struct held *q = malloc(cap * sizeof(*q));

	if (!q)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	for (k = 0; k < h->n; k++)
		q[k] = *held_at(h, k);
	free(h->q);
	h->q = q;
	h->cap = cap;
	h->head = 0;
	return 0;
}

/*
 * A period of @c, settled at trace time @final.  The held periods of all
 * CPUs are bounded by HOLD_BUDGET: when it is used up, the oldest of
 * this CPU goes out as it is.
 */
static int queue(struct model *m, struct cpu_state *c,
		 const struct idle_period *p, uint64_t final, bool probed,
		 struct idl_err *err)
{
	uint64_t now = c->last_ts;
	struct hold *h = c->hold;
	struct held *x;

	if (final <= now && (!h || !h->n))
		return emit(m, p, err);
	if (!h && !(h = c->hold = calloc(1, sizeof(*h))))
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	if (m->held >= HOLD_BUDGET && h->n && pop(m, c, err))
		return -1;
	if (h->n == h->cap && grow(h, err))
		return -1;
	x = held_at(h, h->n++);
	m->held++;
	x->p = *p;
	x->sel = c->sel_ts;
	x->final = final;
	x->lonely = c->sel_lonely;
	x->probed = probed;
	return model_release(m, c, now, err);
}

/*
 * A wheel timer due within a jiffy of the select keeps the tick, and
 * the kernel returns the time to the next programmed event (as in
 * model_close_period()): for a held period, whose timers are not kept,
 * the earlier of the tick and its sleep length so far.
 */
static bool wheel_keeps_tick(struct model *m, struct held *x, int64_t jiffy)
{
	int64_t d = x->p.delta_tick_ns;

	if (jiffy == NONE || !m->jif.valid || d == NONE ||
	    (x->p.flags & IP_TICK_STOPPED) ||
	    jiffy - model_jiffy_at(m, (uint64_t)x->sel,
				   model_clock_off_at(m, x->sel)) > 1)
		return false;
	if (d < x->p.sleep_length_ns)
		x->p.sleep_length_ns = d;
	x->p.flags &= (uint8_t)~IP_SLEEP_EXACT;
	return true;
}

/*
 * A timer armed before the capture fired on @c at @fire (a wheel timer:
 * due at jiffy @jiffy, else NONE): every held period that ended before
 * had it pending, so its sleep length is at most the time to @fire (an
 * estimate: the timer's own expiry is a little earlier, and timers
 * cancelled unseen could have been earlier).  An unpinned timer under
 * timer migration (@global) counted only where @c was the last CPU
 * awake.
 */
int model_bound_held(struct model *m, struct cpu_state *c, int64_t fire,
		     int64_t jiffy, bool global, uint64_t now,
		     struct idl_err *err)
{
	struct hold *h = c->hold;
	struct held *x;
	uint32_t k;

	for (k = 0; h && k < h->n; k++) {
		x = held_at(h, k);
		if (x->final <= (uint64_t)fire || x->probed ||
		    (int64_t)x->p.exit_ns > fire || (global && !x->lonely))
			continue;
		if (wheel_keeps_tick(m, x, jiffy)) {
			m->st.hold_lowered++;
		} else if (fire - x->sel < x->p.sleep_length_ns) {
			if (x->p.sleep_length_ns == NONE)
				m->st.hold_bounded++;
			else
				m->st.hold_lowered++;
			x->p.sleep_length_ns = fire - x->sel;
			x->p.flags &= (uint8_t)~IP_SLEEP_EXACT;
			if (x->p.delta_tick_ns > x->p.sleep_length_ns &&
			    (x->p.flags & IP_TICK_STOPPED))
				x->p.delta_tick_ns = x->p.sleep_length_ns;
		}
		x->final = 0;
	}
	return model_release(m, c, now, err);
}

/*
 * A poll whose end the capture does not flag (no context flags at its
 * exit) but whose wakeups it has: a wakeup queued for an idle CPU that
 * polls sends no IPI and is traced by that CPU after its exit, so the
 * period is closed by what comes next (the next entry, a sched_switch,
 * its window), not by its cpu_idle_miss.
 */
bool model_poll_end_later(const struct model *m, const struct cpu_state *c)
{
	return m->o.poll_state >= 0 && c->state == m->o.poll_state &&
	       !(c->exit_ctx & EV_CTX_KNOWN) && m->st.by_type[EV_SCHED_WAKEUP];
}

/* A wakeup of @c's CPU ended its poll: one during it, or one the CPU
 * traced after its exit before any interrupt (not that interrupt's). */
static bool poll_woken(const struct cpu_state *c)
{
	uint64_t w = c->c.wake_ts, irq = c->c.after_exit_ts;

	return w && (w <= c->exit_ns || !irq || w < irq);
}

/*
 * Did @c's poll end on its time limit (the kernel's dev->poll_time_limit,
 * which haltpoll's next select reads)?  Nothing else ends a poll but
 * need_resched: an interrupt that wakes no task returns to the loop.  So
 * the exit's need-resched flag tells, when the capture has the flags;
 * otherwise no wakeup of the CPU (during the poll, or traced by it after
 * the exit before any interrupt) and no IPI to it, when the capture has
 * wakeups.
 * Without either, a poll as long as the default limit (haltpoll sets its
 * own, shorter, which is then missed).
 */
static bool poll_timed_out(struct model *m, const struct cpu_state *c)
{
	m->st.poll_periods++;
	if (c->exit_ctx & EV_CTX_KNOWN) {
		m->st.poll_ends_seen++;
		return !(c->exit_ctx & EV_CTX_RESCHED);
	}
	if (model_poll_end_later(m, c)) {
		m->st.poll_ends_seen++;
		return !c->c.ipi_ts && !poll_woken(c);
	}
	return m->o.poll_limit_ns > 0 && !c->c.in_period && !c->c.ipi_ts &&
	       (int64_t)(c->exit_ns - c->entry_ns) >= m->o.poll_limit_ns;
}

/* The next enabled state after @s, or -1. */
static int deeper(const struct model_opts *o, int s)
{
	while (++s < o->nstates)
		if (!o->disabled[s])
			return s;
	return -1;
}

/* The lag is above @x (@above) or at most @x: kept where it can be
 * (LAG_BINS), bounds the lag cannot meet left out. */
static void lag_bound(struct model *m, int64_t x, bool above)
{
	int64_t b = x / LAG_BIN_NS;

	if (x < 0 || b >= LAG_BINS)
		return;
	if (above)
		m->st.lag_above[b]++;
	else
		m->st.lag_most[b]++;
	m->st.lag_bounds++;
}

/*
 * The kernel's cpu_idle_miss classes its own measure of a period, taken
 * between its clock reads inside the cpu_idle events: the trace's d less
 * a lag.  "above" iff it is below the state's target residency (a
 * shallower state enabled), "below" iff less the exit latency it reaches
 * the next enabled state's (governors.md section 3.4).  Where d is on the
 * other side of a threshold than the kernel's class, the lag is bounded.
 * Stamps in whole microseconds (ftrace text) each lie up to 1 us before
 * the event, so the trace's d is known to 1 us either way: the bounds
 * widen by as much.
 */
static void residency_lag(struct model *m, const struct idle_period *p)
{
	const struct model_opts *o = &m->o;
	int64_t d = (int64_t)(p->exit_ns - p->entry_ns);
	int64_t slack = m->fine_stamps ? 0 : 1000;
	bool above = p->flags & IP_MISS_ABOVE;
	int s = p->state, j, shallower = 0;

	if (s < 0 || s >= o->nstates)
		return;
	for (j = 0; j < s; j++)
		shallower |= !o->disabled[j];
	if (shallower && d >= o->target_ns[s])
		lag_bound(m, d - o->target_ns[s] + (above ? -slack : slack),
			  above);
	j = deeper(o, s);
	if (j < 0 || above || d <= o->exit_ns[s])
		return;
	above = !(p->flags & IP_MISS_BELOW);
	lag_bound(m, d - o->exit_ns[s] - o->target_ns[j] +
		  (above ? -slack : slack), above);
}

/*
 * The kernel's own inputs where probe events gave them: they replace what
 * the model derived.  The kernel's clock reads lie inside the traced
 * period, so a residency longer than it is not this period's.  Returns
 * what was taken (PROBED_*).
 */
static uint8_t probed_inputs(struct model *m, const struct probed *k,
			     struct idle_period *p)
{
	int64_t d = (int64_t)(p->exit_ns - p->entry_ns);
	uint8_t used = k->have & PROBED_TICK;

	if (k->have & PROBED_TICK) {
		p->flags = k->got_tick ? p->flags | IP_GOT_TICK :
			   p->flags & (uint8_t)~IP_GOT_TICK;
		m->st.probed_tick++;
	}
	if (k->have & PROBED_RES) {
		if (k->res_ns >= 0 && k->res_ns <= d) {
			p->exit_ns = p->entry_ns + (uint64_t)k->res_ns;
			m->st.probed_res++;
			used |= PROBED_RES;
		} else {
			m->st.probe_res_off++;
		}
	}
	if (!(k->have & PROBED_SLEEP))
		return used;
	p->sleep_length_ns = k->sleep_ns >= TRACE_TIME_MAX ? NONE : k->sleep_ns;
	p->flags |= IP_SLEEP_EXACT;
	m->st.probed_sleep++;
	return used | PROBED_SLEEP;
}

int model_close_period(struct model *m, uint32_t cpu, struct idl_err *err)
{
	struct cpu_state *c = &m->cpus[cpu];
	struct idle_period p;
	int64_t hr_t = NONE, wh_t = NONE, best, est, sel = c->sel_ts, off;
	uint64_t final;
	bool exact = true;
	uint8_t probed;

	memset(&p, 0, sizeof(p));
	c->closing = false;
	c->reflect_due = false;
	p.entry_ns = c->entry_ns;
	p.exit_ns = c->exit_ns;
	p.cpu = cpu;
	p.state = c->state;
	p.flags = c->flags;
	if (c->stopped_at_sel)
		p.flags |= IP_TICK_STOPPED;
	if (c->c.got_tick)
		p.flags |= IP_GOT_TICK;
	if (c->entry_qos_us >= 0) {
		p.flags |= IP_QOS_KNOWN;
		p.qos_latency_us = (uint32_t)c->entry_qos_us;
	}
	p.wake_cause = pick_cause(&c->c, &p.wake_detail);
	/* "now" went back before a pending timer that had not fired by the
	 * entry: only if a timer then ended the period (not one whose
	 * expiry the trace lost) */
	if (c->sel_moved && p.wake_cause != WAKE_HRTIMER &&
	    p.wake_cause != WAKE_TIMER && p.wake_cause != WAKE_TICK)
		sel = c->sel_ts = (int64_t)c->entry_ns;
	c->sel_moved = false;

	off = model_clock_off_at(m, sel);
	if (c->hr_min != NONE) {
		hr_t = c->hr_min + off;
		exact = m->o.clock_is_mono || m->off.valid;
	}
	if (c->next_at_sel_known) {
		/* the tick stop's programming: tick_nohz_next_event() */
		if (c->next_at_sel != NONE)
			wh_t = c->next_at_sel + off;
		m->st.stop_next_used++;
	} else if (c->wheel_min != NONE) {
		wh_t = model_jiffy_time(m, c->wheel_min, off);
		if (wh_t == NONE)
			exact = false;
	}
	best = model_min64(hr_t, wh_t);
	/* times relative to the kernel's "now", as select saw them */
	p.sleep_length_ns = best == NONE ? NONE : best - sel;
	/* A timer we did not see armed fired: it bounds the sleep length. */
	if ((p.wake_cause == WAKE_HRTIMER || p.wake_cause == WAKE_TIMER) &&
	    !c->c.known_timer) {
		est = (int64_t)c->c.fire_ts - sel;
		if (est < p.sleep_length_ns)
			p.sleep_length_ns = est;
		exact = false;
	}
	if (p.sleep_length_ns == NONE)
		exact = false;
	p.delta_tick_ns = delta_tick(m, c, off, hr_t, p.sleep_length_ns,
				     &p.flags);
	/* A wheel timer within a jiffy keeps the tick: the kernel then
	 * returns the time to the next programmed event (as
	 * tick_nohz_get_sleep_length(), doc/governors.md section 3.2). */
	if (!c->stopped_at_sel && wh_t != NONE && m->jif.valid &&
	    c->wheel_min - model_jiffy_at(m, (uint64_t)sel, off) <= 1 &&
	    p.delta_tick_ns != NONE)
		p.sleep_length_ns = model_min64(p.delta_tick_ns,
						model_rel(hr_t, sel));
	if (exact)
		p.flags |= IP_SLEEP_EXACT;
	probed = probed_inputs(m, &c->probe, &p);
	c->probe.have = 0;

	if (m->o.poll_state >= 0 && p.state == m->o.poll_state &&
	    poll_timed_out(m, c))
		p.flags |= IP_POLL_LIMIT;

	/* the other CPUs' events of that time are missing (an overwritten
	 * ring buffer): its wake cause and timers would be wrong */
	if (p.entry_ns < m->o.emit_from_ns) {
		m->st.before_from++;
		return 0;
	}
	/* Events later than the reordering window allowed can leave a
	 * period that ends before it starts or overlaps the previous one:
	 * drop it (counted) rather than write a trace out of order. */
	if (p.exit_ns < p.entry_ns || p.entry_ns < c->last_emitted) {
		m->st.disordered++;
		return 0;
	}
	c->last_emitted = p.entry_ns;
	if (!(probed & PROBED_RES))	/* the kernel's own has no lag */
		residency_lag(m, &p);
	/* settled once the earliest known timer is due, or after 2 s (at
	 * once with the kernel's sleep length) */
	final = probed & PROBED_SLEEP ? p.entry_ns : p.entry_ns + HOLD_MAX_NS;
	if (p.sleep_length_ns != NONE && sel + p.sleep_length_ns < (int64_t)final)
		final = sel + p.sleep_length_ns > 0 ?
			(uint64_t)(sel + p.sleep_length_ns) : 0;
	return queue(m, c, &p, final, probed & PROBED_SLEEP, err);
}

int model_sweep_deadlines(struct model *m, uint64_t now, struct idl_err *err)
{
	uint64_t next = UINT64_MAX, dl;
	uint32_t i;

	for (i = 0; i < m->st.max_cpu; i++) {
		struct cpu_state *c = &m->cpus[i];

		if (!c->closing)
			continue;
		dl = c->exit_ns + m->o.wake_window_ns;
		if (dl < now) {
			if (model_close_period(m, i, err))
				return -1;
		} else if (dl < next) {
			next = dl;
		}
	}
	m->deadline = next;
	return 0;
}
