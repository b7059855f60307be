// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab synth: write a synthetic trace from a workload pattern.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cstate.h"
#include "synth.h"
#include "trace.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: idlelab synth -o FILE (--machine NAME | --states FILE)\n"
		"                     [--pattern SPEC] [--cpus N] [--duration SECS]\n"
		"                     [--seed N] [--hz N]\n\n"
		"Synthesise a trace of idle periods from a workload pattern.\n\n"
		"  -o, --output FILE   trace to write (appears only when complete)\n"
		"  -m, --machine NAME  built-in C-state table (or a table file)\n"
		"  -s, --states FILE   C-state table file\n"
		"  -p, --pattern SPEC  terms joined by '+' (default \"%s\"):\n"
		"        periodic[:HZ,...]       timers (default 73,113,211,347,401 Hz)\n"
		"        poisson:HZ              device interrupts, exponential gaps\n"
		"        pingpong:HZ             IPIs alternating within CPU pairs\n"
		"        bursty:ON_MS,OFF_MS,HZ  interrupts in on/off windows\n"
		"        tick                    the tick wakes the workload\n"
		"        busy:US                 mean run time after a wakeup (default %g)\n"
		"        aligned                 start all timers and windows at 0\n"
		"  -c, --cpus N        CPUs (default %d)\n"
		"  -d, --duration SECS simulated time (default %g)\n"
		"  -S, --seed N        random seed (default 1)\n"
		"  -H, --hz N          kernel HZ, the tick rate (default %d)\n"
		"  -h, --help          this help\n\n"
		"See doc/trace-format.md for the model.\n",
		SYNTH_DEFAULT_PATTERN, SYNTH_DEFAULT_BUSY_US, SYNTH_DEFAULT_CPUS,
		SYNTH_DEFAULT_SECS, SYNTH_DEFAULT_HZ);
}

static uint64_t parse_u64(const char *opt, const char *s, uint64_t min,
			  uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v < min || v > max)
		idl_die(IDL_EXIT_BADINPUT,
			"%s: '%s' is not a number in %" PRIu64 "..%" PRIu64,
			opt, s, min, max);
	return v;
}

static double parse_secs(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !isfinite(v) || v <= 0 || v > 1e7)
		idl_die(IDL_EXIT_BADINPUT,
			"--duration: '%s' is not a positive number of seconds",
			s);
	return v;
}

static void fill_meta(struct trace_meta *m, const struct cstate_table *t,
		      const struct synth_params *p, const char *table_opt,
		      const char *pattern)
{
	int n;

	trace_meta_init(m);
	m->table = *t;
	snprintf(m->driver, sizeof(m->driver), "%s", t->driver);
	snprintf(m->clock, sizeof(m->clock), "synthetic");
	snprintf(m->tool, sizeof(m->tool), "idlelab %s", PACKAGE_VERSION);
	n = snprintf(m->source, sizeof(m->source),
		     "synth %s --pattern %s --cpus %" PRIu32
		     " --duration %.9g --seed %" PRIu64 " --hz %" PRIu32,
		     table_opt, pattern, p->nr_cpus,
		     (double)p->duration_ns / 1e9, p->seed, p->hz);
	if (n >= (int)sizeof(m->source))	/* long paths: mark the cut */
		memcpy(m->source + sizeof(m->source) - 4, "...", 4);
	m->hz = p->hz;
	m->nr_cpus = p->nr_cpus;
	m->start_ns = 0;
	m->end_ns = p->duration_ns;
}

int cmd_synth(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "machine", required_argument, NULL, 'm' },
		{ "states", required_argument, NULL, 's' },
		{ "pattern", required_argument, NULL, 'p' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 'S' },
		{ "hz", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct synth_params p = { SYNTH_DEFAULT_CPUS,
				  (uint64_t)(SYNTH_DEFAULT_SECS * 1e9), 1,
				  SYNTH_DEFAULT_HZ };
	const char *out = NULL, *machine = NULL, *states = NULL;
	const char *pattern = SYNTH_DEFAULT_PATTERN;
	struct cstate_table table;
	struct synth_spec spec;
	char what[200];
	struct trace_meta meta;
	struct trace_writer *w;
	struct idl_err err;
	uint64_t n;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:m:s:p:c:d:S:H:h", opts,
				NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'm': machine = optarg; break;
		case 's': states = optarg; break;
		case 'p': pattern = optarg; break;
		case 'c':
			p.nr_cpus = (uint32_t)parse_u64("--cpus", optarg, 1,
							TRACE_MAX_CPUS);
			break;
		case 'd':
			p.duration_ns = (uint64_t)(parse_secs(optarg) * 1e9);
			break;
		case 'S':
			p.seed = parse_u64("--seed", optarg, 0, UINT64_MAX);
			break;
		case 'H':
			p.hz = (uint32_t)parse_u64("--hz", optarg, 1, 100000);
			break;
		case 'h':
			usage(stdout);
			return IDL_EXIT_OK;
		default:
			usage(stderr);
			return IDL_EXIT_BADINPUT;
		}
	}
	if (optind < argc || !out || (!machine && !states)) {
		if (optind < argc)
			fprintf(stderr, "%s: unexpected argument '%s'\n",
				idl_progname, argv[optind]);
		else
			fprintf(stderr, "%s: %s is required\n", idl_progname,
				out ? "--machine or --states" : "-o FILE");
		usage(stderr);
		return IDL_EXIT_BADINPUT;
	}
	if (synth_parse(pattern, &spec, &err) < 0 ||
	    cstate_table_resolve(machine, states, &table, &err) < 0) {
		idl_err_print(&err);
		return err.status;
	}
	snprintf(what, sizeof(what), "%s %s", states ? "--states" : "--machine",
		 states ? states : machine);
	fill_meta(&meta, &table, &p, what, pattern);
	w = trace_writer_create(out, &meta, &err);
	if (!w) {
		idl_err_print(&err);
		return err.status;
	}
	if (synth_write(&spec, &p, w, &n, &err) < 0) {
		trace_writer_abort(w);
		idl_err_print(&err);
		return err.status;
	}
	if (trace_writer_close(w, &err) < 0) {
		idl_err_print(&err);
		return err.status;
	}
	printf("%s: %" PRIu64 " idle periods on %" PRIu32 " CPUs, %.9g s\n",
	       out, n, p.nr_cpus, (double)p.duration_ns / 1e9);
	return IDL_EXIT_OK;
}
