// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pareto fronts of a sweep (doc/sweep.md has the rules): per (trace,
 * table) group on the group's own numbers, and over the whole sweep on
 * numbers that can be pooled across traces and tables.
 */
#include "config.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"
#include "pareto.h"

/* A cell's numbers that the objectives need (NaN: not there). */
struct cell_nums {
	double	energy, regret, lat_mean, lat_p99, lat_total, wakeups;
	double	above, below, selects, above_pct, below_pct;
};

struct pool {				/* a configuration over all groups */
	double	regret, lat_total, wakeups, p99, misses, selects;
	int	n;
	bool	bad;
};

bool pareto_is_sweep(const char *path)
{
	char head[512];
	struct stat st;
	size_t n;
	FILE *f;

	/* a FIFO or a device is for the results reader to refuse */
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	f = idl_input_fopen(path, 0, NULL, NULL);
	if (!f)
		return false;
	n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = '\0';
	return strstr(head, "\"kind\": \"sweep\"") != NULL;
}

static double num(json_t *o, const char *name, const char *key)
{
	json_t *v = json_object_get(o, name);

	if (key)
		v = json_object_get(v, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void read_cell(json_t *r, struct cell_nums *c)
{
	c->energy = num(r, "energy", NULL);
	c->regret = num(r, "energy_regret_pct", NULL);
	c->lat_mean = num(r, "latency_mean_ns", "all");
	c->lat_p99 = num(r, "latency_p99_ns", "all");
	c->lat_total = num(r, "latency_total_ns", "all");
	c->wakeups = num(r, "wakeups", "all");
	c->above = num(r, "above_total", NULL);
	c->below = num(r, "below_total", NULL);
	c->selects = num(r, "selects", NULL);
	c->above_pct = num(r, "above_pct", NULL);
	c->below_pct = num(r, "below_pct", NULL);
}

static void group_point(struct pareto_point *p, const struct cell_nums *c,
			enum pareto_latency lat)
{
	p->obj[0] = c->energy;
	p->obj[1] = lat == PARETO_LAT_P99 ? c->lat_p99 : c->lat_mean;
	p->obj[2] = c->above_pct + c->below_pct;
	p->valid = isfinite(p->obj[0]) && isfinite(p->obj[1]) &&
		   isfinite(p->obj[2]);
}

static void pool_add(struct pool *q, const struct cell_nums *c)
{
	double v[] = { c->regret, c->lat_total, c->wakeups, c->lat_p99,
		       c->above, c->below, c->selects };
	size_t k;

	for (k = 0; k < sizeof(v) / sizeof(v[0]); k++)
		if (!isfinite(v[k]))
			q->bad = true;
	q->regret += c->regret;
	q->lat_total += c->lat_total;
	q->wakeups += c->wakeups;
	q->p99 += c->lat_p99;
	q->misses += c->above + c->below;
	q->selects += c->selects;
	q->n++;
}

static void pool_point(struct pareto_point *p, const struct pool *q,
		       enum pareto_latency lat)
{
	p->obj[0] = q->regret / q->n;
	p->obj[1] = lat == PARETO_LAT_P99 ? q->p99 / q->n :
		    q->wakeups > 0 ? q->lat_total / q->wakeups : 0;
	p->obj[2] = q->selects > 0 ? 100.0 * q->misses / q->selects : 0;
	p->valid = !q->bad && q->n > 0;
}

static bool dominates(const struct pareto_point *a,
		      const struct pareto_point *b)
{
	bool better = false;
	int k;

	for (k = 0; k < PARETO_NOBJ; k++) {
		if (a->obj[k] > b->obj[k])
			return false;
		if (a->obj[k] < b->obj[k])
			better = true;
	}
	return better;
}

static void front(struct pareto_point *p, int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		p[i].front = p[i].valid;
		p[i].dominated_by = -1;
		for (j = 0; j < n && p[i].front; j++)
			if (j != i && p[j].valid && dominates(&p[j], &p[i]))
				p[i].front = false;
	}
	/* name a front point that beats each other point */
	for (i = 0; i < n; i++)
		for (j = 0; j < n && p[i].valid && !p[i].front &&
			    p[i].dominated_by < 0; j++)
			if (p[j].front && dominates(&p[j], &p[i]))
				p[i].dominated_by = j;
}

static int load_cells(struct pareto *pa, json_t *cells, struct pool *pool,
		      const char *path, struct idl_err *err)
{
	size_t k;
	json_t *c;

	json_array_foreach(cells, k, c) {
		json_int_t i = json_integer_value(json_object_get(c, "index"));
		struct pareto_point *p;
		struct cell_nums n;
		int g, conf;

		if ((size_t)i != k)
			return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: cell "
					   "%zu out of order", path, k);
		g = (int)(k / (size_t)pa->nconf);
		conf = (int)(k % (size_t)pa->nconf);
		p = &pa->group[g].p[conf];
		p->config = json_string_value(json_object_get(c, "config"));
		p->defaults = json_is_true(json_object_get(c, "defaults"));
		if (!p->config)
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "%s: cell %zu: no config", path, k);
		pa->group[g].energy_unit = json_string_value(
			json_object_get(c, "energy_unit"));
		read_cell(json_object_get(c, "results"), &n);
		group_point(p, &n, pa->latency);
		pool_add(&pool[conf], &n);
		pa->all[conf].config = p->config;
		pa->all[conf].defaults = p->defaults;
	}
	return 0;
}

/* Cells of the grid @head describes, SIZE_MAX if more than INT_MAX. */
static size_t grid_cells(json_t *head)
{
	static const char *const dim[] = { "configs", "traces", "tables" };
	size_t n = 1, k;
	int i;

	for (i = 0; i < 3; i++) {
		k = json_array_size(json_object_get(head, dim[i]));
		if (k && n > INT_MAX / k)
			return SIZE_MAX;
		n *= k;
	}
	return n;
}

static int alloc_groups(struct pareto *pa, json_t *head)
{
	json_t *traces = json_object_get(head, "traces");
	json_t *tables = json_object_get(head, "tables");
	size_t nt = json_array_size(tables);
	int g;

	pa->ngroup = (int)(json_array_size(traces) * nt);
	pa->group = calloc((size_t)pa->ngroup + 1, sizeof(*pa->group));
	pa->all = calloc((size_t)pa->nconf + 1, sizeof(*pa->all));
	if (!pa->group || !pa->all)
		return -1;
	for (g = 0; g < pa->ngroup; g++) {
		pa->group[g].trace = json_string_value(
			json_array_get(traces, (size_t)g / nt));
		pa->group[g].table = json_string_value(
			json_array_get(tables, (size_t)g % nt));
		pa->group[g].p = calloc((size_t)pa->nconf,
					sizeof(*pa->group[g].p));
		if (!pa->group[g].p)
			return -1;
	}
	return 0;
}

int pareto_load(struct pareto *pa, const char *path,
		enum pareto_latency latency, struct idl_err *err)
{
	json_t *root, *head;
	struct pool *pool = NULL;
	size_t total, ncells;
	int g, c, ret = -1;

	memset(pa, 0, sizeof(*pa));
	pa->latency = latency;
	root = idl_json_load(path, err);
	if (!root)
		return -1;
	pa->root = root;
	head = json_object_get(root, "sweep");
	pa->id = json_string_value(json_object_get(head, "id"));
	pa->nconf = (int)json_array_size(json_object_get(head, "configs"));
	if (!pa->id || !pa->nconf)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: not the "
				   "results of idlelab sweep", path);
	/*
	 * The cells must all be there before anything is sized by the grid:
	 * a few kB of forged lists would otherwise ask for terabytes.
	 */
	total = grid_cells(head);
	if (total == SIZE_MAX)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: a grid of more "
				   "than %d cells", path, INT_MAX);
	ncells = json_array_size(json_object_get(root, "cells"));
	if (ncells != total)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %zu of %zu "
				   "cells: a shard? (idlelab merge joins "
				   "them)", path, ncells, total);
	if (alloc_groups(pa, head) ||
	    !(pool = calloc((size_t)pa->nconf, sizeof(*pool)))) {
		idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
		goto out;
	}
	if (load_cells(pa, json_object_get(root, "cells"), pool, path, err))
		goto out;
	for (c = 0; c < pa->nconf; c++)
		pool_point(&pa->all[c], &pool[c], latency);
	front(pa->all, pa->nconf);
	for (g = 0; g < pa->ngroup; g++)
		front(pa->group[g].p, pa->nconf);
	ret = 0;
out:
	free(pool);
	return ret;
}

static int by_energy(const void *x, const void *y, void *ctx)
{
	const struct pareto_point *p = ctx;
	int a = *(const int *)x, b = *(const int *)y;

	if (p[a].obj[0] != p[b].obj[0])
		return p[a].obj[0] < p[b].obj[0] ? -1 : 1;
	return a - b;
}

int pareto_order(const struct pareto_point *p, int n, bool front_only,
		 int *idx)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		if (!front_only || p[i].front)
			idx[k++] = i;
	qsort_r(idx, (size_t)k, sizeof(*idx), by_energy, (void *)p);
	return k;
}

const char *pareto_obj_name(const struct pareto *pa, int k, bool overall)
{
	static const char *const all[2][PARETO_NOBJ] = {
		{ "energy regret %", "exit latency mean ns", "misses %" },
		{ "energy regret %", "exit latency p99 ns", "misses %" },
	};
	static const char *const grp[2][PARETO_NOBJ] = {
		{ "energy", "exit latency mean ns", "misses %" },
		{ "energy", "exit latency p99 ns", "misses %" },
	};

	return (overall ? all : grp)[pa->latency == PARETO_LAT_P99][k];
}

void pareto_free(struct pareto *pa)
{
	int g;

	for (g = 0; pa->group && g < pa->ngroup; g++)
		free(pa->group[g].p);
	free(pa->group);
	free(pa->all);
	json_decref(pa->root);
	memset(pa, 0, sizeof(*pa));
}
