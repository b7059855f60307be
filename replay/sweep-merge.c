// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Joining the shards of a sweep (idlelab merge): every file must come
 * from the same sweep (its id), every cell must be there exactly once and
 * where the sweep's grid puts it; the result is what the unsharded sweep
 * writes (but for its creation time).
 */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "input.h"
#include "sweep.h"

#define JSON_FLAGS	(JSON_COMPACT | JSON_REAL_PRECISION(10))

struct shard_file {
	const char	*path;
	json_t		*root;
};

struct merge {
	struct shard_file *file;
	int		nfile;
	json_t		*head;		/* the first file's "sweep" */
	const char	*id;
	size_t		total;
	json_t		**cell;		/* by index, borrowed */
	json_t		*shape;		/* the first cell's results */
	int		*from;		/* file of each cell */
};

static int load(struct shard_file *sf, struct idl_err *err)
{
	const char *kind;

	/* a regular file only: a FIFO would block, a directory is none */
	sf->root = idl_json_load(sf->path, err);
	if (!sf->root)
		return -1;
	kind = json_string_value(json_object_get(sf->root, "kind"));
	if (!kind || strcmp(kind, "sweep"))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: not the "
				   "results of idlelab sweep (kind %s)",
				   sf->path, kind ? kind : "missing");
	return 0;
}

/* The grid coordinates of cell @i, from the sweep's lists. */
static void coords(const struct merge *m, size_t i, const char **conf,
		   const char **trace, const char **table)
{
	json_t *c = json_object_get(m->head, "configs");
	json_t *t = json_object_get(m->head, "tables");
	size_t nc = json_array_size(c), nt = json_array_size(t);

	*conf = json_string_value(json_array_get(c, i % nc));
	*table = json_string_value(json_array_get(t, i / nc % nt));
	*trace = json_string_value(json_array_get(
		json_object_get(m->head, "traces"), i / nc / nt));
}

static int check_head(struct merge *m, const struct shard_file *sf,
		      struct idl_err *err)
{
	json_t *h = json_object_get(sf->root, "sweep");
	const char *id = json_string_value(json_object_get(h, "id"));
	static const char *const grid_keys[3] = {
		"configs", "traces", "tables"
	};
	json_int_t total = json_integer_value(json_object_get(h,
							      "cells_total"));
	size_t grid;
	int k;

	if (!id || total <= 0)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: no sweep id "
				   "or cell count", sf->path);
	if (!m->head) {
		/* the cell table is sized by it: no forged count past that */
		if (total > SWEEP_HARD_MAX_CELLS)
			return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %lld "
					   "cells, more than a sweep can have "
					   "(%d)", sf->path, (long long)total,
					   SWEEP_HARD_MAX_CELLS);
		m->head = h;
		m->id = id;
		m->total = (size_t)total;
		grid = json_array_size(json_object_get(h, "configs")) *
		       json_array_size(json_object_get(h, "traces")) *
		       json_array_size(json_object_get(h, "tables"));
		if (grid != m->total)
			return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %zu "
					   "cells, but its grid has %zu",
					   sf->path, m->total, grid);
		return 0;
	}
	if (strcmp(id, m->id))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: another sweep "
				   "than %s (id %s, not %s)", sf->path,
				   m->file[0].path, id, m->id);
	if ((size_t)total != m->total)	/* one id: an edited file */
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %lld cells "
				   "in all, but %zu in %s of the same sweep",
				   sf->path, (long long)total, m->total,
				   m->file[0].path);
	for (k = 0; k < 3; k++)
		if (!json_equal(json_object_get(h, grid_keys[k]),
				json_object_get(m->head, grid_keys[k])))
			return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: the "
					   "%s of the sweep differ from %s's "
					   "(the same id: an edited file)",
					   sf->path, grid_keys[k],
					   m->file[0].path);
	return 0;
}

/*
 * Does @v, a cell's results, have the shape of @ref, the first cell's:
 * every value that both have of the same kind (an integer where the
 * other has an integer, a real where it has a real; null stands for a
 * number that does not exist)?  No replay writes selects = 1e308.
 * @key is set to the first value that differs.
 */
static bool same_shape(json_t *ref, json_t *v, const char **key)
{
	const char *k;
	json_t *x, *r;

	if (json_is_null(ref) || json_is_null(v))
		return true;
	if (json_typeof(ref) != json_typeof(v) &&
	    !(json_is_boolean(ref) && json_is_boolean(v)))
		return false;
	if (!json_is_object(v))
		return true;
	json_object_foreach(v, k, x) {
		r = json_object_get(ref, k);
		if (r && !same_shape(r, x, key)) {
			if (!*key)
				*key = k;
			return false;
		}
	}
	return true;
}

/* Put every cell of @f in its place; a cell seen twice is refused. */
static int take_cells(struct merge *m, int f, struct idl_err *err)
{
	const struct shard_file *sf = &m->file[f];
	json_t *cells = json_object_get(sf->root, "cells"), *c;
	const char *conf, *trace, *table, *key;
	size_t k;

	json_array_foreach(cells, k, c) {
		json_int_t i = json_integer_value(json_object_get(c, "index"));

		if (!json_is_integer(json_object_get(c, "index")) || i < 0 ||
		    (size_t)i >= m->total)
			return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: cell "
					   "%zu: no index in 0..%zu", sf->path,
					   k, m->total - 1);
		coords(m, (size_t)i, &conf, &trace, &table);
		if (!conf || !trace || !table ||
		    strcmp(conf, json_string_value(json_object_get(c,
						"config")) ?: "") ||
		    strcmp(trace, json_string_value(json_object_get(c,
						"trace")) ?: "") ||
		    strcmp(table, json_string_value(json_object_get(c,
						"table")) ?: ""))
			return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: cell "
					   "%lld is not where the sweep's grid "
					   "puts it", sf->path, (long long)i);
		/* a failed cell has results with an "error" */
		if (!json_is_object(json_object_get(c, "results")))
			return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: cell "
					   "%lld has no results", sf->path,
					   (long long)i);
		key = NULL;
		if (m->shape && !same_shape(m->shape,
					    json_object_get(c, "results"), &key))
			return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: cell "
					   "%lld: its results' '%s' is not of "
					   "the kind the other cells have",
					   sf->path, (long long)i,
					   key ? key : "?");
		if (!m->shape)
			m->shape = json_object_get(c, "results");
		if (m->cell[i])
			return idl_err_set(err, IDL_EXIT_BADINPUT, "cell %lld "
					   "(%s, %s, table %s) is in both %s "
					   "and %s", (long long)i, conf, trace,
					   table, m->file[m->from[i]].path,
					   sf->path);
		m->cell[i] = c;
		m->from[i] = f;
	}
	return 0;
}

static int check_complete(const struct merge *m, struct idl_err *err)
{
	const char *conf, *trace, *table;
	size_t i, missing = 0, first = 0;

	for (i = 0; i < m->total; i++)
		if (!m->cell[i] && !missing++)
			first = i;
	if (!missing)
		return 0;
	coords(m, first, &conf, &trace, &table);
	return idl_err_set(err, IDL_EXIT_BADINPUT, "%zu of %zu cells missing,"
			   " the first: cell %zu (%s, %s, table %s)%s", missing,
			   m->total, first, conf, trace, table,
			   json_object_get(m->head, "shard") ?
			   ": a shard was not given" : "");
}

static int write_merged(const struct merge *m, FILE *out)
{
	json_t *h = json_deep_copy(m->head);
	char created[32], *text;
	time_t now = time(NULL);
	struct tm tm;
	size_t i;

	json_object_del(h, "shard");
	text = json_dumps(h, JSON_FLAGS);
	json_decref(h);
	if (!text)
		return -1;
	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(out, "{\"format\": \"idlelab-results\", \"version\": 1, "
		"\"kind\": \"sweep\", \"tool\": \"idlelab %s\", "
		"\"created\": \"%s\",\n\"sweep\": %s,\n\"cells\": [",
		PACKAGE_VERSION, created, text);
	free(text);
	for (i = 0; i < m->total; i++) {
		text = json_dumps(m->cell[i], JSON_FLAGS);
		if (!text)
			return -1;
		fprintf(out, "%s\n%s", i ? "," : "", text);
		free(text);
	}
	fputs("\n]}\n", out);
	return 0;
}

int sweep_merge(char **paths, int npaths, FILE *out, struct idl_err *err)
{
	struct merge m;
	int f, ret = -1;

	memset(&m, 0, sizeof(m));
	m.file = calloc((size_t)npaths, sizeof(*m.file));
	if (!m.file)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	m.nfile = npaths;
	for (f = 0; f < npaths; f++) {
		m.file[f].path = paths[f];
		if (load(&m.file[f], err) || check_head(&m, &m.file[f], err))
			goto out;
	}
	m.cell = calloc(m.total, sizeof(*m.cell));
	m.from = calloc(m.total, sizeof(*m.from));
	if (!m.cell || !m.from) {
		idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
		goto out;
	}
	for (f = 0; f < npaths; f++)
		if (take_cells(&m, f, err))
			goto out;
	if (check_complete(&m, err))
		goto out;
	ret = write_merged(&m, out);
	if (ret)
		idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
out:
	for (f = 0; f < npaths; f++)
		json_decref(m.file[f].root);
	free(m.file);
	free(m.cell);
	free(m.from);
	return ret;
}
