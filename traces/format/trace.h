/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one idle-period record type and the native trace reader/writer.
 *
 * A trace is a C-state table, metadata, and per-CPU sequences of idle
 * periods, each with the inputs a governor reads at idle entry.  The file
 * format is described in doc/trace-format.md.  Readers stream: memory does
 * not depend on trace length.
 */
#ifndef IDLELAB_TRACE_H
#define IDLELAB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cstate.h"
#include "error.h"

#define TRACE_MAX_CPUS		1024
#define TRACE_NO_TIMER		INT64_MAX	/* sleep length: no timer */
/* Times stay below 2^62 ns (146 years), so that differences of them
 * cannot overflow; a sleep length or tick distance below -2^62 is no
 * writer's (the reader refuses it). */
#define TRACE_TIME_MAX		((int64_t)1 << 62)
#define TRACE_HZ_MAX		100000		/* as replay --hz */
/* A longer idle period is a timestamp far off, not idle time: import
 * warns of it, replay skips it (it would take forever with the tick
 * kept). */
#define TRACE_MAX_PERIOD_NS	(1000ULL * 1000000000ULL)
#define TRACE_STATE_UNKNOWN	(-1)

enum wake_cause {
	WAKE_UNKNOWN = 0,
	WAKE_TICK,		/* the scheduler tick (tick_nohz_handler) */
	WAKE_HRTIMER,		/* another hrtimer; detail = function id */
	WAKE_TIMER,		/* a timer-wheel timer; detail = function id */
	WAKE_IRQ,		/* device interrupt; detail = irq number */
	WAKE_IPI,		/* inter-processor interrupt / remote wakeup */
	WAKE_SCHED,		/* need_resched without a seen interrupt */
	WAKE_CAUSE_COUNT
};
/* WAKE_IPI's detail: the sending CPU, or this where only the receipt was
 * traced (x86's irq_vectors without ipi_send events) */
#define WAKE_IPI_NO_SENDER	UINT32_MAX

/* struct idle_period.flags */
#define IP_SLEEP_EXACT	(1U << 0)	/* sleep length from a known pending timer */
#define IP_TICK_STOPPED	(1U << 1)	/* tick was stopped at entry */
#define IP_GOT_TICK	(1U << 2)	/* the reflect after it got a tick */
#define IP_MISS_ABOVE	(1U << 3)	/* kernel's cpu_idle_miss: above */
#define IP_MISS_BELOW	(1U << 4)	/* kernel's cpu_idle_miss: below */
#define IP_TICK_EXACT	(1U << 5)	/* delta_tick known from tick events */
#define IP_POLL_LIMIT	(1U << 6)	/* poll state ended on its time limit */
/* qos_latency_us holds the CPU's PM QoS latency constraint at entry;
 * without it the trace's (trace_meta.latency_req_ns) applies */
#define IP_QOS_KNOWN	(1U << 7)

/*
 * One idle period on one CPU, fixed size.  Times are in ns of the trace
 * clock; sleep_length_ns and delta_tick_ns are relative to entry_ns.
 */
struct idle_period {
	uint64_t	entry_ns;
	uint64_t	exit_ns;
	int64_t		sleep_length_ns;	/* TRACE_NO_TIMER if none */
	int64_t		delta_tick_ns;		/* time to the next tick */
	uint32_t	cpu;
	uint32_t	wake_detail;	/* irq number, timer function id */
	int16_t		state;		/* entered state, TRACE_STATE_UNKNOWN */
	uint8_t		wake_cause;	/* enum wake_cause */
	uint8_t		flags;		/* IP_* */
	/* kernel cpuidle_governor_latency_req() / 1000 (IP_QOS_KNOWN) */
	uint32_t	qos_latency_us;
};

struct trace_meta {
	uint32_t	version;		/* format version */
	char		kernel[128];		/* uname -r */
	char		driver[32];		/* cpuidle driver */
	char		governor[32];		/* governor live at capture */
	char		clock[32];		/* trace clock */
	char		source[256];		/* recorded / imported from / synth */
	char		tool[64];		/* idlelab version */
	uint32_t	hz;			/* 0 if unknown */
	uint32_t	nr_cpus;
	int64_t		latency_req_ns;		/* -1 if unknown */
	uint64_t	start_ns, end_ns;	/* capture span */
	uint64_t	nr_periods;
	uint64_t	nr_events;		/* raw events consumed */
	uint64_t	lost_events;		/* ring-buffer overruns */
	/* the live governor's tunables as "param=value,..." in idlelab's
	 * names (the kernel's module parameters); "" if not known */
	char		governor_params[256];
	/* the raw module parameters read at capture, "module.param=value"
	 * separated by spaces (governor and cpuidle driver) */
	char		module_params[512];
	/* bit (1 << enum ev_type) for each event type the capture holds;
	 * 0 if not known (traces written before this field) */
	uint32_t	events_seen;
	/* periods in a polling state whose end the capture showed (their
	 * IP_POLL_LIMIT is the kernel's, not a guess from the default time
	 * limit); 0 if none or not known */
	uint64_t	poll_ends_seen;
	/* how much longer the trace's idle periods are than the kernel's
	 * own measure of them (its clock reads sit inside the cpu_idle
	 * events), ns, from its cpu_idle_miss events; -1 if not known */
	int64_t		residency_lag_ns;
	struct cstate_table table;
};

/*
 * The kernel's per-CPU, per-state cpuidle counters (sysfs stateN/usage,
 * time, above, below, rejected) at the start and at the end of a
 * recording: they let `info` check the trace against what the kernel
 * counted.
 */
enum { TC_USAGE, TC_TIME_US, TC_ABOVE, TC_BELOW, TC_REJECTED, TC_NR };
struct trace_counter {
	uint32_t	cpu, state;
	uint64_t	start[TC_NR], end[TC_NR];
};
#define TRACE_MAX_COUNTERS	(TRACE_MAX_CPUS * CSTATE_MAX)

struct trace_writer;
struct trace_reader;

/*
 * Writer: periods may be added in any CPU order, but in time order per
 * CPU.  The file appears under @path only when trace_writer_close()
 * succeeds (temp file + rename); trace_writer_abort() removes it.
 */
struct trace_writer *trace_writer_create(const char *path,
					 const struct trace_meta *meta,
					 struct idl_err *err);
int trace_writer_add(struct trace_writer *w, const struct idle_period *p,
		     struct idl_err *err);
/* Update metadata fields (span, events, lost events) before closing; the
 * period count is the writer's own. */
struct trace_meta *trace_writer_meta(struct trace_writer *w);
/*
 * Store @n counters (copied).  The first call, before any period is
 * added, reserves header room for @n; a later call may store at most as
 * many as were reserved.
 */
int trace_writer_set_counters(struct trace_writer *w,
			      const struct trace_counter *c, size_t n,
			      struct idl_err *err);
int trace_writer_close(struct trace_writer *w, struct idl_err *err);
void trace_writer_abort(struct trace_writer *w);

/*
 * Reader: trace_reader_open() reads the header and metadata.
 * trace_reader_next() returns 1 and the next period (of @cpu, or of any
 * CPU if @cpu < 0, in file order), 0 at the end, -1 on error.  A damaged
 * or truncated file is read up to its last good block; the loss is then
 * reported by trace_reader_damage().
 */
struct trace_reader *trace_reader_open(const char *path, struct idl_err *err);
const struct trace_meta *trace_reader_meta(const struct trace_reader *r);
/* The counters stored in the trace; NULL and *@n = 0 if none. */
const struct trace_counter *trace_reader_counters(const struct trace_reader *r,
						  size_t *n);
int trace_reader_next(struct trace_reader *r, int cpu, struct idle_period *p,
		      struct idl_err *err);
/* Up to @max periods at once into @p, from one block: returns how many
 * (at least 1), 0 at the end, -1 on error. */
int trace_reader_batch(struct trace_reader *r, int cpu, struct idle_period *p,
		       int max, struct idl_err *err);
int trace_reader_rewind(struct trace_reader *r, struct idl_err *err);
/* Non-NULL message when the file was damaged or truncated. */
const char *trace_reader_damage(const struct trace_reader *r);
void trace_reader_close(struct trace_reader *r);

const char *wake_cause_name(enum wake_cause c);

/*
 * Additions (helper "traceformat"): format constants, metadata defaults,
 * structured damage information and the CRC32 used by the format.
 */
/* Version 2 is version 1 with latency-constraint records; a writer
 * writes 1 when it has none, so that older readers still read it. */
#define TRACE_FORMAT_VERSION	2
#define TRACE_FORMAT_VERSION_V1	1

/* Zero @m and set the "unknown" values (latency -1, power NAN, ...). */
void trace_meta_init(struct trace_meta *m);

struct trace_damage {
	bool		damaged;
	uint64_t	offset;		/* file offset where reading stopped */
	uint64_t	bytes_lost;	/* bytes from there to end of file */
	int64_t		blocks_lost;	/* -1 if unknown */
	int64_t		records_lost;	/* -1 if unknown */
};
/* Filled once trace_reader_next() has reached the damage. */
void trace_reader_damage_info(const struct trace_reader *r,
			      struct trace_damage *d);

/* CRC-32 (IEEE 802.3, reflected 0xEDB88320); start with crc = 0. */
uint32_t idl_crc32(uint32_t crc, const void *buf, size_t len);
/* the same by tables only, whatever the CPU (to test idl_crc32 against) */
uint32_t idl_crc32_tables(uint32_t crc, const void *buf, size_t len);

#endif /* IDLELAB_TRACE_H */
