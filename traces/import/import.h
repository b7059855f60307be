/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Importers of kernel traces (ftrace text, trace-cmd report text,
 * trace.dat) and the import pipeline over them.  Each importer is one
 * file traces/import-NAME.c defining a struct importer importer_NAME,
 * listed in IMPORTERS (traces/Makefile.inc); it reads in two passes, a
 * cheap scan (which buffer, how many CPUs, HZ) and a run that feeds
 * normalized events to the model.
 */
#ifndef IDLELAB_IMPORT_H
#define IDLELAB_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "events.h"
#include "model.h"

#define IMPORT_MAX_BUFFERS	16

struct import_scan {
	uint32_t	hz;		/* 0 if unknown */
	bool		hz_from_file;	/* stated by the file, not estimated */
	uint32_t	nr_cpus;	/* "cpus=N" or highest CPU + 1 */
	char		clock[32];	/* trace clock if the file says */
	char		kernel[128];	/* uname -r if the file says */
	bool		tmigr;		/* idle CPUs' timers migrate (6.9+) */
	/* the CPU latency QoS at the start, if the file says (record
	 * --raw); else the first pm_qos_update_target tells it */
	bool		latency_set;
	int64_t		latency_req_ns;
	/* each CPU's resume-latency constraint at the start, us (-1: none),
	 * if the file says (record --raw) */
	bool		dev_qos_set;
	int32_t		dev_qos_us[TRACE_MAX_CPUS];
	uint64_t	overwritten;	/* events the ring buffer overwrote */
	uint64_t	complete_from;	/* then: when every CPU's record has
					 * begun (0: from the start) */
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
/* Called once the scan is done, before the first event: its failure
 * ends the import. */
typedef int (*import_ready)(void *ctx, const struct import_scan *s,
			    struct idl_err *err);

/* Bytes of the file's start that detect() is shown (fewer if shorter). */
#define IMPORT_HEAD_MAX	64

struct importer {
	const char	*name;	/* --format NAME */
	const char	*desc;	/* in the trace's source, "trace.dat" */
	/* Does a file starting with @head (@n bytes) look like this
	 * format?  Asked in IMPORTERS order; the last one takes anything. */
	bool (*detect)(const unsigned char *head, size_t n);
	/* Fill @s, choosing the buffer @instance (NULL: most cpu_idle). */
	int (*scan)(const char *path, const char *instance,
		    struct import_scan *s, struct idl_err *err);
	/* Every event of buffer @instance ("" top-level) to @sink. */
	int (*run)(const char *path, const char *instance,
		   import_sink sink, void *ctx, struct idl_err *err);
	/* Optional, instead of scan and run: both from one opening of the
	 * file (a trace.dat's costs as much as reading its events), with
	 * @ready between them. */
	int (*scan_run)(const char *path, const char *instance,
			struct import_scan *s, import_ready ready,
			import_sink sink, void *ctx, struct idl_err *err);
};

/* The importers in detection order, NULL-terminated. */
const struct importer *const *importer_list(void);
const struct importer *importer_find(const char *name);
/* The first importer whose detect() accepts @path, or NULL with @err. */
const struct importer *importer_detect(const char *path,
				       struct idl_err *err);

struct idl_governor;

struct import_opts {
	const char	*in, *out;
	/* the C-state table (traces carry none): one of the two */
	const char	*machine, *states;
	const char	*instance;	/* NULL: most cpu_idle events */
	const struct importer *format;	/* NULL: detected */
	/* the governor live at capture, stored in the trace; or NULL */
	const struct idl_governor *gov;
	uint32_t	hz;		/* 0: the file's or estimated */
};

/* What an import did, for the summary of idlelab import. */
struct import_summary {
	/* the model's counts; they also give model_print_missing()'s
	 * lines, after the model is gone */
	struct model_stats stats;
	double		seconds;	/* wall time of the whole import */
	uint64_t	overwritten;	/* by the ring buffer (import_scan) */
	bool		hz_estimated;	/* HZ neither given nor in the file */
};

/* Read @o->in, write the trace @o->out, fill @s. */
int import_trace(const struct import_opts *o, struct import_summary *s,
		 struct idl_err *err);

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

/* The scan and run of the text formats (ftrace and trace-cmd report). */
int import_text_scan(const char *path, const char *instance,
		     struct import_scan *s, struct idl_err *err);
int import_text_run(const char *path, const char *instance,
		    import_sink sink, void *ctx, struct idl_err *err);

#endif /* IDLELAB_IMPORT_H */
