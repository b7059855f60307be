// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpuidle control through sysfs: governor, state disable, lock and
 * counter snapshots (the journal is journal.c's).  See idlectl.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "host.h"
#include "idlectl.h"
#include "input.h"
#include "trace.h"

const char *idlectl_sysfs_root(void)
{
	const char *r = getenv("IDLELAB_SYSFS_ROOT");

	return r && *r ? r : CSTATE_SYSFS_ROOT;
}

const char *idlectl_run_dir(void)
{
	const char *r = getenv("IDLELAB_RUN_DIR");

	return r && *r ? r : "/run/idlelab";
}

/* Copy a string, truncating to @len - 1 characters. */
static void copy_str(char *d, size_t len, const char *s)
{
	size_t n = strnlen(s, len - 1);

	memcpy(d, s, n);
	d[n] = '\0';
}

/* Write @s (no newline, as sysfs takes it); 0 or -1 with errno. */
static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_TRUNC), e;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	e = errno;
	if (close(fd) && n >= 0)
		return -1;
	errno = e;
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/*
 * Whether @cpu is online: its "online" file, where there is one (the boot
 * CPU often has none).  intel_idle and acpi_idle keep an offline CPU's
 * cpuidle directory, cpuidle-haltpoll removes it.
 */
static bool cpu_online(const char *root, unsigned int cpu)
{
	char p[4096], v[8];

	snprintf(p, sizeof(p), "%s/cpu%u/online", root, cpu);
	return idl_read_str(p, v, sizeof(v)) || v[0] != '0';
}

int idlectl_first_cpu(const char *root)
{
	int cpus = cstate_sysfs_nr_cpus(root), cpu;

	for (cpu = 0; cpu < cpus; cpu++)
		if (idlectl_nr_states(root, (unsigned int)cpu))
			return cpu;
	return -1;
}

int idlectl_nr_states(const char *root, unsigned int cpu)
{
	char p[4096];
	struct stat st;
	int n;

	for (n = 0; n < CSTATE_MAX; n++) {
		snprintf(p, sizeof(p), "%s/cpu%u/cpuidle/state%d", root, cpu,
			 n);
		if (stat(p, &st) || !S_ISDIR(st.st_mode))
			break;
	}
	return n;
}

int idlectl_has_cpuidle(const char *root)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/cpuidle/current_governor", root);
	return access(p, F_OK) == 0 && cstate_sysfs_nr_cpus(root) > 0;
}

int idlectl_available(const char *root, char govs[][IDLECTL_GOV_LEN],
		      int max, struct idl_err *err)
{
	char p[4096], buf[512], *tok, *save, *s;
	int n = 0;

	snprintf(p, sizeof(p), "%s/cpuidle/available_governors", root);
	if (idl_read_str(p, buf, sizeof(buf)))
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", p,
				   strerror(errno));
	for (s = buf; n < max && (tok = strtok_r(s, " \t\n", &save));
	     s = NULL)
		snprintf(govs[n++], IDLECTL_GOV_LEN, "%s", tok);
	return n;
}

int idlectl_get_governor(const char *root, char *buf, size_t len,
			 struct idl_err *err)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/cpuidle/current_governor", root);
	if (idl_read_str(p, buf, len))
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", p,
				   strerror(errno));
	return 0;
}

int idlectl_write_governor(const char *root, const char *gov,
			   struct idl_err *err)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/cpuidle/current_governor", root);
	if (write_str(p, gov))
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "cannot set governor %s: %s: %s", gov, p,
				   strerror(errno));
	return 0;
}

/*
 * Another writer on the host may switch the governor between our write
 * and its read-back; that is not a refusal by the kernel (which fails the
 * write itself), so the write is made again a few times, a little later
 * each time, before the governor counts as "did not take".
 */
#define SET_GOVERNOR_TRIES 5

int idlectl_set_governor(const char *root, const char *gov,
			 struct idl_err *err)
{
	char p[4096], now[IDLECTL_GOV_LEN];
	int try;

	snprintf(p, sizeof(p), "%s/cpuidle/current_governor", root);
	for (try = 1; ; try++) {
		if (idlectl_write_governor(root, gov, err))
			return -1;
		if (idlectl_get_governor(root, now, sizeof(now), err))
			return -1;
		if (!strcmp(now, gov))
			return 0;
		if (try == SET_GOVERNOR_TRIES)
			break;
		usleep(10000 * try);
	}
	return idl_err_set(err, IDL_EXIT_FAILURE,
			   "governor %s did not take: %s reads '%s' after %d "
			   "writes (someone else writing it?)", gov, p, now,
			   SET_GOVERNOR_TRIES);
}

int idlectl_get_disable(const char *root, unsigned int cpu,
			unsigned int state, int *val, struct idl_err *err)
{
	char p[4096];
	uint64_t v;

	cstate_sysfs_path(p, sizeof(p), root, cpu, (int)state, "disable");
	if (idl_read_u64(p, &v))
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", p,
				   errno ? strerror(errno) : "not a number");
	*val = v != 0;
	return 0;
}

int idlectl_set_disable(const char *root, unsigned int cpu,
			unsigned int state, int val, struct idl_err *err)
{
	char p[4096];
	int now;

	cstate_sysfs_path(p, sizeof(p), root, cpu, (int)state, "disable");
	if (write_str(p, val ? "1" : "0"))
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", p,
				   strerror(errno));
	if (idlectl_get_disable(root, cpu, state, &now, err))
		return -1;
	if (now != !!val)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "%s: wrote %d, reads %d", p, !!val, now);
	return 0;
}

/* ----------------------------------------------------------------- lock */

/* The lock and latency request this process holds: children let go of
 * their copies. */
static int held_lock_fd = -1, held_latency_fd = -1;

int idlectl_child_init(pid_t parent, int sig)
{
	if (held_lock_fd >= 0)
		close(held_lock_fd);
	held_lock_fd = -1;
	if (held_latency_fd >= 0)
		close(held_latency_fd);
	held_latency_fd = -1;
	/* the parent may have died before the request: then die now */
	if (prctl(PR_SET_PDEATHSIG, sig) || getppid() != parent)
		return -1;
	return 0;
}

int idlectl_lock(const char *path, struct idl_err *err)
{
	char pid[32] = "";
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", path,
				   strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);

		close(fd);
		if (n > 0)
			pid[strcspn(pid, "\n")] = '\0';
		/* the pid is the last session's; the holder may be another */
		if (n <= 0 || kill((pid_t)atol(pid), 0))
			snprintf(pid, sizeof(pid), "?");
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "another idlelab live session is running "
				   "(pid %s, lock %s)", pid, path);
	}
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, strlen(pid), 0) < 0) {
		close(fd);
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", path,
				   strerror(errno));
	}
	held_lock_fd = fd;
	return fd;
}

/* The lock file stays: unlinking a flock file races with a new locker. */
void idlectl_unlock(int fd)
{
	if (fd >= 0 && fd == held_lock_fd)
		held_lock_fd = -1;
	if (fd >= 0)
		close(fd);
}

/* ------------------------------------------------------------ snapshots */

/* The states as the table library reads them (of CPU @cpu). */
static int states_info(const char *root, unsigned int cpu,
		       struct idle_snapshot *s, struct idl_err *err)
{
	struct cstate_table t;
	int st;

	if (cstate_sysfs_read(root, cpu, &t, err))
		return -1;
	for (st = 0; st < s->nr_states && st < t.count; st++) {
		struct idle_state_info *in = &s->info[st];

		copy_str(in->name, sizeof(in->name), t.states[st].name);
		in->exit_latency_us = (uint64_t)t.states[st].exit_latency_ns / 1000;
		in->target_residency_us =
			(uint64_t)t.states[st].target_residency_ns / 1000;
		in->polling = t.states[st].flags & CSTATE_POLLING;
	}
	return 0;
}

int idlectl_snapshot(const char *root, struct idle_snapshot *s,
		     struct idl_err *err)
{
	struct cstate_counters cc;
	int cpu, st, first;

	memset(s, 0, sizeof(*s));
	first = idlectl_first_cpu(root);
	if (first < 0)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "%s: no cpuidle states", root);
	s->nr_cpus = cstate_sysfs_nr_cpus(root);
	s->nr_states = idlectl_nr_states(root, (unsigned int)first);
	s->c = calloc((size_t)s->nr_cpus * CSTATE_MAX, sizeof(*s->c));
	if (!s->c)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	if (states_info(root, (unsigned int)first, s, err)) {
		idlectl_snapshot_free(s);
		return -1;
	}
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		/* offline: its counters stay 0, and it is not counted */
		if (!idlectl_nr_states(root, (unsigned int)cpu) ||
		    !cpu_online(root, (unsigned int)cpu))
			continue;
		s->nr_present++;
		if (cstate_sysfs_counters(root, (unsigned int)cpu, &cc,
					  err)) {
			idlectl_snapshot_free(s);
			return -1;
		}
		for (st = 0; st < s->nr_states && st < cc.count; st++) {
			typeof(*s->c) *c = &s->c[cpu * CSTATE_MAX + st];

			c->usage = cc.s[st].usage;
			c->time_us = cc.s[st].time_us;
			c->above = cc.s[st].above;
			c->below = cc.s[st].below;
			c->rejected = cc.s[st].rejected;
		}
	}
	return 0;
}

void idlectl_snapshot_free(struct idle_snapshot *s)
{
	free(s->c);
	s->c = NULL;
}

int idlectl_delta(const struct idle_snapshot *b,
		  const struct idle_snapshot *a, struct idle_snapshot *d,
		  struct idl_err *err)
{
	size_t i, f, n;

	if (a->nr_cpus != b->nr_cpus || a->nr_states != b->nr_states ||
	    a->nr_present != b->nr_present)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "cpuidle layout changed during the run");
	*d = *a;
	n = (size_t)a->nr_cpus * CSTATE_MAX;
	d->c = calloc(n, sizeof(*d->c));
	if (!d->c)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	for (i = 0; i < n; i++) {
		const uint64_t *va = &a->c[i].usage, *vb = &b->c[i].usage;
		uint64_t *vd = &d->c[i].usage;

		for (f = 0; f < 5; f++) {
			if (va[f] < vb[f]) {
				idlectl_snapshot_free(d);
				return idl_err_set(err, IDL_EXIT_FAILURE,
						   "cpuidle counter of cpu%zu "
						   "state%zu went backwards",
						   i / CSTATE_MAX,
						   i % CSTATE_MAX);
			}
			vd[f] = va[f] - vb[f];
		}
	}
	return 0;
}

void idlectl_summarize(const struct idle_snapshot *d, double wall_us,
		       struct idle_summary *sum)
{
	uint64_t st_time[CSTATE_MAX] = { 0 };
	int cpu, st;

	memset(sum, 0, sizeof(*sum));
	for (cpu = 0; cpu < d->nr_cpus; cpu++)
		for (st = 0; st < d->nr_states; st++) {
			const typeof(*d->c) *c = &d->c[cpu * CSTATE_MAX + st];

			sum->usage += c->usage;
			sum->above += c->above;
			sum->below += c->below;
			sum->rejected += c->rejected;
			sum->time_us += c->time_us;
			st_time[st] += c->time_us;
		}
	if (sum->usage) {
		sum->above_pct = 100.0 * (double)sum->above /
				 (double)sum->usage;
		sum->below_pct = 100.0 * (double)sum->below /
				 (double)sum->usage;
	}
	if (wall_us > 0 && d->nr_present)
		sum->idle_pct = 100.0 * (double)sum->time_us /
				(wall_us * d->nr_present);
	for (st = 0; st < d->nr_states && sum->time_us; st++)
		sum->residency_pct[st] = 100.0 * (double)st_time[st] /
					 (double)sum->time_us;
}

/* ------------------------------------------------------------ session */

int idlectl_disable_states(const char *root, const int *idx, int n,
			   struct idl_err *err)
{
	int cpus = cstate_sysfs_nr_cpus(root), cpu, i;

	for (i = 0; i < n; i++)
		for (cpu = 0; cpu < cpus; cpu++)
			if (idlectl_nr_states(root, (unsigned int)cpu) &&
			    idlectl_set_disable(root, (unsigned int)cpu,
						(unsigned int)idx[i], 1, err))
				return -1;
	return 0;
}

/* The request lasts while the file stays open (in any process). */
int idlectl_hold_latency(long us, struct idl_err *err)
{
	int32_t v = (int32_t)us;
	int fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "/dev/cpu_dma_latency: %s", strerror(errno));
	if (write(fd, &v, sizeof(v)) != sizeof(v)) {
		close(fd);
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "/dev/cpu_dma_latency: %s", strerror(errno));
	}
	held_latency_fd = fd;
	return 0;
}

void idlectl_release_latency(void)
{
	if (held_latency_fd >= 0)
		close(held_latency_fd);
	held_latency_fd = -1;
}

/*
 * Why idlectl_has_cpuidle() is false.  Without a driver the kernel still
 * has current_governor (and current_driver says "none"), but no CPU has
 * a cpuidle directory, so there is nothing a session could switch.
 */
static int no_cpuidle(const char *root, struct idl_err *err)
{
	char p[4200], drv[64];

	snprintf(p, sizeof(p), "%s/cpuidle/current_governor", root);
	if (access(p, F_OK))
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "no cpuidle here: %s does not exist "
				   "(cpuidle.off=1 or no driver)", p);
	snprintf(p, sizeof(p), "%s/cpuidle/current_driver", root);
	if (idl_read_str(p, drv, sizeof(drv)))
		snprintf(drv, sizeof(drv), "unknown");
	drv[strcspn(drv, "\n")] = '\0';
	return idl_err_set(err, IDL_EXIT_FAILURE,
			   "no idle states: %s/cpu0/cpuidle does not exist "
			   "(no cpuidle driver is registered; current_driver: "
			   "%s)", root, drv);
}

int idlectl_session_open(const char *root, const char *journal,
			 bool restore_only, int *lock_fd, struct idl_err *err)
{
	char lock[4200], what[256];
	const char *run_dir = idlectl_run_dir();

	if (strcmp(root, CSTATE_SYSFS_ROOT) == 0 && geteuid() != 0)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "must be run as root (it writes %s/cpuidle/"
				   "current_governor)", root);
	if (!idlectl_has_cpuidle(root))
		return no_cpuidle(root, err);
	if (mkdir(run_dir, 0755) && errno != EEXIST)
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", run_dir,
				   strerror(errno));
	snprintf(lock, sizeof(lock), "%s/live.lock", run_dir);
	*lock_fd = idlectl_lock(lock, err);
	if (*lock_fd < 0)
		return -1;
	if (idlectl_journal_exists(journal)) {
		if (idlectl_journal_restore(journal, root, what, sizeof(what),
					    err))
			return -1;
		fprintf(stderr, "%s: a previous session was interrupted; "
			"restored %s from %s\n", idl_progname, what, journal);
	} else if (restore_only) {
		fprintf(stderr, "%s: nothing to restore (no %s)\n",
			idl_progname, journal);
	}
	return 0;
}
