// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"

const char *idl_progname = "idlelab";

static int err_vset(struct idl_err *e, int status, const char *prefix,
		    const char *fmt, va_list ap)
{
	size_t n;

	if (!e)
		return -1;
	e->status = status;
	n = (size_t)snprintf(e->msg, sizeof(e->msg), "%s", prefix);
	if (n >= sizeof(e->msg))
		n = sizeof(e->msg) - 1;
	vsnprintf(e->msg + n, sizeof(e->msg) - n, fmt, ap);
	return -1;
}

int idl_err_set(struct idl_err *e, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(e, status, "", fmt, ap);
	va_end(ap);
	return -1;
}

int idl_err_at_line(struct idl_err *e, const char *file, unsigned long line,
		    const char *fmt, ...)
{
	char prefix[300];
	va_list ap;

	snprintf(prefix, sizeof(prefix), "%s:%lu: ", file, line);
	va_start(ap, fmt);
	err_vset(e, IDL_EXIT_BADINPUT, prefix, fmt, ap);
	va_end(ap);
	return -1;
}

int idl_err_at_offset(struct idl_err *e, const char *file, uint64_t offset,
		      const char *fmt, ...)
{
	char prefix[300];
	va_list ap;

	snprintf(prefix, sizeof(prefix), "%s: offset %" PRIu64 ": ", file,
		 offset);
	va_start(ap, fmt);
	err_vset(e, IDL_EXIT_BADINPUT, prefix, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * A message on standard error: it may quote a file name or an argument,
 * so control characters (an escape sequence) are shown as '?'; line
 * breaks and tabs of the message itself stay.
 */
static void put_message(const char *kind, const char *msg)
{
	const unsigned char *p;

	fprintf(stderr, "%s: %s", idl_progname, kind);
	for (p = (const unsigned char *)msg; *p; p++)
		fputc((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f ?
		      '?' : *p, stderr);
	fputc('\n', stderr);
}

void idl_err_print(const struct idl_err *e)
{
	put_message("", e->msg);
}

/* "progname: [kind]message\n" on standard error */
static void vreport(const char *kind, const char *fmt, va_list ap)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	put_message(kind, msg);
}

void idl_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(status);
}

void idl_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}

void idl_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}
