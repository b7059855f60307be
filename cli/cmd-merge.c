// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab merge: join the shards of a sweep into the results the
 * unsharded sweep writes.
 */
#include "config.h"

#include <stdio.h>

#include "atomic.h"
#include "cli.h"
#include "options.h"
#include "sweep.h"

static const char merge_usage[] =
	"usage: idlelab merge -o ALL.json PART.json...\n\n"
	"Join the shards of one sweep (idlelab sweep --shard I/N).  Files of\n"
	"different sweeps, a cell given twice and missing cells are refused,\n"
	"and nothing is written then.\n";

struct merge_args {
	char	**paths;
	int	n;
};

static int write_merged(FILE *f, void *ctx, struct idl_err *err)
{
	const struct merge_args *m = ctx;

	return sweep_merge(m->paths, m->n, f, err);
}

int cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	const struct idl_option opts[] = {
		IDL_OPT_OUTPUT('o', "output", &out, "FILE",
			"the merged results (written atomically)"),
		IDL_OPT_END
	};
	const struct idl_cmdline cl = {
		.usage = merge_usage, .opts = opts,
		.footer = "See doc/sweep.md.\n",
		.min_operands = 1, .max_operands = -1, .operand = "PART.json",
		.input_operands = true,
	};
	struct merge_args m;
	struct idl_err err;
	int ret = idl_parse_options(argc, argv, &cl);

	if (ret < 0)
		return idl_opts_status(ret);
	if (!out)
		return idl_usage_error("-o FILE is required");
	m.paths = argv + ret;
	m.n = argc - ret;
	if (idl_write_atomic(out, write_merged, &m, &err)) {
		idl_err_print(&err);
		return err.status;
	}
	return IDL_EXIT_OK;
}
