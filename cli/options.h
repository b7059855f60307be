/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command-line options of the subcommands.  A command declares its
 * options once, in a table of struct idl_option; that table gives
 * getopt_long() its options and --help its option lines, and typed
 * values are parsed and range-checked here.  Every bad option value,
 * unknown option, missing argument or wrong operand is reported the same
 * way, and the command then exits with status 2 (IDL_EXIT_BADINPUT):
 *
 *	idlelab replay: --jobs: '0' is not an integer in 1..256
 *	Try 'idlelab replay --help'.
 *
 * Numbers are decimal, with an optional sign and nothing around them: no
 * blanks, no hexadecimal, no "nan" or "inf", no trailing characters.
 */
#ifndef IDLELAB_OPTIONS_H
#define IDLELAB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

#include "number.h"

/* ---- option tables ---- */

enum idl_opt_type {
	IDL_T_END,		/* ends a table */
	IDL_T_BOOL,		/* bool: set to true, no argument */
	IDL_T_STRING,		/* const char *: the argument as given */
	IDL_T_INT,		/* int in [min, max] */
	IDL_T_UINT,		/* unsigned int in [min, max] */
	IDL_T_S64,		/* int64_t in [min, max] */
	IDL_T_U64,		/* uint64_t in [min, max] */
	IDL_T_DOUBLE,		/* double in [dmin, dmax] */
	IDL_T_CPU,		/* int: a CPU number in 0..max */
	IDL_T_CHOICE,		/* int: the argument's index in choices */
	IDL_T_CALLBACK,		/* cb() parses it and reports its errors */
};

#define IDL_OPT_OPTIONAL_ARG	1	/* --name[=ARG] */
#define IDL_OPT_ABOVE_MIN	2	/* IDL_T_DOUBLE: > dmin, not >= dmin */
#define IDL_OPT_NONEMPTY	4	/* IDL_T_STRING: not "" (a path) */
#define IDL_OPT_OUTFILE		8	/* IDL_T_STRING: idl_out_check() */

struct idl_option {
	int			short_name;	/* 'o', or 0: long only */
	const char		*long_name;
	enum idl_opt_type	type;
	void			*value;		/* set as the type says */
	const char		*arg_name;	/* "FILE"; NULL: no argument */
	const char		*help;		/* wrapped; '\n' breaks a line */
	long long		min;		/* integer types */
	unsigned long long	max;		/* integer types, IDL_T_CPU */
	double			dmin, dmax;	/* IDL_T_DOUBLE */
	const char *const	*choices;	/* IDL_T_CHOICE, NULL-ended */
	/* IDL_T_CALLBACK: 0, or -1 after printing a message */
	int			(*cb)(const struct idl_option *o,
				      const char *arg);
	unsigned int		flags;
};

/* @v must point to a T (a compiler warning otherwise). */
#define IDL_OPT_PTR(v, T)	(1 ? (v) : (T *)0)
#define IDL_OPT_COMMON(s, l, t, v, a, h) \
	.short_name = (s), .long_name = (l), .type = (t), .value = (v), \
	.arg_name = (a), .help = (h)

#define IDL_OPT_FLAG(s, l, v, h) \
	{ IDL_OPT_COMMON(s, l, IDL_T_BOOL, IDL_OPT_PTR(v, bool), NULL, h) }
#define IDL_OPT_STR(s, l, v, a, h) \
	{ IDL_OPT_COMMON(s, l, IDL_T_STRING, IDL_OPT_PTR(v, const char *), \
			 a, h) }
/* A file or directory name: "" is refused before anything runs. */
#define IDL_OPT_PATH(s, l, v, a, h) \
	{ IDL_OPT_COMMON(s, l, IDL_T_STRING, IDL_OPT_PTR(v, const char *), \
			 a, h), .flags = IDL_OPT_NONEMPTY }
/* A file to write: refused before anything runs where it cannot be one
 * (a directory, a block device, a socket: idl_out_check()). */
#define IDL_OPT_OUTPUT(s, l, v, a, h) \
	{ IDL_OPT_COMMON(s, l, IDL_T_STRING, IDL_OPT_PTR(v, const char *), \
			 a, h), .flags = IDL_OPT_NONEMPTY | IDL_OPT_OUTFILE }
#define IDL_OPT_INT(s, l, v, a, lo, hi, h) \
	{ IDL_OPT_COMMON(s, l, IDL_T_INT, IDL_OPT_PTR(v, int), a, h), \
	  .min = (lo), .max = (hi) }
#define IDL_OPT_UINT(s, l, v, a, lo, hi, h) \
	{ IDL_OPT_COMMON(s, l, IDL_T_UINT, IDL_OPT_PTR(v, unsigned int), \
			 a, h), .min = (lo), .max = (hi) }
#define IDL_OPT_S64(s, l, v, a, lo, hi, h) \
	{ IDL_OPT_COMMON(s, l, IDL_T_S64, IDL_OPT_PTR(v, int64_t), a, h), \
	  .min = (lo), .max = (hi) }
#define IDL_OPT_U64(s, l, v, a, lo, hi, h) \
	{ IDL_OPT_COMMON(s, l, IDL_T_U64, IDL_OPT_PTR(v, uint64_t), a, h), \
	  .min = (lo), .max = (hi) }
#define IDL_OPT_DOUBLE(s, l, v, a, lo, hi, h) \
	{ IDL_OPT_COMMON(s, l, IDL_T_DOUBLE, IDL_OPT_PTR(v, double), a, h), \
	  .dmin = (lo), .dmax = (hi) }
/* A number above @lo (a positive duration: lo 0). */
#define IDL_OPT_DOUBLE_ABOVE(s, l, v, a, lo, hi, h) \
	{ IDL_OPT_COMMON(s, l, IDL_T_DOUBLE, IDL_OPT_PTR(v, double), a, h), \
	  .dmin = (lo), .dmax = (hi), .flags = IDL_OPT_ABOVE_MIN }
#define IDL_OPT_CPU(s, l, v, a, h) \
	{ IDL_OPT_COMMON(s, l, IDL_T_CPU, IDL_OPT_PTR(v, int), a, h), \
	  .max = IDL_CPU_MAX }
/* @...: the names the argument may be, e.g. "text", "csv", "json" */
#define IDL_OPT_CHOICE(s, l, v, a, h, ...) \
	{ IDL_OPT_COMMON(s, l, IDL_T_CHOICE, IDL_OPT_PTR(v, int), a, h), \
	  .choices = (const char *const[]){ __VA_ARGS__, NULL } }
/* @fn(o, arg) with o->value = @ctx */
#define IDL_OPT_CALLBACK(s, l, ctx, a, fn, h) \
	{ IDL_OPT_COMMON(s, l, IDL_T_CALLBACK, ctx, a, h), .cb = (fn) }
/* The same, --name[=ARG]: arg is NULL when absent. */
#define IDL_OPT_CALLBACK_OPTARG(s, l, ctx, a, fn, h) \
	{ IDL_OPT_COMMON(s, l, IDL_T_CALLBACK, ctx, a, h), .cb = (fn), \
	  .flags = IDL_OPT_OPTIONAL_ARG }
#define IDL_OPT_END		{ .type = IDL_T_END }

/* Literal macro values in help texts: "(default " IDL_STR(X) ")". */
#define IDL_STR_(x)		#x
#define IDL_STR(x)		IDL_STR_(x)

/*
 * A command's command line.  --help prints the usage text (usage lines
 * and a description paragraph), "Options:" with a line per option and
 * -h, --help, then the footer.  print_usage and print_footer replace the
 * texts when they have parts known only at run time.
 */
struct idl_cmdline {
	const char		*usage;
	const struct idl_option	*opts;
	const char		*footer;
	void			(*print_usage)(FILE *f);
	void			(*print_footer)(FILE *f);
	bool			in_order;	/* options end at an operand */
	/* operands: at least min_operands, at most max_operands (-1: any);
	 * operand names the first one in messages ("FILE") */
	int			min_operands, max_operands;
	const char		*operand;
	/* the operands are files read: no output option may name one */
	bool			input_operands;
};

/* idl_parse_options(): help printed, exit 0; error reported, exit 2 */
#define IDL_OPTS_HELP		(-1)
#define IDL_OPTS_BAD		(-2)

/*
 * Parse the options of @argv (argv[0] is the command's name) and check
 * the number of operands.  Returns the index of the first operand, or
 * IDL_OPTS_HELP or IDL_OPTS_BAD, which idl_opts_status() turns into the
 * command's exit status.
 */
int idl_parse_options(int argc, char **argv, const struct idl_cmdline *cl);

static inline int idl_opts_status(int ret)
{
	return ret == IDL_OPTS_HELP ? IDL_EXIT_OK : IDL_EXIT_BADINPUT;
}

void idl_print_help(FILE *f, const struct idl_cmdline *cl);

/* "idlelab CMD: --name: 'ARG' is not WHAT"; returns -1 (for callbacks). */
int idl_opt_error(const struct idl_option *o, const char *arg,
		  const char *what);
/* "idlelab CMD: MESSAGE" and the "Try" line; returns IDL_EXIT_BADINPUT. */
int idl_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif /* IDLELAB_OPTIONS_H */
