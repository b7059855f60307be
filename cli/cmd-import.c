// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab import: a kernel trace (ftrace text, trace-cmd report text,
 * trace.dat) -> a native trace of idle periods.  A thin layer over
 * import_trace() (traces/import.c): the options and the summary.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <idlelab/governor.h>

#include "cli.h"
#include "error.h"
#include "import.h"
#include "model.h"

static void usage(FILE *f)
{
	const struct importer *const *i;

	fprintf(f,
"usage: idlelab import IN -o OUT [--machine NAME | --states FILE] [--hz N]\n"
"                      [--governor SPEC] [--format auto");
	for (i = importer_list(); *i; i++)
		fprintf(f, "|%s", (*i)->name);
	fprintf(f, "]\n"
"                      [--instance NAME]\n\n"
"Turn a kernel trace with power:cpu_idle events (and timer, irq, ipi and\n"
"sched events when present) into an idlelab trace of idle periods.\n\n"
"  -o, --output OUT     trace file to write\n"
"  -m, --machine NAME   C-state table: a built-in machine\n"
"  -s, --states FILE    C-state table: a table file\n"
"      --hz N           the kernel's HZ (default: estimated from events)\n"
"  -g, --governor SPEC  the governor live at capture, NAME[:param=value,...]\n"
"                       with its tunables (others: the kernel's defaults);\n"
"                       replay then measures agreement with the kernel\n"
"  -f, --format F       input format (default auto)\n"
"  -i, --instance NAME  trace-cmd buffer to read (default: the one with\n"
"                       most cpu_idle events; \"\" is the top buffer)\n"
"  -q, --quiet          no summary on stderr\n\n"
"Traces carry no C-state table: one of --machine or --states is\n"
"required.  See doc/importing.md for the rules.\n");
}

struct import_args {
	struct import_opts o;
	struct idl_governor gov;	/* o.gov points here when given */
	bool		quiet;
};

/* "auto" (NULL: detect) or an importer's name. */
static void parse_format(const char *s, struct import_opts *o)
{
	if (!strcmp(s, "auto")) {
		o->format = NULL;
		return;
	}
	o->format = importer_find(s);
	if (!o->format)
		idl_die(2, "--format: unknown format %s", s);
}

static int parse_args(int argc, char **argv, struct import_args *a)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "machine", required_argument, NULL, 'm' },
		{ "states", required_argument, NULL, 's' },
		{ "hz", required_argument, NULL, 'z' },
		{ "format", required_argument, NULL, 'f' },
		{ "instance", required_argument, NULL, 'i' },
		{ "governor", required_argument, NULL, 'g' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *end, msg[512];
	long v;
	int c;

	memset(a, 0, sizeof(*a));
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:m:s:f:i:g:qh", opts,
				NULL)) != -1) {
		switch (c) {
		case 'o': a->o.out = optarg; break;
		case 'm': a->o.machine = optarg; break;
		case 's': a->o.states = optarg; break;
		case 'i': a->o.instance = optarg; break;
		case 'q': a->quiet = true; break;
		case 'g':
			if (idl_governor_parse(&a->gov, optarg, msg,
					       sizeof(msg)))
				idl_die(2, "--governor: %s", msg);
			if (a->gov.ops->needs_hindsight)
				idl_die(2, "--governor: %s is not a kernel "
					"governor", a->gov.ops->name);
			a->o.gov = &a->gov;
			break;
		case 'z':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 10000)
				idl_die(2, "--hz: not a HZ value: %s", optarg);
			a->o.hz = (uint32_t)v;
			break;
		case 'f':
			parse_format(optarg, &a->o);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind != argc - 1 || !a->o.out) {
		usage(stderr);
		return -1;
	}
	a->o.in = argv[optind];
	if (a->o.machine && a->o.states)
		idl_die(2, "give --machine or --states, not both");
	return 0;
}

static void summary(const char *in, const struct import_summary *s)
{
	const struct model_stats *st = &s->stats;
	double secs = s->seconds;
	int i;

	fprintf(stderr, "%s: %llu events in %.2f s (%.0f events/s), "
		"%llu idle periods on %u CPUs, HZ %u%s\n", in,
		(unsigned long long)st->events, secs,
		secs > 0 ? st->events / secs : 0.0,
		(unsigned long long)st->periods, st->max_cpu, st->hz,
		s->hz_estimated ? " (estimated)" : "");
	fprintf(stderr, "partial periods not emitted: %llu at start, %llu at "
		"end; entries without exit: %llu; lost events: %llu\n",
		(unsigned long long)st->partial_start,
		(unsigned long long)st->partial_end,
		(unsigned long long)st->no_exit,
		(unsigned long long)st->lost_events);
	if (st->no_entry)
		fprintf(stderr, "exits without entry (lost events?): %llu\n",
			(unsigned long long)st->no_entry);
	fprintf(stderr, "exact sleep length: %llu, exact delta_tick: %llu, "
		"no known timer: %llu\nwake causes:",
		(unsigned long long)st->sleep_exact,
		(unsigned long long)st->tick_exact,
		(unsigned long long)st->no_timer);
	for (i = 0; i < WAKE_CAUSE_COUNT; i++)
		fprintf(stderr, " %s %llu", wake_cause_name(i),
			(unsigned long long)st->wake[i]);
	fputc('\n', stderr);
	if (st->hold_bounded || st->hold_lowered || st->stale_timers)
		fprintf(stderr, "timers armed before the capture: bounded %llu "
			"sleep lengths with no known timer (%llu stay unknown) "
			"and shortened %llu; overdue timers dropped: %llu\n",
			(unsigned long long)st->hold_bounded,
			(unsigned long long)st->hold_unbounded,
			(unsigned long long)st->hold_lowered,
			(unsigned long long)st->stale_timers);
	if (st->disordered)
		fprintf(stderr, "periods dropped as out of time order: %llu\n",
			(unsigned long long)st->disordered);
	if (st->late_events || st->timer_table_full || st->foreign_base)
		fprintf(stderr, "out-of-order events: %llu, timers not "
			"tracked (table full): %llu, REALTIME-base hrtimers "
			"ignored: %llu\n", (unsigned long long)st->late_events,
			(unsigned long long)st->timer_table_full,
			(unsigned long long)st->foreign_base);
	model_print_missing(st, stderr);
}

int cmd_import(int argc, char **argv)
{
	struct import_args a;
	struct import_summary s;
	struct idl_err err = { 0 };

	if (parse_args(argc, argv, &a))
		return IDL_EXIT_BADINPUT;
	if (import_trace(&a.o, &s, &err)) {
		idl_err_print(&err);
		return err.status ? err.status : IDL_EXIT_FAILURE;
	}
	if (!a.quiet)
		summary(a.o.in, &s);
	return IDL_EXIT_OK;
}
