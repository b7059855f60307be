/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text from outside (names in tables, traces, results files; paths) on
 * its way to a terminal, a CSV file or JSON: control characters and
 * bytes that are not UTF-8 never get through raw (doc/hardening.md).
 */
#ifndef IDLELAB_TEXT_H
#define IDLELAB_TEXT_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Replace, in place, every control character (an escape sequence, a
 * newline) and every byte that is not part of valid UTF-8 by '?'.
 * Returns how many bytes were replaced.
 */
int idl_text_clean(char *s);

/* A JSON string of any bytes: invalid UTF-8 becomes U+FFFD, said once
 * on stderr.  Never NULL unless out of memory. */
struct json_t;
struct json_t *idl_json_string(const char *s);
/* A number, or null when it is not finite (json_real() refuses those). */
struct json_t *idl_json_number(double v);

/*
 * A CSV text cell, quoted (always, or when it holds a comma, a quote or
 * a line end); a cell that a spreadsheet would take for a
 * formula (first character = + - @, tab or carriage return) gets a
 * leading apostrophe.  Numbers are written by the callers as numbers.
 */
void idl_csv_text(FILE *f, const char *s, bool always_quote);

#endif /* IDLELAB_TEXT_H */
