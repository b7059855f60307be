// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The model's idle-loop events: idle entry (what the select saw) and
 * exit, the loop's boundaries (cpu_idle_miss, tick_stop, sched_switch),
 * wakeups and IPIs sent to a CPU, the interrupts taken at an exit, probe
 * events, and the wake cause they add up to (doc/importing.md).
 */
#include "config.h"

#include <string.h>

#include "model-int.h"

static uint32_t target_cpu(const struct model *m, uint32_t cpu)
{
	(void)m;
	return cpu < TRACE_MAX_CPUS ? cpu : TRACE_MAX_CPUS - 1;
}

/*
 * A pending timer long overdue at select fired where the trace did not
 * see it (its expiry event was lost or ran elsewhere): the kernel no
 * longer had it.  Long: HR_LATE_MAX_NS for an hrtimer, a tick for a
 * wheel timer (the wheel runs it at a tick after its jiffy); never for
 * a deferrable one.
 */
static bool stale(struct model *m, const struct timer_node *n, int64_t sel,
		  int64_t off)
{
	int64_t slack = m->tick_ns ? m->tick_ns : 4000000, t;

	if (n->kind == TK_HR)
		return n->exp + off < sel - HR_LATE_MAX_NS;
	/* a deferrable timer waits for a CPU that is awake anyway: overdue
	 * by many ticks on one that idles with its tick stopped */
	if (n->deferrable)
		return false;
	t = model_jiffy_time_unsnapped(m, n->exp, off);
	/* snapping moves it less than a tick down: no need to when even
	 * that is not overdue (most pending timers) */
	if (t == NONE || t - m->tick_ns >= sel - slack)
		return false;
	return model_jiffy_time(m, n->exp, off) < sel - slack;
}

/*
 * The idle loop of @c ends (or ended) at @ts: the next select sees the
 * tick running, and the tick's hrtimer as it is now.
 */
static void loop_ends(struct cpu_state *c, uint64_t ts)
{
	c->loop_ending = true;
	model_tick_runs(c, ts);
	c->stop_snap = false;
	c->tick_sel = c->tick;
}

/* A wheel timer of another CPU that the timer migration hierarchy
 * holds while that CPU idles: unpinned, not deferrable. */
static bool global_timer(const struct timer_node *n)
{
	return n->kind == TK_WHEEL && !n->deferrable && !n->pinned;
}

/*
 * Was @o out of the timer migration hierarchy at @t?  A CPU leaves it
 * when it stops its tick in idle (its timer base goes idle) and comes
 * back when the tick runs again.  The events of other CPUs up to the
 * entry that follows a select are already in: one that woke between
 * the select and the entry was still out at the select.  Before the
 * capture shows it: a CPU still silent more than a tick into the
 * capture, or whose first event ended an idle period longer than a
 * tick, idled with its tick stopped (where the tick's expiries are
 * traced: a running tick shows).
 */
static bool out_at(const struct model *m, const struct cpu_state *o,
		   uint64_t t)
{
	uint64_t tick = m->tick_ns && m->st.by_type[EV_HRTIMER_EXPIRE_ENTRY] ?
			m->tick_ns : UINT32_MAX;

	if (!o->last_ts)
		return t > m->st.first_ts + tick + tick / 4;
	if (t < o->idle_to)
		return o->idle_to > m->st.first_ts + tick;
	if (!o->seen_idle || !o->stop_ts || o->stop_ts > t)
		return false;
	return o->tick_stopped || o->restart_ts < o->stop_ts ||
	       o->restart_ts > t;
}

/* Is @c the one CPU the hierarchy still counted active at its select?
 * CPUs not seen yet count as active. */
static bool last_active(const struct model *m, const struct cpu_state *c)
{
	uint64_t t = (uint64_t)c->sel_ts;
	uint32_t i;

	for (i = 0; i < m->st.max_cpu; i++)
		if (&m->cpus[i] != c && !out_at(m, &m->cpus[i], t))
			return false;
	return true;
}

/*
 * What idle CPU @o handed the hierarchy when it went idle: its earliest
 * unpinned timer, unless a pinned one of its own is due no later (the
 * kernel's fetch_next_timer_interrupt() then leaves the global event
 * out: @o wakes first anyway, and hands it over then).  NONE if nothing.
 */
static int64_t handed_over(struct model *m, const struct cpu_state *o,
			   int64_t sel, int64_t off)
{
	int64_t local = NONE, global = NONE;
	const struct timer_node *n;
	int32_t i;

	for (i = o->timers; i != NIL; i = m->nodes[i].next) {
		n = &m->nodes[i];
		if (n->kind != TK_WHEEL || n->deferrable ||
		    stale(m, n, sel, off))
			continue;
		if (global_timer(n))
			global = model_min64(global, n->exp);
		else
			local = model_min64(local, n->exp);
	}
	return global != NONE && (local == NONE || global < local) ?
	       global : NONE;
}

/*
 * The wheel's next event for @c's select under timer migration (6.9+,
 * the kernel's fetch_next_timer_interrupt() and timer_use_tmigr()):
 * its earliest timer if that is due within a jiffy; else its pinned
 * timers, and only when it is the last active CPU, which must wake for
 * them, its own unpinned ones and those every idle CPU handed over.
 */
static int64_t tmigr_wheel_min(struct model *m, struct cpu_state *c,
			       int64_t local, int64_t global, int64_t off)
{
	int64_t first = model_min64(local, global);
	uint32_t k;

	if (first != NONE && m->jif.valid &&
	    first - model_jiffy_at(m, (uint64_t)c->sel_ts, off) <= 1)
		return first;
	if (!c->sel_lonely)
		return local;
	m->st.tmigr_last++;
	for (k = 0; k < m->st.max_cpu; k++)
		if (&m->cpus[k] != c)
			global = model_min64(global,
					     handed_over(m, &m->cpus[k],
							 c->sel_ts, off));
	return model_min64(local, global);
}

static void snapshot_inputs(struct model *m, struct cpu_state *c)
{
	int64_t off = model_clock_off_at(m, c->sel_ts);
	int64_t local = NONE, global = NONE;
	int32_t i, next;

	c->hr_min = NONE;
	for (i = c->timers; i != NIL; i = next) {
		const struct timer_node *n = &m->nodes[i];

		next = n->next;
		if (stale(m, n, c->sel_ts, off)) {
			m->st.stale_timers++;
			model_timer_remove(m, n->key);
			continue;
		}
		if (n->kind == TK_HR) {
			if (n->exp < c->hr_min)
				c->hr_min = n->exp;
		} else if (m->tmigr && global_timer(n)) {
			/* the hierarchy's, not this CPU's wheel's */
			if (n->exp < global)
				global = n->exp;
		} else if (!n->deferrable && n->exp < local) {
			local = n->exp;
		}
	}
	c->sel_lonely = m->tmigr && last_active(m, c);
	c->wheel_min = m->tmigr ? tmigr_wheel_min(m, c, local, global, off) :
		       local;

	c->tick_at_sel = c->tick_sel;
	c->tick_sel = c->tick;
	c->stopped_at_sel = c->stop_snap;
	c->stopped_now = c->tick_stopped;
}

/*
 * The last event before an entry @e came so long before it that a task
 * may have run unseen, so "now" was taken at the entry.  But a timer due
 * in between that had not fired by the entry found interrupts off since
 * it was due: the CPU was already in the idle path (a vCPU held up on the
 * way), and the kernel's "now" came before it: take the last event.
 */
static void sel_before_pending(struct model *m, struct cpu_state *c,
			       const struct raw_event *e)
{
	int64_t first = NONE, off = model_clock_off_at(m, (int64_t)e->ts);

	if (c->hr_min != NONE)
		first = c->hr_min + off;
	if (c->wheel_min != NONE)
		first = model_min64(first,
				    model_jiffy_time(m, c->wheel_min, off));
	if (c->tick_at_sel.known == TK_PENDING)
		first = model_min64(first, c->tick_at_sel.exp + off);
	if (first != NONE && first > (int64_t)c->now_ts &&
	    first < (int64_t)e->ts) {
		c->sel_ts = (int64_t)c->now_ts;
		c->sel_moved = true;
	}
}

int model_on_idle(struct model *m, const struct raw_event *e,
		   struct idl_err *err)
{
	uint32_t cpu = target_cpu(m, e->idle.cpu_id);
	struct cpu_state *c = &m->cpus[cpu];

	if (cpu + 1 > m->st.max_cpu)
		m->st.max_cpu = cpu + 1;
	if (e->idle.state != EV_IDLE_EXIT) {
		if (c->closing && model_close_period(m, cpu, err))
			return -1;
		if (c->phase == PH_IDLE)
			m->st.no_exit++;
		c->seen_idle = true;
		c->phase = PH_IDLE;
		c->entry_ns = e->ts;
		c->loop_ending = false;
		model_next_at_select(c);
		c->sel_ts = (int64_t)e->ts;
		c->sel_moved = false;
		if (c->now_ts && (c->now_ts + SEL_MAX_NS >= e->ts ||
				  c->now_switch))
			c->sel_ts = (int64_t)c->now_ts;
		c->state = e->idle.state > INT16_MAX ? TRACE_STATE_UNKNOWN :
			   (int16_t)e->idle.state;
		c->entry_qos_us = model_qos_at_entry(m, c);
		c->flags = 0;
		c->probe = c->next_probe;	/* its select's sleep length */
		c->next_probe.have = 0;
		memset(&c->c, 0, sizeof(c->c));
		c->c.got_tick = c->tick_latch;
		c->tick_latch = false;
		snapshot_inputs(m, c);
		if (c->sel_ts == (int64_t)e->ts && c->now_ts &&
		    c->now_ts < e->ts)
			sel_before_pending(m, c, e);
		return 0;
	}
	if (c->phase != PH_IDLE) {
		if (!c->seen_idle) {
			m->st.partial_start++;
			c->idle_to = e->ts;
		} else {
			m->st.no_entry++;
		}
		c->seen_idle = true;
		c->phase = PH_LOOP;
		return 0;
	}
	c->phase = PH_LOOP;
	c->stop_next_known = false;
	c->exit_ns = e->ts;
	if (e->ts % 1000)
		m->fine_stamps = true;
	c->exit_ctx = e->ctx;
	c->closing = true;
	c->chain = (e->ctx & EV_CTX_KNOWN) ? CH_OPEN : CH_NONE;
	c->chain_exit_ts = 0;
	/* need_resched at the exit: the idle loop ends, the tick restarts */
	if (e->ctx & EV_CTX_RESCHED)
		loop_ends(c, e->ts);
	c->stop_snap = c->tick_stopped;
	if (e->ts + m->o.wake_window_ns < m->deadline)
		m->deadline = e->ts + m->o.wake_window_ns;
	return 0;
}

/* Is @cpu inside a period or in the window after one? */
bool model_collecting(const struct model *m, const struct cpu_state *c,
		      uint64_t ts)
{
	if (c->phase == PH_IDLE)
		return true;
	return c->closing && ts <= c->exit_ns + m->o.wake_window_ns;
}

/* Traced in a task, not a CPU's idle task: the idle loop had ended. */
static bool in_task(const struct raw_event *e)
{
	return (e->ctx & (EV_CTX_TASK_KNOWN | EV_CTX_IDLE_TASK)) ==
	       EV_CTX_TASK_KNOWN;
}

/*
 * The cause so far is the IRQ whose handler now runs a timer: a timer
 * interrupt traced as an IRQ (arm64's arch_timer, riscv's), whose
 * hrtimers expire right after its irq_handler_entry.
 */
static bool timer_of_cause_irq(const struct cpu_state *c, uint8_t what)
{
	return (what == WAKE_TICK || what == WAKE_HRTIMER) &&
	       c->c.what == WAKE_IRQ && c->irq_ts && c->irq_ts == c->c.ts;
}

void model_local_cause(struct model *m, struct cpu_state *c,
			const struct raw_event *e, uint8_t what,
			uint32_t detail, bool known)
{
	if (!model_collecting(m, c, e->ts) ||
	    (c->phase != PH_IDLE && in_task(e)))
		return;
	if (c->phase != PH_IDLE && !c->c.after_exit_ts)
		c->c.after_exit_ts = e->ts;
	/* The tick handler runs the expired timers of a stopped tick:
	 * the timer it ran is the real cause.  And a timer run by the IRQ
	 * that came first is: that IRQ was the timer's interrupt. */
	if (c->c.ts && !(c->c.what == WAKE_TICK && c->stopped_now &&
			 what != WAKE_TICK && what != WAKE_IRQ) &&
	    !timer_of_cause_irq(c, what))
		return;
	if (!c->c.ts)
		c->c.ts = e->ts;
	c->c.what = what;
	c->c.detail = detail;
	c->c.known_timer = known;
	c->c.fire_ts = e->ts;
	if (c->phase == PH_IDLE)
		c->c.in_period = true;
}

void model_on_remote(struct model *m, const struct raw_event *e)
{
	uint32_t t;
	struct cpu_state *c;

	if (e->type == EV_SCHED_WAKEUP) {
		if (e->wakeup.target_cpu < 0)
			return;
		t = target_cpu(m, (uint32_t)e->wakeup.target_cpu);
	} else {
		t = target_cpu(m, e->ipi.target);
	}
	c = &m->cpus[t];
	if (e->type != EV_SCHED_WAKEUP) {
		/* only a send during the period can have woken the CPU */
		if (c->phase == PH_IDLE && !c->c.ipi_ts) {
			c->c.ipi_ts = e->ts;
			c->c.ipi_from = e->cpu;
		}
		return;
	}
	if (model_collecting(m, c, e->ts) && !c->c.wake_ts &&
	    (c->phase == PH_IDLE || e->cpu == t)) {
		c->c.wake_ts = e->ts;
		c->c.wake_from = e->cpu;
	}
	/* a task woken onto an idle CPU ends its idle loop */
	if (c->phase == PH_IDLE)
		model_tick_runs(c, e->ts);
	else if (c->phase == PH_LOOP)
		loop_ends(c, e->ts);
}

int model_on_boundary(struct model *m, const struct raw_event *e,
		       struct idl_err *err)
{
	struct cpu_state *c;
	uint32_t cpu;

	if (e->type == EV_CPU_IDLE_MISS) {
		cpu = target_cpu(m, e->miss.cpu_id);
		c = &m->cpus[cpu];
		if (!c->closing)
			return 0;
		c->flags |= e->miss.below ? IP_MISS_BELOW : IP_MISS_ABOVE;
		if (model_poll_end_later(m, c))
			return 0;
		if (m->reflect_probes) {
			c->reflect_due = true;
			return 0;
		}
		return model_close_period(m, cpu, err);
	}
	c = &m->cpus[e->cpu];
	if (c->closing && model_close_period(m, e->cpu, err))
		return -1;
	if (e->type == EV_TICK_STOP) {
		if (e->tick_stop.success && !c->tick_stopped) {
			c->tick_stopped = true;
			c->stop_ts = e->ts;
		}
		return 0;
	}
	/* sched_switch: the idle loop starts or ends here */
	if (e->sw.prev_pid == 0 || e->sw.next_pid == 0) {
		model_tick_runs(c, e->ts);
		c->stop_snap = false;
		c->tick_sel = c->tick;
	}
	c->loop_ending = false;
	c->stop_next_known = false;	/* a select that entered nothing */
	c->next_probe.have = 0;
	if (e->sw.next_pid == 0) {
		c->phase = PH_LOOP;
		c->idle_switch_ts = e->ts;
	}
	else if (c->phase != PH_IDLE)
		c->phase = PH_TASK;
	return 0;
}

/*
 * Follow the interrupts taken at an exit (enum chain) and the IRQ being
 * handled (irq_ts: the timers that expire next run inside it).  The
 * chain ends at the first event in task context.  It needs the context
 * flags: without them an interrupt after the exit cannot be told from
 * one after reflect, and only the time rule of model_tick_seen() is left.
 */
void model_follow_irqs(struct cpu_state *c, const struct raw_event *e)
{
	bool hr = e->type == EV_HRTIMER_EXPIRE_ENTRY ||
		  ((e->type == EV_HRTIMER_START ||
		    e->type == EV_HRTIMER_CANCEL) &&
		   (e->ctx & (EV_CTX_KNOWN | EV_CTX_HARDIRQ)) != EV_CTX_KNOWN);

	if (ev_is_irq_entry(e->type))
		c->irq_ts = e->ts;
	else if (!hr)
		c->irq_ts = 0;
	if (c->chain == CH_NONE)
		return;
	if (e->type == EV_IRQ_HANDLER_EXIT || e->type == EV_VEC_EXIT)
		c->chain_exit_ts = e->ts;
	if (!(e->ctx & EV_CTX_KNOWN) ||
	    !(e->ctx & (EV_CTX_HARDIRQ | EV_CTX_SOFTIRQ)))
		c->chain = CH_NONE;
	else if (c->chain == CH_OPEN)
		c->chain = ev_is_irq_entry(e->type) ? CH_IRQ : CH_OTHER;
}

/*
 * A probe event with a value the kernel's governor read (doc/importing.md,
 * "Probed inputs"): the sleep length of the select that enters the next
 * period, and the residency and got_tick of the reflect after the period
 * just ended (still collecting causes: cpu_idle_miss waits for them once
 * such probes are seen).  Probes are no part of the model's own view.
 */
void model_on_probe(struct model *m, struct cpu_state *c,
		     const struct raw_event *e)
{
	switch (e->type) {
	case EV_PROBE_SLEEP:
		c->next_probe.have = PROBED_SLEEP;
		c->next_probe.sleep_ns = e->probe.value;
		break;
	case EV_PROBE_RESIDENCY:
		m->reflect_probes = true;
		if (c->closing) {
			c->probe.have |= PROBED_RES;
			c->probe.res_ns = e->probe.value;
		}
		break;
	default:
		/* the governor's reflect reads (and clears) the flag first;
		 * do_idle()'s read after it (stable kernels) is not the
		 * governor's */
		m->reflect_probes = true;
		if (c->closing && !(c->probe.have & PROBED_TICK)) {
			c->probe.have |= PROBED_TICK;
			c->probe.got_tick = e->probe.value != 0;
		}
		break;
	}
}
