// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A native plugin that misbehaves after its 100th select, for the
 * containment tests (tests/plugin-cli.sh): built with -DCRASH (a write
 * through a null pointer), -DLOOP (an endless loop), -DBADIDX (state
 * 99), -DSCRIBBLE (garbage written over the memory around its device and
 * over its driver's state table, every select), or -DBADABI (a
 * descriptor of another ABI).
 */
#include <idlelab/governor.h>

static int calls;

static int misbehave_select(struct cpuidle_driver *drv,
			    struct cpuidle_device *dev, bool *stop_tick)
{
	(void)drv;
	(void)dev;
	(void)stop_tick;
	if (++calls > 100) {
#if defined(CRASH)
		*(volatile int *)0 = 1;
#elif defined(LOOP)
		for (;;)
			;
#elif defined(BADIDX)
		return 99;
#elif defined(SCRIBBLE)
		__builtin_memset((char *)dev - 2048, 0x5a, 8192);
		__builtin_memset(drv, 0xa5, sizeof(*drv));
#endif
	}
	return 1;
}

static const struct idl_governor_ops misbehave_ops = {
	.name	= "misbehave",
	.select	= misbehave_select,
};

#ifdef BADABI
__attribute__((visibility("default")))
const struct idl_plugin idl_plugin = {
	IDL_GOVERNOR_ABI + 98, IDL_PLUGIN_SIZES, &misbehave_ops, "bad ABI"
};
#else
IDL_DEFINE_PLUGIN(misbehave_ops, "tests/plugins/misbehave.c");
#endif
