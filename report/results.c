// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reader for results files.  Results are small (one number per run), so
 * they are loaded whole; every field is checked and a bad file gets a
 * message naming the file and the JSON position (line) of the problem.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "input.h"
#include "text.h"
#include "results.h"

static int bad(struct idl_err *err, const char *path, json_t *at,
	       const char *what)
{
	(void)at;
	return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", path, what);
}

/* Names reach terminals and CSV: control characters are shown as '?'. */
static void copy_str(char *dst, size_t len, json_t *s)
{
	const char *v = json_is_string(s) ? json_string_value(s) : "";
	size_t n = strnlen(v, len - 1);

	/* (a row has four of these: snprintf was 15% of loading) */
	memcpy(dst, v, n);
	dst[n] = '\0';
	idl_text_clean(dst);
}

/* A name that does not fit would be cut silently (and two long names
 * could become one): reject it instead. */
static int check_len(struct idl_err *err, const char *path, json_t *at,
		     const char *s, size_t len, const char *what)
{
	char m[160];

	if (strlen(s) < len)
		return 0;
	snprintf(m, sizeof(m), "%s longer than %zu characters", what, len - 1);
	return bad(err, path, at, m);
}

static int copy_checked(struct idl_err *err, const char *path, char *dst,
			size_t len, json_t *s, const char *what)
{
	if (json_is_string(s) &&
	    check_len(err, path, s, json_string_value(s), len, what))
		return -1;
	copy_str(dst, len, s);
	return 0;
}

static int find_config(const struct res_set *rs, const char *name)
{
	int i;

	for (i = 0; i < rs->nconfigs; i++)
		if (!strcmp(rs->configs[i], name))
			return i;
	return -1;
}

static int load_series(struct res_set *rs, struct res_bench *b,
		       const char *cfg, json_t *arr, struct idl_err *err)
{
	struct res_series *s;
	size_t i;
	json_t *x;
	int c = find_config(rs, cfg);

	if (c < 0) {
		char m[160];

		snprintf(m, sizeof(m), "benchmark %s: config '%s' is not in \"configs\"",
			 b->name, cfg);
		return bad(err, rs->path, arr, m);
	}
	if (!json_is_array(arr))
		return bad(err, rs->path, arr, "\"values\" entries must be arrays of numbers");
	s = &b->series[b->nseries++];
	s->config = c;
	s->v = calloc(json_array_size(arr) + 1, sizeof(double));
	if (!s->v)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	s->n = 0;
	json_array_foreach(arr, i, x) {
		/* null: a run without this figure (e.g. nothing to agree on) */
		if (json_is_null(x))
			continue;
		if (!json_is_number(x))
			return bad(err, rs->path, x, "\"values\" must hold numbers or null");
		s->v[s->n++] = json_number_value(x);
	}
	/* a config with no value at all is a missing cell */
	if (!s->n) {
		free(s->v);
		b->nseries--;
	}
	return 0;
}

static int load_bench(struct res_set *rs, struct res_bench *b, json_t *jb,
		      struct idl_err *err)
{
	json_t *values, *hib, *arr, *some;
	const char *cfg;

	if (!json_is_object(jb))
		return bad(err, rs->path, jb, "\"benchmarks\" entries must be objects");
	if (copy_checked(err, rs->path, b->name, sizeof(b->name),
			 json_object_get(jb, "name"), "a benchmark name") ||
	    copy_checked(err, rs->path, b->kase, sizeof(b->kase),
			 json_object_get(jb, "case"), "a benchmark case") ||
	    copy_checked(err, rs->path, b->metric, sizeof(b->metric),
			 json_object_get(jb, "metric"), "a metric name") ||
	    copy_checked(err, rs->path, b->unit, sizeof(b->unit),
			 json_object_get(jb, "unit"), "a unit"))
		return -1;
	if (!b->name[0] || !b->metric[0])
		return bad(err, rs->path, jb, "a benchmark needs \"name\" and \"metric\"");
	hib = json_object_get(jb, "higher_is_better");
	if (!json_is_boolean(hib))
		return bad(err, rs->path, jb, "a benchmark needs \"higher_is_better\" (true/false)");
	b->higher_is_better = json_is_true(hib);
	some = json_object_get(jb, "only_some");
	if (some && !json_is_boolean(some))
		return bad(err, rs->path, jb, "\"only_some\" must be true or false");
	b->only_some = json_is_true(some);
	values = json_object_get(jb, "values");
	if (!json_is_object(values))
		return bad(err, rs->path, jb, "a benchmark needs a \"values\" object");
	json_object_foreach(values, cfg, arr) {
		if (b->nseries >= RES_MAX_CONFIGS)
			return bad(err, rs->path, jb, "too many configs");
		if (load_series(rs, b, cfg, arr, err))
			return -1;
	}
	return 0;
}

/* A rate of the idle table: a number, or null where it is undefined. */
static int idle_rate(struct res_set *rs, json_t *ji, const char *key,
		     double *v, struct idl_err *err)
{
	json_t *x = json_object_get(ji, key);
	char what[96];

	if (!x || json_is_null(x)) {
		*v = NAN;
		return 0;
	}
	if (!json_is_number(x)) {
		snprintf(what, sizeof(what), "\"idle\": \"%s\" must be a "
			 "number or null", key);
		return bad(err, rs->path, x, what);
	}
	*v = json_number_value(x);
	return 0;
}

static int load_idle(struct res_set *rs, json_t *idle, struct idl_err *err)
{
	const char *cfg, *st;
	json_t *ji, *res, *x, *en;
	int c;

	json_object_foreach(idle, cfg, ji) {
		struct res_idle *ri;

		c = find_config(rs, cfg);
		if (c < 0 || !json_is_object(ji))
			continue;
		ri = &rs->idle[c];
		ri->present = true;
		if (idle_rate(rs, ji, "above_pct", &ri->above_pct, err) ||
		    idle_rate(rs, ji, "below_pct", &ri->below_pct, err))
			return -1;
		res = json_object_get(ji, "residency_pct");
		json_object_foreach(res, st, x) {
			if (ri->nstates >= RES_MAX_STATES)
				return bad(err, rs->path, res,
					   "\"residency_pct\": too many states");
			if (check_len(err, rs->path, res, st,
				      sizeof(ri->state[0]), "a state name"))
				return -1;
			if (!json_is_number(x) && !json_is_null(x))
				return bad(err, rs->path, x,
					   "\"residency_pct\" must hold numbers or null");
			snprintf(ri->state[ri->nstates], sizeof(ri->state[0]), "%s", st);
			idl_text_clean(ri->state[ri->nstates]);
			ri->residency_pct[ri->nstates++] =
				json_is_null(x) ? NAN : json_number_value(x);
		}
		en = json_object_get(ji, "energy");
		if (json_is_object(en) &&
		    json_is_number(json_object_get(en, "value"))) {
			ri->has_energy = true;
			ri->energy = json_number_value(json_object_get(en, "value"));
			ri->energy_modelled = json_is_true(json_object_get(en, "modelled"));
			if (copy_checked(err, rs->path, ri->energy_unit,
					 sizeof(ri->energy_unit),
					 json_object_get(en, "unit"),
					 "an energy unit"))
				return -1;
		}
	}
	return 0;
}

/* The rows seen so far, by (benchmark, case, metric): open addressing
 * over row numbers, -1 for a free slot; twice as many slots as rows. */
struct row_set {
	int	*slot;
	size_t	mask;
};

static uint64_t str_hash(uint64_t h, const char *s)
{
	for (; *s; s++)		/* FNV-1a */
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;	/* ends the field */
}

static size_t row_hash(const struct res_bench *b)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	h = str_hash(str_hash(str_hash(h, b->name), b->kase), b->metric);
	return (size_t)(h ^ (h >> 29));
}

static int row_set_init(struct row_set *set, size_t rows)
{
	size_t n = 16;

	while (n < 2 * rows)
		n *= 2;
	set->slot = malloc(n * sizeof(*set->slot));
	if (!set->slot)
		return -1;
	memset(set->slot, 0xff, n * sizeof(*set->slot));
	set->mask = n - 1;
	return 0;
}

/* Two rows of one benchmark, case and metric: which one counts? */
static int unique_bench(struct res_set *rs, struct row_set *set, int n,
			struct idl_err *err)
{
	const struct res_bench *b = &rs->bench[n], *o;
	char what[RES_NAME_LEN * 3 + 96];
	size_t k;

	for (k = row_hash(b) & set->mask; set->slot[k] >= 0;
	     k = (k + 1) & set->mask) {
		o = &rs->bench[set->slot[k]];
		if (!strcmp(o->name, b->name) && !strcmp(o->kase, b->kase) &&
		    !strcmp(o->metric, b->metric)) {
			snprintf(what, sizeof(what), "benchmark %s case '%s' "
				 "metric %s appears twice (entries %d and %d)",
				 b->name, b->kase, b->metric,
				 set->slot[k] + 1, n + 1);
			return bad(err, rs->path, NULL, what);
		}
	}
	set->slot[k] = n;
	return 0;
}

static int load_configs(struct res_set *rs, json_t *cfgs, struct idl_err *err)
{
	size_t i;
	json_t *x;

	if (!json_is_array(cfgs) || json_array_size(cfgs) == 0)
		return bad(err, rs->path, cfgs, "\"configs\" must be a non-empty array of names");
	if (json_array_size(cfgs) > RES_MAX_CONFIGS)
		return bad(err, rs->path, cfgs, "too many configs");
	json_array_foreach(cfgs, i, x) {
		if (!json_is_string(x) || !json_string_value(x)[0])
			return bad(err, rs->path, x, "\"configs\" must hold names");
		/* compare against the names before this one */
		rs->nconfigs = (int)i;
		if (find_config(rs, json_string_value(x)) >= 0)
			return bad(err, rs->path, x, "\"configs\" names must be unique");
		if (copy_checked(err, rs->path, rs->configs[i],
				 sizeof(rs->configs[0]), x, "a config name"))
			return -1;
		rs->nconfigs = (int)i + 1;
	}
	return 0;
}

/* A live session's results written between runs, or after it was
 * stopped, or with a run it could not keep, say "complete": false (or,
 * from older versions, nothing): their numbers are fewer than planned. */
static void warn_incomplete(const struct res_set *rs, json_t *root)
{
	json_t *live = json_object_get(root, "live");
	json_int_t missing;

	if (strcmp(rs->kind, "live") || !json_is_object(live) ||
	    json_is_true(json_object_get(live, "complete")))
		return;
	missing = json_integer_value(json_object_get(live, "missing_runs"));
	if (missing)
		idl_warn("%s: the live session could not keep %lld run%s (the "
			 "governor was changed from outside): fewer runs "
			 "than planned", rs->path, (long long)missing,
			 missing == 1 ? "" : "s");
	else
		idl_warn("%s: the live session did not complete (stopped, "
			 "or still running): fewer runs than planned",
			 rs->path);
}

static int load_root(struct res_set *rs, json_t *root, struct idl_err *err)
{
	struct row_set rows;
	json_t *benchs, *jb, *idle;
	const char *fmt;
	size_t i;

	if (!json_is_object(root))
		return bad(err, rs->path, root, "not a results file (top level is not an object)");
	fmt = json_string_value(json_object_get(root, "format"));
	if (!fmt || strcmp(fmt, "idlelab-results"))
		return bad(err, rs->path, root, "not a results file (\"format\" is not \"idlelab-results\")");
	if (json_integer_value(json_object_get(root, "version")) != 1)
		return bad(err, rs->path, root, "unsupported results version (this idlelab reads version 1)");
	copy_str(rs->kind, sizeof(rs->kind), json_object_get(root, "kind"));
	if (load_configs(rs, json_object_get(root, "configs"), err))
		return -1;
	warn_incomplete(rs, root);
	benchs = json_object_get(root, "benchmarks");
	if (!json_is_array(benchs))
		return bad(err, rs->path, root, "\"benchmarks\" must be an array");
	rs->bench = calloc(json_array_size(benchs) + 1, sizeof(*rs->bench));
	if (!rs->bench || row_set_init(&rows, json_array_size(benchs)))
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	json_array_foreach(benchs, i, jb) {
		rs->nbench = (int)i + 1;	/* so that results_free sees it */
		if (load_bench(rs, &rs->bench[i], jb, err) ||
		    unique_bench(rs, &rows, (int)i, err)) {
			free(rows.slot);
			return -1;
		}
	}
	free(rows.slot);
	copy_str(rs->idle_scope, sizeof(rs->idle_scope),
		 json_object_get(root, "idle_scope"));
	idle = json_object_get(root, "idle");
	if (json_is_object(idle) && load_idle(rs, idle, err))
		return -1;
	if (json_is_object(json_object_get(root, "replay")) &&
	    results_load_replay(rs, json_object_get(root, "replay"), err))
		return -1;
	return 0;
}

static void set_label(struct res_set *rs, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	snprintf(rs->label, sizeof(rs->label), "%s", base && base[1] ? base + 1 : path);
	n = strlen(rs->label);
	if (n > 5 && !strcmp(rs->label + n - 5, ".json"))
		rs->label[n - 5] = '\0';
}

/* A trace given where results are expected (its magic, doc/trace-format.md) */
static bool is_trace(FILE *f)
{
	char magic[8];
	bool trace = fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
		     !memcmp(magic, "IDLTRACE", sizeof(magic));

	rewind(f);
	return trace;
}

static json_t *load_json(const char *file, struct idl_err *err)
{
	json_t *root;
	FILE *f;

	f = idl_input_fopen(file, IDL_RESULTS_MAX_SIZE, "a results file",
			    err);
	if (!f)
		return NULL;
	if (is_trace(f)) {
		fclose(f);
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s: an idlelab trace, "
			    "not a results file: replay it first (idlelab "
			    "replay --format json -o R.json %s) and give R.json",
			    file, file);
		return NULL;
	}
	root = idl_json_loadf(f, file, err);
	fclose(f);
	return root;
}

int results_load(const char *path, struct res_set *rs, struct idl_err *err)
{
	char file[480];
	struct stat st;
	json_t *root;
	int ret;

	memset(rs, 0, sizeof(*rs));
	if (stat(path, &st))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		snprintf(file, sizeof(file), "%s/results.json", path);
	else
		snprintf(file, sizeof(file), "%s", path);
	snprintf(rs->path, sizeof(rs->path), "%s", file);
	set_label(rs, path);

	/* the document is dropped before the arena: rs keeps copies */
	idl_json_arena_begin();
	root = load_json(file, err);
	ret = root ? load_root(rs, root, err) : -1;
	json_decref(root);
	idl_json_arena_end();
	if (ret && root)
		results_free(rs);
	return ret;
}

void results_free(struct res_set *rs)
{
	int i, j;

	for (i = 0; i < rs->nbench; i++)
		for (j = 0; j < rs->bench[i].nseries; j++)
			free(rs->bench[i].series[j].v);
	free(rs->bench);
	rs->bench = NULL;
	free(rs->replay);
	rs->replay = NULL;
	rs->nbench = 0;
}

const struct res_series *results_series(const struct res_bench *b, int config)
{
	int i;

	for (i = 0; i < b->nseries; i++)
		if (b->series[i].config == config)
			return &b->series[i];
	return NULL;
}

int results_load_all(char *const *paths, int n, struct res_set *sets,
		     struct idl_err *err)
{
	int i;

	for (i = 0; i < n; i++) {
		if (results_load(paths[i], &sets[i], err)) {
			while (i--)
				results_free(&sets[i]);
			return -1;
		}
	}
	return 0;
}
