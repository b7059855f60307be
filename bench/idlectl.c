// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpuidle control through sysfs: governor, state disable, journal, lock
 * and counter snapshots.  See idlectl.h.
 */
#include "config.h"

#include <dirent.h>
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
#include <time.h>
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

int idlectl_set_governor(const char *root, const char *gov,
			 struct idl_err *err)
{
	char p[4096], now[IDLECTL_GOV_LEN];

	snprintf(p, sizeof(p), "%s/cpuidle/current_governor", root);
	if (write_str(p, gov))
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "cannot set governor %s: %s: %s", gov, p,
				   strerror(errno));
	if (idlectl_get_governor(root, now, sizeof(now), err))
		return -1;
	if (strcmp(now, gov))
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "governor %s did not take: %s reads '%s'",
				   gov, p, now);
	return 0;
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

/* -------------------------------------------------------------- journal
 * Format 2 (doc/live.md):
 *
 *	idlelab-live-journal 2
 *	pid 1234
 *	root /sys/devices/system/cpu
 *	governor haltpoll
 *	count 4
 *	disable CPU STATE VALUE		(count lines)
 *	end 4 crc32 89abcdef		(CRC-32 of every byte before it)
 *
 * Format 1 had no count and no end record: it is complete only when it
 * names a disable value for every state of every CPU of its root.
 */

bool idlectl_journal_exists(const char *journal)
{
	return access(journal, F_OK) == 0;
}

/* fsync the directory holding @path, so that a rename or unlink lasts */
static void sync_dir(const char *path)
{
	char dir[4200];
	char *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

static int journal_body(FILE *f, const char *root, struct idl_err *err)
{
	char gov[IDLECTL_GOV_LEN], abs[PATH_MAX];
	int cpus = cstate_sysfs_nr_cpus(root), cpu, st, val, count = 0;

	if (idlectl_get_governor(root, gov, sizeof(gov), err))
		return -1;
	for (cpu = 0; cpu < cpus; cpu++)
		count += idlectl_nr_states(root, (unsigned int)cpu);
	/* absolute: a --restore from another directory finds the tree */
	fprintf(f, "idlelab-live-journal 2\npid %ld\nroot %s\ngovernor %s\n"
		"count %d\n", (long)getpid(), realpath(root, abs) ? abs : root,
		gov, count);
	for (cpu = 0; cpu < cpus; cpu++) {
		int n = idlectl_nr_states(root, (unsigned int)cpu);

		for (st = 0; st < n; st++) {
			if (idlectl_get_disable(root, (unsigned int)cpu,
						(unsigned int)st, &val, err))
				return -1;
			fprintf(f, "disable %d %d %d\n", cpu, st, val);
		}
	}
	return 0;
}

/* The body is built in memory: the end record carries its checksum. */
static int write_journal(FILE *f, void *root, struct idl_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ret;

	if (!m)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	ret = journal_body(m, root, err);
	if (fclose(m) && !ret)
		ret = idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	if (!ret) {
		const char *c = strstr(buf, "\ncount ");

		fwrite(buf, 1, len, f);
		fprintf(f, "end %d crc32 %08x\n", c ? atoi(c + 7) : 0,
			idl_crc32(0, buf, len));
	}
	free(buf);
	return ret;
}

int idlectl_journal_save(const char *root, const char *journal,
			 struct idl_err *err)
{
	if (idl_write_atomic(journal, write_journal, (void *)root, err))
		return -1;
	sync_dir(journal);
	return 0;
}

/* What a journal says, and whether it can be trusted whole. */
struct journal {
	const char	*path;
	int		version;	/* 1 or 2; 0: not a journal */
	char		root[4096];
	char		gov[IDLECTL_GOV_LEN];
	long		count;		/* format 2: the count line, else -1 */
	long		pid;		/* the session's, 0 if not given */
	int		n;
	struct jdis {
		int	cpu, st, val;
	}		*d;
	bool		ended;
	char		why[160];	/* why it is not complete, or "" */
};

#define JOURNAL_MAX_ENTRIES	(CSTATE_SYSFS_MAX_CPUS * CSTATE_MAX)

static void jbad(struct journal *j, unsigned long ln, const char *what)
{
	if (!j->why[0])
		snprintf(j->why, sizeof(j->why), "line %lu: %s", ln, what);
}

/* A governor name as sysfs has them; anything else is not written. */
static bool gov_name_ok(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz"
			     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");

	return n && !s[n] && n < IDLECTL_GOV_LEN;
}

static void journal_disable(struct journal *j, unsigned long ln,
			    const char *line)
{
	int cpu, st, val, used;

	if (sscanf(line, "disable %d %d %d%n", &cpu, &st, &val, &used) != 3 ||
	    line[used] || cpu < 0 || cpu >= CSTATE_SYSFS_MAX_CPUS || st < 0 ||
	    st >= CSTATE_MAX || (val != 0 && val != 1))
		return jbad(j, ln, "cannot parse a disable line");
	if (j->n == JOURNAL_MAX_ENTRIES)
		return jbad(j, ln, "too many disable lines");
	j->d[j->n++] = (struct jdis){ cpu, st, val };
}

static void journal_end(struct journal *j, unsigned long ln,
			const char *line, const char *buf, size_t off)
{
	unsigned int crc;
	long n;
	int used;

	j->ended = true;
	if (j->version < 2)
		return jbad(j, ln, "an end record in a format 1 journal");
	if (sscanf(line, "end %ld crc32 %8x%n", &n, &crc, &used) != 2 ||
	    line[used])
		return jbad(j, ln, "cannot parse the end record");
	if (n != j->count || n != j->n)
		return jbad(j, ln, "the end record's count does not match");
	if (crc != idl_crc32(0, buf, off))
		return jbad(j, ln, "checksum mismatch");
}

static void journal_line(struct journal *j, unsigned long ln,
			 const char *line, const char *buf, size_t off)
{
	if (ln == 1) {
		if (!strcmp(line, "idlelab-live-journal 1"))
			j->version = 1;
		else if (!strcmp(line, "idlelab-live-journal 2"))
			j->version = 2;
		else
			jbad(j, ln, "not an idlelab live journal");
		return;
	}
	if (j->ended)
		return jbad(j, ln, "text after the end record");
	if (!strncmp(line, "pid ", 4)) {
		j->pid = strtol(line + 4, NULL, 10);
		return;
	}
	if (!*line && j->version == 1)
		return;
	if (!strncmp(line, "root ", 5) && !j->root[0] && line[5] &&
	    strlen(line + 5) < sizeof(j->root))
		return (void)snprintf(j->root, sizeof(j->root), "%s",
				      line + 5);
	if (!strncmp(line, "governor ", 9) && !j->gov[0] &&
	    gov_name_ok(line + 9))
		return (void)memcpy(j->gov, line + 9, strlen(line + 9) + 1);
	if (!strncmp(line, "count ", 6) && j->version == 2 && j->count < 0) {
		j->count = strtol(line + 6, NULL, 10);
		return;
	}
	if (!strncmp(line, "disable ", 8))
		return journal_disable(j, ln, line);
	if (!strncmp(line, "end ", 4))
		return journal_end(j, ln, line, buf, off);
	jbad(j, ln, "cannot parse the line");
}

/* Format 1: complete only if every state of every CPU is in it. */
static void journal_v1_complete(struct journal *j)
{
	int cpus = cstate_sysfs_nr_cpus(j->root), cpu, st, i, want = 0;

	for (cpu = 0; cpu < cpus; cpu++) {
		int n = idlectl_nr_states(j->root, (unsigned int)cpu);

		for (st = 0; st < n; st++, want++) {
			for (i = 0; i < j->n; i++)
				if (j->d[i].cpu == cpu && j->d[i].st == st)
					break;
			if (i == j->n) {
				snprintf(j->why, sizeof(j->why), "format 1 "
					 "journal without cpu%d state%d (cut "
					 "short?)", cpu, st);
				return;
			}
		}
	}
	if (j->n != want)
		snprintf(j->why, sizeof(j->why), "format 1 journal with %d "
			 "disable values for %d states", j->n, want);
}

static void journal_check(struct journal *j, const char *buf, size_t len)
{
	unsigned long ln = 0;
	size_t off = 0;
	char line[IDL_JOURNAL_MAX_LINE + 1];

	while (off < len && !j->why[0]) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - buf - off) : len - off;

		ln++;
		if (!nl)
			jbad(j, ln, "the last line has no newline (cut short)");
		else if (n > IDL_JOURNAL_MAX_LINE)
			jbad(j, ln, "line too long");
		else if (memchr(buf + off, '\0', n))
			jbad(j, ln, "NUL byte in line");
		if (j->why[0])
			break;
		memcpy(line, buf + off, n);
		line[n] = '\0';
		journal_line(j, ln, line, buf, off);
		off += n + 1;
	}
	if (!j->why[0] && !j->version)
		snprintf(j->why, sizeof(j->why), "empty");
	else if (!j->why[0] && (!j->root[0] || !j->gov[0]))
		snprintf(j->why, sizeof(j->why), "no root or governor");
	else if (!j->why[0] && j->version == 2 && !j->ended)
		snprintf(j->why, sizeof(j->why), "no end record: cut short");
	else if (!j->why[0] && j->version == 1)
		journal_v1_complete(j);
}

/* Read and check @path; 0, or -1 when it cannot be read at all. */
static int journal_read(struct journal *j, const char *path,
			struct idl_err *err)
{
	char *buf = malloc(IDL_JOURNAL_MAX_SIZE);
	ssize_t r;
	size_t len = 0;
	int fd;

	memset(j, 0, sizeof(*j));
	j->path = path;
	j->count = -1;
	j->d = calloc(JOURNAL_MAX_ENTRIES, sizeof(*j->d));
	if (!buf || !j->d) {
		free(buf);
		free(j->d);
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	}
	/* no size limit here: a larger file is a damaged journal (below) */
	fd = idl_input_open(path, 0, NULL, err);
	if (fd < 0) {
		free(buf);
		free(j->d);
		return -1;
	}
	while ((r = read(fd, buf + len, IDL_JOURNAL_MAX_SIZE - len)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || len + (size_t)r == IDL_JOURNAL_MAX_SIZE) {
			snprintf(j->why, sizeof(j->why), r < 0 ? "cannot be "
				 "read" : "larger than a journal can be");
			break;
		}
		len += (size_t)r;
	}
	close(fd);
	if (!j->why[0])
		journal_check(j, buf, len);
	free(buf);
	return 0;
}

/* Apply a complete journal: every value is tried, each failure said;
 * the number of failures. */
static int journal_apply(const struct journal *j)
{
	struct idl_err e;
	int i, failed = 0;

	for (i = 0; i < j->n; i++) {
		memset(&e, 0, sizeof(e));
		if (idlectl_set_disable(j->root, (unsigned int)j->d[i].cpu,
					(unsigned int)j->d[i].st, j->d[i].val,
					&e)) {
			fprintf(stderr, "%s:   NOT restored: cpu%d state%d "
				"disable %d: %s\n", idl_progname, j->d[i].cpu,
				j->d[i].st, j->d[i].val, e.msg);
			failed++;
		}
	}
	/* the governor even when a disable value failed: most important */
	memset(&e, 0, sizeof(e));
	if (idlectl_set_governor(j->root, j->gov, &e)) {
		fprintf(stderr, "%s:   NOT restored: governor %s: %s\n",
			idl_progname, j->gov, e.msg);
		failed++;
	}
	return failed;
}

/* "JOURNAL.bad-YYYYmmdd-HHMMSS-PID": kept for a look, out of the way */
static int journal_move_aside(const char *journal, char *to, size_t len,
			      struct idl_err *err)
{
	time_t now = time(NULL);
	char stamp[32];

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	snprintf(to, len, "%s.bad-%s-%ld", journal, stamp, (long)getpid());
	if (rename(journal, to))
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: cannot move it "
				   "aside to %s: %s", journal, to,
				   strerror(errno));
	sync_dir(journal);
	return 0;
}

/* Every state of every CPU enabled; returns how many were disabled. */
static int enable_all(const char *root, int *failed)
{
	int cpus = cstate_sysfs_nr_cpus(root), cpu, st, val, was = 0;

	*failed = 0;
	for (cpu = 0; cpu < cpus; cpu++) {
		int n = idlectl_nr_states(root, (unsigned int)cpu);

		for (st = 0; st < n; st++) {
			if (!idlectl_get_disable(root, (unsigned int)cpu,
						 (unsigned int)st, &val, NULL))
				was += val;
			if (idlectl_set_disable(root, (unsigned int)cpu,
						(unsigned int)st, 0, NULL))
				(*failed)++;
		}
	}
	return was;
}

/*
 * A journal that is not complete: put back what is safe on @root (the
 * governor the header names, every state enabled), say what was done
 * and what could not be, and move the journal aside.  Always -1.
 */
static int journal_recover(const struct journal *j, const char *root,
			   struct idl_err *err)
{
	const char *p = idl_progname;
	char now[IDLECTL_GOV_LEN] = "?", aside[4400];
	int failed, was;

	fprintf(stderr, "%s: %s is incomplete or damaged (%s): it is not "
		"restored as it stands\n", p, j->path, j->why);
	if (!j->gov[0])
		idlectl_get_governor(root, now, sizeof(now), NULL);
	if (!j->gov[0])
		fprintf(stderr, "%s:   governor: NOT restored, the journal "
			"does not name it; left at %s\n", p, now);
	else if (idlectl_set_governor(root, j->gov, NULL))
		fprintf(stderr, "%s:   governor: NOT restored, %s (from the "
			"journal header) did not take\n", p, j->gov);
	else
		fprintf(stderr, "%s:   governor: set to %s, from the "
			"journal header\n", p, j->gov);
	was = enable_all(root, &failed);
	fprintf(stderr, "%s:   states: every state of every CPU enabled "
		"(%d had been disabled)%s\n", p, was,
		failed ? "; SOME COULD NOT BE WRITTEN" : "");
	fprintf(stderr, "%s:   NOT restored: states disabled before the "
		"session (their values are lost): disable them again by "
		"hand\n", p);
	fprintf(stderr, "%s:   latency limit: released (the kernel drops a "
		"/dev/cpu_dma_latency request when the session's file is "
		"closed)\n", p);
	if (journal_move_aside(j->path, aside, sizeof(aside), err))
		return -1;
	return idl_err_set(err, IDL_EXIT_FAILURE, "%s: incomplete journal "
			   "moved aside to %s; the host was put in a safe "
			   "state, check it", j->path, aside);
}

/* Does /proc/@pid/environ hold @mark (a whole "NAME=VALUE")? */
static bool environ_has(const char *pid, const char *mark)
{
	static char buf[1 << 16];
	char path[300];
	size_t n, m = strlen(mark) + 1;	/* with its NUL */
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/environ", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return false;
	n = (size_t)r;
	buf[n] = '\0';
	for (size_t i = 0; i + m <= n + 1; i += strlen(buf + i) + 1)
		if (!memcmp(buf + i, mark, m))
			return true;
	return false;
}

int idlectl_kill_session_tools(long session)
{
	char mark[64];
	struct dirent *e;
	int killed = 0;
	DIR *d;

	if (session <= 0 || session == (long)getpid())
		return 0;
	snprintf(mark, sizeof(mark), IDLECTL_SESSION_ENV "=%ld", session);
	d = opendir("/proc");
	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
		    environ_has(e->d_name, mark) &&
		    !kill((pid_t)atol(e->d_name), SIGKILL))
			killed++;
	closedir(d);
	return killed;
}

int idlectl_journal_restore(const char *journal, const char *root,
			    char *what, size_t len, struct idl_err *err)
{
	struct journal j;
	int ret, killed, failed;

	if (journal_read(&j, journal, err))
		return -1;
	/* a tool's children outlive a session killed with its guardian */
	killed = idlectl_kill_session_tools(j.pid);
	if (killed)
		fprintf(stderr, "%s: killed %d process%s the interrupted "
			"session %ld had started\n", idl_progname, killed,
			killed == 1 ? "" : "es", j.pid);
	if (j.why[0]) {
		ret = journal_recover(&j, root, err);
	} else if ((failed = journal_apply(&j))) {
		char aside[4400];

		/* what cannot be written now (a CPU gone offline, a root
		 * that is gone) will not be later: kept, the journal would
		 * block every session */
		ret = journal_move_aside(journal, aside, sizeof(aside), err) ?
		      -1 : idl_err_set(err, IDL_EXIT_FAILURE, "%s: %d of its "
				       "%d values could not be put back "
				       "(above); the rest were; the journal "
				       "is moved aside to %s", journal,
				       failed, j.n + 1, aside);
	} else {
		if (what)
			snprintf(what, len, "governor %s and %d state disable "
				 "value%s", j.gov, j.n, j.n == 1 ? "" : "s");
		ret = unlink(journal) ? idl_err_set(err, IDL_EXIT_FAILURE,
						    "%s: %s", journal,
						    strerror(errno)) : 0;
		sync_dir(journal);
	}
	free(j.d);
	return ret;
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
