// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plugin columns run contained: each in a process of its own, forked
 * before any replay thread exists, which replays every trace with only
 * that column and sends its per-CPU numbers back through a pipe.  A
 * plugin that crashes, corrupts memory or stops making progress loses
 * its own column only; the parent says why in run->failed.  Progress is
 * a count of periods in shared memory: a column that does not advance
 * for the timeout is killed.
 *
 * What a plugin's process writes for --explain and --disagreements goes
 * to files of its own, sent after its numbers and appended to the
 * parent's, CPU by CPU.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plugin.h"
#include "run.h"

#define DEFAULT_TIMEOUT_S	10
#define POLL_MS			200

struct child {
	int		gi;		/* its column */
	pid_t		pid;		/* also its process group */
	int		status;		/* once it has ended */
	bool		ended;
	int		fd;		/* read end of its results */
	u64		*progress;	/* shared with it */
	char		*buf;		/* what it sent */
	size_t		len, cap;
};

struct replay_contained {
	int		n;
	struct child	c[REPLAY_MAX_GOV];
};

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A text file as u64 length + bytes. */
static int send_file(int fd, FILE *f)
{
	char buf[8192];
	u64 len = 0;
	size_t n;

	if (f) {
		fflush(f);
		fseeko(f, 0, SEEK_END);
		len = (u64)ftello(f);
		rewind(f);
	}
	if (write_all(fd, &len, sizeof(len)))
		return -1;
	while (len && (n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (write_all(fd, buf, n))
			return -1;
		len -= n < len ? n : len;
	}
	return 0;
}

/* Swap a trace's per-CPU text files for fresh ones of this process. */
static void own_files(FILE **f, unsigned int n)
{
	unsigned int u;

	for (u = 0; f && u < n; u++)
		if (f[u] && !(f[u] = tmpfile()))
			_exit(3);
}

/*
 * In the plugin's process: replay its column only, then send "R", per
 * trace and CPU its score, and the explain and disagreement texts; or
 * "E" and the error message.
 */
static void child_main(struct replay_run *run, const struct replay_opts *o,
		       int gi, u64 *progress, int wfd)
{
	struct replay_opts co = *o;
	struct idl_err err;
	unsigned int u;
	int t, j;

	memset(&err, 0, sizeof(err));
	if (idl_plugin_activate(o->gov[gi].ops, err.msg, sizeof(err.msg))) {
		write_all(wfd, "E", 1);
		write_all(wfd, err.msg, strlen(err.msg));
		_exit(2);
	}
	co.progress = false;	/* the parent's line only */
	run->progress = progress;
	for (t = 0; t < run->ntrace; t++) {
		struct replay_trace *tr = &run->tr[t];

		for (j = 0; j < tr->setup.ngov; j++)
			tr->setup.skip[j] = j != gi;
		own_files(tr->explain, tr->ncpu);
		own_files(tr->disagree, tr->ncpu);
	}
	if (replay_run_units(run, &co, &err)) {
		write_all(wfd, "E", 1);
		write_all(wfd, err.msg, strlen(err.msg));
		_exit(2);
	}
	if (write_all(wfd, "R", 1))
		_exit(4);
	for (t = 0; t < run->ntrace; t++) {
		struct replay_trace *tr = &run->tr[t];

		for (u = 0; u < tr->ncpu; u++)
			if (write_all(wfd, &tr->cpus[u].sc[gi],
				      sizeof(tr->cpus[u].sc[gi])) ||
			    send_file(wfd, tr->explain ? tr->explain[u] : NULL) ||
			    send_file(wfd, tr->disagree ?
				      tr->disagree[u] : NULL))
				_exit(4);
	}
	_exit(0);
}

static int start_one(struct replay_run *run, const struct replay_opts *o,
		     struct child *c, struct idl_err *err)
{
	pid_t parent = getpid();
	int fd[2];

	c->progress = mmap(NULL, sizeof(*c->progress), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c->progress == MAP_FAILED) {
		c->progress = NULL;
		return idl_err_set(err, IDL_EXIT_FAILURE, "mmap: %s",
				   strerror(errno));
	}
	if (pipe(fd))
		return idl_err_set(err, IDL_EXIT_FAILURE, "pipe: %s",
				   strerror(errno));
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return idl_err_set(err, IDL_EXIT_FAILURE, "fork: %s",
				   strerror(errno));
	}
	if (c->pid == 0) {
		idl_contained_child_init();
		close(fd[0]);
		if (idl_child_contain(parent, true))
			_exit(3);
		child_main(run, o, c->gi, c->progress, fd[1]);
	}
	close(fd[1]);
	c->fd = fd[0];
	return 0;
}

int replay_contain_start(struct replay_run *run, const struct replay_opts *o,
			 struct replay_contained **cp, struct idl_err *err)
{
	struct replay_contained *c;
	int gi, t;

	*cp = NULL;
	for (gi = 0; gi < o->ngov; gi++)
		if (idl_governor_is_plugin(o->gov[gi].ops))
			break;
	if (gi == o->ngov)
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	*cp = c;
	for (gi = 0; gi < o->ngov; gi++) {
		if (!idl_governor_is_plugin(o->gov[gi].ops))
			continue;
		c->c[c->n].gi = gi;
		c->c[c->n].fd = -1;
		if (start_one(run, o, &c->c[c->n++], err))
			return -1;
		for (t = 0; t < run->ntrace; t++)
			run->tr[t].setup.skip[gi] = true;
	}
	return 0;
}

/* Read what is there; 1 at the end of the stream, -1 on error. */
static int drain(struct child *ch)
{
	ssize_t n;

	if (ch->len + 65536 > ch->cap) {
		size_t cap = ch->cap ? 2 * ch->cap : 1 << 20;
		char *p = realloc(ch->buf, cap);

		if (!p)
			return -1;
		ch->buf = p;
		ch->cap = cap;
	}
	n = read(ch->fd, ch->buf + ch->len, ch->cap - ch->len);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	ch->len += (size_t)n;
	return n == 0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Has @ch ended?  Then end what it started (a process it forked may
 * hold its pipe open): what it wrote is in the pipe. */
static bool ended(struct child *ch)
{
	if (!ch->ended && waitpid(ch->pid, &ch->status, WNOHANG) == ch->pid) {
		ch->ended = true;
		idl_child_reap_group(ch->pid);
	}
	return ch->ended;
}

/* Wait for @ch's stream to end, killing it when it stops advancing. */
static const char *wait_child(struct child *ch, unsigned int timeout_s)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	u64 seen = 0, now;
	double last = now_s();
	int r;

	for (;;) {
		r = poll(&pfd, 1, POLL_MS);
		if (r > 0) {
			r = drain(ch);
			if (r)
				return r < 0 ? "its results could not be "
					"read" : NULL;
		}
		if (r == 0 && ended(ch)) {
			/* drain what is left without waiting */
			fcntl(ch->fd, F_SETFL, O_NONBLOCK);
			do {
				errno = 0;
				r = drain(ch);
			} while (r == 0 && errno != EAGAIN);
			return r < 0 ? "its results could not be read" : NULL;
		}
		now = __atomic_load_n(ch->progress, __ATOMIC_RELAXED);
		if (now != seen || r > 0) {
			seen = now;
			last = now_s();
		} else if (now_s() - last > timeout_s) {
			kill(ch->pid, SIGKILL);
			return "no progress";
		}
	}
}

static void fail(struct replay_run *run, int gi, const char *what)
{
	free(run->failed[gi]);
	run->failed[gi] = strdup(what);
}

/* Append @len bytes at *@p to @f (the parent's file of that CPU). */
static int take_text(FILE *f, const char **p, const char *end)
{
	u64 len;

	if ((size_t)(end - *p) < sizeof(len))
		return -1;
	memcpy(&len, *p, sizeof(len));
	*p += sizeof(len);
	if (len > (u64)(end - *p))
		return -1;
	if (f && len) {
		fseeko(f, 0, SEEK_END);
		fwrite(*p, 1, (size_t)len, f);
	}
	*p += len;
	return 0;
}

/* Copy the child's numbers into @run; -1 if the stream is short. */
static int take_results(struct replay_run *run, const struct child *ch)
{
	const char *p = ch->buf + 1, *end = ch->buf + ch->len;
	unsigned int u;
	int t;

	for (t = 0; t < run->ntrace; t++) {
		struct replay_trace *tr = &run->tr[t];

		for (u = 0; u < tr->ncpu; u++) {
			struct replay_score *sc = &tr->cpus[u].sc[ch->gi];

			if ((size_t)(end - p) < sizeof(*sc))
				return -1;
			memcpy(sc, p, sizeof(*sc));
			p += sizeof(*sc);
			if (take_text(tr->explain ? tr->explain[u] : NULL,
				      &p, end) ||
			    take_text(tr->disagree ? tr->disagree[u] : NULL,
				      &p, end))
				return -1;
		}
	}
	return 0;
}

/* Collect one plugin's process; on failure, say why in run->failed. */
static void finish_one(struct replay_run *run, struct child *ch,
		       unsigned int timeout_s)
{
	const char *name = run->tr[0].setup.gov[ch->gi].spec;
	const char *why = wait_child(ch, timeout_s);
	int status = 0;
	char what[300];

	close(ch->fd);
	if (!ch->ended)
		while (waitpid(ch->pid, &ch->status, 0) < 0 && errno == EINTR)
			;
	idl_child_reap_group(ch->pid);
	status = ch->status;
	if (why && !strcmp(why, "no progress")) {
		snprintf(what, sizeof(what), "%s: no progress for %u s "
			 "(a loop in its select() or reflect()?); killed",
			 name, timeout_s);
		fail(run, ch->gi, what);
	} else if (WIFSIGNALED(status)) {
		snprintf(what, sizeof(what), "%s: crashed (%s)", name,
			 strsignal(WTERMSIG(status)));
		fail(run, ch->gi, what);
	} else if (ch->len && ch->buf[0] == 'E') {
		snprintf(what, sizeof(what), "%s: %.*s", name,
			 (int)(ch->len - 1), ch->buf + 1);
		fail(run, ch->gi, what);
	} else if (why || !ch->len || ch->buf[0] != 'R' ||
		   take_results(run, ch)) {
		snprintf(what, sizeof(what), "%s: its process ended without "
			 "its results (exit status %d)", name,
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		fail(run, ch->gi, what);
	}
	munmap(ch->progress, sizeof(*ch->progress));
	free(ch->buf);
}

int replay_contain_finish(struct replay_run *run, struct replay_contained *c,
			  unsigned int timeout_s, struct idl_err *err)
{
	int i, t;

	(void)err;
	if (!c)
		return 0;
	for (i = 0; i < c->n; i++)
		finish_one(run, &c->c[i],
			   timeout_s ? timeout_s : DEFAULT_TIMEOUT_S);
	for (t = 0; t < run->ntrace; t++)
		for (i = 0; i < REPLAY_MAX_GOV; i++)
			run->tr[t].failed[i] = run->failed[i];
	free(c);
	return 0;
}
