/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The workload synthesiser: idle periods of a simulated machine whose
 * CPUs are woken by periodic timers, device interrupts, IPIs and the
 * tick.  The pattern syntax is described in doc/trace-format.md
 * ("Synthetic traces").  Generation streams: one small state per CPU.
 */
#ifndef IDLELAB_SYNTH_H
#define IDLELAB_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

#include "trace.h"

#define SYNTH_MAX_SRC		32

enum synth_kind {
	SYNTH_PERIODIC,		/* timer every 1/rate s: known to timers */
	SYNTH_POISSON,		/* device irq, exponential gaps */
	SYNTH_PINGPONG,		/* IPIs alternating within a CPU pair */
	SYNTH_BURSTY,		/* poisson irqs in on/off windows */
	SYNTH_TICK,		/* the workload runs on every tick */
};

struct synth_src {
	enum synth_kind	kind;
	double		rate_hz;
	uint64_t	on_ns, off_ns;	/* bursty */
	uint32_t	detail;		/* wake_detail of its events */
};

struct synth_spec {
	int		nr_src;
	struct synth_src src[SYNTH_MAX_SRC];
	double		busy_us;	/* mean run time after a wakeup */
	bool		aligned;	/* phases 0 instead of random */
};

struct synth_params {
	uint32_t	nr_cpus;
	uint64_t	duration_ns;
	uint64_t	seed;
	uint32_t	hz;
};

#define SYNTH_DEFAULT_PATTERN	"periodic"
#define SYNTH_DEFAULT_BUSY_US	10.0
#define SYNTH_DEFAULT_CPUS	4
#define SYNTH_DEFAULT_SECS	10.0
#define SYNTH_DEFAULT_HZ	250

/* Parse a pattern ("periodic:73,113+busy:20"); errors name the term. */
int synth_parse(const char *pattern, struct synth_spec *s, struct idl_err *err);

/* xoshiro256** seeded by splitmix64: small, fast, reproducible. */
struct synth_rng {
	uint64_t	s[4];
};
void synth_rng_seed(struct synth_rng *r, uint64_t seed);
uint64_t synth_rng_next(struct synth_rng *r);

/* One CPU's generator. */
struct synth_gen_src {
	uint64_t	next;		/* next event, UINT64_MAX if none */
	uint64_t	k;		/* periodic/pingpong: event index */
	uint64_t	phase;
	struct synth_rng rng;
};

struct synth_gen {
	const struct synth_spec	*spec;
	uint32_t	cpu;
	uint64_t	tick_ns;
	uint64_t	end_ns;
	uint64_t	now;		/* last wakeup */
	double		busy_mean_ns;
	bool		done;
	struct synth_rng busy_rng;
	struct synth_gen_src src[SYNTH_MAX_SRC];
};

void synth_gen_init(struct synth_gen *g, const struct synth_spec *s,
		    const struct synth_params *p, uint32_t cpu);
/* 1 and the next idle period, or 0 when the duration is used up. */
int synth_gen_next(struct synth_gen *g, struct idle_period *p);

/* The tick period of the kernel for @hz: (10^9 + hz/2) / hz. */
uint64_t synth_tick_nsec(uint32_t hz);

/* Generate all CPUs, roughly interleaved in time, into @w. */
int synth_write(const struct synth_spec *s, const struct synth_params *p,
		struct trace_writer *w, uint64_t *nr_periods,
		struct idl_err *err);

#endif /* IDLELAB_SYNTH_H */
