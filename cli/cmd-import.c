// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab import: a kernel trace (ftrace text, trace-cmd report text,
 * trace.dat) -> a native trace of idle periods.  Two streaming passes:
 * a scan (buffer, CPUs, HZ) and the model run.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <idlelab/governor.h>

#include "cli.h"
#include "cstate.h"
#include "error.h"
#include "host.h"
#include "import.h"
#include "model.h"
#include "trace.h"

#define SORT_WINDOW	65536	/* events held for reordering */

static void usage(FILE *f)
{
	fprintf(f,
"usage: idlelab import IN -o OUT [--machine NAME | --states FILE] [--hz N]\n"
"                      [--governor SPEC] [--format auto|ftrace|report|dat]\n"
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

struct run_ctx {
	struct trace_writer	*w;
	struct ev_sorter	*sorter;
};

static int emit_period(void *ctx, const struct idle_period *p,
		       struct idl_err *err)
{
	struct run_ctx *r = ctx;

	return trace_writer_add(r->w, p, err);
}

static int push_event(void *ctx, const struct raw_event *e,
		      struct idl_err *err)
{
	struct run_ctx *r = ctx;

	return ev_sorter_push(r->sorter, e, err);
}

static int parse_format(const char *s, enum import_format *f)
{
	static const char *const names[] = { "auto", "ftrace", "report",
					     "dat" };
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, names[i])) {
			*f = (enum import_format)i;
			return 0;
		}
	return -1;
}

struct import_args {
	const char	*in, *out, *machine, *states, *instance;
	struct idl_governor gov;
	bool		have_gov;
	uint32_t	hz;
	enum import_format fmt;
	bool		quiet;
};

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
		case 'o': a->out = optarg; break;
		case 'm': a->machine = optarg; break;
		case 's': a->states = optarg; break;
		case 'i': a->instance = optarg; break;
		case 'q': a->quiet = true; break;
		case 'g':
			if (idl_governor_parse(&a->gov, optarg, msg,
					       sizeof(msg)))
				idl_die(2, "--governor: %s", msg);
			if (a->gov.ops->needs_hindsight)
				idl_die(2, "--governor: %s is not a kernel "
					"governor", a->gov.ops->name);
			a->have_gov = true;
			break;
		case 'z':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 10000)
				idl_die(2, "--hz: not a HZ value: %s", optarg);
			a->hz = (uint32_t)v;
			break;
		case 'f':
			if (parse_format(optarg, &a->fmt))
				idl_die(2, "--format: unknown format %s", optarg);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind != argc - 1 || !a->out) {
		usage(stderr);
		return -1;
	}
	a->in = argv[optind];
	if (a->machine && a->states)
		idl_die(2, "give --machine or --states, not both");
	return 0;
}

static void summary(const struct import_args *a, const struct model *m,
		    const struct import_scan *sc, double secs)
{
	const struct model_stats *st = model_get_stats(m);
	int i;

	fprintf(stderr, "%s: %llu events in %.2f s (%.0f events/s), "
		"%llu idle periods on %u CPUs, HZ %u%s\n", a->in,
		(unsigned long long)st->events, secs,
		secs > 0 ? st->events / secs : 0.0,
		(unsigned long long)st->periods, st->max_cpu, st->hz,
		a->hz || sc->hz_from_file ? "" :
		st->hz_estimated || sc->hz ? " (estimated)" : "");
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
	model_print_missing(m, stderr);
}

static void fill_meta(struct trace_meta *meta, const struct import_args *a,
		      const struct import_scan *sc, const char *fmt_name)
{
	trace_meta_init(meta);
	snprintf(meta->source, sizeof(meta->source), "imported from %s (%s%s%s)",
		 a->in, fmt_name, sc->buf[sc->chosen].name[0] ? ", buffer " : "",
		 sc->buf[sc->chosen].name);
	snprintf(meta->tool, sizeof(meta->tool), "idlelab %s", PACKAGE_VERSION);
	snprintf(meta->clock, sizeof(meta->clock), "%s",
		 sc->clock[0] ? sc->clock : "unknown");
	snprintf(meta->kernel, sizeof(meta->kernel), "%s", sc->kernel);
	meta->hz = a->hz ? a->hz : sc->hz;
	meta->nr_cpus = sc->nr_cpus;
	if (a->have_gov) {
		snprintf(meta->governor, sizeof(meta->governor), "%s",
			 a->gov.ops->name);
		idl_governor_params(&a->gov, meta->governor_params,
				    sizeof(meta->governor_params));
	}
}

/*
 * The input is read several times (format detection, the scan, the run):
 * a FIFO, a terminal or a socket would block on the second open or give
 * a different stream, so only regular files are taken.
 */
static int check_input(const char *path, struct idl_err *err)
{
	struct stat st;

	if (stat(path, &st))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", path,
				   strerror(errno));
	if (!S_ISREG(st.st_mode))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: not a regular file (import reads its "
				   "input more than once)", path);
	return 0;
}

static int run(const struct import_args *a, struct idl_err *err)
{
	static const char *const fmt_names[] = { "auto", "ftrace text",
		"trace-cmd report text", "trace.dat" };
	struct import_scan sc;
	struct trace_meta meta;
	struct model_opts mo = { 0 };
	struct run_ctx rc = { 0 };
	struct model *m = NULL;
	double t0 = idl_mono_s();
	enum import_format fmt = a->fmt;
	const char *inst;
	int r = -1;

	if (check_input(a->in, err))
		return -1;
	if (fmt == IMPORT_AUTO && (fmt = import_detect(a->in, err)) == IMPORT_AUTO)
		return -1;
	if (!a->machine && !a->states)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
			"%s carries no C-state table: give --machine NAME or "
			"--states FILE (idlelab states lists the built-in "
			"machines); the host's table is not guessed", a->in);
	if ((fmt == IMPORT_DAT ? import_dat_scan : import_text_scan)(a->in,
						a->instance, &sc, err))
		return -1;
	fill_meta(&meta, a, &sc, fmt_names[fmt]);
	if (cstate_table_resolve(a->machine, a->states, &meta.table, err))
		return -1;
	mo.hz = meta.hz;
	model_poll_opts(&meta.table, meta.hz, &mo);
	mo.clock_is_mono = !strcmp(meta.clock, "mono");
	rc.w = trace_writer_create(a->out, &meta, err);
	if (!rc.w)
		return -1;
	m = model_create(&mo, emit_period, &rc, err);
	rc.sorter = m ? ev_sorter_create(SORT_WINDOW, m, err) : NULL;
	if (!rc.sorter)
		goto out;
	inst = sc.buf[sc.chosen].name;
	if ((fmt == IMPORT_DAT ? import_dat_run : import_text_run)(a->in,
						inst, push_event, &rc, err) ||
	    ev_sorter_flush(rc.sorter, err) || model_finish(m, err))
		goto out;
	model_fill_meta(m, trace_writer_meta(rc.w));
	if (trace_writer_close(rc.w, err)) {
		rc.w = NULL;
		goto out;
	}
	rc.w = NULL;
	if (!a->quiet)
		summary(a, m, &sc, idl_mono_s() - t0);
	r = 0;
out:
	if (rc.w)
		trace_writer_abort(rc.w);
	ev_sorter_free(rc.sorter);
	model_free(m);
	return r;
}

int cmd_import(int argc, char **argv)
{
	struct import_args a;
	struct idl_err err = { 0 };

	if (parse_args(argc, argv, &a))
		return IDL_EXIT_BADINPUT;
	if (run(&a, &err)) {
		idl_err_print(&err);
		return err.status ? err.status : IDL_EXIT_FAILURE;
	}
	return IDL_EXIT_OK;
}
