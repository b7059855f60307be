// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: idlelab merge (sweep_merge, replay/sweep-merge.c).
 * The input is up to four shard files separated by form feeds, which
 * JSON allows only inside strings; each goes to a memfd of its own.  A
 * merge that succeeds must give results that the Pareto reader takes.
 */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "pareto.h"
#include "sweep.h"

#define MAX_SHARDS	4
#define OUT_SLOT	MAX_SHARDS

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(const struct idl_err *err)
{
	if (!err->msg[0] || !err->status)
		abort();
}

/* The merged results: the Pareto reader must accept them. */
static void check_merged(const char *text, size_t len)
{
	struct pareto pa;
	struct idl_err err;

	memset(&err, 0, sizeof(err));
	if (pareto_load(&pa, fuzz_file_at(OUT_SLOT, (const uint8_t *)text,
					  len), PARETO_LAT_MEAN, &err)) {
		fprintf(stderr, "merged results refused: %s\n", err.msg);
		abort();
	}
	pareto_free(&pa);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *paths[MAX_SHARDS], *text = NULL;
	size_t start = 0, i, len = 0;
	struct idl_err err;
	int n = 0, ret;
	FILE *out;

	for (i = 0; i <= size && n < MAX_SHARDS; i++) {
		if (i < size && (data[i] != '\f' || n == MAX_SHARDS - 1))
			continue;
		paths[n] = (char *)fuzz_file_at(n, data + start, i - start);
		n++;
		start = i + 1;
	}
	out = open_memstream(&text, &len);
	if (!out)
		abort();
	memset(&err, 0, sizeof(err));
	ret = sweep_merge(paths, n, out, &err);
	if (fclose(out))
		abort();
	if (ret)
		check_err(&err);
	else
		check_merged(text, len);
	free(text);
	return 0;
}
