/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small reads of the host's sysfs and /proc files, and its monotonic
 * clock: the one copy that every stage uses, so that a file that cannot
 * be read, or does not hold a number, is treated alike everywhere.
 */
#ifndef IDLELAB_HOST_H
#define IDLELAB_HOST_H

#include <stddef.h>
#include <stdint.h>

/*
 * The first line of a small file (sysfs attributes are one line) into
 * @buf, without the trailing newline and spaces, truncated to @len - 1
 * characters.  0, or -1 with errno set when it cannot be opened or read.
 */
int idl_read_str(const char *path, char *buf, size_t len);

/*
 * A file that holds one unsigned decimal number.  0, or -1 when it cannot
 * be read (errno set) or holds anything else (errno 0).
 */
int idl_read_u64(const char *path, uint64_t *v);

/*
 * The value of the first line that starts with @key in a "key : value"
 * file (/proc/cpuinfo), after the colon and the spaces that follow it.
 * 0, or -1 (@buf untouched) when the file or the key is not there.
 */
int idl_read_field(const char *path, const char *key, char *buf,
		   size_t len);

/*
 * The CPU latency PM QoS constraint now (/dev/cpu_dma_latency), in ns;
 * -1 if it cannot be read.  While the file is open the kernel holds a
 * request for it at the default value, which lowers no CPU's constraint.
 */
int64_t idl_cpu_latency_qos_ns(void);

/*
 * CPU @cpu's resume-latency PM QoS constraint now, in us, from
 * @sysfs_root/cpuN/power/pm_qos_resume_latency_us ("0": none, "n/a": 0
 * us, N: N us); -1 for none or when it cannot be read.
 */
int32_t idl_cpu_resume_latency_us(const char *sysfs_root, int cpu);

/* CLOCK_MONOTONIC, in nanoseconds and in seconds. */
uint64_t idl_mono_ns(void);
double idl_mono_s(void);

#endif /* IDLELAB_HOST_H */
