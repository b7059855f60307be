/* SPDX-License-Identifier: GPL-2.0-or-later */
/* record --probe-inputs: the kernel's own governor inputs as kprobes. */
#ifndef IDLELAB_RECORD_PROBES_H
#define IDLELAB_RECORD_PROBES_H

#include <stdbool.h>

#include "error.h"

struct tracefs_instance;

/* The tracefs group of record's probes (never "kprobes", the user's). */
#define REC_PROBE_GROUP	"idlelab_record"

/*
 * Define the probes (or take those a running recorder defined) and
 * enable them in @inst: the number enabled, or -1 with @err set when
 * the sleep-length probe, which the others are worth little without,
 * cannot be had.  The others missing are said on stderr unless @quiet.
 */
int rec_probes_setup(struct tracefs_instance *inst, bool quiet,
		     struct idl_err *err);
/* Remove the group's probes that no instance has enabled. */
void rec_probes_remove_unused(void);

#endif /* IDLELAB_RECORD_PROBES_H */
