// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: trace.dat (traces/import/import-dat.c and libtracecmd).
 * idlelab import runs the reader in a forked child (libtracecmd trusts
 * the file); this target includes import-dat.c to call its scan and run
 * in-process, so ASan sees what the reader and idlelab's event decoder
 * (traces/import/decode-bin.c) do.  tests/import-cli.sh and tests/bad-input.sh
 * test the containment in the child separately.
 */
#include "import-dat.c"

#define FUZZ_IMPORT_OWN_ENTRY
#include "fuzz-import.h"

/* the scan and the run, each on a handle of its own */
static int scan_in_process(const char *path, const char *instance,
			   struct import_scan *s, struct idl_err *err)
{
	struct tracecmd_input *h = open_dat(path, err);
	int r;

	if (!h)
		return -1;
	r = scan_dat(h, path, instance, s, err);
	tracecmd_close(h);
	return r;
}

static int run_in_process(const char *path, const char *instance,
			  import_sink sink, void *ctx, struct idl_err *err)
{
	struct tracecmd_input *h = open_dat(path, err);
	int r;

	if (!h)
		return -1;
	r = run_dat(h, path, instance, sink, ctx, err);
	tracecmd_close(h);
	return r;
}

static const struct importer dat_in_process = {
	.name	= "dat",
	.desc	= "trace.dat",
	.detect	= detect,
	.scan	= scan_in_process,
	.run	= run_in_process,
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
