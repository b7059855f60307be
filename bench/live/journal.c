// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live session's journal (doc/live.md, "The journal"): what a session
 * saves before it changes the host, and how a journal left behind is put
 * back, recovered when it cannot be trusted, or moved aside when it
 * cannot be applied.  See idlectl.h.
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
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "host.h"
#include "idlectl.h"
#include "input.h"
#include "trace.h"

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
