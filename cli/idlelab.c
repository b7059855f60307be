// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab: the command dispatcher.  Each subcommand lives in its own
 * cli/cmd-NAME.c and is a thin layer over one stage of the data path.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "error.h"
#include "lib/revision.h"

static const struct idl_command commands[] = {
	{ "states",  cmd_states,  "show a C-state table (this machine, built-in, file)" },
	{ "decide",  cmd_decide,  "drive one governor step by step (decide protocol)" },
	{ "governor", cmd_governor, "list governors; build a kernel governor source into a plugin" },
	{ "record",  cmd_record,  "record a trace live with tracefs" },
	{ "import",  cmd_import,  "import an ftrace, trace-cmd or perf script trace" },
	{ "synth",   cmd_synth,   "synthesise a trace from a workload pattern" },
	{ "info",    cmd_info,    "describe a trace" },
	{ "replay",  cmd_replay,  "replay traces through governors and score them" },
	{ "sweep",   cmd_sweep,   "replay a grid of governor configurations (shardable)" },
	{ "merge",   cmd_merge,   "join the shards of a sweep" },
	{ "live",    cmd_live,    "switch kernel governors and run benchmarks" },
	{ "compare", cmd_compare, "compare results (mmtests / normalized tables)" },
	{ "report",  cmd_report,  "write an HTML report with plots" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: idlelab COMMAND [ARGS]\n"
		   "       idlelab COMMAND --help\n\n"
		   "A cpuidle governor evaluation framework.\n\n"
		   "Commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!commands[i].fn)
			continue;
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	}
	fprintf(f, "\nSee idlelab(1) for details.\n");
}

/*
 * Results printed on standard output are the command's product: if they
 * could not all be written (a full disk, a closed pipe), say so and fail
 * rather than exit 0 with a truncated result.
 */
static int finish(int status)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	fprintf(stderr, "%s: writing standard output failed: %s\n",
		idl_progname, strerror(errno ? errno : EIO));
	return status ? status : IDL_EXIT_FAILURE;
}

int main(int argc, char **argv)
{
	static char progname[64];
	const char *name;
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return IDL_EXIT_BADINPUT;
	}
	name = argv[1];
	if (!strcmp(name, "help") || !strcmp(name, "--help") ||
	    !strcmp(name, "-h")) {
		if (argc > 2) {
			name = argv[2];
			for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
				if (commands[i].fn && !strcmp(commands[i].name, name)) {
					char *av[] = { argv[2], "--help", NULL };

					return finish(commands[i].fn(2, av));
				}
		}
		usage(stdout);
		return finish(IDL_EXIT_OK);
	}
	if (!strcmp(name, "--version")) {
		/* from a git checkout: the revision it was built from */
		printf("idlelab %s%s%s%s\n", PACKAGE_VERSION,
		       *IDLELAB_REVISION ? " (git " : "", IDLELAB_REVISION,
		       *IDLELAB_REVISION ? ")" : "");
		return finish(IDL_EXIT_OK);
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!commands[i].fn || strcmp(commands[i].name, name))
			continue;
		snprintf(progname, sizeof(progname), "idlelab %s", name);
		idl_progname = progname;
		return finish(commands[i].fn(argc - 1, argv + 1));
	}
	fprintf(stderr, "idlelab: '%s' is not an idlelab command\n\n", name);
	usage(stderr);
	return IDL_EXIT_BADINPUT;
}
