// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The model's timer events: hrtimers (the tick's own among them) and
 * timer-wheel timers armed, cancelled and expiring, kept in the table of
 * pending timers (model-timers.c); a timer that fires without having
 * been seen armed bounds the periods held for it (model-close.c).
 */
#include "config.h"

#include "model-int.h"

/* An hrtimer armed before the capture fired: when, in trace time. */
static int64_t unknown_fire(const struct model *m, const struct raw_event *e)
{
	if (e->timer.has_now && m->off.valid)
		return e->timer.now + model_clock_off_at(m, (int64_t)e->ts);
	return (int64_t)e->ts;
}

/*
 * A task sleeps on one hrtimer_wakeup timer at a time, armed by itself:
 * when it arms the next, its previous one has expired or been cancelled,
 * even if the trace lost that event (perf script captures of this VM
 * lose 1 to 109 in 5 s: doc/importing.md).  Forget it, or it would stay
 * pending, overdue, until it counts as stale.
 */
static void sleep_armed(struct model *m, const struct raw_event *e,
			uint64_t key)
{
	uint32_t slot;

	if (!(e->ctx & EV_CTX_TASK_KNOWN) || e->pid <= 0 ||
	    (e->ctx & EV_CTX_HARDIRQ) || e->timer.fn != m->fn_sleep)
		return;
	slot = (uint32_t)e->pid % SLEEPER_SLOTS;
	if (m->sleeper[slot].pid == e->pid && m->sleeper[slot].key != key &&
	    model_timer_find(m, m->sleeper[slot].key) != NIL) {
		model_timer_remove(m, m->sleeper[slot].key);
		m->st.ended_sleeps++;
	}
	m->sleeper[slot].pid = e->pid;
	m->sleeper[slot].key = key;
}

bool model_is_tick_timer(const struct cpu_state *c, const struct raw_event *e)
{
	return e->timer.is_tick ||
	       (c->tick_ptr_known && c->tick_ptr == e->timer.timer);
}

/*
 * The tick handler re-arms its hrtimer in the same interrupt only while
 * the tick runs (it returns HRTIMER_NORESTART when the tick is stopped):
 * a restart in hard-irq context proves the tick is not stopped.
 */
static void tick_restarted(struct cpu_state *c, uint64_t ts)
{
	model_tick_runs(c, ts);
	c->tick_sel = c->tick;
	if (c->phase != PH_IDLE)
		c->stop_snap = false;
}

int model_on_hrtimer(struct model *m, const struct raw_event *e,
		      struct idl_err *err)
{
	struct cpu_state *c = &m->cpus[e->cpu];
	uint64_t key = model_timer_key(TK_HR, e->timer.timer);
	bool is_tick = model_is_tick_timer(c, e);
	bool stop_seq = c->phase == PH_LOOP && c->tick_stopped;
	bool known;

	if (is_tick) {
		c->tick_ptr = e->timer.timer;
		c->tick_ptr_known = true;
	}
	switch (e->type) {
	case EV_HRTIMER_START:
		if (is_tick) {
			c->tick.known = TK_PENDING;
			c->tick.exp = e->timer.expires;
			if (stop_seq)
				model_stop_programmed(c, e->timer.expires);
			if (m->tick_ns && m->grid_phase < 0 && !c->tick_stopped)
				m->grid_phase = e->timer.expires % m->tick_ns;
			if (c->in_tick_handler && (e->ctx & EV_CTX_HARDIRQ))
				tick_restarted(c, e->ts);
			else if (!stop_seq)
				c->tick_sel = c->tick;
			c->in_tick_handler = false;
		} else {
			sleep_armed(m, e, key);
			if (e->timer.expires > FOREIGN_NS) {
				m->st.foreign_base++;
				model_timer_remove(m, key);
			} else {
				model_timer_set(m, TK_HR, e->timer.timer,
						e->cpu, e->timer.expires, 0);
			}
		}
		break;
	case EV_HRTIMER_CANCEL:
		if (is_tick) {
			c->tick.known = TK_OFF;
			if (stop_seq)
				model_stop_programmed(c, NONE);
			if (!stop_seq)
				c->tick_sel = c->tick;
		} else {
			model_timer_remove(m, key);
		}
		break;
	default:	/* expire entry */
		if (e->timer.has_now)
			model_observe_offset(m, e->ts, (int64_t)e->timer.now);
		if (is_tick) {
			int64_t off = model_clock_off_at(m, (int64_t)e->ts);
			int64_t due = c->tick.known == TK_PENDING ?
				c->tick.exp + off : NONE;

			c->tick.known = TK_OFF;
			c->tick_sel = c->tick;
			c->in_tick_handler = true;
			if (model_tick_seen(m, c, e, due))
				model_local_cause(m, c, e, WAKE_TICK, 0, true);
			break;
		}
		known = model_timer_find(m, key) != NIL;
		model_timer_remove(m, key);
		model_local_cause(m, c, e, WAKE_HRTIMER, e->timer.fn, known);
		if (!known)
			return model_bound_held(m, c, unknown_fire(m, e),
						NONE, false, e->ts, err);
	}
	return 0;
}

/*
 * The jiffy a wheel timer's bucket expires at, which is what the wheel
 * reports as its next event: traced by newer kernels (bucket_expiry),
 * else rounded up from expires to the granularity of the level its
 * index is in (8^level jiffies), past level 0's single jiffy too; a
 * timer already due goes in the bucket of the wheel's clock.
 */
static int64_t wheel_bucket(const struct raw_event *e)
{
	uint32_t shift;

	if (e->timer.has_bucket)
		return (int64_t)e->timer.bucket_expiry;
	if (!e->timer.has_idx)
		return e->timer.expires;
	if (e->timer.has_now &&
	    (int64_t)((uint64_t)e->timer.expires - e->timer.now) < 0)
		return (int64_t)e->timer.now;
	shift = 3 * ((e->timer.flags >> EV_TIMER_ARRAYSHIFT) / 64);
	return (int64_t)((((uint64_t)e->timer.expires >> shift) + 1) << shift);
}

int model_on_wheel(struct model *m, const struct raw_event *e,
		    struct idl_err *err)
{
	struct cpu_state *c = &m->cpus[e->cpu];
	uint64_t key = model_timer_key(TK_WHEEL, e->timer.timer);
	uint32_t tcpu;
	int64_t fire, jiffy, off;
	int32_t n;
	bool known;

	if (e->timer.has_now)
		model_observe_jiffies(m, e->ts, e->timer.now);
	switch (e->type) {
	case EV_TIMER_START:
		tcpu = e->timer.flags & EV_TIMER_CPUMASK;
		if (tcpu >= TRACE_MAX_CPUS)
			tcpu = e->cpu;
		model_timer_set(m, TK_WHEEL, e->timer.timer, tcpu,
				wheel_bucket(e), e->timer.flags);
		return model_rearmed(m, key, e->timer.flags, e->ts, err);
	case EV_TIMER_CANCEL:
		/* known only if it was pending: a timer armed before the
		 * capture is detached too before it runs */
		n = model_timer_find(m, key);
		c->wheel_detached = n != NIL ? key : 0;
		if (n != NIL) {
			c->detached_cpu = m->nodes[n].cpu;
			c->detached_pinned = m->nodes[n].pinned;
		}
		model_timer_remove(m, key);
		break;
	default:
		/* the wheel detaches a timer (timer_cancel) before running it */
		n = model_timer_find(m, key);
		known = n != NIL || c->wheel_detached == key;
		if (n != NIL) {
			c->detached_cpu = m->nodes[n].cpu;
			c->detached_pinned = m->nodes[n].pinned;
		}
		if (known && model_tmigr_runs_elsewhere(e, c->detached_cpu,
							c->detached_pinned))
			m->tmigr = m->st.tmigr = true;
		c->wheel_detached = 0;
		model_timer_remove(m, key);
		model_local_cause(m, c, e, WAKE_TIMER, e->timer.fn, known);
		if (known)
			break;
		/* it was due at the start of the jiffy it ran in */
		off = model_clock_off_at(m, (int64_t)e->ts);
		fire = e->timer.has_now ?
		       model_jiffy_time(m, (int64_t)e->timer.now, off) : NONE;
		if (fire == NONE || fire > (int64_t)e->ts)
			fire = (int64_t)e->ts;
		jiffy = e->timer.has_now ? (int64_t)e->timer.now : NONE;
		return model_unknown_run(m, c, key, fire, jiffy, e->ts, err);
	}
	return 0;
}
