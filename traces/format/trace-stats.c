// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include "trace-stats.h"

const char *const trace_decade_names[TRACE_NR_DECADES] = {
	"<1us", "1-10us", "10-100us", "100us-1ms", "1-10ms", "10-100ms",
	"100ms-1s", ">=1s",
};

static int decade_of(uint64_t ns)
{
	uint64_t lim = 1000;
	int d;

	for (d = 0; d < TRACE_NR_DECADES - 1; d++, lim *= 10)
		if (ns < lim)
			return d;
	return TRACE_NR_DECADES - 1;
}

static void account(struct trace_stats *s, const struct idle_period *p)
{
	uint64_t d = p->exit_ns - p->entry_ns;

	s->periods++;
	s->idle_ns += d;
	s->decade[decade_of(d)]++;
	s->cause[p->wake_cause < WAKE_CAUSE_COUNT ? p->wake_cause :
		 WAKE_CAUSE_COUNT]++;
	s->state[p->state >= 0 && p->state < CSTATE_MAX ? p->state + 1 : 0]++;
	s->exact += !!(p->flags & IP_SLEEP_EXACT);
	s->no_timer += p->sleep_length_ns == TRACE_NO_TIMER;
	s->exact_timer += (p->flags & IP_SLEEP_EXACT) &&
			  p->sleep_length_ns != TRACE_NO_TIMER;
	s->tick_stopped += !!(p->flags & IP_TICK_STOPPED);
	s->got_tick += !!(p->flags & IP_GOT_TICK);
	s->miss_above += !!(p->flags & IP_MISS_ABOVE);
	s->miss_below += !!(p->flags & IP_MISS_BELOW);
	if (p->flags & IP_QOS_KNOWN) {
		if (!s->qos_periods++ || p->qos_latency_us < s->qos_min_us)
			s->qos_min_us = p->qos_latency_us;
		if (p->qos_latency_us > s->qos_max_us)
			s->qos_max_us = p->qos_latency_us;
	}
	s->cpu_periods[p->cpu]++;
	s->cpu_idle_ns[p->cpu] += d;
	if (p->state >= 0 && p->state < CSTATE_MAX) {
		struct trace_state_stats *c = &s->cs[p->cpu][p->state];

		c->entries++;
		c->idle_ns += d;
		c->above += !!(p->flags & IP_MISS_ABOVE);
		c->below += !!(p->flags & IP_MISS_BELOW);
	}
}

int trace_stats_scan(struct trace_reader *r, struct trace_stats *s,
		     struct idl_err *err)
{
	struct idle_period p;
	int ret;

	while ((ret = trace_reader_next(r, -1, &p, err)) == 1)
		account(s, &p);
	return ret;
}

/*
 * The counters are read just before tracing starts and just after it
 * stops, and the first and last periods of a CPU are not in the trace
 * (partial), so small differences are expected: a few entries, and the
 * time of the partial periods, which can be seconds on a quiet CPU.
 * Entries and misses may differ by 2 + 1%; the time is shown, not
 * judged.
 */
static bool off_by(uint64_t t, uint64_t k, uint64_t slack)
{
	uint64_t d = t > k ? t - k : k - t;

	return d > slack + k / 100;
}

size_t trace_counters_check(const struct trace_counter *c, size_t n,
			    const struct trace_stats *s,
			    struct trace_counter_check *out)
{
	size_t i, flagged = 0;
	int k;

	for (i = 0; i < n; i++) {
		struct trace_counter_check *o = &out[i];
		const struct trace_state_stats *t = &s->cs[c[i].cpu][c[i].state];

		o->cpu = c[i].cpu;
		o->state = c[i].state;
		for (k = 0; k < TC_NR; k++)
			o->kernel[k] = c[i].end[k] >= c[i].start[k] ?
				       c[i].end[k] - c[i].start[k] : 0;
		o->trace[TC_USAGE] = t->entries;
		o->trace[TC_TIME_US] = t->idle_ns / 1000;
		o->trace[TC_ABOVE] = t->above;
		o->trace[TC_BELOW] = t->below;
		o->trace[TC_REJECTED] = 0;	/* not traced */
		o->entries_off = off_by(t->entries, o->kernel[TC_USAGE], 2);
		o->miss_off = off_by(t->above, o->kernel[TC_ABOVE], 2) ||
			      off_by(t->below, o->kernel[TC_BELOW], 2);
		o->flagged = o->entries_off || o->miss_off;
		flagged += o->flagged;
	}
	return flagged;
}
