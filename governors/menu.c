// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * menu.c - the menu cpuidle governor, as in Linux 6.18.y
 *
 * A userspace copy of drivers/cpuidle/governors/menu.c of the 6.18.y
 * stable series (6.18.38 plus the "Use residency threshold in polling
 * state override" and "Always check timers with tick stopped" backports),
 * written from a description of the kernel's algorithm (now the section
 * "The algorithm" of doc/governor-menu.md) and checked against the
 * kernel's text.  It must return the same state and the same stop_tick as
 * the kernel for the same inputs, so the integer types below are the
 * kernel's: u64 nanoseconds that wrap, u32 microsecond intervals, UINT_MAX
 * as "no data", and s64 values compared as u64 where the kernel's C does
 * that (the casts spell out what the kernel's usual arithmetic conversions
 * do implicitly).
 *
 * The algorithm in short: menu predicts the idle duration twice.  The
 * first prediction is the time till the next timer (the "sleep length")
 * scaled by a correction factor that learns, per order of magnitude of the
 * sleep length ("bucket"), how much of it the CPU really stays idle.  The
 * second is a "typical interval" of the last 8 idle durations, accepted
 * only when they are tightly clustered.  The smaller one picks the deepest
 * state whose target residency fits and whose exit latency meets the
 * latency constraint; the tick is kept running when the prediction is
 * shorter than a tick.
 *
 * idlelab differences, none of which changes a decision at the defaults:
 *   - per-CPU data via gov_data(dev) instead of a per-CPU variable;
 *   - INTERVALS, DECAY and RESOLUTION are tunables ("intervals", "decay",
 *     "resolution"), read once at enable;
 *   - gov_explain() lines say what select() saw and why it chose.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <idlelab/governor.h>

#define BUCKETS		6
#define INTERVAL_SHIFT	3
#define INTERVALS	(1UL << INTERVAL_SHIFT)	/* the kernel's value */
#define MAX_INTERVALS	16			/* largest "intervals" */
#define RESOLUTION	1024
#define DECAY		8
#define MAX_INTERESTING	(50000 * NSEC_PER_USEC)

/*
 * At the default tunables the divisors are the kernel's constants; telling
 * the compiler so lets it multiply instead of divide (replay speed).
 */
#define UNITY_NS	((u64)RESOLUTION * DECAY * NSEC_PER_USEC)

static inline u64 menu_div_unity(u64 x, u64 unity_ns)
{
	return unity_ns == UNITY_NS ? x / UNITY_NS : x / unity_ns;
}

static inline unsigned int menu_div_decay(unsigned int x, unsigned int decay)
{
	return decay == DECAY ? x / DECAY : x / decay;
}

/* Indices into the params table below (gov_param(dev, i)). */
enum {
	MENU_PARAM_INTERVALS,
	MENU_PARAM_DECAY,
	MENU_PARAM_RESOLUTION,
};

/*
 * idlelab: what happened, for replay's "governor internals" (doc/scoring.md).
 * Nothing the governor decides on reads these.
 */
enum menu_why {			/* how select() ended */
	MENU_WHY_FIT,
	MENU_WHY_STATE0,
	MENU_WHY_LATENCY,
	MENU_WHY_POLL_OVERRIDE,
	MENU_WHY_BELOW_TICK,
	MENU_WHY_RETAIN_TICK,
	MENU_WHY_STOPPED_DEEPER,
	MENU_WHY_STOPPED_KEEP,
	MENU_WHY_COUNT
};

enum menu_typical { MENU_TYPICAL_ACCEPTED, MENU_TYPICAL_NO_DATA,
		    MENU_TYPICAL_SPREAD, MENU_TYPICAL_COUNT };

enum menu_source {		/* where the prediction came from */
	MENU_FROM_TYPICAL,	/* typical interval, timer not asked for */
	MENU_FROM_TYPICAL_TIMER, /* typical interval below the timer's */
	MENU_FROM_TIMER,	/* corrected timer */
	MENU_FROM_NEXT_TIMER,	/* tick stopped: the timer itself */
	MENU_FROM_COUNT
};

struct menu_counts {
	u64	why[MENU_WHY_COUNT];
	u64	typical[MENU_TYPICAL_COUNT];
	u64	source[MENU_FROM_COUNT];
	u64	updates[BUCKETS];
};

struct menu_device {
	int		needs_update;
	int		tick_wakeup;

	u64		next_timer_ns;
	unsigned int	bucket;
	unsigned int	correction_factor[BUCKETS];
	unsigned int	intervals[MAX_INTERVALS];
	int		interval_ptr;

	/* idlelab: this instance's tunables (kernel constants by default) */
	unsigned int	nr_intervals;	/* INTERVALS */
	unsigned int	decay;		/* DECAY */
	unsigned int	resolution;	/* RESOLUTION */
	struct menu_counts count;
};

/* Bucket of a sleep length: one per decade from 10 us to 100 ms. */
static int which_bucket(u64 duration_ns)
{
	if (duration_ns < 10ULL * NSEC_PER_USEC)
		return 0;
	if (duration_ns < 100ULL * NSEC_PER_USEC)
		return 1;
	if (duration_ns < 1000ULL * NSEC_PER_USEC)
		return 2;
	if (duration_ns < 10000ULL * NSEC_PER_USEC)
		return 3;
	if (duration_ns < 100000ULL * NSEC_PER_USEC)
		return 4;
	return 5;
}

static void menu_update_intervals(struct menu_device *data,
				  unsigned int interval_us)
{
	data->intervals[data->interval_ptr++] = interval_us;
	if ((unsigned int)data->interval_ptr >= data->nr_intervals)
		data->interval_ptr = 0;
}

static void menu_update(struct cpuidle_driver *drv,
			struct cpuidle_device *dev);

/*
 * The typical recent idle interval in us, or UINT_MAX when there is none:
 * the average of the recent intervals if their standard deviation is at
 * most 20 us, or at most a sixth of the average with 3/4 of the samples
 * still in.  Otherwise drop the extreme (all samples equal to the min or
 * to the max, whichever lies farther from the average) and try again, down
 * to 3/4 of the samples.  UINT_MAX samples ("no data") never count.
 *
 * The sums are u64 and wrap exactly as the kernel's do; a u32 sample
 * squared does not fit an s64, and the kernel's s64 product wraps to the
 * same bits as this u64 one.
 */
static unsigned int get_typical_interval(struct cpuidle_device *dev,
					 struct menu_device *data)
{
	const unsigned int n = data->nr_intervals;
	s64 min_thresh = -1, max_thresh = UINT_MAX;
	unsigned int max, min, divisor, i;
	u64 avg, variance, avg_sq;
	int pass = 0;

again:
	pass++;
	max = 0;
	min = UINT_MAX;
	avg = 0;
	variance = 0;
	divisor = 0;
	for (i = 0; i < n; i++) {
		s64 value = data->intervals[i];

		/* Outside the (exclusive) thresholds: an outlier. */
		if (value <= min_thresh || value >= max_thresh)
			continue;

		divisor++;
		avg += (u64)value;
		variance += (u64)value * (u64)value;
		if (value > max)
			max = (unsigned int)value;
		if (value < min)
			min = (unsigned int)value;
	}

	if (!max) {
		gov_explain(dev, "menu: typical: pass %d: %u samples, max 0 "
			    "-> UINT_MAX (no data)", pass, divisor);
		data->count.typical[MENU_TYPICAL_NO_DATA]++;
		return UINT_MAX;
	}

	if (divisor == n && n == INTERVALS) {
		avg >>= INTERVAL_SHIFT;
		variance >>= INTERVAL_SHIFT;
	} else {
		avg /= divisor;
		variance /= divisor;
	}

	avg_sq = avg * avg;
	variance -= avg_sq;

	gov_explain(dev, "menu: typical: pass %d: n=%u min=%u max=%u avg=%llu "
		    "var=%llu", pass, divisor, min, max,
		    (unsigned long long)avg, (unsigned long long)variance);

	/* stddev <= 20 us, or avg > 6 * stddev with enough samples */
	if (variance <= U64_MAX / 36) {
		if ((avg_sq > variance * 36 && divisor * 4 >= n * 3) ||
		    variance <= 400) {
			gov_explain(dev, "menu: typical: accepted: %u us",
				    (unsigned int)avg);
			data->count.typical[MENU_TYPICAL_ACCEPTED]++;
			return (unsigned int)avg;
		}
	}

	/* Too few samples left to trust: predict "very long". */
	if (divisor * 4 <= n * 3) {
		gov_explain(dev, "menu: typical: %u of %u samples left "
			    "-> UINT_MAX", divisor, n);
		data->count.typical[MENU_TYPICAL_SPREAD]++;
		return UINT_MAX;
	}

	if (avg - min > max - avg)
		min_thresh = min;
	else
		max_thresh = max;
	gov_explain(dev, "menu: typical: dropping samples %s %u",
		    avg - min > max - avg ? "<=" : ">=",
		    avg - min > max - avg ? min : max);
	goto again;
}

static const char *const menu_why_text[MENU_WHY_COUNT] = {
	[MENU_WHY_FIT] = "deepest state fitting the prediction",
	[MENU_WHY_STATE0] = "state 1 cannot be used: timer before its "
			    "residency, latency limit or single state",
	[MENU_WHY_LATENCY] = "next state's exit latency > latency_req",
	[MENU_WHY_POLL_OVERRIDE] = "polling state override",
	[MENU_WHY_BELOW_TICK] = "next state too deep, prediction below a tick",
	[MENU_WHY_RETAIN_TICK] = "next state too deep, tick running: retain "
				 "tick",
	[MENU_WHY_STOPPED_DEEPER] = "tick stopped: deeper state within "
				    "delta_tick",
	[MENU_WHY_STOPPED_KEEP] = "tick stopped: next state too deep",
};

/* Every exit of menu_select(): explain and count the decision. */
static int menu_result(struct cpuidle_device *dev, int idx, bool *stop_tick,
		       enum menu_why why)
{
	struct menu_device *data = gov_data(dev);

	data->count.why[why]++;
	gov_explain(dev, "menu: -> state %d, stop_tick %d (%s)", idx,
		    *stop_tick ? 1 : 0, menu_why_text[why]);
	return idx;
}

/*
 * menu_select - pick the idle state to enter and whether the tick may stop
 */
static int menu_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       bool *stop_tick)
{
	struct menu_device *data = gov_data(dev);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	enum menu_why why = MENU_WHY_FIT;
	enum menu_source source = MENU_FROM_TYPICAL;
	u64 predicted_ns;
	s64 delta, delta_tick;
	int i, idx;

	if (data->needs_update) {
		menu_update(drv, dev);
		data->needs_update = 0;
	} else if (!dev->last_residency_ns) {
		/* The previous selection was not entered (or first call). */
		gov_explain(dev, "menu: last_residency_ns 0 and no update: "
			    "pushing interval UINT_MAX");
		menu_update_intervals(data, UINT_MAX);
	}

	gov_explain(dev, "menu: inputs: latency_req=%lld tick_stopped=%d",
		    (long long)latency_req, tick_nohz_tick_stopped() ? 1 : 0);

	/* The typical interval, unsigned int us, widened before * 1000. */
	predicted_ns = (u64)get_typical_interval(dev, data) * NSEC_PER_USEC;
	if (predicted_ns > (u64)RESIDENCY_THRESHOLD_NS ||
	    tick_nohz_tick_stopped()) {
		u64 unity_ns = (u64)data->resolution * data->decay *
			       NSEC_PER_USEC;
		unsigned int cf, timer_us;

		delta = tick_nohz_get_sleep_length(&delta_tick);
		gov_explain(dev, "menu: sleep_length=%lld delta_tick=%lld%s",
			    (long long)delta, (long long)delta_tick,
			    delta < 0 ? " (negative: both clamped to 0)" : "");
		if (delta < 0) {
			delta = 0;
			delta_tick = 0;
		}

		data->next_timer_ns = (u64)delta;
		data->bucket = which_bucket(data->next_timer_ns);

		/*
		 * next_timer_ns * factor / unity, rounded to whole us.  The
		 * product wraps for sleep lengths near KTIME_MAX and the
		 * quotient is truncated to 32 bits, as in the kernel.
		 */
		cf = data->correction_factor[data->bucket];
		timer_us = (unsigned int)menu_div_unity(unity_ns / 2 +
					data->next_timer_ns * cf, unity_ns);
		gov_explain(dev, "menu: typical=%llu ns, bucket %u, "
			    "correction factor %u, timer_us %u",
			    (unsigned long long)predicted_ns, data->bucket, cf,
			    timer_us);
		source = MENU_FROM_TYPICAL_TIMER;
		if ((u64)timer_us * NSEC_PER_USEC < predicted_ns) {
			predicted_ns = (u64)timer_us * NSEC_PER_USEC;
			source = MENU_FROM_TIMER;
		}
		/*
		 * With the tick stopped, a short prediction could leave the
		 * CPU in a shallow state for long: use the timer instead.
		 */
		if (tick_nohz_tick_stopped() && predicted_ns < (u64)TICK_NSEC) {
			gov_explain(dev, "menu: tick stopped and predicted "
				    "%llu < TICK_NSEC: predicted = next_timer_ns",
				    (unsigned long long)predicted_ns);
			predicted_ns = data->next_timer_ns;
			source = MENU_FROM_NEXT_TIMER;
		}
	} else {
		/* No timer query: assume none soon, the tick in half a tick. */
		data->next_timer_ns = KTIME_MAX;
		delta_tick = TICK_NSEC / 2;
		data->bucket = BUCKETS - 1;
		gov_explain(dev, "menu: typical=%llu ns <= %ld, tick running: "
			    "sleep length not queried, next_timer=KTIME_MAX, "
			    "bucket %u, delta_tick=%lld",
			    (unsigned long long)predicted_ns,
			    (long)RESIDENCY_THRESHOLD_NS, data->bucket,
			    (long long)delta_tick);
	}
	gov_explain(dev, "menu: next_timer=%llu predicted=%llu",
		    (unsigned long long)data->next_timer_ns,
		    (unsigned long long)predicted_ns);
	data->count.source[source]++;

	if (drv->state_count <= 1 || latency_req == 0 ||
	    ((data->next_timer_ns < (u64)drv->states[1].target_residency_ns ||
	      latency_req < drv->states[1].exit_latency_ns) &&
	     !dev->states_usage[0].disable)) {
		/* State 0 it is; keep the tick if it is the polling one. */
		*stop_tick = !(drv->states[0].flags & CPUIDLE_FLAG_POLLING);
		return menu_result(dev, 0, stop_tick, MENU_WHY_STATE0);
	}

	idx = -1;
	for (i = 0; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];

		if (dev->states_usage[i].disable)
			continue;

		if (idx == -1)
			idx = i; /* first enabled state */

		if (s->exit_latency_ns > latency_req) {
			why = MENU_WHY_LATENCY;
			break;
		}

		if ((u64)s->target_residency_ns <= predicted_ns) {
			idx = i;
			continue;
		}

		/*
		 * Rather a real idle state than polling, if it is shallow,
		 * the timer is not before its residency and its exit latency
		 * fits the prediction (6.18.y: residency threshold backport).
		 */
		if ((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) &&
		    s->target_residency_ns < RESIDENCY_THRESHOLD_NS &&
		    (u64)s->target_residency_ns <= data->next_timer_ns &&
		    (u64)s->exit_latency_ns <= predicted_ns) {
			predicted_ns = (u64)s->target_residency_ns;
			idx = i;
			why = MENU_WHY_POLL_OVERRIDE;
			break;
		}

		if (predicted_ns < (u64)TICK_NSEC) {
			why = MENU_WHY_BELOW_TICK;
			break;
		}

		if (!tick_nohz_tick_stopped()) {
			/* Shallow so far: keep the tick, decide again later. */
			predicted_ns =
				(u64)drv->states[idx].target_residency_ns;
			why = MENU_WHY_RETAIN_TICK;
			break;
		}

		/*
		 * Tick already stopped: avoid getting stuck in a shallow
		 * state if this deeper one fits before the next event.
		 */
		if (drv->states[idx].target_residency_ns < TICK_NSEC &&
		    s->target_residency_ns <= delta_tick) {
			idx = i;
			return menu_result(dev, idx, stop_tick,
					   MENU_WHY_STOPPED_DEEPER);
		}
		return menu_result(dev, idx, stop_tick, MENU_WHY_STOPPED_KEEP);
	}

	if (idx == -1)
		idx = 0; /* No states enabled, must use 0. */

	/*
	 * Keep the tick for a polling state or a prediction shorter than a
	 * tick, and then do not pick a state deeper than the next tick.
	 */
	if (((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) ||
	     predicted_ns < (u64)TICK_NSEC) && !tick_nohz_tick_stopped()) {
		*stop_tick = false;
		gov_explain(dev, "menu: keep the tick: %s",
			    drv->states[idx].flags & CPUIDLE_FLAG_POLLING ?
			    "polling state" : "predicted < TICK_NSEC");

		if (idx > 0 &&
		    drv->states[idx].target_residency_ns > delta_tick) {
			gov_explain(dev, "menu: state %d residency > "
				    "delta_tick %lld: walking back", idx,
				    (long long)delta_tick);
			for (i = idx - 1; i >= 0; i--) {
				if (dev->states_usage[i].disable)
					continue;

				idx = i;
				if (drv->states[i].target_residency_ns <=
				    delta_tick)
					break;
			}
		}
	}

	return menu_result(dev, idx, stop_tick, why);
}

/*
 * menu_reflect - note that the data must be updated at the next select
 * @index: the state actually entered
 */
static void menu_reflect(struct cpuidle_device *dev, int index)
{
	struct menu_device *data = gov_data(dev);

	dev->last_state_idx = index;
	data->needs_update = 1;
	data->tick_wakeup = tick_nohz_idle_got_tick();
}

/*
 * menu_update - learn from the idle period that just ended: the bucket
 * and next_timer_ns are the ones saved by the previous select.
 */
static void menu_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct menu_device *data = gov_data(dev);
	int last_idx = dev->last_state_idx;
	struct cpuidle_state *target = &drv->states[last_idx];
	unsigned int new_factor, old_factor, interval_us;
	u64 measured_ns;

	if (data->tick_wakeup && data->next_timer_ns > (u64)TICK_NSEC) {
		/*
		 * Woken by the tick although no timer was due within it:
		 * count it as long (but not endless) idle.
		 */
		measured_ns = 9 * MAX_INTERESTING / 10;
	} else if ((drv->states[last_idx].flags & CPUIDLE_FLAG_POLLING) &&
		   dev->poll_time_limit) {
		/*
		 * Polling ended on its time limit: assume the timer would
		 * have woken a deeper state (KTIME_MAX if it was not
		 * queried).
		 */
		measured_ns = data->next_timer_ns;
	} else {
		measured_ns = dev->last_residency_ns;

		/* Take the exit latency off, unless it is most of it. */
		if (measured_ns > 2 * (u64)target->exit_latency_ns)
			measured_ns -= (u64)target->exit_latency_ns;
		else
			measured_ns /= 2;
	}

	/* The measured idle never exceeds the timer. */
	if (measured_ns > data->next_timer_ns)
		measured_ns = data->next_timer_ns;

	old_factor = data->correction_factor[data->bucket];
	new_factor = old_factor - menu_div_decay(old_factor, data->decay);

	if (data->next_timer_ns > 0 && measured_ns < (u64)MAX_INTERESTING)
		new_factor += (unsigned int)((u64)data->resolution *
					     measured_ns / data->next_timer_ns);
	else
		new_factor += data->resolution; /* long: a perfect prediction */

	/* Only reachable with decay 1: never let the factor reach 0. */
	if (data->decay == 1 && new_factor == 0)
		new_factor = 1;

	data->correction_factor[data->bucket] = new_factor;
	data->count.updates[data->bucket]++;

	/* ktime_to_us(): s64 division, then truncation to u32. */
	interval_us = (unsigned int)((s64)measured_ns / NSEC_PER_USEC);
	menu_update_intervals(data, interval_us);

	gov_explain(dev, "menu: update: state %d residency=%llu tick_wakeup=%d "
		    "poll_time_limit=%d -> measured %llu ns; bucket %u factor "
		    "%u -> %u; interval %u us", last_idx,
		    (unsigned long long)dev->last_residency_ns,
		    data->tick_wakeup, dev->poll_time_limit ? 1 : 0,
		    (unsigned long long)measured_ns, data->bucket, old_factor,
		    new_factor, interval_us);
}

/*
 * menu_enable_device - reset the per-CPU data: no intervals, unity factors
 */
static int menu_enable_device(struct cpuidle_driver *drv,
			      struct cpuidle_device *dev)
{
	struct menu_device *data = gov_data(dev);
	int i;

	(void)drv;
	memset(data, 0, sizeof(*data));
	data->nr_intervals = (unsigned int)gov_param(dev, MENU_PARAM_INTERVALS);
	data->decay = (unsigned int)gov_param(dev, MENU_PARAM_DECAY);
	data->resolution = (unsigned int)gov_param(dev, MENU_PARAM_RESOLUTION);

	for (i = 0; i < BUCKETS; i++)
		data->correction_factor[i] = data->resolution * data->decay;

	return 0;
}

static void menu_explain_state(struct cpuidle_device *dev,
			       struct idl_explain *ex)
{
	struct menu_device *data = gov_data(dev);
	char buf[16 * 12];
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < data->nr_intervals; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %u",
				      data->intervals[i]);
	idl_explain_printf(ex, "menu: state: factors %u %u %u %u %u %u; "
			   "intervals (us, next slot %d):%s",
			   data->correction_factor[0],
			   data->correction_factor[1],
			   data->correction_factor[2],
			   data->correction_factor[3],
			   data->correction_factor[4],
			   data->correction_factor[5], data->interval_ptr, buf);
}

static const char *const menu_bucket_name[BUCKETS] = {
	"<10us", "<100us", "<1ms", "<10ms", "<100ms", ">=100ms"
};
static const char *const menu_why_name[MENU_WHY_COUNT] = {
	[MENU_WHY_FIT]			= "fit",
	[MENU_WHY_STATE0]		= "state0",
	[MENU_WHY_LATENCY]		= "latency_limit",
	[MENU_WHY_POLL_OVERRIDE]	= "poll_override",
	[MENU_WHY_BELOW_TICK]		= "below_tick",
	[MENU_WHY_RETAIN_TICK]		= "retain_tick",
	[MENU_WHY_STOPPED_DEEPER]	= "stopped_deeper",
	[MENU_WHY_STOPPED_KEEP]		= "stopped_keep",
};
static const char *const menu_typical_name[MENU_TYPICAL_COUNT] = {
	"accepted", "no_data", "spread"
};
static const char *const menu_source_name[MENU_FROM_COUNT] = {
	"typical", "typical<timer", "timer", "next_timer"
};

static void menu_stats(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       idl_stat_fn emit, void *ctx)
{
	struct menu_device *data = gov_data(dev);
	const struct menu_counts *c = &data->count;
	int i;

	(void)drv;
	for (i = 0; i < MENU_TYPICAL_COUNT; i++)
		emit(ctx, "typical", menu_typical_name[i],
		     (long long)c->typical[i], IDL_STAT_SUM);
	for (i = 0; i < MENU_FROM_COUNT; i++)
		emit(ctx, "predicted_by", menu_source_name[i],
		     (long long)c->source[i], IDL_STAT_SUM);
	for (i = 0; i < BUCKETS; i++) {
		emit(ctx, "correction_factor", menu_bucket_name[i],
		     data->correction_factor[i], IDL_STAT_LAST);
		emit(ctx, "factor_updates", menu_bucket_name[i],
		     (long long)c->updates[i], IDL_STAT_SUM);
	}
	for (i = 0; i < MENU_WHY_COUNT; i++)
		emit(ctx, "path", menu_why_name[i], (long long)c->why[i],
		     IDL_STAT_SUM);
}

static const struct idl_gov_param menu_params[] = {
	[MENU_PARAM_INTERVALS] = {
		"intervals", "recent idle intervals kept for the typical "
		"interval (kernel INTERVALS)", INTERVALS, 1, MAX_INTERVALS },
	[MENU_PARAM_DECAY] = {
		"decay", "correction factor decay: f -= f/decay per update "
		"(kernel DECAY)", DECAY, 1, 64 },
	[MENU_PARAM_RESOLUTION] = {
		"resolution", "correction factor fixed-point unit (kernel "
		"RESOLUTION)", RESOLUTION, 1, 16384 },
	{ NULL, NULL, 0, 0, 0 },
};

const struct idl_governor_ops idl_gov_menu = {
	.name		= "menu",
	.rating		= 20,
	.kernel_version	= "6.18.y",
	.data_size	= sizeof(struct menu_device),
	.params		= menu_params,
	.enable		= menu_enable_device,
	.select		= menu_select,
	.reflect	= menu_reflect,
	.explain_state	= menu_explain_state,
	.stats		= menu_stats,
};
