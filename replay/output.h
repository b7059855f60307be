/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the replay output (output.c, output-text.c): the visitor that
 * hands every number of a column to an emitter, and the text card.
 */
#ifndef IDLELAB_REPLAY_OUTPUT_H
#define IDLELAB_REPLAY_OUTPUT_H

#include <stdio.h>

#include "run.h"

typedef void (*emit_fn)(void *ctx, const char *metric, const char *key,
			double v, bool is_int);

static inline double replay_pct(u64 a, u64 b)
{
	/* undefined: null, empty or "-" (doc/scoring.md) */
	return b ? 100.0 * (double)a / (double)b : NAN;
}

/* Every number of column @gi (its scores @sc over workload @wl), by
 * name (doc/scoring.md); NaN throughout for a failed column. */
void replay_visit_column(const struct replay_trace *tr, int gi,
			 const struct replay_score *sc,
			 const struct replay_workload *wl, emit_fn emit,
			 void *ctx);
void replay_text_card(FILE *f, const struct replay_trace *tr);

#endif /* IDLELAB_REPLAY_OUTPUT_H */
