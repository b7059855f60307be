/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Control of the kernel's cpuidle through sysfs for `idlelab live`:
 * governor switching with read-back, state disable, the journal that
 * lets a later run undo what a killed one changed, the session lock,
 * and snapshots of the per-CPU per-state counters.
 *
 * Every function takes the sysfs root (the directory holding cpu0/ and
 * cpuidle/, normally /sys/devices/system/cpu) so that tests can run on
 * fixture trees.
 */
#ifndef IDLELAB_IDLECTL_H
#define IDLELAB_IDLECTL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "cstate.h"
#include "error.h"

#define IDLECTL_MAX_GOVS	16
#define IDLECTL_GOV_LEN		32

/* Root from $IDLELAB_SYSFS_ROOT, else CSTATE_SYSFS_ROOT. */
const char *idlectl_sysfs_root(void);
/* Directory for journal and lock: $IDLELAB_RUN_DIR, else /run/idlelab. */
const char *idlectl_run_dir(void);

/*
 * Number of stateK directories of @cpu (0: no cpuidle, as offline).
 * Every loop over the CPUs below cstate_sysfs_nr_cpus() skips those
 * whose count is 0; snapshots also leave out CPUs whose "online" file
 * says 0.
 */
int idlectl_nr_states(const char *root, unsigned int cpu);
/* The lowest CPU with cpuidle states, whose table stands for all; -1 if
 * none. */
int idlectl_first_cpu(const char *root);

int idlectl_has_cpuidle(const char *root);
int idlectl_available(const char *root, char govs[][IDLECTL_GOV_LEN],
		      int max, struct idl_err *err);
int idlectl_get_governor(const char *root, char *buf, size_t len,
			 struct idl_err *err);
/* Write the governor (no read-back: someone else may write it too). */
int idlectl_write_governor(const char *root, const char *gov,
			   struct idl_err *err);
/*
 * Write the governor and read it back, again up to a few times while
 * another writer changes it in between; error if it never took.
 */
int idlectl_set_governor(const char *root, const char *gov,
			 struct idl_err *err);
int idlectl_get_disable(const char *root, unsigned int cpu,
			unsigned int state, int *val, struct idl_err *err);
int idlectl_set_disable(const char *root, unsigned int cpu,
			unsigned int state, int val, struct idl_err *err);

/*
 * Journal: the governor and every state's disable value, saved before
 * anything is changed, with a count and an end record carrying a CRC-32
 * (temp file, fsync, rename, fsync of the directory).  Restore writes
 * them back, verifies them, and removes the journal; @what, when not
 * NULL, gets a one-line summary of what was restored.  A journal that is
 * not complete (cut short, damaged, an old format without every state)
 * is never deleted nor reported as restored: what is safe is put back on
 * @root (the header's governor, every state enabled), what was done and
 * what could not be is said on stderr, the journal is moved aside
 * (JOURNAL.bad-...) so that later sessions are not blocked, and -1 is
 * returned.  A complete journal whose values cannot be written is kept.
 */
int idlectl_journal_save(const char *root, const char *journal,
			 struct idl_err *err);
int idlectl_journal_restore(const char *journal, const char *root,
			    char *what, size_t len, struct idl_err *err);
bool idlectl_journal_exists(const char *journal);

/* Exclusive session lock (flock); returns the fd or -1. */
int idlectl_lock(const char *path, struct idl_err *err);
void idlectl_unlock(int fd);
/*
 * In a child of a session, right after fork(): close its copies of the
 * lock and of the latency request (a child that outlives a killed
 * session must neither keep the next one out nor hold the request) and
 * ask for @sig when @parent dies.  -1 when @parent is already gone (the
 * child should exit at once).
 */
int idlectl_child_init(pid_t parent, int sig);

/*
 * Benchmark tools carry IDLECTL_SESSION_ENV=<the session's pid> in their
 * environment: when a session and the guardian of its tool are killed
 * together, the tool's own children run on, and the restore of that
 * session's journal kills every process that carries its mark.
 */
#define IDLECTL_SESSION_ENV	"IDLELAB_LIVE_SESSION"
int idlectl_kill_session_tools(long session);

/* ------------------------------------------------------------ session */
/* Disable states @idx[0..n) on every CPU (the journal restores them). */
int idlectl_disable_states(const char *root, const int *idx, int n,
			   struct idl_err *err);
/* Hold /dev/cpu_dma_latency at @us (0, or -1); release to end it. */
int idlectl_hold_latency(long us, struct idl_err *err);
void idlectl_release_latency(void);
/*
 * Before a live session changes anything: refuse when not root (real
 * sysfs) or without cpuidle, take the session lock (*lock_fd), and
 * restore from a journal an interrupted session left behind (said on
 * stderr).
 */
int idlectl_session_open(const char *root, const char *journal,
			 bool restore_only, int *lock_fd, struct idl_err *err);

/* ------------------------------------------------- counter snapshots */
struct idle_state_info {
	char		name[CSTATE_NAME_LEN];
	uint64_t	exit_latency_us;
	uint64_t	target_residency_us;
	bool		polling;	/* the table flags it polling */
};

struct idle_snapshot {
	int				nr_cpus, nr_states;
	int				nr_present;	/* online, with cpuidle */
	struct idle_state_info		info[CSTATE_MAX];
	/* counters[cpu * CSTATE_MAX + state] */
	struct {
		uint64_t usage, time_us, above, below, rejected;
	} *c;
};

int idlectl_snapshot(const char *root, struct idle_snapshot *s,
		     struct idl_err *err);
void idlectl_snapshot_free(struct idle_snapshot *s);

/* The difference after - before (same shape, counters subtracted). */
int idlectl_delta(const struct idle_snapshot *before,
		  const struct idle_snapshot *after,
		  struct idle_snapshot *delta, struct idl_err *err);

/* Summary of a delta over @wall_us microseconds of wall time. */
struct idle_summary {
	double	above_pct, below_pct;	/* of all entries (usage) */
	double	idle_pct;		/* idle time / (CPUs * wall) */
	double	residency_pct[CSTATE_MAX];	/* of idle time, per state */
	uint64_t usage, above, below, rejected, time_us;
};
void idlectl_summarize(const struct idle_snapshot *d, double wall_us,
		       struct idle_summary *sum);

#endif /* IDLELAB_IDLECTL_H */
