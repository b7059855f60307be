// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cpuidle core's bookkeeping (doc/governors.md sections 3.3, 3.4: the
 * kernel's cpuidle_enter_state() and cpuidle_poll_time()), the governor
 * registry and tunable parsing, the explain sink and the oracle.
 * Expected values are worked out by hand from those rules.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "explain.h"
#include "govtest.h"
#include "oracle.h"

static struct cpuidle_driver drv;
static struct cpuidle_device dev;
static struct idl_env env;

static void setup(void (*table)(struct cpuidle_driver *), unsigned int hz)
{
	memset(&drv, 0, sizeof(drv));
	memset(&dev, 0, sizeof(dev));
	memset(&env, 0, sizeof(env));
	table(&drv);
	env.tick_nsec = idl_tick_nsec_for_hz(hz);
	idl_env_set_current(&env);
}

START_TEST(tick_nsec)
{
	ck_assert_int_eq(idl_tick_nsec_for_hz(100), 10000000);
	ck_assert_int_eq(idl_tick_nsec_for_hz(250), 4000000);
	ck_assert_int_eq(idl_tick_nsec_for_hz(300), 3333333);
	ck_assert_int_eq(idl_tick_nsec_for_hz(1000), 1000000);
}
END_TEST

START_TEST(poll_limit_skl)
{
	setup(gt_table_skl, 250);
	/* C1 2 us < 10 us is skipped; C1E 20 us is the limit */
	ck_assert_uint_eq(idl_core_poll_limit(&drv, &dev), 20000);
	ck_assert_uint_eq(dev.poll_limit_ns, 20000);
	/* disabling C1E resets the cache; C6 400 us is capped at 250 us */
	idl_core_set_disabled(&dev, 2, true);
	ck_assert_uint_eq(dev.poll_limit_ns, 0);
	ck_assert_uint_eq(dev.states_usage[2].disable,
			  CPUIDLE_STATE_DISABLED_BY_USER);
	ck_assert_uint_eq(idl_core_poll_limit(&drv, &dev), 250000);
	/* cached: not recomputed when the table changes behind it */
	idl_core_set_disabled(&dev, 2, false);
	ck_assert_uint_eq(dev.states_usage[2].disable, 0);
	dev.poll_limit_ns = 12345;
	ck_assert_uint_eq(idl_core_poll_limit(&drv, &dev), 12345);
}
END_TEST

START_TEST(poll_limit_vm)
{
	/* no state of 10 us or more: TICK_NSEC / 16 */
	setup(gt_table_vm, 250);
	ck_assert_uint_eq(idl_core_poll_limit(&drv, &dev), 250000);
	setup(gt_table_vm, 1000);
	ck_assert_uint_eq(idl_core_poll_limit(&drv, &dev), 62500);
	setup(gt_table_vm, 300);
	ck_assert_uint_eq(idl_core_poll_limit(&drv, &dev), 208333);
}
END_TEST

START_TEST(account_above)
{
	setup(gt_table_skl, 250);
	/* C1E entered for 15 us < 20 us, shallower states enabled */
	ck_assert_int_eq(idl_core_account(&drv, &dev, 2, 15000),
			 IDL_MISS_ABOVE);
	ck_assert_uint_eq(dev.states_usage[2].above, 1);
	ck_assert_uint_eq(dev.states_usage[2].usage, 1);
	ck_assert_uint_eq(dev.states_usage[2].time_ns, 15000);
	ck_assert_uint_eq(dev.last_residency_ns, 15000);
	/* C1 for 1 us: above, POLL is enabled */
	ck_assert_int_eq(idl_core_account(&drv, &dev, 1, 1000),
			 IDL_MISS_ABOVE);
	/* ... but not when no shallower state is enabled */
	idl_core_set_disabled(&dev, 0, true);
	ck_assert_int_eq(idl_core_account(&drv, &dev, 1, 1000),
			 IDL_MISS_NONE);
	ck_assert_uint_eq(dev.states_usage[1].above, 1);
	ck_assert_uint_eq(dev.states_usage[1].usage, 2);
	ck_assert_uint_eq(dev.states_usage[1].time_ns, 2000);
}
END_TEST

START_TEST(account_below)
{
	setup(gt_table_skl, 250);
	/* POLL for 5 ns: C1 needs 2000 */
	ck_assert_int_eq(idl_core_account(&drv, &dev, 0, 5), IDL_MISS_NONE);
	/* POLL for 3000: 3000 - 0 >= 2000 */
	ck_assert_int_eq(idl_core_account(&drv, &dev, 0, 3000),
			 IDL_MISS_BELOW);
	ck_assert_uint_eq(dev.states_usage[0].below, 1);
	/* C1: 21000 - 2000 < 20000; 22000 - 2000 >= 20000 */
	ck_assert_int_eq(idl_core_account(&drv, &dev, 1, 21000),
			 IDL_MISS_NONE);
	ck_assert_int_eq(idl_core_account(&drv, &dev, 1, 22000),
			 IDL_MISS_BELOW);
	/* C1E exactly at its target residency: neither */
	ck_assert_int_eq(idl_core_account(&drv, &dev, 2, 20000),
			 IDL_MISS_NONE);
	/* the deepest state is never below */
	ck_assert_int_eq(idl_core_account(&drv, &dev, 3, 100000000),
			 IDL_MISS_NONE);
}
END_TEST

START_TEST(account_below_nearest_only)
{
	setup(gt_table_skl, 250);
	/* C1 for 30 us: C1E (20 us) would have fit */
	ck_assert_int_eq(idl_core_account(&drv, &dev, 1, 30000),
			 IDL_MISS_BELOW);
	/* with C1E disabled the nearest enabled deeper state is C6 */
	idl_core_set_disabled(&dev, 2, true);
	ck_assert_int_eq(idl_core_account(&drv, &dev, 1, 30000),
			 IDL_MISS_NONE);
	ck_assert_int_eq(idl_core_account(&drv, &dev, 1, 402000),
			 IDL_MISS_BELOW);
	ck_assert_uint_eq(dev.states_usage[1].below, 2);
}
END_TEST

START_TEST(account_nearest_not_fitting)
{
	/* A table whose next state is deeper than the one after it: only
	 * the nearest enabled deeper state is looked at. */
	setup(gt_table_vm, 250);
	gt_state(&drv, "odd", 1000, 900000, 0);
	gt_state(&drv, "deep", 1000, 10000, 0);
	ck_assert_int_eq(idl_core_account(&drv, &dev, 1, 50000),
			 IDL_MISS_NONE);
}
END_TEST

START_TEST(reject)
{
	setup(gt_table_skl, 250);
	dev.last_residency_ns = 777;
	idl_core_reject(&dev, 2, false);
	ck_assert_uint_eq(dev.last_residency_ns, 0);
	ck_assert_uint_eq(dev.states_usage[2].rejected, 0);
	idl_core_reject(&dev, 2, true);
	ck_assert_uint_eq(dev.states_usage[2].rejected, 1);
}
END_TEST

START_TEST(registry)
{
	const struct idl_governor_ops *const *g = idl_governor_list();
	int n = 0;

	ck_assert_ptr_nonnull(idl_governor_find("ladder"));
	ck_assert_ptr_nonnull(idl_governor_find("haltpoll"));
	ck_assert_ptr_nonnull(idl_governor_find("oracle"));
	ck_assert_ptr_null(idl_governor_find("Ladder"));
	for (; *g; g++)
		n++;
	ck_assert_int_ge(n, 3);
	ck_assert_int_eq(idl_governor_find("ladder")->rating, 10);
	ck_assert_int_eq(idl_governor_find("haltpoll")->rating, 9);
}
END_TEST

static int first_state(struct cpuidle_driver *d, struct cpuidle_device *v,
		       bool *stop_tick)
{
	(void)d;
	(void)v;
	(void)stop_tick;
	return 0;
}

/*
 * Run-time registration (plugins): the built-in order stays, the new
 * governor comes last and is found and parsed by name; a name taken, a
 * name with a spec separator, or no select() is refused.
 */
START_TEST(registry_extend)
{
	static const struct idl_governor_ops mine = {
		.name = "first", .select = first_state,
	};
	static const struct idl_governor_ops dup = {
		.name = "menu", .select = first_state,
	}, colon = { .name = "a:b", .select = first_state },
	   noselect = { .name = "nosel" };
	const struct idl_governor_ops *const *g;
	struct idl_governor gov;
	char err[256];
	int n = 0;

	ck_assert_int_eq(idl_governor_register(&mine, err, sizeof(err)), 0);
	g = idl_governor_list();
	ck_assert_str_eq(g[0]->name, "menu");
	while (g[n + 1])
		n++;
	ck_assert_ptr_eq(g[n], &mine);
	ck_assert_ptr_eq(idl_governor_find("first"), &mine);
	ck_assert_int_eq(idl_governor_parse(&gov, "first", err, sizeof(err)),
			 0);
	ck_assert_int_eq(idl_governor_register(&mine, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "a governor named 'first' is already registered");
	ck_assert_int_eq(idl_governor_register(&dup, err, sizeof(err)), -1);
	ck_assert_int_eq(idl_governor_register(&colon, err, sizeof(err)), -1);
	ck_assert_int_eq(idl_governor_register(&noselect, err, sizeof(err)),
			 -1);
}
END_TEST

static void parse_ok(const char *spec, const char *canon)
{
	struct idl_governor gov;
	char err[256] = "";

	ck_assert_msg(idl_governor_parse(&gov, spec, err, sizeof(err)) == 0,
		      "%s: %s", spec, err);
	ck_assert_str_eq(gov.spec, canon);
}

static void parse_bad(const char *spec, const char *msg)
{
	struct idl_governor gov;
	char err[256] = "";

	ck_assert_int_eq(idl_governor_parse(&gov, spec, err, sizeof(err)), -1);
	ck_assert_str_eq(err, msg);
}

START_TEST(parse)
{
	struct idl_governor gov;
	char err[256];

	parse_ok("ladder", "ladder");
	parse_ok("ladder:promotion_count=4", "ladder");
	parse_ok("ladder:demotion_count=3,promotion_count=2",
		 "ladder:promotion_count=2,demotion_count=3");
	parse_ok("haltpoll:guest_halt_poll_ns=0",
		 "haltpoll:guest_halt_poll_ns=0");
	ck_assert_int_eq(idl_governor_parse(&gov,
		"haltpoll:guest_halt_poll_grow=3,guest_halt_poll_ns=0",
		err, sizeof(err)), 0);
	ck_assert_str_eq(gov.spec,
		"haltpoll:guest_halt_poll_ns=0,guest_halt_poll_grow=3");
	ck_assert_int_eq(gov.param[0], 0);
	ck_assert_int_eq(gov.param[1], 2);
	ck_assert_int_eq(gov.param[2], 3);
	ck_assert_int_eq(gov.param[3], 50000);
	ck_assert_int_eq(gov.param[4], 1);
}
END_TEST

START_TEST(parse_errors)
{
	parse_bad("ladder:promotion=4", "ladder: unknown parameter "
		  "'promotion' (parameters: promotion_count, demotion_count)");
	parse_bad("ladder:promotion_count=0", "ladder: promotion_count=0 is "
		  "out of range [1, 1000000]");
	parse_bad("ladder:promotion_count=4x", "ladder: promotion_count: '4x' "
		  "is not a decimal integer");
	parse_bad("ladder:promotion_count=", "ladder: promotion_count: '' is "
		  "not a decimal integer");
	parse_bad("ladder:promotion_count", "ladder: 'promotion_count' is not "
		  "param=value");
	parse_bad("ladder:", "ladder: empty parameter in 'ladder:'");
	parse_bad("ladder:promotion_count=2,", "ladder: empty parameter in "
		  "'ladder:promotion_count=2,'");
	parse_bad("haltpoll:guest_halt_poll_allow_shrink=2",
		  "haltpoll: guest_halt_poll_allow_shrink=2 is out of range "
		  "[0, 1]");
	parse_bad("haltpoll:guest_halt_poll_ns=-1",
		  "haltpoll: guest_halt_poll_ns=-1 is out of range "
		  "[0, 4294967295]");
	parse_bad("oracle:x=1", "oracle: unknown parameter 'x' (parameters: "
		  "it has none)");
}
END_TEST

START_TEST(parse_unknown_governor)
{
	struct idl_governor gov;
	char err[256];

	ck_assert_int_eq(idl_governor_parse(&gov, "nope:x=1", err,
					    sizeof(err)), -1);
	ck_assert_msg(!strncmp(err, "unknown governor 'nope' (governors: ",
			       36), "%s", err);
	ck_assert_ptr_nonnull(strstr(err, "ladder"));
	ck_assert_ptr_nonnull(strstr(err, "haltpoll"));
}
END_TEST

START_TEST(explain_sink)
{
	struct idl_explain ex;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	idl_explain_init(&ex, f, "  ");
	idl_explain_printf(&ex, "a=%d", 1);
	idl_explain_printf(&ex, "b\n");
	dev.explain = &ex;
	gov_explain(&dev, "c %s", "d");
	dev.explain = NULL;
	gov_explain(&dev, "not written");
	fclose(f);
	ck_assert_str_eq(buf, "  a=1\n  b\n  c d\n");
	free(buf);
}
END_TEST

static double cost_c1_cheapest(const struct cpuidle_driver *d, int i,
			       s64 idle_ns, void *ctx)
{
	(void)d;
	(void)idle_ns;
	(*(int *)ctx)++;
	return i == 1 ? 1.0 : 2.0;
}

START_TEST(oracle)
{
	struct gt t;
	bool stop;
	int calls = 0;

	gt_init(&t, "oracle", gt_table_skl);
	t.env.hindsight_idle_ns = 30000;	/* C1E 20 us fits, C6 not */
	ck_assert_int_eq(gt_select(&t, &stop), 2);
	ck_assert(stop);
	t.env.hindsight_idle_ns = 100;		/* nothing but POLL */
	ck_assert_int_eq(gt_select(&t, &stop), 0);
	ck_assert(!stop);
	t.env.hindsight_idle_ns = 1000000;
	ck_assert_int_eq(gt_select(&t, &stop), 3);
	t.env.latency_req = 50000;		/* C6 133 us too slow */
	ck_assert_int_eq(gt_select(&t, &stop), 2);
	idl_core_set_disabled(&t.dev, 2, true);
	ck_assert_int_eq(gt_select(&t, &stop), 1);
	idl_oracle_set_cost(&t.dev, cost_c1_cheapest, &calls);
	t.env.latency_req = 2000000000000LL;
	ck_assert_int_eq(gt_select(&t, &stop), 1);
	ck_assert_int_eq(calls, 3);		/* C1E is disabled */
	gt_fini(&t);
}
END_TEST

static Suite *core_suite(void)
{
	Suite *s = suite_create("govcore");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, tick_nsec);
	tcase_add_test(tc, poll_limit_skl);
	tcase_add_test(tc, poll_limit_vm);
	tcase_add_test(tc, account_above);
	tcase_add_test(tc, account_below);
	tcase_add_test(tc, account_below_nearest_only);
	tcase_add_test(tc, account_nearest_not_fitting);
	tcase_add_test(tc, reject);
	tcase_add_test(tc, registry);
	tcase_add_test(tc, registry_extend);
	tcase_add_test(tc, parse);
	tcase_add_test(tc, parse_errors);
	tcase_add_test(tc, parse_unknown_governor);
	tcase_add_test(tc, explain_sink);
	tcase_add_test(tc, oracle);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(core_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
