/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text importers as `idlelab import` drives them: detect, scan, then
 * run every event through a small reordering window into the model.
 * fuzz_ftrace.c and fuzz_report.c differ only in their seed corpora.
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct model_opts mo = { .poll_state = -1 };
	struct fuzz_ctx c = { 0 };
	struct import_scan sc;
	struct idl_err err;
	struct model *m;
	const struct importer *imp;

	memset(&err, 0, sizeof(err));
	imp = importer_detect(path, &err);
	if (!imp) {
		fuzz_check_err(&err);
		return 0;
	}
	/* the text importers only: trace.dat is libtracecmd's, not fuzzed */
	if (imp->scan != import_text_scan)
		return 0;
	if (import_text_scan(path, NULL, &sc, &err)) {
		fuzz_check_err(&err);
		return 0;
	}
	if (sc.chosen < 0 || sc.chosen >= sc.nr_buffers)
		return 0;
	mo.hz = sc.hz;
	m = model_create(&mo, fuzz_emit, &c, &err);
	if (!m)
		abort();
	c.sorter = ev_sorter_create(FUZZ_SORT_WINDOW, m, &err);
	if (!c.sorter)
		abort();
	if (import_text_run(path, sc.buf[sc.chosen].name, fuzz_push, &c,
			    &err) ||
	    ev_sorter_flush(c.sorter, &err) || model_finish(m, &err))
		fuzz_check_err(&err);
	ev_sorter_free(c.sorter);
	model_free(m);
	return 0;
}

#endif /* IDLELAB_FUZZ_IMPORT_H */
