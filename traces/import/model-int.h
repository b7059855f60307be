/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event model's own state and helpers, shared by its files: model.c
 * (create, feed, finish), the event handlers (model-ev-idle.c,
 * model-ev-timer.c), the timer table (model-timers.c), the tick
 * (model-tick.c), the clocks (model-clock.c), PM QoS (model-qos.c) and
 * closing periods (model-close.c: their inputs, and holding them until
 * timers armed before the capture are known).  Every function here is
 * model_*.
 */
#ifndef IDLELAB_MODEL_INT_H
#define IDLELAB_MODEL_INT_H

#include "model.h"

#define NONE		INT64_MAX
#define NIL		(-1)
#define FOREIGN_NS	100000000000000000LL	/* ~3 years: not a mono time */
/*
 * Bounds that keep every sum and difference below in int64_t whatever
 * the input holds: event times up to 2^62 ns (~146 years; later ones
 * are refused), timer times and jiffies clamped to +-2^61 (a timer that
 * far away is "never" either way), jiffy conversions saturated.
 */
#define TIME_MAX	(1LL << 62)

enum phase { PH_UNKNOWN, PH_TASK, PH_LOOP, PH_IDLE };

/*
 * After an exit: the interrupts pending then are taken as cpuidle
 * re-enables interrupts, before the governor's reflect, up to the first
 * event in task context.  Whether the first of them was a traced IRQ
 * tells architectures whose every interrupt, the timer's too, is one
 * (arm64) from those whose timer and IPIs are not (x86).
 */
enum chain { CH_NONE, CH_OPEN, CH_IRQ, CH_OTHER };

/*
 * Timers armed before the capture are unknown until they fire.  So each
 * period waits here (per CPU, in order) until the trace has passed the
 * earliest timer known at its entry: if a timer armed before the capture
 * fires on the CPU first, it was pending all along and bounds the
 * period's sleep length (doc/importing.md).  Periods wait at most 2 s.
 */
#define HOLD_MAX_NS	2000000000LL	/* give up waiting after 2 s */
#define HOLD_BUDGET	(1U << 17)	/* held periods, all CPUs together */
#define REARM_WAIT_NS	10000000LL	/* for an unknown timer's re-arm */
/* the kernel's "now" is at most this much before the entry event */
#define SEL_MAX_NS	100000
/* an hrtimer (the tick's too) overdue at select by more than this fired
 * unseen: no capture of the development VM held a later one that the
 * kernel had not taken yet (doc/importing.md) */
#define HR_LATE_MAX_NS	100000
/* a wake interrupt taken after the exit event comes this soon, before
 * reflect (drivers that enter with interrupts off) */
#define TICK_WAKE_NS	20000
/* tasks whose last sleep timer is remembered (direct-mapped by pid) */
#define SLEEPER_SLOTS	1024

struct held {
	struct idle_period	p;
	int64_t			sel;		/* the kernel's now */
	uint64_t		final;		/* trace time it is settled */
	bool			lonely;		/* the last CPU awake at select:
						 * others' unpinned timers
						 * counted (timer migration) */
	bool			probed;		/* the kernel's sleep length:
						 * no bound applies */
};

#define UNKNOWN_RUNS	8		/* pending per CPU */
struct unknown_run {
	uint64_t		key;
	int64_t			fire, jiffy;
	uint64_t		ts;		/* when it ran */
};

struct hold {				/* a ring, grown by doubling */
	uint32_t		head, n, cap;
	struct held		*q;
};
/*
 * The trace clock's offset from CLOCK_MONOTONIC, a line through the
 * lowest (stamp - now) samples (model-clock.c): samples are taken in
 * blocks of OFF_BLOCK_NS, the lowest of each kept in a ring.
 */
#define OFF_BLOCK_NS	100000000ULL
#define OFF_BLOCKS	16	/* the slope's span: ~1.6 s */
#define OFF_RECENT	4	/* the level's: ~0.4 s */

struct off_sample {
	int64_t		ts, off;
};

struct off_track {
	bool			valid;
	struct off_sample	blk;		/* lowest of the open block */
	uint64_t		blk_start;
	struct off_sample	ring[OFF_BLOCKS];
	uint32_t		head, n;
	/* off(ts) = base + (ts - base_ts) * ppb / 1e9 */
	int64_t			base, base_ts;
	double			ppb;
};

/*
 * Jiffies: jiffy J starts at monotonic time g + (J - j_ref) * TICK_NSEC,
 * g the tightest bound of this window or the last (NONE: unknown); until
 * the tick grid and the clock offset are known, at trace time
 * sref + (J - j_ref) * TICK_NSEC snapped down onto the grid.
 */
struct jiffy_track {
	bool			valid;
	uint64_t		j_ref;
	int64_t			sref;
	int64_t			g_cur, g_prev;
	uint64_t		win;
};

enum tick_known { TK_UNKNOWN, TK_PENDING, TK_OFF };
enum timer_kind { TK_HR = 1, TK_WHEEL = 2 };

struct tick_view {
	int8_t		known;		/* enum tick_known */
	int64_t		exp;		/* raw base ns when TK_PENDING */
};

struct timer_node {
	uint64_t	key;
	int64_t		exp;		/* hrtimer: base ns; wheel: jiffies */
	uint32_t	cpu;
	uint8_t		kind;
	bool		deferrable;
	bool		pinned;		/* wheel: TIMER_PINNED, never migrated */
	int32_t		hnext;		/* hash chain / free list */
	int32_t		prev, next;	/* per-CPU list */
};

/* What is known about why the current or closing period ended. */
struct cause {
	uint64_t	ts;		/* first local cause, 0 if none */
	uint8_t		what;		/* enum wake_cause */
	uint32_t	detail;
	bool		known_timer;	/* the firing timer was pending */
	uint64_t	fire_ts;	/* unknown timer: when it fired */
	uint64_t	ipi_ts, wake_ts;
	uint32_t	ipi_from, wake_from;
	bool		got_tick;
	bool		in_period;	/* a local cause inside the period */
	uint64_t	after_exit_ts;	/* the first one after the exit */
};

/* What probe events said of a period (PROBED_* in have). */
#define PROBED_SLEEP	0x01
#define PROBED_RES	0x02
#define PROBED_TICK	0x04
struct probed {
	uint8_t		have;
	bool		got_tick;
	int64_t		sleep_ns, res_ns;
};

struct cpu_state {
	uint8_t		phase;
	bool		seen_idle;
	bool		closing;	/* ended, collecting causes */
	uint64_t	entry_ns, exit_ns;
	int16_t		state;
	uint8_t		flags;
	uint8_t		exit_ctx;	/* EV_CTX_* of the exit event */
	int32_t		entry_qos_us;	/* constraint at entry, -1 unknown */
	int32_t		dev_qos_us;	/* its resume-latency QoS, -1 none */
	/* the PM QoS request event just traced here: what the
	 * pm_qos_update_target after it changes (QOS_PEND_*) */
	uint8_t		qos_pend;
	int32_t		qos_pend_cpu;
	uint64_t	qos_pend_ts;
	/* inputs at select time, snapshotted at entry */
	int64_t		hr_min;		/* raw base ns, NONE */
	int64_t		wheel_min;	/* jiffies, NONE */
	/* the tick's timer as the tick stop after a select programmed it:
	 * tick_nohz_next_event()'s result (raw base ns, NONE: cancelled),
	 * and that of the period being entered (next_at_sel) */
	int64_t		stop_next, next_at_sel;
	bool		stop_next_known, next_at_sel_known;
	struct tick_view tick_at_sel;
	bool		stopped_at_sel, stopped_now;
	struct cause	c;
	/* the tick's hrtimer now, and as the next select will see it */
	uint64_t	tick_ptr;
	bool		tick_ptr_known;
	struct tick_view tick, tick_sel;
	bool		tick_stopped;	/* tick_stop seen in this idle loop */
	/* when it was last stopped and last ran again: the CPU's time out
	 * of the timer migration hierarchy (model-ev-idle.c,
	 * last_active()) */
	uint64_t	stop_ts, restart_ts;
	uint64_t	idle_to;	/* the exit that was its first event */
	bool		sel_lonely;	/* last_active() at the select */
	bool		stop_snap;	/* tick_stopped at the last exit */
	int32_t		timers;		/* list head */
	uint64_t	last_ts;
	uint64_t	last_emitted;	/* entry of the last period written */
	/* the kernel's "now" (ts->idle_entrytime): the last event of this
	 * CPU before select, and its value for the current period */
	uint64_t	now_ts;
	bool		now_switch;	/* now_ts: the switch to idle */
	int64_t		sel_ts;
	bool		sel_moved;	/* by sel_before_pending() */
	bool		in_tick_handler;	/* tick expired, not re-armed */
	/* the interrupts taken at the exit, before reflect: enum chain */
	uint8_t		chain;
	uint64_t	chain_exit_ts;	/* the chain's last IRQ left then */
	uint64_t	irq_ts;		/* the IRQ entered last, 0 once left */
	uint64_t	idle_switch_ts;	/* the last switch to the idle task */
	bool		tick_latch;	/* got_idle_tick set for the next period */
	bool		loop_ending;	/* a task runs next: the loop ends */
	uint64_t	wheel_detached;	/* key of the last wheel timer
					 * cancelled here (it may run next) */
	uint32_t	detached_cpu;	/* whose it was */
	bool		detached_pinned;
	struct hold	*hold;		/* periods awaiting a timer bound */
	/* unknown wheel timers run here, whose bound on the held periods
	 * waits for their re-arm (model-close.c, model_unknown_run()) */
	struct unknown_run runs[UNKNOWN_RUNS];
	uint32_t	nruns;
	/* the kernel's own inputs from probe events (model_probe()): the
	 * sleep length of the last select, of the current period, and
	 * the residency and got_tick of its reflect */
	struct probed	next_probe, probe;
	/* closed at the next event not a probe: the reflect's probes
	 * come after its cpu_idle_miss */
	bool		reflect_due;
};

struct model {
	struct model_opts	o;
	model_emit_fn		emit;
	void			*ctx;
	struct model_stats	st;
	struct hz_est		hz_est;
	uint32_t		fn_sleep;	/* hash of hrtimer_wakeup */
	struct {
		int32_t		pid;
		uint64_t	key;
	}			sleeper[SLEEPER_SLOTS];
	int64_t			tick_ns;	/* 0 while HZ unknown */
	bool			tmigr;		/* idle CPUs' timers migrate */
	int32_t			qos_us;		/* CPU latency QoS, -1 unknown */
	bool			qos_req_seen;	/* pm_qos_*_request traced */
	struct off_track	off;	/* trace clock - CLOCK_MONOTONIC */
	struct jiffy_track	jif;
	/* tick grid phase in base ns, -1 unknown */
	int64_t			grid_phase;
	uint64_t		deadline;	/* earliest closing deadline */
	uint32_t		held;		/* periods held, all CPUs */
	uint32_t		unknown_runs;	/* pending, all CPUs */
	/* an idle exit stamped off the whole microsecond: not µs text */
	bool			fine_stamps;
	/* a residency or got_tick probe seen: cpu_idle_miss waits for
	 * the reflect's probes (model_probe()) */
	bool			reflect_probes;
	int32_t			free_list;
	int32_t			*buckets;
	struct timer_node	*nodes;
	struct cpu_state	cpus[TRACE_MAX_CPUS];
};

/* ------------------------------------------------- clock relations */

static inline int64_t model_clamp_time(int64_t v)
{
	return v > TIME_MAX ? TIME_MAX : v < -TIME_MAX ? -TIME_MAX : v;
}

/* a + b * c, saturated to +-EV_TIMER_MAX (jiffies to ns and back) */
static inline int64_t model_sat_muladd(int64_t a, int64_t b, int64_t c)
{
	int64_t r;

	if (__builtin_mul_overflow(b, c, &r) ||
	    __builtin_add_overflow(a, r, &r))
		return (b < 0) != (c < 0) ? -EV_TIMER_MAX : EV_TIMER_MAX;
	return ev_clamp_timer(r);
}

/* How far @mono is past the tick grid's last point, [0, TICK_NSEC). */
static inline int64_t model_past_grid(const struct model *m, int64_t mono)
{
	int64_t r = (mono - m->grid_phase) % m->tick_ns;

	return r < 0 ? r + m->tick_ns : r;
}

static inline int64_t model_min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static inline int64_t model_rel(int64_t t, uint64_t entry)
{
	return t == NONE ? NONE : t - (int64_t)entry;
}

/* model-clock.c: the offset at trace time @ts (0 with a monotonic trace
 * clock or before the first sample); jiffy times at offset @off */
int64_t model_clock_off_at(const struct model *m, int64_t ts);
void model_observe_offset(struct model *m, uint64_t ts, int64_t base_now);
void model_observe_jiffies(struct model *m, uint64_t ts, uint64_t j);
int64_t model_jiffy_time_unsnapped(const struct model *m, int64_t j,
				   int64_t off);
/* trace time at which jiffy @j starts, NONE if unknown */
int64_t model_jiffy_time(const struct model *m, int64_t j, int64_t off);
/* the jiffy current at trace time @ts */
int64_t model_jiffy_at(const struct model *m, uint64_t ts, int64_t off);

/* model-close.c */
int model_close_period(struct model *m, uint32_t cpu, struct idl_err *err);
bool model_poll_end_later(const struct model *m, const struct cpu_state *c);
int model_sweep_deadlines(struct model *m, uint64_t now,
			  struct idl_err *err);
int model_bound_held(struct model *m, struct cpu_state *c, int64_t fire,
		     int64_t jiffy, bool global, uint64_t now,
		     struct idl_err *err);
int model_unknown_run(struct model *m, struct cpu_state *c, uint64_t key,
		      int64_t fire, int64_t jiffy, uint64_t now,
		      struct idl_err *err);
int model_rearmed(struct model *m, uint64_t key, uint32_t flags, uint64_t now,
		  struct idl_err *err);
int model_settle_runs(struct model *m, struct cpu_state *c, uint64_t now,
		      struct idl_err *err);
int model_release(struct model *m, struct cpu_state *c, uint64_t now,
		  struct idl_err *err);

/* model-qos.c */
void model_qos_request(struct model *m, const struct raw_event *e);
void model_qos_update(struct model *m, const struct raw_event *e);
int32_t model_qos_at_entry(const struct model *m, const struct cpu_state *c);

/* model-timers.c: the table of pending timers */
uint64_t model_timer_key(uint8_t kind, uint64_t ptr);
int32_t model_timer_find(struct model *m, uint64_t key);
void model_timer_remove(struct model *m, uint64_t key);
void model_timer_set(struct model *m, uint8_t kind, uint64_t ptr,
		     uint32_t cpu, int64_t exp, uint32_t flags);

/* model-ev-idle.c: the idle loop's events and the wake cause */
int model_on_idle(struct model *m, const struct raw_event *e,
		  struct idl_err *err);
int model_on_boundary(struct model *m, const struct raw_event *e,
		      struct idl_err *err);
void model_on_remote(struct model *m, const struct raw_event *e);
void model_on_probe(struct model *m, struct cpu_state *c,
		    const struct raw_event *e);
void model_follow_irqs(struct cpu_state *c, const struct raw_event *e);
void model_local_cause(struct model *m, struct cpu_state *c,
		       const struct raw_event *e, uint8_t what,
		       uint32_t detail, bool known);
bool model_collecting(const struct model *m, const struct cpu_state *c,
		      uint64_t ts);

/* model-ev-timer.c: hrtimer and timer-wheel events */
int model_on_hrtimer(struct model *m, const struct raw_event *e,
		     struct idl_err *err);
int model_on_wheel(struct model *m, const struct raw_event *e,
		   struct idl_err *err);
bool model_is_tick_timer(const struct cpu_state *c,
			 const struct raw_event *e);

/* model-tick.c */
void model_stop_programmed(struct cpu_state *c, int64_t exp);
void model_next_at_select(struct cpu_state *c);
bool model_tick_seen(struct model *m, struct cpu_state *c,
		     const struct raw_event *e, int64_t due);
void model_tick_runs(struct cpu_state *c, uint64_t ts);

#endif
