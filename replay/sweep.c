// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Running a sweep: the cells of one shard, grouped by (trace, table) so
 * that each group is one replay of its trace with up to REPLAY_MAX_GOV
 * configurations side by side, written as they finish in canonical
 * order, one cell per line (doc/sweep.md, doc/results-format.md).
 */
#include "config.h"

#include <jansson.h>
#include <string.h>
#include <time.h>

#include "host.h"
#include "run.h"
#include "sweep.h"
#include "text.h"

#define JSON_FLAGS	(JSON_COMPACT | JSON_REAL_PRECISION(10))

struct progress {
	bool	on, shown;
	double	t0;
	size_t	done, total;
};

static void show_progress(struct progress *p)
{
	double t = idl_mono_s() - p->t0, rate;

	if (!p->on || t < 1.0 || !p->done)
		return;
	rate = (double)p->done / t;
	fprintf(stderr, "\rsweep: %zu of %zu cells, %.1f cells/s, %.0f s "
		"left\033[K", p->done, p->total, rate,
		(double)(p->total - p->done) / rate);
	p->shown = true;
}

static json_t *sweep_header(const struct sweep *s,
			    const struct sweep_run_opts *o)
{
	json_t *h = json_object(), *a;
	unsigned int i;

	json_object_set_new(h, "id", idl_json_string(s->id));
	json_object_set_new(h, "cells_total", json_integer((json_int_t)s->ncell));
	a = json_array();
	for (i = 0; i < s->nconf; i++)
		json_array_append_new(a, idl_json_string(s->conf[i].gov.spec));
	json_object_set_new(h, "configs", a);
	a = json_array();
	for (i = 0; i < s->ntrace; i++)
		json_array_append_new(a, idl_json_string(s->traces[i]));
	json_object_set_new(h, "traces", a);
	a = json_array();
	for (i = 0; i < s->ntable; i++)
		json_array_append_new(a, idl_json_string(s->tables[i]));
	json_object_set_new(h, "tables", a);
	if (o->nshard)
		json_object_set_new(h, "shard", json_pack("{s:i, s:i}",
				    "index", o->shard, "count", o->nshard));
	return h;
}

/* The opening of the results, up to the first cell. */
static int write_head(FILE *f, const struct sweep *s,
		      const struct sweep_run_opts *o)
{
	json_t *h = sweep_header(s, o);
	char created[32], *text;
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	text = json_dumps(h, JSON_FLAGS);
	json_decref(h);
	if (!text)
		return -1;
	fprintf(f, "{\"format\": \"idlelab-results\", \"version\": 1, "
		"\"kind\": \"sweep\", \"tool\": \"idlelab %s\", "
		"\"created\": \"%s\",\n\"sweep\": %s,\n\"cells\": [",
		PACKAGE_VERSION, created, text);
	free(text);
	return 0;
}

/* Does @g run with its governor's defaults (whether named or not)? */
static bool at_defaults(const struct idl_governor *g)
{
	int i;

	for (i = 0; g->ops->params && g->ops->params[i].name &&
		    i < IDL_GOV_MAX_PARAMS; i++)
		if (g->param[i] != g->ops->params[i].def)
			return false;
	return true;
}

static int write_cell(FILE *f, const struct sweep *s, size_t i,
		      const struct replay_trace *tr, int gi, bool *first)
{
	const struct sweep_cell *c = &s->cell[i];
	json_t *o;
	char *text;

	/* as replayed: the live governor without tunables ran with the
	 * capture's, which need not be the defaults */
	/* paths and names may be any bytes: idl_json_string() takes them */
	o = json_pack("{s:I, s:o, s:b, s:o, s:o, s:o, s:b, s:s, s:o}",
		      "index", (json_int_t)i,
		      "config", idl_json_string(s->conf[c->conf].gov.spec),
		      "defaults", at_defaults(&tr->setup.gov[gi]),
		      "trace", idl_json_string(s->traces[c->trace]),
		      "table", idl_json_string(s->tables[c->table]),
		      "table_name", idl_json_string(tr->setup.table.name),
		      "own_table", tr->setup.own_table,
		      "energy_unit", tr->energy.unit,
		      "results", replay_json_column(tr, gi));
	/* the periods before the damage were replayed, as by replay */
	if (o && tr->damage[0])
		json_object_set_new(o, "damage", idl_json_string(tr->damage));
	text = o ? json_dumps(o, JSON_FLAGS) : NULL;
	json_decref(o);
	if (!text)
		return -1;
	fprintf(f, "%s\n%s", *first ? "" : ",", text);
	*first = false;
	free(text);
	return 0;
}

struct batch {
	size_t	cell[REPLAY_MAX_GOV];
	int	n;
	bool	tell_damage;	/* the first batch of its trace and table */
};

/* Replay one batch of configurations over one trace on one table. */
static int run_batch(const struct sweep *s, const struct sweep_run_opts *so,
		     const struct batch *b, FILE *f, bool *first,
		     bool *failed, struct idl_err *err)
{
	const struct sweep_cell *c0 = &s->cell[b->cell[0]];
	struct replay_opts o;
	struct replay_run run;
	char *path = s->traces[c0->trace];
	int k, ret;

	memset(&o, 0, sizeof(o));
	o.latency_req = -1;
	o.merge_gap_ns = REPLAY_DEFAULT_MERGE_GAP_NS;
	o.jobs = so->jobs;
	o.explain_cpu = -1;
	o.plugin_timeout = so->plugin_timeout;
	if (c0->table)
		o.machine = s->tables[c0->table];
	for (k = 0; k < b->n; k++) {
		const struct sweep_config *cf = &s->conf[s->cell[b->cell[k]].conf];

		o.gov[k] = cf->gov;
		o.gov_has_params[k] = cf->has_params;
	}
	o.ngov = b->n;
	ret = replay_run(&run, &o, &path, 1, err);
	if (!ret && run.tr[0].damage[0] && b->tell_damage)
		idl_warn("%s", run.tr[0].damage);
	for (k = 0; !ret && k < b->n; k++) {
		if (run.tr[0].failed[k])
			*failed = true;
		if (write_cell(f, s, b->cell[k], &run.tr[0], k, first))
			ret = idl_err_set(err, IDL_EXIT_FAILURE,
					  "cannot write the results");
	}
	replay_run_free(&run);
	return ret;
}

int sweep_run(const struct sweep *s, const struct sweep_run_opts *o,
	      FILE *f, struct idl_err *err)
{
	struct progress p = { o->progress, false, idl_mono_s(), 0,
			      sweep_shard_cells(s, o->shard, o->nshard) };
	bool first = true, failed = false;
	struct batch b = { .n = 0 };
	const struct sweep_cell *told = NULL;
	size_t i;
	int ret = 0;

	if (write_head(f, s, o))
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	for (i = 0; i <= s->ncell && !ret; i++) {
		bool flush = b.n && (i == s->ncell || b.n == REPLAY_MAX_GOV ||
			s->cell[i].trace != s->cell[b.cell[0]].trace ||
			s->cell[i].table != s->cell[b.cell[0]].table);

		if (flush) {
			/* a trace's batches come in a row */
			b.tell_damage = !told || s->cell[b.cell[0]].trace !=
					told->trace || s->cell[b.cell[0]].table !=
					told->table;
			told = &s->cell[b.cell[0]];
			ret = run_batch(s, o, &b, f, &first, &failed, err);
			p.done += (size_t)b.n;
			show_progress(&p);
			b.n = 0;
		}
		if (i < s->ncell && sweep_in_shard(i, o->shard, o->nshard))
			b.cell[b.n++] = i;
	}
	if (p.shown)
		fputs("\r\033[K", stderr);
	if (ret)
		return ret;
	fputs("\n]}\n", f);
	return failed ? 1 : 0;
}
