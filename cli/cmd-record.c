// SPDX-License-Identifier: GPL-2.0-or-later
/* idlelab record: live capture of idle periods (traces/record.c). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "error.h"
#include "record.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: idlelab record -o FILE [--duration SECS] [--cpus LIST] [--raw FILE]\n"
"                      [-- COMMAND [ARGS...]]\n\n"
"Record idle periods of this machine with tracefs (root).  A private\n"
"instance idlelab-record-PID-RANDOM is used and removed on every exit.\n\n"
"  -o, --output FILE    trace file to write\n"
"  -d, --duration SECS  stop after SECS seconds\n"
"  -c, --cpus LIST      record only these CPUs (\"0-3,6\")\n"
"  -r, --raw FILE       also write the raw events as ftrace-style text\n"
"  -q, --quiet          no summary on stderr\n\n"
"Without --duration or COMMAND, recording stops on SIGINT/SIGTERM.\n"
"With COMMAND, it stops when COMMAND exits (or after SECS).\n");
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "raw", required_argument, NULL, 'r' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct record_opts o;
	struct record_result res;
	struct idl_err err = { 0 };
	char *end;
	int c;

	memset(&o, 0, sizeof(o));
	o.result = &res;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:d:c:r:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': o.output = optarg; break;
		case 'c': o.cpus = optarg; break;
		case 'r': o.raw = optarg; break;
		case 'q': o.quiet = true; break;
		case 'd':
			o.duration = strtod(optarg, &end);
			if (*end || !(o.duration > 0) || o.duration > 86400)
				idl_die(2, "--duration: not a number of "
					"seconds: %s", optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!o.output) {
		usage(stderr);
		return 2;
	}
	if (optind < argc)
		o.command = argv + optind;
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
