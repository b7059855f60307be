/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One small error-reporting helper for the whole project.
 *
 * Bad input is reported as "file:line: what is wrong" (text) or
 * "file: offset N: what is wrong" (binary), and the command exits with
 * status 2 (IDL_EXIT_BADINPUT).  Library code does not exit: it fills a
 * struct idl_err and returns an error; the CLI prints it and exits.
 */
#ifndef IDLELAB_ERROR_H
#define IDLELAB_ERROR_H

#include <stddef.h>
#include <stdint.h>

#define IDL_EXIT_OK		0
#define IDL_EXIT_FAILURE	1	/* environment: not root, no tracefs, ... */
#define IDL_EXIT_BADINPUT	2	/* bad input or usage */
#define IDL_EXIT_SKIP		77	/* tests: not applicable here */

struct idl_err {
	int	status;		/* exit status the CLI should use */
	char	msg[512];
};

/* Format a message into @e and set its exit status; returns -1. */
int idl_err_set(struct idl_err *e, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "file:line: ..." */
int idl_err_at_line(struct idl_err *e, const char *file, unsigned long line,
		    const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* "file: offset N: ..." */
int idl_err_at_offset(struct idl_err *e, const char *file, uint64_t offset,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Print "idlelab: msg" (or "idlelab CMD: msg") to stderr. */
void idl_err_print(const struct idl_err *e);

/* For the CLI: print a formatted message to stderr and exit(status). */
void idl_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* The same without exiting, and a warning ("progname: warning: ..."). */
void idl_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void idl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The program name used in messages ("idlelab" or "idlelab states"). */
extern const char *idl_progname;

#endif /* IDLELAB_ERROR_H */
