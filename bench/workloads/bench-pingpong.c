// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pingpong (built in): two threads pinned to two CPUs bounce a byte
 * through two pipes; each round trip is two wakeups of a sleeping task.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "host.h"

struct pingpong {
	int		ab[2], ba[2];
	unsigned int	cpu_a, cpu_b;
	uint64_t	deadline, gap_ns, rounds, elapsed;
	int		error;
	int		pin_error[2];	/* each thread's, if it cannot pin */
	struct hist	h;
};

static int pin_self(unsigned int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Retry reads and writes interrupted by our own signal handler. */
static int xfer(int fd, char *c, bool wr)
{
	ssize_t n;

	do
		n = wr ? write(fd, c, 1) : read(fd, c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

static void *pingpong_echo(void *arg)
{
	struct pingpong *pp = arg;
	char c;

	if (pin_self(pp->cpu_b)) {
		pp->pin_error[1] = errno;
		/* the driver's read then ends */
		close(pp->ba[1]);
		pp->ba[1] = -1;
		return NULL;
	}
	for (;;) {
		if (xfer(pp->ab[0], &c, false) || c == 'q')
			break;
		if (xfer(pp->ba[1], &c, true))
			break;
	}
	return NULL;
}

static void *pingpong_drive(void *arg)
{
	struct pingpong *pp = arg;
	uint64_t start = idl_mono_ns(), t0, t;
	char c = 'p';

	if (pin_self(pp->cpu_a)) {
		pp->pin_error[0] = errno;
		return NULL;
	}
	while (!bench_stop && (t0 = idl_mono_ns()) < pp->deadline) {
		if (xfer(pp->ab[1], &c, true) || xfer(pp->ba[0], &c, false)) {
			pp->error = errno ? errno : EPIPE;
			break;
		}
		t = idl_mono_ns();
		hist_add(&pp->h, t - t0);
		pp->rounds++;
		if (pp->gap_ns)
			bench_pause(pp->gap_ns, pp->deadline);
	}
	pp->elapsed = idl_mono_ns() - start;
	c = 'q';
	xfer(pp->ab[1], &c, true);
	return NULL;
}

static int pingpong_run(const struct bench_args *a, struct bench_result *r,
			struct idl_err *err)
{
	struct pingpong *pp;
	pthread_t ta, tb;
	double cpu_a, cpu_b, gap;
	int rc = -1, k;

	err->status = 0;
	cpu_a = bench_opt_num(a, "cpu-a", err);
	cpu_b = bench_opt_num(a, "cpu-b", err);
	gap = bench_opt_num(a, "gap", err);
	if (err->status)
		return -1;
	pp = calloc(1, sizeof(*pp));
	if (!pp)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	pp->ab[0] = pp->ab[1] = pp->ba[0] = pp->ba[1] = -1;
	hist_init(&pp->h);
	pp->cpu_a = (unsigned int)cpu_a;
	pp->cpu_b = (unsigned int)cpu_b;
	pp->gap_ns = (uint64_t)(gap * 1000);
	if (pipe(pp->ab) || pipe(pp->ba)) {
		idl_err_set(err, IDL_EXIT_FAILURE, "pingpong: pipe: %s",
			    strerror(errno));
		goto out;
	}
	pp->deadline = bench_deadline_ns(a);
	pthread_create(&tb, NULL, pingpong_echo, pp);
	pthread_create(&ta, NULL, pingpong_drive, pp);
	pthread_join(ta, NULL);
	close(pp->ab[1]);	/* ends the echo thread's read, if it waits */
	pp->ab[1] = -1;
	pthread_join(tb, NULL);
	for (k = 0; k < 2; k++)
		if (pp->pin_error[k]) {
			idl_err_set(err, IDL_EXIT_BADINPUT, "pingpong: cannot "
				    "pin the thread that %s to CPU %u: %s",
				    k ? "echoes" : "measures",
				    k ? pp->cpu_b : pp->cpu_a,
				    strerror(pp->pin_error[k]));
			goto out;
		}
	bench_add_percentiles(r, "rtt", "", &pp->h);
	bench_add(r, "ops/s", "", "ops/s", true,
		  pp->elapsed ? pp->rounds * 1e9 / (double)pp->elapsed : 0);
	rc = 0;
out:
	for (k = 0; k < 2; k++) {
		if (pp->ab[k] >= 0)
			close(pp->ab[k]);
		if (pp->ba[k] >= 0)
			close(pp->ba[k]);
	}
	free(pp);
	return rc;
}

const struct bench_def bench_def_pingpong = {
	.name = "pingpong",
	.summary = "pipe ping-pong between two pinned CPUs: round trip",
	.opts = (const struct bench_opt[]){
		{ "cpu-a", BENCH_DFL_CPU0, "CPU of the thread that measures" },
		{ "cpu-b", BENCH_DFL_CPU1, "CPU of the thread that echoes" },
		{ "gap", "0", "pause between round trips, us" },
		{ NULL }
	},
	.run = pingpong_run,
};
