// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run of the text importers: every event of the chosen buffer to the
 * caller's sink (in idlelab import: the reordering window, the model and
 * the writer), in input order.
 *
 * The file is read in chunks (text-chunk.c), on two threads when it is
 * large: each chunk's events are parsed into a buffer of its own, and the
 * caller's thread gives them to the sink chunk after chunk.  The sink sees
 * the events, and an error, exactly as parsing and sinking line by line
 * gives them.  A chunk whose buffer fills up (ipi_send_cpumask lines give
 * an event per CPU) is finished by the caller's thread, straight to the
 * sink, when its turn comes.
 */
#include "config.h"

#include <string.h>

#include "import.h"
#include "text-import.h"

#define RUN_EVENTS	4096	/* events buffered for a chunk */

/* What a line is parsed for: the fast path's state and the instance. */
struct run_lines {
	struct text_fast	fast;		/* path, want, sink, ctx */
	char			buffer[64];
};

static int run_line(void *ctx, unsigned long lineno, char *line, size_t len,
		    bool plain, struct idl_err *err)
{
	struct run_lines *rl = ctx;
	const struct text_fast *f = &rl->fast;
	int r;

	if (plain) {
		r = text_fast_line(&rl->fast, lineno, line, len, err);
		if (r != TEXT_SLOW)
			return r;
	}
	return import_text_line(f->path, lineno, line, f->want, rl->buffer,
				sizeof(rl->buffer), f->sink, f->ctx, err);
}

/* A chunk's events, each with its line (numbered in the chunk). */
struct run_out {
	struct run_lines	rl;		/* sink: buffer_event */
	unsigned long		lineno;		/* of the line being read */
	uint32_t		n;
	uint32_t		line[RUN_EVENTS];
	struct raw_event	ev[RUN_EVENTS];
};

static int buffer_event(void *ctx, const struct raw_event *e,
			struct idl_err *err)
{
	struct run_out *o = ctx;

	(void)err;
	o->ev[o->n] = *e;
	o->line[o->n++] = (uint32_t)o->lineno;
	return 0;
}

static int buffer_line(void *ctx, unsigned long lineno, char *line,
		       size_t len, bool plain, struct idl_err *err)
{
	struct run_out *o = ctx;

	o->lineno = lineno;
	return run_line(&o->rl, lineno, line, len, plain, err);
}

/* No room for the events of one more line (at most one per CPU). */
static bool buffer_full(void *out)
{
	const struct run_out *o = out;

	return o->n > RUN_EVENTS - TRACE_MAX_CPUS;
}

static void buffer_reset(void *out)
{
	((struct run_out *)out)->n = 0;
}

struct run_ctx {
	struct run_lines	direct;		/* to the caller's sink */
	struct run_lines	again;		/* to no sink: messages */
};

static void buffer_init(void *ctx, void *out)
{
	const struct run_ctx *rc = ctx;
	struct run_out *o = out;

	o->rl.fast = rc->direct.fast;
	o->rl.fast.sink = buffer_event;
	o->rl.fast.ctx = o;
}

static int no_sink(void *ctx, const struct raw_event *e, struct idl_err *err)
{
	(void)ctx;
	(void)e;
	(void)err;
	return 0;
}

/* A bad last line, skipped as a capture cut mid-event: its message. */
static void warn_skipped(struct text_chunk *c, struct run_ctx *rc)
{
	struct idl_err w;

	if (!text_chunk_again(c, true, run_line, &rc->again, &w))
		return;
	idl_warn("%s (truncated last line skipped)", w.msg);
}

static int run_take(void *ctx, struct text_chunk *c, struct idl_err *err)
{
	struct run_ctx *rc = ctx;
	struct text_fast *f = &rc->direct.fast;
	struct run_out *o = c->out;
	uint32_t i;

	for (i = 0; i < o->n; i++) {
		if (!f->sink(f->ctx, &o->ev[i], err))
			continue;
		/* bad input from the file's last line: a line cut short,
		 * skipped as the parser skips one it cannot read */
		if (err->status == IDL_EXIT_BADINPUT &&
		    o->line[i] == c->lines && text_chunk_at_end(c))
			return 0;
		return -1;
	}
	if (c->status == TEXT_CHUNK_FULL &&
	    text_chunk_lines(c, run_line, &rc->direct, NULL, err))
		return -1;
	if (c->status == TEXT_CHUNK_ERROR)
		return text_chunk_again(c, false, run_line, &rc->again, err);
	if (c->skipped)
		warn_skipped(c, rc);
	return 0;
}

static const struct text_ops run_ops = {
	.out_size	= sizeof(struct run_out),
	.init		= buffer_init,
	.reset		= buffer_reset,
	.line		= buffer_line,
	.full		= buffer_full,
	.take		= run_take,
};

int import_text_run(const char *path, const char *instance,
		    import_sink sink, void *ctx, struct idl_err *err)
{
	struct run_ctx rc;

	memset(&rc, 0, sizeof(rc));
	rc.direct.fast.path = path;
	rc.direct.fast.want = instance ? instance : "";
	rc.direct.fast.sink = sink;
	rc.direct.fast.ctx = ctx;
	rc.again.fast = rc.direct.fast;
	rc.again.fast.sink = no_sink;
	return text_par_run(path, &run_ops, &rc, err);
}
