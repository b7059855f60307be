/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one C-state table model of idlelab.  Every source (this machine's
 * sysfs, the built-in real tables, table files, the table embedded in a
 * trace) produces a struct cstate_table; every consumer takes one.
 */
#ifndef IDLELAB_CSTATE_H
#define IDLELAB_CSTATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <idlelab/governor.h>

#define CSTATE_MAX		CPUIDLE_STATE_MAX
#define CSTATE_NAME_LEN		CPUIDLE_NAME_LEN
#define CSTATE_DESC_LEN		CPUIDLE_DESC_LEN

/* State flags: the kernel's CPUIDLE_FLAG_* bits. */
#define CSTATE_POLLING		CPUIDLE_FLAG_POLLING
#define CSTATE_COUPLED		CPUIDLE_FLAG_COUPLED
#define CSTATE_TIMER_STOP	CPUIDLE_FLAG_TIMER_STOP
#define CSTATE_UNUSABLE		CPUIDLE_FLAG_UNUSABLE
#define CSTATE_OFF		CPUIDLE_FLAG_OFF
#define CSTATE_TLB_FLUSHED	CPUIDLE_FLAG_TLB_FLUSHED
#define CSTATE_RCU_IDLE		CPUIDLE_FLAG_RCU_IDLE

/* Units of the optional power data of a table. */
enum cstate_power_unit {
	CSTATE_POWER_NONE = 0,	/* no power data */
	CSTATE_POWER_MW,	/* milliwatts; energies in microjoules */
	CSTATE_POWER_RELATIVE,	/* arbitrary units, consistent within a table */
};

struct cstate {
	char		name[CSTATE_NAME_LEN];
	char		desc[CSTATE_DESC_LEN];
	int64_t		exit_latency_ns;
	int64_t		target_residency_ns;
	unsigned int	flags;		/* CSTATE_* */
	bool		disabled;	/* disabled by user or driver */
	/* optional power data; NAN when unknown */
	double		power;		/* idle power while in the state */
	double		entry_energy;	/* energy of one entry+exit */
};

struct cstate_table {
	char		name[64];	/* "skx", "this machine", file name */
	char		description[128];	/* CPU model or board */
	char		driver[32];	/* intel_idle, acpi_idle, haltpoll, psci_idle */
	char		source[256];	/* provenance: where the numbers come from */
	char		rule[256];	/* kernel rule applied when deriving */
	enum cstate_power_unit power_unit;
	int		count;
	struct cstate	states[CSTATE_MAX];
};

#include "error.h"

/* Fill a cpuidle_driver from a table (states, flags, us forms). */
void cstate_table_to_driver(const struct cstate_table *t,
			    struct cpuidle_driver *drv);

/*
 * Validate a table as the kernel's driver registration would: 1..10
 * states, non-negative numbers, POLL only as state 0.  Problems that the
 * kernel only warns about (exit latency > target residency, states not
 * ordered by residency) are passed to @warn (may be NULL).  Returns 0 or
 * -1 with @err set (exit status 2).
 */
int cstate_table_validate(const struct cstate_table *t, const char *file,
			  void (*warn)(const char *msg), struct idl_err *err);

/* Built-in real tables (lib/builtin-tables.c). */
const struct cstate_table *cstate_builtin_find(const char *name);
const struct cstate_table *const *cstate_builtin_list(void);	/* NULL-terminated */

/* Table files (doc/table-format.md). */
int cstate_table_load(const char *path, struct cstate_table *t,
		      struct idl_err *err);
int cstate_table_save(const char *path, const struct cstate_table *t,
		      struct idl_err *err);	/* atomic: temp file + rename */
int cstate_table_write(FILE *f, const struct cstate_table *t);

/*
 * This machine: cpuidle via libcpupower where it can, sysfs directly for
 * what it lacks.  @sysfs_root is the directory that holds cpu0/, cpuidle/
 * (default "/sys/devices/system/cpu"); libcpupower is used only when it is
 * the default root, so tests can point at fixture trees.
 */
#define CSTATE_SYSFS_ROOT	"/sys/devices/system/cpu"
#define CSTATE_SYSFS_MAX_CPUS	1024	/* cpuN directories looked at */
/*
 * One past the highest CPU that has a cpuidle directory.  A CPU below it
 * may have none (cpuidle-haltpoll removes an offline CPU's; intel_idle
 * keeps it).
 */
int cstate_sysfs_nr_cpus(const char *sysfs_root);
int cstate_sysfs_read(const char *sysfs_root, unsigned int cpu,
		      struct cstate_table *t, struct idl_err *err);
/*
 * The first CPU other than @cpu (below cstate_sysfs_nr_cpus()) whose
 * idle states differ from @t, @cpu's: in number, name, exit latency or
 * target residency (*@what "idle states"), or only in which are disabled
 * (*@what "disabled states").  A trace carries one table for all CPUs.
 * CPUs whose states cannot be read (offline) are skipped.  -1: none.
 */
int cstate_sysfs_other_cpu(const char *sysfs_root, unsigned int cpu,
			   const struct cstate_table *t, const char **what);
/* ... said in a warning, if there is one. */
void cstate_sysfs_warn_mixed(const char *sysfs_root, unsigned int cpu,
			     const struct cstate_table *t);
/* ROOT/cpuCPU/cpuidle/stateSTATE/FILE, the path of one state attribute. */
void cstate_sysfs_path(char *buf, size_t len, const char *root,
		       unsigned int cpu, int state, const char *file);

/* Per-state kernel counters of one CPU (sysfs stateK/...). */
struct cstate_counters {
	int		count;
	struct {
		unsigned long long usage, time_us, above, below, rejected;
	} s[CSTATE_MAX];
};
int cstate_sysfs_counters(const char *sysfs_root, unsigned int cpu,
			  struct cstate_counters *c, struct idl_err *err);

/* cpuidle governors: current one and the space-separated available list
 * (sysfs cpuidle/current_governor_ro, available_governors). */
int cstate_sysfs_governors(const char *sysfs_root, char *current,
			   size_t current_len, char *available,
			   size_t available_len, struct idl_err *err);

/*
 * Kernel module parameters (/sys/module/MODULE/parameters; @root NULL is
 * SYSFS_MODULE_ROOT).  sysfs_module_param() reads one value;
 * sysfs_module_params() appends "MODULE.param=value" for each readable
 * parameter, space-separated, to the string in @buf (whole entries only).
 */
#define SYSFS_MODULE_ROOT	"/sys/module"
int sysfs_module_param(const char *root, const char *module,
		       const char *param, char *buf, size_t len);
int sysfs_module_params(const char *root, const char *module, char *buf,
			size_t len);

/* State flags as text: "polling,timer_stop" ("none" when 0); the parser
 * takes the same words and returns -1 on an unknown one. */
int cstate_flags_format(unsigned int flags, char *buf, size_t len);
int cstate_flags_parse(const char *s, unsigned int *flags);

/* Resolve "--machine NAME" / "--states FILE" style options: a built-in
 * name, or a path to a table file. */
int cstate_table_resolve(const char *machine, const char *file,
			 struct cstate_table *t, struct idl_err *err);

#endif /* IDLELAB_CSTATE_H */
