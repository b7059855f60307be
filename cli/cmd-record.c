// SPDX-License-Identifier: GPL-2.0-or-later
/* idlelab record: live capture of idle periods (traces/record/record.c). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "error.h"
#include "options.h"
#include "record.h"
#include "trace.h"

static const char record_usage[] =
"usage: idlelab record -o FILE [--duration SECS] [--cpus LIST] [--raw FILE]\n"
"                      [--probe-inputs] [-- COMMAND [ARGS...]]\n\n"
"Record idle periods of this machine with tracefs (root).  A private\n"
"instance idlelab-record-PID-RANDOM is used and removed on every exit.\n";

static const char record_footer[] =
"Without --duration or COMMAND, recording stops on SIGINT/SIGTERM.\n"
"With COMMAND, it stops when COMMAND exits (or after SECS).\n"
"Instances left by recorders killed with SIGKILL are removed first.\n";

/* --cpus: a list of this machine's CPUs (traces/record/record.c reads it) */
static int opt_cpus(const struct idl_option *opt, const char *arg)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	char what[128];

	if (n < 1 || n > TRACE_MAX_CPUS)
		n = TRACE_MAX_CPUS;
	if (!idl_parse_cpulist(arg, (int)n - 1, NULL, 0)) {
		*(const char **)opt->value = arg;
		return 0;
	}
	snprintf(what, sizeof(what), "a list of CPUs 0..%ld (numbers and "
		 "ranges A-B, comma-separated)", n - 1);
	return idl_opt_error(opt, arg, what);
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o;
	struct record_result res;
	struct idl_err err = { 0 };
	const struct idl_option opts[] = {
		IDL_OPT_OUTPUT('o', "output", &o.output, "FILE",
			"trace file to write"),
		IDL_OPT_DOUBLE_ABOVE('d', "duration", &o.duration, "SECS", 0,
			86400, "stop after SECS seconds"),
		IDL_OPT_CALLBACK('c', "cpus", &o.cpus, "LIST", opt_cpus,
			"record only these CPUs (\"0-3,6\")"),
		IDL_OPT_OUTPUT('r', "raw", &o.raw, "FILE",
			"also write the raw events as ftrace-style text"),
		IDL_OPT_FLAG(0, "probe-inputs", &o.probe_inputs,
			"kprobes give the kernel's own sleep lengths, "
			"residencies and got_tick flags"),
		IDL_OPT_FLAG('q', "quiet", &o.quiet, "no summary on stderr"),
		IDL_OPT_END
	};
	const struct idl_cmdline cl = {
		.usage = record_usage, .opts = opts, .footer = record_footer,
		.in_order = true, .max_operands = -1,
	};
	int first;

	memset(&o, 0, sizeof(o));
	o.result = &res;
	first = idl_parse_options(argc, argv, &cl);
	if (first < 0)
		return idl_opts_status(first);
	if (!o.output)
		return idl_usage_error("-o FILE is required");
	if (first < argc)
		o.command = argv + first;
	if (trace_record(&o, &err)) {
		idl_err_print(&err);
		return err.status ? err.status : 1;
	}
	if (o.command && res.command_status != -1 &&
	    WIFEXITED(res.command_status) && WEXITSTATUS(res.command_status))
		fprintf(stderr, "idlelab record: command exited with status "
			"%d\n", WEXITSTATUS(res.command_status));
	return 0;
}
