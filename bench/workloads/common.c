// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers shared by several benchmarks (bench/bench-*.c): the run's
 * deadline and percentile metrics of the built-ins; running a tool with
 * its output captured, alone, next to its server or repeated; and the
 * small pieces the parsers of tool output have in common.
 *
 * Tools run in their own process group, so that killing one ends its
 * children too.  Network benchmarks talk to 127.0.0.1 only.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "host.h"
#include "idlectl.h"

/* The output buffer of a tool starts small and may grow to the maximum. */
#define EXEC_FIRST_OUTPUT	65536u
#define EXEC_MAX_OUTPUT		(16u << 20)

/* ------------------------------------------------------------ built-ins */

uint64_t bench_deadline_ns(const struct bench_args *a)
{
	return idl_mono_ns() + (uint64_t)(a->duration_s * 1e9);
}

void bench_ns_to_ts(uint64_t ns, struct timespec *ts)
{
	ts->tv_sec = (time_t)(ns / 1000000000ull);
	ts->tv_nsec = (long)(ns % 1000000000ull);
}

/* A slice short enough that a stop is seen at once. */
#define PAUSE_SLICE_NS	50000000ull

void bench_pause(uint64_t ns, uint64_t deadline)
{
	uint64_t now = idl_mono_ns(), end = now + ns, left;
	struct timespec ts;

	if (end > deadline)
		end = deadline;
	while (!bench_stop && now < end) {
		left = end - now;
		bench_ns_to_ts(left < PAUSE_SLICE_NS ? left : PAUSE_SLICE_NS,
			       &ts);
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		now = idl_mono_ns();
	}
}

void bench_spin(uint64_t ns, uint64_t deadline)
{
	uint64_t end = idl_mono_ns() + ns;

	if (end > deadline)
		end = deadline;
	while (!bench_stop && idl_mono_ns() < end)
		;
}

void bench_add_percentiles(struct bench_result *r, const char *prefix,
			   const char *case_name, const struct hist *h)
{
	static const double pct[] = { 50, 90, 99 };
	char name[BENCH_NAME_LEN];
	size_t i;

	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		snprintf(name, sizeof(name), "%s-p%g", prefix, pct[i]);
		bench_add(r, name, case_name, "us", false,
			  hist_percentile(h, pct[i]) / 1000.0);
	}
}

/* -------------------------------------------------------------- parsers */

int bench_num_after(const char *s, const char *key, double *v)
{
	const char *p = s ? strstr(s, key) : NULL;
	char *end;

	if (!p)
		return -1;
	*v = strtod(p + strlen(key), &end);
	return end == p + strlen(key) ? -1 : 0;
}

int bench_missing(struct idl_err *err, const char *tool, const char *what)
{
	return idl_err_set(err, IDL_EXIT_FAILURE,
			   "%s: output has no %s (tool failed or its "
			   "format changed)", tool, what);
}

void strip_ansi(char *s)
{
	char *w = s;

	while (*s) {
		if (s[0] == '\033' && s[1] == '[') {
			s += 2;
			while (*s && !(*s >= '@' && *s <= '~'))
				s++;
			if (*s)
				s++;
			continue;
		}
		*w++ = *s++;
	}
	*w = '\0';
}

/* ---------------------------------------------------------------- tools */

/* The guardian's answer to its parent's death: the whole group goes. */
static void kill_group(int sig)
{
	(void)sig;
	kill(0, SIGKILL);
}

/* The guardian: wait for the tool and exit as it did. */
static void guard(pid_t tool)
{
	int status, null = open("/dev/null", O_RDWR);

	dup2(null, 0);
	dup2(null, 1);
	dup2(null, 2);
	closefrom(3);	/* the output pipe must end with the tool */
	while (waitpid(tool, &status, 0) < 0)
		if (errno != EINTR)
			_exit(127);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) :
	      128 + WTERMSIG(status));
}

/*
 * Fork a tool with stdout/stderr to @out_fd, in a process group of its
 * own led by a small guardian process (whose pid is returned): killing
 * the group ends the tool and every process it started.  When we die,
 * even by SIGKILL, the guardian is told (PR_SET_PDEATHSIG) and kills
 * the group; a tool's own children would otherwise run on.  Neither
 * holds the session lock.
 */
static pid_t spawn(char *const argv[], int out_fd)
{
	pid_t parent = getpid(), pid = fork(), tool, guardian;
	char mark[32];
	int null;

	if (pid)
		return pid;
	setpgid(0, 0);
	signal(SIGUSR1, kill_group);
	signal(SIGTERM, SIG_IGN);	/* the tool answers; SIGKILL follows */
	if (idlectl_child_init(parent, SIGUSR1))
		_exit(127);
	guardian = getpid();
	tool = fork();
	if (tool < 0)
		_exit(127);
	if (tool)
		guard(tool);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* killed with its guardian (SIGKILL of both leaves no one to kill
	 * the group), and marked for the restore of the session's journal,
	 * which kills what the tool started */
	snprintf(mark, sizeof(mark), "%ld", (long)parent);
	if (setenv(IDLECTL_SESSION_ENV, mark, 1) ||
	    prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != guardian)
		_exit(127);
	null = open("/dev/null", O_RDWR);
	dup2(null, 0);
	dup2(out_fd >= 0 ? out_fd : null, 1);
	dup2(out_fd >= 0 ? out_fd : null, 2);
	execvp(argv[0], argv);
	_exit(127);
}

/* End a child's whole process group: TERM, then KILL after 1 s. */
static int reap(pid_t pid, bool kill_it)
{
	int status = 0, i;

	if (kill_it)
		kill(-pid, SIGTERM);
	for (i = 0; i < 100; i++) {
		pid_t w = waitpid(pid, &status, kill_it ? WNOHANG : 0);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -1;
		if (kill_it)
			usleep(10000);
	}
	if (i == 100) {
		kill(-pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/*
 * Read the output of the tool under guardian @pid until it closes it, or
 * time or stop is up, or the guardian has ended (killed alone, or the
 * tool left processes that hold the pipe open): then *@reaped is set
 * with its wait status in *@status.
 */
static size_t collect(pid_t pid, int fd, double end, char **bufp,
		      bool *killed, bool *reaped, int *status)
{
	size_t len = 0, cap = EXEC_FIRST_OUTPUT;
	char *buf = *bufp;
	int wait_ms = 100;

	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		ssize_t n;

		if (bench_stop || idl_mono_s() > end) {
			*killed = true;
			break;
		}
		if (poll(&pfd, 1, wait_ms) <= 0) {
			if (*reaped)
				break;	/* and nothing more to read */
			if (waitpid(pid, status, WNOHANG) == pid) {
				*reaped = true;
				wait_ms = 0;	/* read what is left */
			}
			continue;
		}
		if (len + 4096 > cap && cap < EXEC_MAX_OUTPUT) {
			char *nb = realloc(buf, cap * 2);

			if (nb) {
				buf = nb;
				cap *= 2;
			}
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len + 1 >= cap)	/* output cap reached: drop the rest */
			len = cap / 2;
	}
	*bufp = buf;
	return len;
}

int bench_exec(char *const argv[], double timeout_s, char **out,
	       struct idl_err *err)
{
	bool killed = false, reaped = false;
	int fds[2], status = 0;
	size_t len;
	char *buf;
	pid_t pid;

	buf = malloc(EXEC_FIRST_OUTPUT);
	if (!buf || pipe2(fds, O_CLOEXEC)) {
		free(buf);
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", argv[0],
				   strerror(errno));
	}
	pid = spawn(argv, fds[1]);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		free(buf);
		return idl_err_set(err, IDL_EXIT_FAILURE, "fork: %s",
				   strerror(errno));
	}
	len = collect(pid, fds[0], idl_mono_s() + timeout_s, &buf, &killed,
		      &reaped, &status);
	buf[len] = '\0';
	close(fds[0]);
	if (reaped) {
		/* what the tool left of its group */
		kill(-pid, SIGKILL);
		if (WIFSIGNALED(status) && !bench_stop) {
			*out = buf;
			return idl_err_set(err, IDL_EXIT_FAILURE, "%s: its "
					   "guardian was killed (%s)", argv[0],
					   strsignal(WTERMSIG(status)));
		}
		status = WIFEXITED(status) ? WEXITSTATUS(status) :
			 128 + WTERMSIG(status);
	} else {
		status = reap(pid, killed);
	}
	*out = buf;
	if (killed && !bench_stop) {
		idl_err_set(err, IDL_EXIT_FAILURE,
			    "%s: still running after %.0f s, killed", argv[0],
			    timeout_s);
		return -1;
	}
	if (status == 127)
		idl_err_set(err, IDL_EXIT_FAILURE, "%s: could not be run",
			    argv[0]);
	return status == 127 ? -1 : status;
}

double bench_whole_s(const struct bench_args *a)
{
	return ceil(a->duration_s > 1 ? a->duration_s : 1);
}

int bench_tool_output(const struct bench_args *a, char *const argv[],
		      char **out, struct idl_err *err)
{
	double timeout_s = a->duration_s * 2 + 30;
	int st = bench_exec(argv, timeout_s, out, err);

	if (st < 0)
		return -1;
	if (st && !bench_stop) {
		const char *tail = *out + strlen(*out);
		int lines = 0;

		while (tail > *out && lines < 3)
			if (*--tail == '\n' && tail[1])
				lines++;
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "%s exited with status %d: %.200s",
				   argv[0], st, tail);
	}
	return 0;
}

/* Parse the output of a run that went well; frees it either way. */
static int parse_output(int rc, char *out,
			int (*parse)(const char *, struct bench_result *,
				     struct idl_err *),
			struct bench_result *r, struct idl_err *err)
{
	if (!rc && !bench_stop)
		rc = parse(out, r, err);
	free(out);
	return rc;
}

int bench_tool_once(const struct bench_args *a, char *const argv[],
		    int (*parse)(const char *, struct bench_result *,
				 struct idl_err *),
		    struct bench_result *r, struct idl_err *err)
{
	char *out = NULL;
	int rc = bench_tool_output(a, argv, &out, err);

	return parse_output(rc, out, parse, r, err);
}

/* Wait until something accepts connections on 127.0.0.1:@port. */
static int wait_port(int port, double timeout_s)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	double end = idl_mono_s() + timeout_s;

	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	while (idl_mono_s() < end && !bench_stop) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int ok = fd >= 0 &&
			 !connect(fd, (struct sockaddr *)&sa, sizeof(sa));

		if (fd >= 0)
			close(fd);
		if (ok)
			return 0;
		usleep(50000);
	}
	return -1;
}

int bench_tool_served(const struct bench_args *a, char *const srv[],
		      const char *srv_name, int port, char *const argv[],
		      int (*parse)(const char *, struct bench_result *,
				   struct idl_err *),
		      struct bench_result *r, struct idl_err *err)
{
	char *out = NULL;
	pid_t pid;
	int rc;

	pid = spawn(srv, -1);
	if (pid < 0)
		return idl_err_set(err, 1, "fork: %s", strerror(errno));
	if (wait_port(port, 5)) {
		reap(pid, true);
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "%s did not listen on 127.0.0.1:%d",
				   srv_name, port);
	}
	rc = bench_tool_output(a, argv, &out, err);
	reap(pid, true);
	return parse_output(rc, out, parse, r, err);
}

int bench_tool_repeat(const struct bench_args *a, char *const argv[],
		      int (*parse)(const char *, struct bench_result *,
				   struct idl_err *),
		      struct bench_result *r, struct idl_err *err)
{
	struct bench_result acc = { 0 };
	double end = idl_mono_s() + a->duration_s;
	int reps = 0, i;

	do {
		struct bench_result one = { 0 };
		char *out = NULL;
		int rc = bench_tool_output(a, argv, &out, err);

		if (parse_output(rc, out, parse, &one, err))
			return -1;
		if (bench_stop)
			break;
		if (!reps)
			acc = one;
		else
			for (i = 0; i < acc.n && i < one.n; i++)
				acc.m[i].value += one.m[i].value;
		reps++;
	} while (idl_mono_s() < end && !bench_stop);
	for (i = 0; i < acc.n && reps; i++) {
		acc.m[i].value /= reps;
		bench_add(r, acc.m[i].name, acc.m[i].case_name, acc.m[i].unit,
			  acc.m[i].higher_is_better, acc.m[i].value);
	}
	bench_add(r, "repetitions", "", "count", true, reps);
	return 0;
}
