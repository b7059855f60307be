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

/* A gap between two consecutive events of a CPU (model_residency_lag()) */
static void count_gap(struct model_stats *st, uint64_t gap)
{
	if (gap / LAG_BIN_NS < LAG_BINS)
		st->event_gap[gap / LAG_BIN_NS]++;
	st->event_gaps++;
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
			 model_is_tick_timer(c, e) &&
			 !(e->ctx & EV_CTX_HARDIRQ));
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
	if (e->ts < c->last_ts) {
		m->st.late_events++;
	} else {
		if (c->last_ts)
			count_gap(&m->st, e->ts - c->last_ts);
		c->last_ts = e->ts;
	}
	if (ev_is_probe(e->type)) {
		model_on_probe(m, c, e);
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
	model_follow_irqs(c, e);

	switch (e->type) {
	case EV_CPU_IDLE:
		return model_on_idle(m, e, err);
	case EV_HRTIMER_START:
	case EV_HRTIMER_CANCEL:
	case EV_HRTIMER_EXPIRE_ENTRY:
		return model_on_hrtimer(m, e, err);
	case EV_TIMER_START:
	case EV_TIMER_CANCEL:
	case EV_TIMER_EXPIRE_ENTRY:
		return model_on_wheel(m, e, err);
	case EV_IRQ_HANDLER_ENTRY:
	case EV_VEC_ENTRY:
		model_local_cause(m, c, e, WAKE_IRQ, (uint32_t)e->irq.irq,
				  true);
		break;
	case EV_VEC_IPI_ENTRY:
		/* an IPI taken (x86's call_function(_single), reschedule
		 * vectors), a local cause like an IRQ: inside the period it
		 * shows the driver ran with interrupts on.  pick_cause()
		 * takes the sender where its ipi_send was traced (6.6 on);
		 * without one (6.1) the receipt alone names no sender */
		model_local_cause(m, c, e, WAKE_IPI, WAKE_IPI_NO_SENDER,
				  true);
		break;
	case EV_IPI_SEND_CPU:
	case EV_IPI_SEND_CPUMASK:
	case EV_SCHED_WAKEUP:
		model_on_remote(m, e);
		break;
	case EV_CPU_IDLE_MISS:
	case EV_TICK_STOP:
	case EV_SCHED_SWITCH:
		return model_on_boundary(m, e, err);
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
