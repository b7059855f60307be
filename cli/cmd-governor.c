// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab governor: the governors idlelab has (built in, plugins), and
 * building a kernel governor source file into a plugin (governors/).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <idlelab/governor.h>

#include "cli.h"
#include "error.h"
#include "kbuild.h"
#include "options.h"
#include "plugin.h"

static const char governor_usage[] =
"usage: idlelab governor list [PLUGIN.so...]\n"
"       idlelab governor build SRC.c -o GOV.so [--kernel X.Y] [--cc CC] [-v]\n"
"\n"
"list: the built-in governors, and the plugins named, with their origin\n"
"and tunables (default, range).\n"
"\n"
"build: compile a kernel cpuidle governor source file unchanged (menu.c,\n"
"teo.c, ladder.c, haltpoll.c of any kernel from 5.1 on, a patched copy,\n"
"or a new governor in kernel style) against idlelab's kernel\n"
"compatibility headers into a plugin: idlelab replay -g ./GOV.so ...\n"
"Its module_param()s are its tunables.  See doc/plugins.md and the\n"
"idlelab(1) manual page.\n";

/* The options of build, which --help shows for the whole command. */
#define BUILD_OPTIONS(o) { \
	IDL_OPT_OUTPUT('o', "output", &(o)->out, "GOV.so", \
		"the plugin to write"), \
	IDL_OPT_STR('k', "kernel", &(o)->kernel, "X.Y", \
		"apply the rules of Linux X.Y (how the latency limit and " \
		"residencies are typed); default: detected"), \
	IDL_OPT_STR(0, "cc", &(o)->cc, "CC", \
		"the C compiler, a command split at blanks (default:\n" \
		"$CC, else cc)"), \
	IDL_OPT_FLAG('v', "verbose", &(o)->verbose, \
		"print the compiler command"), \
	IDL_OPT_END \
}

static void usage(FILE *f)
{
	struct kbuild_opts o;
	const struct idl_option opts[] = BUILD_OPTIONS(&o);
	const struct idl_cmdline cl = { .usage = governor_usage, .opts = opts };

	idl_print_help(f, &cl);
}

static int list(int argc, char **argv)
{
	const struct idl_option opts[] = { IDL_OPT_END };
	const struct idl_cmdline cl = {
		.usage = governor_usage, .opts = opts,
		.operand = "PLUGIN.so", .max_operands = -1,
	};
	const struct idl_governor_ops *ops;
	struct idl_err err;
	int i = idl_parse_options(argc, argv, &cl);

	if (i < 0)
		return idl_opts_status(i);
	for (; i < argc; i++)
		if (idl_plugin_load(argv[i], &ops, &err)) {
			fprintf(stderr, "%s: %s\n", idl_progname, err.msg);
			return IDL_EXIT_BADINPUT;
		}
	printf("Governors and their tunables (default, range):\n");
	for (const struct idl_governor_ops *const *g = idl_governor_list();
	     *g; g++)
		idl_governor_describe(stdout, *g);
	return IDL_EXIT_OK;
}

static int build(int argc, char **argv)
{
	struct kbuild_opts o = { 0 };
	struct idl_err err = { 0 };
	const struct idl_option opts[] = BUILD_OPTIONS(&o);
	const struct idl_cmdline cl = {
		.usage = governor_usage, .opts = opts, .operand = "SRC.c",
		.min_operands = 1, .max_operands = 1, .input_operands = true,
	};
	int first = idl_parse_options(argc, argv, &cl);

	if (first < 0)
		return idl_opts_status(first);
	if (!o.out)
		return idl_usage_error("build needs -o GOV.so");
	if (o.kernel && !kbuild_version(o.kernel))
		return idl_usage_error("--kernel: '%s' is not MAJOR.MINOR "
				       "(like 6.18)", o.kernel);
	if (o.kernel && kbuild_version(o.kernel) < KBUILD_OLDEST)
		return idl_usage_error("--kernel: %s is older than 5.1, the "
				       "oldest whose rules are known", o.kernel);
	if (o.kernel && kbuild_version(o.kernel) > KBUILD_NEWEST)
		return idl_usage_error("--kernel: %s is not a Linux release "
				       "(5.1 to 7.x)", o.kernel);
	o.src = argv[first];
	fflush(stdout);
	if (kbuild(&o, &err)) {
		idl_err_print(&err);
		return err.status ? err.status : IDL_EXIT_FAILURE;
	}
	return IDL_EXIT_OK;
}

int cmd_governor(int argc, char **argv)
{
	if (argc < 2)
		return idl_usage_error("no action given (list, build)");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return IDL_EXIT_OK;
	}
	if (!strcmp(argv[1], "list"))
		return list(argc - 1, argv + 1);
	if (!strcmp(argv[1], "build"))
		return build(argc - 1, argv + 1);
	return idl_usage_error("unknown action '%s' (list, build)", argv[1]);
}
