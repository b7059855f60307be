// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace clock against the kernel's clocks (doc/importing.md,
 * "Clocks" and "Jiffies").
 *
 * CLOCK_MONOTONIC: hrtimer expiries carry the monotonic time they were
 * handled at, read before the event was stamped, so (stamp - now) lies
 * on or above the clock offset.  A trace clock that is not monotonic
 * (local, global, perf, mono_raw) also runs at a slightly different rate
 * (NTP corrects CLOCK_MONOTONIC, not sched_clock): 3.3 ppm on the
 * development VM, 7 us behind after 2 s.  So the offset is a line: its
 * slope from the lowest samples of two halves of the last ~1.6 s, its
 * level the lowest of the recent samples carried along that slope.
 *
 * Jiffies: jiffy J starts on a point of the tick grid (in monotonic
 * time, where the grid does not drift), a fixed number of points from
 * jiffy j_ref; every jiffies value seen at a time bounds that number.
 */
#include "config.h"

#include <math.h>

#include "model-int.h"

/* the slope is not followed beyond 10% (a clock that far off is no
 * clock) nor carried further than this from its last sample */
#define OFF_PPB_MAX	100000000.0
#define OFF_SPAN_MAX	400000000000LL	/* 400 s */
/* a jiffies value seen at a time bounds its start from above: by the
 * grid point at or before that time plus this much, so that an offset
 * off by up to as much cannot make the bound too early (the bound of a
 * value seen this close before the next grid point is then a tick late,
 * but the tightest of all is kept) */
#define JIFFY_MARGIN_NS	20000
/* jiffies bounds are kept for 1-2 s: one wrong bound does not stay */
#define JIFFY_WINDOW_NS	1000000000ULL

/* The offset @off seen at trace time @from, carried along the slope to
 * trace time @ts (not further than OFF_SPAN_MAX). */
static int64_t carried(const struct off_track *o, int64_t off, int64_t from,
		       int64_t ts)
{
	int64_t d = ts - from;

	if (d > OFF_SPAN_MAX)
		d = OFF_SPAN_MAX;
	else if (d < -OFF_SPAN_MAX)
		d = -OFF_SPAN_MAX;
	return off + (int64_t)llround((double)d * o->ppb / 1e9);
}

int64_t model_clock_off_at(const struct model *m, int64_t ts)
{
	const struct off_track *o = &m->off;

	if (m->o.clock_is_mono || !o->valid)
		return 0;
	return carried(o, o->base, o->base_ts, ts);
}

static const struct off_sample *ring_at(const struct off_track *o,
					uint32_t i)
{
	return &o->ring[(o->head + OFF_BLOCKS - o->n + i) % OFF_BLOCKS];
}

static const struct off_sample *lowest(const struct off_track *o,
				       uint32_t from, uint32_t to)
{
	const struct off_sample *best = ring_at(o, from), *b;
	uint32_t i;

	for (i = from + 1; i < to; i++) {
		b = ring_at(o, i);
		if (b->off < best->off)
			best = b;
	}
	return best;
}

/* A block closed: the slope from its ring, the level from its last few. */
static void off_refit(struct model *m)
{
	struct off_track *o = &m->off;
	const struct off_sample *a, *b, *last = ring_at(o, o->n - 1);
	uint32_t i;
	int64_t v;

	if (o->n >= 4) {
		a = lowest(o, 0, o->n / 2);
		b = lowest(o, o->n / 2, o->n);
		if (b->ts - a->ts >= (int64_t)OFF_BLOCK_NS * 2) {
			o->ppb = (double)(b->off - a->off) * 1e9 /
				 (double)(b->ts - a->ts);
			o->ppb = fmax(-OFF_PPB_MAX, fmin(OFF_PPB_MAX, o->ppb));
			m->st.drift_known = true;
			m->st.drift_ppb = llround(o->ppb);
		}
	}
	o->base_ts = last->ts;
	o->base = last->off;
	for (i = o->n > OFF_RECENT ? o->n - OFF_RECENT : 0; i < o->n; i++) {
		v = carried(o, ring_at(o, i)->off, ring_at(o, i)->ts,
			    o->base_ts);
		if (v < o->base)
			o->base = v;
	}
}

void model_observe_offset(struct model *m, uint64_t ts, int64_t base_now)
{
	struct off_track *o = &m->off;
	struct off_sample s = {
		.ts = (int64_t)ts,
		.off = model_clamp_time((int64_t)ts - base_now),
	};

	if (m->o.clock_is_mono || base_now > FOREIGN_NS)
		return;
	if (!o->valid) {
		o->valid = true;
		o->blk = s;
		o->blk_start = ts;
		o->base = s.off;
		o->base_ts = s.ts;
		return;
	}
	if (ts >= o->blk_start + OFF_BLOCK_NS) {
		o->ring[o->head] = o->blk;
		o->head = (o->head + 1) % OFF_BLOCKS;
		if (o->n < OFF_BLOCKS)
			o->n++;
		off_refit(m);
		o->blk = s;
		o->blk_start = ts;
	} else if (s.off < o->blk.off) {
		o->blk = s;
	}
	/* the event follows the clock read: a sample below the line
	 * lowers it at once */
	if (s.off < model_clock_off_at(m, s.ts)) {
		o->base = s.off;
		o->base_ts = s.ts;
	}
}

/* ------------------------------------------------- jiffies */

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Monotonic start of jiffy j_ref, NONE while unknown. */
static int64_t jiffy_ref_mono(const struct model *m)
{
	return model_min64(m->jif.g_cur, m->jif.g_prev);
}

/* Jiffy @j had started by trace time @ts: in monotonic time, where its
 * distance to j_ref is a whole number of grid points. */
static void jiffy_bound(struct model *m, uint64_t ts, uint64_t j)
{
	struct jiffy_track *g = &m->jif;
	int64_t mono, bound;

	if (!m->tick_ns || m->grid_phase < 0 ||
	    !(m->o.clock_is_mono || m->off.valid))
		return;
	mono = (int64_t)ts - model_clock_off_at(m, (int64_t)ts) +
	       JIFFY_MARGIN_NS;
	mono -= model_past_grid(m, mono);
	bound = model_sat_muladd(mono, (int64_t)g->j_ref - (int64_t)j,
				 m->tick_ns);
	if (ts > g->win + JIFFY_WINDOW_NS) {
		if (g->g_cur != NONE)
			g->g_prev = g->g_cur;
		g->g_cur = NONE;
		g->win = ts;
	}
	g->g_cur = model_min64(g->g_cur, bound);
}

void model_observe_jiffies(struct model *m, uint64_t ts, uint64_t j)
{
	struct jiffy_track *g = &m->jif;
	int64_t est;

	if (!m->tick_ns)
		return;
	if (!g->valid) {
		g->j_ref = j;
		g->sref = (int64_t)ts;
		g->valid = true;
		g->g_cur = g->g_prev = NONE;
		g->win = ts;
	}
	jiffy_bound(m, ts, j);
	/* Until the grid is known, in trace time: jiffy j started at or
	 * before ts; keep the tightest bound, and follow it up again if
	 * the two clocks drift apart. */
	est = model_sat_muladd((int64_t)ts, (int64_t)g->j_ref - (int64_t)j,
			       m->tick_ns);
	if (est < g->sref || est - g->sref > m->tick_ns)
		g->sref = est;
}

/* Trace-time estimate before the snap onto the tick grid: less than a
 * tick later than it (stale() uses it to skip most timers cheaply). */
int64_t model_jiffy_time_unsnapped(const struct model *m, int64_t j,
				   int64_t off)
{
	int64_t g = jiffy_ref_mono(m);

	if (!m->jif.valid || !m->tick_ns)
		return NONE;
	if (g != NONE)
		return model_sat_muladd(g, j - (int64_t)m->jif.j_ref,
					m->tick_ns) + off;
	return model_sat_muladd(m->jif.sref, j - (int64_t)m->jif.j_ref,
				m->tick_ns);
}

int64_t model_jiffy_time(const struct model *m, int64_t j, int64_t off)
{
	int64_t t = model_jiffy_time_unsnapped(m, j, off), mono;

	if (t == NONE || m->grid_phase < 0 || jiffy_ref_mono(m) != NONE)
		return t;
	/* jiffies advance on the tick grid: snap down onto it */
	mono = t - off;
	return mono - model_past_grid(m, mono) + off;
}

int64_t model_jiffy_at(const struct model *m, uint64_t ts, int64_t off)
{
	int64_t g = jiffy_ref_mono(m);

	if (g != NONE)
		return (int64_t)m->jif.j_ref +
		       floor_div((int64_t)ts - off - g, m->tick_ns);
	return (int64_t)m->jif.j_ref +
	       floor_div((int64_t)ts - m->jif.sref, m->tick_ns);
}
