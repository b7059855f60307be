// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab sweep: replay every governor configuration of a grid over every
 * trace and table, or one shard of them.  A thin layer over
 * replay/sweep*.c.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic.h"
#include "cli.h"
#include "options.h"
#include "sweep.h"

static const char sweep_usage[] =
	"usage: idlelab sweep -g SPEC [-g SPEC...] [--machine NAME...]\n"
	"                     [-j N] [--shard I/N] -o OUT.json TRACE...\n\n"
	"Replay every configuration of the governor specs over every TRACE,\n"
	"on each trace's own table and on every --machine table: one cell\n"
	"per (configuration, trace, table).  In a SPEC a parameter takes a\n"
	"list a|b|c or a range LO..HI/STEP; several swept parameters form\n"
	"their product.  Quote the specs: '|' is a shell pipe.\n";

static const char sweep_footer[] =
	"Examples:\n"
	"  idlelab sweep -g 'menu:decay=4|8|16,intervals=8|16' \\\n"
	"      -g 'teo:pulse=256..1024/256' --machine skx -o all.json T.idl\n"
	"  idlelab sweep ... --shard 2/3 -o part2.json    (then idlelab merge)\n\n"
	"See doc/sweep.md.\n";

#define MAX_LIST	64

struct sweep_args {
	struct sweep		s;
	struct idl_err		err;
	bool			bad;
	char			*machines[MAX_LIST];
	int			nmachine;
	const char		*out, *shard;
	struct sweep_run_opts	o;
	bool			force, progress;
};

static int add_spec(const struct idl_option *opt, const char *arg)
{
	struct sweep_args *a = opt->value;

	if (sweep_add_spec(&a->s, arg, &a->err)) {
		idl_error("-g: %s", a->err.msg);	/* the caller adds "Try" */
		return -1;
	}
	return 0;
}

static int add_machine(const struct idl_option *opt, const char *arg)
{
	struct sweep_args *a = opt->value;

	if (a->nmachine == MAX_LIST) {
		/* (the caller adds the "Try" line) */
		idl_error("--machine: at most " IDL_STR(MAX_LIST) " tables (%s "
			  "is one more)", arg);
		return -1;
	}
	a->machines[a->nmachine++] = (char *)arg;
	return 0;
}

static int set_shard(const struct idl_option *opt, const char *arg)
{
	struct sweep_args *a = opt->value;
	const char *slash = strchr(arg, '/');
	char first[24];
	uint64_t i, n;

	if (!slash || (size_t)(slash - arg) >= sizeof(first))
		goto bad;
	memcpy(first, arg, (size_t)(slash - arg));
	first[slash - arg] = '\0';
	if (idl_parse_u64(slash + 1, 1, 100000, &n) ||
	    idl_parse_u64(first, 1, n, &i))
		goto bad;
	a->o.shard = (unsigned int)i;
	a->o.nshard = (unsigned int)n;
	return 0;
bad:
	return idl_opt_error(opt, arg, "I/N with 1 <= I <= N <= 100000");
}

static int parse_args(int argc, char **argv, struct sweep_args *a)
{
	const struct idl_option opts[] = {
		IDL_OPT_CALLBACK('g', "governors", a, "SPEC", add_spec,
			"a governor configuration or grid, e.g.\n"
			"'menu:decay=4|8,intervals=8..16/8' (repeatable)"),
		IDL_OPT_CALLBACK('m', "machine", a, "NAME", add_machine,
			"replay on this table too (a built-in name or a\n"
			"table file; repeatable)"),
		IDL_OPT_INT('j', "jobs", &a->o.jobs, "N", 1, 256,
			"threads over the CPUs of a trace"),
		IDL_OPT_CALLBACK(0, "shard", a, "I/N", set_shard,
			"run shard I of N only (cell k is in shard\n"
			"k mod N + 1)"),
		IDL_OPT_OUTPUT('o', "output", &a->out, "FILE",
			"results (JSON, written atomically)"),
		IDL_OPT_FLAG(0, "force", &a->force,
			"run more than " IDL_STR(SWEEP_DEFAULT_MAX_CELLS)
			" cells"),
		IDL_OPT_FLAG(0, "progress", &a->progress,
			"progress on standard error (default: on a terminal)"),
		IDL_OPT_UINT(0, "plugin-timeout", &a->o.plugin_timeout, "S", 1,
			86400, "stop a plugin's column after S seconds\n"
			"without progress (default 10)"),
		IDL_OPT_END
	};
	const struct idl_cmdline cl = {
		.usage = sweep_usage, .opts = opts, .footer = sweep_footer,
		.min_operands = 1, .max_operands = -1, .operand = "TRACE",
		.input_operands = true,
	};
	int ret = idl_parse_options(argc, argv, &cl);

	if (ret < 0)
		return ret;
	if (!a->out)
		return idl_usage_error("-o FILE is required"), IDL_OPTS_BAD;
	if (!a->s.nconf)
		return idl_usage_error("-g SPEC is required"), IDL_OPTS_BAD;
	return ret;
}

static int write_results(FILE *f, void *ctx, struct idl_err *err)
{
	struct sweep_args *a = ctx;
	int ret = sweep_run(&a->s, &a->o, f, err);

	if (ret > 0)
		a->bad = true;
	return ret < 0 ? -1 : 0;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_args *a = calloc(1, sizeof(*a));
	int ret, status = IDL_EXIT_OK;

	if (!a)
		return IDL_EXIT_FAILURE;
	a->o.jobs = 1;
	ret = parse_args(argc, argv, a);
	if (ret < 0) {
		status = idl_opts_status(ret);
		goto out;
	}
	a->o.progress = a->progress || isatty(STDERR_FILENO);
	if (sweep_plan(&a->s, argv + ret, argc - ret, a->machines,
		       a->nmachine, a->force ? 0 : SWEEP_DEFAULT_MAX_CELLS,
		       &a->err) ||
	    idl_write_atomic(a->out, write_results, a, &a->err)) {
		idl_err_print(&a->err);
		status = a->err.status;
		goto out;
	}
	if (a->bad) {
		idl_error("some cells have no numbers (see \"error\" in %s)",
			  a->out);
		status = IDL_EXIT_FAILURE;
	}
out:
	sweep_free(&a->s);
	free(a);
	return status;
}
