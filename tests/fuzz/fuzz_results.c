// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: results JSON (results_load, report/results.c). */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct res_set rs;
	struct idl_err err;
	double sum = 0;
	int i, j;

	memset(&rs, 0, sizeof(rs));
	if (results_load(fuzz_file(data, size), &rs, &err)) {
		if (!err.msg[0] || !err.status)
			abort();
		return 0;
	}
	if (rs.nconfigs < 0 || rs.nconfigs > RES_MAX_CONFIGS || rs.nbench < 0)
		abort();
	/* touch every value so ASan sees any bad pointer or count */
	for (i = 0; i < rs.nbench; i++) {
		const struct res_bench *b = &rs.bench[i];

		if (b->nseries < 0 || b->nseries > RES_MAX_CONFIGS)
			abort();
		for (j = 0; j < rs.nconfigs; j++) {
			const struct res_series *s = results_series(b, j);

			for (size_t k = 0; s && k < s->n; k++)
				sum += s->v[k];
		}
	}
	for (i = 0; i < rs.nconfigs; i++)
		if (rs.idle[i].nstates < 0 ||
		    rs.idle[i].nstates > RES_MAX_STATES)
			abort();
	results_free(&rs);
	return sum == 12345.678;	/* keep the loop */
}
