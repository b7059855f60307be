// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab decide: drive one governor step by step from a decision stream
 * (governors/decide.c implements the protocol).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <idlelab/governor.h>

#include "cli.h"
#include "plugin.h"
#include "decide.h"
#include "error.h"
#include "input.h"

#define OUTBUF_SIZE		(1 << 16)

static void usage(FILE *f)
{
	fprintf(f,
		"usage: idlelab decide --governor NAME[:param=value,...] "
		"[--explain] [FILE]\n\n"
		"Drive one governor step by step from a decision stream "
		"(standard input\nif no FILE) and print \"IDX STOP_TICK\" for "
		"every select.\n\n"
		"  -g, --governor SPEC  governor and tunables, e.g. "
		"haltpoll:guest_halt_poll_ns=0\n"
		"  -x, --explain        explain every select on standard "
		"error\n"
		"  -h, --help           this help\n\n"
		"Governors and their tunables (default, range); a plugin is "
		"named by its\npath (idlelab governor list):\n");
	for (const struct idl_governor_ops *const *g = idl_governor_list();
	     *g; g++)
		if (!(*g)->needs_hindsight)
			idl_governor_describe(f, *g);
	fprintf(f, "See doc/governors.md for the stream format.\n");
}

struct decide_run {
	const char	*spec;
	bool		explain;
	int		fd;
};

static int run_decide(void *ctx)
{
	const struct decide_run *d = ctx;

	return decide_stream(d->spec, d->explain, d->fd);
}

int cmd_decide(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "governor", required_argument, NULL, 'g' },
		{ "explain", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static char outbuf[OUTBUF_SIZE], errbuf[OUTBUF_SIZE];
	const char *spec = NULL;
	bool explain = false;
	int c, fd = 0, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "g:xh", opts, NULL)) != -1) {
		switch (c) {
		case 'g':
			spec = optarg;
			break;
		case 'x':
			explain = true;
			break;
		case 'h':
			usage(stdout);
			return IDL_EXIT_OK;
		default:
			fprintf(stderr, "decide: bad option '%s'\n",
				argv[optind - 1]);
			usage(stderr);
			return IDL_EXIT_BADINPUT;
		}
	}
	if (!spec || argc - optind > 1) {
		fprintf(stderr, "decide: %s\n", spec ? "at most one FILE" :
			"--governor is required");
		usage(stderr);
		return IDL_EXIT_BADINPUT;
	}
	if (optind < argc && strcmp(argv[optind], "-")) {
		struct idl_err e = { 0 };

		fd = idl_input_open(argv[optind], 0, NULL, &e);
		if (fd < 0) {
			fprintf(stderr, "decide: %s\n", e.msg);
			return IDL_EXIT_BADINPUT;
		}
	}

	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	/* explanations are many small writes: buffer them too (both are
	 * flushed whenever decide waits for input) */
	if (explain)
		setvbuf(stderr, errbuf, _IOFBF, sizeof(errbuf));
	{
		struct decide_run d = { spec, explain, fd };
		size_t n = strcspn(spec, ":");
		char what[300];

		/* a plugin runs in a process of its own: a crash is reported */
		snprintf(what, sizeof(what), "plugin %.*s", (int)n, spec);
		ret = idl_plugin_path(spec, n) ?
		      idl_run_contained(what, run_decide, &d) : run_decide(&d);
	}
	if (fd > 0)
		close(fd);
	return ret;
}
