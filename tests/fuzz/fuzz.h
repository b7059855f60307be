/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the libFuzzer targets: the parsers take paths, so each input
 * is written to one memfd and handed over as /proc/self/fd/N.  The memfd
 * is reused (truncated) for every input so a long run opens no new files.
 */
#ifndef IDLELAB_FUZZ_H
#define IDLELAB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int fuzz_fd = -1;
static char fuzz_path[64];

/* Put @size bytes in the memfd; returns its path, rewound to offset 0. */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	size_t done = 0;

	if (fuzz_fd < 0) {
		fuzz_fd = memfd_create("idlelab-fuzz", 0);
		if (fuzz_fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(fuzz_path, sizeof(fuzz_path), "/proc/self/fd/%d",
			 fuzz_fd);
	}
	if (ftruncate(fuzz_fd, 0))
		abort();
	while (done < size) {
		ssize_t n = pwrite(fuzz_fd, data + done, size - done,
				   (off_t)done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	return fuzz_path;
}

#endif /* IDLELAB_FUZZ_H */
