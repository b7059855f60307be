/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `idlelab live` measures around each run besides the benchmark's
 * own metrics: perf counters (through libpfm4, system-wide per CPU) and
 * energy (RAPL through powercap, else a model over the idle residency).
 */
#ifndef IDLELAB_MEASURE_H
#define IDLELAB_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "idlectl.h"

/* ---------------------------------------------------------------- perf */
#define PERFCTR_MAX_EVENTS	8

struct perfctr_event {
	const char	*name;		/* "cycles", "context-switches" */
	const char	*pfm_name;	/* libpfm4 event string */
	char		status[96];	/* "ok", "not supported (...)", ... */
	bool		ok;
	int		*fds;		/* one per CPU */
};

struct perfctr {
	int			nr_cpus, nr;
	struct perfctr_event	ev[PERFCTR_MAX_EVENTS];
};

/*
 * Open the default events on every CPU.  Events the PMU or the kernel
 * does not support get status "not supported", EACCES/EPERM
 * "permission"; neither is an error.  Returns -1 only when libpfm4
 * itself cannot start.
 */
int perfctr_open(struct perfctr *p, int nr_cpus, struct idl_err *err);
/* Sum over CPUs of each event into vals[nr] (0 for unusable ones). */
void perfctr_read(const struct perfctr *p, uint64_t *vals);
void perfctr_close(struct perfctr *p);
/* perf's classification of a perf_event_open errno. */
const char *perfctr_errno_class(int e);

/* -------------------------------------------------------------- energy */
#define RAPL_MAX_ZONES	16

struct rapl_zone {
	char		path[512];	/* .../intel-rapl:0/energy_uj */
	char		name[64];	/* package-0 */
	uint64_t	max_range_uj;
};

struct rapl {
	int			nr;
	struct rapl_zone	z[RAPL_MAX_ZONES];
};

/* Powercap root from $IDLELAB_POWERCAP_ROOT, else /sys/class/powercap. */
const char *rapl_root(void);
/* Find top-level zones intel-rapl:N (no subzones, to avoid counting
 * twice); returns their number, 0 if none or unreadable. */
int rapl_open(const char *root, struct rapl *r);
int rapl_read(const struct rapl *r, uint64_t *uj);
/* Delta of a counter that wraps at @max_range (modulus). */
uint64_t rapl_delta(uint64_t before, uint64_t after, uint64_t max_range);

/*
 * Modelled energy of a run in CPU-seconds (one CPU busy for one second
 * = 1): busy time at power 1, time in a polling state at 1, the k-th
 * non-polling state at 0.5^k, plus each entry costing its exit latency
 * at power 1.  See doc/live.md.
 */
double energy_model_state_power(const struct idle_snapshot *d, int state);
double energy_modelled(const struct idle_snapshot *d, double wall_us);

#endif /* IDLELAB_MEASURE_H */
