// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sweep grids (replay/sweep-grid.c): expansion of lists and ranges into
 * configurations, their canonical order, the cells, shards and the
 * sweep's identity.  Expected grids are written out by hand.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

static void add(struct sweep *s, const char *spec)
{
	struct idl_err err;

	memset(&err, 0, sizeof(err));
	ck_assert_msg(!sweep_add_spec(s, spec, &err), "%s: %s", spec, err.msg);
}

static void plan(struct sweep *s, char **traces, int nt, char **mach, int nm)
{
	struct idl_err err;

	memset(&err, 0, sizeof(err));
	ck_assert_msg(!sweep_plan(s, traces, nt, mach, nm,
				  SWEEP_DEFAULT_MAX_CELLS, &err), "%s",
		      err.msg);
}

static void refused(const char *spec, const char *why)
{
	struct sweep s;
	struct idl_err err;

	memset(&s, 0, sizeof(s));
	memset(&err, 0, sizeof(err));
	ck_assert_msg(sweep_add_spec(&s, spec, &err) == -1, "%s accepted",
		      spec);
	ck_assert_int_eq(err.status, IDL_EXIT_BADINPUT);
	ck_assert_msg(strstr(err.msg, why), "%s: '%s' lacks '%s'", spec,
		      err.msg, why);
	sweep_free(&s);
}

/*
 * menu:decay=4|8|16,intervals=8|16 is 3 x 2 configurations, each naming
 * both parameters (defaults too), intervals before decay as in menu's
 * parameter table; with teo:pulse=256..1024/256 (256, 512, 768, 1024)
 * and a bare "ladder" that is 11, sorted with numbers by value.
 */
START_TEST(test_expand)
{
	static const char *const want[] = {
		"ladder",
		"menu:intervals=8,decay=4", "menu:intervals=8,decay=8",
		"menu:intervals=8,decay=16", "menu:intervals=16,decay=4",
		"menu:intervals=16,decay=8", "menu:intervals=16,decay=16",
		"teo:pulse=256", "teo:pulse=512", "teo:pulse=768",
		"teo:pulse=1024",
	};
	char *traces[] = { "b.idl", "a.idl" }, *mach[] = { "skx" };
	struct sweep s;
	size_t i;

	memset(&s, 0, sizeof(s));
	add(&s, "menu:decay=4|8|16,intervals=8|16");
	add(&s, "teo:pulse=256..1024/256");
	add(&s, "ladder");
	add(&s, "menu:decay=8,intervals=8");	/* again: no new one */
	plan(&s, traces, 2, mach, 1);
	ck_assert_uint_eq(s.nconf, 11);
	for (i = 0; i < s.nconf; i++)
		ck_assert_str_eq(s.conf[i].gov.spec, want[i]);
	ck_assert(!s.conf[0].has_params);
	ck_assert(s.conf[2].has_params);	/* defaults, but chosen */
	ck_assert_int_eq(s.conf[3].gov.param[1], 16);	/* decay */
	/* traces sorted, the own table first */
	ck_assert_uint_eq(s.ntrace, 2);
	ck_assert_str_eq(s.traces[0], "a.idl");
	ck_assert_str_eq(s.tables[0], SWEEP_OWN_TABLE);
	ck_assert_str_eq(s.tables[1], "skx");
	/* cells: trace, table, then configuration */
	ck_assert_uint_eq(s.ncell, 44);
	ck_assert_uint_eq(s.cell[12].trace, 0);
	ck_assert_uint_eq(s.cell[12].table, 1);
	ck_assert_uint_eq(s.cell[12].conf, 1);
	ck_assert_uint_eq(s.cell[43].trace, 1);
	sweep_free(&s);
}
END_TEST

/* A range whose step does not reach HI stops below it; a single-value
 * range is one value; negative bounds are integers too. */
START_TEST(test_ranges)
{
	struct sweep s;
	char *traces[] = { "t.idl" };

	memset(&s, 0, sizeof(s));
	add(&s, "teo:pulse=100..350/100|1000");
	add(&s, "ladder:promotion_count=7..7");
	plan(&s, traces, 1, NULL, 0);
	ck_assert_uint_eq(s.nconf, 5);
	ck_assert_str_eq(s.conf[0].gov.spec, "ladder:promotion_count=7");
	ck_assert_str_eq(s.conf[1].gov.spec, "teo:pulse=100");
	ck_assert_str_eq(s.conf[3].gov.spec, "teo:pulse=300");
	ck_assert_str_eq(s.conf[4].gov.spec, "teo:pulse=1000");
	sweep_free(&s);
}
END_TEST

START_TEST(test_refused)
{
	refused("menu:decay=4..2", "ends below its start");
	refused("menu:decay=1..8/0", "not positive");
	refused("menu:decay=1..8/-1", "not positive");
	refused("menu:decay=a|b", "is not an integer");
	refused("menu:decay=", "is not an integer");
	refused("menu:decay=4|", "is not an integer");
	refused("menu:decay=nan", "is not an integer");
	refused("menu:decay=1e3", "is not an integer");
	refused("menu:decay=0x10", "is not an integer");
	refused("menu:nosuch=1", "has no parameter 'nosuch'");
	refused("menu:decay=4,decay=8", "given twice");
	refused("menu:decay", "is not PARAM=VALUES");
	refused("menu:decay=0|8", "out of range");
	refused("teo:pulse=1..2000000/1", "too many values");
	refused("nosuch:x=1", "unknown governor");
	refused(":x=1", "no governor name");
}
END_TEST

/* The product limit, and the cell limit with and without --force. */
START_TEST(test_limits)
{
	char *traces[] = { "t1", "t2", "t3" };
	struct idl_err err;
	struct sweep s;

	refused("menu:decay=1..100,intervals=1..16,resolution=1..100",
		"160000 configurations");
	memset(&s, 0, sizeof(s));
	memset(&err, 0, sizeof(err));
	add(&s, "teo:pulse=1..4000");
	ck_assert_int_eq(sweep_plan(&s, traces, 3, NULL, 0,
				    SWEEP_DEFAULT_MAX_CELLS, &err), -1);
	ck_assert_msg(strstr(err.msg, "12000 cells"), "%s", err.msg);
	ck_assert_msg(strstr(err.msg, "--force"), "%s", err.msg);
	sweep_free(&s);
	memset(&s, 0, sizeof(s));
	add(&s, "teo:pulse=1..4000");
	ck_assert_int_eq(sweep_plan(&s, traces, 3, NULL, 0, 0, &err), 0);
	ck_assert_uint_eq(s.ncell, 12000);
	sweep_free(&s);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(sweep_plan(&s, traces, 3, NULL, 0, 0, &err), -1);
	ck_assert_int_eq(err.status, IDL_EXIT_BADINPUT);
	sweep_free(&s);
}
END_TEST

/*
 * Shards: cell i goes to shard i mod N + 1, so 3 shards of 24 cells hold
 * 8 each, every cell in exactly one.  The order of the arguments changes
 * neither the cells nor the identity; another grid has another one.
 */
START_TEST(test_shards_and_id)
{
	char *t1[] = { "x.idl", "y.idl" }, *t2[] = { "y.idl", "x.idl" };
	char *m1[] = { "skx", "genoa" }, *m2[] = { "genoa", "skx" };
	struct sweep a, b, c;
	size_t i;
	unsigned int k;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	add(&a, "menu:decay=4|8");
	add(&a, "teo:pulse=512|1024");
	plan(&a, t1, 2, m1, 2);
	add(&b, "teo:pulse=1024|512");
	add(&b, "menu:decay=8|4");
	plan(&b, t2, 2, m2, 2);
	ck_assert_uint_eq(a.ncell, 24);
	ck_assert_str_eq(a.id, b.id);
	for (i = 0; i < a.ncell; i++) {
		unsigned int in = 0;

		ck_assert_str_eq(a.conf[a.cell[i].conf].gov.spec,
				 b.conf[b.cell[i].conf].gov.spec);
		for (k = 1; k <= 3; k++)
			in += sweep_in_shard(i, k, 3);
		ck_assert_uint_eq(in, 1);
		ck_assert(sweep_in_shard(i, 0, 0));
	}
	for (k = 1; k <= 3; k++)
		ck_assert_uint_eq(sweep_shard_cells(&a, k, 3), 8);
	ck_assert_uint_eq(sweep_shard_cells(&a, 1, 5), 5);
	ck_assert_uint_eq(sweep_shard_cells(&a, 5, 5), 4);
	add(&c, "menu:decay=4|8");
	add(&c, "teo:pulse=512|1000");
	plan(&c, t1, 2, m1, 2);
	ck_assert_str_ne(a.id, c.id);
	sweep_free(&a);
	sweep_free(&b);
	sweep_free(&c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("grid");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_expand);
	tcase_add_test(tc, test_ranges);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_shards_and_id);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
