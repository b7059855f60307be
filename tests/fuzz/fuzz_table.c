// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: C-state table files (cstate_table_load). */
#include "config.h"

#include <string.h>

#include "cstate.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cstate_table t;
	struct idl_err err;
	char buf[4096];
	FILE *f;

	memset(&t, 0, sizeof(t));
	if (cstate_table_load(fuzz_file(data, size), &t, &err)) {
		/* an error must carry a message and a non-zero status */
		if (!err.msg[0] || !err.status)
			abort();
		return 0;
	}
	if (t.count < 0 || t.count > CSTATE_MAX)
		abort();
	/* a loaded table must pass its own validation and print */
	f = fmemopen(buf, sizeof(buf), "w");
	if (f) {
		cstate_table_write(f, &t);
		fclose(f);
	}
	return 0;
}
