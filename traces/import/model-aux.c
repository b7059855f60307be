// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers of the event model: names and hashes, the HZ estimator, timer
 * clamping and the metadata the model learnt (the reordering window in
 * front of the model is sorter.c).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "model.h"

/* The @n bytes at @name are one of the tick handlers' names. */
bool ev_is_tick_function_n(const char *name, size_t n)
{
	/* 6.9+: tick_nohz_handler; 6.7-6.8: ..._highres_handler; older. */
	static const struct {
		const char	*s;
		size_t		n;
	} tick[] = {
		{ "tick_nohz_handler", 17 }, { "tick_sched_timer", 16 },
		{ "tick_nohz_highres_handler", 25 },
	};
	size_t i;

	for (i = 0; i < sizeof(tick) / sizeof(tick[0]); i++)
		if (tick[i].n == n && !memcmp(name, tick[i].s, n))
			return true;
	return false;
}

const char *ev_system(uint16_t type)
{
	static const char *const sys[EV_TYPE_COUNT] = {
		[EV_CPU_IDLE] = "power",	[EV_CPU_IDLE_MISS] = "power",
		[EV_HRTIMER_START] = "timer",	[EV_HRTIMER_CANCEL] = "timer",
		[EV_HRTIMER_EXPIRE_ENTRY] = "timer",
		[EV_TIMER_START] = "timer",	[EV_TIMER_CANCEL] = "timer",
		[EV_TIMER_EXPIRE_ENTRY] = "timer", [EV_TICK_STOP] = "timer",
		[EV_IRQ_HANDLER_ENTRY] = "irq",	[EV_IPI_SEND_CPU] = "ipi",
		[EV_IPI_SEND_CPUMASK] = "ipi",	[EV_SCHED_WAKEUP] = "sched",
		[EV_SCHED_SWITCH] = "sched",	[EV_PM_QOS_UPDATE] = "power",
		[EV_PM_QOS_REQUEST] = "power",	[EV_DEV_QOS_REQUEST] = "power",
		[EV_IRQ_HANDLER_EXIT] = "irq",	[EV_SOFTIRQ_ENTRY] = "irq",
		[EV_SOFTIRQ_EXIT] = "irq",	[EV_PROBE_SLEEP] = "kprobes",
		[EV_PROBE_RESIDENCY] = "kprobes", [EV_PROBE_GOT_TICK] = "kprobes",
		[EV_VEC_ENTRY] = "irq_vectors", [EV_VEC_IPI_ENTRY] = "irq_vectors",
		[EV_VEC_EXIT] = "irq_vectors",
	};

	return type < EV_TYPE_COUNT ? sys[type] : NULL;
}

bool ev_is_tick_function(const char *name)
{
	return ev_is_tick_function_n(name, strlen(name));
}

uint32_t ev_name_hash_n(const char *name, size_t n)
{
	uint32_t h = 2166136261U;

	while (n--) {
		h ^= (unsigned char)*name++;
		h *= 16777619U;
	}
	return h;
}

uint32_t ev_name_hash(const char *name)
{
	return ev_name_hash_n(name, strlen(name));
}

int32_t ev_cpu_device(const char *name, size_t n)
{
	int32_t cpu = 0;
	size_t i;

	if (n < 4 || strncmp(name, "cpu", 3))
		return -1;
	for (i = 3; i < n && name[i] && name[i] != ' '; i++) {
		if (name[i] < '0' || name[i] > '9' || cpu >= TRACE_MAX_CPUS)
			return -1;
		cpu = cpu * 10 + (name[i] - '0');
	}
	return i > 3 && cpu < TRACE_MAX_CPUS ? cpu : -1;
}

/* One probed input seen for some of the @periods only (beyond the one
 * cut at each end of the capture, @cut): how many. */
static void partial(FILE *f, const char *prefix, const char *what,
		    uint64_t probed, uint64_t periods, uint64_t cut)
{
	if (probed && probed + cut < periods)
		fprintf(f, "%sprobes give the %s of %llu of %llu periods "
			"only (%.1f%%); the others are the events' own\n",
			prefix, what, (unsigned long long)probed,
			(unsigned long long)periods,
			100.0 * (double)probed / (double)periods);
}

void model_print_probed(const struct model_stats *st, const char *prefix,
			FILE *f)
{
	uint64_t cut = 2 * (uint64_t)st->max_cpu;	/* ends of the capture */

	if (st->probed_sleep || st->probed_res || st->probed_tick ||
	    st->probe_res_off)
		fprintf(f, "%sthe kernel's own inputs (probe events): sleep "
			"length %llu, residency %llu (%llu outside their "
			"period, not used), got_tick %llu\n", prefix,
			(unsigned long long)st->probed_sleep,
			(unsigned long long)st->probed_res,
			(unsigned long long)st->probe_res_off,
			(unsigned long long)st->probed_tick);
	/* probe events can be missing (a kprobe the kernel dropped, its
	 * miss count in kprobe_profile; a probe that does not fire for
	 * every period, as the sleep length under ladder, is not
	 * partial): say which, the rest comes from the events */
	partial(f, prefix, "sleep length", st->probed_sleep, st->periods, cut);
	partial(f, prefix, "residency", st->probed_res, st->periods, cut);
	partial(f, prefix, "got_tick", st->probed_tick, st->periods, cut);
}

/* What the absence of each needed event class costs (doc/importing.md). */
void model_print_missing(const struct model_stats *st, FILE *f)
{
	const uint64_t *n = st->by_type;

	if (!n[EV_CPU_IDLE])
		fprintf(f, "no power:cpu_idle events: no idle periods\n");
	if (!n[EV_HRTIMER_START] && !n[EV_HRTIMER_EXPIRE_ENTRY])
		fprintf(f, "no hrtimer events: sleep lengths unknown "
			"(TRACE_NO_TIMER, not exact), tick and hrtimer "
			"wakeups show as unknown, delta_tick estimated\n");
	if (!n[EV_TIMER_START])
		fprintf(f, "no timer_start events: timer-wheel timers "
			"left out of sleep lengths\n");
	if (!n[EV_IRQ_HANDLER_ENTRY])
		fprintf(f, "no irq_handler_entry events: device-interrupt "
			"wakeups show as other causes or unknown\n");
	if (!n[EV_IPI_SEND_CPU] && !n[EV_IPI_SEND_CPUMASK] &&
	    n[EV_VEC_IPI_ENTRY])
		fprintf(f, "no ipi_send events: IPI wakeups from the "
			"IPIs received (irq_vectors), senders unknown\n");
	else if (!n[EV_IPI_SEND_CPU] && !n[EV_IPI_SEND_CPUMASK])
		fprintf(f, "no ipi_send events: IPI wakeups show as "
			"sched or unknown\n");
	if (n[EV_CPU_IDLE] && !st->with_flags)
		fprintf(f, "no flags column (trace_options noirq-info, perf "
			"script): need-resched and interrupt context "
			"unknown\n");
	if (!n[EV_SCHED_SWITCH])
		fprintf(f, "no sched_switch events: idle-loop ends taken "
			"from %swakeups and the tick handler\n",
			st->with_flags ? "need-resched flags, " : "");
	if (!n[EV_TICK_STOP])
		fprintf(f, "no tick_stop events: tick-stopped flag never "
			"set\n");
	if (!n[EV_CPU_IDLE_MISS])
		fprintf(f, "no cpu_idle_miss events: kernel above/below "
			"flags absent (none happened, or not recorded)\n");
	if (!n[EV_PM_QOS_UPDATE])
		fprintf(f, "no pm_qos_update_target events: CPU latency "
			"constraints (/dev/cpu_dma_latency) unknown, replay "
			"assumes none unless given --latency-req\n");
	if (!st->hz)
		fprintf(f, "HZ unknown (give --hz): wheel timers and tick "
			"phase unusable\n");
}

/*
 * The poll state's time limit, as the kernel's cpuidle_poll_time()
 * computes it (doc/governors.md section 3.3):
 * traces/ reconstructs what the kernel did and does not call into the
 * governors stage, whose cpuidle-core.c does the same for replay.
 */
#define POLL_MIN_NS	10000	/* CPUIDLE_POLL_MIN */

void model_poll_opts(const struct cstate_table *t, uint32_t hz,
		      struct model_opts *mo)
{
	int64_t tick = hz ? idl_tick_nsec_for_hz(hz) : 0, lim;
	int i;

	mo->nstates = t->count < CSTATE_MAX ? t->count : CSTATE_MAX;
	for (i = 0; i < mo->nstates; i++) {
		mo->exit_ns[i] = t->states[i].exit_latency_ns;
		mo->target_ns[i] = t->states[i].target_residency_ns;
		mo->disabled[i] = t->states[i].disabled;
	}
	mo->poll_state = -1;
	if (!t->count || !(t->states[0].flags & CSTATE_POLLING) || !tick)
		return;
	mo->poll_state = 0;
	lim = tick / 16;
	for (i = 1; i < t->count; i++) {
		if (t->states[i].disabled)
			continue;
		if (t->states[i].target_residency_ns < POLL_MIN_NS)
			continue;
		if (t->states[i].target_residency_ns < lim)
			lim = t->states[i].target_residency_ns;
		break;
	}
	mo->poll_limit_ns = lim;
}

/* ------------------------------------------------------------ HZ */

bool kernel_migrates_timers(const char *release)
{
	unsigned int major, minor;

	if (!release || sscanf(release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 9);
}

bool model_tmigr_runs_elsewhere(const struct raw_event *e, uint32_t armed_cpu,
				bool pinned)
{
	return e->type == EV_TIMER_EXPIRE_ENTRY && !pinned &&
	       armed_cpu != e->cpu;
}

/*
 * Unpinned wheel timers, direct-mapped by pointer: a collision only
 * forgets one, and migration shows again.  A run empties its slot, so
 * that in a part of the file only the first event of a slot can meet
 * what the parts before armed (tmigr_merge()).
 */
static void tmigr_feed(struct hz_est *h, const struct raw_event *e)
{
	uint32_t slot = (uint32_t)(e->timer.timer >> 4) % TMIGR_SLOTS;
	uint32_t cpu = e->timer.flags & EV_TIMER_CPUMASK;
	__typeof__(h->armed[0]) *a = &h->armed[slot];

	if (e->type == EV_TIMER_START) {
		if (e->timer.flags & EV_TIMER_PINNED)
			return;
		a->ptr = e->timer.timer;
		a->cpu = (cpu < TRACE_MAX_CPUS ? cpu : e->cpu) + 1;
	} else if (!a->touched) {
		a->first_ptr = e->timer.timer;
		a->first_cpu = e->cpu + 1;
	} else {
		if (a->cpu && a->ptr == e->timer.timer &&
		    model_tmigr_runs_elsewhere(e, a->cpu - 1, false))
			h->tmigr_seen = true;
		a->cpu = 0;
	}
	a->touched = true;
}

/* @b, fed the events after @a's: its first runs meet what @a armed. */
static void tmigr_merge(struct hz_est *a, const struct hz_est *b)
{
	struct raw_event e = { .type = EV_TIMER_EXPIRE_ENTRY };
	uint32_t i;

	for (i = 0; i < TMIGR_SLOTS; i++) {
		__typeof__(a->armed[0]) *x = &a->armed[i];
		const __typeof__(b->armed[0]) *y = &b->armed[i];

		if (!y->touched)
			continue;
		if (!x->touched) {
			*x = *y;
			continue;
		}
		e.cpu = y->first_cpu - 1;
		if (y->first_cpu && x->cpu && x->ptr == y->first_ptr &&
		    model_tmigr_runs_elsewhere(&e, x->cpu - 1, false))
			a->tmigr_seen = true;
		x->ptr = y->ptr;
		x->cpu = y->cpu;
	}
}

void hz_est_init(struct hz_est *h)
{
	memset(h, 0, sizeof(*h));
	h->tick_min_gap = INT64_MAX;
	h->fn_nohz_handler = ev_name_hash("tick_nohz_handler");
}

void hz_est_feed(struct hz_est *h, const struct raw_event *e)
{
	int64_t gap;

	if ((e->type == EV_TIMER_START || e->type == EV_TIMER_EXPIRE_ENTRY) &&
	    e->timer.has_now) {
		if (!h->have_j) {
			h->j0 = e->timer.now;
			h->j0_ts = e->ts;
			h->have_j = true;
		}
		h->j1 = e->timer.now;
		h->j1_ts = e->ts;
	}
	if (e->type == EV_TIMER_START || e->type == EV_TIMER_EXPIRE_ENTRY)
		tmigr_feed(h, e);
	/* the tick handler took this name in 6.9, with timer migration:
	 * a plain capture's kernel is known to migrate from its tick */
	if ((e->type == EV_HRTIMER_START ||
	     e->type == EV_HRTIMER_EXPIRE_ENTRY) && e->timer.is_tick &&
	    e->timer.fn == h->fn_nohz_handler)
		h->tmigr_seen = true;
	/* A running tick re-arms itself one period after its last expiry. */
	if (e->type == EV_HRTIMER_START && e->timer.is_tick && e->cpu < 8) {
		int64_t *last = &h->tick_last[e->cpu];

		gap = e->timer.expires - *last;
		if (*last && gap > 0 && gap < h->tick_min_gap)
			h->tick_min_gap = gap;
		*last = e->timer.expires;
		if (!(h->tick_seen & 1U << e->cpu)) {
			h->tick_first[e->cpu] = e->timer.expires;
			h->tick_seen |= (uint8_t)(1U << e->cpu);
		}
	}
}

void hz_est_merge(struct hz_est *a, const struct hz_est *b)
{
	int64_t gap;
	int c;

	a->tmigr_seen |= b->tmigr_seen;
	tmigr_merge(a, b);
	if (b->have_j) {
		if (!a->have_j) {
			a->j0 = b->j0;
			a->j0_ts = b->j0_ts;
			a->have_j = true;
		}
		a->j1 = b->j1;
		a->j1_ts = b->j1_ts;
	}
	for (c = 0; c < 8; c++) {
		if (!(b->tick_seen & 1U << c))
			continue;
		/* the gap hz_est_feed() would have seen at b's first */
		gap = b->tick_first[c] - a->tick_last[c];
		if (a->tick_last[c] && gap > 0 && gap < a->tick_min_gap)
			a->tick_min_gap = gap;
		if (!(a->tick_seen & 1U << c))
			a->tick_first[c] = b->tick_first[c];
		a->tick_last[c] = b->tick_last[c];
	}
	a->tick_seen |= b->tick_seen;
	if (b->tick_min_gap < a->tick_min_gap)
		a->tick_min_gap = b->tick_min_gap;
}

static uint32_t snap_hz(double hz)
{
	static const uint32_t std[] = { 100, 128, 250, 256, 300, 1000, 1024 };
	size_t i;

	for (i = 0; i < sizeof(std) / sizeof(std[0]); i++)
		if (hz > std[i] * 0.97 && hz < std[i] * 1.03)
			return std[i];
	return 0;
}

uint32_t hz_est_result(const struct hz_est *h)
{
	uint32_t hz = 0;

	if (h->tick_min_gap != INT64_MAX)
		hz = snap_hz(1e9 / (double)h->tick_min_gap);
	/* Jiffies over at least half a second: good to a few percent. */
	if (!hz && h->have_j && h->j1_ts > h->j0_ts + 500000000ULL)
		hz = snap_hz((double)(h->j1 - h->j0) * 1e9 /
			     (double)(h->j1_ts - h->j0_ts));
	return hz;
}

/* Jiffies are unsigned: far past the range means far in the future. */
static uint64_t clamp_jiffies(uint64_t j)
{
	return j > (uint64_t)EV_TIMER_MAX ? (uint64_t)EV_TIMER_MAX : j;
}

const struct raw_event *ev_clamp_timers(const struct raw_event *e,
					struct raw_event *copy)
{
	struct raw_event *c = copy;

	*c = *e;
	switch (e->type) {
	case EV_HRTIMER_START:
	case EV_HRTIMER_CANCEL:
	case EV_HRTIMER_EXPIRE_ENTRY:
		c->timer.expires = ev_clamp_timer(e->timer.expires);
		c->timer.now = (uint64_t)ev_clamp_timer((int64_t)e->timer.now);
		return c;
	case EV_TIMER_START:
	case EV_TIMER_CANCEL:
	case EV_TIMER_EXPIRE_ENTRY:
		c->timer.expires =
			(int64_t)clamp_jiffies((uint64_t)e->timer.expires);
		c->timer.bucket_expiry = clamp_jiffies(e->timer.bucket_expiry);
		c->timer.now = clamp_jiffies(e->timer.now);
		return c;
	default:
		return e;
	}
}

/*
 * What the model learnt goes into the trace's metadata (the writer counts
 * the periods itself at close).
 */
/* The bin of LAG_BIN_NS that 1 / LAG_GAP_SHARE of the gaps
 * between consecutive events of a CPU fall below (LAG_BINS if none). */
static int short_gap(const struct model_stats *st)
{
	uint64_t want = st->event_gaps / LAG_GAP_SHARE, seen = 0;
	int b;

	for (b = 0; b < LAG_BINS; b++) {
		seen += st->event_gap[b];
		if (seen > want)
			return b;
	}
	return LAG_BINS;
}

int64_t model_residency_lag(const struct model_stats *st, uint64_t *bad)
{
	uint64_t above = 0, most = 0, best = UINT64_MAX, v;
	int b, first = -1, last = -1, mid, cap;
	const int spread = LAG_SPREAD_NS / LAG_BIN_NS;

	if (bad)
		*bad = 0;
	if (!st->by_type[EV_CPU_IDLE_MISS] || !st->lag_bounds)
		return -1;
	for (b = 0; b < LAG_BINS; b++)
		above += st->lag_above[b];
	/* a lag in bin b contradicts the "above" bounds of bins >= b and
	 * the "at most" ones of bins < b: the first run of bins that
	 * contradict fewest */
	for (b = 0; b < LAG_BINS; b++) {
		v = above + most;
		if (v < best) {
			best = v;
			first = last = b;
		} else if (v == best && last == b - 1) {
			last = b;
		}
		above -= st->lag_above[b];
		most += st->lag_most[b];
	}
	if (bad)
		*bad = best;
	/* its middle, where an "at most" bound ends it, but no more than
	 * LAG_SPREAD_NS past its start, nor past the events' short gaps;
	 * else its start */
	if (last < LAG_BINS - 1) {
		mid = (first + last) / 2;
		if (mid > first + spread) {
			cap = short_gap(st);
			mid = first + (cap < first + spread ? cap - first :
				       spread);
			if (mid < first)
				mid = first;
		}
		first = mid;
	}
	return (int64_t)first * LAG_BIN_NS;
}

void model_fill_meta(const struct model *m, struct trace_meta *wm)
{
	const struct model_stats *st = model_get_stats(m);
	int t;

	for (t = EV_NONE + 1; t < EV_TYPE_COUNT; t++)
		if (t != EV_LOST && st->by_type[t])
			wm->events_seen |= 1U << t;
	wm->poll_ends_seen = st->poll_ends_seen;
	/* most periods end where the kernel measured them (probes): the
	 * trace's measure is the kernel's */
	wm->residency_lag_ns = st->probed_res * 2 > st->periods ? 0 :
			       model_residency_lag(st, NULL);
	wm->nr_events = st->events;
	wm->lost_events = st->lost_events;
	wm->start_ns = st->first_ts;
	wm->end_ns = st->last_ts;
	if (!wm->nr_cpus || wm->nr_cpus < st->max_cpu)
		wm->nr_cpus = st->max_cpu;
	if (!wm->hz)
		wm->hz = st->hz;
	if (wm->latency_req_ns < 0 && st->qos_start_us >= 0)
		wm->latency_req_ns = st->qos_start_us * 1000;
}
