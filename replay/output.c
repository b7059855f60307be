// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Replay results: CSV (one number per row) and JSON
 * (doc/results-format.md, kind "replay"); the text scorecard is in
 * output-text.c.
 * CSV and JSON carry every number through one visitor, so they cannot
 * drift apart; doc/scoring.md defines each name.
 */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "events.h"
#include "output.h"
#include "text.h"

static const char *const vs_key[REPLAY_NVS] = {
	"same", "too_deep", "too_shallow"
};

static double energy_of_score(const struct replay_trace *tr,
			      const struct replay_score *sc)
{
	return replay_energy_of(&tr->energy, sc->entries, sc->residency_ns,
				tr->setup.table.count);
}

static double oracle_energy(const struct replay_trace *tr,
			    const struct replay_workload *wl)
{
	return replay_energy_of(&tr->energy, wl->oracle_entries,
				wl->oracle_res, tr->setup.table.count);
}

#define EI(m, k, v)	emit(ctx, m, k, (double)(v), true)
#define ED(m, k, v)	emit(ctx, m, k, (v), false)

static void visit_latency(const struct replay_trace *tr,
			  const struct replay_score *sc, emit_fn emit,
			  void *ctx)
{
	struct replay_latency l;
	char key[64];
	int c;

	for (c = 0; c <= REPLAY_NCAUSE; c++) {
		const char *k = c == REPLAY_NCAUSE ? "all" : replay_cause_name(c);

		replay_latency_of(&tr->setup, sc, c, &l);
		if (!l.n && c != REPLAY_NCAUSE)
			continue;
		EI("wakeups", k, l.n);
		EI("latency_total_ns", k, l.total_ns);
		/* no wakeup: no mean, no percentiles */
		ED("latency_mean_ns", k, l.n ? l.mean_ns : NAN);
		emit(ctx, "latency_p50_ns", k, l.n ? (double)l.p50_ns : NAN,
		     true);
		emit(ctx, "latency_p99_ns", k, l.n ? (double)l.p99_ns : NAN,
		     true);
		emit(ctx, "latency_max_ns", k, l.n ? (double)l.max_ns : NAN,
		     true);
	}
	for (c = 0; c < REPLAY_NCAUSE; c++) {
		int v;

		for (v = 0; v < REPLAY_NVS; v++) {
			if (!sc->vs_cause[v][c])
				continue;
			snprintf(key, sizeof(key), "%s/%s", replay_cause_name(c),
				 vs_key[v]);
			EI("vs_oracle_by_cause", key, sc->vs_cause[v][c]);
		}
	}
	EI("latency_excess_ns", NULL, sc->excess_lat_ns);
	EI("latency_req_violations", NULL, sc->lat_violations);
}

/* "internals": NAME/KEY -> the SUM, or the mean over CPUs of a LAST */
static void visit_internals(const struct replay_stats *st, emit_fn emit,
			    void *ctx)
{
	char key[IDL_STAT_NAME_LEN + IDL_STAT_KEY_LEN + 1];
	u32 i;

	for (i = 0; i < st->n; i++) {
		const struct replay_stat *x = &st->s[i];

		snprintf(key, sizeof(key), "%s%s%s", x->name,
			 x->key[0] ? "/" : "", x->key);
		if (x->kind == IDL_STAT_LAST)
			ED("internals", key, x->cpus ?
			   (double)x->value / x->cpus : NAN);
		else
			EI("internals", key, x->value);
	}
	if (st->dropped)
		EI("internals_dropped", NULL, st->dropped);
}

static void visit_score(const struct replay_trace *tr,
			const struct replay_score *sc,
			const struct replay_workload *wl, emit_fn emit,
			void *ctx)
{
	const struct cstate_table *t = &tr->setup.table;
	u64 above = 0, below = 0, vs[REPLAY_NVS] = { 0 };
	double e = energy_of_score(tr, sc), eo = oracle_energy(tr, wl);
	char key[64];
	int i, v;

	EI("selects", NULL, sc->selects);
	EI("sleep_length_exact", NULL, sc->sleep_exact);
	EI("sleep_length_estimated", NULL, sc->selects - sc->sleep_exact);
	EI("delta_tick_exact", NULL, sc->tick_exact);
	EI("delta_tick_estimated", NULL, sc->selects - sc->tick_exact);
	EI("invalid_selections", NULL, sc->invalid);
	for (i = 0; i < t->count; i++) {
		const char *n = t->states[i].name;

		above += sc->above[i];
		below += sc->below[i];
		EI("entries", n, sc->entries[i]);
		EI("residency_ns", n, sc->residency_ns[i]);
		ED("residency_pct", n, replay_pct(sc->residency_ns[i], wl->idle_ns));
		EI("above", n, sc->above[i]);
		EI("below", n, sc->below[i]);
		EI("segment_histogram", n, sc->seg_hist[i]);
		for (v = 0; v < REPLAY_NVS; v++) {
			vs[v] += sc->vs[v][i];
			snprintf(key, sizeof(key), "%s/%s", n, vs_key[v]);
			EI("vs_oracle_by_state", key, sc->vs[v][i]);
		}
	}
	EI("above_total", NULL, above);
	EI("below_total", NULL, below);
	ED("above_pct", NULL, replay_pct(above, sc->selects));
	ED("below_pct", NULL, replay_pct(below, sc->selects));
	for (v = 0; v < REPLAY_NVS; v++) {
		EI("vs_oracle", vs_key[v], vs[v]);
		snprintf(key, sizeof(key), "%s_pct", vs_key[v]);
		ED("vs_oracle", key, replay_pct(vs[v], sc->selects));
	}
	visit_latency(tr, sc, emit, ctx);
	ED("energy", NULL, e);
	ED("energy_regret_pct", NULL, eo > 0 ? 100.0 * (e - eo) / eo : NAN);
	EI("tick_wakeups", NULL, sc->tick_wakeups);
	EI("poll_limit_wakeups", NULL, sc->poll_limits);
	EI("tick_stops", NULL, sc->tick_stops);
	EI("tick_stops_short", NULL, sc->short_tick_stops);
	EI("tick_stops_denied", NULL, sc->stop_denied);
	EI("agreement_entries", NULL, sc->agree_n);
	EI("agreement_warmup", NULL, sc->agree_warmup);
	EI("agreement_same", NULL, sc->agree_same);
	EI("agreement_kernel_faster", NULL, sc->agree_faster);
	ED("agreement_pct", NULL, sc->agree_n ?
	   replay_pct(sc->agree_same, sc->agree_n) : NAN);
	EI("agreement_tick_stops", NULL, sc->agree_tick_n);
	EI("agreement_tick_same", NULL, sc->agree_tick_same);
	ED("agreement_tick_pct", NULL, sc->agree_tick_n ?
	   replay_pct(sc->agree_tick_same, sc->agree_tick_n) : NAN);
	EI("miss_entries", NULL, sc->miss_n);
	for (i = 0; i < 3; i++)
		for (v = 0; v < 3; v++) {
			snprintf(key, sizeof(key), "kernel_%s/replay_%s",
				 replay_miss_name[i], replay_miss_name[v]);
			EI("miss_matrix", key, sc->miss[i][v]);
		}
	ED("miss_agreement_pct", NULL, sc->miss_n ?
	   replay_pct(sc->miss[0][0] + sc->miss[1][1] + sc->miss[2][2], sc->miss_n) :
	   NAN);
	visit_internals(&sc->internals, emit, ctx);
}

/* A column that failed (a plugin's) has every number undefined. */
struct nan_ctx {
	emit_fn	emit;
	void	*ctx;
};

static void nan_emit(void *p, const char *metric, const char *key, double v,
		     bool is_int)
{
	const struct nan_ctx *n = p;

	(void)v;
	n->emit(n->ctx, metric, key, NAN, is_int);
}

void replay_visit_column(const struct replay_trace *tr, int gi,
			 const struct replay_score *sc,
			 const struct replay_workload *wl, emit_fn emit,
			 void *ctx)
{
	struct nan_ctx n = { emit, ctx };

	if (tr->failed[gi])
		visit_score(tr, sc, wl, nan_emit, &n);
	else
		visit_score(tr, sc, wl, emit, ctx);
}

static void visit_workload(const struct replay_trace *tr,
			   const struct replay_workload *wl, emit_fn emit,
			   void *ctx)
{
	const struct cstate_table *t = &tr->setup.table;
	int i;

	EI("recorded_periods", NULL, wl->recorded);
	EI("idle_periods", NULL, wl->merged);
	EI("skipped_periods", NULL, wl->bad);
	EI("idle_ns", NULL, wl->idle_ns);
	for (i = 0; i < WAKE_CAUSE_COUNT; i++)
		EI("wake_cause", replay_cause_name(i), wl->cause[i]);
	for (i = 0; i < t->count; i++)
		EI("idle_histogram", t->states[i].name, wl->hist[i]);
	EI("sleep_length_exact", NULL, wl->sleep_exact);
	EI("delta_tick_exact", NULL, wl->tick_exact);
	for (i = 0; i < t->count; i++)
		EI("oracle_entries", t->states[i].name, wl->oracle_entries[i]);
	EI("oracle_latency_total_ns", NULL, wl->oracle_lat_ns);
	ED("oracle_energy", NULL, oracle_energy(tr, wl));
	EI("recorded_states", NULL, wl->known_state);
	EI("parts_not_kept", NULL, wl->parts_dropped);
	EI("kernel_above", NULL, wl->kernel_above);
	EI("kernel_below", NULL, wl->kernel_below);
	EI("latency_req_recorded", NULL, wl->qos_periods);
}

/* ---------------------------------------------------------------- CSV */

struct csv_ctx {
	FILE		*f;
	const char	*trace, *cpu, *gov;
};

static void csv_emit(void *p, const char *metric, const char *key, double v,
		     bool is_int)
{
	struct csv_ctx *c = p;

	idl_csv_text(c->f, c->trace, false);
	fprintf(c->f, ",%s,", c->cpu);
	idl_csv_text(c->f, c->gov, false);
	fputc(',', c->f);
	idl_csv_text(c->f, metric, false);
	fputc(',', c->f);
	idl_csv_text(c->f, key ? key : "", false);
	fputc(',', c->f);
	if (isnan(v))
		fputc('\n', c->f);	/* not defined: empty */
	else if (is_int)
		fprintf(c->f, "%.0f\n", v);
	else
		fprintf(c->f, "%.6f\n", v);
}

static void write_csv(FILE *f, const struct replay_run *run, bool per_cpu)
{
	struct csv_ctx c = { f, NULL, NULL, NULL };
	char cpu[16];
	unsigned int u;
	int t, gi;

	fprintf(f, "trace,cpu,governor,metric,key,value\n");
	for (t = 0; t < run->ntrace; t++) {
		const struct replay_trace *tr = &run->tr[t];

		c.trace = tr->shown;
		c.cpu = "all";
		c.gov = "workload";
		visit_workload(tr, &tr->wl, csv_emit, &c);
		for (gi = 0; gi < tr->setup.ngov; gi++) {
			c.gov = tr->setup.gov[gi].spec;
			replay_visit_column(tr, gi, &tr->total[gi], &tr->wl, csv_emit,
				     &c);
		}
		if (!per_cpu)
			continue;
		for (u = 0; u < tr->ncpu; u++) {
			const struct replay_cpu_result *r = &tr->cpus[u];

			if (!r->wl.recorded)
				continue;
			snprintf(cpu, sizeof(cpu), "%u", r->cpu);
			c.cpu = cpu;
			c.gov = "workload";
			visit_workload(tr, &r->wl, csv_emit, &c);
			for (gi = 0; gi < tr->setup.ngov; gi++) {
				c.gov = tr->setup.gov[gi].spec;
				replay_visit_column(tr, gi, &r->sc[gi], &r->wl,
					     csv_emit, &c);
			}
		}
	}
}

/* --------------------------------------------------------------- JSON */

static void json_emit(void *p, const char *metric, const char *key,
		      double v, bool is_int)
{
	json_t *obj = p, *sub, *val = !isfinite(v) ? json_null() :
		is_int ? json_integer((json_int_t)v) : json_real(v);

	if (!key) {
		json_object_set_new(obj, metric, val);
		return;
	}
	sub = json_object_get(obj, metric);
	if (!sub) {
		sub = json_object();
		json_object_set_new(obj, metric, sub);
	}
	json_object_set_new(sub, key, val);
}

static json_t *json_table(const struct replay_trace *tr)
{
	const struct cstate_table *t = &tr->setup.table;
	json_t *a = json_array();
	int i;

	for (i = 0; i < t->count; i++)
		json_array_append_new(a, json_pack(
			"{s:s, s:I, s:I, s:b, s:o, s:o}",
			"name", t->states[i].name,
			"exit_latency_ns", (json_int_t)t->states[i].exit_latency_ns,
			"target_residency_ns",
			(json_int_t)t->states[i].target_residency_ns,
			"disabled", t->states[i].disabled,
			"model_power", idl_json_number(tr->energy.p[i]),
			"model_entry_cost", idl_json_number(tr->energy.e[i])));
	return a;
}

json_t *replay_json_column(const struct replay_trace *tr, int gi)
{
	const struct replay_setup *s = &tr->setup;
	char params[IDL_GOV_SPEC_LEN];
	json_t *g = json_object();

	replay_visit_column(tr, gi, &tr->total[gi], &tr->wl, json_emit, g);
	if (tr->failed[gi])
		json_object_set_new(g, "error",
				    idl_json_string(tr->failed[gi]));
	json_object_set_new(g, "live_at_capture", json_boolean(s->follows[gi]));
	json_object_set_new(g, "capture_tunables",
			    json_boolean(s->capture_tunables[gi]));
	idl_governor_params(&s->gov[gi], params, sizeof(params));
	json_object_set_new(g, "tunables", idl_json_string(params));
	return g;
}

static json_t *json_trace(const struct replay_trace *tr, bool per_cpu)
{
	const struct replay_setup *s = &tr->setup;
	json_t *o = json_object(), *govs = json_object(), *wl = json_object();
	json_t *cpus;
	unsigned int u;
	int gi;

	json_object_set_new(o, "file", idl_json_string(tr->path));
	json_object_set_new(o, "table", idl_json_string(s->table.name));
	json_object_set_new(o, "own_table", json_boolean(s->own_table));
	json_object_set_new(o, "states", json_table(tr));
	json_object_set_new(o, "tick_nsec", json_integer(s->tick_nsec));
	json_object_set_new(o, "own_hz", json_boolean(s->own_hz));
	json_object_set_new(o, "latency_req_ns",
			    json_integer(s->latency_req));
	json_object_set_new(o, "merge_gap_ns", json_integer(s->merge_gap_ns));
	json_object_set_new(o, "energy_model", idl_json_string(
		tr->energy.model == REPLAY_ENERGY_TABLE ? "table" : "derived"));
	json_object_set_new(o, "energy_unit", idl_json_string(tr->energy.unit));
	json_object_set_new(o, "energy_transition_scale",
			    idl_json_number(tr->energy.kappa));
	json_object_set_new(o, "live_governor", idl_json_string(tr->meta.governor));
	json_object_set_new(o, "live_tunables",
			    idl_json_string(tr->meta.governor_params));
	if (tr->damage[0])
		json_object_set_new(o, "damage", idl_json_string(tr->damage));
	visit_workload(tr, &tr->wl, json_emit, wl);
	json_object_set_new(o, "workload", wl);
	for (gi = 0; gi < s->ngov; gi++)
		json_object_set_new(govs, s->gov[gi].spec,
				    replay_json_column(tr, gi));
	json_object_set_new(o, "governors", govs);
	if (!per_cpu)
		return o;
	cpus = json_array();
	for (u = 0; u < tr->ncpu; u++) {
		const struct replay_cpu_result *r = &tr->cpus[u];
		json_t *c = json_object(), *cw = json_object(),
		       *cg = json_object();

		if (!r->wl.recorded) {
			json_decref(c);
			json_decref(cw);
			json_decref(cg);
			continue;
		}
		json_object_set_new(c, "cpu", json_integer(r->cpu));
		visit_workload(tr, &r->wl, json_emit, cw);
		json_object_set_new(c, "workload", cw);
		for (gi = 0; gi < s->ngov; gi++) {
			json_t *g = json_object();

			replay_visit_column(tr, gi, &r->sc[gi], &r->wl, json_emit,
				     g);
			json_object_set_new(cg, s->gov[gi].spec, g);
		}
		json_object_set_new(c, "governors", cg);
		json_array_append_new(cpus, c);
	}
	json_object_set_new(o, "cpus", cpus);
	return o;
}

/* One results-format benchmark row: @metric of every governor. */
struct bench_metric {
	const char	*name, *unit;
	bool		higher_is_better;
	bool		only_some;	/* the live governor's column only */
};

static const struct bench_metric bench_metrics[] = {
	{ "energy", NULL, false, false },
	{ "energy_regret_pct", "%", false, false },
	{ "above_pct", "%", false, false },
	{ "below_pct", "%", false, false },
	{ "latency_mean_ns", "ns", false, false },
	{ "latency_p99_ns", "ns", false, false },
	{ "tick_wakeups", "count", false, false },
	{ "agreement_pct", "%", true, true },
};

static json_t *json_lookup(json_t *g, const char *metric)
{
	json_t *v = json_object_get(g, metric);

	if (json_is_object(v))		/* per-cause: take "all" */
		v = json_object_get(v, "all");
	return v;
}

/*
 * A trace's case in the benchmark rows: its file name without ".idl",
 * "@TABLE" on a what-if table, "#N" (its place) when an earlier trace
 * already has that name.  Traces are different workloads, never runs of
 * one (doc/compare.md).
 */
#define CASE_LEN	64

/* The case of trace @t, once the cases of the traces before it are known. */
static void bench_case(const struct replay_run *run, int t,
		       char (*cases)[CASE_LEN])
{
	const struct replay_trace *tr = &run->tr[t];
	const char *base = strrchr(tr->path, '/');
	char *buf = cases[t];
	size_t n, i;
	int u;

	base = base ? base + 1 : tr->path;
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".idl"))
		n -= 4;
	snprintf(buf, CASE_LEN, "%.*s", (int)(n < 40 ? n : 40), base);
	if (!tr->setup.own_table) {
		n = strlen(buf);
		snprintf(buf + n, CASE_LEN - n, "@%.16s", tr->setup.table.name);
	}
	for (i = 0; buf[i]; i++)
		if (buf[i] == ' ')
			buf[i] = '_';
	for (u = 0; u < t; u++) {
		if (!strcmp(cases[u], buf)) {
			n = strlen(buf);
			snprintf(buf + n, CASE_LEN - n, "#%d", t + 1);
			break;
		}
	}
}

/*
 * One row per (metric, trace), one value (run) per governor
 * (results-format.md).  A trace with several cases of the same name
 * gets them numbered, so each is compared only with itself.
 */
static json_t *json_benchmarks(const struct replay_run *run, json_t *traces)
{
	const struct replay_trace *tr0 = &run->tr[0];
	char (*cases)[CASE_LEN] = calloc((size_t)run->ntrace, CASE_LEN);
	json_t *a = json_array(), *row;
	size_t m;
	int t, gi;

	if (!cases)
		return a;
	for (t = 0; t < run->ntrace; t++)
		bench_case(run, t, cases);
	for (m = 0; m < sizeof(bench_metrics) / sizeof(bench_metrics[0]); m++) {
		for (t = 0; t < run->ntrace; t++) {
			json_t *vals = json_object(), *govs = json_object_get(
				json_array_get(traces, (size_t)t), "governors");

			for (gi = 0; gi < tr0->setup.ngov; gi++) {
				const char *spec = tr0->setup.gov[gi].spec;
				json_t *v = json_lookup(json_object_get(govs,
					spec), bench_metrics[m].name);

				json_object_set_new(vals, spec, json_pack(
					"[O]", v ? v : json_null()));
			}
			row = json_pack("{s:s, s:o, s:s, s:s, s:b, s:o}",
				"name", "replay", "case",
				idl_json_string(cases[t]),
				"metric", bench_metrics[m].name,
				"unit", bench_metrics[m].unit ?
					bench_metrics[m].unit :
					run->tr[t].energy.unit,
				"higher_is_better",
				bench_metrics[m].higher_is_better,
				"values", vals);
			if (bench_metrics[m].only_some)
				json_object_set_new(row, "only_some",
						    json_true());
			json_array_append_new(a, row);
		}
	}
	free(cases);
	return a;
}

/* Does @tr replay on the same table as @tr0 (same name and states)? */
static bool same_table(const struct replay_trace *tr0,
		       const struct replay_trace *tr)
{
	const struct cstate_table *a = &tr0->setup.table, *b = &tr->setup.table;
	int i;

	if (strcmp(a->name, b->name) || a->count != b->count ||
	    strcmp(tr0->energy.unit, tr->energy.unit))
		return false;
	for (i = 0; i < a->count; i++)
		if (strcmp(a->states[i].name, b->states[i].name))
			return false;
	return true;
}

/* Column @gi pooled over the traces on @tr0's table: sums, then rates. */
static json_t *json_idle_column(const struct replay_run *run, int gi,
				int *ntraces)
{
	const struct replay_trace *tr0 = &run->tr[0];
	const struct cstate_table *tab = &tr0->setup.table;
	u64 above = 0, below = 0, selects = 0, idle_ns = 0;
	u64 res[CSTATE_MAX] = { 0 };
	double energy = 0;
	json_t *rp = json_object();
	int t, i;

	*ntraces = 0;
	for (t = 0; t < run->ntrace; t++) {
		const struct replay_trace *tr = &run->tr[t];
		const struct replay_score *sc = &tr->total[gi];

		if (!same_table(tr0, tr))
			continue;
		(*ntraces)++;
		selects += sc->selects;
		idle_ns += tr->wl.idle_ns;
		energy += energy_of_score(tr, sc);
		for (i = 0; i < tab->count; i++) {
			above += sc->above[i];
			below += sc->below[i];
			res[i] += sc->residency_ns[i];
		}
	}
	for (i = 0; i < tab->count; i++)
		json_object_set_new(rp, tab->states[i].name,
				    idl_json_number(replay_pct(res[i], idle_ns)));
	return json_pack("{s:o, s:o, s:o, s:{s:o, s:s, s:b, s:s}}",
		"above_pct", idl_json_number(replay_pct(above, selects)),
		"below_pct", idl_json_number(replay_pct(below, selects)),
		"residency_pct", rp, "energy", "value",
		idl_json_number(energy), "unit", tr0->energy.unit,
		"modelled", true, "model",
		tr0->energy.model == REPLAY_ENERGY_TABLE ? "table" : "derived");
}

/*
 * results-format "idle" block: every trace replayed on the first trace's
 * table, pooled (entries and time summed, then divided); "idle_scope"
 * says which.
 */
static json_t *json_idle(const struct replay_run *run, char *scope,
			 size_t len)
{
	const struct replay_trace *tr0 = &run->tr[0];
	json_t *idle = json_object();
	int gi, n = 0;

	for (gi = 0; gi < tr0->setup.ngov; gi++)
		json_object_set_new(idle, tr0->setup.gov[gi].spec,
				    json_idle_column(run, gi, &n));
	snprintf(scope, len, "%d of %d trace%s pooled, on %s", n,
		 run->ntrace, run->ntrace == 1 ? "" : "s",
		 tr0->setup.table.name);
	return idle;
}

static int write_json(FILE *f, const struct replay_run *run, bool per_cpu)
{
	const struct replay_trace *tr0 = &run->tr[0];
	json_t *root, *traces = json_array(), *configs = json_array(), *idle;
	char created[32], scope[160];
	time_t now = time(NULL);
	struct tm tm;
	int t, gi, ret;

	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (t = 0; t < run->ntrace; t++)
		json_array_append_new(traces, json_trace(&run->tr[t], per_cpu));
	for (gi = 0; gi < tr0->setup.ngov; gi++)
		json_array_append_new(configs,
				      idl_json_string(tr0->setup.gov[gi].spec));
	idle = json_idle(run, scope, sizeof(scope));
	root = json_pack("{s:s, s:i, s:s, s:s, s:s, s:{s:s, s:s, s:s, s:s, s:I},"
			 " s:o, s:o, s:o, s:o, s:o}",
		"format", "idlelab-results", "version", 1, "kind", "replay",
		"tool", "idlelab " PACKAGE_VERSION, "created", created,
		"machine", "kernel", tr0->meta.kernel,
		"driver", tr0->meta.driver, "table", tr0->setup.table.name,
		"cpu_model", tr0->setup.table.description,
		"nr_cpus", (json_int_t)tr0->meta.nr_cpus,
		"configs", configs,
		"benchmarks", json_benchmarks(run, traces),
		"idle", idle, "idle_scope", idl_json_string(scope),
		"replay", json_pack("{s:o}", "traces", traces));
	if (!root)
		return -1;
	ret = json_dumpf(root, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(root);
	return ret;
}

int replay_write(FILE *f, const struct replay_run *run,
		 enum replay_format fmt, bool per_cpu)
{
	int t;

	switch (fmt) {
	case REPLAY_CSV:
		write_csv(f, run, per_cpu);
		break;
	case REPLAY_JSON:
		if (write_json(f, run, per_cpu))
			return -1;
		break;
	default:
		for (t = 0; t < run->ntrace; t++)
			replay_text_card(f, &run->tr[t]);
		break;
	}
	return ferror(f) ? -1 : 0;
}
