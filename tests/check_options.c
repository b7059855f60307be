// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Command-line options (cli/options.c): the typed value parsers, with
 * values worked out by hand, and a small option table parsed, refused
 * and turned into --help text.
 *
 * Decided and checked here: numbers are decimal with an optional sign
 * and nothing around them, so " 5", "5 ", "0x10", "1e3" (as an integer),
 * "nan", "inf" and "1e400" are all refused; a time needs its unit.
 */
#include "config.h"

#include <check.h>
#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"

START_TEST(test_int)
{
	static const char *const bad[] = {
		"", " 5", "5 ", "12abc", "0x10", "1e3", "1.0", "-", "+",
		"--1", "nan", "9223372036854775808",
	};
	long long v;
	size_t i;

	ck_assert_int_eq(idl_parse_int("42", 0, 100, &v), 0);
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(idl_parse_int("+7", 0, 100, &v), 0);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(idl_parse_int("007", 0, 100, &v), 0);	/* not octal */
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(idl_parse_int("-1", -5, 5, &v), 0);
	ck_assert_int_eq(v, -1);
	ck_assert_int_eq(idl_parse_int("256", 1, 256, &v), 0);
	ck_assert_int_eq(v, 256);
	ck_assert_int_eq(idl_parse_int("9223372036854775807", 0, LLONG_MAX,
				       &v), 0);
	ck_assert(v == LLONG_MAX);
	ck_assert_int_eq(idl_parse_int("-9223372036854775808", LLONG_MIN, 0,
				       &v), 0);
	ck_assert(v == LLONG_MIN);
	/* out of range; @v is left alone */
	v = 99;
	ck_assert_int_eq(idl_parse_int("-1", 0, 100, &v), -1);
	ck_assert_int_eq(idl_parse_int("257", 1, 256, &v), -1);
	ck_assert_int_eq(idl_parse_int("0", 1, 256, &v), -1);
	ck_assert_int_eq(v, 99);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(idl_parse_int(bad[i], LLONG_MIN, LLONG_MAX,
					    &v) == -1, "'%s' accepted", bad[i]);
}
END_TEST

START_TEST(test_u64)
{
	uint64_t v;

	ck_assert_int_eq(idl_parse_u64("18446744073709551615", 0, UINT64_MAX,
				       &v), 0);
	ck_assert(v == UINT64_MAX);
	ck_assert_int_eq(idl_parse_u64("18446744073709551616", 0, UINT64_MAX,
				       &v), -1);
	ck_assert_int_eq(idl_parse_u64("+3", 0, 10, &v), 0);
	ck_assert(v == 3);
	/* strtoull() would take "-1" as 2^64 - 1 */
	ck_assert_int_eq(idl_parse_u64("-1", 0, UINT64_MAX, &v), -1);
	ck_assert_int_eq(idl_parse_u64("-0", 0, UINT64_MAX, &v), -1);
	ck_assert_int_eq(idl_parse_u64("0", 1, UINT64_MAX, &v), -1);
	ck_assert_int_eq(idl_parse_u64("11", 1, 10, &v), -1);
	ck_assert_int_eq(idl_parse_u64("", 0, 10, &v), -1);
	ck_assert_int_eq(idl_parse_u64("1 ", 0, 10, &v), -1);
}
END_TEST

START_TEST(test_double)
{
	static const char *const bad[] = {
		"", " 1", "1 ", "1,5", "nan", "NaN", "inf", "-inf",
		"infinity", "1e400", "-1e400", "1e-400", "0x1p3", "1e", "e5",
		".", "1.5.2", "--1", "5s",
	};
	double v;
	size_t i;

	ck_assert_int_eq(idl_parse_double("1.5", 0, 10, false, &v), 0);
	ck_assert(v == 1.5);
	ck_assert_int_eq(idl_parse_double("1e3", 0, 1e4, false, &v), 0);
	ck_assert(v == 1000);
	ck_assert_int_eq(idl_parse_double(".5", 0, 1, false, &v), 0);
	ck_assert(v == 0.5);
	ck_assert_int_eq(idl_parse_double("5.", 0, 10, false, &v), 0);
	ck_assert(v == 5);
	ck_assert_int_eq(idl_parse_double("-2.5", -3, 0, false, &v), 0);
	ck_assert(v == -2.5);
	/* the bounds: [0, 3600], and (0, 3600] */
	ck_assert_int_eq(idl_parse_double("0", 0, 3600, false, &v), 0);
	ck_assert(v == 0);
	ck_assert_int_eq(idl_parse_double("3600", 0, 3600, false, &v), 0);
	ck_assert_int_eq(idl_parse_double("3600.001", 0, 3600, false, &v),
			 -1);
	ck_assert_int_eq(idl_parse_double("-0.5", 0, 3600, false, &v), -1);
	ck_assert_int_eq(idl_parse_double("0", 0, 3600, true, &v), -1);
	ck_assert_int_eq(idl_parse_double("1e-9", 0, 3600, true, &v), 0);
	ck_assert(v == 1e-9);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(idl_parse_double(bad[i], -DBL_MAX, DBL_MAX,
					       false, &v) == -1,
			      "'%s' accepted", bad[i]);
}
END_TEST

START_TEST(test_time)
{
	static const char *const bad[] = {
		"1.5", "15", "ms", "1.5 ms", "1.5mS", "1.5min", "-1ms",
		"nanms", "infs", "1e400s", "", " 1s", "1s ", "18446744074s",
	};
	uint64_t ns;
	size_t i;

	ck_assert_int_eq(idl_parse_time("1.5ms", &ns), 0);
	ck_assert(ns == 1500000);
	ck_assert_int_eq(idl_parse_time("1s", &ns), 0);
	ck_assert(ns == 1000000000);
	ck_assert_int_eq(idl_parse_time("0.1s", &ns), 0);
	ck_assert(ns == 100000000);
	ck_assert_int_eq(idl_parse_time("250us", &ns), 0);
	ck_assert(ns == 250000);
	ck_assert_int_eq(idl_parse_time("1e3us", &ns), 0);
	ck_assert(ns == 1000000);
	ck_assert_int_eq(idl_parse_time("7ns", &ns), 0);
	ck_assert(ns == 7);
	/* rounded to the nearest ns, halves up */
	ck_assert_int_eq(idl_parse_time("0.4ns", &ns), 0);
	ck_assert(ns == 0);
	ck_assert_int_eq(idl_parse_time("0.5ns", &ns), 0);
	ck_assert(ns == 1);
	/* 2^64 ns is 18446744073.709551616 s */
	ck_assert_int_eq(idl_parse_time("18446744073s", &ns), 0);
	ck_assert(ns > 18446744073000000000ULL - 4096 &&
		  ns < 18446744073000000000ULL + 4096);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(idl_parse_time(bad[i], &ns) == -1,
			      "'%s' accepted", bad[i]);
}
END_TEST

START_TEST(test_cpu)
{
	static const char *const bad[] = { "", "-1", "+1", "1a", "8", " 1" };
	int cpu = -1;
	size_t i;

	ck_assert_int_eq(idl_parse_cpu("0", 7, &cpu), 0);
	ck_assert_int_eq(cpu, 0);
	ck_assert_int_eq(idl_parse_cpu("7", 7, &cpu), 0);
	ck_assert_int_eq(cpu, 7);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(idl_parse_cpu(bad[i], 7, &cpu) == -1,
			      "'%s' accepted", bad[i]);
}
END_TEST

START_TEST(test_cpulist)
{
	static const char *const bad[] = {
		"", "3-1", "0-8", "0,", ",0", "0,,1", "0-", "-1", "1-2-3",
		" 1", "a", "8",
	};
	uint64_t m[2];
	size_t i;

	ck_assert_int_eq(idl_parse_cpulist("0-3,6", 7, m, 1), 0);
	ck_assert(m[0] == 0x4f);		/* 0, 1, 2, 3 and 6 */
	ck_assert_int_eq(idl_parse_cpulist("5", 7, m, 1), 0);
	ck_assert(m[0] == 0x20);
	ck_assert_int_eq(idl_parse_cpulist("3-3,1", 7, m, 1), 0);
	ck_assert(m[0] == 0x0a);
	ck_assert_int_eq(idl_parse_cpulist("63-64", 127, m, 2), 0);
	ck_assert(m[0] == 1ULL << 63 && m[1] == 1);
	ck_assert_int_eq(idl_parse_cpulist("0-7", 7, NULL, 0), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(idl_parse_cpulist(bad[i], 7, m, 1) == -1,
			      "'%s' accepted", bad[i]);
}
END_TEST

/* ---- an option table ---- */

static int jobs, fmt;
static bool per_cpu;
static double secs;
static const char *list_arg = "unset";

static const char *out_path;

static int list_cb(const struct idl_option *o, const char *arg)
{
	if (arg && strcmp(arg, "roff"))
		return idl_opt_error(o, arg, "roff");
	*(const char **)o->value = arg;
	return 0;
}

static const struct idl_option opts[] = {
	IDL_OPT_INT('j', "jobs", &jobs, "N", 1, 256, "threads"),
	IDL_OPT_FLAG(0, "per-cpu", &per_cpu, "add per-CPU results"),
	IDL_OPT_CHOICE('f', "format", &fmt, "FMT", "text, csv or json",
		       "text", "csv", "json"),
	IDL_OPT_DOUBLE_ABOVE('d', "duration", &secs, "SECS", 0, 60,
		"abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd"),
	IDL_OPT_CALLBACK_OPTARG(0, "list", &list_arg, "roff", list_cb,
				"x\ny"),
	IDL_OPT_PATH('o', "output", &out_path, "FILE", "a file"),
	IDL_OPT_END
};

static const struct idl_cmdline cl = {
	.usage = "usage: cmd [OPTIONS] [FILE]\n", .opts = opts,
	.footer = "Footer.\n", .operand = "FILE", .max_operands = 1,
};

static int parse(char **argv, const struct idl_cmdline *c)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	return idl_parse_options(argc, argv, c);
}

START_TEST(test_parse)
{
	char *argv[] = { "cmd", "-j", "4", "--per-cpu", "--format=csv",
			 "file", "-d", "0.5", "--list", NULL };
	char *argv2[] = { "cmd", "--jobs=9", "--per", "--", "-j", NULL };
	char *argv3[] = { "cmd", "--list=roff", NULL };

	ck_assert_int_eq(parse(argv, &cl), 8);	/* operands go last */
	ck_assert_str_eq(argv[8], "file");
	ck_assert_int_eq(jobs, 4);
	ck_assert(per_cpu);
	ck_assert_int_eq(fmt, 1);
	ck_assert(secs == 0.5);
	ck_assert(list_arg == NULL);
	per_cpu = false;
	ck_assert_int_eq(parse(argv2, &cl), 4);	/* a unique prefix */
	ck_assert_str_eq(argv2[4], "-j");
	ck_assert_int_eq(jobs, 9);
	ck_assert(per_cpu);
	ck_assert_int_eq(parse(argv3, &cl), 2);
	ck_assert_str_eq(list_arg, "roff");
}
END_TEST

START_TEST(test_in_order)
{
	struct idl_cmdline c = cl;
	char *argv[] = { "cmd", "sleep", "-j", "3", NULL };

	c.in_order = true;
	c.max_operands = -1;
	jobs = 1;
	ck_assert_int_eq(parse(argv, &c), 1);
	ck_assert_int_eq(jobs, 1);
}
END_TEST

static const char *const refused[][4] = {
	{ "-j", "0" }, { "-j", "1e400" }, { "--jobs" }, { "--bogus" },
	{ "--per-cpu=1" }, { "-x" }, { "--format", "xml" }, { "-d", "0" },
	{ "-d", "nan" }, { "--list=man" }, { "a", "b" }, { "-o", "" },
	{ "--output=" },
};

START_TEST(test_refused)
{
	char *argv[5] = { "cmd" };

	memcpy(argv + 1, refused[_i], sizeof(refused[_i]));
	ck_assert_int_eq(parse(argv, &cl), IDL_OPTS_BAD);
	ck_assert_int_eq(idl_opts_status(IDL_OPTS_BAD), IDL_EXIT_BADINPUT);
}
END_TEST

/* What a refused command line prints on standard error. */
static char *stderr_of(char **argv, const struct idl_cmdline *c)
{
	static char buf[512];
	char path[] = "/tmp/check_options.XXXXXX";
	FILE *f;
	size_t n;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_nonnull(freopen(path, "w", stderr));
	ck_assert_int_eq(parse(argv, c), IDL_OPTS_BAD);
	fflush(stderr);
	f = fopen(path, "r");
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
	return buf;
}

/* Options that share a prefix. */
static bool flag;
static const struct idl_option two[] = {
	IDL_OPT_FLAG(0, "states", &flag, "x"),
	IDL_OPT_FLAG(0, "synthetic", &flag, "y"),
	IDL_OPT_END
};
static const struct idl_cmdline cl2 = { .usage = "", .opts = two };

/* A refused command line (of cl, or @c) and its first line on stderr. */
static const struct {
	const char			*argv[4];
	const char			*want;
	const struct idl_cmdline	*c;
} messages[] = {
	{ { "-j", "12abc" },
	  "--jobs: '12abc' is not an integer in 1..256", NULL },
	{ { "--duration", "inf" },
	  "--duration: 'inf' is not a number > 0 and <= 60", NULL },
	{ { "--bogus=1" }, "unknown option '--bogus'", NULL },
	{ { "-f" }, "--format: missing argument FMT", NULL },
	{ { "a", "b" }, "unexpected argument 'b' (at most 1 FILE)", NULL },
	{ { "--s" }, "ambiguous option '--s' (--states, --synthetic)",
	  &cl2 },
	{ { "-o", "" }, "--output: '' is not a name (it is empty)", NULL },
};

START_TEST(test_messages)
{
	char *argv[5] = { "cmd" }, want[256];

	memcpy(argv + 1, messages[_i].argv, sizeof(messages[_i].argv));
	snprintf(want, sizeof(want), "idlelab test: %s\n"
		 "Try 'idlelab test --help'.\n", messages[_i].want);
	idl_progname = "idlelab test";
	ck_assert_str_eq(stderr_of(argv, messages[_i].c ? messages[_i].c :
					 &cl), want);
}
END_TEST

START_TEST(test_help)
{
	/* the longest left part, "  -d, --duration SECS", is 21 wide:
	 * help texts start at column 23 and have 56 columns to 79 */
	static const char want[] =
		"usage: cmd [OPTIONS] [FILE]\n"
		"\n"
		"Options:\n"
		"  -j, --jobs N         threads (1..256)\n"
		"      --per-cpu        add per-CPU results\n"
		"  -f, --format FMT     text, csv or json\n"
		"  -d, --duration SECS  abcd abcd abcd abcd abcd abcd abcd "
		"abcd abcd abcd abcd\n"
		"                       abcd\n"
		"      --list[=roff]    x\n"
		"                       y\n"
		"  -o, --output FILE    a file\n"
		"  -h, --help           show this help\n"
		"\n"
		"Footer.\n";
	char *text = NULL, *argv[] = { "cmd", "-j", "2", "--help", NULL };
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	idl_print_help(f, &cl);
	fclose(f);
	ck_assert_str_eq(text, want);
	free(text);
	ck_assert_ptr_nonnull(freopen("/dev/null", "w", stdout));
	ck_assert_int_eq(parse(argv, &cl), IDL_OPTS_HELP);
	ck_assert_int_eq(idl_opts_status(IDL_OPTS_HELP), IDL_EXIT_OK);
}
END_TEST

static Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_int);
	tcase_add_test(tc, test_u64);
	tcase_add_test(tc, test_double);
	tcase_add_test(tc, test_time);
	tcase_add_test(tc, test_cpu);
	tcase_add_test(tc, test_cpulist);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_in_order);
	tcase_add_loop_test(tc, test_refused, 0,
			    sizeof(refused) / sizeof(refused[0]));
	tcase_add_loop_test(tc, test_messages, 0,
			    sizeof(messages) / sizeof(messages[0]));
	tcase_add_test(tc, test_help);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(options_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
