// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: trace.dat (traces/import-dat.c and libtracecmd).
 * idlelab import runs the reader in a forked child (libtracecmd trusts
 * the file); this target includes import-dat.c to call its scan and run
 * in-process, so ASan sees what the reader and idlelab's event decoder
 * (traces/decode-bin.c) do.  tests/import-cli.sh and tests/bad-input.sh
 * test the containment in the child separately.
 */
#include "import-dat.c"

#define FUZZ_IMPORT_OWN_ENTRY
#include "fuzz-import.h"

static const struct importer dat_in_process = {
	.name	= "dat",
	.desc	= "trace.dat",
	.detect	= detect,
	.scan	= scan_dat,
	.run	= run_dat,
};

const char *__asan_default_options(void);

/* a size from the file that malloc() refuses is libtracecmd's to handle */
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* libtracecmd refuses a file without the magic: not worth a run */
	if (!detect(data, size))
		return 0;
	fuzz_import(&dat_in_process, fuzz_file(data, size));
	return 0;
}
