// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the results of a sweep as idlelab compare reads them
 * (pareto_is_sweep, pareto_load, the text and CSV fronts; report/pareto*.c).
 * The input's length picks the latency objective (mean or p99).
 */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "pareto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

static void check_points(const struct pareto *pa,
			 const struct pareto_point *p)
{
	int *idx = calloc((size_t)pa->nconf + 1, sizeof(*idx));
	int i, n;

	if (!idx)
		abort();
	for (i = 0; i < pa->nconf; i++)
		if (p[i].dominated_by < -1 || p[i].dominated_by >= pa->nconf ||
		    (p[i].front && !p[i].valid))
			abort();
	n = pareto_order(p, pa->nconf, false, idx);
	if (n != pa->nconf)
		abort();
	free(idx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct pareto pa;
	struct idl_err err;
	int g;

	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		if (!devnull)
			abort();
	}
	(void)pareto_is_sweep(path);
	memset(&err, 0, sizeof(err));
	if (pareto_load(&pa, path, size & 1 ? PARETO_LAT_P99 :
			PARETO_LAT_MEAN, &err)) {
		if (!err.msg[0] || !err.status)
			abort();
		pareto_free(&pa);
		return 0;
	}
	if (pa.nconf <= 0 || pa.ngroup < 0)
		abort();
	check_points(&pa, pa.all);
	for (g = 0; g < pa.ngroup; g++)
		check_points(&pa, pa.group[g].p);
	pareto_print(devnull, &pa);
	pareto_print_csv(devnull, &pa);
	pareto_free(&pa);
	return 0;
}
