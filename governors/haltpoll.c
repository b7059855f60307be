// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * haltpoll: the governor of KVM guests, as in Linux 6.18.y
 * (drivers/cpuidle/governors/haltpoll.c).
 *
 * It alternates between polling (state 0) and halting (state 1) and adapts
 * the polling window dev->poll_limit_ns to the halt durations it sees:
 * a halt that the window would nearly have covered grows it, a long one
 * shrinks it.  The poll state itself uses dev->poll_limit_ns as its time
 * limit.  See doc/governors.md section 6 and the kernel's
 * haltpoll_select() and adjust_poll_limit().
 */
#include "config.h"

#include <idlelab/governor.h>


/* The module parameters, in the order of haltpoll_params[]. */
enum {
	PARAM_POLL_NS,		/* guest_halt_poll_ns */
	PARAM_SHRINK,		/* guest_halt_poll_shrink */
	PARAM_GROW,		/* guest_halt_poll_grow */
	PARAM_GROW_START,	/* guest_halt_poll_grow_start */
	PARAM_ALLOW_SHRINK,	/* guest_halt_poll_allow_shrink */
};

#define guest_halt_poll_ns(dev)	  ((unsigned int)gov_param(dev, PARAM_POLL_NS))
#define guest_halt_poll_shrink(dev) ((unsigned int)gov_param(dev, PARAM_SHRINK))
#define guest_halt_poll_grow(dev) ((unsigned int)gov_param(dev, PARAM_GROW))
#define guest_halt_poll_grow_start(dev) \
	((unsigned int)gov_param(dev, PARAM_GROW_START))
#define guest_halt_poll_allow_shrink(dev) \
	((bool)gov_param(dev, PARAM_ALLOW_SHRINK))

/*
 * haltpoll keeps its state in the device; the per-CPU data only counts
 * window changes for replay's internals (idlelab).
 */
struct haltpoll_counts {
	u64	grows, shrinks;
};

static int haltpoll_select(struct cpuidle_driver *drv,
			   struct cpuidle_device *dev, bool *stop_tick)
{
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);

	if (!drv->state_count || latency_req == 0) {
		gov_explain(dev, "haltpoll: latency_req 0 -> poll, keep tick");
		*stop_tick = false;
		return 0;
	}

	/* No polling window (yet): halt, and let the tick stop. */
	if (dev->poll_limit_ns == 0) {
		gov_explain(dev, "haltpoll: poll_limit_ns 0 -> halt");
		return 1;
	}

	if (dev->last_state_idx == 0) {
		/* The last poll ran out its window without an event. */
		if (dev->poll_time_limit) {
			gov_explain(dev, "haltpoll: poll_limit_ns %llu, last "
				    "poll timed out -> halt",
				    (unsigned long long)dev->poll_limit_ns);
			return 1;
		}
		gov_explain(dev, "haltpoll: poll_limit_ns %llu, last poll "
			    "ended by an event -> poll again",
			    (unsigned long long)dev->poll_limit_ns);
		*stop_tick = false;
		return 0;
	}

	gov_explain(dev, "haltpoll: poll_limit_ns %llu, last state halted "
		    "-> poll", (unsigned long long)dev->poll_limit_ns);
	*stop_tick = false;
	return 0;
}

/* Grow or shrink the polling window after a halt of @block_ns. */
static void adjust_poll_limit(struct cpuidle_device *dev, u64 block_ns)
{
	unsigned int max = guest_halt_poll_ns(dev);
	unsigned int start = guest_halt_poll_grow_start(dev);
	unsigned int val;

	if (block_ns > dev->poll_limit_ns && block_ns <= max) {
		/* Polling a little longer would have caught the wakeup. */
		val = (unsigned int)(dev->poll_limit_ns *
				     guest_halt_poll_grow(dev));
		if (val < start)
			val = start;
		if (val > max)
			val = max;
		gov_explain(dev, "haltpoll: block %llu ns: grow %llu -> %u",
			    (unsigned long long)block_ns,
			    (unsigned long long)dev->poll_limit_ns, val);
		dev->poll_limit_ns = val;
		((struct haltpoll_counts *)gov_data(dev))->grows++;
	} else if (block_ns > max && guest_halt_poll_allow_shrink(dev)) {
		/* Polling would not have helped: poll less. */
		unsigned int shrink = guest_halt_poll_shrink(dev);

		val = (unsigned int)dev->poll_limit_ns;
		if (shrink == 0) {
			val = 0;
		} else {
			val /= shrink;
			/* since 6.9: no window below grow_start */
			if (val < start)
				val = 0;
		}
		gov_explain(dev, "haltpoll: block %llu ns: shrink %llu -> %u",
			    (unsigned long long)block_ns,
			    (unsigned long long)dev->poll_limit_ns, val);
		dev->poll_limit_ns = val;
		((struct haltpoll_counts *)gov_data(dev))->shrinks++;
	}
}

static void haltpoll_reflect(struct cpuidle_device *dev, int index)
{
	dev->last_state_idx = index;

	if (index != 0)
		adjust_poll_limit(dev, dev->last_residency_ns);
}

static int haltpoll_enable_device(struct cpuidle_driver *drv,
				  struct cpuidle_device *dev)
{
	dev->poll_limit_ns = 0;
	return 0;
}

static void haltpoll_explain_state(struct cpuidle_device *dev,
				   struct idl_explain *ex)
{
	idl_explain_printf(ex, "haltpoll: poll_limit_ns %llu",
			   (unsigned long long)dev->poll_limit_ns);
}

static void haltpoll_stats(struct cpuidle_driver *drv,
			   struct cpuidle_device *dev, idl_stat_fn emit,
			   void *ctx)
{
	const struct haltpoll_counts *c = gov_data(dev);

	(void)drv;
	emit(ctx, "poll_limit_ns", NULL, (long long)dev->poll_limit_ns,
	     IDL_STAT_LAST);
	emit(ctx, "window_grows", NULL, (long long)c->grows, IDL_STAT_SUM);
	emit(ctx, "window_shrinks", NULL, (long long)c->shrinks,
	     IDL_STAT_SUM);
}

static const struct idl_gov_param haltpoll_params[] = {
	{ "guest_halt_poll_ns", "maximum polling window, ns",
	  200000, 0, UINT_MAX },
	{ "guest_halt_poll_shrink", "divisor when shrinking the window",
	  2, 0, UINT_MAX },
	{ "guest_halt_poll_grow", "multiplier when growing the window",
	  2, 0, UINT_MAX },
	{ "guest_halt_poll_grow_start", "first window when growing from 0, ns",
	  50000, 0, UINT_MAX },
	{ "guest_halt_poll_allow_shrink", "shrink the window after long halts",
	  1, 0, 1 },
	{ NULL, NULL, 0, 0, 0 }
};

const struct idl_governor_ops idl_gov_haltpoll = {
	.name		= "haltpoll",
	.rating		= 9,
	.kernel_version	= "6.18.y",
	.data_size	= sizeof(struct haltpoll_counts),
	.params		= haltpoll_params,
	.enable		= haltpoll_enable_device,
	.select		= haltpoll_select,
	.reflect	= haltpoll_reflect,
	.explain_state	= haltpoll_explain_state,
	.stats		= haltpoll_stats,
};
