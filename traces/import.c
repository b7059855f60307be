// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The importer registry and the import pipeline: a kernel trace -> a
 * native trace of idle periods.  Two streaming passes of the importer,
 * a scan (buffer, CPUs, HZ) and a run whose events go through a
 * reordering window into the model, whose periods go to the writer.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <idlelab/governor.h>

#include "cstate.h"
#include "host.h"
#include "import.h"
#include "trace.h"

#define SORT_WINDOW	65536	/* events held for reordering */

/* The importers: one line each in IMPORTERS (traces/Makefile.inc). */
#define IDL_IMPORTER(sym) extern const struct importer sym;
#include "traces/import-list.h"
#undef IDL_IMPORTER
#define IDL_IMPORTER(sym) &sym,
static const struct importer *const importers[] = {
#include "traces/import-list.h"
	NULL
};
#undef IDL_IMPORTER

const struct importer *const *importer_list(void)
{
	return importers;
}

const struct importer *importer_find(const char *name)
{
	const struct importer *const *i;

	for (i = importers; *i; i++)
		if (!strcmp((*i)->name, name))
			return *i;
	return NULL;
}

/* The compressors' magic numbers: such a file is refused by name, not
 * read as text that holds no event. */
static const char *compressed(const unsigned char *head, size_t n)
{
	static const struct {
		const char	*name, *magic;
		size_t		len;
	} z[] = {
		{ "gzip", "\x1f\x8b", 2 }, { "xz", "\xfd" "7zXZ", 6 },
		{ "zstd", "\x28\xb5\x2f\xfd", 4 }, { "bzip2", "BZh", 3 },
		{ "lz4", "\x04\x22\x4d\x18", 4 },
	};
	size_t i;

	for (i = 0; i < sizeof(z) / sizeof(z[0]); i++)
		if (n >= z[i].len && !memcmp(head, z[i].magic, z[i].len))
			return z[i].name;
	return NULL;
}

const struct importer *importer_detect(const char *path,
				       struct idl_err *err)
{
	const char *zname;
	const struct importer *const *i;
	unsigned char head[IMPORT_HEAD_MAX];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", path,
			    strerror(errno));
		return NULL;
	}
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	zname = compressed(head, n);
	if (zname) {
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s-compressed: "
			    "decompress it first", path, zname);
		return NULL;
	}
	for (i = importers; *i; i++)
		if ((*i)->detect(head, n))
			return *i;
	/* only if IMPORTERS does not end with one that takes anything */
	idl_err_set(err, IDL_EXIT_BADINPUT, "%s: format not recognised "
		    "(give --format)", path);
	return NULL;
}

/*
 * The input is read several times (format detection, the scan, the run):
 * a FIFO, a terminal or a socket would block on the second open or give
 * a different stream, so only regular files are taken.
 */
static int check_input(const char *path, struct idl_err *err)
{
	struct stat st;

	if (stat(path, &st))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", path,
				   strerror(errno));
	if (!S_ISREG(st.st_mode))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: not a regular file (import reads its "
				   "input more than once)", path);
	return 0;
}

static void fill_meta(struct trace_meta *meta, const struct import_opts *o,
		      const struct import_scan *sc, const char *fmt_desc)
{
	trace_meta_init(meta);
	snprintf(meta->source, sizeof(meta->source),
		 "imported from %s (%s%s%s)", o->in, fmt_desc,
		 sc->buf[sc->chosen].name[0] ? ", buffer " : "",
		 sc->buf[sc->chosen].name);
	snprintf(meta->tool, sizeof(meta->tool), "idlelab %s", PACKAGE_VERSION);
	snprintf(meta->clock, sizeof(meta->clock), "%s",
		 sc->clock[0] ? sc->clock : "unknown");
	snprintf(meta->kernel, sizeof(meta->kernel), "%s", sc->kernel);
	meta->hz = o->hz ? o->hz : sc->hz;
	meta->nr_cpus = sc->nr_cpus;
	if (o->gov) {
		snprintf(meta->governor, sizeof(meta->governor), "%s",
			 o->gov->ops->name);
		idl_governor_params(o->gov, meta->governor_params,
				    sizeof(meta->governor_params));
	}
}

struct run_ctx {
	struct trace_writer	*w;
	struct ev_sorter	*sorter;
	struct model		*m;
};

static int emit_period(void *ctx, const struct idle_period *p,
		       struct idl_err *err)
{
	struct run_ctx *r = ctx;

	return trace_writer_add(r->w, p, err);
}

static int push_event(void *ctx, const struct raw_event *e,
		      struct idl_err *err)
{
	struct run_ctx *r = ctx;

	return ev_sorter_push(r->sorter, e, err);
}

/* Format, table and scan: everything known before the first period. */
static const struct importer *prepare(const struct import_opts *o,
				      struct import_scan *sc,
				      struct trace_meta *meta,
				      struct idl_err *err)
{
	const struct importer *imp = o->format;

	if (check_input(o->in, err))
		return NULL;
	if (!imp && !(imp = importer_detect(o->in, err)))
		return NULL;
	if (!o->machine && !o->states) {
		idl_err_set(err, IDL_EXIT_BADINPUT,
			"%s carries no C-state table: give --machine NAME or "
			"--states FILE (idlelab states lists the built-in "
			"machines); the host's table is not guessed", o->in);
		return NULL;
	}
	if (imp->scan(o->in, o->instance, sc, err))
		return NULL;
	if (o->hz && sc->hz && o->hz != sc->hz)
		idl_warn("%s: --hz %u, but the %s HZ %u", o->in, o->hz,
			 sc->hz_from_file ? "file states" :
			 "tick events' spacing gives", sc->hz);
	fill_meta(meta, o, sc, imp->desc);
	if (cstate_table_resolve(o->machine, o->states, &meta->table, err))
		return NULL;
	return imp;
}

/* The run pass through sorter and model into the writer, then closed. */
static int convert(const struct import_opts *o, const struct importer *imp,
		   const struct import_scan *sc, struct run_ctx *rc,
		   struct idl_err *err)
{
	const char *inst = sc->buf[sc->chosen].name;
	struct trace_meta *meta = trace_writer_meta(rc->w);

	if (imp->run(o->in, inst, push_event, rc, err) ||
	    ev_sorter_flush(rc->sorter, err) || model_finish(rc->m, err))
		return -1;
	/* the scan counts cpu_idle lines; the run may have skipped the one
	 * there was (a bad last line) */
	if (!model_get_stats(rc->m)->by_type[EV_CPU_IDLE])
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: no power:cpu_idle events", o->in);
	model_fill_meta(rc->m, meta);
	/* lost before the capture was read, not seen by the model */
	if (__builtin_add_overflow(meta->lost_events, sc->overwritten,
				   &meta->lost_events))
		meta->lost_events = UINT64_MAX;
	if (trace_writer_close(rc->w, err)) {
		rc->w = NULL;
		return -1;
	}
	rc->w = NULL;
	return 0;
}

int import_trace(const struct import_opts *o, struct import_summary *s,
		 struct idl_err *err)
{
	const struct importer *imp;
	struct import_scan sc;
	struct trace_meta meta;
	struct model_opts mo = { 0 };
	struct run_ctx rc = { 0 };
	double t0 = idl_mono_s();
	int r = -1;

	imp = prepare(o, &sc, &meta, err);
	if (!imp)
		return -1;
	mo.hz = meta.hz;
	model_poll_opts(&meta.table, meta.hz, &mo);
	mo.clock_is_mono = !strcmp(meta.clock, "mono");
	mo.emit_from_ns = sc.complete_from;
	rc.w = trace_writer_create(o->out, &meta, err);
	if (!rc.w)
		return -1;
	rc.m = model_create(&mo, emit_period, &rc, err);
	rc.sorter = rc.m ? ev_sorter_create(SORT_WINDOW, rc.m, err) : NULL;
	if (!rc.sorter || convert(o, imp, &sc, &rc, err))
		goto out;
	s->stats = *model_get_stats(rc.m);
	s->overwritten = sc.overwritten;
	s->seconds = idl_mono_s() - t0;
	/* the file's or --hz's HZ is a fact; the scan's or model's a guess */
	s->hz_estimated = !o->hz && !sc.hz_from_file &&
			  (s->stats.hz_estimated || sc.hz);
	r = 0;
out:
	if (rc.w)
		trace_writer_abort(rc.w);
	ev_sorter_free(rc.sorter);
	model_free(rc.m);
	return r;
}
