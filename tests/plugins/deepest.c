// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * deepest: a governor plugin for idlelab.  It picks the deepest enabled
 * state whose target residency fits the time to the next timer (less a
 * safety margin) and whose exit latency fits the latency limit, and
 * keeps the tick unless that state is worth more than a tick.  It
 * counts its decisions for the replay's statistics.
 *
 * Build:  cc -shared -fPIC $(pkg-config --cflags idlelab) -o deepest.so deepest.c
 * Use:    idlelab replay -g menu,./deepest.so,./deepest.so:margin_pct=50 T.idl
 */
#include <idlelab/governor.h>

enum { PARAM_MARGIN };			/* the order of deepest_params */

struct deepest_cpu {			/* per CPU, zeroed before enable() */
	long long	ticks_kept;
	long long	chosen[CPUIDLE_STATE_MAX];
};

static int deepest_select(struct cpuidle_driver *drv,
			  struct cpuidle_device *dev, bool *stop_tick)
{
	struct deepest_cpu *data = gov_data(dev);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	s64 delta_tick, sleep = tick_nohz_get_sleep_length(&delta_tick);
	s64 fit = sleep - sleep / 100 * gov_param(dev, PARAM_MARGIN);
	int i, idx = 0;

	for (i = 1; i < drv->state_count; i++) {
		const struct cpuidle_state *s = &drv->states[i];

		if (dev->states_usage[i].disable ||
		    s->exit_latency_ns > latency_req)
			continue;
		if (s->target_residency_ns <= fit)
			idx = i;
	}
	if (drv->states[idx].target_residency_ns < TICK_NSEC &&
	    !tick_nohz_tick_stopped()) {
		*stop_tick = false;
		data->ticks_kept++;
	}
	data->chosen[idx]++;
	gov_explain(dev, "deepest: sleep %lld ns, fit %lld ns -> state %d",
		    (long long)sleep, (long long)fit, idx);
	return idx;
}

static void deepest_reflect(struct cpuidle_device *dev, int index)
{
	dev->last_state_idx = index;
}

static void deepest_stats(struct cpuidle_driver *drv,
			  struct cpuidle_device *dev, idl_stat_fn emit,
			  void *ctx)
{
	struct deepest_cpu *data = gov_data(dev);
	int i;

	emit(ctx, "ticks_kept", NULL, data->ticks_kept, IDL_STAT_SUM);
	for (i = 0; i < drv->state_count; i++)
		emit(ctx, "chosen", drv->states[i].name, data->chosen[i],
		     IDL_STAT_SUM);
}

static const struct idl_gov_param deepest_params[] = {
	{ "margin_pct", "part of the sleep length kept as a margin, %",
	  0, 0, 99 },
	{ NULL, NULL, 0, 0, 0 }
};

static const struct idl_governor_ops deepest_ops = {
	.name		= "deepest",
	.rating		= 1,
	.data_size	= sizeof(struct deepest_cpu),
	.params		= deepest_params,
	.select		= deepest_select,
	.reflect	= deepest_reflect,
	.stats		= deepest_stats,
};

IDL_DEFINE_PLUGIN(deepest_ops, "native plugin: tests/plugins/deepest.c");
