// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The workload synthesiser.  Each CPU is simulated on its own: after a
 * wakeup it runs for a busy time, then goes idle until the earliest of
 * its wake sources fires.  Events that fall inside the busy time are
 * handled while running and do not wake the CPU.
 *
 * A period records what a governor would see at idle entry: the time to
 * the next known timer (periodic timers only: interrupts and IPIs are
 * not known to the timer subsystem) and the time to the next tick.  The
 * tick itself is not a wake source unless the pattern has a "tick" term:
 * without it, the periods are the workload's ("from entry to the first
 * non-tick wakeup"), IP_GOT_TICK marks those a tick fell into, and the
 * replay engine decides whether that tick woke the CPU.
 *
 * Every CPU and every term has its own random stream derived from the
 * seed, the CPU number and the term's position, so a CPU's periods do
 * not depend on how many CPUs are generated or in which order.
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "synth.h"

/* ---- random numbers -------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void synth_rng_seed(struct synth_rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t synth_rng_next(struct synth_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

/* Uniform in (0, 1]. */
static inline double rng_unit(struct synth_rng *r)
{
	return (double)((synth_rng_next(r) >> 11) + 1) * 0x1p-53;
}

/* Exponential gap of mean @mean_ns, at least 1 ns. */
static inline uint64_t rng_exp(struct synth_rng *r, double mean_ns)
{
	double g = -log(rng_unit(r)) * mean_ns + 0.5;

	return g < 1.0 ? 1 : (uint64_t)g;
}

/* The stream of term @j on CPU (or pair) @who. */
static uint64_t stream_seed(uint64_t seed, uint64_t who, int j)
{
	uint64_t x = who << 8 | (uint64_t)j;

	x = splitmix64(&x);
	x ^= seed;
	return splitmix64(&x);
}

#define PAIR_STREAM	(1ULL << 40)	/* pingpong: shared by a CPU pair */

uint64_t synth_tick_nsec(uint32_t hz)
{
	return (uint64_t)idl_tick_nsec_for_hz(hz);
}

/* ---- one CPU ----------------------------------------------------------- */

static double period_ns(const struct synth_src *s)
{
	return 1e9 / s->rate_hz;
}

static void init_src(struct synth_gen *g, const struct synth_params *p,
		     int j)
{
	const struct synth_src *s = &g->spec->src[j];
	struct synth_gen_src *gs = &g->src[j];
	uint64_t who = g->cpu;
	double span = 0;

	if (s->kind == SYNTH_PINGPONG)
		who = (g->cpu & ~1U) | PAIR_STREAM;
	synth_rng_seed(&gs->rng, stream_seed(p->seed, who, j));
	if (s->kind == SYNTH_PERIODIC || s->kind == SYNTH_PINGPONG)
		span = period_ns(s);
	else if (s->kind == SYNTH_BURSTY)
		span = (double)(s->on_ns + s->off_ns);
	if (!g->spec->aligned && span > 0)
		gs->phase = (uint64_t)(rng_unit(&gs->rng) * span) %
			    (uint64_t)(span > 1 ? span : 1);
	gs->k = 0;
	gs->next = 0;	/* computed at the first idle entry */
	if (s->kind == SYNTH_PINGPONG && (g->cpu ^ 1) >= p->nr_cpus)
		gs->next = UINT64_MAX;	/* no partner: no IPIs */
}

void synth_gen_init(struct synth_gen *g, const struct synth_spec *s,
		    const struct synth_params *p, uint32_t cpu)
{
	int j;

	memset(g, 0, sizeof(*g));
	g->spec = s;
	g->cpu = cpu;
	g->tick_ns = synth_tick_nsec(p->hz);
	g->end_ns = p->duration_ns;
	g->busy_mean_ns = s->busy_us * 1000.0;
	synth_rng_seed(&g->busy_rng, stream_seed(p->seed, cpu, SYNTH_MAX_SRC));
	for (j = 0; j < s->nr_src; j++)
		init_src(g, p, j);
}

/* Periodic event k: phase + k * period (+ half a period for odd CPUs). */
static uint64_t periodic_after(const struct synth_src *s,
			       struct synth_gen_src *gs, uint64_t t,
			       double offset)
{
	double per = period_ns(s);
	double base = (double)gs->phase + offset;
	uint64_t next;

	if ((double)t >= base)
		gs->k = (uint64_t)(((double)t - base) / per);
	for (;;) {
		next = (uint64_t)(base + (double)gs->k * per);
		if (next > t)
			return next;
		gs->k++;
	}
}

/* Bursty: poisson arrivals, but only inside the "on" windows. */
static uint64_t bursty_after(const struct synth_src *s,
			     struct synth_gen_src *gs, uint64_t t)
{
	uint64_t cycle = s->on_ns + s->off_ns, pos;
	double mean = 1e9 / s->rate_hz;

	for (;;) {
		t += rng_exp(&gs->rng, mean);
		pos = (t + cycle - gs->phase % cycle) % cycle;
		if (pos < s->on_ns)
			return t;
		/* Memoryless: restart the arrivals at the next window. */
		t += cycle - pos - 1;
	}
}

/* Move source @j to its first event after @t. */
static void advance(struct synth_gen *g, int j, uint64_t t)
{
	const struct synth_src *s = &g->spec->src[j];
	struct synth_gen_src *gs = &g->src[j];

	if (gs->next > t)
		return;
	switch (s->kind) {
	case SYNTH_PERIODIC:
		gs->next = periodic_after(s, gs, t, 0);
		break;
	case SYNTH_PINGPONG:
		gs->next = periodic_after(s, gs, t,
					  (g->cpu & 1) ? period_ns(s) / 2 : 0);
		break;
	case SYNTH_POISSON:
		while (gs->next <= t)
			gs->next += rng_exp(&gs->rng, 1e9 / s->rate_hz);
		break;
	case SYNTH_BURSTY:
		while (gs->next <= t)
			gs->next = bursty_after(s, gs, gs->next);
		break;
	case SYNTH_TICK:
		gs->next = (t / g->tick_ns + 1) * g->tick_ns;
		break;
	}
}

static const uint8_t kind_cause[] = {
	[SYNTH_PERIODIC] = WAKE_HRTIMER,
	[SYNTH_POISSON] = WAKE_IRQ,
	[SYNTH_PINGPONG] = WAKE_IPI,
	[SYNTH_BURSTY] = WAKE_IRQ,
	[SYNTH_TICK] = WAKE_TICK,
};

int synth_gen_next(struct synth_gen *g, struct idle_period *p)
{
	const struct synth_spec *s = g->spec;
	uint64_t entry, wake = UINT64_MAX, timer = UINT64_MAX, tick;
	int j, by = -1;

	if (g->done)
		return 0;
	entry = g->now;
	if (g->busy_mean_ns > 0)
		entry += rng_exp(&g->busy_rng, g->busy_mean_ns);
	for (j = 0; j < s->nr_src; j++) {
		advance(g, j, entry);
		if (g->src[j].next < wake) {
			wake = g->src[j].next;
			by = j;
		}
		if (s->src[j].kind == SYNTH_PERIODIC && g->src[j].next < timer)
			timer = g->src[j].next;
	}
	if (by < 0 || wake > g->end_ns) {
		g->done = true;
		return 0;
	}
	tick = (entry / g->tick_ns + 1) * g->tick_ns;
	p->entry_ns = entry;
	p->exit_ns = wake;
	p->sleep_length_ns = timer == UINT64_MAX ? TRACE_NO_TIMER :
			     (int64_t)(timer - entry);
	p->delta_tick_ns = (int64_t)(tick - entry);
	p->cpu = g->cpu;
	p->wake_cause = kind_cause[s->src[by].kind];
	p->wake_detail = s->src[by].kind == SYNTH_PINGPONG ? g->cpu ^ 1 :
			 s->src[by].detail;
	p->state = TRACE_STATE_UNKNOWN;
	p->flags = IP_SLEEP_EXACT | IP_TICK_EXACT |
		   (tick <= wake ? IP_GOT_TICK : 0);
	p->qos_latency_us = 0;
	g->now = wake;
	return 1;
}

/* ---- all CPUs ---------------------------------------------------------- */

#define SYNTH_WINDOW_NS	100000000ULL	/* interleave CPUs every 100 ms */

int synth_write(const struct synth_spec *s, const struct synth_params *p,
		struct trace_writer *w, uint64_t *nr_periods,
		struct idl_err *err)
{
	struct synth_gen *gens = calloc(p->nr_cpus, sizeof(*gens));
	struct idle_period ip;
	uint64_t limit, n = 0;
	uint32_t cpu, active;
	int ret = 0;

	if (!gens)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	for (cpu = 0; cpu < p->nr_cpus; cpu++)
		synth_gen_init(&gens[cpu], s, p, cpu);
	for (limit = SYNTH_WINDOW_NS; !ret; limit += SYNTH_WINDOW_NS) {
		active = 0;
		for (cpu = 0; cpu < p->nr_cpus && !ret; cpu++) {
			struct synth_gen *g = &gens[cpu];

			while (g->now < limit && synth_gen_next(g, &ip)) {
				n++;
				if (trace_writer_add(w, &ip, err) < 0) {
					ret = -1;
					break;
				}
			}
			active += !g->done;
		}
		if (!active)
			break;
	}
	free(gens);
	if (nr_periods)
		*nr_periods = n;
	return ret;
}

/* ---- pattern parsing --------------------------------------------------- */

static const double default_rates[] = { 73, 113, 211, 347, 401 };

#define SYNTH_MAX_RATE	1e7	/* 100 ns between events */

/* Parse "A,B,C" into @v (at most @max numbers); returns the count. */
static int parse_numbers(const char *args, double *v, int max)
{
	const char *p = args;
	char num[64];
	int n = 0;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (n == max || len >= sizeof(num))
			return -1;
		memcpy(num, p, len);
		num[len] = '\0';
		if (idl_parse_double(num, 0, DBL_MAX, false, &v[n++]))
			return -1;
		if (p[len] == '\0')
			return n;
		p += len + 1;
	}
}

static int add_src(struct synth_spec *s, enum synth_kind kind, double rate,
		   uint32_t detail)
{
	struct synth_src *src;

	if (s->nr_src == SYNTH_MAX_SRC)
		return -1;
	src = &s->src[s->nr_src++];
	memset(src, 0, sizeof(*src));
	src->kind = kind;
	src->rate_hz = rate;
	src->detail = detail;
	return 0;
}

static bool rate_ok(double r)
{
	return r > 0 && r <= SYNTH_MAX_RATE;
}

static int parse_term(struct synth_spec *s, const char *name,
		      const char *args, int term)
{
	double v[SYNTH_MAX_SRC];
	int n = args ? parse_numbers(args, v, SYNTH_MAX_SRC) : 0;
	uint32_t irq = 32 + (uint32_t)term;	/* irq number of the term */
	int i;

	if (n < 0)
		return -1;
	if (!strcmp(name, "periodic")) {
		if (!args) {
			n = sizeof(default_rates) / sizeof(default_rates[0]);
			memcpy(v, default_rates, sizeof(default_rates));
		}
		for (i = 0; i < n; i++)
			if (!rate_ok(v[i]) ||
			    add_src(s, SYNTH_PERIODIC, v[i],
				    (uint32_t)lround(v[i])) < 0)
				return -1;
		return 0;
	}
	if (!strcmp(name, "poisson"))
		return n == 1 && rate_ok(v[0]) ?
		       add_src(s, SYNTH_POISSON, v[0], irq) : -1;
	if (!strcmp(name, "pingpong"))
		return n == 1 && rate_ok(v[0]) ?
		       add_src(s, SYNTH_PINGPONG, v[0], 0) : -1;
	if (!strcmp(name, "bursty")) {
		if (n != 3 || v[0] <= 0 || v[1] < 0 || !rate_ok(v[2]) ||
		    v[0] + v[1] > 1e6 || add_src(s, SYNTH_BURSTY, v[2], irq))
			return -1;
		s->src[s->nr_src - 1].on_ns = (uint64_t)(v[0] * 1e6);
		s->src[s->nr_src - 1].off_ns = (uint64_t)(v[1] * 1e6);
		return s->src[s->nr_src - 1].on_ns ? 0 : -1;
	}
	if (!strcmp(name, "tick"))
		return args ? -1 : add_src(s, SYNTH_TICK, 0, 0);
	if (!strcmp(name, "aligned")) {
		s->aligned = true;
		return args ? -1 : 0;
	}
	if (!strcmp(name, "busy")) {
		if (n != 1 || v[0] > 1e6)
			return -1;
		s->busy_us = v[0];
		return 0;
	}
	return -1;
}

int synth_parse(const char *pattern, struct synth_spec *s,
		struct idl_err *err)
{
	/* the terms that set one thing: twice would leave one unused */
	static const char *const once[] = { "tick", "busy", "aligned" };
	char buf[1024], *term, *save = NULL, *args;
	unsigned int seen = 0, k;
	size_t len = strlen(pattern);
	int i = 0;

	memset(s, 0, sizeof(*s));
	s->busy_us = SYNTH_DEFAULT_BUSY_US;
	if (len >= sizeof(buf))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "pattern too long");
	if (!len || pattern[0] == '+' || pattern[len - 1] == '+' ||
	    strstr(pattern, "++"))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "pattern '%s' has an empty term", pattern);
	strcpy(buf, pattern);
	for (term = strtok_r(buf, "+", &save); term;
	     term = strtok_r(NULL, "+", &save), i++) {
		args = strchr(term, ':');
		if (args)
			*args++ = '\0';
		for (k = 0; k < sizeof(once) / sizeof(once[0]); k++)
			if (!strcmp(term, once[k]) && (seen & 1U << k))
				return idl_err_set(err, IDL_EXIT_BADINPUT,
						   "pattern '%s': '%s' given "
						   "twice", pattern, term);
			else if (!strcmp(term, once[k]))
				seen |= 1U << k;
		if (parse_term(s, term, args, i) < 0)
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "pattern '%s': term %d ('%s%s%s') is not valid; "
					   "expected periodic[:HZ,...], poisson:HZ, pingpong:HZ, "
					   "bursty:ON_MS,OFF_MS,HZ, tick, busy:US or aligned",
					   pattern, i + 1, term, args ? ":" : "",
					   args ? args : "");
	}
	if (!s->nr_src)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "pattern '%s' has no wake source", pattern);
	return 0;
}
