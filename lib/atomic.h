/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef IDLELAB_ATOMIC_H
#define IDLELAB_ATOMIC_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "error.h"

/*
 * Write @path atomically: @write_fn fills a temporary file next to it,
 * which is then flushed, synced and renamed over @path, with the usual
 * umask permissions.  On any failure (@write_fn returning non-zero, a full
 * disk, an I/O error) the temporary file is removed, @path is untouched and
 * @err says why; a @write_fn that sets @err itself keeps its message.
 * Where @path is a character device or FIFO (/dev/null, /dev/stdout), the
 * finished output is written into it instead (idl_commit()).
 */
int idl_write_atomic(const char *path,
		     int (*write_fn)(FILE *f, void *ctx, struct idl_err *err),
		     void *ctx, struct idl_err *err);

/*
 * Can @path be an output?  Nothing there, a regular file (also through a
 * symlink), a character device or a FIFO can; a directory, a block
 * device, a socket or a symlink to nothing cannot (exit 2, @err says
 * why).  Only a regular file is ever replaced.
 */
int idl_out_check(const char *path, struct idl_err *err);

/* Do @a and @b name the same file (the same name, or device and inode)? */
bool idl_same_file(const char *a, const char *b);

/* Where a command's summary goes: stderr when its output @out is
 * standard output's file (-o /dev/stdout), else stdout. */
FILE *idl_summary_stream(const char *out);

/*
 * The mkstemp() template of a temporary file for @path, in @tmp:
 * "PATH.tmpPID.XXXXXX", next to the file a symlink @path names; for a
 * device or FIFO, "$TMPDIR/idlelab-out.tmpPID.XXXXXX".  First removes
 * stale ones there, left by a writer that was killed: those whose
 * process is gone, and those of the older forms without a pid
 * ("PATH.tmpXXXXXX", "PATH.tmp-XXXXXX") that are more than an hour old.
 * -1 when @path is too long or cannot be an output (idl_out_check()).
 */
int idl_tmp_template(const char *path, char *tmp, size_t len);

/*
 * Put the finished temporary file @tmp in place of @path: renamed over a
 * regular file (the one a symlink names), or copied into a character
 * device or FIFO and removed.  @tmp is gone afterwards either way.
 */
int idl_commit(const char *tmp, const char *path, struct idl_err *err);

/*
 * Is a temporary name whose end is @rest ("PID.XXXXXX", or of the older
 * forms "XXXXXX" and "-XXXXXX") left by a writer that is gone: its
 * process no longer runs, or, without a pid, @mtime is an hour old?
 */
bool idl_tmp_stale(const char *rest, time_t mtime);

#endif /* IDLELAB_ATOMIC_H */
