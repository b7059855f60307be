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
 */
int idl_write_atomic(const char *path,
		     int (*write_fn)(FILE *f, void *ctx, struct idl_err *err),
		     void *ctx, struct idl_err *err);

/*
 * The mkstemp() template of a temporary file for @path, in @tmp:
 * "PATH.tmpPID.XXXXXX".  First removes stale ones next to @path, left by
 * a writer that was killed: those whose process is gone, and those of
 * the older forms without a pid ("PATH.tmpXXXXXX", "PATH.tmp-XXXXXX")
 * that are more than an hour old.  -1 when @path is too long.
 */
int idl_tmp_template(const char *path, char *tmp, size_t len);

/*
 * Is a temporary name whose end is @rest ("PID.XXXXXX", or of the older
 * forms "XXXXXX" and "-XXXXXX") left by a writer that is gone: its
 * process no longer runs, or, without a pid, @mtime is an hour old?
 */
bool idl_tmp_stale(const char *rest, time_t mtime);

#endif /* IDLELAB_ATOMIC_H */
