// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The importer registry and the import pipeline: a kernel trace -> a
 * native trace of idle periods.  Two streaming passes of the importer,
 * a scan (buffer, CPUs, HZ) and a run whose events go through a
 * reordering window into the model, whose periods go to the writer
 * (both from one opening of the file where the importer has scan_run).
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
#include "input.h"
#include "trace.h"

#define SORT_WINDOW	65536	/* events held for reordering */

/* The importers: one line each in IMPORTERS (traces/Makefile.inc). */
#define IDL_IMPORTER(sym) extern const struct importer sym;
#include "traces/import/import-list.h"
#undef IDL_IMPORTER
#define IDL_IMPORTER(sym) &sym,
static const struct importer *const importers[] = {
#include "traces/import/import-list.h"
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
	FILE *f = idl_input_fopen(path, 0, NULL, err);
	size_t n;

	if (!f)
		return NULL;
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
	if (sc->latency_set)
		meta->latency_req_ns = sc->latency_req_ns;
	if (o->gov) {
		snprintf(meta->governor, sizeof(meta->governor), "%s",
			 o->gov->ops->name);
		idl_governor_params(o->gov, meta->governor_params,
				    sizeof(meta->governor_params));
	}
}

/* One import: what the scan found, and where its events go. */
struct import_job {
	const struct import_opts *o;
	const struct importer	*imp;
	struct import_scan	sc;
	struct trace_writer	*w;
	struct ev_sorter	*sorter;
	struct model		*m;
};

static int emit_period(void *ctx, const struct idle_period *p,
		       struct idl_err *err)
{
	struct import_job *j = ctx;

	return trace_writer_add(j->w, p, err);
}

static int push_event(void *ctx, const struct raw_event *e,
		      struct idl_err *err)
{
	struct import_job *j = ctx;

	return ev_sorter_push(j->sorter, e, err);
}

/* The input and its format, and that a C-state table is named. */
static const struct importer *identify(const struct import_opts *o,
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
	return imp;
}

/* The scan is done: the header, then the writer, model and sorter that
 * the events go through. */
static int ready(void *ctx, const struct import_scan *sc,
		 struct idl_err *err)
{
	struct import_job *j = ctx;
	const struct import_opts *o = j->o;
	struct model_opts mo = { 0 };
	struct trace_meta meta;

	if (o->hz && sc->hz && o->hz != sc->hz)
		idl_warn("%s: --hz %u, but the %s HZ %u", o->in, o->hz,
			 sc->hz_from_file ? "file states" :
			 "tick events' spacing gives", sc->hz);
	fill_meta(&meta, o, sc, j->imp->desc);
	if (cstate_table_resolve(o->machine, o->states, &meta.table, err))
		return -1;
	mo.hz = meta.hz;
	model_poll_opts(&meta.table, meta.hz, &mo);
	mo.clock_is_mono = !strcmp(meta.clock, "mono");
	mo.emit_from_ns = sc->complete_from;
	mo.dev_qos_us = sc->dev_qos_set ? sc->dev_qos_us : NULL;
	mo.tmigr = sc->tmigr || kernel_migrates_timers(sc->kernel);
	j->w = trace_writer_create(o->out, &meta, err);
	if (!j->w)
		return -1;
	j->m = model_create(&mo, emit_period, j, err);
	if (!j->m)
		return -1;
	j->sorter = ev_sorter_create(SORT_WINDOW, j->m, err);
	return j->sorter ? 0 : -1;
}

/* The scan, then every event of the chosen buffer into the sorter. */
static int read_events(struct import_job *j, struct idl_err *err)
{
	const struct importer *imp = j->imp;
	const char *in = j->o->in;

	if (imp->scan_run)
		return imp->scan_run(in, j->o->instance, &j->sc, ready,
				     push_event, j, err);
	if (imp->scan(in, j->o->instance, &j->sc, err) ||
	    ready(j, &j->sc, err))
		return -1;
	return imp->run(in, j->sc.buf[j->sc.chosen].name, push_event, j,
			err);
}

/* The last periods, the header's counts, and the file closed. */
static int finish(struct import_job *j, struct idl_err *err)
{
	struct trace_meta *meta = trace_writer_meta(j->w);

	if (ev_sorter_flush(j->sorter, err) || model_finish(j->m, err))
		return -1;
	/* the scan counts cpu_idle lines; the run may have skipped the one
	 * there was (a bad last line) */
	if (!model_get_stats(j->m)->by_type[EV_CPU_IDLE])
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: no power:cpu_idle events", j->o->in);
	model_fill_meta(j->m, meta);
	/* lost before the capture was read, not seen by the model */
	if (__builtin_add_overflow(meta->lost_events, j->sc.overwritten,
				   &meta->lost_events))
		meta->lost_events = UINT64_MAX;
	if (trace_writer_close(j->w, err)) {
		j->w = NULL;
		return -1;
	}
	j->w = NULL;
	return 0;
}

int import_trace(const struct import_opts *o, struct import_summary *s,
		 struct idl_err *err)
{
	struct import_job j = { .o = o };
	double t0 = idl_mono_s();
	int r = -1;

	j.imp = identify(o, err);
	if (!j.imp)
		return -1;
	if (read_events(&j, err) || finish(&j, err))
		goto out;
	s->stats = *model_get_stats(j.m);
	s->overwritten = j.sc.overwritten;
	s->seconds = idl_mono_s() - t0;
	/* the file's or --hz's HZ is a fact; the scan's or model's a guess */
	s->hz_estimated = !o->hz && !j.sc.hz_from_file &&
			  (s->stats.hz_estimated || j.sc.hz);
	r = 0;
out:
	if (j.w)
		trace_writer_abort(j.w);
	ev_sorter_free(j.sorter);
	model_free(j.m);
	return r;
}
