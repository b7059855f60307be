/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text importers as `idlelab import` drives them: detect, scan, then
 * run every event through a small reordering window into the model.
 * fuzz_ftrace.c and fuzz_report.c differ only in their seed corpora;
 * fuzz_dat.c defines FUZZ_IMPORT_OWN_ENTRY and calls fuzz_import() with
 * the trace.dat reader run in-process.
 */
#ifndef IDLELAB_FUZZ_IMPORT_H
#define IDLELAB_FUZZ_IMPORT_H

#include <string.h>

#include "fuzz.h"
#include "import.h"
#include "model.h"

/* small, so that inputs of a few kB already exercise the reordering */
#define FUZZ_SORT_WINDOW	16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_ctx {
	struct ev_sorter	*sorter;
	uint64_t		periods;
};

static int fuzz_emit(void *ctx, const struct idle_period *p,
		     struct idl_err *err)
{
	struct fuzz_ctx *c = ctx;

	/* the trace writer rejects this, as idlelab import would */
	if (p->exit_ns < p->entry_ns)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "period ends before it starts");
	c->periods++;
	return 0;
}

static int fuzz_push(void *ctx, const struct raw_event *e,
		     struct idl_err *err)
{
	struct fuzz_ctx *c = ctx;

	return ev_sorter_push(c->sorter, e, err);
}

static void fuzz_check_err(const struct idl_err *err)
{
	if (!err->msg[0] || !err->status)
		abort();
}

/*
 * Scan @path with @imp, then run the chosen buffer's events through the
 * reordering window into the model; any error must carry a message.
 */
static void fuzz_import(const struct importer *imp, const char *path)
{
	struct model_opts mo = { .poll_state = -1 };
	struct fuzz_ctx c = { 0 };
	struct import_scan sc;
	struct idl_err err;
	struct model *m;

	memset(&err, 0, sizeof(err));
	if (imp->scan(path, NULL, &sc, &err)) {
		fuzz_check_err(&err);
		return;
	}
	if (sc.chosen < 0 || sc.chosen >= sc.nr_buffers)
		return;
	mo.hz = sc.hz;
	m = model_create(&mo, fuzz_emit, &c, &err);
	if (!m)
		abort();
	c.sorter = ev_sorter_create(FUZZ_SORT_WINDOW, m, &err);
	if (!c.sorter)
		abort();
	if (imp->run(path, sc.buf[sc.chosen].name, fuzz_push, &c, &err) ||
	    ev_sorter_flush(c.sorter, &err) || model_finish(m, &err))
		fuzz_check_err(&err);
	ev_sorter_free(c.sorter);
	model_free(m);
}

#ifndef FUZZ_IMPORT_OWN_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	const struct importer *imp;
	struct idl_err err;

	memset(&err, 0, sizeof(err));
	imp = importer_detect(path, &err);
	if (!imp) {
		fuzz_check_err(&err);
		return 0;
	}
	/* the text importers only: trace.dat has fuzz_dat.c */
	if (imp->scan == import_text_scan)
		fuzz_import(imp, path);
	return 0;
}
#endif

#endif /* IDLELAB_FUZZ_IMPORT_H */
