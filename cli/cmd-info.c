// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab info: describe a trace (the counting is in
 * traces/format/trace-stats.c).
 */
#include "config.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "cli.h"
#include "events.h"
#include "options.h"
#include "trace.h"
#include "text.h"
#include "trace-stats.h"

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void fmt_num(char *buf, size_t n, double v, double scale)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.6g", v / scale);
}

/* The width of the table's longest state name (at least @min). */
static int name_width(const struct cstate_table *t, int min)
{
	int i, w = min;

	for (i = 0; i < t->count; i++)
		if ((int)strlen(t->states[i].name) > w)
			w = (int)strlen(t->states[i].name);
	return w;
}

static void print_table(const struct cstate_table *t)
{
	int w = name_width(t, 4), i;
	char pw[32], en[32];

	printf("\nC-state table: %s%s%s%s\n", t->name,
	       t->description[0] ? " (" : "", t->description,
	       t->description[0] ? ")" : "");
	printf("  driver %s, power %s\n", t->driver[0] ? t->driver : "-",
	       t->power_unit == CSTATE_POWER_MW ? "mW / uJ" :
	       t->power_unit == CSTATE_POWER_RELATIVE ? "relative" : "none");
	printf("  %2s %-*s %10s %10s %6s %-8s %10s %10s  %s\n", "#", w,
	       "name", "exit_us", "target_us", "flags", "disabled", "power",
	       "energy", "desc");
	for (i = 0; i < t->count; i++) {
		const struct cstate *s = &t->states[i];

		fmt_num(pw, sizeof(pw), s->power, 1);
		fmt_num(en, sizeof(en), s->entry_energy, 1);
		printf("  %2d %-*s %10.3f %10.3f   0x%02x %-8s %10s %10s  %s\n",
		       i, w, s->name, (double)s->exit_latency_ns / 1e3,
		       (double)s->target_residency_ns / 1e3, s->flags,
		       s->disabled ? "yes" : "no", pw, en, s->desc);
	}
}

static void print_check_row(const struct trace_meta *m,
			    const struct trace_counter_check *c)
{
	const char *name = (int)c->state < m->table.count ?
			   m->table.states[c->state].name : "?";

	printf("  %4u %-14s %9" PRIu64 " %9" PRIu64 " %10.1f %10.1f %6"
	       PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 "%s\n", c->cpu,
	       name, c->trace[TC_USAGE], c->kernel[TC_USAGE],
	       (double)c->trace[TC_TIME_US] / 1e3,
	       (double)c->kernel[TC_TIME_US] / 1e3, c->trace[TC_ABOVE],
	       c->kernel[TC_ABOVE], c->trace[TC_BELOW], c->kernel[TC_BELOW],
	       c->flagged ? "  !" : "");
}

/* What each flagged row means, as warnings on stderr. */
static void warn_check(const struct trace_meta *m,
		       const struct trace_counter_check *c)
{
	const char *name = (int)c->state < m->table.count ?
			   m->table.states[c->state].name : "?";

	if (c->entries_off)
		idl_warn("CPU %u state %s: the trace has %" PRIu64 " entries "
			 "(%.1f ms), the kernel counted %" PRIu64 " (%.1f ms): "
			 "events were lost or never reached the trace buffer",
			 c->cpu, name, c->trace[TC_USAGE],
			 (double)c->trace[TC_TIME_US] / 1e3,
			 c->kernel[TC_USAGE],
			 (double)c->kernel[TC_TIME_US] / 1e3);
	if (c->miss_off)
		idl_warn("CPU %u state %s: cpu_idle_miss gave %" PRIu64
			 " above / %" PRIu64 " below, the kernel counted %"
			 PRIu64 " / %" PRIu64, c->cpu, name, c->trace[TC_ABOVE],
			 c->trace[TC_BELOW], c->kernel[TC_ABOVE],
			 c->kernel[TC_BELOW]);
}

static void print_checks(const struct trace_meta *m,
			 const struct trace_counter_check *c, size_t n)
{
	size_t i;

	if (!n)
		return;
	printf("\nKernel counters (sysfs, over the recording) and the trace:\n"
	       "  %4s %-14s %9s %9s %10s %10s %6s %6s %6s %6s\n", "cpu",
	       "state", "entries", "kernel", "idle_ms", "kernel", "above",
	       "kernel", "below", "kernel");
	for (i = 0; i < n; i++)
		print_check_row(m, &c[i]);
}

/*
 * After "CPUs: N": which CPUs have idle periods when not all of them do
 * (events of the others never reached the trace, or they never idled).
 */
static void print_cpus_seen(const struct trace_meta *m,
			    const struct trace_stats *s, bool warn)
{
	char list[64] = "";
	size_t len = 0;
	unsigned int seen = 0;
	int i;

	for (i = 0; i < TRACE_MAX_CPUS && i < (int)m->nr_cpus; i++) {
		if (!s->cpu_periods[i])
			continue;
		if (seen++ < 8 && len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%d", seen > 1 ? "," : "", i);
	}
	if (!m->nr_cpus || seen == m->nr_cpus || !s->periods) {
		if (!warn)
			putchar('\n');
		return;
	}
	if (warn) {
		idl_warn("idle periods of %u of the trace's %" PRIu32 " CPUs "
			 "only (CPU %s%s): the others' events never reached "
			 "the trace, or they never went idle", seen,
			 m->nr_cpus, list, seen > 8 ? ",..." : "");
		return;
	}
	printf(" (idle periods of %u: CPU %s%s)\n", seen, list,
	       seen > 8 ? ",..." : "");
}

static void print_text(const char *file, const struct trace_meta *m,
		       const struct trace_stats *s, const char *damage,
		       const struct trace_counter_check *chk, size_t nchk)
{
	int w = name_width(&m->table, 10), i;
	uint64_t n = s->periods;
	char shown[4096];

	snprintf(shown, sizeof(shown), "%s", file);
	idl_text_clean(shown);
	printf("file:          %s\n", shown);
	printf("format:        version %" PRIu32 "\n", m->version);
	printf("kernel:        %s\n", m->kernel[0] ? m->kernel : "-");
	printf("driver:        %s\n", m->driver[0] ? m->driver : "-");
	printf("governor:      %s\n", m->governor[0] ? m->governor : "-");
	if (m->governor_params[0])
		printf("tunables:      %s\n", m->governor_params);
	if (m->module_params[0])
		printf("module params: %s\n", m->module_params);
	printf("clock:         %s\n", m->clock[0] ? m->clock : "-");
	printf("source:        %s\n", m->source[0] ? m->source : "-");
	printf("tool:          %s\n", m->tool[0] ? m->tool : "-");
	printf("HZ:            %" PRIu32 "\n", m->hz);
	printf("CPUs:          %" PRIu32, m->nr_cpus);
	print_cpus_seen(m, s, false);
	if (m->latency_req_ns < 0)
		printf("latency req:   unknown");
	else
		printf("latency req:   %" PRId64 " ns", m->latency_req_ns);
	if (s->qos_periods)
		printf(" at the start; recorded PM QoS constraint of %" PRIu64
		       " periods: %" PRIu64 " .. %" PRIu64 " ns",
		       s->qos_periods, (uint64_t)s->qos_min_us * 1000,
		       (uint64_t)s->qos_max_us * 1000);
	putchar('\n');
	printf("span:          %" PRIu64 " .. %" PRIu64 " ns (%.6f s)\n",
	       m->start_ns, m->end_ns,
	       (double)(m->end_ns - m->start_ns) / 1e9);
	printf("periods:       %" PRIu64 " read, %" PRIu64 " in metadata\n",
	       n, m->nr_periods);
	printf("events:        %" PRIu64 " consumed, %" PRIu64 " lost\n",
	       m->nr_events, m->lost_events);
	if (m->poll_ends_seen)
		printf("poll ends:     seen in the capture for %" PRIu64
		       " polls (need_resched flag or wakeups)\n",
		       m->poll_ends_seen);
	if (m->residency_lag_ns == 0 &&
	    (m->events_seen & (1U << EV_PROBE_RESIDENCY)))
		printf("idle measure:  the kernel's own (its residency "
		       "probes)\n");
	else if (m->residency_lag_ns >= 0)
		printf("idle measure:  the kernel's is %" PRId64 " ns shorter "
		       "than the trace's (its cpu_idle_miss classes)\n",
		       m->residency_lag_ns);
	print_table(&m->table);

	printf("\nPer CPU:\n  %4s %12s %8s %12s\n", "cpu", "periods",
	       "idle%", "mean_us");
	for (i = 0; i < TRACE_MAX_CPUS; i++) {
		double span = (double)(m->end_ns - m->start_ns);

		if (!s->cpu_periods[i])
			continue;
		printf("  %4d %12" PRIu64 " %8.2f %12.3f\n", i,
		       s->cpu_periods[i],
		       span > 0 ? 100.0 * (double)s->cpu_idle_ns[i] / span : 0,
		       (double)s->cpu_idle_ns[i] / 1e3 /
		       (double)s->cpu_periods[i]);
	}
	printf("\nIdle duration:\n");
	for (i = 0; i < TRACE_NR_DECADES; i++)
		printf("  %-10s %12" PRIu64 " %7.2f%%\n", trace_decade_names[i],
		       s->decade[i], pct(s->decade[i], n));
	printf("\nWake causes:\n");
	for (i = 0; i <= WAKE_CAUSE_COUNT; i++)
		if (s->cause[i] || i < WAKE_CAUSE_COUNT)
			printf("  %-10s %12" PRIu64 " %7.2f%%\n",
			       wake_cause_name((enum wake_cause)i),
			       s->cause[i], pct(s->cause[i], n));
	printf("\nStates entered:\n  %-*s %12" PRIu64 " %7.2f%%\n", w,
	       "unknown", s->state[0], pct(s->state[0], n));
	for (i = 0; i < CSTATE_MAX; i++)
		if (s->state[i + 1])
			printf("  %-*s %12" PRIu64 " %7.2f%%\n", w,
			       i < m->table.count ? m->table.states[i].name :
			       "?", s->state[i + 1], pct(s->state[i + 1], n));
	/* three shares of one whole: a period without a timer is in the
	 * last, whether that is known exactly (synth) or not (import) */
	printf("\nSleep length:  %.2f%% exact, %.2f%% estimated, "
	       "%.2f%% no timer\n", pct(s->exact_timer, n),
	       pct(n - s->exact_timer - s->no_timer, n), pct(s->no_timer, n));
	printf("Tick:          %.2f%% stopped at entry, %.2f%% got a tick\n",
	       pct(s->tick_stopped, n), pct(s->got_tick, n));
	printf("Kernel misses: %" PRIu64 " above (%.2f%%), %" PRIu64
	       " below (%.2f%%)\n", s->miss_above, pct(s->miss_above, n),
	       s->miss_below, pct(s->miss_below, n));
	print_checks(m, chk, nchk);
	if (damage)
		printf("\nwarning: damaged trace: %s\n", damage);
}

static json_t *json_meta(const struct trace_meta *m)
{
	json_t *o = json_object(), *states = json_array();
	const struct cstate_table *t = &m->table;
	int i;

	json_object_set_new(o, "version", json_integer(m->version));
	json_object_set_new(o, "kernel", idl_json_string(m->kernel));
	json_object_set_new(o, "driver", idl_json_string(m->driver));
	json_object_set_new(o, "governor", idl_json_string(m->governor));
	json_object_set_new(o, "governor_params",
			    idl_json_string(m->governor_params));
	json_object_set_new(o, "module_params", idl_json_string(m->module_params));
	json_object_set_new(o, "clock", idl_json_string(m->clock));
	json_object_set_new(o, "source", idl_json_string(m->source));
	json_object_set_new(o, "tool", idl_json_string(m->tool));
	json_object_set_new(o, "hz", json_integer(m->hz));
	json_object_set_new(o, "nr_cpus", json_integer(m->nr_cpus));
	json_object_set_new(o, "latency_req_ns",
			    m->latency_req_ns < 0 ? json_null() :
			    json_integer(m->latency_req_ns));
	json_object_set_new(o, "start_ns",
			    json_integer((json_int_t)m->start_ns));
	json_object_set_new(o, "end_ns", json_integer((json_int_t)m->end_ns));
	json_object_set_new(o, "nr_periods",
			    json_integer((json_int_t)m->nr_periods));
	json_object_set_new(o, "nr_events",
			    json_integer((json_int_t)m->nr_events));
	json_object_set_new(o, "lost_events",
			    json_integer((json_int_t)m->lost_events));
	json_object_set_new(o, "poll_ends_seen",
			    json_integer((json_int_t)m->poll_ends_seen));
	json_object_set_new(o, "residency_lag_ns", m->residency_lag_ns >= 0 ?
			    json_integer((json_int_t)m->residency_lag_ns) :
			    json_null());
	for (i = 0; i < t->count; i++) {
		const struct cstate *c = &t->states[i];

		json_array_append_new(states, json_pack(
			"{s:s, s:s, s:I, s:I, s:i, s:b, s:o, s:o}",
			"name", c->name, "desc", c->desc,
			"exit_latency_ns", (json_int_t)c->exit_latency_ns,
			"target_residency_ns",
			(json_int_t)c->target_residency_ns,
			"flags", (int)c->flags, "disabled", c->disabled,
			"power", idl_json_number(c->power),
			"entry_energy", idl_json_number(c->entry_energy)));
	}
	json_object_set_new(o, "table", json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:s, s:o}",
		"name", t->name, "description", t->description,
		"driver", t->driver, "source", t->source, "rule", t->rule,
		"power_unit", t->power_unit == CSTATE_POWER_MW ? "mW" :
		t->power_unit == CSTATE_POWER_RELATIVE ? "relative" : "none",
		"states", states));
	return o;
}

static json_t *json_counts(const struct trace_meta *m,
			   const struct trace_stats *s)
{
	json_t *o = json_object(), *a;
	int i;

	a = json_object();
	for (i = 0; i < TRACE_NR_DECADES; i++)
		json_object_set_new(a, trace_decade_names[i],
				    json_integer((json_int_t)s->decade[i]));
	json_object_set_new(o, "idle_duration", a);
	a = json_object();
	for (i = 0; i <= WAKE_CAUSE_COUNT; i++)
		json_object_set_new(a, wake_cause_name((enum wake_cause)i),
				    json_integer((json_int_t)s->cause[i]));
	json_object_set_new(o, "wake_causes", a);
	a = json_array();
	for (i = 0; i < TRACE_MAX_CPUS; i++)
		if (s->cpu_periods[i])
			json_array_append_new(a, json_pack("{s:i, s:I, s:I}",
				"cpu", i,
				"periods", (json_int_t)s->cpu_periods[i],
				"idle_ns", (json_int_t)s->cpu_idle_ns[i]));
	json_object_set_new(o, "cpus", a);
	/* as the text: unknown (-1), then the table's states by index */
	a = json_array();
	for (i = -1; i < CSTATE_MAX; i++) {
		const char *name = i < 0 ? "unknown" :
				   i < m->table.count ? m->table.states[i].name :
				   "?";

		if (i >= m->table.count && !s->state[i + 1])
			continue;
		json_array_append_new(a, json_pack("{s:i, s:s, s:I}",
			"state", i, "name", name,
			"entered", (json_int_t)s->state[i + 1]));
	}
	json_object_set_new(o, "states_entered", a);
	/* the constraint the periods carry (a capture that traced it) */
	json_object_set_new(o, "latency_req_recorded", !s->qos_periods ?
		json_null() : json_pack("{s:I, s:I, s:I}",
			"periods", (json_int_t)s->qos_periods,
			"min_ns", (json_int_t)s->qos_min_us * 1000,
			"max_ns", (json_int_t)s->qos_max_us * 1000));
	return o;
}

static json_t *json_checks(const struct trace_counter_check *c, size_t n)
{
	static const char *const names[TC_NR] = {
		"usage", "time_us", "above", "below", "rejected"
	};
	json_t *a = json_array(), *t, *k;
	size_t i;
	int j;

	for (i = 0; i < n; i++) {
		t = json_object();
		k = json_object();
		for (j = 0; j < TC_NR; j++) {
			if (j != TC_REJECTED)
				json_object_set_new(t, names[j], json_integer(
					(json_int_t)c[i].trace[j]));
			json_object_set_new(k, names[j], json_integer(
				(json_int_t)c[i].kernel[j]));
		}
		json_array_append_new(a, json_pack("{s:i, s:i, s:o, s:o, s:b}",
			"cpu", (int)c[i].cpu, "state", (int)c[i].state,
			"trace", t, "kernel", k, "flagged", c[i].flagged));
	}
	return a;
}

static void print_json(const char *file, const struct trace_meta *m,
		       const struct trace_stats *s,
		       const struct trace_reader *r,
		       const struct trace_counter_check *chk, size_t nchk)
{
	json_t *o = json_object(), *c = json_counts(m, s);
	struct trace_damage d;

	trace_reader_damage_info(r, &d);
	json_object_set_new(o, "file", idl_json_string(file));
	json_object_set_new(o, "meta", json_meta(m));
	json_object_set_new(c, "periods", json_integer((json_int_t)s->periods));
	json_object_set_new(c, "idle_ns", json_integer((json_int_t)s->idle_ns));
	json_object_set_new(c, "sleep_exact",
			    json_integer((json_int_t)s->exact));
	json_object_set_new(c, "sleep_no_timer",
			    json_integer((json_int_t)s->no_timer));
	json_object_set_new(c, "tick_stopped",
			    json_integer((json_int_t)s->tick_stopped));
	json_object_set_new(c, "got_tick",
			    json_integer((json_int_t)s->got_tick));
	json_object_set_new(c, "miss_above",
			    json_integer((json_int_t)s->miss_above));
	json_object_set_new(c, "miss_below",
			    json_integer((json_int_t)s->miss_below));
	json_object_set_new(o, "stats", c);
	json_object_set_new(o, "counters", nchk ? json_checks(chk, nchk) :
			    json_null());
	json_object_set_new(o, "damage", !d.damaged ? json_null() :
		json_pack("{s:s, s:I, s:I, s:I, s:I}",
			  "message", trace_reader_damage(r),
			  "offset", (json_int_t)d.offset,
			  "bytes_lost", (json_int_t)d.bytes_lost,
			  "blocks_lost", (json_int_t)d.blocks_lost,
			  "records_lost", (json_int_t)d.records_lost));
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		   JSON_REAL_PRECISION(17));
	putchar('\n');
	json_decref(o);
}

static const char info_usage[] =
	"usage: idlelab info FILE [--format text|json]\n\n"
	"Describe a trace: metadata, C-state table, per-CPU counts,\n"
	"idle durations, wake causes, sleep-length and tick statistics,\n"
	"kernel miss counts and any damage.\n";

int cmd_info(int argc, char **argv)
{
	int json = 0;
	const struct idl_option opts[] = {
		IDL_OPT_CHOICE('f', "format", &json, "FMT",
			"text (default) or json", "text", "json"),
		IDL_OPT_END
	};
	const struct idl_cmdline cl = {
		.usage = info_usage, .opts = opts, .operand = "FILE",
		.min_operands = 1, .max_operands = 1,
	};
	struct trace_stats *s;
	struct trace_reader *r;
	struct idl_err err;
	const struct trace_counter *ctr;
	struct trace_counter_check *chk;
	size_t nchk, i;
	const char *damage;
	int first = idl_parse_options(argc, argv, &cl);

	if (first < 0)
		return idl_opts_status(first);
	r = trace_reader_open(argv[first], &err);
	s = calloc(1, sizeof(*s));
	if (!r || !s || trace_stats_scan(r, s, &err) < 0) {
		if (!s)
			idl_err_set(&err, IDL_EXIT_FAILURE, "out of memory");
		idl_err_print(&err);
		free(s);
		trace_reader_close(r);
		return err.status;
	}
	damage = trace_reader_damage(r);
	ctr = trace_reader_counters(r, &nchk);
	chk = nchk ? calloc(nchk, sizeof(*chk)) : NULL;
	if (chk)
		trace_counters_check(ctr, nchk, s, chk);
	else
		nchk = 0;
	if (json)
		print_json(argv[first], trace_reader_meta(r), s, r, chk,
			   nchk);
	else
		print_text(argv[first], trace_reader_meta(r), s, damage, chk,
			   nchk);
	for (i = 0; i < nchk; i++)
		if (chk[i].flagged)
			warn_check(trace_reader_meta(r), &chk[i]);
	/* a damaged trace lacks CPUs for that reason: said above */
	if (damage)
		idl_warn("%s", damage);
	else
		print_cpus_seen(trace_reader_meta(r), s, true);
	free(chk);
	free(s);
	trace_reader_close(r);
	return IDL_EXIT_OK;
}
