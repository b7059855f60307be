// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers of the event model: names and hashes, the HZ estimator and the
 * bounded reordering window that readers put in front of the model.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model.h"

bool ev_is_tick_function(const char *name)
{
	/* 6.9+: tick_nohz_handler; 6.7-6.8: ..._highres_handler; older. */
	return !strcmp(name, "tick_nohz_handler") ||
	       !strcmp(name, "tick_sched_timer") ||
	       !strcmp(name, "tick_nohz_highres_handler");
}

uint32_t ev_name_hash(const char *name)
{
	uint32_t h = 2166136261U;

	while (*name) {
		h ^= (unsigned char)*name++;
		h *= 16777619U;
	}
	return h;
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
	if (!n[EV_IPI_SEND_CPU] && !n[EV_IPI_SEND_CPUMASK])
		fprintf(f, "no ipi_send events: IPI wakeups show as "
			"sched or unknown\n");
	if (!n[EV_SCHED_SWITCH])
		fprintf(f, "no sched_switch events: idle-loop ends taken "
			"from need-resched flags, wakeups and the tick "
			"handler\n");
	if (!n[EV_TICK_STOP])
		fprintf(f, "no tick_stop events: tick-stopped flag never "
			"set\n");
	if (!n[EV_CPU_IDLE_MISS])
		fprintf(f, "no cpu_idle_miss events: kernel above/below "
			"flags absent (none happened, or not recorded)\n");
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

void hz_est_init(struct hz_est *h)
{
	memset(h, 0, sizeof(*h));
	h->tick_min_gap = INT64_MAX;
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
	/* A running tick re-arms itself one period after its last expiry. */
	if (e->type == EV_HRTIMER_START && e->timer.is_tick && e->cpu < 8) {
		int64_t *last = &h->tick_last[e->cpu];

		gap = e->timer.expires - *last;
		if (*last && gap > 0 && gap < h->tick_min_gap)
			h->tick_min_gap = gap;
		*last = e->timer.expires;
	}
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

/* ------------------------------------------------------------ sorter */

struct ev_sorter {
	struct model		*m;
	size_t			cap, n;
	uint64_t		seq;
	struct raw_event	heap[];
};

struct ev_sorter *ev_sorter_create(size_t cap, struct model *m,
				   struct idl_err *err)
{
	struct ev_sorter *s;

	if (cap < 1)
		cap = 1;
	s = malloc(sizeof(*s) + cap * sizeof(s->heap[0]));
	if (!s) {
		idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
		return NULL;
	}
	s->m = m;
	s->cap = cap;
	s->n = 0;
	s->seq = 0;
	return s;
}

static bool ev_before(const struct raw_event *a, const struct raw_event *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static void heap_swap(struct raw_event *a, struct raw_event *b)
{
	struct raw_event t = *a;

	*a = *b;
	*b = t;
}

static int sorter_pop(struct ev_sorter *s, struct idl_err *err)
{
	struct raw_event top = s->heap[0];
	size_t i = 0;

	s->heap[0] = s->heap[--s->n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, min = i;

		if (l < s->n && ev_before(&s->heap[l], &s->heap[min]))
			min = l;
		if (r < s->n && ev_before(&s->heap[r], &s->heap[min]))
			min = r;
		if (min == i)
			break;
		heap_swap(&s->heap[i], &s->heap[min]);
		i = min;
	}
	return model_feed(s->m, &top, err);
}

int ev_sorter_push(struct ev_sorter *s, const struct raw_event *e,
		   struct idl_err *err)
{
	size_t i;

	if (s->n == s->cap && sorter_pop(s, err))
		return -1;
	i = s->n++;
	s->heap[i] = *e;
	s->heap[i].seq = s->seq++;
	while (i > 0 && ev_before(&s->heap[i], &s->heap[(i - 1) / 2])) {
		heap_swap(&s->heap[i], &s->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
}

int ev_sorter_flush(struct ev_sorter *s, struct idl_err *err)
{
	while (s->n)
		if (sorter_pop(s, err))
			return -1;
	return 0;
}

void ev_sorter_free(struct ev_sorter *s)
{
	free(s);
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
void model_fill_meta(const struct model *m, struct trace_meta *wm)
{
	const struct model_stats *st = model_get_stats(m);
	int t;

	for (t = EV_NONE + 1; t < EV_LOST; t++)
		if (st->by_type[t])
			wm->events_seen |= 1U << t;
	wm->nr_events = st->events;
	wm->lost_events = st->lost_events;
	wm->start_ns = st->first_ts;
	wm->end_ns = st->last_ts;
	if (!wm->nr_cpus || wm->nr_cpus < st->max_cpu)
		wm->nr_cpus = st->max_cpu;
	if (!wm->hz)
		wm->hz = st->hz;
}
