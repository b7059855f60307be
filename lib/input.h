/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening input files and reading their lines with limits.
 *
 * Inputs are regular files only: a FIFO without a writer blocks in
 * open(), a device like /dev/zero never ends, a directory is not a
 * file.  Each kind of text input has a size limit (a sanity check: the
 * largest real file is far below it) and a line cap, so that no input
 * makes idlelab read or allocate without bound.  Every refusal is a
 * clear message with exit status 2.
 */
#ifndef IDLELAB_INPUT_H
#define IDLELAB_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

/* Limits of the text inputs that are loaded whole (doc/hardening.md). */
#define IDL_TABLE_MAX_SIZE	(1u << 20)	/* C-state table files */
#define IDL_TABLE_MAX_LINE	65536u
#define IDL_JOURNAL_MAX_SIZE	(4u << 20)	/* live journal */
#define IDL_JOURNAL_MAX_LINE	4400u
#define IDL_RESULTS_MAX_SIZE	(512ull << 20)	/* results JSON */
#define IDL_RESULTS_MAX_LINE	(64u << 20)

/*
 * Open @path for reading without blocking, refuse anything but a regular
 * file and, when @max_size is not 0, a file larger than @max_size bytes
 * (@what names the kind of input in that message).  Returns the file
 * descriptor (close-on-exec, blocking again) or -1 with @err set.
 */
int idl_input_open(const char *path, uint64_t max_size, const char *what,
		   struct idl_err *err);
/*
 * Is @fd a file of the kernel's own (procfs, sysfs, tracefs, debugfs)?
 * Those are "regular" with a size of 0 or 4096 whatever they hold, and
 * some wait for data that may never come: idl_input_open() refuses
 * tracefs' trace_pipe files and leaves the others non-blocking.
 */
bool idl_input_kernel_file(int fd);

/* The same as a stdio stream ("r"), or NULL. */
FILE *idl_input_fopen(const char *path, uint64_t max_size, const char *what,
		      struct idl_err *err);

/*
 * A results JSON document from @f (opened by idl_input_fopen()), with
 * duplicate keys refused and the IDL_RESULTS_MAX_LINE cap; errors are
 * "path:line: ..." (a syntax error) or "path: ...".  NULL with @err set.
 */
struct json_t;
struct json_t *idl_json_loadf(FILE *f, const char *path,
			      struct idl_err *err);
/* The same, opening @path (a regular file of at most
 * IDL_RESULTS_MAX_SIZE bytes). */
struct json_t *idl_json_load(const char *path, struct idl_err *err);

/*
 * Between begin and end, jansson allocates from an arena that end
 * releases whole: for a document that is parsed, read and dropped
 * (json_decref() before end; nothing of it may be kept).  A large
 * results file is millions of small allocations, most of the time of
 * loading it with malloc (compare of 100,000 rows).
 */
void idl_json_arena_begin(void);
void idl_json_arena_end(void);

/* A line reader with a cap; errors are "path:line: ...". */
struct idl_lines {
	FILE		*f;
	const char	*path;
	size_t		max;		/* longest line taken, in bytes */
	unsigned long	no;		/* number of the line just read */
	uint64_t	off;		/* offset of the line just read */
	uint64_t	next;		/* offset of the next line */
	size_t		len;		/* its length, without the newline */
	char		*buf;		/* the line, NUL-terminated */
};

/* @max + 2 bytes are allocated; 0, or -1 (out of memory). */
int idl_lines_init(struct idl_lines *l, FILE *f, const char *path,
		   size_t max, struct idl_err *err);
/*
 * Read the next line without its "\n" (and "\r\n").  1 for a line, 0 at
 * the end, -1 for a line longer than the cap, a NUL byte in a line or a
 * read error.
 */
int idl_lines_next(struct idl_lines *l, struct idl_err *err);
void idl_lines_free(struct idl_lines *l);

#endif /* IDLELAB_INPUT_H */
