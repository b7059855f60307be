/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Readers of kernel traces (ftrace text, trace-cmd report text, trace.dat)
 * that feed normalized events to the model.  Each reader has a cheap scan
 * pass (which buffer, how many CPUs, HZ) and a run pass.
 */
#ifndef IDLELAB_IMPORT_H
#define IDLELAB_IMPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "events.h"
#include "model.h"

#define IMPORT_MAX_BUFFERS	16

enum import_format { IMPORT_AUTO, IMPORT_FTRACE, IMPORT_REPORT, IMPORT_DAT };

struct import_scan {
	uint32_t	hz;		/* 0 if unknown */
	bool		hz_from_file;	/* stated by the file, not estimated */
	uint32_t	nr_cpus;	/* "cpus=N" or highest CPU + 1 */
	char		clock[32];	/* trace clock if the file says */
	char		kernel[128];	/* uname -r if the file says */
	int		nr_buffers;
	struct {
		char	name[64];	/* "" = top-level buffer */
		uint64_t idle_events;
	} buf[IMPORT_MAX_BUFFERS];
	int		chosen;		/* index into buf, -1 none */
};

/* Event sink: called for every parsed event, in input order. */
typedef int (*import_sink)(void *ctx, const struct raw_event *e,
			   struct idl_err *err);

enum import_format import_detect(const char *path, struct idl_err *err);

/*
 * Parse one text line.  Returns 0 and calls @sink for each event it holds
 * (an ipi_send_cpumask gives one event per target), or -1 with @err set
 * when a known event has bad fields.  @buffer receives the instance
 * prefix ("" for the top-level buffer); lines of other buffers than
 * @want (NULL: all) are skipped.
 */
int import_text_line(const char *path, unsigned long lineno, char *line,
		     const char *want, char *buffer, size_t buffer_len,
		     import_sink sink, void *ctx, struct idl_err *err);

int import_text_scan(const char *path, const char *instance,
		     struct import_scan *s, struct idl_err *err);
int import_text_run(const char *path, const char *instance,
		    import_sink sink, void *ctx, struct idl_err *err);

int import_dat_scan(const char *path, const char *instance,
		    struct import_scan *s, struct idl_err *err);
int import_dat_run(const char *path, const char *instance,
		   import_sink sink, void *ctx, struct idl_err *err);

#endif /* IDLELAB_IMPORT_H */
