// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A native plugin that misbehaves after its 100th select, for the
 * containment tests (tests/plugin-cli.sh): built with -DCRASH (a write
 * through a null pointer), -DLOOP (an endless loop), -DBADIDX (state
 * 99), -DSCRIBBLE (garbage written over the memory around its device and
 * over its driver's state table, every select), or -DBADABI (a
 * descriptor of another ABI).  Misbehaving from the start: -DSTDOUT
 * (writes to standard output in every select), -DFORK (its first select
 * forks a process that sleeps 10 minutes holding every descriptor),
 * -DCTOR_EXIT (a constructor that calls exit(0)), -DCTOR_PAUSE (one that
 * waits forever), -DPARAMS_LONG (nine tunables and no entry with a NULL
 * name after them), -DPARAMS_BADPTR (a tunable's name is a bad pointer),
 * -DESCNAME (an escape sequence in its name, help and origin).
 */
#include <idlelab/governor.h>

#if defined(STDOUT) || defined(FORK) || defined(CTOR_EXIT) || \
	defined(CTOR_PAUSE)
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#endif

#if defined(CTOR_EXIT)
__attribute__((constructor)) static void misbehave_ctor(void)
{
	exit(0);
}
#elif defined(CTOR_PAUSE)
__attribute__((constructor)) static void misbehave_ctor(void)
{
	for (;;)
		pause();
}
#endif

static int calls;

static int misbehave_select(struct cpuidle_driver *drv,
			    struct cpuidle_device *dev, bool *stop_tick)
{
	(void)drv;
	(void)dev;
	(void)stop_tick;
#if defined(STDOUT)
	printf("garbage from the plugin\n");
	fflush(stdout);
#elif defined(FORK)
	if (calls == 0 && fork() == 0) {
		sleep(600);
		_exit(0);
	}
#endif
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

#if defined(PARAMS_LONG)
static const struct idl_gov_param misbehave_params[9] = {
	{ "p1", "", 0, 0, 1 }, { "p2", "", 0, 0, 1 }, { "p3", "", 0, 0, 1 },
	{ "p4", "", 0, 0, 1 }, { "p5", "", 0, 0, 1 }, { "p6", "", 0, 0, 1 },
	{ "p7", "", 0, 0, 1 }, { "p8", "", 0, 0, 1 }, { "p9", "", 0, 0, 1 },
};
#elif defined(ESCNAME)
static const struct idl_gov_param misbehave_params[] = {
	{ "p1", "help\033[2J", 0, 0, 1 },
	{ 0 }
};
#elif defined(PARAMS_BADPTR)
static const struct idl_gov_param misbehave_params[] = {
	{ "p1", "", 0, 0, 1 },
	{ (const char *)16, "", 0, 0, 1 },
	{ 0 }
};
#endif

static const struct idl_governor_ops misbehave_ops = {
#ifdef ESCNAME
	.name	= "mis\033[31mbehave",
#else
	.name	= "misbehave",
#endif
	.select	= misbehave_select,
#if defined(PARAMS_LONG) || defined(PARAMS_BADPTR) || defined(ESCNAME)
	.params	= misbehave_params,
#endif
};

#ifdef BADABI
__attribute__((visibility("default")))
const struct idl_plugin idl_plugin = {
	IDL_GOVERNOR_ABI + 98, IDL_PLUGIN_SIZES, &misbehave_ops, "bad ABI"
};
#elif defined(ESCNAME)
IDL_DEFINE_PLUGIN(misbehave_ops, "tests/plugins/\033]0;title\007misbehave.c");
#else
IDL_DEFINE_PLUGIN(misbehave_ops, "tests/plugins/misbehave.c");
#endif
