/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-CPU state machine that turns kernel trace events into idle
 * periods with the inputs a governor saw at idle entry (sleep length,
 * time to the next tick, tick stopped), the wake cause and the kernel's
 * own above/below verdicts.  The rules are in doc/importing.md.
 *
 * Memory is fixed at model_create(): per-CPU state and a timer table of
 * MODEL_TIMER_SLOTS entries; feeding events never allocates.
 */
#ifndef IDLELAB_MODEL_H
#define IDLELAB_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "events.h"
#include "trace.h"

#define MODEL_TIMER_SLOTS	(1U << 16)	/* pending timers, all CPUs */
#define MODEL_WAKE_WINDOW_NS	100000	/* causes accepted after an exit */

/* The residency lag is looked for up to LAG_BINS * LAG_BIN_NS. */
#define LAG_BINS	256
#define LAG_BIN_NS	100
/*
 * Where few periods ended near a target residency, the lags the kernel's
 * miss classes allow span many microseconds, and their middle overshoots
 * (10.7 us on one lab capture; where the range is narrow, the lab's
 * captures agree on 1.3-1.4 us): the estimate goes at most this far past
 * the least lag the classes demand.
 */
#define LAG_SPREAD_NS	1000
/*
 * The lag is about what tracing an event costs, which the gaps between
 * consecutive events of a CPU show: where the miss classes leave the lag
 * open, it is taken no longer than the gap a tenth of those gaps fall
 * below.  Measured: x86 KVM guest, ns clock: 100 ns (the lag that agrees
 * best, 200 ns), us text: 0; arm64 lab (TCG, icount): 0.9-1.4 us (the
 * lag its miss classes pin, 1.3-1.4 us), us text: 1 us.
 */
#define LAG_GAP_SHARE	10	/* 1 / LAG_GAP_SHARE of the gaps */

/* Called for each finished period, per CPU in time order. */
typedef int (*model_emit_fn)(void *ctx, const struct idle_period *p,
			     struct idl_err *err);

struct model_opts {
	uint32_t	hz;		/* 0: estimate from the events */
	bool		clock_is_mono;	/* trace clock is CLOCK_MONOTONIC */
	uint64_t	wake_window_ns;	/* 0: MODEL_WAKE_WINDOW_NS */
	int		poll_state;	/* index of a polling state, or -1 */
	int64_t		poll_limit_ns;	/* its time limit, 0 if unknown */
	uint64_t	emit_from_ns;	/* periods entered earlier are left
					 * out (0: none) */
	/* each CPU's resume-latency QoS in us at the start (-1 none), or
	 * NULL: none known (TRACE_MAX_CPUS entries) */
	const int32_t	*dev_qos_us;
	/* the kernel migrates idle CPUs' timers (6.9+, model_tmigr_runs_elsewhere()):
	 * else the model turns it on when the events show it */
	bool		tmigr;
	/* the table's states, for the kernel's miss rule (residency_lag()):
	 * exit latency and target residency, ns; disabled; 0 states: none */
	int		nstates;
	int64_t		exit_ns[CSTATE_MAX], target_ns[CSTATE_MAX];
	bool		disabled[CSTATE_MAX];
};

struct model_stats {
	uint64_t	events;			/* fed */
	uint64_t	by_type[EV_TYPE_COUNT];
	uint64_t	periods;		/* emitted */
	uint64_t	partial_start;		/* exit without entry */
	uint64_t	partial_end;		/* still idle at the end */
	uint64_t	no_exit;		/* entry followed by an entry */
	uint64_t	no_entry;		/* exit not after an entry */
	uint64_t	late_events;		/* older than the CPU's last */
	uint64_t	disordered;		/* periods dropped: out of order */
	uint64_t	lost_events;		/* reported by the reader */
	uint64_t	with_flags;		/* events with EV_CTX_KNOWN */
	/* periods in the polling state, and those of them whose end (time
	 * limit or need_resched) the capture showed (model-close.c) */
	uint64_t	poll_periods, poll_ends_seen;
	/* CPU latency QoS: at the start (-1: unknown), the changes */
	int64_t		qos_start_us;
	uint64_t	qos_changes;
	uint64_t	before_from;		/* left out: before emit_from_ns */
	uint64_t	too_long;		/* > TRACE_MAX_PERIOD_NS */
	uint64_t	timer_table_full;	/* timers not tracked */
	uint64_t	foreign_base;		/* hrtimers on REALTIME/TAI bases */
	uint64_t	stale_timers;		/* overdue, expiry never seen */
	uint64_t	ended_sleeps;		/* a task's next sleep ended it */
	uint64_t	lost_ticks;		/* tick found overdue: re-gridded */
	uint64_t	hold_bounded;		/* no known timer: bounded later */
	uint64_t	hold_unbounded;		/* ... never bounded */
	uint64_t	hold_lowered;		/* an earlier unknown timer */
	uint64_t	hold_global;		/* unknown, taken as unpinned */
	uint64_t	hold_deferrable;	/* unknown, re-armed deferrable */
	uint64_t	sleep_exact;		/* periods with IP_SLEEP_EXACT */
	uint64_t	tick_exact;		/* periods with IP_TICK_EXACT */
	uint64_t	estimated;		/* with either not exact */
	uint64_t	no_timer;		/* sleep length TRACE_NO_TIMER */
	bool		tmigr;			/* timer migration's rules */
	/* the residency lag's bounds (model-close.c), by bins of
	 * LAG_BIN_NS: periods whose lag must be above, or at most, the
	 * bin's time */
	uint32_t	lag_above[LAG_BINS], lag_most[LAG_BINS];
	uint64_t	lag_bounds;		/* all of them */
	/* gaps between consecutive events of one CPU, by bins of
	 * LAG_BIN_NS up to LAG_BINS, and how many there were in all */
	uint64_t	event_gap[LAG_BINS];
	uint64_t	event_gaps;
	uint64_t	tmigr_last;		/* selects as the last active CPU */
	uint64_t	stop_next_used;		/* sleep lengths from a tick stop */
	/* periods with the kernel's own input from a probe event */
	uint64_t	probed_sleep, probed_res, probed_tick;
	uint64_t	probe_res_off;		/* residency probes not used */
	uint64_t	wake[WAKE_CAUSE_COUNT];
	uint64_t	first_ts, last_ts;
	uint32_t	max_cpu;		/* highest CPU seen + 1 */
	uint32_t	hz;			/* used (given or estimated) */
	bool		hz_estimated;
	/* the trace clock's rate against CLOCK_MONOTONIC, in parts per
	 * billion (model-clock.c), when a trace clock other than mono had
	 * enough hrtimer expiries for a slope */
	bool		drift_known;
	int64_t		drift_ppb;
};

struct model;

struct model *model_create(const struct model_opts *o, model_emit_fn emit,
			   void *ctx, struct idl_err *err);
/* Events must come in time order (see struct ev_sorter for readers). */
int model_feed(struct model *m, const struct raw_event *e,
	       struct idl_err *err);
/* Emit what is still pending and count the partial periods. */
int model_finish(struct model *m, struct idl_err *err);
const struct model_stats *model_get_stats(const struct model *m);
/* Copy the span, event and lost-event counts, HZ and CPU count learnt
 * into a trace's metadata. */
void model_fill_meta(const struct model *m, struct trace_meta *wm);
/* One line per needed event that was absent, with what it costs (from
 * the stats: they outlive the model in an import's summary). */
void model_print_missing(const struct model_stats *st, FILE *f);
/* The periods whose inputs probe events gave, one line after @prefix
 * (nothing without such events). */
void model_print_probed(const struct model_stats *st, const char *prefix,
			FILE *f);
void model_free(struct model *m);

/* The trace's idle periods less the kernel's measure of them, ns: one
 * that contradicts fewest of the lag_* bounds (the middle of the first
 * run of such bins), or -1 with none; the bounds it contradicts in
 * @bad. */
int64_t model_residency_lag(const struct model_stats *st, uint64_t *bad);

/* Set poll_state/poll_limit_ns from @t's polling state 0 (as the
 * kernel's cpuidle_poll_time(), doc/governors.md section 3.3), and the
 * states for the kernel's miss rule. */
void model_poll_opts(const struct cstate_table *t, uint32_t hz,
		     struct model_opts *mo);

/* Wheel timers remembered by the scan, to see one run elsewhere. */
#define TMIGR_SLOTS	256

/* HZ from the events: tick-timer spacing or jiffies against time; and
 * whether the kernel migrates idle CPUs' timers (tmigr_seen). */
struct hz_est {
	uint64_t	j0_ts, j1_ts;	/* first/last jiffies observation */
	uint64_t	j0, j1;
	bool		have_j;
	int64_t		tick_last[8];	/* last tick expiry of CPUs 0..7 */
	int64_t		tick_first[8];	/* first ..., for hz_est_merge() */
	uint8_t		tick_seen;	/* CPUs with a tick expiry */
	int64_t		tick_min_gap;
	/* unpinned timers by pointer, direct-mapped; for hz_est_merge(),
	 * also the first run in a slot this part saw before any arming
	 * (a lookup that reached the parts before it) */
	struct {
		uint64_t	ptr, first_ptr;
		uint32_t	cpu, first_cpu;	/* + 1; 0: none */
		bool		touched;
	}		armed[TMIGR_SLOTS];
	bool		tmigr_seen;
	uint32_t	fn_nohz_handler;	/* ev_name_hash() of 6.9's tick */
};
void hz_est_init(struct hz_est *h);
void hz_est_feed(struct hz_est *h, const struct raw_event *e);
/* @b, fed the events that follow @a's, into @a: as if @a had been fed
 * them all. */
void hz_est_merge(struct hz_est *a, const struct hz_est *b);
/* A standard HZ (100, 250, 300, 1000, ...) or 0 if unknown. */
uint32_t hz_est_result(const struct hz_est *h);
/*
 * Timer migration (Linux 6.9 on): a CPU whose tick is stopped in idle
 * leaves its unpinned ("global") wheel timers to the last CPU still
 * active, which runs them.  A global timer armed for one CPU and run
 * by another shows it, and so does the tick's 6.9 name.
 */
bool model_tmigr_runs_elsewhere(const struct raw_event *e, uint32_t armed_cpu,
				bool pinned);
/* Does the kernel of release @release ("6.12.118+deb12-arm64") migrate
 * timers?  False when unknown. */
bool kernel_migrates_timers(const char *release);

/*
 * Reordering window: readers push events in input order, the sorter hands
 * them to the model in (ts, input order) order once more than @cap are
 * held.  Events that arrive later than the window allows are still fed
 * and counted in stats.late_events by the model.
 */
struct ev_sorter;
struct ev_sorter *ev_sorter_create(size_t cap, struct model *m,
				   struct idl_err *err);
int ev_sorter_push(struct ev_sorter *s, const struct raw_event *e,
		   struct idl_err *err);
int ev_sorter_flush(struct ev_sorter *s, struct idl_err *err);
void ev_sorter_free(struct ev_sorter *s);

/*
 * Timer times beyond +-EV_TIMER_MAX (ns or jiffies) mean "never" and
 * would overflow the model's arithmetic: @e with them clamped, in @copy
 * (or @e itself when it is no timer event).
 */
#define EV_TIMER_MAX	(1LL << 61)

static inline int64_t ev_clamp_timer(int64_t v)
{
	return v > EV_TIMER_MAX ? EV_TIMER_MAX :
	       v < -EV_TIMER_MAX ? -EV_TIMER_MAX : v;
}
const struct raw_event *ev_clamp_timers(const struct raw_event *e,
					struct raw_event *copy);

#endif /* IDLELAB_MODEL_H */
