// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Small workloads that make a CPU go idle in known patterns, for the
 * live fidelity test (tests/fidelity-root.sh):
 *
 *   idle-workload idle DURATION             nothing (sleep)
 *   idle-workload periodic US DURATION      a timer every US on CPU 0
 *   idle-workload random US DURATION        sleeps of mean US on CPU 0
 *   idle-workload pingpong US DURATION      a byte bounced through two
 *                                           pipes between CPU 0 and 1,
 *                                           US apart
 *   idle-workload spread US DURATION        sleeps spread evenly on a log
 *                                           scale from US/16 to 16*US on
 *                                           CPU 0 (every state of a deep
 *                                           table gets entries)
 *   idle-workload randpong US DURATION      the ping-pong with gaps of
 *                                           mean US, exponential
 *   idle-workload qos US DURATION           random sleeps, with the CPU
 *                                           latency QoS held at 0 in the
 *                                           middle third and CPU 0's
 *                                           resume latency "n/a" (0 us)
 *                                           in the last (root)
 *
 * DURATION is in seconds.  And, for the lab guest's kprobe events on
 * kernels that cannot read a field through BTF themselves (6.1):
 *
 *   idle-workload btf-offset STRUCT MEMBER  the member's byte offset, read
 *                                           from /sys/kernel/btf/vmlinux
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "btf.h"
#include "error.h"

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000000000ULL +
	       (unsigned long long)t.tv_nsec;
}

static void ns_sleep_until(unsigned long long ns)
{
	struct timespec t = { (time_t)(ns / 1000000000ULL),
			      (long)(ns % 1000000000ULL) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) ==
	       EINTR)
		;
}

static void ns_sleep(unsigned long long ns)
{
	ns_sleep_until(now_ns() + ns);
}

/* Pin to @cpu if it exists (one-CPU machines stay where they are). */
static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int periodic(unsigned long long us, unsigned long long end)
{
	unsigned long long t = now_ns();

	pin(0);
	while ((t += us * 1000) < end)
		ns_sleep_until(t);
	return 0;
}

/* Exponential sleeps from a fixed seed: the same pattern every run. */
static int random_sleeps(unsigned long long us, unsigned long long end)
{
	unsigned int seed = 1;

	pin(0);
	while (now_ns() < end) {
		double u = (rand_r(&seed) + 1.0) / ((double)RAND_MAX + 2.0);

		ns_sleep((unsigned long long)(-log(u) * (double)us * 1000.0));
	}
	return 0;
}

/* Log-uniform sleeps from @us/16 to 16*@us, from a fixed seed. */
static int spread_sleeps(unsigned long long us, unsigned long long end)
{
	unsigned int seed = 1;

	pin(0);
	while (now_ns() < end) {
		double u = rand_r(&seed) / ((double)RAND_MAX + 1.0);

		ns_sleep((unsigned long long)((double)us * 1000.0 / 16.0 *
					      exp(u * log(256.0))));
	}
	return 0;
}

#define CPU0_RESUME_LATENCY \
	"/sys/devices/system/cpu/cpu0/power/pm_qos_resume_latency_us"

/* Write @s to CPU 0's resume-latency QoS; its old value into @old. */
static int cpu0_resume_latency(const char *s, char *old, size_t len)
{
	FILE *f = fopen(CPU0_RESUME_LATENCY, "r+");
	int ok;

	if (!f)
		return -1;
	ok = !old || fgets(old, (int)len, f);
	rewind(f);
	ok = ok && fputs(s, f) >= 0;
	return fclose(f) || !ok ? -1 : 0;
}

/*
 * random_sleeps() with /dev/cpu_dma_latency held at 0 from a third of
 * the time to two thirds, then CPU 0's resume latency at 0 ("n/a"): the
 * governors must choose a state of no exit latency, on every CPU and
 * then on CPU 0.  The kernel drops the first request when the file is
 * closed, by us or at our exit; the second is put back before we exit
 * (tests/fidelity-root.sh also puts it back on every exit).
 */
static int qos_sleeps(unsigned long long us, unsigned long long end)
{
	unsigned long long start = now_ns(), third = (end - start) / 3;
	char old[32] = "0\n";
	int32_t zero = 0;
	int fd, rc;

	if (random_sleeps(us, start + third))
		return 1;
	fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, &zero, sizeof(zero)) != sizeof(zero)) {
		perror("idle-workload: /dev/cpu_dma_latency");
		return 1;
	}
	random_sleeps(us, start + 2 * third);
	close(fd);
	if (cpu0_resume_latency("n/a", old, sizeof(old))) {
		perror("idle-workload: " CPU0_RESUME_LATENCY);
		return 1;
	}
	rc = random_sleeps(us, end);
	if (cpu0_resume_latency(old, NULL, 0)) {
		perror("idle-workload: " CPU0_RESUME_LATENCY);
		return 1;
	}
	return rc;
}

/* The gap before the next bounce: @us, or exponential of mean @us. */
static unsigned long long gap_ns(unsigned long long us, unsigned int *seed)
{
	double u;

	if (!seed)
		return us * 1000;
	u = (rand_r(seed) + 1.0) / ((double)RAND_MAX + 2.0);
	return (unsigned long long)(-log(u) * (double)us * 1000.0);
}

static int pingpong(unsigned long long us, unsigned long long end,
		    unsigned int *seed)
{
	int to[2], from[2];
	char c = 'x';
	pid_t pid;

	if (pipe(to) || pipe(from))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		pin(1);
		close(to[1]);
		close(from[0]);
		while (read(to[0], &c, 1) == 1 && write(from[1], &c, 1) == 1)
			;
		_exit(0);
	}
	pin(0);
	close(to[0]);
	close(from[1]);
	while (now_ns() < end) {
		ns_sleep(gap_ns(us, seed));
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			break;
	}
	close(to[1]);
	waitpid(pid, NULL, 0);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: idle-workload idle SECONDS\n"
		"       idle-workload periodic|random|spread|pingpong|"
		"randpong|qos US SECONDS\n"
		"       idle-workload btf-offset STRUCT MEMBER\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long us, end;
	unsigned int seed = 1;
	double secs;

	if (argc == 3 && !strcmp(argv[1], "idle")) {
		secs = atof(argv[2]);
		if (secs <= 0)
			return usage();
		ns_sleep((unsigned long long)(secs * 1e9));
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "btf-offset")) {
		struct idl_err err;
		long off = btf_file_member_offset("/sys/kernel/btf/vmlinux",
						  argv[2], argv[3], &err);

		if (off < 0) {
			fprintf(stderr, "idle-workload: %s\n", err.msg);
			return 1;
		}
		printf("%ld\n", off);
		return 0;
	}
	if (argc != 4)
		return usage();
	us = strtoull(argv[2], NULL, 10);
	secs = atof(argv[3]);
	if (!us || secs <= 0)
		return usage();
	end = now_ns() + (unsigned long long)(secs * 1e9);
	if (!strcmp(argv[1], "periodic"))
		return periodic(us, end);
	if (!strcmp(argv[1], "random"))
		return random_sleeps(us, end);
	if (!strcmp(argv[1], "spread"))
		return spread_sleeps(us, end);
	if (!strcmp(argv[1], "pingpong"))
		return pingpong(us, end, NULL);
	if (!strcmp(argv[1], "randpong"))
		return pingpong(us, end, &seed);
	if (!strcmp(argv[1], "qos"))
		return qos_sleeps(us, end);
	return usage();
}
