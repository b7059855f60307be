// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the decide protocol (cli/cmd-decide.c).
 *
 * cmd_decide() keeps its state in a function-local static that is never
 * reset, so calling it twice in one process starts the second stream
 * with the first one's states (see doc/hardening.md).  This target
 * therefore includes cmd-decide.c and drives its run() with a fresh,
 * zeroed struct decide for every input, set up as cmd_decide() does
 * (minus the setvbuf calls).  The first input byte picks the governor
 * and whether --explain is on; the rest is the stream, read from a memfd.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "../../cli/cmd-decide.c"

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
	static struct decide d;
	const char *path;
	int fd, ret;

	if (size < 1)
		return 0;
	memset(&d, 0, sizeof(d));
	if (setup_governor(&d, specs[(data[0] & 0x7f) % NSPECS]))
		return 0;	/* a spec the governor does not know */
	d.explain = data[0] & 0x80;
	path = fuzz_file(data + 1, size - 1);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		abort();
	d.hz = DEFAULT_HZ;
	d.latency_req = DEFAULT_LATENCY_REQ;
	d.step = STEP_START;
	idl_explain_init(&d.ex, stderr, NULL);
	idl_env_set_current(&d.env);
	ret = run(&d, fd);
	idl_env_set_current(NULL);
	close(fd);
	if (ret != IDL_EXIT_OK && ret != IDL_EXIT_BADINPUT &&
	    ret != IDL_EXIT_FAILURE)
		abort();
	return 0;
}
