// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab import: a kernel trace (ftrace text, trace-cmd report text,
 * trace.dat) -> a native trace of idle periods.  A thin layer over
 * import_trace() (traces/import/import.c): the options and the summary.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <idlelab/governor.h>

#include "cli.h"
#include "error.h"
#include "import.h"
#include "model.h"
#include "options.h"

static void import_usage(FILE *f)
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
"sched events when present) into an idlelab trace of idle periods: ftrace\n"
"text (trace, trace_pipe), trace-cmd report or perf script text, or a\n"
"trace.dat.\n");
}

static const char import_footer[] =
"Traces carry no C-state table: one of --machine or --states is\n"
"required.  See doc/importing.md for the rules.\n";

struct import_args {
	struct import_opts o;
	struct idl_governor gov;	/* o.gov points here when given */
	bool		quiet;
};

/* --format: "auto" (NULL: detect) or an importer's name. */
static int opt_format(const struct idl_option *opt, const char *arg)
{
	const struct importer *const *i;
	struct import_opts *o = opt->value;
	char what[256] = "auto";

	o->format = NULL;
	if (!strcmp(arg, "auto"))
		return 0;
	o->format = importer_find(arg);
	if (o->format)
		return 0;
	for (i = importer_list(); *i; i++)
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 "%s%s", i[1] ? ", " : " or ", (*i)->name);
	return idl_opt_error(opt, arg, what);
}

/* --governor: the kernel governor live at capture, with its tunables. */
static int opt_governor(const struct idl_option *opt, const char *arg)
{
	struct import_args *a = opt->value;
	char msg[512];

	if (idl_governor_parse(&a->gov, arg, msg, sizeof(msg))) {
		idl_error("--governor: %s", msg);
		return -1;
	}
	if (a->gov.ops->needs_hindsight)
		return idl_opt_error(opt, arg, "a kernel governor");
	a->o.gov = &a->gov;
	return 0;
}

/* Returns the index of IN, or IDL_OPTS_*. */
static int parse_args(int argc, char **argv, struct import_args *a)
{
	struct import_opts *o = &a->o;
	const struct idl_option opts[] = {
		IDL_OPT_OUTPUT('o', "output", &o->out, "OUT",
			"trace file to write"),
		IDL_OPT_STR('m', "machine", &o->machine, "NAME",
			"C-state table: a built-in machine"),
		IDL_OPT_PATH('s', "states", &o->states, "FILE",
			"C-state table: a table file"),
		IDL_OPT_UINT(0, "hz", &o->hz, "N", 1, 10000,
			"the kernel's HZ (default: estimated from events)"),
		IDL_OPT_CALLBACK('g', "governor", a, "SPEC", opt_governor,
			"the governor live at capture, NAME[:param=value,...] "
			"with its tunables (others: the kernel's defaults); "
			"replay then measures agreement with the kernel"),
		IDL_OPT_CALLBACK('f', "format", o, "F", opt_format,
			"input format (default auto)"),
		IDL_OPT_STR('i', "instance", &o->instance, "NAME",
			"trace-cmd buffer to read (default: the one with most "
			"cpu_idle events; \"\" is the top buffer)"),
		IDL_OPT_FLAG('q', "quiet", &a->quiet, "no summary on stderr"),
		IDL_OPT_END
	};
	const struct idl_cmdline cl = {
		.print_usage = import_usage, .opts = opts,
		.footer = import_footer, .operand = "IN",
		.min_operands = 1, .max_operands = 1, .input_operands = true,
	};
	int first;

	memset(a, 0, sizeof(*a));
	first = idl_parse_options(argc, argv, &cl);
	if (first < 0)
		return first;
	if (!o->out) {
		idl_usage_error("-o OUT is required");
		return IDL_OPTS_BAD;
	}
	if (o->machine && o->states) {
		idl_usage_error("give --machine or --states, not both");
		return IDL_OPTS_BAD;
	}
	o->in = argv[first];
	return first;
}

static void summary(const char *in, const struct import_summary *s)
{
	const struct model_stats *st = &s->stats;
	double secs = s->seconds;
	char hz[32] = "unknown";
	uint64_t bad;
	int64_t lag;
	int i;

	if (st->hz)
		snprintf(hz, sizeof(hz), "%u%s", st->hz,
			 s->hz_estimated ? " (estimated)" : "");
	fprintf(stderr, "%s: %llu events in %.2f s (%.0f events/s), "
		"%llu idle periods on %u CPU%s, HZ %s\n", in,
		(unsigned long long)st->events, secs,
		secs > 0 ? st->events / secs : 0.0,
		(unsigned long long)st->periods, st->max_cpu,
		st->max_cpu == 1 ? "" : "s", hz);
	fprintf(stderr, "partial periods not emitted: %llu at start, %llu at "
		"end; entries without exit: %llu; lost events: %llu\n",
		(unsigned long long)st->partial_start,
		(unsigned long long)st->partial_end,
		(unsigned long long)st->no_exit,
		(unsigned long long)st->lost_events);
	if (st->no_entry)
		fprintf(stderr, "exits without entry (lost events?): %llu\n",
			(unsigned long long)st->no_entry);
	if (s->overwritten)
		idl_warn("%s: the ring buffer overwrote its oldest %llu events "
			 "(entries-written less entries-in-buffer), each CPU's "
			 "own: a capture with a larger buffer_size_kb keeps "
			 "them", in,
			 (unsigned long long)s->overwritten);
	if (st->too_long)
		idl_warn("%s: %llu idle period%s longer than %llu s: a "
			 "timestamp far off? (replay skips them)", in,
			 (unsigned long long)st->too_long,
			 st->too_long == 1 ? "" : "s",
			 TRACE_MAX_PERIOD_NS / 1000000000ULL);
	if (st->before_from)
		fprintf(stderr, "periods before every CPU's record begins, "
			"left out: %llu\n",
			(unsigned long long)st->before_from);
	fprintf(stderr, "exact sleep length: %llu, exact delta_tick: %llu, "
		"no known timer: %llu\n",
		(unsigned long long)st->sleep_exact,
		(unsigned long long)st->tick_exact,
		(unsigned long long)st->no_timer);
	if (st->periods)
		fprintf(stderr, "periods on estimated inputs (sleep length or "
			"delta_tick): %llu of %llu (%.2f%%)\n",
			(unsigned long long)st->estimated,
			(unsigned long long)st->periods,
			100.0 * (double)st->estimated / (double)st->periods);
	fprintf(stderr, "wake causes:");
	for (i = 0; i < WAKE_CAUSE_COUNT; i++)
		fprintf(stderr, " %s %llu", wake_cause_name(i),
			(unsigned long long)st->wake[i]);
	fputc('\n', stderr);
	if (st->stop_next_used)
		fprintf(stderr, "sleep lengths whose timer part is the tick "
			"stop's programming: %llu\n",
			(unsigned long long)st->stop_next_used);
	model_print_probed(st, "", stderr);
	if (st->hold_bounded || st->hold_lowered || st->stale_timers ||
	    st->hold_global || st->hold_deferrable)
		fprintf(stderr, "timers armed before the capture: bounded %llu "
			"sleep lengths with no known timer (%llu stay unknown) "
			"and shortened %llu; of those run, re-armed deferrable "
			"%llu, taken as unpinned (timer migration) %llu; "
			"overdue timers dropped: %llu\n",
			(unsigned long long)st->hold_bounded,
			(unsigned long long)st->hold_unbounded,
			(unsigned long long)st->hold_lowered,
			(unsigned long long)st->hold_deferrable,
			(unsigned long long)st->hold_global,
			(unsigned long long)st->stale_timers);
	if (st->ended_sleeps || st->lost_ticks)
		fprintf(stderr, "timer events the trace lacks: sleep timers "
			"ended unseen (their task slept again) %llu, selects "
			"with the tick overdue (re-armed unseen) %llu\n",
			(unsigned long long)st->ended_sleeps,
			(unsigned long long)st->lost_ticks);
	if (st->tmigr)
		fprintf(stderr, "timer migration (Linux 6.9 on): idle CPUs' "
			"unpinned timers counted for the last active CPU, at "
			"%llu selects\n", (unsigned long long)st->tmigr_last);
	if ((lag = model_residency_lag(st, &bad)) >= 0)
		fprintf(stderr, "the kernel's measure of idle periods (its "
			"cpu_idle_miss): %lld ns shorter than the trace's "
			"(contradicts %llu of %llu bounds)\n", (long long)lag,
			(unsigned long long)bad,
			(unsigned long long)st->lag_bounds);
	if (st->drift_known)	/* in tenths of a ppm, without a "-0.0" */
		fprintf(stderr, "trace clock against CLOCK_MONOTONIC: %+.1f "
			"ppm (followed)\n",
			(double)(st->drift_ppb / 100) / 10.0 + 0.0);
	if (st->qos_start_us >= 0)
		fprintf(stderr, "CPU latency constraint (PM QoS): %lld us at "
			"the start, %llu changes\n",
			(long long)st->qos_start_us,
			(unsigned long long)st->qos_changes);
	if (st->poll_periods)
		fprintf(stderr, "polls: %llu, whose end (time limit or "
			"need_resched) the capture showed: %llu\n",
			(unsigned long long)st->poll_periods,
			(unsigned long long)st->poll_ends_seen);
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
	int ret = parse_args(argc, argv, &a);

	if (ret < 0)
		return idl_opts_status(ret);
	if (import_trace(&a.o, &s, &err)) {
		idl_err_print(&err);
		return err.status ? err.status : IDL_EXIT_FAILURE;
	}
	if (!a.quiet)
		summary(a.o.in, &s);
	return IDL_EXIT_OK;
}
