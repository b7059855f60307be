// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the live stage's hold on the host's cpuidle settings, on
 * copies of fixture trees: the journal of what it changes (save, restore,
 * and journals damaged, torn, with a bad checksum or of format 1), the
 * governors and setting one, CPUs offline or without cpuidle anywhere in
 * the tree, sysfs's resume-latency words, and the session lock.
 * Counter deltas, parsers and the benchmarks are in check_live.c.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host.h"
#include "idlectl.h"
#include "live.h"

#define FIX	TOP_SRCDIR "/tests/fixtures"

/* A writable copy of a fixture tree in a temp directory. */
static void copy_tree(const char *tree, char *dst, size_t len)
{
	char cmd[2048], tmpl[] = "/tmp/check_live.XXXXXX";

	ck_assert(mkdtemp(tmpl) != NULL);
	snprintf(dst, len, "%s/%s", tmpl, tree);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/sysfs-live/%s' '%s'", FIX, tree,
		 tmpl);
	ck_assert_int_eq(system(cmd), 0);
}

static void rm_tree(const char *dir)
{
	char cmd[2048], parent[1024];

	snprintf(parent, sizeof(parent), "%s", dir);
	*strrchr(parent, '/') = '\0';
	ck_assert(!strncmp(parent, "/tmp/check_live.", 16));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", parent);
	ck_assert_int_eq(system(cmd), 0);
}

static void read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	ck_assert_msg(f != NULL, "%s", path);
	ck_assert(fgets(buf, (int)len, f) != NULL);
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* ------------------------------------------------------------ journal */

START_TEST(test_journal_roundtrip)
{
	char root[1024], journal[1200], p[1400], buf[64], what[256];
	struct idl_err err = { 0 };
	int v;

	copy_tree("before", root, sizeof(root));
	snprintf(journal, sizeof(journal), "%s/../live.journal", root);
	ck_assert(!idlectl_journal_exists(journal));
	ck_assert_int_eq(idlectl_journal_save(root, journal, &err), 0);
	ck_assert(idlectl_journal_exists(journal));
	/* change everything a session could change */
	ck_assert_int_eq(idlectl_set_governor(root, "menu", &err), 0);
	ck_assert_int_eq(idlectl_set_disable(root, 0, 1, 1, &err), 0);
	ck_assert_int_eq(idlectl_set_disable(root, 1, 2, 0, &err), 0);
	snprintf(p, sizeof(p), "%s/cpuidle/current_governor", root);
	read_file(p, buf, sizeof(buf));
	ck_assert_str_eq(buf, "menu");
	/* restore: back to teo, cpu0 C1 enabled, cpu1 C6 disabled again */
	ck_assert_int_eq(idlectl_journal_restore(journal, root, what,
						 sizeof(what), &err), 0);
	read_file(p, buf, sizeof(buf));
	ck_assert_str_eq(buf, "teo");
	ck_assert_int_eq(idlectl_get_disable(root, 0, 1, &v, &err), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(idlectl_get_disable(root, 1, 2, &v, &err), 0);
	ck_assert_int_eq(v, 1);
	ck_assert_str_eq(what, "governor teo and 6 state disable values");
	ck_assert(!idlectl_journal_exists(journal));
	rm_tree(root);
}
END_TEST

/* The one file NAME.bad-* next to @journal, or fail. */
static void assert_moved_aside(const char *journal)
{
	char cmd[1400], buf[64];
	FILE *p;

	ck_assert(!idlectl_journal_exists(journal));
	snprintf(cmd, sizeof(cmd), "ls '%s'.bad-* | wc -l", journal);
	p = popen(cmd, "r");
	ck_assert(p && fgets(buf, sizeof(buf), p));
	pclose(p);
	ck_assert_int_eq(atoi(buf), 1);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert(f != NULL);
	fputs(text, f);
	fclose(f);
}

/* Every state of the fixture's two CPUs reads @want. */
static void assert_all_disable(const char *root, int want)
{
	struct idl_err err = { 0 };
	int cpu, st, v;

	for (cpu = 0; cpu < 2; cpu++)
		for (st = 0; st < 3; st++) {
			ck_assert_int_eq(idlectl_get_disable(root, cpu, st, &v,
							     &err), 0);
			ck_assert_int_eq(v, want);
		}
}

/*
 * A damaged journal (issue 18, item 2) used to be refused again by every
 * later run; now the safe part is put back and it is moved aside.
 */
START_TEST(test_journal_bad)
{
	char root[1024], journal[1200], p[1400], buf[64], text[1400];
	struct idl_err err = { 0 };

	copy_tree("before", root, sizeof(root));
	snprintf(journal, sizeof(journal), "%s/../live.journal", root);
	snprintf(text, sizeof(text), "idlelab-live-journal 1\nroot %s\n"
		 "governor menu\ndisable x y z\n", root);
	write_text(journal, text);
	ck_assert_int_eq(idlectl_journal_restore(journal, root, NULL, 0,
						 &err), -1);
	ck_assert_msg(strstr(err.msg, "incomplete journal moved aside to") !=
		      NULL, "%s", err.msg);
	ck_assert_int_eq(err.status, 1);
	assert_moved_aside(journal);
	/* the header's governor, every state enabled (cpu1 C6 was not) */
	snprintf(p, sizeof(p), "%s/cpuidle/current_governor", root);
	read_file(p, buf, sizeof(buf));
	ck_assert_str_eq(buf, "menu");
	assert_all_disable(root, 0);
	/* not a journal at all: the governor stays, the file goes aside */
	snprintf(p, sizeof(p), "rm -f '%s'.bad-*", journal);
	ck_assert_int_eq(system(p), 0);
	write_text(journal, "something else\n");
	ck_assert_int_eq(idlectl_journal_restore(journal, root, NULL, 0,
						 &err), -1);
	assert_moved_aside(journal);
	rm_tree(root);
}
END_TEST

/* Cut @path after the first line that starts with @prefix. */
static void cut_after(const char *path, const char *prefix)
{
	char buf[8192], *at;
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert(f != NULL);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	at = strstr(buf, prefix);
	ck_assert(at != NULL);
	ck_assert(truncate(path, (strchr(at, '\n') + 1) - buf) == 0);
}

/*
 * Issue 18, item 1: a journal torn after its first disable line was
 * "restored" (one value), deleted, and the session's disabled states
 * stayed disabled.
 */
START_TEST(test_journal_torn)
{
	char root[1024], journal[1200], what[256] = "";
	struct idl_err err = { 0 };
	int v;

	copy_tree("before", root, sizeof(root));
	ck_assert_int_eq(idlectl_set_disable(root, 1, 2, 0, &err), 0);
	snprintf(journal, sizeof(journal), "%s/../live.journal", root);
	ck_assert_int_eq(idlectl_journal_save(root, journal, &err), 0);
	/* the session disables state 1 everywhere, then the journal tears */
	ck_assert_int_eq(idlectl_set_disable(root, 0, 1, 1, &err), 0);
	ck_assert_int_eq(idlectl_set_disable(root, 1, 1, 1, &err), 0);
	ck_assert_int_eq(idlectl_set_governor(root, "menu", &err), 0);
	cut_after(journal, "disable 0 0 0");
	ck_assert_int_eq(idlectl_journal_restore(journal, root, what,
						 sizeof(what), &err), -1);
	ck_assert_str_eq(what, "");
	ck_assert(strstr(err.msg, "incomplete journal") != NULL);
	assert_moved_aside(journal);
	ck_assert_int_eq(idlectl_get_disable(root, 1, 1, &v, &err), 0);
	ck_assert_int_eq(v, 0);
	assert_all_disable(root, 0);
	rm_tree(root);
}
END_TEST

/* A complete journal with one value changed fails its checksum. */
START_TEST(test_journal_checksum)
{
	char root[1024], journal[1200], cmd[1400];
	struct idl_err err = { 0 };

	copy_tree("before", root, sizeof(root));
	snprintf(journal, sizeof(journal), "%s/../live.journal", root);
	ck_assert_int_eq(idlectl_journal_save(root, journal, &err), 0);
	snprintf(cmd, sizeof(cmd), "sed -i 's/^disable 1 2 1$/disable 1 2 0/' "
		 "'%s'", journal);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(idlectl_journal_restore(journal, root, NULL, 0,
						 &err), -1);
	assert_moved_aside(journal);
	rm_tree(root);
}
END_TEST

/* Format 1 journals (before issue 18) are still read: whole, or not. */
START_TEST(test_journal_v1)
{
	char root[1024], journal[1200], text[2048], what[256];
	struct idl_err err = { 0 };
	int v;

	copy_tree("before", root, sizeof(root));
	snprintf(journal, sizeof(journal), "%s/../live.journal", root);
	snprintf(text, sizeof(text), "idlelab-live-journal 1\npid 1\n"
		 "root %s\ngovernor ladder\ndisable 0 0 0\ndisable 0 1 0\n"
		 "disable 0 2 0\ndisable 1 0 0\ndisable 1 1 0\n"
		 "disable 1 2 1\n", root);
	write_text(journal, text);
	ck_assert_int_eq(idlectl_set_disable(root, 1, 2, 0, &err), 0);
	ck_assert_int_eq(idlectl_journal_restore(journal, root, what,
						 sizeof(what), &err), 0);
	ck_assert_str_eq(what, "governor ladder and 6 state disable values");
	ck_assert(!idlectl_journal_exists(journal));
	ck_assert_int_eq(idlectl_get_disable(root, 1, 2, &v, &err), 0);
	ck_assert_int_eq(v, 1);
	/* cut after cpu0's lines: not every state is there */
	*strstr(text, "disable 1 0 0") = '\0';
	write_text(journal, text);
	ck_assert_int_eq(idlectl_journal_restore(journal, root, what,
						 sizeof(what), &err), -1);
	assert_moved_aside(journal);
	assert_all_disable(root, 0);
	rm_tree(root);
}
END_TEST

START_TEST(test_governors)
{
	char root[1024], govs[IDLECTL_MAX_GOVS][IDLECTL_GOV_LEN], p[1200];
	struct idl_err err = { 0 };
	int fd;

	copy_tree("before", root, sizeof(root));
	ck_assert_int_eq(idlectl_available(root, govs, IDLECTL_MAX_GOVS,
					   &err), 3);
	ck_assert_str_eq(govs[2], "teo");
	ck_assert(idlectl_has_cpuidle(root));
	ck_assert_int_eq(cstate_sysfs_nr_cpus(root), 2);
	/* a governor that does not read back is an error */
	snprintf(p, sizeof(p), "%s/cpuidle/current_governor", root);
	ck_assert_int_eq(unlink(p), 0);
	fd = open(p, O_WRONLY | O_CREAT, 0444);
	close(fd);
	chmod(p, 0444);
	if (geteuid() != 0) {	/* root writes read-only files anyway */
		ck_assert_int_eq(idlectl_set_governor(root, "menu", &err), -1);
		ck_assert(strstr(err.msg, "cannot set governor menu") != NULL);
	}
	ck_assert(!idlectl_has_cpuidle("/nonexistent"));
	rm_tree(root);
}
END_TEST

/*
 * Offline CPUs need not be the last: the "before" tree with its cpu1
 * moved to cpu3, and cpu1 and cpu2 left without cpuidle (as
 * cpuidle-haltpoll leaves an offline CPU).  Then cpu3 offline with its
 * directory (as intel_idle leaves it), then cpu0 without cpuidle.
 */
START_TEST(test_cpu_gap)
{
	char root[1024], cmd[2400], p[1200], buf[16];
	struct idle_snapshot s;
	struct idl_err err = { 0 };
	int idx = 1;

	copy_tree("before", root, sizeof(root));
	snprintf(cmd, sizeof(cmd), "cd '%s' && mv cpu1 cpu3 && "
		 "mkdir cpu1 cpu2 cpufreq", root);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(cstate_sysfs_nr_cpus(root), 4);
	ck_assert_int_eq(idlectl_first_cpu(root), 0);
	ck_assert_int_eq(idlectl_snapshot(root, &s, &err), 0);
	ck_assert_int_eq(s.nr_cpus, 4);
	ck_assert_int_eq(s.nr_present, 2);
	ck_assert_int_eq(s.nr_states, 3);
	/* cpu3's counters are the fixture's cpu1's (its state2/usage and
	 * time files); cpu1 and cpu2 have none */
	ck_assert_int_eq(s.c[3 * CSTATE_MAX + 2].usage, 500);
	ck_assert_int_eq(s.c[3 * CSTATE_MAX + 2].time_us, 800000);
	ck_assert_int_eq(s.c[0 * CSTATE_MAX + 1].usage, 1000);
	ck_assert_int_eq(s.c[1 * CSTATE_MAX + 1].usage, 0);
	idlectl_snapshot_free(&s);
	/* offline with its cpuidle directory kept (intel_idle does):
	 * not counted, but its states are still set */
	snprintf(cmd, sizeof(cmd), "echo 0 > '%s/cpu3/online' && "
		 "echo 1 > '%s/cpu0/online'", root, root);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(idlectl_snapshot(root, &s, &err), 0);
	ck_assert_int_eq(s.nr_present, 1);
	ck_assert_int_eq(s.c[3 * CSTATE_MAX + 2].usage, 0);
	idlectl_snapshot_free(&s);
	ck_assert_int_eq(idlectl_disable_states(root, &idx, 1, &err), 0);
	snprintf(p, sizeof(p), "%s/cpu3/cpuidle/state1/disable", root);
	read_file(p, buf, sizeof(buf));
	ck_assert_int_eq(atoi(buf), 1);
	snprintf(cmd, sizeof(cmd), "rm '%s/cpu3/online'", root);
	ck_assert_int_eq(system(cmd), 0);
	/* cpu0 offline: cpu3's table stands for all */
	snprintf(cmd, sizeof(cmd), "cd '%s' && mv cpu0 cpu9 && mkdir cpu0 "
		 "&& rm -r cpu9", root);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(idlectl_first_cpu(root), 3);
	ck_assert_int_eq(idlectl_snapshot(root, &s, &err), 0);
	ck_assert_int_eq(s.nr_present, 1);
	ck_assert_str_eq(s.info[2].name, "C6");
	idlectl_snapshot_free(&s);
	rm_tree(root);
}
END_TEST

/* sysfs's resume-latency words: "0" none, "n/a" 0 us, N us; no file:
 * none. */
START_TEST(test_resume_latency)
{
	static const struct {
		const char	*text;
		int32_t		us;
	} c[] = { { "0\n", -1 }, { "n/a\n", 0 }, { "25\n", 25 },
		  { "2147483647\n", -1 } };
	char top[] = "/tmp/check_live.XXXXXX", dir[64], path[256];
	size_t i;

	ck_assert(mkdtemp(top) != NULL);
	snprintf(dir, sizeof(dir), "%s/sys", top);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	ck_assert_int_eq(idl_cpu_resume_latency_us(dir, 0), -1);
	snprintf(path, sizeof(path), "%s/cpu0", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/cpu0/power", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path),
		 "%s/cpu0/power/pm_qos_resume_latency_us", dir);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		write_text(path, c[i].text);
		ck_assert_int_eq(idl_cpu_resume_latency_us(dir, 0), c[i].us);
	}
	rm_tree(dir);
}
END_TEST

START_TEST(test_lock)
{
	char dir[] = "/tmp/check_live_lock.XXXXXX", path[256];
	struct idl_err err = { 0 };
	int a, b;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/live.lock", dir);
	a = idlectl_lock(path, &err);
	ck_assert_int_ge(a, 0);
	b = idlectl_lock(path, &err);
	ck_assert_int_eq(b, -1);
	ck_assert(strstr(err.msg, "another idlelab live session") != NULL);
	idlectl_unlock(a);
	b = idlectl_lock(path, &err);
	ck_assert_int_ge(b, 0);
	idlectl_unlock(b);
	unlink(path);
	rmdir(dir);
}
END_TEST

static Suite *live_journal_suite(void)
{
	Suite *s = suite_create("live_journal");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_journal_roundtrip);
	tcase_add_test(tc, test_journal_bad);
	tcase_add_test(tc, test_journal_torn);
	tcase_add_test(tc, test_journal_checksum);
	tcase_add_test(tc, test_journal_v1);
	tcase_add_test(tc, test_governors);
	tcase_add_test(tc, test_cpu_gap);
	tcase_add_test(tc, test_lock);
	tcase_add_test(tc, test_resume_latency);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(live_journal_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
