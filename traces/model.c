// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Events -> idle periods.  One state machine per CPU follows the idle
 * loop (task / idle loop / inside a cpuidle period), the tick's own
 * hrtimer and a table of the other pending timers, and closes each
 * period once its wake cause is known.  doc/importing.md states every
 * rule and estimate used here.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model-int.h"

static void set_hz(struct model *m, uint32_t hz, bool estimated)
{
	m->st.hz = hz;
	m->st.hz_estimated = estimated;
	m->tick_ns = hz ? idl_tick_nsec_for_hz(hz) : 0;
}

struct model *model_create(const struct model_opts *o, model_emit_fn emit,
			   void *ctx, struct idl_err *err)
{
	struct model *m = calloc(1, sizeof(*m));
	uint32_t i;

	if (m) {
		m->buckets = malloc(MODEL_TIMER_SLOTS * sizeof(m->buckets[0]));
		m->nodes = malloc(MODEL_TIMER_SLOTS * sizeof(m->nodes[0]));
	}
	if (!m || !m->buckets || !m->nodes) {
		model_free(m);
		idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
		return NULL;
	}
	m->o = *o;
	m->tmigr = m->st.tmigr = o->tmigr;
	if (!m->o.wake_window_ns)
		m->o.wake_window_ns = MODEL_WAKE_WINDOW_NS;
	m->emit = emit;
	m->ctx = ctx;
	hz_est_init(&m->hz_est);
	m->fn_sleep = ev_name_hash("hrtimer_wakeup");
	set_hz(m, o->hz, false);
	m->grid_phase = -1;
	m->qos_us = -1;
	m->st.qos_start_us = -1;
	m->deadline = UINT64_MAX;
	for (i = 0; i < MODEL_TIMER_SLOTS; i++) {
		m->buckets[i] = NIL;
		m->nodes[i].hnext = i + 1 < MODEL_TIMER_SLOTS ? (int32_t)i + 1 : NIL;
	}
	m->free_list = 0;
	for (i = 0; i < TRACE_MAX_CPUS; i++) {
		m->cpus[i].timers = NIL;
		m->cpus[i].state = TRACE_STATE_UNKNOWN;
		m->cpus[i].entry_qos_us = -1;
		m->cpus[i].dev_qos_us = o->dev_qos_us ? o->dev_qos_us[i] : -1;
	}
	return m;
}

void model_free(struct model *m)
{
	uint32_t i;

	if (!m)
		return;
	for (i = 0; i < TRACE_MAX_CPUS; i++) {
		if (m->cpus[i].hold)
			free(m->cpus[i].hold->q);
		free(m->cpus[i].hold);
	}
	free(m->buckets);
	free(m->nodes);
	free(m);
}

const struct model_stats *model_get_stats(const struct model *m)
{
	return &m->st;
}

/* ------------------------------------------------------ timer table */

static uint32_t key_bucket(uint64_t key)
{
	return (uint32_t)((key * 0x9E3779B97F4A7C15ULL) >> 48) &
	       (MODEL_TIMER_SLOTS - 1);
}

static uint64_t timer_key(uint8_t kind, uint64_t ptr)
{
	/* hrtimers and timer_lists are distinct objects; keep them apart */
	return kind == TK_WHEEL ? ptr ^ 0x8000000000000001ULL : ptr;
}

static int32_t timer_find(struct model *m, uint64_t key)
{
	int32_t i = m->buckets[key_bucket(key)];

	while (i != NIL && m->nodes[i].key != key)
		i = m->nodes[i].hnext;
	return i;
}

static void list_del(struct model *m, int32_t i)
{
	struct timer_node *n = &m->nodes[i];

	if (n->prev != NIL)
		m->nodes[n->prev].next = n->next;
	else
		m->cpus[n->cpu].timers = n->next;
	if (n->next != NIL)
		m->nodes[n->next].prev = n->prev;
}

static void list_add(struct model *m, int32_t i, uint32_t cpu)
{
	struct timer_node *n = &m->nodes[i];

	n->cpu = cpu;
	n->prev = NIL;
	n->next = m->cpus[cpu].timers;
	if (n->next != NIL)
		m->nodes[n->next].prev = i;
	m->cpus[cpu].timers = i;
}

static void timer_remove(struct model *m, uint64_t key)
{
	int32_t *pp = &m->buckets[key_bucket(key)];

	while (*pp != NIL && m->nodes[*pp].key != key)
		pp = &m->nodes[*pp].hnext;
	if (*pp == NIL)
		return;
	int32_t i = *pp;

	*pp = m->nodes[i].hnext;
	list_del(m, i);
	m->nodes[i].hnext = m->free_list;
	m->free_list = i;
}

static void timer_set(struct model *m, uint8_t kind, uint64_t ptr,
		      uint32_t cpu, int64_t exp, uint32_t flags)
{
	uint64_t key = timer_key(kind, ptr);
	int32_t i = timer_find(m, key);
	uint32_t b;

	if (i == NIL) {
		if (m->free_list == NIL) {
			m->st.timer_table_full++;
			return;
		}
		i = m->free_list;
		m->free_list = m->nodes[i].hnext;
		b = key_bucket(key);
		m->nodes[i].key = key;
		m->nodes[i].hnext = m->buckets[b];
		m->buckets[b] = i;
	} else {
		list_del(m, i);
	}
	m->nodes[i].kind = kind;
	m->nodes[i].exp = exp;
	m->nodes[i].deferrable = flags & EV_TIMER_DEFERRABLE;
	m->nodes[i].pinned = flags & EV_TIMER_PINNED;
	list_add(m, i, cpu);
}

/* ------------------------------------------------- event handlers */

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
	t = jiffy_time_unsnapped(m, n->exp, off);
	/* snapping moves it less than a tick down: no need to when even
	 * that is not overdue (most pending timers) */
	if (t == NONE || t - m->tick_ns >= sel - slack)
		return false;
	return jiffy_time(m, n->exp, off) < sel - slack;
}

/* The tick of @c runs (again) from @ts. */
static void tick_runs(struct cpu_state *c, uint64_t ts)
{
	if (c->tick_stopped)
		c->restart_ts = ts;
	c->tick_stopped = false;
}

/*
 * The idle loop of @c ends (or ended) at @ts: the next select sees the
 * tick running, and the tick's hrtimer as it is now.
 */
static void loop_ends(struct cpu_state *c, uint64_t ts)
{
	c->loop_ending = true;
	tick_runs(c, ts);
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
 * The wheel's next event for @c's select under timer migration (6.9+,
 * the kernel's fetch_next_timer_interrupt() and timer_use_tmigr()):
 * its earliest timer if that is due within a jiffy; else its pinned
 * timers, and the unpinned ones of every idle CPU (its own among them)
 * only when it is the last active CPU, which must wake for them.
 */
static int64_t tmigr_wheel_min(struct model *m, struct cpu_state *c,
			       int64_t local, int64_t global, int64_t off)
{
	int64_t first = min64(local, global);
	int32_t i;
	uint32_t k;

	if (first != NONE && m->jif.valid &&
	    first - jiffy_at(m, (uint64_t)c->sel_ts, off) <= 1)
		return first;
	if (!c->sel_lonely)
		return local;
	m->st.tmigr_last++;
	for (k = 0; k < m->st.max_cpu; k++) {
		if (&m->cpus[k] == c)
			continue;
		for (i = m->cpus[k].timers; i != NIL; i = m->nodes[i].next)
			if (global_timer(&m->nodes[i]) &&
			    m->nodes[i].exp < global &&
			    !stale(m, &m->nodes[i], c->sel_ts, off))
				global = m->nodes[i].exp;
	}
	return min64(local, global);
}

static void snapshot_inputs(struct model *m, struct cpu_state *c)
{
	int64_t off = clock_off_at(m, c->sel_ts), local = NONE, global = NONE;
	int32_t i, next;

	c->hr_min = NONE;
	for (i = c->timers; i != NIL; i = next) {
		const struct timer_node *n = &m->nodes[i];

		next = n->next;
		if (stale(m, n, c->sel_ts, off)) {
			m->st.stale_timers++;
			timer_remove(m, n->key);
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
	int64_t first = NONE, off = clock_off_at(m, (int64_t)e->ts);

	if (c->hr_min != NONE)
		first = c->hr_min + off;
	if (c->wheel_min != NONE)
		first = min64(first, jiffy_time(m, c->wheel_min, off));
	if (c->tick_at_sel.known == TK_PENDING)
		first = min64(first, c->tick_at_sel.exp + off);
	if (first != NONE && first > (int64_t)c->now_ts &&
	    first < (int64_t)e->ts) {
		c->sel_ts = (int64_t)c->now_ts;
		c->sel_moved = true;
	}
}

static int on_idle(struct model *m, const struct raw_event *e,
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
		next_at_select(c);
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
bool collecting(const struct model *m, const struct cpu_state *c,
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

static void local_cause(struct model *m, struct cpu_state *c,
			const struct raw_event *e, uint8_t what,
			uint32_t detail, bool known)
{
	if (!collecting(m, c, e->ts) || (c->phase != PH_IDLE && in_task(e)))
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

/* An hrtimer armed before the capture fired: when, in trace time. */
static int64_t unknown_fire(const struct model *m, const struct raw_event *e)
{
	if (e->timer.has_now && m->off.valid)
		return e->timer.now + clock_off_at(m, (int64_t)e->ts);
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
	    timer_find(m, m->sleeper[slot].key) != NIL) {
		timer_remove(m, m->sleeper[slot].key);
		m->st.ended_sleeps++;
	}
	m->sleeper[slot].pid = e->pid;
	m->sleeper[slot].key = key;
}

static bool is_tick_timer(const struct cpu_state *c, const struct raw_event *e)
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
	tick_runs(c, ts);
	c->tick_sel = c->tick;
	if (c->phase != PH_IDLE)
		c->stop_snap = false;
}

static int on_hrtimer(struct model *m, const struct raw_event *e,
		      struct idl_err *err)
{
	struct cpu_state *c = &m->cpus[e->cpu];
	uint64_t key = timer_key(TK_HR, e->timer.timer);
	bool is_tick = is_tick_timer(c, e);
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
				stop_programmed(c, e->timer.expires);
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
				timer_remove(m, key);
			} else {
				timer_set(m, TK_HR, e->timer.timer, e->cpu,
					  e->timer.expires, 0);
			}
		}
		break;
	case EV_HRTIMER_CANCEL:
		if (is_tick) {
			c->tick.known = TK_OFF;
			if (stop_seq)
				stop_programmed(c, NONE);
			if (!stop_seq)
				c->tick_sel = c->tick;
		} else {
			timer_remove(m, key);
		}
		break;
	default:	/* expire entry */
		if (e->timer.has_now)
			model_observe_offset(m, e->ts, (int64_t)e->timer.now);
		if (is_tick) {
			int64_t due = c->tick.known == TK_PENDING ?
				c->tick.exp + clock_off_at(m, (int64_t)e->ts) :
				NONE;

			c->tick.known = TK_OFF;
			c->tick_sel = c->tick;
			c->in_tick_handler = true;
			if (tick_seen(m, c, e, due))
				local_cause(m, c, e, WAKE_TICK, 0, true);
			break;
		}
		known = timer_find(m, key) != NIL;
		timer_remove(m, key);
		local_cause(m, c, e, WAKE_HRTIMER, e->timer.fn, known);
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

static int on_wheel(struct model *m, const struct raw_event *e,
		    struct idl_err *err)
{
	struct cpu_state *c = &m->cpus[e->cpu];
	uint64_t key = timer_key(TK_WHEEL, e->timer.timer);
	uint32_t tcpu;
	int64_t fire, jiffy;
	int32_t n;
	bool known;

	if (e->timer.has_now)
		model_observe_jiffies(m, e->ts, e->timer.now);
	switch (e->type) {
	case EV_TIMER_START:
		tcpu = e->timer.flags & EV_TIMER_CPUMASK;
		if (tcpu >= TRACE_MAX_CPUS)
			tcpu = e->cpu;
		timer_set(m, TK_WHEEL, e->timer.timer, tcpu, wheel_bucket(e),
			  e->timer.flags);
		return model_rearmed(m, key, e->timer.flags, e->ts, err);
	case EV_TIMER_CANCEL:
		/* known only if it was pending: a timer armed before the
		 * capture is detached too before it runs */
		n = timer_find(m, key);
		c->wheel_detached = n != NIL ? key : 0;
		if (n != NIL) {
			c->detached_cpu = m->nodes[n].cpu;
			c->detached_pinned = m->nodes[n].pinned;
		}
		timer_remove(m, key);
		break;
	default:
		/* the wheel detaches a timer (timer_cancel) before running it */
		n = timer_find(m, key);
		known = n != NIL || c->wheel_detached == key;
		if (n != NIL) {
			c->detached_cpu = m->nodes[n].cpu;
			c->detached_pinned = m->nodes[n].pinned;
		}
		if (known && tmigr_runs_elsewhere(e, c->detached_cpu,
						  c->detached_pinned))
			m->tmigr = m->st.tmigr = true;
		c->wheel_detached = 0;
		timer_remove(m, key);
		local_cause(m, c, e, WAKE_TIMER, e->timer.fn, known);
		if (known)
			break;
		/* it was due at the start of the jiffy it ran in */
		fire = e->timer.has_now ?
		       jiffy_time(m, (int64_t)e->timer.now,
				  clock_off_at(m, (int64_t)e->ts)) : NONE;
		if (fire == NONE || fire > (int64_t)e->ts)
			fire = (int64_t)e->ts;
		jiffy = e->timer.has_now ? (int64_t)e->timer.now : NONE;
		return model_unknown_run(m, c, key, fire, jiffy, e->ts, err);
	}
	return 0;
}

static void on_remote(struct model *m, const struct raw_event *e)
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
	if (collecting(m, c, e->ts) && !c->c.wake_ts &&
	    (c->phase == PH_IDLE || e->cpu == t)) {
		c->c.wake_ts = e->ts;
		c->c.wake_from = e->cpu;
	}
	/* a task woken onto an idle CPU ends its idle loop */
	if (c->phase == PH_IDLE)
		tick_runs(c, e->ts);
	else if (c->phase == PH_LOOP)
		loop_ends(c, e->ts);
}

static int on_boundary(struct model *m, const struct raw_event *e,
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
		tick_runs(c, e->ts);
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
 * one after reflect, and only the time rule of tick_seen() is left.
 */
static void follow_irqs(struct cpu_state *c, const struct raw_event *e)
{
	bool hr = e->type == EV_HRTIMER_EXPIRE_ENTRY ||
		  ((e->type == EV_HRTIMER_START ||
		    e->type == EV_HRTIMER_CANCEL) &&
		   (e->ctx & (EV_CTX_KNOWN | EV_CTX_HARDIRQ)) != EV_CTX_KNOWN);

	if (e->type == EV_IRQ_HANDLER_ENTRY)
		c->irq_ts = e->ts;
	else if (!hr)
		c->irq_ts = 0;
	if (c->chain == CH_NONE)
		return;
	if (e->type == EV_IRQ_HANDLER_EXIT)
		c->chain_exit_ts = e->ts;
	if (!(e->ctx & EV_CTX_KNOWN) ||
	    !(e->ctx & (EV_CTX_HARDIRQ | EV_CTX_SOFTIRQ)))
		c->chain = CH_NONE;
	else if (c->chain == CH_OPEN)
		c->chain = e->type == EV_IRQ_HANDLER_ENTRY ? CH_IRQ : CH_OTHER;
}

/*
 * A probe event with a value the kernel's governor read (doc/importing.md,
 * "Probed inputs"): the sleep length of the select that enters the next
 * period, and the residency and got_tick of the reflect after the period
 * just ended (still collecting causes: cpu_idle_miss waits for them once
 * such probes are seen).  Probes are no part of the model's own view.
 */
static void on_probe(struct model *m, struct cpu_state *c,
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

/*
 * Does @e on its CPU come before the next select (so that the kernel's
 * "now" is at or after it)?  Not the idle entry, and not the tick's stop
 * sequence that runs between select and the entry: tick_stop and the
 * re-programming of the tick's hrtimer while it is stopped.
 */
static bool before_select(const struct cpu_state *c, const struct raw_event *e)
{
	switch (e->type) {
	case EV_CPU_IDLE:
		return e->idle.state == EV_IDLE_EXIT;
	case EV_TICK_STOP:
		return false;
	case EV_HRTIMER_START:
	case EV_HRTIMER_CANCEL:
		return !(c->phase == PH_LOOP && c->tick_stopped &&
			 is_tick_timer(c, e) && !(e->ctx & EV_CTX_HARDIRQ));
	default:
		return true;
	}
}

int model_feed(struct model *m, const struct raw_event *e,
	       struct idl_err *err)
{
	struct raw_event copy;
	struct cpu_state *c;

	m->st.events++;
	m->st.by_type[e->type < EV_TYPE_COUNT ? e->type : 0]++;
	m->st.with_flags += e->ctx & EV_CTX_KNOWN;
	if (e->cpu >= TRACE_MAX_CPUS)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "CPU %u beyond the limit of %d CPUs",
				   e->cpu, TRACE_MAX_CPUS);
	if (e->type == EV_LOST) {	/* saturate: a huge count must not wrap */
		if (__builtin_add_overflow(m->st.lost_events, e->lost.count,
					   &m->st.lost_events))
			m->st.lost_events = UINT64_MAX;
		return 0;
	}
	if (e->ts > (uint64_t)TIME_MAX)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "event at %llu ns: times past 2^62 ns are "
				   "not supported", (unsigned long long)e->ts);
	e = ev_clamp_timers(e, &copy);
	c = &m->cpus[e->cpu];
	if (!m->st.first_ts || e->ts < m->st.first_ts)
		m->st.first_ts = e->ts;
	if (e->ts > m->st.last_ts)
		m->st.last_ts = e->ts;
	if (e->cpu + 1 > m->st.max_cpu)
		m->st.max_cpu = e->cpu + 1;
	if (e->ts < c->last_ts)
		m->st.late_events++;
	else
		c->last_ts = e->ts;
	if (e->type >= EV_PROBE_SLEEP) {
		on_probe(m, c, e);
		return 0;
	}
	if (c->reflect_due && c->closing && model_close_period(m, e->cpu, err))
		return -1;
	if (!m->o.hz) {
		hz_est_feed(&m->hz_est, e);
		if (!m->tick_ns && hz_est_result(&m->hz_est))
			set_hz(m, hz_est_result(&m->hz_est), true);
	}
	if (e->ts > m->deadline && model_sweep_deadlines(m, e->ts, err))
		return -1;
	if (c->nruns && model_settle_runs(m, c, e->ts, err))
		return -1;
	if (c->hold && model_release(m, c, e->ts, err))
		return -1;
	if (before_select(c, e)) {
		c->now_ts = e->ts;
		c->now_switch = e->type == EV_SCHED_SWITCH && !e->sw.next_pid;
	}
	if (e->type != EV_HRTIMER_START && e->type != EV_HRTIMER_EXPIRE_ENTRY)
		c->in_tick_handler = false;
	follow_irqs(c, e);

	switch (e->type) {
	case EV_CPU_IDLE:
		return on_idle(m, e, err);
	case EV_HRTIMER_START:
	case EV_HRTIMER_CANCEL:
	case EV_HRTIMER_EXPIRE_ENTRY:
		return on_hrtimer(m, e, err);
	case EV_TIMER_START:
	case EV_TIMER_CANCEL:
	case EV_TIMER_EXPIRE_ENTRY:
		return on_wheel(m, e, err);
	case EV_IRQ_HANDLER_ENTRY:
		local_cause(m, c, e, WAKE_IRQ, (uint32_t)e->irq.irq, true);
		break;
	case EV_IPI_SEND_CPU:
	case EV_IPI_SEND_CPUMASK:
	case EV_SCHED_WAKEUP:
		on_remote(m, e);
		break;
	case EV_CPU_IDLE_MISS:
	case EV_TICK_STOP:
	case EV_SCHED_SWITCH:
		return on_boundary(m, e, err);
	case EV_PM_QOS_UPDATE:
		model_qos_update(m, e);
		break;
	case EV_PM_QOS_REQUEST:
	case EV_DEV_QOS_REQUEST:
		model_qos_request(m, e);
		break;
	default:
		break;
	}
	return 0;
}

int model_finish(struct model *m, struct idl_err *err)
{
	uint32_t i;

	for (i = 0; i < m->st.max_cpu; i++) {
		if (m->cpus[i].closing && model_close_period(m, i, err))
			return -1;
		if (model_settle_runs(m, &m->cpus[i], UINT64_MAX, err))
			return -1;
		if (model_release(m, &m->cpus[i], UINT64_MAX, err))
			return -1;
		if (m->cpus[i].phase == PH_IDLE)
			m->st.partial_end++;
	}
	return 0;
}
