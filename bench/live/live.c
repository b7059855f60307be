// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run loop of `idlelab live`.  For every repetition, for every
 * governor (round robin, optionally shuffled), for every benchmark:
 * switch and verify the governor, warm up, snapshot the kernel's
 * counters, run the benchmark, snapshot again, and save the run.  The
 * results file is rewritten atomically after every run, so a stopped
 * session still leaves what it measured.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "host.h"
#include "live.h"
#include "measure.h"

#include "record.h"
#include "text.h"

/* What is accumulated per governor for the "idle" section. */
struct gov_acc {
	int	n;
	double	above, below, idle, energy;
	double	res_us[CSTATE_MAX], idle_us;	/* summed state times */
	bool	energy_modelled;
	char	energy_unit[16];
};

struct live_ctx {
	const struct live_opts	*o;
	json_t			*doc, *benchmarks, *index;
	struct gov_acc		acc[IDLECTL_MAX_GOVS];
	struct perfctr		perf;
	bool			perf_ok;
	struct idl_err		perf_err;	/* why not perf_ok */
	struct rapl		rapl;
	int			run_no, total_runs;
	int			missing_runs;	/* discarded every time */
	char			runs_dir[4096];
	char			results[4096];
};


/* xorshift32: small, and the same sequence on every libc. */
static unsigned int xorshift(unsigned int *s)
{
	unsigned int x = *s ? *s : 0x9e3779b9u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

void live_plan_order(int nr_govs, int rep, bool shuffle, unsigned int seed,
		     int *order)
{
	unsigned int s = seed * 2654435761u + (unsigned int)rep * 40503u + 1;
	int i;

	for (i = 0; i < nr_govs; i++)
		order[i] = i;
	if (!shuffle)
		return;
	for (i = nr_govs - 1; i > 0; i--) {
		int j = (int)(xorshift(&s) % (unsigned int)(i + 1));
		int t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

static int write_json(FILE *f, void *doc, struct idl_err *err)
{
	(void)err;
	if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			       JSON_REAL_PRECISION(10)))
		return -1;
	return fputc('\n', f) == EOF ? -1 : 0;
}

int live_write_json(const char *path, json_t *doc, struct idl_err *err)
{
	return idl_write_atomic(path, write_json, doc, err);
}

/* ------------------------------------------------------------ metadata */

static json_t *machine_meta(const struct live_opts *o,
			    const struct idle_snapshot *s)
{
	char driver[64], model[256], path[4200];
	struct utsname u;
	json_t *m, *states = json_array();
	int i;

	uname(&u);
	snprintf(path, sizeof(path), "%s/cpuidle/current_driver", o->root);
	if (idl_read_str(path, driver, sizeof(driver)))
		driver[0] = '\0';
	model[0] = '\0';
	idl_read_field("/proc/cpuinfo", "model name", model, sizeof(model));
	for (i = 0; i < s->nr_states; i++)
		json_array_append_new(states, json_pack(
			"{s:s, s:I, s:I}", "name", s->info[i].name,
			"exit_latency_us", (json_int_t)s->info[i].exit_latency_us,
			"target_residency_us",
			(json_int_t)s->info[i].target_residency_us));
	m = json_pack("{s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:o}",
		      "kernel", u.release, "driver", driver,
		      "table", "this machine", "cpu_model", model,
		      "nr_cpus", s->nr_present, "machine", u.machine,
		      "sysfs_root", o->root, "states", states);
	return m;
}

static json_t *new_doc(const struct live_opts *o,
		       const struct idle_snapshot *s)
{
	char created[32];
	time_t now = time(NULL);
	json_t *configs = json_array(), *benches = json_array();
	int i;

	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ",
		 gmtime(&now));
	for (i = 0; i < o->nr_govs; i++)
		json_array_append_new(configs, idl_json_string(o->govs[i]));
	for (i = 0; i < o->nr_bench; i++)
		json_array_append_new(benches, idl_json_string(o->bench[i].spec));
	return json_pack("{s:s, s:i, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:s, s:{"
			 "s:o, s:i, s:o, s:o, s:b, s:I, s:b, s:b, s:I, s:s, s:b}}",
			 "format", "idlelab-results", "version", 1,
			 "kind", "live", "tool", "idlelab " PACKAGE_VERSION,
			 "created", created, "machine", machine_meta(o, s),
			 "configs", configs, "benchmarks", json_array(),
			 "idle", json_object(),
			 "idle_scope", o->nr_bench > 1 ?
				"per run, the mean over every run of every "
				"benchmark" : "per run, the mean over every run",
			 "live", "bench_specs", benches, "runs", o->runs,
			 "warmup_s", idl_json_number(o->warmup_s),
			 "duration_s", idl_json_number(o->duration_s),
			 "shuffled", o->shuffle, "seed",
			 (json_int_t)o->seed, "record", o->record,
			 "probe_inputs", o->probe_inputs,
			 "latency_limit_us", (json_int_t)o->latency_limit_us,
			 "governor_at_start", o->initial_governor,
			 /* until the last run: a results file written
			  * between runs says it is partial */
			 "complete", false);
}

/* -------------------------------------------------- results aggregation */

static json_t *bench_entry(struct live_ctx *c, const char *bench,
			   const char *case_name, const char *metric,
			   const char *unit, bool higher)
{
	char key[512];
	json_t *e, *values;
	int i;

	snprintf(key, sizeof(key), "%s|%s|%s", bench, case_name, metric);
	e = json_object_get(c->index, key);
	if (e)
		return e;
	values = json_object();
	for (i = 0; i < c->o->nr_govs; i++)
		json_object_set_new(values, c->o->govs[i], json_array());
	e = json_pack("{s:s, s:s, s:s, s:s, s:b, s:o}", "name", bench,
		      "case", case_name, "metric", metric, "unit", unit,
		      "higher_is_better", higher, "values", values);
	json_array_append_new(c->benchmarks, e);
	json_object_set(c->index, key, e);
	return e;
}

static void add_value(struct live_ctx *c, const char *bench,
		      const struct bench_metric *m, const char *gov)
{
	json_t *e = bench_entry(c, bench, m->case_name, m->name, m->unit,
				m->higher_is_better);

	json_array_append_new(json_object_get(json_object_get(e, "values"),
					      gov), idl_json_number(m->value));
}

static void update_idle(struct live_ctx *c, int g,
			const struct idle_snapshot *d)
{
	struct gov_acc *a = &c->acc[g];
	json_t *res = json_object(), *idle;
	int st;

	/* residency over all runs, weighted by idle time */
	for (st = 0; st < d->nr_states; st++)
		json_object_set_new(res, d->info[st].name, idl_json_number(
			a->idle_us > 0 ? 100.0 * a->res_us[st] / a->idle_us :
			0));
	idle = json_pack("{s:o, s:o, s:o, s:o, s:{s:o, s:s, s:b}, s:i}",
			 "above_pct", idl_json_number(a->above / a->n),
			 "below_pct", idl_json_number(a->below / a->n),
			 "idle_pct", idl_json_number(a->idle / a->n),
			 "residency_pct", res,
			 "energy", "value", idl_json_number(a->energy / a->n),
			 "unit", a->energy_unit,
			 "modelled", a->energy_modelled, "runs", a->n);
	json_object_set_new(json_object_get(c->doc, "idle"), c->o->govs[g],
			    idle);
}

/* ------------------------------------------------------------ --record
 * trace_record() blocks and takes SIGINT/SIGTERM for itself while it
 * runs, so it runs in a child process: our own signal handling stays
 * intact, and SIGTERM to the child is how a run's recording ends (the
 * child also gets SIGTERM if we die).
 */
static bool instance_of(pid_t pid)
{
	static const char *const dirs[] = { "/sys/kernel/tracing/instances",
		"/sys/kernel/debug/tracing/instances" };
	char prefix[64];
	struct dirent *de;
	bool found = false;
	size_t i;

	snprintf(prefix, sizeof(prefix), "idlelab-record-%d-", (int)pid);
	for (i = 0; i < 2 && !found; i++) {
		DIR *d = opendir(dirs[i]);

		while (d && (de = readdir(d)))
			if (!strncmp(de->d_name, prefix, strlen(prefix)))
				found = true;
		if (d)
			closedir(d);
	}
	return found;
}

static void recorder_stop_early(int sig)
{
	(void)sig;
	trace_record_stop();
}

static pid_t recorder_start(const char *path, double max_s,
			    bool probe_inputs, struct idl_err *err)
{
	struct timespec tick = { 0, 20000000 };
	pid_t pid, parent = getpid();
	int i, status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return idl_err_set(err, IDL_EXIT_FAILURE, "fork: %s",
				   strerror(errno));
	if (!pid) {
		struct record_opts ro = { .output = path, .duration = max_s,
					  .probe_inputs = probe_inputs,
					  .quiet = true };
		struct idl_err e = { 0 };
		struct sigaction sa = { .sa_handler = recorder_stop_early };

		/* SIGTERM: the recorder then removes its tracefs instance;
		 * one that comes before trace_record() takes its signals
		 * (the parent died as we started) must not be lost */
		sigaction(SIGTERM, &sa, NULL);
		if (idlectl_child_init(parent, SIGTERM))
			_exit(1);
		signal(SIGHUP, SIG_IGN);
		if (trace_record(&ro, &e)) {
			fprintf(stderr, "idlelab live: record: %s\n", e.msg);
			_exit(1);
		}
		_exit(0);
	}
	/* ready once its tracefs instance exists, plus a margin */
	for (i = 0; i < 250 && !instance_of(pid); i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "recording a trace failed to start");
		nanosleep(&tick, NULL);
	}
	tick.tv_nsec = 100000000;
	nanosleep(&tick, NULL);
	return pid;
}

static int recorder_stop(pid_t pid, struct idl_err *err)
{
	int status = 0;

	kill(pid, SIGTERM);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "recording a trace failed (status %d)",
				   status);
	return 0;
}

/* ---------------------------------------------------------- one run */

struct run_meas {
	struct idle_snapshot	before, after, delta;
	uint64_t		perf0[PERFCTR_MAX_EVENTS];
	uint64_t		perf1[PERFCTR_MAX_EVENTS];
	uint64_t		rapl0[RAPL_MAX_ZONES], rapl1[RAPL_MAX_ZONES];
	double			t0, t1;
};

static json_t *idle_json(const struct idle_snapshot *d,
			 const struct idle_summary *sum)
{
	json_t *cpus = json_array(), *res = json_object();
	int cpu, st;

	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		json_t *states = json_array();

		for (st = 0; st < d->nr_states; st++) {
			const typeof(*d->c) *x = &d->c[cpu * CSTATE_MAX + st];

			json_array_append_new(states, json_pack(
				"{s:s, s:I, s:I, s:I, s:I, s:I}",
				"name", d->info[st].name,
				"usage", (json_int_t)x->usage,
				"time_us", (json_int_t)x->time_us,
				"above", (json_int_t)x->above,
				"below", (json_int_t)x->below,
				"rejected", (json_int_t)x->rejected));
		}
		json_array_append_new(cpus, states);
	}
	for (st = 0; st < d->nr_states; st++)
		json_object_set_new(res, d->info[st].name,
				    idl_json_number(sum->residency_pct[st]));
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "above_pct",
			 idl_json_number(sum->above_pct), "below_pct",
			 idl_json_number(sum->below_pct), "idle_pct",
			 idl_json_number(sum->idle_pct), "residency_pct", res,
			 "per_cpu", cpus);
}

/* Energy: RAPL when it moves, else the model.  Fills @e, returns J. */
static double run_energy(struct live_ctx *c, const struct run_meas *rm,
			 json_t **e, bool *modelled)
{
	double wall_us = (rm->t1 - rm->t0) * 1e6, j = 0;
	json_t *zones = json_object();
	int i;

	for (i = 0; i < c->rapl.nr; i++) {
		double z = (double)rapl_delta(rm->rapl0[i], rm->rapl1[i],
					      c->rapl.z[i].max_range_uj) / 1e6;

		json_object_set_new(zones, c->rapl.z[i].name,
				    idl_json_number(z));
		j += z;
	}
	/* a counter that opens but does not move is no counter */
	if (c->rapl.nr && j > 0) {
		*modelled = false;
		*e = json_pack("{s:o, s:s, s:b, s:s, s:o}", "value",
			       idl_json_number(j),
			       "unit", "J", "modelled", false, "source",
			       "RAPL (powercap)", "zones", zones);
		return j;
	}
	json_decref(zones);
	*modelled = true;
	j = energy_modelled(&rm->delta, wall_us);
	*e = json_pack("{s:o, s:s, s:b, s:s}", "value", idl_json_number(j),
		       "unit", "cpu-s",
		       "modelled", true, "source",
		       "model over idle residency (doc/live.md)");
	return j;
}

static json_t *perf_json(struct live_ctx *c, const struct run_meas *rm,
			 double wall_s, const char *bench, const char *gov)
{
	json_t *p = json_object();
	int i;

	for (i = 0; c->perf_ok && i < c->perf.nr; i++) {
		const struct perfctr_event *e = &c->perf.ev[i];
		uint64_t d = rm->perf1[i] - rm->perf0[i];
		struct bench_metric m = { .higher_is_better = false };

		if (!e->ok) {
			json_object_set_new(p, e->name, json_pack(
				"{s:n, s:s}", "value", "status", e->status));
			continue;
		}
		json_object_set_new(p, e->name, json_pack(
			"{s:I, s:s}", "value", (json_int_t)d, "status", "ok"));
		if (strcmp(e->name, "context-switches") &&
		    strcmp(e->name, "cpu-migrations"))
			continue;
		snprintf(m.name, sizeof(m.name), "%s/s", e->name);
		snprintf(m.unit, sizeof(m.unit), "1/s");
		m.value = wall_s > 0 ? (double)d / wall_s : 0;
		add_value(c, bench, &m, gov);
	}
	return p;
}

static void idle_metrics(struct live_ctx *c, const char *bench,
			 const char *gov, const struct idle_summary *sum,
			 double energy, bool modelled)
{
	struct bench_metric m = { .higher_is_better = false };

	snprintf(m.name, sizeof(m.name), "above-pct");
	snprintf(m.unit, sizeof(m.unit), "%%");
	m.value = sum->above_pct;
	add_value(c, bench, &m, gov);
	snprintf(m.name, sizeof(m.name), "below-pct");
	m.value = sum->below_pct;
	add_value(c, bench, &m, gov);
	snprintf(m.name, sizeof(m.name), modelled ? "energy-modelled" :
		 "energy");
	snprintf(m.unit, sizeof(m.unit), modelled ? "cpu-s" : "J");
	m.value = energy;
	add_value(c, bench, &m, gov);
}

static void sanitize(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < len; i++)
		dst[i] = (src[i] == '/' || src[i] == ':' || src[i] == '=' ||
			  src[i] == ' ') ? '_' : src[i];
	dst[i] = '\0';
}

static void print_run(struct live_ctx *c, const char *gov,
		      const struct live_bench *b,
		      const struct bench_result *r,
		      const struct idle_summary *sum)
{
	int i;

	if (c->o->quiet)
		return;
	printf("run %d/%d: %-8s %-10s", c->run_no, c->total_runs, gov,
	       b->spec);
	for (i = 0; i < r->n && i < 3; i++)
		printf(" %s%s%s%s %.4g %s,", r->m[i].name,
		       r->m[i].case_name[0] ? "[" : "", r->m[i].case_name,
		       r->m[i].case_name[0] ? "]" : "", r->m[i].value,
		       r->m[i].unit);
	printf(" above %.2f%% below %.2f%% idle %.1f%%\n", sum->above_pct,
	       sum->below_pct, sum->idle_pct);
	fflush(stdout);
}

static int finish_run(struct live_ctx *c, int rep, int g,
		      const struct live_bench *b, struct run_meas *rm,
		      const struct bench_result *r, const char *trace,
		      struct idl_err *err)
{
	const char *gov = c->o->govs[g];
	double wall_s = rm->t1 - rm->t0, energy;
	struct gov_acc *a = &c->acc[g];
	struct idle_summary sum;
	json_t *run, *metrics = json_array(), *e;
	char name[512], path[4700];
	bool modelled;
	int i, rc;

	idlectl_summarize(&rm->delta, wall_s * 1e6, &sum);
	energy = run_energy(c, rm, &e, &modelled);
	/* results name the benchmark by its spec: two specs of one tool
	 * (stress-ng:stressor=timer, ...=cyclic) stay apart */
	for (i = 0; i < r->n; i++) {
		add_value(c, b->spec, &r->m[i], gov);
		json_array_append_new(metrics, json_pack(
			"{s:s, s:s, s:s, s:b, s:o}", "metric", r->m[i].name,
			"case", r->m[i].case_name, "unit", r->m[i].unit,
			"higher_is_better", r->m[i].higher_is_better,
			"value", idl_json_number(r->m[i].value)));
	}
	idle_metrics(c, b->spec, gov, &sum, energy, modelled);
	run = json_pack("{s:i, s:i, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o}",
			"run", c->run_no, "repetition", rep + 1,
			"governor", gov, "benchmark", b->def->name,
			"spec", b->spec, "wall_s", idl_json_number(wall_s),
			"metrics", metrics, "idle", idle_json(&rm->delta, &sum),
			"perf", perf_json(c, rm, wall_s, b->spec, gov),
			"energy", e);
	if (trace)
		json_object_set_new(run, "trace", idl_json_string(trace));
	a->n++;
	a->above += sum.above_pct;
	a->below += sum.below_pct;
	a->idle += sum.idle_pct;
	a->energy += energy;
	a->energy_modelled = modelled;
	snprintf(a->energy_unit, sizeof(a->energy_unit), "%s",
		 modelled ? "cpu-s" : "J");
	for (i = 0; i < rm->delta.nr_states; i++)
		a->res_us[i] += sum.residency_pct[i] / 100.0 *
				(double)sum.time_us;
	a->idle_us += (double)sum.time_us;
	update_idle(c, g, &rm->delta);
	print_run(c, gov, b, r, &sum);
	sanitize(name, sizeof(name), b->spec);
	snprintf(path, sizeof(path), "%s/%03d-%s-%s.json", c->runs_dir,
		 c->run_no, gov, name);
	rc = live_write_json(path, run, err);
	json_decref(run);
	if (!rc)
		rc = live_write_json(c->results, c->doc, err);
	return rc;
}

static int snap_all(struct live_ctx *c, struct idle_snapshot *s,
		    uint64_t *perf, uint64_t *rapl, double *t,
		    struct idl_err *err)
{
	*t = idl_mono_s();
	if (c->perf_ok)
		perfctr_read(&c->perf, perf);
	if (c->rapl.nr && rapl_read(&c->rapl, rapl))
		memset(rapl, 0, sizeof(uint64_t) * RAPL_MAX_ZONES);
	return idlectl_snapshot(c->o->root, s, err);
}

/*
 * Someone else on the host may write current_governor during a run: such
 * a run measured an unknown mix, so it is discarded (returns 2), the
 * governor is written again and the run is made again (live_run()).  Not
 * read back: whoever switched may do it again at once (a read-back then
 * failed the session), and the next run's end checks it anyway.
 */
static int governor_intact(struct live_ctx *c, const char *gov,
			   struct idl_err *err)
{
	char now[IDLECTL_GOV_LEN] = "";
	json_t *live = json_object_get(c->doc, "live");

	if (idlectl_get_governor(c->o->root, now, sizeof(now), err))
		return -1;
	if (!strcmp(now, gov))
		return 0;
	fprintf(stderr, "idlelab live: warning: run %d: the governor was "
		"changed to %s by someone else; run discarded\n", c->run_no,
		now);
	json_object_set_new(live, "discarded_runs", json_integer(
		json_integer_value(json_object_get(live, "discarded_runs")) +
		1));
	return idlectl_write_governor(c->o->root, gov, err) ? -1 : 2;
}

static int one_run(struct live_ctx *c, int rep, int g,
		   const struct live_bench *b, struct idl_err *err)
{
	struct bench_args args = {
		.duration_s = c->o->warmup_s,
		.opts = b->opts, .workdir = c->runs_dir,
		.nr_cpus = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN),
	};
	struct bench_result r = { 0 }, warm = { 0 };
	struct run_meas rm;
	char *trace = NULL, name[400];
	pid_t rec = 0;
	int rc;

	memset(&rm, 0, sizeof(rm));
	c->run_no++;
	if (c->o->warmup_s > 0 && bench_run(b->def, &args, &warm, err))
		return -1;
	if (bench_stop)
		return 1;
	args.duration_s = c->o->duration_s;
	if (c->o->record) {
		sanitize(name, sizeof(name), b->spec);
		if (asprintf(&trace, "%s/%03d-%s-%s.trace", c->runs_dir,
			     c->run_no, c->o->govs[g], name) < 0)
			return idl_err_set(err, 1, "out of memory");
		rec = recorder_start(trace, c->o->duration_s + 30,
				     c->o->probe_inputs, err);
		if (rec < 0) {
			free(trace);
			return -1;
		}
	}
	if (snap_all(c, &rm.before, rm.perf0, rm.rapl0, &rm.t0, err))
		rc = -1;
	else
		rc = bench_run(b->def, &args, &r, err);
	if (!rc && snap_all(c, &rm.after, rm.perf1, rm.rapl1, &rm.t1, err))
		rc = -1;
	if (rec > 0 && recorder_stop(rec, rc ? NULL : err) && !rc)
		rc = -1;
	if (!rc && bench_stop)
		rc = 1;
	if (!rc)
		rc = governor_intact(c, c->o->govs[g], err);
	if (!rc)
		rc = idlectl_delta(&rm.before, &rm.after, &rm.delta, err);
	if (!rc)
		rc = finish_run(c, rep, g, b, &rm, &r, trace, err);
	idlectl_snapshot_free(&rm.before);
	idlectl_snapshot_free(&rm.after);
	idlectl_snapshot_free(&rm.delta);
	free(trace);
	return rc;
}

static int setup(struct live_ctx *c, const struct live_opts *o,
		 struct idl_err *err)
{
	struct idle_snapshot s;

	memset(c, 0, sizeof(*c));
	c->o = o;
	c->total_runs = o->runs * o->nr_govs * o->nr_bench;
	if (mkdir(o->outdir, 0755) && errno != EEXIST)
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", o->outdir,
				   strerror(errno));
	if (live_outdir_prepare(o->outdir, o->overwrite, false, err))
		return -1;
	snprintf(c->runs_dir, sizeof(c->runs_dir), "%s/runs", o->outdir);
	if (mkdir(c->runs_dir, 0755) && errno != EEXIST)
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s",
				   c->runs_dir, strerror(errno));
	snprintf(c->results, sizeof(c->results), "%s/results.json",
		 o->outdir);
	if (idlectl_snapshot(o->root, &s, err))
		return -1;
	c->doc = new_doc(o, &s);
	idlectl_snapshot_free(&s);
	c->benchmarks = json_object_get(c->doc, "benchmarks");
	c->index = json_object();
	/* without counters (libpfm4 missing or broken) the run goes on, and
	 * says why (note_counters()) */
	c->perf_ok = !perfctr_open(&c->perf, cstate_sysfs_nr_cpus(o->root),
				   &c->perf_err);
	rapl_open(rapl_root(), &c->rapl);
	return 0;
}

static void note_counters(struct live_ctx *c)
{
	json_t *p = json_object();
	int i;

	for (i = 0; c->perf_ok && i < c->perf.nr; i++) {
		json_object_set_new(p, c->perf.ev[i].name,
				    idl_json_string(c->perf.ev[i].status));
		if (!c->perf.ev[i].ok && !c->o->quiet)
			printf("perf counter %s: n/a, %s\n",
			       c->perf.ev[i].name, c->perf.ev[i].status);
	}
	if (!c->perf_ok) {
		json_object_set_new(p, "error",
				    idl_json_string(c->perf_err.msg));
		if (!c->o->quiet)
			printf("perf counters: n/a, %s\n", c->perf_err.msg);
	}
	json_object_set_new(json_object_get(c->doc, "live"), "perf_counters",
			    p);
	json_object_set_new(json_object_get(c->doc, "live"), "energy_source",
			    idl_json_string(c->rapl.nr ? "RAPL (powercap)" :
					"modelled (no RAPL)"));
	if (!c->o->quiet && !c->rapl.nr)
		printf("energy: no RAPL (powercap) here, energy is modelled "
		       "from idle residency\n");
}

/* A discarded run is made again, up to LIVE_RUN_ATTEMPTS times; one
 * that never stays is missing, and the results are not complete. */
#define LIVE_RUN_ATTEMPTS	3

static int run_until_kept(struct live_ctx *c, int rep, int g,
			  const struct live_bench *b, struct idl_err *err)
{
	int attempt = 1, rc;

	while ((rc = one_run(c, rep, g, b, err)) == 2 &&
	       attempt++ < LIVE_RUN_ATTEMPTS)
		c->total_runs++;	/* "run N/TOTAL" counts it */
	if (rc != 2)
		return rc;
	c->missing_runs++;
	json_object_set_new(json_object_get(c->doc, "live"), "missing_runs",
			    json_integer(c->missing_runs));
	return 0;
}

static bool is_run_file(const char *name)
{
	return strlen(name) > 4 && isdigit((unsigned char)name[0]) &&
	       isdigit((unsigned char)name[1]) &&
	       isdigit((unsigned char)name[2]) && name[3] == '-';
}

int live_outdir_prepare(const char *dir, bool overwrite, bool check_only,
			struct idl_err *err)
{
	char path[4400];
	struct dirent *e;
	bool earlier;
	DIR *d;

	snprintf(path, sizeof(path), "%s/results.json", dir);
	earlier = access(path, F_OK) == 0;
	snprintf(path, sizeof(path), "%s/runs", dir);
	d = opendir(path);
	while (d && (e = readdir(d)) && !earlier)
		earlier = is_run_file(e->d_name);
	if (d)
		closedir(d);
	if (!earlier)
		return 0;
	if (!overwrite)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s holds the "
				   "results of an earlier session: give "
				   "another -o, or --overwrite to replace "
				   "them", dir);
	if (check_only)
		return 0;
	snprintf(path, sizeof(path), "%s/results.json", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/runs", dir);
	d = opendir(path);
	while (d && (e = readdir(d)))
		if (is_run_file(e->d_name)) {
			snprintf(path, sizeof(path), "%s/runs/%s", dir,
				 e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	return 0;
}

int live_run(const struct live_opts *o, struct idl_err *err)
{
	struct live_ctx *c = malloc(sizeof(*c));
	int order[IDLECTL_MAX_GOVS];
	int rep, i, b, rc = 0;

	if (!c)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	if (setup(c, o, err)) {
		json_decref(c->doc);
		free(c);
		return -1;
	}
	note_counters(c);
	for (rep = 0; rep < o->runs && !rc; rep++) {
		live_plan_order(o->nr_govs, rep, o->shuffle, o->seed, order);
		for (i = 0; i < o->nr_govs && !rc; i++) {
			const char *gov = o->govs[order[i]];

			if (idlectl_set_governor(o->root, gov, err)) {
				rc = -1;
				break;
			}
			for (b = 0; b < o->nr_bench && !rc; b++)
				rc = run_until_kept(c, rep, order[i],
						    &o->bench[b], err);
			if (!rc && bench_stop)
				rc = 1;
		}
	}
	json_object_set_new(json_object_get(c->doc, "live"), "complete",
			    json_boolean(rc == 0 && !c->missing_runs));
	if (rc >= 0 && live_write_json(c->results, c->doc, err))
		rc = -1;
	else if (rc < 0)	/* keep the first error; mark what was saved */
		live_write_json(c->results, c->doc, NULL);
	if (c->perf_ok)
		perfctr_close(&c->perf);
	json_decref(c->index);
	json_decref(c->doc);
	free(c);
	return rc;
}
