// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Adapters for benchmark tools packaged by Debian.  Each builds a command
 * line from the spec options and the run duration, runs it with its
 * output captured (bench_exec) and hands the output to its parser.
 * Network benchmarks talk to 127.0.0.1 only.  cyclictest always gets
 * --laptop so that it never writes /dev/cpu_dma_latency.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define EXEC_MAX_OUTPUT	(16u << 20)



/* Fork a child in its own process group; stdout/stderr to @out_fd. */
static pid_t spawn(char *const argv[], int out_fd)
{
	pid_t pid = fork();
	int null;

	if (pid)
		return pid;
	setpgid(0, 0);
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

int bench_exec(char *const argv[], double timeout_s, char **out,
	       struct idl_err *err)
{
	double end = bench_mono_s() + timeout_s;
	size_t len = 0, cap = 65536;
	int fds[2], status;
	bool killed = false;
	char *buf;
	pid_t pid;

	buf = malloc(cap);
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
	for (;;) {
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		ssize_t n;

		if (bench_stop || bench_mono_s() > end) {
			killed = true;
			break;
		}
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		if (len + 4096 > cap && cap < EXEC_MAX_OUTPUT) {
			char *nb = realloc(buf, cap * 2);

			if (nb) {
				buf = nb;
				cap *= 2;
			}
		}
		n = read(fds[0], buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len + 1 >= cap)	/* output cap reached: drop the rest */
			len = cap / 2;
	}
	close(fds[0]);
	buf[len] = '\0';
	status = reap(pid, killed);
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

/* Run argv; on success parse.  Non-zero exit is an error with output. */
static int run_tool(char *const argv[], double timeout_s, char **out,
		    struct idl_err *err)
{
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

static double timeout_for(const struct bench_args *a)
{
	return a->duration_s * 2 + 30;
}

/* Format one number into an argv slot (a macro: literal formats). */
#define fmt(buf, len, f, v)	snprintf(buf, len, f, (double)(v))

/*
 * Tools with a fixed amount of work (hackbench, perf bench): repeat until
 * the duration is used and report the mean of each metric.
 */
static int repeat_tool(const struct bench_args *a, char *const argv[],
		       int (*parse)(const char *, struct bench_result *,
				    struct idl_err *),
		       struct bench_result *r, struct idl_err *err)
{
	struct bench_result acc = { 0 };
	double end = bench_mono_s() + a->duration_s;
	int reps = 0, i;

	do {
		struct bench_result one = { 0 };
		char *out = NULL;
		int rc = run_tool(argv, timeout_for(a), &out, err);

		if (!rc && !bench_stop)
			rc = parse(out, &one, err);
		free(out);
		if (rc)
			return -1;
		if (bench_stop)
			break;
		if (!reps)
			acc = one;
		else
			for (i = 0; i < acc.n && i < one.n; i++)
				acc.m[i].value += one.m[i].value;
		reps++;
	} while (bench_mono_s() < end && !bench_stop);
	for (i = 0; i < acc.n && reps; i++) {
		acc.m[i].value /= reps;
		bench_add(r, acc.m[i].name, acc.m[i].case_name, acc.m[i].unit,
			  acc.m[i].higher_is_better, acc.m[i].value);
	}
	bench_add(r, "repetitions", "", "count", true, reps);
	return 0;
}

int bench_hackbench(const struct bench_args *a, struct bench_result *r,
		    struct idl_err *err)
{
	char g[16], l[16];
	char *argv[8] = { "hackbench", "-g", g, "-l", l, NULL };
	int n = 5;

	err->status = 0;
	fmt(g, sizeof(g), "%.0f", bench_opt_num(a->opts, "groups", 4, err));
	fmt(l, sizeof(l), "%.0f", bench_opt_num(a->opts, "loops", 200, err));
	if (err->status)
		return -1;
	if (bench_opt_num(a->opts, "pipe", 0, err) > 0)
		argv[n++] = "-p";
	if (bench_opt_num(a->opts, "threads", 0, err) > 0)
		argv[n++] = "-T";
	argv[n] = NULL;
	return repeat_tool(a, argv, parse_hackbench, r, err);
}

int bench_perf_pipe(const struct bench_args *a, struct bench_result *r,
		    struct idl_err *err)
{
	char l[16];
	char *argv[] = { "perf", "bench", "sched", "pipe", "-l", l, NULL };

	err->status = 0;
	fmt(l, sizeof(l), "%.0f", bench_opt_num(a->opts, "loops", 20000, err));
	if (err->status)
		return -1;
	return repeat_tool(a, argv, parse_perf_pipe, r, err);
}

int bench_perf_messaging(const struct bench_args *a, struct bench_result *r,
			 struct idl_err *err)
{
	char g[16], l[16];
	char *argv[] = { "perf", "bench", "sched", "messaging", "-g", g,
			 "-l", l, NULL };

	err->status = 0;
	fmt(g, sizeof(g), "%.0f", bench_opt_num(a->opts, "groups", 2, err));
	fmt(l, sizeof(l), "%.0f", bench_opt_num(a->opts, "loops", 100, err));
	if (err->status)
		return -1;
	return repeat_tool(a, argv, parse_perf_messaging, r, err);
}

static const char *const stressors[] = {
	"timer", "hrtimers", "nanosleep", "futex", "pipe", "switch",
	"cyclic", "sleep", "poll", "clock", NULL
};

int bench_stress_ng(const struct bench_args *a, struct bench_result *r,
		    struct idl_err *err)
{
	char st[32] = "timer", opt[48], w[16], t[16], sl[24];
	char *argv[16] = { "stress-ng", opt, w, "-t", t, "--metrics-brief" };
	const char *const *s;
	char *out = NULL;
	int n = 6, rc;

	bench_opt_str(a->opts, "stressor", st, sizeof(st));
	for (s = stressors; *s && strcmp(*s, st); s++)
		;
	if (!*s)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "stress-ng: stressor '%s' not supported "
				   "(timer hrtimers nanosleep futex pipe "
				   "switch cyclic sleep poll clock)", st);
	err->status = 0;
	snprintf(opt, sizeof(opt), "--%s", st);
	fmt(w, sizeof(w), "%.0f", bench_opt_num(a->opts, "workers", 1, err));
	fmt(t, sizeof(t), "%.0fs", ceil(a->duration_s > 1 ? a->duration_s : 1));
	if (!strcmp(st, "cyclic")) {
		fmt(sl, sizeof(sl), "%.0f",
		    bench_opt_num(a->opts, "sleep", 500000, err));
		argv[n++] = "--cyclic-policy";
		argv[n++] = "rr";
		argv[n++] = "--cyclic-sleep";
		argv[n++] = sl;
	}
	if (err->status)
		return -1;
	argv[n] = NULL;
	rc = run_tool(argv, timeout_for(a), &out, err);
	if (!rc && !bench_stop)
		rc = parse_stress_ng(out, st, r, err);
	free(out);
	return rc;
}

/* Wait until something accepts connections on 127.0.0.1:@port. */
static int wait_port(int port, double timeout_s)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	double end = bench_mono_s() + timeout_s;

	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	while (bench_mono_s() < end && !bench_stop) {
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

int bench_tbench(const struct bench_args *a, struct bench_result *r,
		 struct idl_err *err)
{
	char c[16], t[16];
	char *srv[] = { "tbench_srv", NULL };
	char *argv[] = { "tbench", "-t", t, c, "127.0.0.1", NULL };
	char *out = NULL;
	pid_t pid;
	int rc;

	err->status = 0;
	fmt(c, sizeof(c), "%.0f",
	    bench_opt_num(a->opts, "clients", a->nr_cpus, err));
	if (err->status)
		return -1;
	fmt(t, sizeof(t), "%.0f", ceil(a->duration_s > 1 ? a->duration_s : 1));
	pid = spawn(srv, -1);
	if (pid < 0)
		return idl_err_set(err, 1, "fork: %s", strerror(errno));
	if (wait_port(7003, 5)) {
		reap(pid, true);
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "tbench_srv did not listen on 127.0.0.1:7003");
	}
	rc = run_tool(argv, timeout_for(a), &out, err);
	reap(pid, true);
	if (!rc && !bench_stop)
		rc = parse_tbench(out, r, err);
	free(out);
	return rc;
}

int bench_sockperf(const struct bench_args *a, struct bench_result *r,
		   struct idl_err *err)
{
	char p[16], t[16];
	char *srv[] = { "sockperf", "sr", "--tcp", "-i", "127.0.0.1", "-p", p,
			NULL };
	char *argv[] = { "sockperf", "pp", "--tcp", "-i", "127.0.0.1", "-p", p,
			 "-t", t, NULL };
	char *out = NULL;
	double port;
	pid_t pid;
	int rc;

	err->status = 0;
	port = bench_opt_num(a->opts, "port", 11111, err);
	if (err->status)
		return -1;
	fmt(p, sizeof(p), "%.0f", port);
	fmt(t, sizeof(t), "%.0f", ceil(a->duration_s > 1 ? a->duration_s : 1));
	pid = spawn(srv, -1);
	if (pid < 0)
		return idl_err_set(err, 1, "fork: %s", strerror(errno));
	if (wait_port((int)port, 5)) {
		reap(pid, true);
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "sockperf server did not listen on "
				   "127.0.0.1:%s", p);
	}
	rc = run_tool(argv, timeout_for(a), &out, err);
	reap(pid, true);
	if (!rc && !bench_stop)
		rc = parse_sockperf(out, r, err);
	free(out);
	return rc;
}

int bench_cyclictest(const struct bench_args *a, struct bench_result *r,
		     struct idl_err *err)
{
	char th[16], in[16], d[16];
	char *argv[] = { "cyclictest", "--laptop", "-m", "-q", "-t", th, "-i",
			 in, "-D", d, NULL };
	char *out = NULL;
	int rc;

	err->status = 0;
	fmt(th, sizeof(th), "%.0f",
	    bench_opt_num(a->opts, "threads", a->nr_cpus, err));
	fmt(in, sizeof(in), "%.0f",
	    bench_opt_num(a->opts, "interval", 1000, err));
	if (err->status)
		return -1;
	fmt(d, sizeof(d), "%.0f", ceil(a->duration_s > 1 ? a->duration_s : 1));
	rc = run_tool(argv, timeout_for(a), &out, err);
	if (!rc && !bench_stop)
		rc = parse_cyclictest(out, r, err);
	free(out);
	return rc;
}

int bench_fio(const struct bench_args *a, struct bench_result *r,
	      struct idl_err *err)
{
	char dir[4200], size[32] = "16m", rt[16];
	char *argv[] = { "fio", "--name=idlelab", dir, "--rw=randread",
			 "--bs=4k", size, "--ioengine=psync", rt,
			 "--time_based", "--unlink=1", "--output-format=json",
			 NULL };
	char sz[24];
	char *out = NULL;
	int rc;

	bench_opt_str(a->opts, "size", sz, sizeof(sz)) ?
		snprintf(size, sizeof(size), "--size=%s", sz) :
		snprintf(size, sizeof(size), "--size=16m");
	snprintf(dir, sizeof(dir), "--directory=%s",
		 a->workdir ? a->workdir : "/tmp");
	fmt(rt, sizeof(rt), "--runtime=%.0f",
	    ceil(a->duration_s > 1 ? a->duration_s : 1));
	rc = run_tool(argv, timeout_for(a), &out, err);
	if (!rc && !bench_stop)
		rc = parse_fio_json(out, r, err);
	free(out);
	return rc;
}
