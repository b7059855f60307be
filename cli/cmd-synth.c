// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab synth: write a synthetic trace from a workload pattern.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "atomic.h"
#include "cli.h"
#include "cstate.h"
#include "options.h"
#include "synth.h"
#include "trace.h"

static const char synth_usage[] =
	"usage: idlelab synth -o FILE (--machine NAME | --states FILE)\n"
	"                     [--pattern SPEC] [--cpus N] [--duration SECS]\n"
	"                     [--seed N] [--hz N]\n\n"
	"Synthesise a trace of idle periods from a workload pattern.\n";

static const char synth_footer[] =
	"Pattern terms, joined by '+':\n"
	"  periodic[:HZ,...]       timers (default 73,113,211,347,401 Hz)\n"
	"  poisson:HZ              device interrupts, exponential gaps\n"
	"  pingpong:HZ             IPIs alternating within CPU pairs\n"
	"  bursty:ON_MS,OFF_MS,HZ  interrupts in on/off windows\n"
	"  tick                    the tick wakes the workload\n"
	"  busy:US                 mean run time after a wakeup (default "
	IDL_STR(SYNTH_DEFAULT_BUSY_US) ")\n"
	"  aligned                 start all timers and windows at 0\n\n"
	"See doc/trace-format.md for the model.\n";

struct synth_args {
	struct synth_params	p;
	double			secs;
	const char		*out, *machine, *states, *pattern;
};

/* Returns the index of the first operand, or IDL_OPTS_*. */
static int parse_args(int argc, char **argv, struct synth_args *a)
{
	struct synth_params *p = &a->p;
	const struct idl_option opts[] = {
		IDL_OPT_OUTPUT('o', "output", &a->out, "FILE",
			"trace to write (appears only when complete)"),
		IDL_OPT_STR('m', "machine", &a->machine, "NAME",
			"built-in C-state table (or a table file)"),
		IDL_OPT_PATH('s', "states", &a->states, "FILE",
			"C-state table file"),
		IDL_OPT_STR('p', "pattern", &a->pattern, "SPEC",
			"terms joined by '+' (default \""
			SYNTH_DEFAULT_PATTERN "\"; see below)"),
		IDL_OPT_UINT('c', "cpus", &p->nr_cpus, "N", 1, TRACE_MAX_CPUS,
			"CPUs (default " IDL_STR(SYNTH_DEFAULT_CPUS) ")"),
		IDL_OPT_DOUBLE_ABOVE('d', "duration", &a->secs, "SECS", 0, 1e7,
			"simulated time (default "
			IDL_STR(SYNTH_DEFAULT_SECS) ")"),
		IDL_OPT_U64('S', "seed", &p->seed, "N", 0, UINT64_MAX,
			"random seed (default 1)"),
		IDL_OPT_UINT('H', "hz", &p->hz, "N", 1, 100000,
			"kernel HZ, the tick rate (default "
			IDL_STR(SYNTH_DEFAULT_HZ) ")"),
		IDL_OPT_END
	};
	const struct idl_cmdline cl = {
		.usage = synth_usage, .opts = opts, .footer = synth_footer,
	};
	int ret = idl_parse_options(argc, argv, &cl);

	if (ret < 0)
		return ret;
	if (!a->out || (!a->machine && !a->states)) {
		idl_usage_error("%s is required", a->out ?
				"--machine or --states" : "-o FILE");
		return IDL_OPTS_BAD;
	}
	p->duration_ns = (uint64_t)(a->secs * 1e9);
	return ret;
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
	struct synth_args a = {
		.p = { SYNTH_DEFAULT_CPUS, 0, 1, SYNTH_DEFAULT_HZ },
		.secs = SYNTH_DEFAULT_SECS, .pattern = SYNTH_DEFAULT_PATTERN,
	};
	const struct synth_params *p = &a.p;
	struct cstate_table table;
	struct synth_spec spec;
	char what[200];
	struct trace_meta meta;
	struct trace_writer *w;
	struct idl_err err;
	uint64_t n;
	int ret = parse_args(argc, argv, &a);

	if (ret < 0)
		return idl_opts_status(ret);
	if (synth_parse(a.pattern, &spec, &err) < 0 ||
	    cstate_table_resolve(a.machine, a.states, &table, &err) < 0) {
		idl_err_print(&err);
		return err.status;
	}
	snprintf(what, sizeof(what), "%s %s",
		 a.states ? "--states" : "--machine",
		 a.states ? a.states : a.machine);
	fill_meta(&meta, &table, p, what, a.pattern);
	w = trace_writer_create(a.out, &meta, &err);
	if (!w) {
		idl_err_print(&err);
		return err.status;
	}
	if (synth_write(&spec, p, w, &n, &err) < 0) {
		trace_writer_abort(w);
		idl_err_print(&err);
		return err.status;
	}
	if (trace_writer_close(w, &err) < 0) {
		idl_err_print(&err);
		return err.status;
	}
	fprintf(idl_summary_stream(a.out),
		"%s: %" PRIu64 " idle periods on %" PRIu32 " CPUs, %.9g s\n",
		a.out, n, p->nr_cpus, (double)p->duration_ns / 1e9);
	return IDL_EXIT_OK;
}
