// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Pareto fronts of a sweep as text and CSV: the front over the whole
 * sweep, where each governor's defaults stand, and the front of each
 * (trace, table) group.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pareto.h"

static const int prec[PARETO_NOBJ] = { 2, 1, 2 };

static int width_of(const struct pareto_point *p, int n)
{
	int i, w = 13;

	for (i = 0; i < n; i++)
		if (p[i].config && (int)strlen(p[i].config) > w)
			w = (int)strlen(p[i].config);
	return w;
}

static void row(FILE *f, const struct pareto_point *p, int w)
{
	int k;

	fprintf(f, "  %-*s", w, p->config);
	for (k = 0; k < PARETO_NOBJ; k++)
		fprintf(f, " %20.*f", prec[k], p->obj[k]);
	fprintf(f, "%s\n", p->defaults ? "  (defaults)" : "");
}

static void print_front(FILE *f, const struct pareto *pa,
			const struct pareto_point *p, bool overall)
{
	int *idx = calloc((size_t)pa->nconf, sizeof(*idx));
	int w = width_of(p, pa->nconf), n, i, k;

	if (!idx)
		return;
	n = pareto_order(p, pa->nconf, true, idx);
	fprintf(f, "  %-*s", w, "configuration");
	for (k = 0; k < PARETO_NOBJ; k++)
		fprintf(f, " %20s", pareto_obj_name(pa, k, overall));
	fputc('\n', f);
	for (i = 0; i < n; i++)
		row(f, &p[idx[i]], w);
	free(idx);
}

/* Where the configurations that run a governor's defaults stand. */
static void print_defaults(FILE *f, const struct pareto *pa)
{
	const struct pareto_point *p = pa->all;
	int w = width_of(p, pa->nconf), i, k, n = 0;

	for (i = 0; i < pa->nconf; i++) {
		if (!p[i].defaults)
			continue;
		if (!n++)
			fputs("\nDefaults:\n", f);
		if (!p[i].valid) {
			fprintf(f, "  %-*s no numbers (a failed cell)\n", w,
				p[i].config);
			continue;
		}
		if (p[i].front) {
			fprintf(f, "  %-*s on the front\n", w, p[i].config);
			continue;
		}
		fprintf(f, "  %-*s beaten by %s:", w, p[i].config,
			p[p[i].dominated_by].config);
		for (k = 0; k < PARETO_NOBJ; k++)
			fprintf(f, "%s %s %.*f -> %.*f", k ? "," : "",
				pareto_obj_name(pa, k, true), prec[k],
				p[i].obj[k], prec[k],
				p[p[i].dominated_by].obj[k]);
		fputc('\n', f);
	}
	if (!n)
		fputs("\nDefaults: no configuration runs a governor's "
		      "defaults\n", f);
}

static int count_front(const struct pareto_point *p, int n)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		k += p[i].front;
	return k;
}

void pareto_print(FILE *f, const struct pareto *pa)
{
	int g;

	fprintf(f, "Sweep %s: %d configurations, %d trace x table groups\n",
		pa->id, pa->nconf, pa->ngroup);
	fprintf(f, "Lower is better on every objective.  Over the whole "
		"sweep: energy regret\nagainst the oracle (%%, mean of the "
		"groups), exit latency (%s),\nmisses (above + below, %% of "
		"all selects); doc/sweep.md.\n\n",
		pa->latency == PARETO_LAT_P99 ? "p99 ns, mean of the groups" :
		"ns, mean of all wakeups");
	fprintf(f, "Pareto front: %d of %d configurations\n",
		count_front(pa->all, pa->nconf), pa->nconf);
	print_front(f, pa, pa->all, true);
	print_defaults(f, pa);
	for (g = 0; g < pa->ngroup; g++) {
		const struct pareto_group *gr = &pa->group[g];

		fprintf(f, "\n%s, table %s (energy in %s): front of %d\n",
			gr->trace, gr->table, gr->energy_unit ?
			gr->energy_unit : "?", count_front(gr->p, pa->nconf));
		print_front(f, pa, gr->p, false);
	}
}

/* A CSV text cell: quoted (configurations hold commas). */
static void csv_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_rows(FILE *f, const struct pareto *pa,
		     const struct pareto_point *p, const char *trace,
		     const char *table)
{
	int i, k;

	for (i = 0; i < pa->nconf; i++) {
		csv_str(f, trace);
		fputc(',', f);
		csv_str(f, table);
		fputc(',', f);
		csv_str(f, p[i].config);
		fprintf(f, ",%d,%d", p[i].defaults, p[i].front);
		for (k = 0; k < PARETO_NOBJ; k++)
			if (p[i].valid)
				fprintf(f, ",%.6f", p[i].obj[k]);
			else
				fputc(',', f);
		fputc(',', f);
		if (p[i].dominated_by >= 0)
			csv_str(f, p[p[i].dominated_by].config);
		fputc('\n', f);
	}
}

void pareto_print_csv(FILE *f, const struct pareto *pa)
{
	int g;

	fprintf(f, "trace,table,config,defaults,front,energy,latency_%s_ns,"
		"misses_pct,beaten_by\n",
		pa->latency == PARETO_LAT_P99 ? "p99" : "mean");
	csv_rows(f, pa, pa->all, "all", "all");
	for (g = 0; g < pa->ngroup; g++)
		csv_rows(f, pa, pa->group[g].p, pa->group[g].trace,
			 pa->group[g].table);
}
