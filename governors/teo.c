// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * teo - the "timer events oriented" cpuidle governor, as in Linux 6.18.y.
 *
 * What the governor tries to do
 * -----------------------------
 * An idle period ends either because a timer that was known when the CPU
 * went idle fires, or because something else (an IRQ, an IPI, a wakeup of
 * a task by another CPU) arrives first.  The time until the next timer,
 * the "sleep length", is cheap to ask for only some of the time, so teo
 * keeps a small statistical record of how idle periods have ended and
 * uses the sleep length only as a cross-check.
 *
 * The record is organised in "bins", one per idle state: bin i holds idle
 * durations from the target residency of state i up to (not including)
 * the target residency of state i + 1; the deepest bin is open-ended.
 * After every wakeup the governor works out two bins:
 *
 *  - the timer bin, where the sleep length seen at selection time falls;
 *  - the duration bin, where the idle time actually measured falls (the
 *    raw residency minus half the exit latency of the state used, as the
 *    real wakeup cost is rarely the worst case).
 *
 * If both are the same bin, the timer was (probably) what woke the CPU and
 * that bin's "hits" grow; otherwise the CPU was woken early and the
 * duration bin's "intercepts" grow.  All metrics decay geometrically: on
 * every update each one loses 1/2^DECAY_SHIFT of itself, rounded down (so a
 * value below 2^DECAY_SHIFT stays as it is and a metric never returns to
 * 0), and the event that just happened adds PULSE.  A separate running
 * "total" decays the same way and grows by PULSE per event; it is not the
 * sum of the bins.
 *
 * Two more decayed counters sit beside the bins: "short_idles" counts idle
 * periods shorter than RESIDENCY_THRESHOLD_NS, and "tick_intercepts"
 * counts intercepts whose measured duration is compared with the tick
 * period (see the note on the comparison in teo_update()).
 *
 * Selecting a state
 * -----------------
 * 1. The candidate is the deepest enabled state.  On the way the sums of
 *    intercepts and hits of all bins below the candidate are collected.
 * 2. If the intercepts below the candidate outweigh everything from the
 *    candidate up (2 * intercepts_below > total - hits_below, in unsigned
 *    32-bit arithmetic), the bins below are walked from the candidate
 *    downwards, summing intercepts, until more than half of the intercepts
 *    below the candidate are covered; the state where that happens is the
 *    new candidate.  If the tick is already stopped, a state whose target
 *    residency is below the tick period is unsuitable (the CPU could stay
 *    there for a very long time), so the deepest suitable state met on the
 *    way is used instead, and the walk gives up early if nothing suitable
 *    has been met at all.
 * 3. The candidate is limited by the latency constraint.
 * 4. If the candidate is shallow (state 0 or a target residency below
 *    RESIDENCY_THRESHOLD_NS) and either most recent idle periods were short
 *    or the latency constraint is tight, the sleep length is not asked for
 *    at all and the tick is kept running.  The next update then treats the
 *    sleep length as infinite.
 * 5. Otherwise the sleep length is obtained; if it is shorter than the
 *    candidate's target residency, a shallower enabled state that fits is
 *    taken.  If most wakeups were intercepts measured against the tick,
 *    the expected idle duration is assumed to be half a tick, so the tick
 *    is not stopped.
 * 6. The tick may be stopped when the chosen state is not a polling one
 *    and the expected idle duration reaches the tick period (or when it is
 *    stopped already).  When it is kept, the state must fit before the
 *    next tick (delta_tick), otherwise a shallower one is taken.
 *
 * Wakeups that were not "genuine" - the poll state ran out of time, or the
 * tick woke the CPU while the sleep length was longer than one tick - tell
 * nothing about the real idle duration.  reflect() flags them and the next
 * update counts them as infinitely long idle periods (U64_MAX).
 *
 * idlelab notes
 * -------------
 * This copy follows the 6.18.y stable kernel: the 6.14 design plus the
 * 6.18.3 backport that applies the shallower-state step after the sleep
 * length unconditionally.  The counters are u32 as in the kernel and every
 * comparison uses the same signedness as there (see doc/governor-teo.md).
 * The tunables below default to the kernel's constants; tick_intercepts_fix
 * selects the 6.19 direction of the tick_intercepts comparison.
 */
#include <string.h>

#include <idlelab/governor.h>

/* Defaults of the tunables: the kernel's constants. */
#define PULSE			1024
#define DECAY_SHIFT		3
#define LATENCY_THRESHOLD_NS	(7500)

enum teo_param_idx {
	TEO_PULSE,
	TEO_DECAY_SHIFT,
	TEO_RESIDENCY_THRESHOLD,
	TEO_LATENCY_THRESHOLD,
	TEO_TICK_INTERCEPTS_FIX,
};

static const struct idl_gov_param teo_params[] = {
	[TEO_PULSE] = {
		"pulse", "amount added to a metric per event",
		PULSE, 1, 1 << 20 },
	[TEO_DECAY_SHIFT] = {
		"decay_shift", "metrics lose x >> decay_shift per update",
		DECAY_SHIFT, 0, 31 },
	[TEO_RESIDENCY_THRESHOLD] = {
		"residency_threshold_ns",
		"idle periods below this count as short (ns)",
		RESIDENCY_THRESHOLD_NS, 0, 1000000000 },
	[TEO_LATENCY_THRESHOLD] = {
		"latency_threshold_ns",
		"latency_req below this skips the sleep length (ns)",
		LATENCY_THRESHOLD_NS, 0, 1000000000 },
	[TEO_TICK_INTERCEPTS_FIX] = {
		"tick_intercepts_fix",
		"0: count intercepts with TICK_NSEC <= measured (6.18.y), "
		"1: measured <= TICK_NSEC (6.19)",
		0, 0, 1 },
	{ NULL, NULL, 0, 0, 0 }
};

/* One bin per idle state; see the comment at the top. */
struct teo_bin {
	u32	intercepts;
	u32	hits;
};

/*
 * idlelab: what happened, for replay's "governor internals" (doc/scoring.md).
 * Nothing the governor decides on reads these.
 */
enum teo_path {
	TEO_PATH_SINGLE,	/* one enabled state */
	TEO_PATH_INTERCEPTS,	/* the lookup took the intercepts' state */
	TEO_PATH_FIRST_OK,	/* ... its state unusable: deepest suitable */
	TEO_PATH_NONE_OK,	/* tick stopped, nothing suitable: kept */
	TEO_PATH_NO_MAJORITY,	/* the lookup found no majority */
	TEO_PATH_LATENCY,	/* the latency constraint lowered it */
	TEO_PATH_SHORTCUT,	/* sleep length not asked for */
	TEO_PATH_SLEEP_LENGTH,	/* the sleep length made it shallower */
	TEO_PATH_TICK_INTERCEPTS, /* duration taken as half a tick */
	TEO_PATH_TICK_STOPPED,	/* the tick was stopped already */
	TEO_PATH_DELTA_TICK,	/* tick kept: shallower to fit delta_tick */
	TEO_PATH_COUNT
};

struct teo_counts {
	u64	hit_events[CPUIDLE_STATE_MAX];
	u64	intercept_events[CPUIDLE_STATE_MAX];
	u64	path[TEO_PATH_COUNT];
	u64	artificial_wakeups;
};

struct teo_cpu {
	s64		sleep_length_ns;	/* KTIME_MAX if not asked for */
	struct teo_bin	state_bins[CPUIDLE_STATE_MAX];
	u32		total;
	u32		tick_intercepts;
	u32		short_idles;
	bool		artificial_wakeup;
	struct teo_counts count;		/* idlelab */
};

static void teo_count_path(struct cpuidle_device *dev, enum teo_path path)
{
	struct teo_cpu *cpu_data = gov_data(dev);

	cpu_data->count.path[path]++;
}

static u32 teo_pulse(const struct cpuidle_device *dev)
{
	return (u32)gov_param(dev, TEO_PULSE);
}

/* x -= x >> shift: never reaches 0 from below 1 << shift. */
static void teo_decay(const struct cpuidle_device *dev, u32 *x)
{
	*x -= *x >> gov_param(dev, TEO_DECAY_SHIFT);
}

static bool teo_state_disabled(struct cpuidle_device *dev, int i)
{
	return dev->states_usage[i].disable != 0;
}

/*
 * The measured idle duration of the period that just ended, for binning:
 * U64_MAX after an artificial wakeup.  Also feeds short_idles.
 */
static u64 teo_measured_ns(struct cpuidle_driver *drv,
			   struct cpuidle_device *dev, struct teo_cpu *cpu_data)
{
	u64 lat_ns, measured_ns;

	if (cpu_data->artificial_wakeup)
		return U64_MAX;

	lat_ns = (u64)drv->states[dev->last_state_idx].exit_latency_ns;
	measured_ns = dev->last_residency_ns;
	if (measured_ns >= lat_ns) {
		measured_ns -= lat_ns / 2;
		if (measured_ns <
		    (u64)gov_param(dev, TEO_RESIDENCY_THRESHOLD))
			cpu_data->short_idles += teo_pulse(dev);
	} else {
		/* Shorter than the exit latency: a (very) short idle. */
		measured_ns /= 2;
		cpu_data->short_idles += teo_pulse(dev);
	}
	return measured_ns;
}

/*
 * Whether an intercept counts as one "measured against the tick".  6.14 to
 * 6.18 compare TICK_NSEC <= measured, which in practice counts the long
 * intercepts; 6.19 reversed it to measured <= TICK_NSEC.  Both compare as
 * u64 since measured_ns is u64 here.
 */
static bool teo_tick_intercept(const struct cpuidle_device *dev,
			       u64 measured_ns)
{
	u64 tick = (u64)TICK_NSEC;

	if (gov_param(dev, TEO_TICK_INTERCEPTS_FIX))
		return measured_ns <= tick;
	return tick <= measured_ns;
}

/*
 * Account the idle period that ended before this select() in the bins.
 * Runs with dev->last_state_idx >= 0, i.e. after a reflect() (and on the
 * very first select(), on the zeroed device, with state 0 and residency 0).
 */
static void teo_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu *cpu_data = gov_data(dev);
	int i, idx_timer = 0, idx_duration = 0;
	u64 measured_ns;

	teo_decay(dev, &cpu_data->short_idles);
	measured_ns = teo_measured_ns(drv, dev, cpu_data);

	for (i = 0; i < drv->state_count; i++) {
		struct teo_bin *bin = &cpu_data->state_bins[i];
		s64 target_ns = drv->states[i].target_residency_ns;

		teo_decay(dev, &bin->hits);
		teo_decay(dev, &bin->intercepts);

		/* s64 against the sleep length, u64 against measured */
		if (target_ns <= cpu_data->sleep_length_ns) {
			idx_timer = i;
			if ((u64)target_ns <= measured_ns)
				idx_duration = i;
		}
	}

	teo_decay(dev, &cpu_data->tick_intercepts);
	if (idx_timer == idx_duration) {
		cpu_data->state_bins[idx_timer].hits += teo_pulse(dev);
		cpu_data->count.hit_events[idx_timer]++;
	} else {
		cpu_data->state_bins[idx_duration].intercepts +=
			teo_pulse(dev);
		cpu_data->count.intercept_events[idx_duration]++;
		if (teo_tick_intercept(dev, measured_ns))
			cpu_data->tick_intercepts += teo_pulse(dev);
	}

	teo_decay(dev, &cpu_data->total);
	cpu_data->total += teo_pulse(dev);

	gov_explain(dev, "teo: update: last_state_idx=%d measured=%llu%s "
		    "sleep_length=%lld idx_timer=%d idx_duration=%d -> %s %d",
		    dev->last_state_idx, (unsigned long long)measured_ns,
		    cpu_data->artificial_wakeup ? " (artificial)" : "",
		    (long long)cpu_data->sleep_length_ns, idx_timer,
		    idx_duration,
		    idx_timer == idx_duration ? "hit" : "intercept",
		    idx_timer == idx_duration ? idx_timer : idx_duration);
}

/* With the tick stopped, only states at least a tick deep are suitable. */
static bool teo_state_ok(int i, struct cpuidle_driver *drv)
{
	return !tick_nohz_tick_stopped() ||
		drv->states[i].target_residency_ns >= TICK_NSEC;
}

/*
 * The deepest enabled state below @state_idx whose target residency fits
 * in @duration_ns; failing that, the shallowest enabled state below it;
 * failing that, @state_idx itself.
 */
static int teo_find_shallower_state(struct cpuidle_driver *drv,
				    struct cpuidle_device *dev, int state_idx,
				    s64 duration_ns)
{
	int i;

	for (i = state_idx - 1; i >= 0; i--) {
		if (teo_state_disabled(dev, i))
			continue;
		state_idx = i;
		if (drv->states[i].target_residency_ns <= duration_ns)
			break;
	}
	return state_idx;
}

/*
 * Step 2 of the selection: walk down from the candidate @idx until the
 * intercepts summed on the way exceed half of @idx_isum.
 */
static int teo_intercept_lookup(struct cpuidle_driver *drv,
				struct cpuidle_device *dev, int idx,
				u32 idx_isum)
{
	struct teo_cpu *cpu_data = gov_data(dev);
	int first_ok = idx;
	u32 isum = 0;
	int i;

	for (i = idx - 1; i >= 0; i--) {
		isum += cpu_data->state_bins[i].intercepts;

		if (2 * isum > idx_isum) {
			if (teo_state_ok(i, drv) && !teo_state_disabled(dev, i)) {
				teo_count_path(dev, TEO_PATH_INTERCEPTS);
				gov_explain(dev, "teo: lookup: 2*%u > %u at "
					    "%d: candidate %d -> %d", isum,
					    idx_isum, i, idx, i);
				return i;
			}
			gov_explain(dev, "teo: lookup: 2*%u > %u at %d, which "
				    "is %s: candidate %d -> first suitable %d",
				    isum, idx_isum, i,
				    teo_state_disabled(dev, i) ? "disabled" :
				    "too shallow with the tick stopped",
				    idx, first_ok);
			teo_count_path(dev, TEO_PATH_FIRST_OK);
			return first_ok;
		}

		if (teo_state_disabled(dev, i))
			continue;

		if (teo_state_ok(i, drv)) {
			first_ok = i;
			continue;
		}

		/* Too shallow, and nothing suitable below the candidate. */
		if (first_ok == idx) {
			gov_explain(dev, "teo: lookup: %d too shallow with the "
				    "tick stopped, none suitable: candidate "
				    "%d kept", i, idx);
			teo_count_path(dev, TEO_PATH_NONE_OK);
			return idx;
		}
	}

	gov_explain(dev, "teo: lookup: no majority found: candidate %d kept",
		    idx);
	teo_count_path(dev, TEO_PATH_NO_MAJORITY);
	return idx;
}

/*
 * End of select() when the governor may let the tick go: decide on it and,
 * if the tick stays, make sure the state fits before the next tick.
 */
static int teo_tick_decision(struct cpuidle_driver *drv,
			     struct cpuidle_device *dev, int idx, int idx0,
			     s64 duration_ns, s64 delta_tick, bool *stop_tick)
{
	bool polling = drv->states[idx].flags & CPUIDLE_FLAG_POLLING;

	if ((!polling && duration_ns >= TICK_NSEC) ||
	    tick_nohz_tick_stopped()) {
		gov_explain(dev, "teo: tick: duration=%lld%s%s: may stop -> %d",
			    (long long)duration_ns,
			    polling ? " polling" : "",
			    tick_nohz_tick_stopped() ? " (already stopped)" :
			    "", idx);
		if (tick_nohz_tick_stopped())
			teo_count_path(dev, TEO_PATH_TICK_STOPPED);
		return idx;
	}

	if (idx > idx0 && drv->states[idx].target_residency_ns > delta_tick) {
		int shallower = teo_find_shallower_state(drv, dev, idx,
							 delta_tick);

		gov_explain(dev, "teo: tick: keep; target residency of %d > "
			    "delta_tick=%lld: -> %d", idx,
			    (long long)delta_tick, shallower);
		teo_count_path(dev, TEO_PATH_DELTA_TICK);
		idx = shallower;
	} else {
		gov_explain(dev, "teo: tick: keep (duration=%lld%s) -> %d",
			    (long long)duration_ns,
			    polling ? ", polling" : "", idx);
	}
	*stop_tick = false;
	return idx;
}

/*
 * Steps 4-5: the shortcut that skips the sleep length, or the sleep length
 * and what follows from it.  Returns the state; *duration_ns is set for the
 * tick decision, or *keep_tick when the tick must stay without further
 * checks.
 */
static int teo_use_sleep_length(struct cpuidle_driver *drv,
				struct cpuidle_device *dev, int idx,
				s64 latency_req, s64 *duration_ns,
				s64 *delta_tick, bool *keep_tick)
{
	struct teo_cpu *cpu_data = gov_data(dev);
	s64 residency_threshold = gov_param(dev, TEO_RESIDENCY_THRESHOLD);
	s64 latency_threshold = gov_param(dev, TEO_LATENCY_THRESHOLD);

	if ((!idx ||
	     drv->states[idx].target_residency_ns < residency_threshold) &&
	    (2 * cpu_data->short_idles >= cpu_data->total ||
	     latency_req < latency_threshold)) {
		gov_explain(dev, "teo: shortcut: state %d shallow and %s: "
			    "sleep length not queried, tick kept", idx,
			    latency_req < latency_threshold ?
			    "latency_req low" : "short idles dominate");
		teo_count_path(dev, TEO_PATH_SHORTCUT);
		*keep_tick = true;
		return idx;
	}

	*duration_ns = tick_nohz_get_sleep_length(delta_tick);
	cpu_data->sleep_length_ns = *duration_ns;
	gov_explain(dev, "teo: sleep length %lld delta_tick %lld",
		    (long long)*duration_ns, (long long)*delta_tick);

	if (!idx) {
		*keep_tick = true;
		return idx;
	}

	if (drv->states[idx].target_residency_ns > *duration_ns) {
		int i = teo_find_shallower_state(drv, dev, idx, *duration_ns);

		gov_explain(dev, "teo: sleep length below target residency "
			    "of %d: -> %d", idx, i);
		if (i != idx)
			teo_count_path(dev, TEO_PATH_SLEEP_LENGTH);
		idx = i;
	}

	if (drv->states[idx].target_residency_ns < TICK_NSEC &&
	    cpu_data->tick_intercepts >
	    cpu_data->total / 2 + cpu_data->total / 8) {
		*duration_ns = TICK_NSEC / 2;
		teo_count_path(dev, TEO_PATH_TICK_INTERCEPTS);
		gov_explain(dev, "teo: tick_intercepts %u > %u: duration = "
			    "TICK_NSEC/2", cpu_data->tick_intercepts,
			    cpu_data->total / 2 + cpu_data->total / 8);
	}
	return idx;
}

static int teo_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		      bool *stop_tick)
{
	struct teo_cpu *cpu_data = gov_data(dev);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	s64 delta_tick = TICK_NSEC / 2;
	u32 idx_isum = 0, isum = 0, idx_hsum = 0, hsum = 0;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	bool keep_tick = false;
	s64 duration_ns = 0;
	int i;

	if (dev->last_state_idx >= 0) {
		teo_update(drv, dev);
		dev->last_state_idx = -1;
	}

	/* Unknown until asked for; an infinite value means "no timer". */
	cpu_data->sleep_length_ns = KTIME_MAX;

	if (drv->state_count < 2) {
		gov_explain(dev, "teo: single state: 0, tick kept");
		*stop_tick = false;
		return 0;
	}

	if (!teo_state_disabled(dev, 0))
		idx = 0;

	/* Candidate: the deepest enabled state; sums of the bins below. */
	for (i = 1; i < drv->state_count; i++) {
		struct teo_bin *prev_bin = &cpu_data->state_bins[i - 1];

		isum += prev_bin->intercepts;
		hsum += prev_bin->hits;

		if (teo_state_disabled(dev, i))
			continue;
		if (idx < 0)
			idx0 = i;
		idx = i;
		if (drv->states[i].exit_latency_ns <= latency_req)
			constraint_idx = i;
		idx_isum = isum;
		idx_hsum = hsum;
	}

	if (idx < 0) {
		gov_explain(dev, "teo: no state enabled: 0, tick kept");
		*stop_tick = false;
		return 0;
	}

	gov_explain(dev, "teo: sums: isum=%u hsum=%u idx_isum=%u idx_hsum=%u "
		    "total=%u candidate=%d idx0=%d constraint_idx=%d",
		    isum, hsum, idx_isum, idx_hsum, cpu_data->total, idx, idx0,
		    constraint_idx);

	if (idx == idx0) {
		/* A single enabled state: its residency is the estimate. */
		gov_explain(dev, "teo: only state %d enabled", idx);
		teo_count_path(dev, TEO_PATH_SINGLE);
		return teo_tick_decision(drv, dev, idx, idx0,
					 drv->states[idx].target_residency_ns,
					 delta_tick, stop_tick);
	}

	/* u32: total - idx_hsum may wrap, which reads as "no". */
	if (2 * idx_isum > cpu_data->total - idx_hsum)
		idx = teo_intercept_lookup(drv, dev, idx, idx_isum);
	else
		gov_explain(dev, "teo: no lookup: 2*idx_isum=%u <= "
			    "total-idx_hsum=%u", 2 * idx_isum,
			    cpu_data->total - idx_hsum);

	if (idx > constraint_idx) {
		gov_explain(dev, "teo: latency constraint: %d -> %d", idx,
			    constraint_idx);
		teo_count_path(dev, TEO_PATH_LATENCY);
		idx = constraint_idx;
	}

	idx = teo_use_sleep_length(drv, dev, idx, latency_req, &duration_ns,
				   &delta_tick, &keep_tick);
	if (keep_tick) {
		*stop_tick = false;
		return idx;
	}

	return teo_tick_decision(drv, dev, idx, idx0, duration_ns,
				 delta_tick, stop_tick);
}

static void teo_reflect(struct cpuidle_device *dev, int state)
{
	struct teo_cpu *cpu_data = gov_data(dev);

	dev->last_state_idx = state;
	/*
	 * The || short-circuit matters: with poll_time_limit set, the
	 * got_tick flag is left for whoever reads it next.
	 */
	if (dev->poll_time_limit ||
	    (tick_nohz_idle_got_tick() &&
	     cpu_data->sleep_length_ns > TICK_NSEC)) {
		dev->poll_time_limit = false;
		cpu_data->artificial_wakeup = true;
		cpu_data->count.artificial_wakeups++;
	} else {
		cpu_data->artificial_wakeup = false;
	}
}

static int teo_enable_device(struct cpuidle_driver *drv,
			     struct cpuidle_device *dev)
{
	(void)drv;
	memset(gov_data(dev), 0, sizeof(struct teo_cpu));
	return 0;
}

static void teo_explain_state(struct cpuidle_device *dev,
			      struct idl_explain *ex)
{
	struct teo_cpu *cpu_data = gov_data(dev);
	int i;

	idl_explain_printf(ex, "teo: total=%u short_idles=%u "
			   "tick_intercepts=%u artificial=%d sleep_length=%lld",
			   cpu_data->total, cpu_data->short_idles,
			   cpu_data->tick_intercepts,
			   cpu_data->artificial_wakeup,
			   (long long)cpu_data->sleep_length_ns);
	for (i = 0; i < CPUIDLE_STATE_MAX; i++) {
		struct teo_bin *bin = &cpu_data->state_bins[i];

		if (bin->hits || bin->intercepts)
			idl_explain_printf(ex, "teo: bin %d hits=%u "
					   "intercepts=%u", i, bin->hits,
					   bin->intercepts);
	}
}

static const char *const teo_path_name[TEO_PATH_COUNT] = {
	[TEO_PATH_SINGLE]		= "single_state",
	[TEO_PATH_INTERCEPTS]		= "intercepts",
	[TEO_PATH_FIRST_OK]		= "first_suitable",
	[TEO_PATH_NONE_OK]		= "none_suitable",
	[TEO_PATH_NO_MAJORITY]		= "no_majority",
	[TEO_PATH_LATENCY]		= "latency_limit",
	[TEO_PATH_SHORTCUT]		= "shortcut",
	[TEO_PATH_SLEEP_LENGTH]		= "sleep_length",
	[TEO_PATH_TICK_INTERCEPTS]	= "tick_intercepts",
	[TEO_PATH_TICK_STOPPED]		= "tick_stopped",
	[TEO_PATH_DELTA_TICK]		= "delta_tick",
};

static void teo_stats(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		      idl_stat_fn emit, void *ctx)
{
	struct teo_cpu *cpu_data = gov_data(dev);
	const struct teo_counts *c = &cpu_data->count;
	int i;

	for (i = 0; i < drv->state_count; i++) {
		const char *name = drv->states[i].name;

		emit(ctx, "hits", name, cpu_data->state_bins[i].hits,
		     IDL_STAT_LAST);
		emit(ctx, "intercepts", name,
		     cpu_data->state_bins[i].intercepts, IDL_STAT_LAST);
		emit(ctx, "n_hits", name, (long long)c->hit_events[i],
		     IDL_STAT_SUM);
		emit(ctx, "n_intercepts", name,
		     (long long)c->intercept_events[i], IDL_STAT_SUM);
	}
	emit(ctx, "total", NULL, cpu_data->total, IDL_STAT_LAST);
	emit(ctx, "tick_intercepts", NULL, cpu_data->tick_intercepts,
	     IDL_STAT_LAST);
	emit(ctx, "short_idles", NULL, cpu_data->short_idles, IDL_STAT_LAST);
	emit(ctx, "artificial_wakeups", NULL, (long long)c->artificial_wakeups,
	     IDL_STAT_SUM);
	for (i = 0; i < TEO_PATH_COUNT; i++)
		emit(ctx, "path", teo_path_name[i], (long long)c->path[i],
		     IDL_STAT_SUM);
}

const struct idl_governor_ops idl_gov_teo = {
	.name		= "teo",
	.rating		= 19,
	.kernel_version	= "6.18.y",
	.data_size	= sizeof(struct teo_cpu),
	.params		= teo_params,
	.enable		= teo_enable_device,
	.select		= teo_select,
	.reflect	= teo_reflect,
	.explain_state	= teo_explain_state,
	.stats		= teo_stats,
};
