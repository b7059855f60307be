// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The menu governor (governors/menu.c) against the kernel's 6.18.y
 * menu_select() and menu_update(), as doc/governor-menu.md ("The
 * algorithm", "Exact integer semantics") describes them.  Every expected
 * value was worked out by hand from those rules; the arithmetic is in the
 * comments (big products were done with Python integers, reduced mod
 * 2^64 / 2^32 as the kernel's C types do).
 * The governor is driven only through the public API: a cpuidle_driver, a
 * zeroed cpuidle_device, an idl_env, idl_governor_parse/attach and ops.
 *
 * Tables (latency/residency in us), verified against the corpus files
 * the built-in tables come from (doc/tables.md):
 * intel_idle_tables.csv skl_cstates, amd_acpi_idle_sysfs.csv rome0,
 * arm_dt_idle_states.csv juno-r0 (linux_exit_latency/target_residency):
 *   SKL:  POLL 0/0, C1 2/2, C1E 10/20, C3 70/100, C6 85/200, C7s 124/800,
 *         C8 200/800, C9 480/5000, C10 890/5000
 *   AMD (rome, acpi_idle): POLL 0/0, C1 1/2, C2 400/800
 *   VM (haltpoll): POLL 0/0, haltpoll idle 1/1
 *   Juno (psci, no POLL): WFI 1/1, cpu-sleep-0 1500/2000,
 *         cluster-sleep-0 1600/2500
 * Unity correction factor 8192; timer_us = (4096000 + next * cf) / 8192000.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <idlelab/governor.h>

#include "explain.h"

#define KMAX	9223372036854775807LL	/* KTIME_MAX */
#define NOREQ	2000000000000LL		/* no latency constraint */

struct st { const char *name; s64 lat_us, res_us; unsigned int flags; };

static const struct st skl[] = {
	{ "POLL", 0, 0, CPUIDLE_FLAG_POLLING }, { "C1", 2, 2, 0 },
	{ "C1E", 10, 20, 0 }, { "C3", 70, 100, 0 }, { "C6", 85, 200, 0 },
	{ "C7s", 124, 800, 0 }, { "C8", 200, 800, 0 },
	{ "C9", 480, 5000, 0 }, { "C10", 890, 5000, 0 }, { NULL, 0, 0, 0 },
};
static const struct st amd[] = {
	{ "POLL", 0, 0, CPUIDLE_FLAG_POLLING }, { "C1", 1, 2, 0 },
	{ "C2", 400, 800, 0 }, { NULL, 0, 0, 0 },
};
static const struct st vm[] = {
	{ "POLL", 0, 0, CPUIDLE_FLAG_POLLING }, { "haltpoll", 1, 1, 0 },
	{ NULL, 0, 0, 0 },
};
static const struct st juno[] = {
	{ "WFI", 1, 1, 0 },
	{ "cpu-sleep-0", 1500, 2000, CPUIDLE_FLAG_TIMER_STOP },
	{ "cluster-sleep-0", 1600, 2500, CPUIDLE_FLAG_TIMER_STOP },
	{ NULL, 0, 0, 0 },
};

static struct cpuidle_driver drv;
static struct cpuidle_device dev;
static struct idl_env env;
static struct idl_governor gov;

static struct idl_explain ex;
static FILE *ex_file;
static char *ex_text;
static size_t ex_len;

static void setup_spec(const struct st *t, unsigned int hz, s64 latency_req,
		       const char *spec)
{
	char err[256];
	int i;

	/* a test may set up twice: free the first device's data */
	if (dev.governor_data)
		idl_governor_detach(&dev, &drv);
	memset(&drv, 0, sizeof(drv));
	memset(&dev, 0, sizeof(dev));
	memset(&env, 0, sizeof(env));
	for (i = 0; t[i].name; i++) {
		struct cpuidle_state *s = &drv.states[i];

		snprintf(s->name, sizeof(s->name), "%s", t[i].name);
		s->exit_latency = (unsigned int)t[i].lat_us;
		s->target_residency = (unsigned int)t[i].res_us;
		s->exit_latency_ns = t[i].lat_us * 1000;
		s->target_residency_ns = t[i].res_us * 1000;
		s->flags = t[i].flags;
	}
	drv.name = "test";
	drv.state_count = i;
	env.tick_nsec = idl_tick_nsec_for_hz(hz);
	env.latency_req = latency_req;
	idl_env_set_current(&env);
	ck_assert_msg(idl_governor_parse(&gov, spec, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_int_eq(idl_governor_attach(&dev, &gov, &drv), 0);
}

static void setup(const struct st *t, unsigned int hz, s64 latency_req)
{
	setup_spec(t, hz, latency_req, "menu");
}

static void teardown(void)
{
	if (ex_file) {
		fclose(ex_file);
		free(ex_text);
		ex_file = NULL;
		ex_text = NULL;
		dev.explain = NULL;
	}
	idl_governor_detach(&dev, &drv);
}

/* Start capturing explain lines (select's and explain_state's). */
static void explain_on(void)
{
	if (ex_file) {
		fclose(ex_file);
		free(ex_text);
	}
	ex_text = NULL;
	ex_file = open_memstream(&ex_text, &ex_len);
	ck_assert_ptr_nonnull(ex_file);
	idl_explain_init(&ex, ex_file, NULL);
	dev.explain = &ex;
}

static const char *explained(void)
{
	fflush(ex_file);
	return ex_text ? ex_text : "";
}

#define ck_explained(str) \
	ck_assert_msg(strstr(explained(), (str)) != NULL, \
		      "missing \"%s\" in:\n%s", (str), explained())

/* The per-CPU state as explain_state prints it. */
static const char *state_text(void)
{
	explain_on();
	gov.ops->explain_state(&dev, &ex);
	return explained();
}

#define ck_state(str) \
	do { \
		const char *t_ = state_text(); \
		ck_assert_msg(strstr(t_, (str)) != NULL, \
			      "missing \"%s\" in:\n%s", (str), t_); \
	} while (0)

/* One select(): returns idx, *stop gets stop_tick. */
static int sel(s64 sleep, s64 delta_tick, bool stopped, bool *stop)
{
	env.sleep_length = sleep;
	env.delta_tick = delta_tick;
	env.tick_stopped = stopped;
	env.sleep_length_queried = false;
	*stop = true;
	return gov.ops->select(&drv, &dev, stop);
}

#define ck_sel(sleep, dt, stopped, want_idx, want_stop) \
	do { \
		bool st_; \
		int i_ = sel((sleep), (dt), (stopped), &st_); \
		ck_assert_int_eq(i_, (want_idx)); \
		ck_assert_int_eq(st_, (want_stop)); \
	} while (0)

static void refl(int idx, u64 residency, bool got_tick, bool poll_limit)
{
	dev.last_residency_ns = residency;
	dev.poll_time_limit = poll_limit;
	env.got_tick = got_tick;
	gov.ops->reflect(&dev, idx);
}

static void busy(void)
{
	dev.last_residency_ns = 0;
}

/* First select, then @n times (reflect into @idx after @res, select). */
static void fill(int idx, u64 res, s64 sleep, s64 dt, int n)
{
	bool stop;
	int i;

	sel(sleep, dt, false, &stop);
	for (i = 0; i < n; i++) {
		refl(idx, res, false, false);
		sel(sleep, dt, false, &stop);
	}
}

START_TEST(test_ops)
{
	setup(vm, 250, NOREQ);
	ck_assert_str_eq(gov.ops->name, "menu");
	ck_assert_int_eq(gov.ops->rating, 20);
	ck_assert_str_eq(gov.ops->kernel_version, "6.18.y");
	/* enable: unity factors (1024 * 8), no intervals */
	ck_state("factors 8192 8192 8192 8192 8192 8192;");
	ck_state("intervals (us, next slot 0): 0 0 0 0 0 0 0 0");
	teardown();

	/* tunables: range-checked, in the canonical spec */
	{
		char err[256];

		ck_assert_int_eq(idl_governor_parse(&gov, "menu:intervals=17",
						    err, sizeof(err)), -1);
		ck_assert_int_eq(idl_governor_parse(&gov, "menu:intervals=8",
						    err, sizeof(err)), 0);
		ck_assert_str_eq(gov.spec, "menu");
	}
	setup_spec(vm, 250, NOREQ, "menu:intervals=4,decay=4,resolution=512");
	ck_state("factors 2048 2048 2048 2048 2048 2048;");
	ck_state("intervals (us, next slot 0): 0 0 0 0\n");
}
END_TEST

/*
 * KTIME_MAX sleep length on the first call: typical = UINT_MAX, so
 * predicted = 4294967295000 > 15000 and the timer is queried; bucket 5,
 * cf 8192.  (2^63 - 1) * 2^13 = 2^76 - 2^13 = 2^64 - 8192 (mod 2^64);
 * + 4096000 wraps to 4087808; / 8192000 = 0.  So timer_us = 0 and
 * predicted = 0 (a non-wrapping model would get ~1.1e15 us).
 * SKL, HZ 250: POLL fits (0 <= 0); C1: 2000 > 0, override needs exit
 * latency 2000 <= predicted 0 - no; 0 < TICK -> break.  idx 0, polling ->
 * stop_tick 0.
 */
START_TEST(test_ktime_max_wrap)
{
	setup(skl, 250, NOREQ);
	explain_on();
	ck_sel(KMAX, 4000000, false, 0, false);
	ck_explained("timer_us 0\n");
	ck_explained("bucket 5, correction factor 8192");
	teardown();

	/*
	 * Same with the tick stopped: predicted 0 < TICK_NSEC -> predicted =
	 * next_timer_ns = KTIME_MAX; every state fits; C10 (idx 8), tick
	 * stays stoppable.
	 */
	setup(skl, 250, NOREQ);
	explain_on();
	ck_sel(KMAX, 4000000, true, 8, true);
	ck_explained("predicted = next_timer_ns");
	teardown();
}
END_TEST

/*
 * u32 truncation without wrap: next = 10^13 ns, bucket 5, cf 8192:
 * (4096000 + 10^13 * 8192) / 8192000 = 10^10 (remainder 4096000 < divisor)
 * 10^10 mod 2^32 = 10^10 - 2 * 4294967296 = 1410065408.
 * predicted = min(1410065408000, 4294967295000) -> C10, stop 1.
 */
START_TEST(test_timer_us_truncation)
{
	setup(skl, 250, NOREQ);
	explain_on();
	ck_sel(10000000000000LL, 4000000, false, 8, true);
	ck_explained("timer_us 1410065408\n");
	teardown();
}
END_TEST

/*
 * Correction factor arithmetic, then wrap with an odd factor.
 * 1st select: sleep 1 s -> bucket 5.  Reflect C1 (exit 2000) after
 * 1002000 ns: 1002000 > 2 * 2000 -> measured 1000000; <= next (1e9).
 * cf[5] = 8192 - 8192/8 + 1024 * 1000000 / 10^9 = 7168 + 1 = 7169;
 * interval 1000 us into slot 1 (slot 0 has the first call's UINT_MAX).
 * 2nd select, KTIME_MAX: (2^63 - 1) * 7169 mod 2^64 = 2^63 - 7169
 * (7169 is odd) = 9223372036854768639; + 4096000 = 9223372036858864639;
 * / 8192000 = 1125899906843; mod 2^32 (- 262 * 2^32) = 618475291.
 */
START_TEST(test_correction_factor)
{
	bool stop;

	setup(skl, 250, NOREQ);
	ck_sel(1000000000, 4000000, false, 8, true);
	refl(1, 1002000, false, false);
	explain_on();
	sel(KMAX, 4000000, false, &stop);
	ck_explained("timer_us 618475291\n");
	ck_state("factors 8192 8192 8192 8192 8192 7169;");
	ck_state("next slot 2): 4294967295 1000 0 0 0 0 0 0");
	teardown();

	/*
	 * measured <= 2 * exit latency -> measured / 2: C3 (exit 70000)
	 * after 100000 ns: 100000 <= 140000 -> 50000.  cf[5] = 7168 +
	 * 1024 * 50000 / 10^9 (= 0.05) = 7168; interval 50 us.
	 */
	setup(skl, 250, NOREQ);
	sel(1000000000, 4000000, false, &stop);
	refl(3, 100000, false, false);
	sel(1000000000, 4000000, false, &stop);
	ck_state("factors 8192 8192 8192 8192 8192 7168;");
	ck_state("4294967295 50 0 0");
	teardown();
}
END_TEST

/*
 * Outlier loop, SKL HZ 1000 (TICK 1000000), sleep 50 ms (bucket 4),
 * delta_tick 1 ms.  Eight reflects into POLL (exit 0: measured = res)
 * of 100,100,100,100,100,100,1000,10 us; the 9th select overwrites the
 * first call's UINT_MAX, so the table holds exactly those 8.
 * pass 1: n=8 sum 1610 avg 1610>>3 = 201; sq 1060100>>3 = 132512;
 *   var 132512 - 40401 = 92111 > 400, 36*var > avg^2 fails;
 *   avg-min 191 <= max-avg 799 -> drop >= 1000
 * pass 2: n=7 avg 610/7 = 87; sq 60100/7 = 8585; var 8585 - 7569 = 1016;
 *   28 > 24 -> go on; 77 > 13 -> drop <= 10
 * pass 3: n=6 all 100: var 0 -> 100 us.
 * cf[4]: +2 per 100 us (1024*1e5/5e7 = 2.048), +20 for 1000 us, +0 for
 *   10 us: 8192 -> 7170 -> 6276 -> 5494 -> 4810 -> 4211 -> 3687 ->
 *   3247 (3687-460+20) -> 2842 (3247-405+0).
 * timer_us = (4096000 + 5e7 * 2842) / 8192000 = 17346 -> predicted =
 * min(17346000, 100000) = 100000: C3 (100000 <= 100000); C6 200000 >,
 * < TICK -> break; stop 0; C3 100000 <= delta_tick 1e6, no walk.
 */
START_TEST(test_typical_outliers)
{
	static const u64 res_us[] = { 100, 100, 100, 100, 100, 100, 1000, 10 };
	bool stop;
	int i;

	setup(skl, 1000, NOREQ);
	sel(50000000, 1000000, false, &stop);
	for (i = 0; i < 8; i++) {
		refl(0, res_us[i] * 1000, false, false);
		if (i == 7)
			explain_on();
		sel(50000000, 1000000, false, &stop);
	}
	ck_explained("pass 1: n=8 min=10 max=1000 avg=201 var=92111");
	ck_explained("dropping samples >= 1000");
	ck_explained("pass 2: n=7 min=10 max=100 avg=87 var=1016");
	ck_explained("dropping samples <= 10");
	ck_explained("pass 3: n=6 min=100 max=100 avg=100 var=0");
	ck_explained("accepted: 100 us");
	ck_explained("-> state 3, stop_tick 0");
	ck_state("factors 8192 8192 8192 8192 2842 8192;");
	teardown();
}
END_TEST

/*
 * UINT_MAX pushes: on the first call (last_residency_ns is 0 and there is
 * nothing to update) and after a selection that was not entered (busy),
 * but not after a reflect with residency 0 (that one updates: 0/2 = 0).
 */
START_TEST(test_uint_max_pushes)
{
	bool stop;

	setup(skl, 250, NOREQ);
	sel(3000000, 4000000, false, &stop);
	ck_state("next slot 1): 4294967295 0 0 0 0 0 0 0");
	/* C1 after 500000: 500000 > 4000 -> 498000 ns -> 498 us */
	refl(1, 500000, false, false);
	sel(3000000, 4000000, false, &stop);
	ck_state("next slot 2): 4294967295 498 0 0 0 0 0 0");
	busy();
	sel(3000000, 4000000, false, &stop);
	ck_state("next slot 3): 4294967295 498 4294967295 0 0 0 0 0");
	refl(1, 0, false, false);
	/* an update, not a UINT_MAX push: slot 3 gets 0 / 2 / 1000 = 0 */
	sel(3000000, 4000000, false, &stop);
	ck_state("next slot 4): 4294967295 498 4294967295 0 0 0 0 0");
	teardown();
}
END_TEST

/*
 * Early return to state 0: next_timer_ns < states[1] residency, or
 * latency_req < states[1] exit latency, or latency_req == 0; stop_tick =
 * !polling(state 0).  A negative sleep length is clamped to 0.
 */
START_TEST(test_early_state0)
{
	/* VM: 999 < 1000 */
	setup(vm, 250, NOREQ);
	ck_sel(999, 999, false, 0, false);
	teardown();
	setup(vm, 250, NOREQ);
	ck_sel(-5, 4000000, false, 0, false);
	teardown();
	/*
	 * VM 1000: bucket 0, (4096000 + 8192000) / 8192000 = 1 -> predicted
	 * 1000; haltpoll 1000 <= 1000 -> idx 1; 1000 < TICK -> stop 0.
	 */
	setup(vm, 250, NOREQ);
	ck_sel(1000, 4000000, false, 1, false);
	teardown();
	/* Juno (WFI not polling): 1999999 < 2000000 -> 0, stop_tick 1 */
	setup(juno, 250, NOREQ);
	ck_sel(1999999, 4000000, false, 0, true);
	teardown();
	/* AMD: latency_req 500 < C1 exit 1000 */
	setup(amd, 250, 500);
	ck_sel(10000000, 4000000, false, 0, false);
	teardown();
	/* latency_req 0 */
	setup(amd, 250, 0);
	ck_sel(10000000, 4000000, false, 0, false);
	teardown();
	setup(juno, 250, 0);
	ck_sel(10000000, 4000000, false, 0, true);
	teardown();
	/* SKL: latency_req 1999 < C1 exit 2000 */
	setup(skl, 250, 1999);
	ck_sel(50000000, 4000000, false, 0, false);
	teardown();
}
END_TEST

/*
 * Polling override.  AMD HZ 250: reflects into POLL of 1000 ns each
 * (measured 1000 -> 1 us).  2nd select: [UINT_MAX, 1, 0 x 6] -> n=7
 * avg 1/7 = 0, var 1/7 - 0 = 0 -> typical 0: predicted 0, not queried;
 * C1 2000 > 0 and its exit latency 1000 > 0 -> no override -> POLL, 0.
 * 9th select: eight 1s -> typical 1 -> predicted 1000 <= 15000: not
 * queried, next_timer KTIME_MAX, delta_tick 2000000.  C1: 2000 > 1000;
 * POLL is polling, 2000 < 15000, 2000 <= KTIME_MAX, exit 1000 <= 1000 ->
 * idx 1, predicted 2000.  2000 < TICK -> stop 0; 2000 <= delta_tick.
 */
START_TEST(test_poll_override)
{
	bool stop;
	int i;

	setup(amd, 250, NOREQ);
	ck_sel(10000000, 4000000, false, 2, true);
	refl(0, 1000, false, false);
	ck_sel(10000000, 4000000, false, 0, false);
	for (i = 0; i < 6; i++) {
		refl(0, 1000, false, false);
		sel(10000000, 4000000, false, &stop);
	}
	refl(0, 1000, false, false);
	explain_on();
	ck_sel(10000000, 4000000, false, 1, false);
	ck_explained("accepted: 1 us");
	ck_explained("polling state override");
	teardown();

	/*
	 * Residency threshold (6.18.y backport): SKL with C1 disabled,
	 * typical 10 us -> predicted 10000.  C1E: 20000 > 10000, but 20000 <
	 * 15000 fails -> no override; 10000 < TICK -> break -> POLL, stop 0.
	 * (6.18.0, without the threshold, would return C1E.)
	 */
	setup(skl, 250, NOREQ);
	dev.states_usage[1].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	fill(0, 10000, 10000000, 4000000, 7);
	refl(0, 10000, false, false);
	explain_on();
	ck_sel(10000000, 4000000, false, 0, false);
	ck_explained("accepted: 10 us");
	ck_explained("prediction below a tick");
	teardown();
}
END_TEST

/* Tick running, predicted < TICK_NSEC: keep the tick, walk back. */
START_TEST(test_tick_running)
{
	/*
	 * SKL HZ 250: sleep 3 ms, bucket 3: (4096000 + 3e6 * 8192) / 8192000
	 * = 3000 -> predicted 3000000.  C8 800000 fits (idx 6), C9 5000000
	 * too deep, 3e6 < TICK 4e6 -> break.  stop 0; C8 800000 >
	 * delta_tick 150000: C7s 800000 > -> C6 200000 > -> C3 100000 <= ->
	 * idx 3.
	 */
	setup(skl, 250, NOREQ);
	ck_sel(3000000, 150000, false, 3, false);
	teardown();
	/*
	 * HZ 1000: 3e6 >= TICK 1e6 and tick running -> retain the tick:
	 * predicted = C8's 800000 < TICK -> stop 0; 800000 > delta_tick
	 * 700000: C7s 800000 > -> C6 200000 <= -> idx 4.
	 */
	setup(skl, 1000, NOREQ);
	explain_on();
	ck_sel(3000000, 700000, false, 4, false);
	ck_explained("retain tick");
	ck_explained("walking back");
	teardown();
	/* HZ 100: 3e6 < TICK 1e7 -> break at C9, C8 fits delta_tick 5e6 */
	setup(skl, 100, NOREQ);
	ck_sel(3000000, 5000000, false, 6, false);
	teardown();
	/*
	 * Juno HZ 250, 3 ms: predicted 3e6; cluster-sleep 2500000 fits (2);
	 * 3e6 < TICK -> stop 0; 2500000 > delta_tick 2200000 -> cpu-sleep
	 * 2000000 <= -> 1.
	 */
	setup(juno, 250, NOREQ);
	ck_sel(3000000, 2200000, false, 1, false);
	teardown();
	/*
	 * VM (5.5): sleep 2 ms -> haltpoll; 2e6 < TICK -> stop 0; its 1000 >
	 * delta_tick 500 -> back to POLL.
	 */
	setup(vm, 250, NOREQ);
	ck_sel(2000000, 500, false, 0, false);
	teardown();
}
END_TEST

/* Tick already stopped. */
START_TEST(test_tick_stopped)
{
	/*
	 * predicted = next_timer_ns override: SKL HZ 250, eight POLL reflects
	 * of 100 us with sleep 20 ms -> typical 100 -> predicted <= 100000 <
	 * TICK; tick stopped -> predicted = 20000000 -> C10, stop 1.  The
	 * same step with the tick running returns C3 and keeps the tick.
	 */
	setup(skl, 250, NOREQ);
	fill(0, 100000, 20000000, 4000000, 7);
	refl(0, 100000, false, false);
	explain_on();
	ck_sel(20000000, 4000000, true, 8, true);
	ck_explained("predicted = next_timer_ns");
	teardown();
	setup(skl, 250, NOREQ);
	fill(0, 100000, 20000000, 4000000, 7);
	refl(0, 100000, false, false);
	ck_sel(20000000, 4000000, false, 3, false);
	teardown();
	/*
	 * Deeper state within delta_tick: SKL HZ 1000, sleep 3 ms, predicted
	 * 3e6 >= TICK.  C8 fits (6); C9 5e6 too deep; tick stopped; C8's
	 * 800000 < TICK and C9's 5e6 <= delta_tick 6e6 -> 7; with delta_tick
	 * 4e6 -> stays 6.  stop_tick stays 1.
	 */
	setup(skl, 1000, NOREQ);
	ck_sel(3000000, 6000000, true, 7, true);
	teardown();
	setup(skl, 1000, NOREQ);
	ck_sel(3000000, 4000000, true, 6, true);
	teardown();
}
END_TEST

/*
 * tick_wakeup: SKL HZ 250, sleep 200 ms (bucket 5, > TICK); reflect C3
 * with got_tick -> measured 45000000; cf[5] = 7168 + 1024 * 45e6 / 2e8
 * (230.4) = 7398; interval 45000.  With sleep 3 ms (<= TICK) the tick
 * flag is ignored: C3 after 1e6 -> 1e6 - 70000 = 930000; cf[3] = 7168 +
 * 1024 * 930000 / 3e6 (317.4) = 7485; interval 930.
 */
START_TEST(test_tick_wakeup)
{
	bool stop;

	setup(skl, 250, NOREQ);
	sel(200000000, 4000000, false, &stop);
	refl(3, 1000000, true, false);
	sel(200000000, 4000000, false, &stop);
	ck_state("factors 8192 8192 8192 8192 8192 7398;");
	ck_state("): 4294967295 45000 0");
	teardown();

	setup(skl, 250, NOREQ);
	sel(3000000, 4000000, false, &stop);
	refl(3, 1000000, true, false);
	sel(3000000, 4000000, false, &stop);
	ck_state("factors 8192 8192 8192 7485 8192 8192;");
	ck_state("): 4294967295 930 0");
	teardown();
}
END_TEST

/*
 * poll_time_limit: VM HZ 250, sleep 10 ms.  Select 1 queries (bucket 4);
 * from select 2 on the typical interval is <= 5 us, so the timer is not
 * queried: next_timer KTIME_MAX, bucket 5.  Eight POLL reflects of 5000
 * ns; updates 2..8 hit bucket 5 with 1024 * 5000 / KTIME_MAX = 0:
 * 8192 -> 7168 -> 6272 -> 5488 -> 4802 -> 4202 -> 3677 -> 3218.
 * Then POLL ends on its time limit: measured = next_timer_ns = KTIME_MAX,
 * not < 50 ms -> cf[5] = 3218 - 402 + 1024 = 3840; interval =
 * (KTIME_MAX / 1000) mod 2^32 = 9223372036854775 mod 2^32 = 2783138807,
 * into slot 1 (pushes so far: 1 UINT_MAX + 8 updates = 9).
 */
START_TEST(test_poll_time_limit)
{
	bool stop;

	setup(vm, 250, NOREQ);
	fill(0, 5000, 10000000, 4000000, 8);
	ck_state("factors 8192 8192 8192 8192 7168 3218;");
	refl(0, 200000, false, true);
	sel(10000000, 4000000, false, &stop);
	ck_state("factors 8192 8192 8192 8192 7168 3840;");
	ck_state("next slot 2): 5 2783138807 5 5 5 5 5 5");
	teardown();

	/*
	 * With a queried timer: first select 1 ms (bucket 3); POLL times out
	 * -> measured = 1000000; cf[3] = 7168 + 1024 = 8192; interval 1000.
	 */
	setup(vm, 250, NOREQ);
	sel(1000000, 4000000, false, &stop);
	refl(0, 50000, false, true);
	sel(1000000, 4000000, false, &stop);
	ck_state("factors 8192 8192 8192 8192 8192 8192;");
	ck_state("): 4294967295 1000 0");
	teardown();
}
END_TEST

START_TEST(test_disabled_and_latency)
{
	/*
	 * AMD, POLL disabled: the early return needs state 0 enabled, so
	 * 1000 < 2000 does not return.  predicted = (4096000 + 1000 * 8192)
	 * / 8192000 = 1 us.  First enabled C1 (idx 1); 2000 > 1000, not
	 * polling, < TICK -> break; stop 0; 2000 > delta_tick 500 but the
	 * walk only finds the disabled POLL -> stays 1.
	 */
	setup(amd, 250, NOREQ);
	dev.states_usage[0].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	ck_sel(1000, 500, false, 1, false);
	teardown();
	/* SKL, C9 and C10 disabled, 50 ms: deepest enabled C8 (6) */
	setup(skl, 250, NOREQ);
	dev.states_usage[7].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	dev.states_usage[8].disable = CPUIDLE_STATE_DISABLED_BY_DRIVER;
	ck_sel(50000000, 4000000, false, 6, true);
	teardown();
	/*
	 * latency_req 100000: C6 exit 85000 ok, C7s 124000 > -> break, C6
	 * (4); predicted 5e7 >= TICK -> stop 1.
	 */
	setup(skl, 250, 100000);
	explain_on();
	ck_sel(50000000, 4000000, false, 4, true);
	ck_explained("exit latency > latency_req");
	teardown();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("menu");
	TCase *tc = tcase_create("menu");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_ops);
	tcase_add_test(tc, test_ktime_max_wrap);
	tcase_add_test(tc, test_timer_us_truncation);
	tcase_add_test(tc, test_correction_factor);
	tcase_add_test(tc, test_typical_outliers);
	tcase_add_test(tc, test_uint_max_pushes);
	tcase_add_test(tc, test_early_state0);
	tcase_add_test(tc, test_poll_override);
	tcase_add_test(tc, test_tick_running);
	tcase_add_test(tc, test_tick_stopped);
	tcase_add_test(tc, test_tick_wakeup);
	tcase_add_test(tc, test_poll_time_limit);
	tcase_add_test(tc, test_disabled_and_latency);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
