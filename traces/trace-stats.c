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
	s->tick_stopped += !!(p->flags & IP_TICK_STOPPED);
	s->got_tick += !!(p->flags & IP_GOT_TICK);
	s->miss_above += !!(p->flags & IP_MISS_ABOVE);
	s->miss_below += !!(p->flags & IP_MISS_BELOW);
	s->cpu_periods[p->cpu]++;
	s->cpu_idle_ns[p->cpu] += d;
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
