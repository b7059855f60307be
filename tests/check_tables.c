// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the C-state table library.  Expected numbers are written
 * literally from the corpus CSV files (tables/intel_idle_tables.csv,
 * amd_acpi_idle_sysfs.csv, arm_dt_idle_states.csv, idle_power_models.csv,
 * pepc_cpuidle_sysfs.csv) and from this VM's sysfs, not from the code.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cstate.h"

static char srcdir_buf[4096];

static const char *fixture(const char *rel)
{
	const char *top = getenv("top_srcdir");

	snprintf(srcdir_buf, sizeof(srcdir_buf), "%s/tests/fixtures/%s",
		 top ? top : ".", rel);
	return srcdir_buf;
}

static const struct cstate_table *must_find(const char *name)
{
	const struct cstate_table *t = cstate_builtin_find(name);

	ck_assert_msg(t != NULL, "built-in table %s missing", name);
	return t;
}

/* state @i of table @name: name, latency and residency in us */
static void check_state(const char *name, int i, const char *sname,
			long lat_us, long res_us)
{
	const struct cstate_table *t = must_find(name);

	ck_assert_int_lt(i, t->count);
	ck_assert_str_eq(t->states[i].name, sname);
	ck_assert_int_eq(t->states[i].exit_latency_ns, lat_us * 1000);
	ck_assert_int_eq(t->states[i].target_residency_ns, res_us * 1000);
}

/* ---- built-in tables against the corpus ---- */

START_TEST(test_builtin_intel)
{
	/* intel_idle_tables.csv skx_cstates: C6 133/600 */
	ck_assert_int_eq(must_find("skx")->count, 4);
	check_state("skx", 0, "POLL", 0, 0);
	check_state("skx", 1, "C1", 2, 2);
	check_state("skx", 2, "C1E", 10, 20);
	check_state("skx", 3, "C6", 133, 600);
	ck_assert_uint_eq(must_find("skx")->states[0].flags, CSTATE_POLLING);
	ck_assert_uint_eq(must_find("skx")->states[3].flags,
			  CSTATE_TLB_FLUSHED);
	ck_assert_int_eq(must_find("skl")->count, 9);
	check_state("skl", 5, "C7s", 124, 800);
	check_state("skl", 8, "C10", 890, 5000);
	check_state("icx", 2, "C1E", 4, 4);
	check_state("spr", 3, "C6", 290, 800);
	check_state("gnr", 4, "C6P", 210, 1000);
	check_state("srf", 4, "C6SP", 310, 900);
	check_state("hsw", 8, "C10", 2600, 7700);
	check_state("bdw", 3, "C3", 40, 100);
	/* mtl_l_cstates has no C1 */
	ck_assert_int_eq(must_find("mtl")->count, 4);
	check_state("mtl", 1, "C1E", 1, 1);
	check_state("mtl", 3, "C10", 310, 930);
	/* adl_cstates C1 is UNUSABLE: intel_idle does not register it */
	ck_assert_int_eq(must_find("adl")->count, 5);
	check_state("adl", 1, "C1E", 2, 4);
	check_state("adl", 4, "C10", 680, 2000);
	ck_assert_str_eq(must_find("adl")->driver, "intel_idle");
	ck_assert_str_eq(must_find("skx")->states[3].desc, "MWAIT 0x20");
}
END_TEST

START_TEST(test_builtin_amd)
{
	check_state("rome", 2, "C2", 400, 800);
	check_state("milan", 2, "C2", 30, 60);
	check_state("genoa", 2, "C2", 800, 1600);
	check_state("turin", 2, "C2", 100, 200);
	check_state("turin", 1, "C1", 1, 2);
	ck_assert_str_eq(must_find("rome")->states[2].desc,
			 "ACPI IOPORT 0x814");
	ck_assert_str_eq(must_find("rome")->driver, "acpi_idle");
	ck_assert_uint_eq(must_find("genoa")->states[0].flags,
			  CSTATE_POLLING);
}
END_TEST

START_TEST(test_builtin_arm)
{
	const struct cstate_table *t = must_find("juno");

	/* juno.dts: cpu-sleep-0 entry 300 + exit 1200, min-residency 2000 */
	ck_assert_int_eq(t->count, 3);
	check_state("juno", 0, "WFI", 1, 1);
	check_state("juno", 1, "cpu-sleep-0", 1500, 2000);
	check_state("juno", 2, "cluster-sleep-0", 1600, 2500);
	ck_assert_uint_eq(t->states[0].flags, 0);
	ck_assert_uint_eq(t->states[1].flags, CSTATE_TIMER_STOP);
	ck_assert_str_eq(t->driver, "psci_idle");
	/* juno-sched-energy.dtsi A57 cpu idle-cost: WFI 15, sleeps 0 */
	ck_assert_int_eq(t->power_unit, CSTATE_POWER_RELATIVE);
	ck_assert(t->states[0].power == 15.0);
	ck_assert(t->states[2].power == 0.0);
	ck_assert(must_find("juno-a53")->states[0].power == 6.0);
	/* hi6220: cluster-sleep uses wakeup-latency-us 1500 */
	check_state("hikey", 1, "cpu-sleep", 950, 1000);
	check_state("hikey", 2, "cluster-sleep", 1500, 2700);
	ck_assert(must_find("hikey")->states[0].power == 15.0);
	check_state("hikey960-little", 1, "cpu-sleep-0", 1050, 1500);
	check_state("hikey960-big", 2, "cluster-sleep-1", 3700, 3500);
	ck_assert_int_eq(must_find("hikey960-big")->power_unit,
			 CSTATE_POWER_NONE);
	check_state("sdm845-silver", 1, "cpu-sleep-0-0", 811, 1890);
	ck_assert_str_eq(must_find("sdm845-silver")->states[1].desc,
			 "little-rail-power-collapse");
	check_state("sdm845-gold", 1, "cpu-sleep-1-0", 885, 952);
	check_state("sm8250-silver", 1, "cpu-sleep-0-0", 891, 3934);
	check_state("sm8250-gold", 1, "cpu-sleep-1-0", 1763, 4488);
	ck_assert_int_eq(must_find("sm8250-gold")->count, 2);
	/* TC2: cpuidle-big_little.c latencies, EAS cluster costs 25/10 */
	check_state("tc2-a7", 1, "C1", 700, 2500);
	ck_assert(must_find("tc2-a7")->states[0].power == 25.0);
	ck_assert(must_find("tc2-a7")->states[1].power == 10.0);
	ck_assert(must_find("tc2-a15")->states[0].power == 70.0);
	check_state("tc2-a15", 1, "C1", 500, 2000);
}
END_TEST

START_TEST(test_builtin_pepc_and_vm)
{
	const struct cstate_table *t;

	check_state("vm-haltpoll", 0, "POLL", 0, 0);
	check_state("vm-haltpoll", 1, "haltpoll idle", 1, 1);
	ck_assert_str_eq(must_find("vm-haltpoll")->driver, "haltpoll");
	/* pepc_cpuidle_sysfs.csv, cpu 0 */
	ck_assert_int_eq(must_find("pepc-adl0")->count, 5);
	check_state("pepc-adl0", 4, "C10", 230, 700);
	check_state("pepc-gnr3", 4, "C6P", 210, 1000);
	check_state("pepc-turin0", 2, "C2", 100, 200);
	check_state("pepc-dell-latitude-5420-tgl", 2, "C2_ACPI", 253, 759);
	/* bdw0 C3: default_status disabled, disable 0 */
	t = must_find("pepc-bdw0");
	ck_assert_uint_eq(t->states[3].flags, CSTATE_OFF);
	ck_assert(!t->states[3].disabled);
	/* hswep0 C3: default_status disabled, disable 1 */
	t = must_find("pepc-hswep0");
	ck_assert_uint_eq(t->states[3].flags, CSTATE_OFF);
	ck_assert(t->states[3].disabled);
	check_state("pepc-knl0", 2, "C6", 120, 500);
	ck_assert_str_eq(must_find("pepc-milan0")->driver, "acpi_idle");
}
END_TEST

START_TEST(test_builtin_all)
{
	const struct cstate_table *const *l;
	struct idl_err err;
	int n = 0, pepc = 0;

	for (l = cstate_builtin_list(); *l; l++, n++) {
		ck_assert_msg(!cstate_table_validate(*l, NULL, NULL, &err),
			      "%s", err.msg);
		ck_assert_msg((*l)->source[0] && (*l)->rule[0] &&
			      (*l)->driver[0], "%s lacks provenance",
			      (*l)->name);
		ck_assert_ptr_eq(cstate_builtin_find((*l)->name), *l);
		pepc += !strncmp((*l)->name, "pepc-", 5);
	}
	ck_assert_int_ge(n, 25);
	ck_assert_int_eq(pepc, 45);	/* 45 machines in the pepc dump */
	ck_assert_ptr_null(cstate_builtin_find("no-such-cpu"));
}
END_TEST

/* ---- conversion to a driver ---- */

START_TEST(test_to_driver)
{
	struct cpuidle_driver drv;
	struct cstate_table t = *must_find("skx");

	cstate_table_to_driver(&t, &drv);
	ck_assert_str_eq(drv.name, "intel_idle");
	ck_assert_int_eq(drv.state_count, 4);
	ck_assert_str_eq(drv.states[3].name, "C6");
	ck_assert_int_eq(drv.states[3].exit_latency_ns, 133000);
	ck_assert_int_eq(drv.states[3].target_residency_ns, 600000);
	ck_assert_uint_eq(drv.states[3].exit_latency, 133);
	ck_assert_uint_eq(drv.states[3].target_residency, 600);
	ck_assert_uint_eq(drv.states[0].flags, CPUIDLE_FLAG_POLLING);
	/* us forms are rounded down */
	t.states[1].exit_latency_ns = 1999;
	t.states[1].target_residency_ns = 2500;
	cstate_table_to_driver(&t, &drv);
	ck_assert_uint_eq(drv.states[1].exit_latency, 1);
	ck_assert_uint_eq(drv.states[1].target_residency, 2);
}
END_TEST

START_TEST(test_flags_text)
{
	char buf[128];
	unsigned int f;

	cstate_flags_format(CSTATE_POLLING | CSTATE_TIMER_STOP, buf,
			    sizeof(buf));
	ck_assert_str_eq(buf, "polling,timer_stop");
	cstate_flags_format(0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "none");
	ck_assert_int_eq(cstate_flags_parse("tlb_flushed|off", &f), 0);
	ck_assert_uint_eq(f, CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_OFF);
	ck_assert_int_eq(cstate_flags_parse("none", &f), 0);
	ck_assert_uint_eq(f, 0);
	ck_assert_int_eq(cstate_flags_parse("fast", &f), -1);
	ck_assert_int_eq(cstate_flags_parse("polling,,off", &f), -1);
}
END_TEST

/* ---- table files ---- */

START_TEST(test_load_full)
{
	struct cstate_table t;
	struct idl_err err;

	ck_assert_msg(!cstate_table_load(fixture("tables/full.table"), &t,
					 &err), "%s", err.msg);
	ck_assert_str_eq(t.name, "hand-made");
	ck_assert_str_eq(t.description, "Test CPU, \"quoted\" word");
	ck_assert_str_eq(t.source, "made up for tests/check_tables.c");
	ck_assert_int_eq(t.power_unit, CSTATE_POWER_MW);
	ck_assert_int_eq(t.count, 4);
	ck_assert_str_eq(t.states[1].name, "haltpoll idle");
	ck_assert_str_eq(t.states[1].desc, "a state with blanks");
	ck_assert_int_eq(t.states[1].exit_latency_ns, 1500);
	ck_assert_int_eq(t.states[1].target_residency_ns, 2250);
	ck_assert(isnan(t.states[1].power));
	ck_assert_int_eq(t.states[2].exit_latency_ns, 1500);
	ck_assert_int_eq(t.states[2].target_residency_ns, 12000);
	ck_assert_uint_eq(t.states[2].flags,
			  CSTATE_TIMER_STOP | CSTATE_TLB_FLUSHED);
	ck_assert(t.states[2].disabled);
	ck_assert(t.states[2].power == 120.5);
	ck_assert(t.states[2].entry_energy == 3.0);
	ck_assert(t.states[3].power == 0.25);
	ck_assert(!t.states[1].disabled);
	ck_assert_uint_eq(t.states[0].flags, CSTATE_POLLING);
}
END_TEST

static bool same_num(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static void assert_same_table(const struct cstate_table *a,
			      const struct cstate_table *b)
{
	int i;

	ck_assert_str_eq(a->name, b->name);
	ck_assert_str_eq(a->description, b->description);
	ck_assert_str_eq(a->driver, b->driver);
	ck_assert_str_eq(a->source, b->source);
	ck_assert_str_eq(a->rule, b->rule);
	ck_assert_int_eq(a->power_unit, b->power_unit);
	ck_assert_int_eq(a->count, b->count);
	for (i = 0; i < a->count; i++) {
		const struct cstate *x = &a->states[i], *y = &b->states[i];

		ck_assert_str_eq(x->name, y->name);
		ck_assert_str_eq(x->desc, y->desc);
		ck_assert_int_eq(x->exit_latency_ns, y->exit_latency_ns);
		ck_assert_int_eq(x->target_residency_ns,
				 y->target_residency_ns);
		ck_assert_uint_eq(x->flags, y->flags);
		ck_assert_int_eq(x->disabled, y->disabled);
		ck_assert(same_num(x->power, y->power));
		ck_assert(same_num(x->entry_energy, y->entry_energy));
	}
}

START_TEST(test_save_roundtrip)
{
	static const char *const names[] = { "skx", "juno", "vm-haltpoll",
					     "pepc-hswep0", NULL };
	char dir[] = "/tmp/check_tables.XXXXXX", path[256];
	struct cstate_table a, b;
	struct idl_err err;
	int i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.table", dir);
	ck_assert(!cstate_table_load(fixture("tables/full.table"), &a, &err));
	ck_assert_msg(!cstate_table_save(path, &a, &err), "%s", err.msg);
	ck_assert_msg(!cstate_table_load(path, &b, &err), "%s", err.msg);
	assert_same_table(&a, &b);
	for (i = 0; names[i]; i++) {
		ck_assert(!cstate_table_save(path, must_find(names[i]), &err));
		ck_assert_msg(!cstate_table_load(path, &b, &err), "%s",
			      err.msg);
		assert_same_table(must_find(names[i]), &b);
	}
	/* only the target is left: the temp file was renamed */
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
	/* unwritable place: error, status 1 */
	ck_assert_int_eq(cstate_table_save("/nonexistent/dir/t.table", &a,
					   &err), -1);
	ck_assert_int_eq(err.status, IDL_EXIT_FAILURE);
}
END_TEST

static const struct {
	const char *text;
	const char *msg;	/* after "PATH" */
} bad_files[] = {
	{ "name a\nfoo bar\n",
	  ":2: unknown keyword 'foo' (valid: name, description, driver, source, rule, power_unit, state)" },
	{ "state 0 POLL 0 0 flags=polling\nstate 1 C1 1 1\nstate 1 C2 2 2\n",
	  ":3: duplicate state index 1 (first at line 2)" },
	{ "state 0 A 0 0\n\n# gap\nstate 2 B 1 1\n",
	  ":4: state 2 follows state 0: state 1 is missing" },
	{ "state 1 A 0 0\n", ":1: state 1 comes first: state 0 is missing" },
	{ "state 0 A abc 0\n",
	  ":1: bad latency 'abc' (microseconds, or a number with ns/us suffix)" },
	{ "state 0 A -1 0\n",
	  ":1: bad latency '-1' (microseconds, or a number with ns/us suffix)" },
	{ "state 0 A 1 1.2345\n",
	  ":1: bad residency '1.2345' (microseconds, or a number with ns/us suffix)" },
	{ "name \"abc\n", ":1: unterminated quoted string" },
	{ "state 0 A 0 0\nstate 1 POLL 0 0 flags=polling\n",
	  ":2: only state 0 may be a polling state" },
	{ "state 0 A 0 0 flags=fast\n",
	  ":1: bad flags 'fast' (valid: polling, coupled, timer_stop, unusable, off, tlb_flushed, rcu_idle, none)" },
	{ "state 0 A 0 0 colour=red\n",
	  ":1: unknown state option 'colour=red' (valid: desc=, flags=, disabled, power=, entry_energy=)" },
	{ "state 0 A 1\n", ":1: state needs INDEX NAME LATENCY RESIDENCY" },
	{ "state 10 A 1 1\n", ":1: state index 10 out of range (0..9)" },
	{ "state x A 1 1\n", ":1: bad state index 'x'" },
	{ "state 0 ABCDEFGHIJKLMNOP 1 1\n",
	  ":1: state name 'ABCDEFGHIJKLMNOP' must have 1..15 characters" },
	{ "name a\nname b\n", ":2: 'name' given twice (first at line 1)" },
	{ "power_unit watts\n",
	  ":1: power_unit must be none, mW or relative, not 'watts'" },
	{ "power_unit mW\nstate 0 A 1 1 power=-3\n",
	  ":2: bad power '-3' (a non-negative number)" },
	{ "driver\n", ":1: 'driver' needs a value" },
	{ "state 0 A 0 0 power=3\n",
	  ": power values need a 'power_unit mW|relative' line" },
	{ "# nothing\n", ": no states (need at least one 'state' line)" },
};

START_TEST(test_load_bad)
{
	char path[] = "/tmp/check_tables_bad.XXXXXX", want[700];
	struct cstate_table t;
	struct idl_err err;
	int fd;
	FILE *f;

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs(bad_files[_i].text, f);
	fclose(f);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(cstate_table_load(path, &t, &err), -1);
	snprintf(want, sizeof(want), "%s%s", path, bad_files[_i].msg);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(err.status, IDL_EXIT_BADINPUT);
	unlink(path);
}
END_TEST

START_TEST(test_load_missing)
{
	struct cstate_table t;
	struct idl_err err;

	ck_assert_int_eq(cstate_table_load("/nonexistent.table", &t, &err),
			 -1);
	ck_assert_str_eq(err.msg,
			 "/nonexistent.table: No such file or directory");
	ck_assert_int_eq(err.status, IDL_EXIT_BADINPUT);
}
END_TEST

/* ---- validation ---- */

static char warnings[4][300];
static int n_warnings;

static void collect(const char *msg)
{
	if (n_warnings < 4)
		snprintf(warnings[n_warnings], sizeof(warnings[0]), "%s", msg);
	n_warnings++;
}

START_TEST(test_validate)
{
	struct cstate_table t = *must_find("skx");
	struct idl_err err;

	n_warnings = 0;
	ck_assert_int_eq(cstate_table_validate(&t, "x", collect, &err), 0);
	ck_assert_int_eq(n_warnings, 0);
	t.count = 0;
	ck_assert_int_eq(cstate_table_validate(&t, "x", collect, &err), -1);
	ck_assert_str_eq(err.msg, "x: 0 states (a table needs 1..10)");
	ck_assert_int_eq(err.status, IDL_EXIT_BADINPUT);
	t.count = 11;
	ck_assert_int_eq(cstate_table_validate(&t, "x", collect, &err), -1);
	t = *must_find("skx");
	t.states[2].exit_latency_ns = -1;
	ck_assert_int_eq(cstate_table_validate(&t, "x", collect, &err), -1);
	ck_assert_str_eq(err.msg,
			 "x: state 2 (C1E): negative exit latency or target residency");
	t = *must_find("skx");
	t.states[1].flags |= CSTATE_POLLING;
	ck_assert_int_eq(cstate_table_validate(&t, "x", collect, &err), -1);
	ck_assert_str_eq(err.msg,
			 "x: state 1 (C1): only state 0 may be a polling state");
	/* hi3660 A73 cluster-sleep-1: 3700 us exit latency > 3500 us */
	n_warnings = 0;
	ck_assert_int_eq(cstate_table_validate(must_find("hikey960-big"),
					       "hk", collect, &err), 0);
	ck_assert_int_eq(n_warnings, 1);
	ck_assert_str_eq(warnings[0],
			 "hk: state 2 (cluster-sleep-1): exit latency 3700000 ns > target residency 3500000 ns");
	/* warn.table: one latency > residency, one unordered residency */
	n_warnings = 0;
	ck_assert(!cstate_table_load(fixture("tables/warn.table"), &t, &err));
	ck_assert_int_eq(cstate_table_validate(&t, "w", collect, &err), 0);
	ck_assert_int_eq(n_warnings, 2);
	ck_assert_str_eq(warnings[1],
			 "w: state 2 (odd): target residency below state 1's (states not ordered)");
}
END_TEST

/* ---- sysfs fixture trees ---- */

START_TEST(test_sysfs_skl)
{
	static const char *const names[] = { "POLL", "C1", "C1E", "C3", "C6",
					     "C7s", "C8", "C9", "C10" };
	static const long lat[] = { 0, 2, 10, 70, 85, 124, 200, 480, 890 };
	static const long res[] = { 0, 2, 20, 100, 200, 800, 800, 5000, 5000 };
	const struct cstate_table *skl = must_find("skl");
	struct cstate_table t;
	struct cstate_counters c;
	struct idl_err err;
	char cur[32], avail[128];
	int i;

	ck_assert_msg(!cstate_sysfs_read(fixture("sysfs-skl"), 0, &t, &err),
		      "%s", err.msg);
	ck_assert_int_eq(t.count, 9);
	ck_assert_str_eq(t.driver, "intel_idle");
	for (i = 0; i < 9; i++) {
		ck_assert_str_eq(t.states[i].name, names[i]);
		ck_assert_int_eq(t.states[i].exit_latency_ns, lat[i] * 1000);
		ck_assert_int_eq(t.states[i].target_residency_ns,
				 res[i] * 1000);
		/* and the same numbers as the built-in skl table */
		ck_assert_int_eq(t.states[i].exit_latency_ns,
				 skl->states[i].exit_latency_ns);
		ck_assert_int_eq(t.states[i].disabled, i == 5);
		ck_assert(isnan(t.states[i].power));
	}
	ck_assert_str_eq(t.states[4].desc, "MWAIT 0x20");
	ck_assert_uint_eq(t.states[0].flags, CSTATE_POLLING);
	ck_assert_uint_eq(t.states[1].flags, 0);
	ck_assert(!cstate_sysfs_read(fixture("sysfs-skl"), 1, &t, &err));
	ck_assert(!t.states[5].disabled);
	ck_assert_int_eq(cstate_sysfs_read(fixture("sysfs-skl"), 7, &t, &err),
			 -1);
	ck_assert_int_eq(err.status, IDL_EXIT_FAILURE);

	ck_assert(!cstate_sysfs_counters(fixture("sysfs-skl"), 1, &c, &err));
	ck_assert_int_eq(c.count, 9);
	ck_assert_uint_eq(c.s[3].usage, 4001);
	ck_assert_uint_eq(c.s[3].time_us, 200000);
	ck_assert_uint_eq(c.s[3].above, 30);
	ck_assert_uint_eq(c.s[3].below, 61);
	ck_assert(!cstate_sysfs_governors(fixture("sysfs-skl"), cur,
					  sizeof(cur), avail, sizeof(avail),
					  &err));
	ck_assert_str_eq(cur, "menu");
	ck_assert_str_eq(avail, "ladder menu teo haltpoll");
}
END_TEST

START_TEST(test_sysfs_haltpoll)
{
	const struct cstate_table *vm = must_find("vm-haltpoll");
	struct cstate_table t;
	struct cstate_counters c;
	struct idl_err err;
	char cur[32], avail[128];
	unsigned int cpu;

	for (cpu = 0; cpu < 2; cpu++) {
		ck_assert_msg(!cstate_sysfs_read(fixture("sysfs-haltpoll"), cpu,
						 &t, &err), "%s", err.msg);
		ck_assert_int_eq(t.count, 2);
		ck_assert_str_eq(t.driver, "haltpoll");
		ck_assert_str_eq(t.states[0].name, "POLL");
		ck_assert_str_eq(t.states[0].desc, "CPUIDLE CORE POLL IDLE");
		ck_assert_int_eq(t.states[0].exit_latency_ns, 0);
		ck_assert_uint_eq(t.states[0].flags, CSTATE_POLLING);
		ck_assert_str_eq(t.states[1].name, "haltpoll idle");
		ck_assert_str_eq(t.states[1].desc,
				 "default architecture idle");
		ck_assert_int_eq(t.states[1].exit_latency_ns, 1000);
		ck_assert_int_eq(t.states[1].target_residency_ns, 1000);
		ck_assert_int_eq(t.states[1].exit_latency_ns,
				 vm->states[1].exit_latency_ns);
		ck_assert_str_eq(t.states[1].name, vm->states[1].name);
		ck_assert(!t.states[1].disabled);
		/* power 4294967295 means unknown */
		ck_assert_int_eq(t.power_unit, CSTATE_POWER_NONE);
	}
	ck_assert(!cstate_sysfs_counters(fixture("sysfs-haltpoll"), 0, &c,
					 &err));
	ck_assert_int_eq(c.count, 2);
	ck_assert_uint_gt(c.s[1].usage, 0);
	ck_assert(!cstate_sysfs_governors(fixture("sysfs-haltpoll"), cur,
					  sizeof(cur), avail, sizeof(avail),
					  &err));
	ck_assert_str_eq(cur, "haltpoll");
	ck_assert_str_eq(avail, "ladder menu haltpoll");
}
END_TEST

START_TEST(test_sysfs_missing)
{
	struct cstate_table t;
	struct idl_err err;

	ck_assert_int_eq(cstate_sysfs_read("/nonexistent", 0, &t, &err), -1);
	ck_assert_str_eq(err.msg,
			 "/nonexistent/cpu0/cpuidle: no idle states (no cpuidle driver, or no such CPU)");
	ck_assert_int_eq(err.status, IDL_EXIT_FAILURE);
}
END_TEST

/* ---- resolve ---- */

START_TEST(test_resolve)
{
	struct cstate_table t;
	struct idl_err err;

	ck_assert(!cstate_table_resolve("spr", NULL, &t, &err));
	ck_assert_str_eq(t.name, "spr");
	ck_assert(!cstate_table_resolve(NULL, fixture("tables/haltpoll.table"),
					&t, &err));
	ck_assert_str_eq(t.name, "my-vm");
	ck_assert_str_eq(t.states[1].name, "haltpoll idle");
	ck_assert(!cstate_table_resolve(fixture("tables/haltpoll.table"),
					NULL, &t, &err));
	ck_assert_str_eq(t.driver, "haltpoll");
	ck_assert_int_eq(cstate_table_resolve("skxx", NULL, &t, &err), -1);
	ck_assert_int_eq(err.status, IDL_EXIT_BADINPUT);
	ck_assert_msg(!strncmp(err.msg,
			       "unknown machine 'skxx'; did you mean: ", 38),
		      "%s", err.msg);
	ck_assert_ptr_nonnull(strstr(err.msg, "skx"));
	ck_assert_ptr_nonnull(strstr(err.msg, "--list"));
	ck_assert_int_eq(cstate_table_resolve("qqqqqqqqqq", NULL, &t, &err),
			 -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "--list"));
	ck_assert_int_eq(err.status, IDL_EXIT_BADINPUT);
}
END_TEST

static Suite *tables_suite(void)
{
	Suite *s = suite_create("tables");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_builtin_intel);
	tcase_add_test(tc, test_builtin_amd);
	tcase_add_test(tc, test_builtin_arm);
	tcase_add_test(tc, test_builtin_pepc_and_vm);
	tcase_add_test(tc, test_builtin_all);
	tcase_add_test(tc, test_to_driver);
	tcase_add_test(tc, test_flags_text);
	tcase_add_test(tc, test_load_full);
	tcase_add_test(tc, test_save_roundtrip);
	tcase_add_loop_test(tc, test_load_bad, 0,
			    sizeof(bad_files) / sizeof(bad_files[0]));
	tcase_add_test(tc, test_load_missing);
	tcase_add_test(tc, test_validate);
	tcase_add_test(tc, test_sysfs_skl);
	tcase_add_test(tc, test_sysfs_haltpoll);
	tcase_add_test(tc, test_sysfs_missing);
	tcase_add_test(tc, test_resolve);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(tables_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
