// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the decide protocol (governors/decide.c).  The first
 * input byte picks the governor and whether --explain is on; the rest is
 * the stream, read from a memfd.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decide.h"
#include "error.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static const char *const specs[] = {
	"menu", "teo", "ladder", "haltpoll",
	"haltpoll:guest_halt_poll_ns=0", "teo:pulse=512",
};
#define NSPECS	(sizeof(specs) / sizeof(specs[0]))

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* answers and explanations go nowhere; libFuzzer keeps its own
	 * stderr copy with -close_fd_mask=2 */
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0 || dup2(fd, 1) < 0)
		abort();
	close(fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	int fd, ret;

	if (size < 1)
		return 0;
	path = fuzz_file(data + 1, size - 1);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		abort();
	/* every call starts from a fresh governor and device */
	ret = decide_stream(specs[(data[0] & 0x7f) % NSPECS], data[0] & 0x80, fd,
			    stdout);
	close(fd);
	if (ret != IDL_EXIT_OK && ret != IDL_EXIT_BADINPUT &&
	    ret != IDL_EXIT_FAILURE)
		abort();
	return 0;
}
