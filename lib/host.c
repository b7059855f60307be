// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Small reads of sysfs and /proc files, and the monotonic clock.  See
 * host.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host.h"

int idl_read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	/* sysfs hands a whole attribute to one read() */
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	n = (ssize_t)strcspn(buf, "\n");
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
	return 0;
}

int idl_read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;

	if (idl_read_str(path, buf, sizeof(buf)))
		return -1;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (errno || end == buf || *end) {
		errno = 0;
		return -1;
	}
	return 0;
}

int idl_read_field(const char *path, const char *key, char *buf,
		   size_t len)
{
	FILE *f = fopen(path, "r");
	const char *v = NULL;
	char line[512];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, strlen(key)))
			continue;
		line[strcspn(line, "\n")] = '\0';
		v = strchr(line, ':');
		if (v)
			v += 1 + strspn(v + 1, " ");
		break;
	}
	fclose(f);
	if (!v)
		return -1;
	snprintf(buf, len, "%s", v);
	return 0;
}

uint64_t idl_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double idl_mono_s(void)
{
	return (double)idl_mono_ns() / 1e9;
}

int64_t idl_cpu_latency_qos_ns(void)
{
	int fd = open("/dev/cpu_dma_latency", O_RDONLY | O_CLOEXEC);
	int32_t us;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, &us, sizeof(us));
	close(fd);
	return n == (ssize_t)sizeof(us) && us >= 0 ? (int64_t)us * 1000 : -1;
}

int32_t idl_cpu_resume_latency_us(const char *sysfs_root, int cpu)
{
	char path[512], buf[32];
	long v;

	snprintf(path, sizeof(path), "%s/cpu%d/power/pm_qos_resume_latency_us",
		 sysfs_root, cpu);
	if (idl_read_str(path, buf, sizeof(buf)) < 0)
		return -1;
	if (!strncmp(buf, "n/a", 3))
		return 0;
	v = strtol(buf, NULL, 10);
	return v > 0 && v < INT32_MAX ? (int32_t)v : -1;
}
