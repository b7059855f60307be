// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the native trace reader (traces/format/trace-read.c).
 * Reads all periods, then rewinds and reads those of CPU 0, as replay
 * does.
 */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int drain(struct trace_reader *r, int cpu)
{
	struct idle_period p;
	struct idl_err err;
	int ret;

	while ((ret = trace_reader_next(r, cpu, &p, &err)) == 1)
		;
	if (ret < 0 && (!err.msg[0] || !err.status))
		abort();
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_reader *r;
	struct trace_damage dmg;
	struct idl_err err;
	const char *d;

	r = trace_reader_open(fuzz_file(data, size), &err);
	if (!r) {
		if (!err.msg[0] || !err.status)
			abort();
		return 0;
	}
	(void)trace_reader_meta(r);
	drain(r, -1);
	d = trace_reader_damage(r);
	if (d)
		(void)strlen(d);
	trace_reader_damage_info(r, &dmg);
	if (!trace_reader_rewind(r, &err))
		drain(r, 0);
	trace_reader_close(r);
	return 0;
}
