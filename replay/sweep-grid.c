// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The grid of a sweep: governor specs whose parameters take lists
 * ("decay=4|8|16") and ranges ("pulse=256..1024/256"), expanded into
 * configurations; the cells (configuration x trace x table) in a
 * canonical order that does not depend on the order of the arguments;
 * and an identity of the set of cells, so that shards of one sweep can
 * be told from shards of another.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cstate.h"
#include "sweep.h"

struct values {
	long long	*v;
	size_t		n, cap;
};

struct item {				/* one swept parameter */
	int		param;		/* index in the governor's table */
	struct values	vals;
};

static int push_value(struct values *vs, long long v)
{
	if (vs->n == vs->cap) {
		size_t cap = vs->cap ? 2 * vs->cap : 8;
		long long *p = realloc(vs->v, cap * sizeof(*p));

		if (!p)
			return -1;
		vs->v = p;
		vs->cap = cap;
	}
	vs->v[vs->n++] = v;
	return 0;
}

/* A whole decimal integer in [s, e). */
static int parse_int(const char *s, const char *e, long long *v)
{
	char buf[32], *end;

	if (e <= s || (size_t)(e - s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = '\0';
	if (!isdigit((unsigned char)buf[buf[0] == '-']))
		return -1;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return *end || errno ? -1 : 0;
}

/* "LO..HI/STEP" (STEP 1 if left out) into @vs. */
static int parse_range(const char *s, const char *e, const char *dots,
		       struct values *vs, const char **why)
{
	const char *slash = memchr(dots, '/', (size_t)(e - dots));
	long long lo, hi, step = 1, v;

	if (parse_int(s, dots, &lo) ||
	    parse_int(dots + 2, slash ? slash : e, &hi) ||
	    (slash && parse_int(slash + 1, e, &step))) {
		*why = "is not LO..HI/STEP with integers";
		return -1;
	}
	if (step <= 0 || hi < lo) {
		*why = step <= 0 ? "has a step that is not positive" :
			"ends below its start";
		return -1;
	}
	if ((unsigned long long)(hi - lo) / (unsigned long long)step >=
	    SWEEP_MAX_CONFIGS) {
		*why = "has too many values";
		return -1;
	}
	for (v = lo;; v += step) {
		if (push_value(vs, v))
			return -1;
		if (hi - v < step)
			break;
	}
	return 0;
}

/* "a|b|LO..HI/STEP|..." into @vs. */
static int parse_values(const char *s, const char *e, struct values *vs,
			const char **why)
{
	while (s <= e) {
		const char *bar = memchr(s, '|', (size_t)(e - s));
		const char *alt_end = bar ? bar : e;
		const char *dots = NULL, *p;
		long long v;

		for (p = s; p + 1 < alt_end; p++)
			if (p[0] == '.' && p[1] == '.') {
				dots = p;
				break;
			}
		if (dots) {
			if (parse_range(s, alt_end, dots, vs, why))
				return -1;
		} else if (parse_int(s, alt_end, &v)) {
			*why = "is not an integer, a|b|c or LO..HI/STEP";
			return -1;
		} else if (push_value(vs, v)) {
			return -1;
		}
		if (!bar)
			break;
		s = bar + 1;
	}
	if (vs->n > SWEEP_MAX_CONFIGS) {
		*why = "has too many values";
		return -1;
	}
	return 0;
}

static int find_param(const struct idl_governor_ops *ops, const char *name,
		      size_t len)
{
	int i;

	for (i = 0; ops->params && ops->params[i].name; i++)
		if (strlen(ops->params[i].name) == len &&
		    !strncmp(ops->params[i].name, name, len))
			return i;
	return -1;
}

/* The swept items of @spec ("NAME:p=VALUES,q=VALUES"). */
static int parse_items(const char *spec, const struct idl_governor_ops *ops,
		       struct item *items, int *nitems, struct idl_err *err)
{
	const char *p = strchr(spec, ':');
	const char *why = NULL;
	int n = 0, i;

	while (p) {
		const char *s = p + 1, *comma = strchr(s, ','), *e, *eq;

		*nitems = n;	/* whose values the caller frees on error */
		e = comma ? comma : s + strlen(s);
		eq = memchr(s, '=', (size_t)(e - s));
		if (!eq || eq == s)
			return idl_err_set(err, IDL_EXIT_BADINPUT, "-g '%s': "
					   "'%.*s' is not PARAM=VALUES", spec,
					   (int)(e - s), s);
		if (n == IDL_GOV_MAX_PARAMS)
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "-g '%s': too many parameters", spec);
		items[n].param = find_param(ops, s, (size_t)(eq - s));
		if (items[n].param < 0)
			return idl_err_set(err, IDL_EXIT_BADINPUT, "-g '%s': "
					   "%s has no parameter '%.*s'", spec,
					   ops->name, (int)(eq - s), s);
		for (i = 0; i < n; i++)
			if (items[i].param == items[n].param)
				return idl_err_set(err, IDL_EXIT_BADINPUT,
						   "-g '%s': '%.*s' given twice",
						   spec, (int)(eq - s), s);
		memset(&items[n].vals, 0, sizeof(items[n].vals));
		if (parse_values(eq + 1, e, &items[n++].vals, &why)) {
			*nitems = n;
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "-g '%s': '%.*s' %s", spec,
					   (int)(e - s), s, why ? why :
					   "cannot be stored (out of memory)");
		}
		p = comma;
	}
	*nitems = n;
	return 0;
}

static size_t spec_hash(const char *spec)
{
	uint64_t h = 14695981039346656037ull;	/* FNV-1a */

	for (; *spec; spec++)
		h = (h ^ (unsigned char)*spec) * 1099511628211ull;
	return (size_t)h;
}

/* The hash slot of @spec: the one holding it, or the free one for it. */
static unsigned int *conf_slot(const struct sweep *s, const char *spec)
{
	size_t i = spec_hash(spec) & (s->conf_hash_size - 1);

	while (s->conf_hash[i] &&
	       strcmp(s->conf[s->conf_hash[i] - 1].gov.spec, spec))
		i = (i + 1) & (s->conf_hash_size - 1);
	return &s->conf_hash[i];
}

/* Room for one more configuration, the hash at most half full. */
static int conf_grow(struct sweep *s)
{
	unsigned int i, cap = s->conf_cap ? 2 * s->conf_cap : 16;
	struct sweep_config *p;

	if (s->nconf < s->conf_cap)
		return 0;
	p = realloc(s->conf, cap * sizeof(*p));
	if (!p)
		return -1;
	s->conf = p;
	s->conf_cap = cap;
	free(s->conf_hash);
	s->conf_hash_size = 2 * (size_t)cap;
	s->conf_hash = calloc(s->conf_hash_size, sizeof(*s->conf_hash));
	if (!s->conf_hash)
		return -1;
	for (i = 0; i < s->nconf; i++)
		*conf_slot(s, s->conf[i].gov.spec) = i + 1;
	return 0;
}

static int add_config(struct sweep *s, const struct sweep_config *c)
{
	unsigned int *slot;

	if (s->conf_hash && *conf_slot(s, c->gov.spec))
		return 0;	/* the same configuration again */
	if (s->nconf >= SWEEP_MAX_CONFIGS || conf_grow(s))
		return -1;
	slot = conf_slot(s, c->gov.spec);
	s->conf[s->nconf++] = *c;
	*slot = s->nconf;
	return 0;
}

/*
 * One configuration: the values @idx of @items.  Its spec names every
 * swept parameter, defaults included, in the governor's order: a swept
 * value is a choice, never replaced by the capture's tunables
 * (doc/sweep.md).
 */
static int make_config(struct sweep *s, const char *name, size_t nlen,
		       const struct idl_governor_ops *ops,
		       const struct item *items, int nitems,
		       const size_t *idx, struct idl_err *err)
{
	char text[IDL_GOV_SPEC_LEN], msg[512];
	struct sweep_config c;
	size_t n;
	int i, k;

	n = (size_t)snprintf(text, sizeof(text), "%.*s", (int)nlen, name);
	for (i = 0; i < IDL_GOV_MAX_PARAMS; i++)
		for (k = 0; k < nitems; k++)
			if (items[k].param == i && n < sizeof(text))
				n += (size_t)snprintf(text + n,
					sizeof(text) - n, "%c%s=%lld",
					n == nlen ? ':' : ',',
					ops->params[i].name,
					items[k].vals.v[idx[k]]);
	if (n >= sizeof(text))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: configuration spec too long", text);
	memset(&c, 0, sizeof(c));
	if (idl_governor_parse(&c.gov, text, msg, sizeof(msg)))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s", msg);
	c.has_params = nitems > 0;
	if (c.has_params)
		snprintf(c.gov.spec, sizeof(c.gov.spec), "%s", text);
	if (add_config(s, &c))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "more than %d "
				   "configurations", SWEEP_MAX_CONFIGS);
	return 0;
}

static void free_items(struct item *items, int n)
{
	while (n-- > 0)
		free(items[n].vals.v);
}

static int keep_spec(struct sweep *s, const char *spec)
{
	char **p = realloc(s->specs, (size_t)(s->nspec + 1) * sizeof(*p));

	if (!p)
		return -1;
	s->specs = p;
	s->specs[s->nspec] = strdup(spec);
	return s->specs[s->nspec++] ? 0 : -1;
}

int sweep_add_spec(struct sweep *s, const char *spec, struct idl_err *err)
{
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	struct item items[IDL_GOV_MAX_PARAMS];
	size_t idx[IDL_GOV_MAX_PARAMS] = { 0 };
	struct idl_governor probe;
	char name[IDL_GOV_SPEC_LEN], msg[512];
	int nitems = 0, k, ret = -1;
	double total = 1;

	if (!nlen || nlen >= sizeof(name))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "-g '%s': no governor name", spec);
	memcpy(name, spec, nlen);
	name[nlen] = '\0';
	if (idl_governor_parse(&probe, name, msg, sizeof(msg)))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s", msg);
	if (keep_spec(s, spec))
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	if (parse_items(spec, probe.ops, items, &nitems, err))
		goto out;
	for (k = 0; k < nitems; k++)
		total *= (double)items[k].vals.n;
	if (total > SWEEP_MAX_CONFIGS) {
		idl_err_set(err, IDL_EXIT_BADINPUT, "-g '%s': %.0f "
			    "configurations (at most %d)", spec, total,
			    SWEEP_MAX_CONFIGS);
		goto out;
	}
	/* the product, the last item varying fastest */
	for (;;) {
		if (make_config(s, name, nlen, probe.ops, items, nitems, idx,
				err))
			goto out;
		for (k = nitems - 1; k >= 0; k--) {
			if (++idx[k] < items[k].vals.n)
				break;
			idx[k] = 0;
		}
		if (k < 0)
			break;
	}
	ret = 0;
out:
	free_items(items, nitems);
	return ret;
}

/* Order strings with their numbers by value: "x=256" before "x=1024". */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea = a, *eb = b;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			if (ea - a != eb - b)
				return ea - a < eb - b ? -1 : 1;
			for (; a < ea; a++, b++)
				if (*a != *b)
					return *a < *b ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int conf_cmp(const void *x, const void *y)
{
	const struct sweep_config *a = x, *b = y;

	return natural_cmp(a->gov.spec, b->gov.spec);
}

static int str_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Sorted copies of @in without repeats; the own table first if @own. */
static int sorted_list(char **in, int n, bool own, char ***out,
		       unsigned int *nout)
{
	char **l = calloc((size_t)n + 1, sizeof(*l));
	unsigned int k = 0, first = own ? 1 : 0;
	int i;

	if (!l)
		return -1;
	if (own && !(l[k++] = strdup(SWEEP_OWN_TABLE)))
		goto fail;
	for (i = 0; i < n; i++)
		if (!(l[k++] = strdup(in[i])))
			goto fail;
	qsort(l + first, k - first, sizeof(*l), str_cmp);
	*nout = 0;
	for (i = 0; (unsigned int)i < k; i++) {
		if (*nout && !strcmp(l[*nout - 1], l[i])) {
			free(l[i]);
			continue;
		}
		l[(*nout)++] = l[i];
	}
	*out = l;
	return 0;
fail:
	while (k)
		free(l[--k]);
	free(l);
	return -1;
}

/* FNV-1a, 64 bits, over every cell's coordinates: the sweep's identity */
static void make_id(struct sweep *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < s->ncell; i++) {
		const char *f[3] = { s->conf[s->cell[i].conf].gov.spec,
				     s->traces[s->cell[i].trace],
				     s->tables[s->cell[i].table] };
		int k;

		for (k = 0; k < 3; k++) {
			const char *p = f[k];

			do {
				h ^= (unsigned char)*p;
				h *= 0x100000001b3ULL;
			} while (*p++);
		}
	}
	snprintf(s->id, sizeof(s->id), "%016llx", (unsigned long long)h);
}

static int check_tables(struct sweep *s, struct idl_err *err)
{
	struct cstate_table t;
	unsigned int i;

	for (i = 1; i < s->ntable; i++)
		if (cstate_table_resolve(s->tables[i], NULL, &t, err))
			return -1;
	return 0;
}

int sweep_plan(struct sweep *s, char **traces, int ntrace, char **machines,
	       int nmachine, size_t max_cells, struct idl_err *err)
{
	unsigned int t, m, c;
	size_t i = 0;
	double n;

	if (!s->nconf || !ntrace)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "nothing to sweep:"
				   " %s", s->nconf ? "no trace" :
				   "no governor configuration");
	qsort(s->conf, s->nconf, sizeof(*s->conf), conf_cmp);
	memset(s->conf_hash, 0, s->conf_hash_size * sizeof(*s->conf_hash));
	for (c = 0; c < s->nconf; c++)
		*conf_slot(s, s->conf[c].gov.spec) = c + 1;
	if (sorted_list(traces, ntrace, false, &s->traces, &s->ntrace) ||
	    sorted_list(machines, nmachine, true, &s->tables, &s->ntable))
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	if (check_tables(s, err))
		return -1;
	n = (double)s->nconf * s->ntrace * s->ntable;
	if (n > SWEEP_HARD_MAX_CELLS)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%.0f cells: more "
				   "than %d, even with --force", n,
				   SWEEP_HARD_MAX_CELLS);
	if (max_cells && n > (double)max_cells)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%.0f cells (%u "
				   "configurations x %u traces x %u tables): "
				   "more than %zu; --force runs them", n,
				   s->nconf, s->ntrace, s->ntable, max_cells);
	s->cell = calloc((size_t)n ? (size_t)n : 1, sizeof(*s->cell));
	if (!s->cell)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	for (t = 0; t < s->ntrace; t++)
		for (m = 0; m < s->ntable; m++)
			for (c = 0; c < s->nconf; c++) {
				s->cell[i].trace = t;
				s->cell[i].table = m;
				s->cell[i++].conf = c;
			}
	s->ncell = i;
	make_id(s);
	return 0;
}

size_t sweep_shard_cells(const struct sweep *s, unsigned int shard,
			 unsigned int nshard)
{
	size_t i, n = 0;

	for (i = 0; i < s->ncell; i++)
		n += sweep_in_shard(i, shard, nshard);
	return n;
}

static void free_list(char **l, unsigned int n)
{
	while (l && n)
		free(l[--n]);
	free(l);
}

void sweep_free(struct sweep *s)
{
	free_list(s->specs, (unsigned int)s->nspec);
	free_list(s->traces, s->ntrace);
	free_list(s->tables, s->ntable);
	free(s->conf);
	free(s->conf_hash);
	free(s->cell);
	memset(s, 0, sizeof(*s));
}
