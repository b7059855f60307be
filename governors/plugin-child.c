// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The processes plugin code runs in.  idlelab never runs a plugin's code
 * (not even its constructors) in the process that writes results: a
 * plugin is described by a short-lived child and runs in children of
 * the command, each the leader of a process group of its own (so that
 * whatever the plugin forks is killed with it), ended when idlelab
 * ends, with the plugin's writes to standard output sent to standard
 * error.  A call into the plugin has a time limit the parent enforces.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plugin.h"

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

static u64 mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (u64)t.tv_sec * NSEC_PER_SEC + (u64)t.tv_nsec;
}

void idl_plugin_call_begin(void)
{
	if (call_deadline)
		*call_deadline = mono_ns() + call_timeout_s * (u64)NSEC_PER_SEC;
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
		if (d && mono_ns() > d) {
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
