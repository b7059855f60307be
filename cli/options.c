// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Command-line options: typed value parsers, a command's option table
 * turned into getopt_long() arguments and --help lines, and the one way
 * every bad option or operand is reported (options.h).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "options.h"

/* ---------------------------------------------------------- messages */

static const struct idl_option help_opt =
	IDL_OPT_FLAG('h', "help", NULL, "show this help");

static const char *opt_name(const struct idl_option *o, char *buf,
			    size_t len)
{
	if (o->long_name)
		snprintf(buf, len, "--%s", o->long_name);
	else
		snprintf(buf, len, "-%c", o->short_name);
	return buf;
}

static void try_help(void)
{
	fprintf(stderr, "Try '%s --help'.\n", idl_progname);
}

int idl_usage_error(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	idl_error("%s", msg);
	try_help();
	return IDL_EXIT_BADINPUT;
}

int idl_opt_error(const struct idl_option *o, const char *arg,
		  const char *what)
{
	char name[64];

	idl_error("%s: '%s' is not %s", opt_name(o, name, sizeof(name)), arg,
		  what);
	return -1;
}

/* --------------------------------------------------------- typed values */

/* The range of an integer option: its bounds within its C type's. */
static void int_range(const struct idl_option *o, long long *lo,
		      unsigned long long *hi, unsigned long long *top)
{
	static const struct { long long lo; unsigned long long hi; } types[] = {
		[IDL_T_INT] = { INT_MIN, INT_MAX },
		[IDL_T_UINT] = { 0, UINT_MAX },
		[IDL_T_S64] = { INT64_MIN, INT64_MAX },
		[IDL_T_U64] = { 0, UINT64_MAX },
		[IDL_T_CPU] = { 0, IDL_CPU_MAX },
	};

	*lo = o->min > types[o->type].lo ? o->min : types[o->type].lo;
	*top = types[o->type].hi;
	*hi = o->max < *top ? o->max : *top;
}

/* What a valid value of @o is, for the message: "an integer in 1..256". */
static void describe(const struct idl_option *o, char *buf, size_t len)
{
	const char *const *c;
	unsigned long long hi, top;
	long long lo;
	size_t n = 0;

	switch (o->type) {
	case IDL_T_DOUBLE:
		snprintf(buf, len, o->flags & IDL_OPT_ABOVE_MIN ?
			 "a number > %.15g and <= %.15g" : "a number in "
			 "%.15g..%.15g", o->dmin, o->dmax);
		return;
	case IDL_T_CHOICE:
		for (c = o->choices; *c && n < len; c++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      c == o->choices ? "" :
					      c[1] ? ", " : " or ", *c);
		return;
	default:
		break;
	}
	int_range(o, &lo, &hi, &top);
	if (o->type == IDL_T_CPU)
		snprintf(buf, len, "a CPU number in 0..%llu", hi);
	else
		snprintf(buf, len, "an integer in %lld..%llu", lo, hi);
}

static bool is_integer(const struct idl_option *o)
{
	return o->type == IDL_T_INT || o->type == IDL_T_UINT ||
	       o->type == IDL_T_S64 || o->type == IDL_T_U64;
}

static int parse_integer(const struct idl_option *o, const char *arg)
{
	unsigned long long hi, top;
	long long lo, v;

	int_range(o, &lo, &hi, &top);
	if (o->type == IDL_T_CPU)
		return idl_parse_cpu(arg, (int)hi, o->value);
	if (o->type == IDL_T_U64)
		return idl_parse_u64(arg, (uint64_t)lo, hi, o->value);
	if (idl_parse_int(arg, lo, (long long)hi, &v))
		return -1;
	if (o->type == IDL_T_INT)
		*(int *)o->value = (int)v;
	else if (o->type == IDL_T_UINT)
		*(unsigned int *)o->value = (unsigned int)v;
	else
		*(int64_t *)o->value = v;
	return 0;
}

static int parse_choice(const struct idl_option *o, const char *arg)
{
	int i;

	for (i = 0; o->choices[i]; i++)
		if (!strcmp(arg, o->choices[i])) {
			*(int *)o->value = i;
			return 0;
		}
	return -1;
}

/* Set @o from @arg; 0, or -1 with the message printed. */
static int set_value(const struct idl_option *o, const char *arg)
{
	char what[256];
	struct idl_err err;
	int ret;

	switch (o->type) {
	case IDL_T_BOOL:
		*(bool *)o->value = true;
		return 0;
	case IDL_T_STRING:
		if ((o->flags & IDL_OPT_NONEMPTY) && !*arg)
			return idl_opt_error(o, arg, "a name (it is empty)");
		if ((o->flags & IDL_OPT_OUTFILE) && idl_out_check(arg, &err)) {
			idl_error("%s: %s", opt_name(o, what, sizeof(what)),
				  err.msg);
			return -1;
		}
		*(const char **)o->value = arg;
		return 0;
	case IDL_T_CALLBACK:
		return o->cb(o, arg);
	case IDL_T_DOUBLE:
		ret = idl_parse_double(arg, o->dmin, o->dmax,
				       o->flags & IDL_OPT_ABOVE_MIN,
				       (double *)o->value);
		break;
	case IDL_T_CHOICE:
		ret = parse_choice(o, arg);
		break;
	default:
		ret = parse_integer(o, arg);
		break;
	}
	if (!ret)
		return 0;
	describe(o, what, sizeof(what));
	return idl_opt_error(o, arg, what);
}

/* ------------------------------------------------------------- getopt */

#define MAX_OPTIONS	40

/* The table's options, then -h, --help: the one after @o (NULL: first). */
static const struct idl_option *next_opt(const struct idl_cmdline *cl,
					 const struct idl_option *o)
{
	if (o == &help_opt)
		return NULL;
	o = o ? o + 1 : cl->opts;
	return o->type == IDL_T_END ? &help_opt : o;
}

#define for_each_opt(o, cl) \
	for (o = next_opt(cl, NULL); o; o = next_opt(cl, o))

/* getopt_long()'s value for @o: its short name, or 256 + its index. */
static int opt_key(const struct idl_cmdline *cl, const struct idl_option *o)
{
	if (o->short_name)
		return o->short_name;
	return 256 + (int)(o - cl->opts);
}

static const struct idl_option *find_opt(const struct idl_cmdline *cl,
					 int key)
{
	const struct idl_option *o;

	for_each_opt(o, cl)
		if (opt_key(cl, o) == key)
			return o;
	return NULL;
}

static int has_arg(const struct idl_option *o)
{
	if (!o->arg_name)
		return no_argument;
	return o->flags & IDL_OPT_OPTIONAL_ARG ? optional_argument :
	       required_argument;
}

/* The table as getopt_long() arguments; -1 if it is too long. */
static int getopt_args(const struct idl_cmdline *cl, struct option *lopts,
		       char *sopts)
{
	const struct idl_option *o;
	int n = 0, k = 0;

	if (cl->in_order)
		*sopts++ = '+';
	*sopts++ = ':';		/* ':' for a missing argument */
	for_each_opt(o, cl) {
		if (k++ == MAX_OPTIONS)
			return -1;
		if (o->long_name)
			lopts[n++] = (struct option){ o->long_name, has_arg(o),
						      NULL, opt_key(cl, o) };
		if (o->short_name) {
			*sopts++ = (char)o->short_name;
			if (has_arg(o) != no_argument)
				*sopts++ = ':';
			if (has_arg(o) == optional_argument)
				*sopts++ = ':';
		}
	}
	lopts[n] = (struct option){ NULL, 0, NULL, 0 };
	*sopts = '\0';
	return 0;
}

/* An unknown long option @word, or a prefix of several. */
static void unknown_long(const struct idl_cmdline *cl, const char *word)
{
	const struct idl_option *o;
	size_t len = strcspn(word + 2, "=");
	char list[512] = "";
	int n = 0;

	if (strncmp(word, "--", 2)) {
		idl_error("unknown option '%s'", word);
		return;
	}
	for_each_opt(o, cl) {
		if (o->long_name && !strncmp(o->long_name, word + 2, len)) {
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s--%s", n ? ", " : "", o->long_name);
			n++;
		}
	}
	if (n > 1)
		idl_error("ambiguous option '%.*s' (%s)", (int)len + 2, word,
			  list);
	else
		idl_error("unknown option '%.*s'", (int)len + 2, word);
}

/* What getopt_long() refused: @c is '?' or ':' (missing argument). */
static void getopt_error(const struct idl_cmdline *cl, int c, char **argv)
{
	const struct idl_option *o = optopt ? find_opt(cl, optopt) : NULL;
	char name[64];

	if (c == ':' && o)
		idl_error("%s: missing argument %s",
			  opt_name(o, name, sizeof(name)), o->arg_name);
	else if (o)
		idl_error("%s: takes no argument",
			  opt_name(o, name, sizeof(name)));
	else if (optopt)
		idl_error("unknown option '-%c'", optopt);
	else
		unknown_long(cl, argv[optind - 1]);
}

static int check_operands(const struct idl_cmdline *cl, int n, char **rest)
{
	if (n < cl->min_operands)
		return idl_usage_error("missing %s", cl->operand);
	if (cl->max_operands < 0 || n <= cl->max_operands)
		return 0;
	if (!cl->max_operands)
		return idl_usage_error("unexpected argument '%s'", rest[0]);
	return idl_usage_error("unexpected argument '%s' (at most %d %s)",
			       rest[cl->max_operands], cl->max_operands,
			       cl->operand);
}

/* Is @path, given to the output option @out, also read (or written) by
 * another option or an operand?  Then refuse: the output would replace
 * what the command reads. */
static int output_is_input(const struct idl_cmdline *cl,
			   const struct idl_option *out, const char *path,
			   int n, char **rest)
{
	const struct idl_option *o;
	char name[64], other[64];
	const char *v;
	int i;

	for (o = cl->opts; o->type != IDL_T_END; o++) {
		if (o == out || o->type != IDL_T_STRING ||
		    !(o->flags & IDL_OPT_NONEMPTY))
			continue;
		v = *(const char **)o->value;
		if (v && idl_same_file(path, v)) {
			idl_error("%s: '%s' is also the file of %s: it would "
				  "be replaced", opt_name(out, name,
				  sizeof(name)), path,
				  opt_name(o, other, sizeof(other)));
			return -1;
		}
	}
	for (i = 0; cl->input_operands && i < n; i++)
		if (idl_same_file(path, rest[i])) {
			idl_error("%s: '%s' is also an input (%s): it would "
				  "be replaced", opt_name(out, name,
				  sizeof(name)), path, rest[i]);
			return -1;
		}
	return 0;
}

static int check_outputs(const struct idl_cmdline *cl, int n, char **rest)
{
	const struct idl_option *o;
	const char *v;

	for (o = cl->opts; o->type != IDL_T_END; o++) {
		if (!(o->flags & IDL_OPT_OUTFILE))
			continue;
		v = *(const char **)o->value;
		if (v && output_is_input(cl, o, v, n, rest))
			return -1;
	}
	return 0;
}

int idl_parse_options(int argc, char **argv, const struct idl_cmdline *cl)
{
	struct option lopts[MAX_OPTIONS + 1];
	char sopts[3 * MAX_OPTIONS + 3];	/* "+:" "o::" ... */
	const struct idl_option *o;
	int c;

	if (getopt_args(cl, lopts, sopts))
		return idl_usage_error("internal error: too many options");
	optind = 0;		/* start afresh (glibc) */
	opterr = 0;		/* the messages are ours */
	while ((c = getopt_long(argc, argv, sopts, lopts, NULL)) != -1) {
		o = c == '?' || c == ':' ? NULL : find_opt(cl, c);
		if (o == &help_opt) {
			idl_print_help(stdout, cl);
			return IDL_OPTS_HELP;
		}
		if (!o) {
			getopt_error(cl, c, argv);
			try_help();
			return IDL_OPTS_BAD;
		}
		if (set_value(o, optarg)) {
			try_help();
			return IDL_OPTS_BAD;
		}
	}
	if (check_operands(cl, argc - optind, argv + optind))
		return IDL_OPTS_BAD;
	if (check_outputs(cl, argc - optind, argv + optind)) {
		try_help();
		return IDL_OPTS_BAD;
	}
	return optind;
}

/* --------------------------------------------------------------- help */

#define HELP_WIDTH	79	/* help lines are at most this long */
#define HELP_COL_MAX	30	/* help texts start at most here */

/* "  -o, --output FILE", "      --list-bench[=roff]" */
static int opt_left(const struct idl_option *o, char *buf, size_t len)
{
	bool opt = o->flags & IDL_OPT_OPTIONAL_ARG;
	const char *a = o->arg_name ? o->arg_name : "";
	char s[8] = "    ";

	if (!o->long_name)
		return snprintf(buf, len, "  -%c%s%s", o->short_name,
				*a ? " " : "", a);
	if (o->short_name)
		snprintf(s, sizeof(s), "-%c, ", o->short_name);
	return snprintf(buf, len, "  %s--%s%s%s%s", s, o->long_name,
			!*a ? "" : opt ? "[=" : " ", a, opt && *a ? "]" : "");
}

/* @text at column @col on, words wrapped; '\n' starts a new line. */
static void print_wrapped(FILE *f, const char *text, int col)
{
	int x = col;
	size_t w;

	while (*text) {
		if (*text == ' ' || *text == '\n') {
			if (*text++ == '\n' && x > col) {
				fprintf(f, "\n%*s", col, "");
				x = col;
			}
			continue;
		}
		w = strcspn(text, " \n");
		if (x > col && x + 1 + (int)w > HELP_WIDTH) {
			fprintf(f, "\n%*s", col, "");
			x = col;
		} else if (x > col) {
			fputc(' ', f);
			x++;
		}
		fwrite(text, 1, w, f);
		x += (int)w;
		text += w;
	}
	fputc('\n', f);
}

/* An integer option's help ends with its range, unless it gives one. */
static void print_opt(FILE *f, const struct idl_option *o, int col)
{
	char left[128], help[512];
	unsigned long long hi, top;
	long long lo;
	int n = opt_left(o, left, sizeof(left));

	fputs(left, f);
	if (n + 2 > col)
		fprintf(f, "\n%*s", col, "");
	else
		fprintf(f, "%*s", col - n, "");
	if (!is_integer(o) || strstr(o->help, "..")) {
		print_wrapped(f, o->help, col);
		return;
	}
	int_range(o, &lo, &hi, &top);
	if (hi == top)
		snprintf(help, sizeof(help), "%s (>= %lld)", o->help, lo);
	else
		snprintf(help, sizeof(help), "%s (%lld..%llu)", o->help, lo,
			 hi);
	print_wrapped(f, help, col);
}

void idl_print_help(FILE *f, const struct idl_cmdline *cl)
{
	const struct idl_option *o;
	char left[128];
	int col = 0, n;

	if (cl->print_usage)
		cl->print_usage(f);
	else
		fputs(cl->usage, f);
	for_each_opt(o, cl) {
		n = opt_left(o, left, sizeof(left)) + 2;
		if (n <= HELP_COL_MAX && n > col)
			col = n;
	}
	fputs("\nOptions:\n", f);
	for_each_opt(o, cl)
		print_opt(f, o, col);
	if (cl->print_footer || cl->footer)
		fputc('\n', f);
	if (cl->print_footer)
		cl->print_footer(f);
	else if (cl->footer)
		fputs(cl->footer, f);
}
