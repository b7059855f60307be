// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The processes plugin code runs in: all of idlelab's plugin
 * containment.  idlelab never runs a plugin's code (not even its
 * constructors) in the process that writes results: a plugin is
 * described by a short-lived child with a time limit
 * (idl_contained_answer()), and runs in children of the command: one
 * that runs a whole command's work (idl_run_contained(), decide), or
 * ones that stream their results back and count their progress
 * (idl_contained_start(), replay's plugin columns).  Each is the leader
 * of a process group of its own (so that whatever the plugin forks is
 * killed with it), ends when idlelab ends, and has the plugin's writes
 * to standard output sent to standard error.  A call into the plugin,
 * and a streaming child's progress, have time limits the parent
 * enforces.
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
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host.h"
#include "plugin.h"

/* a streaming child's progress is looked at this often */
#define STREAM_POLL_MS	200

static bool plugins_may_run;

bool idl_plugins_may_run_here(void)
{
	return plugins_may_run;
}

void idl_contained_child_init(void)
{
	static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
	size_t i;

	/* a crash ends the process by its signal, which the parent reports
	 * by name (a sanitizer's handler would make it an exit status) */
	for (i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++)
		signal(crash_signals[i], SIG_DFL);
	plugins_may_run = true;
}

int idl_child_contain(pid_t parent, bool own_group)
{
	if (own_group && setpgid(0, 0))
		return -1;
	/* in a group of its own it no longer gets the terminal's signals:
	 * it ends with idlelab instead */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
	/* standard output may be the result stream: not the plugin's */
	if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		return -1;
	return 0;
}

void idl_child_reap_group(pid_t pid)
{
	/* what the plugin started, if anything is left of its group */
	kill(-pid, SIGKILL);
}

/* Where the child of idl_run_contained() says when its call must end. */
static volatile u64 *call_deadline;
static unsigned int call_timeout_s;

void idl_plugin_call_begin(void)
{
	if (call_deadline)
		*call_deadline = idl_mono_ns() +
				 call_timeout_s * (u64)NSEC_PER_SEC;
}

void idl_plugin_call_end(void)
{
	if (call_deadline)
		*call_deadline = 0;
}

/* In the parent: wait for @pid, killing it when a call overruns. */
static int wait_deadline(pid_t pid, const sigset_t *chld, int *status)
{
	const struct timespec slice = { 0, 100 * 1000 * 1000 };
	u64 d;
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return 0;
		d = *call_deadline;
		if (d && idl_mono_ns() > d) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			return -1;
		}
		sigtimedwait(chld, NULL, &slice);
	}
}

int idl_run_contained(const char *what, unsigned int timeout_s,
		      int (*fn)(void *ctx), void *ctx)
{
	bool tty = isatty(STDIN_FILENO);
	sigset_t chld, old;
	pid_t pid, parent = getpid();
	int status = 0, late;

	call_deadline = mmap(NULL, sizeof(*call_deadline),
			     PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (call_deadline == MAP_FAILED) {
		call_deadline = NULL;
		fprintf(stderr, "idlelab: mmap: %s\n", strerror(errno));
		return 1;
	}
	*call_deadline = 0;
	call_timeout_s = timeout_s;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		fprintf(stderr, "idlelab: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		idl_contained_child_init();
		/* a process group that does not own the terminal cannot
		 * read from it: with a terminal as input, stay in ours */
		if (idl_child_contain(parent, !tty))
			_exit(1);
		status = fn(ctx);
		fflush(NULL);
		_exit(status);
	}
	late = wait_deadline(pid, &chld, &status);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!tty)
		idl_child_reap_group(pid);
	munmap((void *)call_deadline, sizeof(*call_deadline));
	call_deadline = NULL;
	if (late) {
		fprintf(stderr, "idlelab: %s: a call did not return within "
			"%u s (--plugin-timeout); killed\n", what, timeout_s);
		return 1;
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "idlelab: %s crashed (%s)\n", what,
			strsignal(WTERMSIG(status)));
		return 1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* ------------------------------------- a child that answers in time */

int idl_contained_answer(void (*fn)(void *ctx, int wfd), void *ctx,
			 unsigned int timeout_s, char *buf, size_t cap,
			 size_t *len, int *status, struct idl_err *err)
{
	struct pollfd pfd = { .events = POLLIN };
	pid_t pid, parent = getpid();
	unsigned int ms = 0;
	int fd[2], r;
	ssize_t n;

	*len = 0;
	*status = 0;
	if (pipe(fd))
		return idl_err_set(err, IDL_EXIT_FAILURE, "pipe: %s",
				   strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		idl_err_set(err, IDL_EXIT_FAILURE, "fork: %s",
			    strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		close(fd[0]);
		idl_contained_child_init();
		if (idl_child_contain(parent, true))
			_exit(1);
		fn(ctx, fd[1]);
		_exit(0);
	}
	close(fd[1]);
	fcntl(fd[0], F_SETFL, O_NONBLOCK);
	pfd.fd = fd[0];
	for (;;) {
		r = poll(&pfd, 1, 10);
		if (r > 0) {
			n = read(fd[0], buf + *len, cap - *len);
			if (n > 0)
				*len += (size_t)n;
			if (n == 0 || *len == cap)
				pfd.fd = -1;	/* nothing more to read */
		}
		r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			break;
		if (r == 0 && (ms += 10) > timeout_s * 1000) {
			idl_child_reap_group(pid);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			close(fd[0]);
			return 1;
		}
	}
	/* what it wrote before it ended is in the pipe */
	while (pfd.fd >= 0 && *len < cap &&
	       (n = read(fd[0], buf + *len, cap - *len)) > 0)
		*len += (size_t)n;
	idl_child_reap_group(pid);
	close(fd[0]);
	return 0;
}

/* ---------------------------------- children that stream their results */

int idl_write_all(int fd, const void *buf, size_t len)
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

int idl_contained_start(struct idl_contained *c,
			void (*fn)(void *ctx, u64 *progress, int wfd),
			void *ctx, struct idl_err *err)
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
		fn(ctx, c->progress, fd[1]);
		_exit(0);
	}
	close(fd[1]);
	c->fd = fd[0];
	return 0;
}

/* Read what is there; 1 at the end of the stream, -1 on error. */
static int drain(struct idl_contained *c)
{
	ssize_t n;

	if (c->len + 65536 > c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 1 << 20;
		char *p = realloc(c->buf, cap);

		if (!p)
			return -1;
		c->buf = p;
		c->cap = cap;
	}
	n = read(c->fd, c->buf + c->len, c->cap - c->len);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	c->len += (size_t)n;
	return n == 0;
}

/* Has @c ended?  Then end what it started (a process it forked may
 * hold its pipe open): what it wrote is in the pipe. */
static bool ended(struct idl_contained *c)
{
	if (!c->ended && waitpid(c->pid, &c->status, WNOHANG) == c->pid) {
		c->ended = true;
		idl_child_reap_group(c->pid);
	}
	return c->ended;
}

/* Wait for @c's stream to end, killing it when it stops advancing. */
static const char *wait_stream(struct idl_contained *c,
			       unsigned int timeout_s)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	u64 seen = 0, now;
	double last = idl_mono_s();
	int r;

	for (;;) {
		r = poll(&pfd, 1, STREAM_POLL_MS);
		if (r > 0) {
			r = drain(c);
			if (r)
				return r < 0 ? "its results could not be "
					"read" : NULL;
		}
		if (r == 0 && ended(c)) {
			/* drain what is left without waiting */
			fcntl(c->fd, F_SETFL, O_NONBLOCK);
			do {
				errno = 0;
				r = drain(c);
			} while (r == 0 && errno != EAGAIN);
			return r < 0 ? "its results could not be read" : NULL;
		}
		now = __atomic_load_n(c->progress, __ATOMIC_RELAXED);
		if (now != seen || r > 0) {
			seen = now;
			last = idl_mono_s();
		} else if (idl_mono_s() - last > timeout_s) {
			kill(c->pid, SIGKILL);
			return IDL_CONTAINED_STALLED;
		}
	}
}

const char *idl_contained_collect(struct idl_contained *c,
				  unsigned int timeout_s)
{
	const char *why = wait_stream(c, timeout_s);

	close(c->fd);
	if (!c->ended)
		while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
			;
	idl_child_reap_group(c->pid);
	return why;
}

void idl_contained_release(struct idl_contained *c)
{
	munmap(c->progress, sizeof(*c->progress));
	free(c->buf);
}
