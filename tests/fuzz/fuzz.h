/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the libFuzzer targets: the parsers take paths, so each input
 * is written to a memfd and handed over as /proc/self/fd/N.  The memfds
 * are reused (truncated) for every input so a long run opens no new files.
 */
#ifndef IDLELAB_FUZZ_H
#define IDLELAB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* memfds: one per input file a target needs (merge reads several) */
#define FUZZ_MAX_FILES	8

static int fuzz_fd[FUZZ_MAX_FILES] = { -1, -1, -1, -1, -1, -1, -1, -1 };
static char fuzz_path[FUZZ_MAX_FILES][64];

/* Put @size bytes in memfd @slot; returns its path, rewound to offset 0. */
static inline const char *fuzz_file_at(int slot, const uint8_t *data,
				       size_t size)
{
	size_t done = 0;

	if (slot < 0 || slot >= FUZZ_MAX_FILES)
		abort();
	if (fuzz_fd[slot] < 0) {
		fuzz_fd[slot] = memfd_create("idlelab-fuzz", 0);
		if (fuzz_fd[slot] < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(fuzz_path[slot], sizeof(fuzz_path[slot]),
			 "/proc/self/fd/%d", fuzz_fd[slot]);
	}
	if (ftruncate(fuzz_fd[slot], 0))
		abort();
	while (done < size) {
		ssize_t n = pwrite(fuzz_fd[slot], data + done, size - done,
				   (off_t)done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	return fuzz_path[slot];
}

/* The input of a target that reads one file. */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	return fuzz_file_at(0, data, size);
}

#endif /* IDLELAB_FUZZ_H */
