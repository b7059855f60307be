/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whole-trace statistics in one streaming pass (what `idlelab info`
 * shows): fixed-size counters, memory independent of trace length.
 */
#ifndef IDLELAB_TRACE_STATS_H
#define IDLELAB_TRACE_STATS_H

#include <stdint.h>

#include "trace.h"

#define TRACE_NR_DECADES	8	/* <1us, 1-10us, ..., 100ms-1s, >=1s */

extern const char *const trace_decade_names[TRACE_NR_DECADES];

struct trace_stats {
	uint64_t	periods, idle_ns;
	uint64_t	decade[TRACE_NR_DECADES];
	uint64_t	cause[WAKE_CAUSE_COUNT + 1];	/* last: invalid */
	uint64_t	state[CSTATE_MAX + 1];		/* [0]: unknown */
	uint64_t	exact, no_timer, tick_stopped, got_tick;
	uint64_t	exact_timer;	/* exact, and a timer (not no_timer) */
	uint64_t	miss_above, miss_below;
	/* periods that carry their PM QoS constraint, its range */
	uint64_t	qos_periods;
	uint32_t	qos_min_us, qos_max_us;
	uint64_t	cpu_periods[TRACE_MAX_CPUS];
	uint64_t	cpu_idle_ns[TRACE_MAX_CPUS];
	/* per CPU and entered state, for the check against the counters */
	struct trace_state_stats {
		uint64_t	entries, idle_ns, above, below;
	} cs[TRACE_MAX_CPUS][CSTATE_MAX];
};

/*
 * One CPU and state: the trace's numbers beside the kernel's counter
 * deltas over the recording.  @flagged when they differ by more than
 * the start/end of a recording explains (doc/importing.md).
 */
struct trace_counter_check {
	uint32_t	cpu, state;
	uint64_t	trace[TC_NR], kernel[TC_NR];	/* TC_* */
	bool		flagged;
	bool		entries_off, miss_off;
};

/* Fill @out (room for @n, the number of counters of @r) after a scan;
 * returns the number of flagged rows. */
size_t trace_counters_check(const struct trace_counter *c, size_t n,
			    const struct trace_stats *s,
			    struct trace_counter_check *out);

/* Read every period of @r (from where it stands) into zeroed @s. */
int trace_stats_scan(struct trace_reader *r, struct trace_stats *s,
		     struct idl_err *err);

#endif /* IDLELAB_TRACE_STATS_H */
