// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Over 800 lines: one governor's tests on one rig, mirroring one kernel file.
 *
 * Unit tests of the teo governor (governors/teo.c) against values worked
 * out by hand from the kernel's 6.18.y teo_update(), teo_select() and
 * teo_reflect(), as doc/governor-teo.md ("The algorithm") and
 * doc/governors.md section 3 describe them.  The arithmetic is in the
 * comments.  The governor is driven through the
 * public API only: a driver table, a zeroed device, an idl_env, and
 * idl_governor_parse() + idl_governor_attach(), then ops->select/reflect.
 *
 * Notation in the comments: S = select, E = the update at the start of a
 * select, h<i>/i<i> = hits/intercepts of bin i, t = total, sh = short_idles,
 * ti = tick_intercepts, m = measured idle duration.
 *
 * "pulse=1,decay_shift=31" makes every metric a plain event count (x >> 31
 * is 0 for any count reached here), which keeps the lookup scenarios easy
 * to follow; the decay itself is tested with the kernel's values.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <idlelab/governor.h>

/* A strong reference, so that teo.o is linked in and registered. */
extern const struct idl_governor_ops idl_gov_teo;

/*
 * The start of the governor's per-CPU data, laid out as in governors/teo.c
 * (idlelab's counters follow), so that the tests can look at the metrics.
 */
struct teo_view {
	s64	sleep_length_ns;
	struct {
		u32 intercepts;
		u32 hits;
	} bin[CPUIDLE_STATE_MAX];
	u32	total;
	u32	tick_intercepts;
	u32	short_idles;
	bool	artificial_wakeup;
};

#define US	1000LL
#define MS	1000000LL

struct tstate {
	const char	*name;
	s64		lat_ns, res_ns;
	unsigned int	flags;
};

/* skl_cstates (intel_idle_tables.csv) behind the poll state, in ns. */
static const struct tstate skl[] = {
	{ "POLL", 0, 0, CPUIDLE_FLAG_POLLING },
	{ "C1", 2 * US, 2 * US, 0 },
	{ "C1E", 10 * US, 20 * US, 0 },
	{ "C3", 70 * US, 100 * US, 0 },
	{ "C6", 85 * US, 200 * US, 0 },
	{ "C7s", 124 * US, 800 * US, 0 },
	{ "C8", 200 * US, 800 * US, 0 },
	{ "C9", 480 * US, 5000 * US, 0 },
	{ "C10", 890 * US, 5000 * US, 0 },
	{ NULL, 0, 0, 0 }
};

/* AMD EPYC 7742 acpi_idle (amd_acpi_idle_sysfs.csv, rome0). */
static const struct tstate amd[] = {
	{ "POLL", 0, 0, CPUIDLE_FLAG_POLLING },
	{ "C1", 1 * US, 2 * US, 0 },
	{ "C2", 400 * US, 800 * US, 0 },
	{ NULL, 0, 0, 0 }
};

/* The development VM: haltpoll driver. */
static const struct tstate vm[] = {
	{ "POLL", 0, 0, CPUIDLE_FLAG_POLLING },
	{ "haltpoll", 1 * US, 1 * US, 0 },
	{ NULL, 0, 0, 0 }
};

/* ARM Juno r0 (arm_dt_idle_states.csv, linux_* columns): no poll state. */
static const struct tstate juno[] = {
	{ "WFI", 1 * US, 1 * US, 0 },
	{ "cpu-sleep-0", 1500 * US, 2000 * US, CPUIDLE_FLAG_TIMER_STOP },
	{ "cluster-sleep-0", 1600 * US, 2500 * US, CPUIDLE_FLAG_TIMER_STOP },
	{ NULL, 0, 0, 0 }
};

struct rig {
	struct cpuidle_driver	drv;
	struct cpuidle_device	dev;
	struct idl_env		env;
	struct idl_governor	gov;
	bool			stop_tick;
};

static struct teo_view *view(struct rig *r)
{
	return r->dev.governor_data;
}

static void rig_init(struct rig *r, const struct tstate *t, unsigned int hz,
		     const char *spec)
{
	char err[256];
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; t[i].name; i++) {
		struct cpuidle_state *s = &r->drv.states[i];

		strcpy(s->name, t[i].name);
		s->exit_latency_ns = t[i].lat_ns;
		s->target_residency_ns = t[i].res_ns;
		s->exit_latency = (unsigned int)(t[i].lat_ns / 1000);
		s->target_residency = (unsigned int)(t[i].res_ns / 1000);
		s->flags = t[i].flags;
	}
	r->drv.name = "test";
	r->drv.state_count = i;
	r->env.tick_nsec = idl_tick_nsec_for_hz(hz);
	r->env.latency_req = 2000000000000LL;
	idl_env_set_current(&r->env);
	ck_assert_msg(idl_governor_parse(&r->gov, spec, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_ptr_eq(r->gov.ops, &idl_gov_teo);
	ck_assert_int_eq(idl_governor_attach(&r->dev, &r->gov, &r->drv), 0);
}

static void rig_fini(struct rig *r)
{
	idl_governor_detach(&r->dev, &r->drv);
}

/* One select(): returns the index; r->stop_tick holds the tick flag. */
static int sel(struct rig *r, s64 sleep_length, s64 delta_tick,
	       bool tick_stopped)
{
	idl_env_set_current(&r->env);
	r->env.sleep_length = sleep_length;
	r->env.delta_tick = delta_tick;
	r->env.tick_stopped = tick_stopped;
	r->env.sleep_length_queried = false;
	r->stop_tick = true;
	return r->gov.ops->select(&r->drv, &r->dev, &r->stop_tick);
}

/* The core's part after an idle period, then reflect(). */
static void refl(struct rig *r, int idx, u64 residency, bool got_tick,
		 bool poll_time_limit)
{
	idl_env_set_current(&r->env);
	r->dev.last_residency_ns = residency;
	r->dev.poll_time_limit = poll_time_limit;
	r->env.got_tick = got_tick;
	r->gov.ops->reflect(&r->dev, idx);
}

#define ck_sel(r, sl, dt, stopped, want_idx, want_stop)			\
	do {								\
		int got_ = sel(r, sl, dt, stopped);			\
		ck_assert_int_eq(got_, want_idx);			\
		ck_assert_int_eq((r)->stop_tick, want_stop);		\
	} while (0)

START_TEST(test_ops)
{
	const struct idl_governor_ops *ops = idl_governor_find("teo");
	struct rig r;

	ck_assert_ptr_eq(ops, &idl_gov_teo);
	ck_assert_str_eq(ops->name, "teo");
	ck_assert_uint_eq(ops->rating, 19);
	ck_assert_str_eq(ops->kernel_version, "6.18.y");
	ck_assert_uint_ge(ops->data_size, sizeof(struct teo_view));
	ck_assert_str_eq(ops->params[0].name, "pulse");
	ck_assert_int_eq(ops->params[0].def, 1024);
	ck_assert_str_eq(ops->params[1].name, "decay_shift");
	ck_assert_int_eq(ops->params[1].def, 3);
	ck_assert_str_eq(ops->params[2].name, "residency_threshold_ns");
	ck_assert_int_eq(ops->params[2].def, 15000);
	ck_assert_str_eq(ops->params[3].name, "latency_threshold_ns");
	ck_assert_int_eq(ops->params[3].def, 7500);
	ck_assert_str_eq(ops->params[4].name, "tick_intercepts_fix");
	ck_assert_int_eq(ops->params[4].def, 0);
	ck_assert_ptr_null(ops->params[5].name);

	/* The spec of a default instance is the bare name. */
	rig_init(&r, vm, 250, "teo:pulse=1024,tick_intercepts_fix=0");
	ck_assert_str_eq(r.gov.spec, "teo");
	rig_fini(&r);
}
END_TEST

/*
 * First select on a zeroed device, Skylake, HZ=250 (TICK_NSEC 4 ms).
 * E1 runs with last_state_idx 0, last_residency 0, sleep_length_ns 0
 * (zeroed, not KTIME_MAX): lat(POLL) = 0, m = 0 >= 0 -> m = 0 - 0 = 0,
 * 0 < 15000 -> sh = 1024.  res(0) = 0 <= sleep_length 0 -> idx_timer 0,
 * 0 <= m -> idx_duration 0; res(1) = 2000 > 0.  Hit: h0 = 1024,
 * t = 0 - 0 + 1024 = 1024.
 * S1: candidate = deepest enabled = 8 (C10), idx0 = 0, constraint 8;
 * idx_isum = 0, idx_hsum = h0 = 1024: 2*0 > 1024-1024 = 0 is false.
 * res(8) = 5 ms >= 15 us: no shortcut, the sleep length is queried.
 */
START_TEST(test_first_select)
{
	struct rig r;

	/* 10 ms >= res(8) 5 ms; duration 10 ms >= 4 ms: stop, state 8. */
	rig_init(&r, skl, 250, "teo");
	ck_sel(&r, 10 * MS, 3 * MS, false, 8, true);
	ck_assert(r.env.sleep_length_queried);
	ck_assert_uint_eq(view(&r)->bin[0].hits, 1024);
	ck_assert_uint_eq(view(&r)->short_idles, 1024);
	ck_assert_uint_eq(view(&r)->total, 1024);
	ck_assert_uint_eq(view(&r)->tick_intercepts, 0);
	ck_assert_int_eq(view(&r)->sleep_length_ns, 10 * MS);
	ck_assert_int_eq(r.dev.last_state_idx, -1);
	rig_fini(&r);

	/*
	 * Sleep length 3 ms < res(8): shallower(8, 3 ms) visits 7 (5 ms),
	 * 6 (800 us <= 3 ms) -> 6.  3 ms < TICK_NSEC, tick running;
	 * ti 0 > 1024/2 + 1024/8 = 640 is false.  res(6) 800 us >
	 * delta_tick 3 ms? no -> 6, tick kept.
	 */
	rig_init(&r, skl, 250, "teo");
	ck_sel(&r, 3 * MS, 3 * MS, false, 6, false);
	rig_fini(&r);

	/* Same, delta_tick 500 us: shallower(6, 500 us) = 5 (800 us) ->
	 * 4 (200 us <= 500 us) -> 4. */
	rig_init(&r, skl, 250, "teo");
	ck_sel(&r, 3 * MS, 500 * US, false, 4, false);
	rig_fini(&r);
}
END_TEST

/*
 * Hits, intercepts and the decay, AMD table, HZ=250.
 * E1 as above: h0 = 1024, sh = 1024, t = 1024.  S1: candidate 2, no
 * lookup (idx_isum 0), res(2) 800 us: query; 10 ms -> 2, stop.
 */
START_TEST(test_update_hits_intercepts)
{
	struct teo_view *v;
	struct rig r;

	rig_init(&r, amd, 250, "teo");
	v = view(&r);
	ck_sel(&r, 10 * MS, 4 * MS, false, 2, true);

	/*
	 * Reflect C2 after 5 ms.  E2: sh = 1024 - 128 = 896; lat 400 us,
	 * m = 5 ms - 200 us = 4.8 ms (not short).  h0 = 1024 - 128 = 896.
	 * Timer bin 2 (800 us <= 10 ms), duration bin 2 (800 us <= 4.8
	 * ms): hit, h2 = 1024.  t = 1024 - 128 + 1024 = 1920.
	 * S2: idx_isum 0, no lookup; query 10 ms -> 2, stop.
	 */
	refl(&r, 2, 5 * MS, false, false);
	ck_assert(!v->artificial_wakeup);
	ck_sel(&r, 10 * MS, 4 * MS, false, 2, true);
	ck_assert_uint_eq(v->short_idles, 896);
	ck_assert_uint_eq(v->bin[0].hits, 896);
	ck_assert_uint_eq(v->bin[2].hits, 1024);
	ck_assert_uint_eq(v->total, 1920);

	/*
	 * Reflect C2 after 100 us < lat 400 us: m = 100 us / 2 = 50 us,
	 * short.  E3: sh = 896 - 112 + 1024 = 1808; h0 = 896 - 112 = 784;
	 * h2 = 1024 - 128 = 896.  Timer bin 2, duration bin 1 (2 us <=
	 * 50 us < 800 us): intercept, i1 = 1024.  ti: 4 ms <= 50 us? no,
	 * ti = 0.  t = 1920 - 240 + 1024 = 2704.
	 * S3: idx_isum = i0 + i1 = 1024, idx_hsum = h0 + h1 = 784;
	 * 2048 > 2704 - 784 = 1920: lookup.  i = 1: s = 1024, 2048 > 1024,
	 * state 1 enabled and ok -> 1.  res(1) 2 us < 15 us and
	 * 2*1808 = 3616 >= 2704: shortcut, no sleep length, tick kept.
	 */
	refl(&r, 2, 100 * US, false, false);
	ck_sel(&r, 10 * MS, 4 * MS, false, 1, false);
	ck_assert(!r.env.sleep_length_queried);
	ck_assert_uint_eq(v->short_idles, 1808);
	ck_assert_uint_eq(v->bin[0].hits, 784);
	ck_assert_uint_eq(v->bin[2].hits, 896);
	ck_assert_uint_eq(v->bin[1].intercepts, 1024);
	ck_assert_uint_eq(v->tick_intercepts, 0);
	ck_assert_uint_eq(v->total, 2704);
	ck_assert_int_eq(v->sleep_length_ns, KTIME_MAX);

	/*
	 * Tick wakeup while the sleep length is KTIME_MAX > TICK_NSEC:
	 * artificial, got_tick consumed.  E4: sh = 1808 - 226 = 1582
	 * (nothing added); m = U64_MAX.  h0 = 784 - 98 = 686,
	 * h2 = 896 - 112 = 784, i1 = 1024 - 128 = 896.  Timer bin 2 (the
	 * deepest, KTIME_MAX), duration bin 2: hit, h2 = 1808.
	 * t = 2704 - 338 + 1024 = 3390.
	 */
	refl(&r, 1, 3 * US, true, false);
	ck_assert(v->artificial_wakeup);
	ck_assert(!r.env.got_tick);
	sel(&r, 10 * MS, 4 * MS, false);
	ck_assert_uint_eq(v->short_idles, 1582);
	ck_assert_uint_eq(v->bin[0].hits, 686);
	ck_assert_uint_eq(v->bin[2].hits, 1808);
	ck_assert_uint_eq(v->bin[1].intercepts, 896);
	ck_assert_uint_eq(v->total, 3390);
	rig_fini(&r);
}
END_TEST

/*
 * x -= x >> 3 never takes a value below 8 to 0.  pulse=7: E1 gives
 * h0 = 7, t = 7, sh = 7 (m = 0).  Then every period is a hit in bin 2
 * (AMD, sleep length 10 ms, C2 for 5 ms: m = 4.8 ms), so h0 only decays:
 * 7 - (7 >> 3) = 7 - 0 = 7 forever; sh likewise stays 7.
 * t: 7 -> 7 - 0 + 7 = 14 -> 14 - 1 + 7 = 20 -> 20 - 2 + 7 = 25 ->
 * 25 - 3 + 7 = 29.  h2: 7 -> 14 -> 20 -> 25 (same recurrence).
 */
START_TEST(test_decay_floor)
{
	struct rig r;
	int k;

	rig_init(&r, amd, 250, "teo:pulse=7");
	for (k = 0; k < 5; k++) {
		ck_sel(&r, 10 * MS, 4 * MS, false, 2, true);
		refl(&r, 2, 5 * MS, false, false);
	}
	ck_assert_uint_eq(view(&r)->bin[0].hits, 7);
	ck_assert_uint_eq(view(&r)->short_idles, 7);
	ck_assert_uint_eq(view(&r)->bin[2].hits, 25);
	ck_assert_uint_eq(view(&r)->total, 29);
	rig_fini(&r);
}
END_TEST

/*
 * The u32 wrap of total - idx_hsum.  AMD, pulse=1 (so values below 8
 * never decay and t saturates at 8: 7 - 0 + 1 = 8, 8 - 1 + 1 = 8).
 * Reflecting C1 (lat 1 us): m = res - 500.
 *   E1: h0 = 1, t = 1, sh = 1.
 *   S1-S3 sleep length 1 us (timer bin 0), C1 for 100 us: E2-E4 hit bin
 *     0 -> h0 = 4, t = 4.  (S: shallower(2, 1 us) -> 0, polling, kept.)
 *   S4-S8 sleep length 100 us (bin 1), C1 for 100 us: m = 99.5 us in
 *     bin 1 -> E5-E9 hits, h1 = 5, t = 5, 6, 7, 8, 8.
 *   S9 sleep length 1 ms (bin 2), C1 for 1 us: m = 500 ns in bin 0 ->
 *     E10 intercept, i0 = 1, sh = 2, t = 8; ti: 4 ms <= 500? no.
 *   S10: idx_isum = i0 + i1 = 1, idx_hsum = h0 + h1 = 9.
 *     total - idx_hsum = 8 - 9 wraps to 4294967295, 2*1 > that is false:
 *     no lookup.  (Signed, -1 < 2 would look up and walk to state 0,
 *     where 2*1 > 1.)  res(2) = 800 us: query; 10 ms -> 2, tick stops.
 */
START_TEST(test_u32_wrap)
{
	struct rig r;
	int k;

	rig_init(&r, amd, 250, "teo:pulse=1");
	for (k = 0; k < 3; k++) {
		ck_sel(&r, 1 * US, 4 * MS, false, 0, false);
		refl(&r, 1, 100 * US, false, false);
	}
	for (k = 0; k < 5; k++) {
		ck_sel(&r, 100 * US, 4 * MS, false, 1, false);
		refl(&r, 1, 100 * US, false, false);
	}
	ck_sel(&r, 1 * MS, 4 * MS, false, 2, false);
	refl(&r, 1, 1 * US, false, false);
	ck_sel(&r, 10 * MS, 4 * MS, false, 2, true);
	ck_assert_uint_eq(view(&r)->bin[0].hits, 4);
	ck_assert_uint_eq(view(&r)->bin[1].hits, 5);
	ck_assert_uint_eq(view(&r)->bin[0].intercepts, 1);
	ck_assert_uint_eq(view(&r)->total, 8);
	ck_assert_uint_eq(view(&r)->short_idles, 2);
	rig_fini(&r);
}
END_TEST

/*
 * Build the Skylake bins for the lookup tests, counting mode
 * (pulse=1,decay_shift=31).  E1: h0 = 1.  Then intercepts with the
 * sleep length at 100 ms (timer bin 8), C1 entered (lat 2 us, m = res -
 * 1 us): 2 in bin 3 (m = 150 us), 3 in bin 2 (m = 50 us).  During these
 * selects the candidate may move, so only the tick flag is not checked.
 * Result: i2 = 3, i3 = 2, h0 = 1, t = 6.
 */
static void lookup_bins(struct rig *r, unsigned int hz, bool tick_stopped)
{
	static const s64 res[] = { 151 * US, 151 * US, 51 * US, 51 * US,
				   51 * US };
	int k;

	rig_init(r, skl, hz, "teo:pulse=1,decay_shift=31");
	for (k = 0; k < 5; k++) {
		sel(r, 100 * MS, 1 * MS, tick_stopped);
		refl(r, 1, (u64)res[k], false, false);
	}
}

/*
 * Tick running, HZ=250.  S6: candidate 8, idx_isum = i2 + i3 = 5,
 * idx_hsum = 1, t = 6: 10 > 6 - 1 = 5, lookup.  Walk: i = 7..4 s = 0,
 * enabled and ok -> first_ok = 4; i = 3: s = 2, 4 > 5 no, first_ok = 3;
 * i = 2: s = 5, 10 > 5: state 2 ok -> 2 (C1E, 20 us >= 15 us: no
 * shortcut).  Sleep length 10 ms: ti 0 > 3 + 0 no; 10 ms >= 4 ms: stop.
 * With C1E disabled, the majority point is a disabled state, so
 * first_ok = 3 (C3) is taken.
 */
START_TEST(test_lookup_tick_running)
{
	struct rig r;

	lookup_bins(&r, 250, false);
	/* E6 (the last 51 us period) has not run yet. */
	ck_assert_uint_eq(view(&r)->bin[2].intercepts, 2);
	ck_assert_uint_eq(view(&r)->total, 5);
	ck_sel(&r, 10 * MS, 4 * MS, false, 2, true);
	ck_assert_uint_eq(view(&r)->bin[2].intercepts, 3);
	ck_assert_uint_eq(view(&r)->bin[3].intercepts, 2);
	ck_assert_uint_eq(view(&r)->bin[0].hits, 1);
	ck_assert_uint_eq(view(&r)->total, 6);
	rig_fini(&r);

	lookup_bins(&r, 250, false);
	r.dev.states_usage[2].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	ck_sel(&r, 10 * MS, 4 * MS, false, 3, true);
	rig_fini(&r);
}
END_TEST

/*
 * Tick stopped, HZ=1000 (TICK_NSEC 1 ms): state_ok(i) only for res >=
 * 1 ms, i.e. 7 and 8.  Walk from 8: i = 7 s = 0, ok -> first_ok = 7;
 * i = 6..3 not ok but first_ok != idx -> continue (s = 2 at 3: 4 > 5
 * no); i = 2: s = 5, majority, state 2 not ok -> first_ok = 7 (C9).
 * Tick stopped: returned with stop_tick left true.
 * With C9 disabled: i = 7 skipped (s = 0); i = 6 not ok and first_ok ==
 * idx: give up, candidate 8 kept.
 */
START_TEST(test_lookup_tick_stopped)
{
	struct rig r;

	lookup_bins(&r, 1000, true);
	ck_sel(&r, 10 * MS, 1 * MS, true, 7, true);
	rig_fini(&r);

	lookup_bins(&r, 1000, true);
	r.dev.states_usage[7].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	ck_sel(&r, 10 * MS, 1 * MS, true, 8, true);
	rig_fini(&r);

	/* Tick not stopped on the same bins: back to C1E. */
	lookup_bins(&r, 1000, true);
	ck_sel(&r, 10 * MS, 1 * MS, false, 2, true);
	rig_fini(&r);
}
END_TEST

/*
 * The latency shortcut, VM table (POLL, haltpoll 1/1 us), HZ=250.
 * E1: h0 = 1024, sh = 1024, t = 1024.  S1: candidate 1, no lookup,
 * res(1) = 1 us < 15 us and 2*1024 >= 1024: shortcut, tick kept.
 * Reflect state 1 after 1 ms: m = 1 ms - 500 ns (not short).
 * E2: sh = 896, t = 1920; timer bin 1 (KTIME_MAX), duration bin 1: hit.
 * S2: 2*896 = 1792 >= 1920 is false, so only latency_req < 7500 can
 * skip the sleep length.
 */
static void vm_two_steps(struct rig *r, s64 latency_req)
{
	rig_init(r, vm, 250, "teo");
	ck_sel(r, 10 * MS, 4 * MS, false, 1, false);
	ck_assert(!r->env.sleep_length_queried);
	refl(r, 1, 1 * MS, false, false);
	r->env.latency_req = latency_req;
}

START_TEST(test_latency_shortcut)
{
	struct rig r;

	/* 5000 < 7500: shortcut, not queried, tick kept. */
	vm_two_steps(&r, 5000);
	ck_sel(&r, 10 * MS, 4 * MS, false, 1, false);
	ck_assert(!r.env.sleep_length_queried);
	ck_assert_uint_eq(view(&r)->short_idles, 896);
	ck_assert_uint_eq(view(&r)->total, 1920);
	ck_assert_uint_eq(view(&r)->bin[1].hits, 1024);
	rig_fini(&r);

	/* 7500 is not < 7500: queried; 10 ms >= TICK_NSEC -> stop. */
	vm_two_steps(&r, 7500);
	ck_sel(&r, 10 * MS, 4 * MS, false, 1, true);
	ck_assert(r.env.sleep_length_queried);
	rig_fini(&r);

	/* latency_threshold_ns=5000: 5000 is no longer below it. */
	rig_init(&r, vm, 250, "teo:latency_threshold_ns=5000");
	ck_sel(&r, 10 * MS, 4 * MS, false, 1, false);
	refl(&r, 1, 1 * MS, false, false);
	r.env.latency_req = 5000;
	ck_sel(&r, 10 * MS, 4 * MS, false, 1, true);
	rig_fini(&r);
}
END_TEST

/*
 * The 15 us threshold is strict: a state with res exactly 15 us is not
 * "shallow".  Table POLL, A 1/15 us.  First select: sh = t = 1024, the
 * short-idles half holds, but res(1) = 15000 < 15000 is false: queried.
 * With res 14 us it is shallow: shortcut.
 */
START_TEST(test_residency_threshold)
{
	static const struct tstate t15[] = {
		{ "POLL", 0, 0, CPUIDLE_FLAG_POLLING },
		{ "A", 1 * US, 15 * US, 0 },
		{ NULL, 0, 0, 0 }
	};
	static const struct tstate t14[] = {
		{ "POLL", 0, 0, CPUIDLE_FLAG_POLLING },
		{ "A", 1 * US, 14 * US, 0 },
		{ NULL, 0, 0, 0 }
	};
	struct rig r;

	rig_init(&r, t15, 250, "teo");
	ck_sel(&r, 10 * MS, 4 * MS, false, 1, true);
	ck_assert(r.env.sleep_length_queried);
	rig_fini(&r);

	rig_init(&r, t14, 250, "teo");
	ck_sel(&r, 10 * MS, 4 * MS, false, 1, false);
	ck_assert(!r.env.sleep_length_queried);
	rig_fini(&r);
}
END_TEST

/*
 * The shallower step after the sleep length is unconditional in 6.18.y
 * (6.18.3 backport), even with the tick stopped.  Skylake, HZ=1000,
 * first select, tick stopped, sleep length 300 us: candidate 8 (no
 * lookup), res 5 ms > 300 us: shallower(8, 300 us) = 7, 6, 5 (800 us),
 * 4 (200 us <= 300 us) -> 4.  (6.18.0-2 would have kept 8, as
 * state_ok(4) fails: 200 us < 1 ms.)  Tick stopped: stop_tick true.
 */
START_TEST(test_shallower_after_sleep_length)
{
	struct rig r;

	rig_init(&r, skl, 1000, "teo");
	ck_sel(&r, 300 * US, 1 * MS, true, 4, true);
	rig_fini(&r);

	/* No enabled state below: shallower() returns the candidate. */
	rig_init(&r, skl, 1000, "teo");
	for (int i = 0; i < 8; i++)
		r.dev.states_usage[i].disable = CPUIDLE_STATE_DISABLED_BY_USER;
	r.dev.states_usage[3].disable = 0;
	/* enabled: 3 and 8 -> candidate 8, idx0 3; 300 us: shallower = 3
	 * (100 us <= 300 us); tick stopped -> 3, stop. */
	ck_sel(&r, 300 * US, 1 * MS, true, 3, true);
	rig_fini(&r);

	/* Negative sleep length: shallower walks to 0 (res 0 > -5 us is
	 * still true, so it ends on the last enabled state visited). */
	rig_init(&r, skl, 250, "teo");
	ck_sel(&r, -5 * US, -5 * US, false, 0, false);
	rig_fini(&r);
}
END_TEST

/*
 * tick_intercepts, Skylake, HZ=1000 (TICK_NSEC 1 ms), default pulse.
 *   E1: h0 = 1024, t = 1024.  S1: sleep length 100 ms -> 8, stop.
 *   C10 for 2.445 ms: m = 2.445 ms - 445 us = 2 ms.  E2: timer bin 8,
 *     duration bin 6 (800 us <= 2 ms < 5 ms): intercept, i6 = 1024;
 *     1 ms <= 2 ms: ti = 1024.  h0 = 896, t = 1920.
 *   S2: idx_isum = 1024, idx_hsum = 896: 2048 > 1024, lookup: i = 7
 *     s = 0, i = 6 s = 1024, 2048 > 1024 -> 6 (800 us).  Query 100 ms;
 *     res(6) < 1 ms but ti 1024 > 960 + 240 = 1200 is false -> 6, stop.
 *   C8 for 2.1 ms: m = 2.1 ms - 100 us = 2 ms.  E3: intercept bin 6,
 *     ti = 1024 - 128 + 1024 = 1920, i6 = 1920, h0 = 784,
 *     t = 1920 - 240 + 1024 = 2704.
 *   S3: 2*1920 > 2704 - 784, lookup -> 6.  ti 1920 > 1352 + 338 = 1690:
 *     duration = TICK_NSEC/2 = 500 us < 1 ms: tick kept; res(6) = 800 us
 *     > delta_tick 700 us: shallower(6, 700 us) = 5, 4 (200 us) -> 4.
 *     With delta_tick 900 us: 6, tick kept.
 * With tick_intercepts_fix=1 (m <= TICK_NSEC), 2 ms never counts: ti 0,
 * S3 -> 6 with the tick stopped.
 */
static void tick_intercepts_steps(struct rig *r, const char *spec)
{
	rig_init(r, skl, 1000, spec);
	ck_sel(r, 100 * MS, 1 * MS, false, 8, true);
	refl(r, 8, 2445 * US, false, false);
	ck_sel(r, 100 * MS, 1 * MS, false, 6, true);
	refl(r, 6, 2100 * US, false, false);
}

START_TEST(test_tick_intercepts)
{
	struct rig r;

	tick_intercepts_steps(&r, "teo");
	ck_sel(&r, 100 * MS, 700 * US, false, 4, false);
	ck_assert_uint_eq(view(&r)->tick_intercepts, 1920);
	ck_assert_uint_eq(view(&r)->bin[6].intercepts, 1920);
	ck_assert_uint_eq(view(&r)->total, 2704);
	rig_fini(&r);

	tick_intercepts_steps(&r, "teo");
	ck_sel(&r, 100 * MS, 900 * US, false, 6, false);
	rig_fini(&r);

	/*
	 * Tick already stopped (1 ms): the lookup's majority point 6
	 * (800 us) is not ok, so first_ok = 7 (C9) is taken; 5 ms is not
	 * below TICK_NSEC, and the tick is stopped: 7 with stop_tick.
	 */
	tick_intercepts_steps(&r, "teo");
	ck_sel(&r, 100 * MS, 700 * US, true, 7, true);
	rig_fini(&r);

	tick_intercepts_steps(&r, "teo:tick_intercepts_fix=1");
	ck_sel(&r, 100 * MS, 700 * US, false, 6, true);
	ck_assert_uint_eq(view(&r)->tick_intercepts, 0);
	rig_fini(&r);
}
END_TEST

/*
 * The 6.19 direction counts short intercepts.  AMD, HZ=250, fix=1:
 * E1: h0 = 1024.  S1 -> 2 (10 ms).  C2 for 100 us: m = 50 us, timer
 * bin 2, duration bin 1: intercept; 50 us <= 4 ms: ti = 1024 (with the
 * 6.18.y rule 4 ms <= 50 us is false: ti = 0).
 */
START_TEST(test_tick_intercepts_fix)
{
	struct rig r;

	rig_init(&r, amd, 250, "teo:tick_intercepts_fix=1");
	ck_sel(&r, 10 * MS, 4 * MS, false, 2, true);
	refl(&r, 2, 100 * US, false, false);
	sel(&r, 10 * MS, 4 * MS, false);
	ck_assert_uint_eq(view(&r)->tick_intercepts, 1024);
	rig_fini(&r);

	rig_init(&r, amd, 250, "teo");
	ck_sel(&r, 10 * MS, 4 * MS, false, 2, true);
	refl(&r, 2, 100 * US, false, false);
	sel(&r, 10 * MS, 4 * MS, false);
	ck_assert_uint_eq(view(&r)->tick_intercepts, 0);
	rig_fini(&r);
}
END_TEST

/*
 * Only one enabled state: duration = its target residency, no sleep
 * length.  Skylake HZ=250 with only C6 (200 us < 4 ms): tick kept, and
 * idx == idx0 so no delta_tick correction -> 3.  Only C10 (5 ms >= 4 ms):
 * 8 with stop.  VM with only POLL (idx0 = 0): polling, tick kept; with
 * the tick stopped: 0 and stop_tick left true.
 */
START_TEST(test_one_enabled_state)
{
	struct rig r;
	int i;

	rig_init(&r, skl, 250, "teo");
	for (i = 0; i < 9; i++)
		r.dev.states_usage[i].disable = i != 3;
	ck_sel(&r, 10 * MS, 1 * US, false, 3, false);
	ck_assert(!r.env.sleep_length_queried);
	ck_assert_int_eq(view(&r)->sleep_length_ns, KTIME_MAX);
	r.dev.states_usage[3].disable = 1;
	r.dev.states_usage[8].disable = 0;
	ck_sel(&r, 1 * MS, 1 * US, false, 8, true);
	rig_fini(&r);

	rig_init(&r, vm, 250, "teo");
	r.dev.states_usage[1].disable = 1;
	ck_sel(&r, 10 * MS, 4 * MS, false, 0, false);
	ck_sel(&r, 10 * MS, 4 * MS, true, 0, true);
	rig_fini(&r);
}
END_TEST

/* Nothing enabled: 0 with the tick kept.  A single state: the same. */
START_TEST(test_nothing_enabled)
{
	struct rig r;
	int i;

	rig_init(&r, juno, 100, "teo");
	for (i = 0; i < 3; i++)
		r.dev.states_usage[i].disable = 1;
	ck_sel(&r, 100 * MS, 10 * MS, true, 0, false);
	ck_assert(!r.env.sleep_length_queried);
	rig_fini(&r);

	rig_init(&r, juno, 100, "teo");
	r.drv.state_count = 1;
	ck_sel(&r, 100 * MS, 10 * MS, false, 0, false);
	rig_fini(&r);
}
END_TEST

/*
 * constraint_idx, Skylake HZ=250, first select.  latency_req 100 us:
 * exit latencies <= 100 us: 0..4 (C6 85 us) -> constraint 4; candidate
 * 8 -> 4 (200 us, not shallow), query 10 ms -> 4, stop.  With C6
 * disabled the constraint is 3 (C3).  latency_req 0: constraint 0
 * (POLL) -> state 0, and 0 < 7500: shortcut, tick kept.
 */
START_TEST(test_constraint)
{
	struct rig r;

	rig_init(&r, skl, 250, "teo");
	r.env.latency_req = 100 * US;
	ck_sel(&r, 10 * MS, 4 * MS, false, 4, true);
	rig_fini(&r);

	rig_init(&r, skl, 250, "teo");
	r.env.latency_req = 100 * US;
	r.dev.states_usage[4].disable = 1;
	ck_sel(&r, 10 * MS, 4 * MS, false, 3, true);
	rig_fini(&r);

	rig_init(&r, skl, 250, "teo");
	r.env.latency_req = 0;
	ck_sel(&r, 10 * MS, 4 * MS, false, 0, false);
	ck_assert(!r.env.sleep_length_queried);
	rig_fini(&r);
}
END_TEST

/*
 * reflect and artificial wakeups, AMD HZ=250.
 *  - poll_time_limit set: artificial, poll_time_limit cleared, and the
 *    got_tick flag is NOT read (short-circuit).
 *  - got_tick with sleep length 10 ms > 4 ms: artificial, flag consumed.
 *  - got_tick with sleep length 3 ms <= 4 ms: not artificial, consumed.
 *  - got_tick after the shortcut (KTIME_MAX): artificial.
 */
START_TEST(test_reflect)
{
	struct teo_view *v;
	struct rig r;

	rig_init(&r, amd, 250, "teo");
	v = view(&r);
	sel(&r, 10 * MS, 4 * MS, false);
	refl(&r, 0, 50 * US, true, true);
	ck_assert(v->artificial_wakeup);
	ck_assert(!r.dev.poll_time_limit);
	ck_assert(r.env.got_tick);
	ck_assert_int_eq(r.dev.last_state_idx, 0);

	sel(&r, 10 * MS, 4 * MS, false);
	refl(&r, 2, 50 * US, true, false);
	ck_assert(v->artificial_wakeup);
	ck_assert(!r.env.got_tick);

	sel(&r, 3 * MS, 3 * MS, false);
	refl(&r, 1, 50 * US, true, false);
	ck_assert(!v->artificial_wakeup);
	ck_assert(!r.env.got_tick);

	sel(&r, 3 * MS, 3 * MS, false);
	refl(&r, 1, 50 * US, false, false);
	ck_assert(!v->artificial_wakeup);
	rig_fini(&r);

	/* VM first select takes the shortcut (sleep length KTIME_MAX). */
	rig_init(&r, vm, 250, "teo");
	sel(&r, 1 * US, 1 * US, false);
	refl(&r, 1, 10 * US, true, false);
	ck_assert(view(&r)->artificial_wakeup);
	rig_fini(&r);
}
END_TEST

/*
 * An artificial wakeup is a hit in the timer bin.  AMD HZ=250:
 * E1: h0 = 1024, t = 1024.  S1 sleep length 100 us (bin 1):
 * shallower(2, 100 us) = 1 (2 us); 100 us < 4 ms, tick kept; res(1) 2 us
 * <= delta_tick 4 ms -> 1.  The poll loop timed out (poll_time_limit):
 * E2: m = U64_MAX; timer bin 1, duration bin 1 -> h1 = 1024, no
 * short idle (sh = 1024 - 128 = 896).  Without the flag, 10 us in C1
 * (m = 9.5 us) would have been a hit in bin 1 as well but short
 * (sh = 1920): check the sh difference and the hit.
 */
START_TEST(test_artificial_update)
{
	struct rig r;

	rig_init(&r, amd, 250, "teo");
	ck_sel(&r, 100 * US, 4 * MS, false, 1, false);
	refl(&r, 1, 10 * US, false, true);
	sel(&r, 10 * MS, 4 * MS, false);
	ck_assert_uint_eq(view(&r)->bin[1].hits, 1024);
	ck_assert_uint_eq(view(&r)->bin[0].hits, 896);
	ck_assert_uint_eq(view(&r)->short_idles, 896);
	rig_fini(&r);

	rig_init(&r, amd, 250, "teo");
	ck_sel(&r, 100 * US, 4 * MS, false, 1, false);
	refl(&r, 1, 10 * US, false, false);
	sel(&r, 10 * MS, 4 * MS, false);
	ck_assert_uint_eq(view(&r)->bin[1].hits, 1024);
	ck_assert_uint_eq(view(&r)->short_idles, 1920);
	rig_fini(&r);
}
END_TEST

/*
 * HZ 100/250/1000 on the Juno table (no poll state), first select:
 * E1: lat(WFI) = 1 us > m = 0 -> m = 0, sh = 1024; hit h0.  Candidate 2
 * (2.5 ms, not shallow), no lookup; query sleep length 8 ms.
 *  HZ=250 (4 ms): 8 ms >= 4 ms -> 2, stop.
 *  HZ=100 (10 ms): 8 ms < 10 ms, keep; res(2) 2.5 ms > delta_tick 2 ms:
 *   shallower(2, 2 ms) = 1 (2 ms <= 2 ms) -> 1.  delta_tick 9 ms -> 2.
 *  HZ=1000 (1 ms), sleep length 900 us: shallower(2, 900 us) = 1, 0
 *   (1 us) -> 0; 900 us < 1 ms, keep; 0 == idx0 -> 0, tick kept.
 */
START_TEST(test_hz_juno)
{
	struct rig r;

	rig_init(&r, juno, 250, "teo");
	ck_assert_int_eq(r.env.tick_nsec, 4000000);
	ck_sel(&r, 8 * MS, 4 * MS, false, 2, true);
	rig_fini(&r);

	rig_init(&r, juno, 100, "teo");
	ck_assert_int_eq(r.env.tick_nsec, 10000000);
	ck_sel(&r, 8 * MS, 2 * MS, false, 1, false);
	rig_fini(&r);

	rig_init(&r, juno, 100, "teo");
	ck_sel(&r, 8 * MS, 9 * MS, false, 2, false);
	rig_fini(&r);

	rig_init(&r, juno, 1000, "teo");
	ck_assert_int_eq(r.env.tick_nsec, 1000000);
	ck_sel(&r, 900 * US, 1 * MS, false, 0, false);
	rig_fini(&r);
}
END_TEST

static Suite *teo_suite(void)
{
	Suite *s = suite_create("teo");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ops);
	tcase_add_test(tc, test_first_select);
	tcase_add_test(tc, test_update_hits_intercepts);
	tcase_add_test(tc, test_decay_floor);
	tcase_add_test(tc, test_u32_wrap);
	tcase_add_test(tc, test_lookup_tick_running);
	tcase_add_test(tc, test_lookup_tick_stopped);
	tcase_add_test(tc, test_latency_shortcut);
	tcase_add_test(tc, test_residency_threshold);
	tcase_add_test(tc, test_shallower_after_sleep_length);
	tcase_add_test(tc, test_tick_intercepts);
	tcase_add_test(tc, test_tick_intercepts_fix);
	tcase_add_test(tc, test_one_enabled_state);
	tcase_add_test(tc, test_nothing_enabled);
	tcase_add_test(tc, test_constraint);
	tcase_add_test(tc, test_reflect);
	tcase_add_test(tc, test_artificial_update);
	tcase_add_test(tc, test_hz_juno);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(teo_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
