// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab governor: the governors idlelab has (built in, plugins), and
 * building a kernel governor source file into a plugin (governors/).
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <idlelab/governor.h>

#include "cli.h"
#include "error.h"
#include "kbuild.h"
#include "plugin.h"

static void usage(FILE *f)
{
	fprintf(f,
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
"Its module_param()s are its tunables.  See doc/governor-authors.md.\n"
"\n"
"  -o, --output GOV.so  the plugin to write\n"
"  -k, --kernel X.Y     apply the rules of Linux X.Y (how the latency limit\n"
"                       and residencies are typed); default: detected\n"
"      --cc CC          the C compiler (default: $CC, else cc)\n"
"  -v, --verbose        print the compiler command\n"
"  -h, --help           this help\n");
}

static int list(int argc, char **argv)
{
	const struct idl_governor_ops *ops;
	char err[512];
	int i;

	for (i = 0; i < argc; i++)
		if (idl_plugin_load(argv[i], &ops, err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", idl_progname, err);
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
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "cc", required_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct kbuild_opts o = { 0 };
	struct idl_err err = { 0 };
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:k:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': o.out = optarg; break;
		case 'k': o.kernel = optarg; break;
		case 'c': o.cc = optarg; break;
		case 'v': o.verbose = true; break;
		case 'h':
			usage(stdout);
			return IDL_EXIT_OK;
		default:
			fprintf(stderr, "Try 'idlelab governor --help'.\n");
			return IDL_EXIT_BADINPUT;
		}
	}
	if (optind != argc - 1 || !o.out) {
		fprintf(stderr, "%s: build needs SRC.c and -o GOV.so\n"
			"Try 'idlelab governor --help'.\n", idl_progname);
		return IDL_EXIT_BADINPUT;
	}
	o.src = argv[optind];
	fflush(stdout);
	if (kbuild(&o, &err)) {
		idl_err_print(&err);
		return err.status ? err.status : IDL_EXIT_FAILURE;
	}
	return IDL_EXIT_OK;
}

int cmd_governor(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? IDL_EXIT_BADINPUT : IDL_EXIT_OK;
	}
	if (!strcmp(argv[1], "list")) {
		if (argc > 2 && (!strcmp(argv[2], "-h") ||
				 !strcmp(argv[2], "--help"))) {
			usage(stdout);
			return IDL_EXIT_OK;
		}
		return list(argc - 2, argv + 2);
	}
	if (!strcmp(argv[1], "build"))
		return build(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown action '%s' (list, build)\n"
		"Try 'idlelab governor --help'.\n", idl_progname, argv[1]);
	return IDL_EXIT_BADINPUT;
}
