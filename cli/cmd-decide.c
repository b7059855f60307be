// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab decide: drive one governor step by step from a decision stream
 * (governors/decide.c implements the protocol).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <idlelab/governor.h>

#include "cli.h"
#include "plugin.h"
#include "decide.h"
#include "error.h"
#include "options.h"
#include "input.h"

#define OUTBUF_SIZE		(1 << 16)

static const char decide_usage[] =
	"usage: idlelab decide --governor NAME[:param=value,...] "
	"[--explain] [FILE]\n\n"
	"Drive one governor step by step from a decision stream "
	"(standard input\nif no FILE) and print \"IDX STOP_TICK\" for "
	"every select.\n";

static void decide_footer(FILE *f)
{
	fprintf(f, "Governors and their tunables (default, range); a plugin "
		"is named by its\npath (idlelab governor list):\n");
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
	FILE		*out;	/* a plugin's: a copy of standard output */
};

static int run_decide(void *ctx)
{
	const struct decide_run *d = ctx;

	return decide_stream(d->spec, d->explain, d->fd, stdout);
}

/* In a plugin's process: the answers go to a copy of standard output,
 * and standard output itself to standard error (idl_child_contain()),
 * so that what the plugin prints never mixes with them. */
static int run_decide_contained(void *ctx)
{
	static char buf[OUTBUF_SIZE];
	const struct decide_run *d = ctx;
	int ret;

	if (!d->out)
		return IDL_EXIT_FAILURE;
	setvbuf(d->out, buf, _IOFBF, sizeof(buf));
	ret = decide_stream(d->spec, d->explain, d->fd, d->out);
	if (fclose(d->out) && !ret)
		ret = IDL_EXIT_FAILURE;
	return ret;
}

int cmd_decide(int argc, char **argv)
{
	static char outbuf[OUTBUF_SIZE], errbuf[OUTBUF_SIZE];
	const char *spec = NULL;
	bool explain = false;
	unsigned int timeout_s = 10;
	const struct idl_option opts[] = {
		IDL_OPT_STR('g', "governor", &spec, "SPEC",
			"governor and tunables, e.g. "
			"haltpoll:guest_halt_poll_ns=0"),
		IDL_OPT_FLAG('x', "explain", &explain,
			"explain every select on standard error"),
		IDL_OPT_UINT(0, "plugin-timeout", &timeout_s, "S", 1, 86400,
			"a plugin's work on one line may take S s (10)"),
		IDL_OPT_END
	};
	const struct idl_cmdline cl = {
		.usage = decide_usage, .opts = opts,
		.print_footer = decide_footer, .operand = "FILE",
		.max_operands = 1,
	};
	int fd = 0, ret, first = idl_parse_options(argc, argv, &cl);

	if (first < 0)
		return idl_opts_status(first);
	if (!spec)
		return idl_usage_error("--governor is required");
	if (first < argc && strcmp(argv[first], "-")) {
		struct idl_err e = { 0 };

		fd = idl_input_open(argv[first], 0, NULL, &e);
		if (fd < 0) {
			fprintf(stderr, "idlelab decide: %s\n", e.msg);
			return IDL_EXIT_BADINPUT;
		}
	}

	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	/* explanations are many small writes: buffer them too (both are
	 * flushed whenever decide waits for input) */
	if (explain)
		setvbuf(stderr, errbuf, _IOFBF, sizeof(errbuf));
	if (idl_plugin_path(spec, strcspn(spec, ":"))) {
		/* a plugin runs in a process of its own: a crash or a call
		 * that does not return is reported */
		int out = dup(STDOUT_FILENO);
		struct decide_run d = { spec, explain, fd,
					out < 0 ? NULL : fdopen(out, "w") };
		char what[300];

		snprintf(what, sizeof(what), "plugin %.*s",
			 (int)strcspn(spec, ":"), spec);
		ret = idl_run_contained(what, timeout_s, run_decide_contained,
					&d);
		if (d.out)
			fclose(d.out);
		else if (out >= 0)
			close(out);
	} else {
		struct decide_run d = { spec, explain, fd, NULL };

		ret = run_decide(&d);
	}
	if (fd > 0)
		close(fd);
	return ret;
}
