// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Native trace format: round trip, per-CPU filter, batches, constraint
 * records, header metadata, empty traces, atomic writes, and streaming
 * of a big trace in bounded memory.  Expected records come from a closed
 * formula (make_period, check_trace_format.h), and block offsets are
 * found by parsing the layout of doc/trace-format.md here, not by asking
 * the reader.  Damage handling is in check_trace_damage.c.
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host.h"
#include "trace.h"
#include "trace-format.h"
#include "check_trace_format.h"

START_TEST(test_crc32)
{
	/* The standard check value of CRC-32/ISO-HDLC. */
	ck_assert_uint_eq(idl_crc32(0, "123456789", 9), 0xCBF43926U);
	ck_assert_uint_eq(idl_crc32(0, "", 0), 0);
	/* Chaining equals one pass, at every split (slice-by-8 tails). */
	for (size_t k = 0; k <= 9; k++)
		ck_assert_uint_eq(idl_crc32(idl_crc32(0, "123456789", k),
					    "123456789" + k, 9 - k),
				  0xCBF43926U);
	ck_assert_uint_eq(idl_crc32(0, "The quick brown fox jumps over the lazy dog", 43),
			  0x414FA339U);
}
END_TEST

/*
 * Long buffers, which take the carry-less multiplication paths on CPUs
 * that have them: CRCs of a block-sized buffer (4096 records of 40
 * bytes) and of two shorter ones, as Python's zlib.crc32 gives them.
 */
START_TEST(test_crc32_long)
{
	static uint8_t b[163840];
	size_t i;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i * 7 + 3);
	ck_assert_uint_eq(idl_crc32(0, b, sizeof(b)), 0xDE7FA1B5U);
	memset(b, 0xa5, 4096);
	ck_assert_uint_eq(idl_crc32(0, b, 4096), 0x4A9D36C6U);
	for (i = 0; i < 1000; i++)
		b[i] = (uint8_t)(i * i + i / 7);
	ck_assert_uint_eq(idl_crc32(0, b, 1000), 0x17FBB310U);
}
END_TEST

/*
 * The carry-less multiplication paths (64 and 256 bytes at a time, on
 * CPUs that have them) against the tables alone: every length up to
 * 1200 bytes at every alignment mod 16, with chaining, on pseudo-random
 * bytes.
 */
START_TEST(test_crc32_paths)
{
	static uint8_t b[1232];
	uint32_t x = 12345, seed;
	size_t len, off;

	for (len = 0; len < sizeof(b); len++) {
		x = x * 1103515245U + 12345U;
		b[len] = (uint8_t)(x >> 16);
	}
	for (len = 0; len <= 1200; len++)
		for (off = 0; off < 16; off++) {
			seed = (uint32_t)(len * 2654435761U + off);
			ck_assert_uint_eq(idl_crc32(seed, b + off, len),
					  idl_crc32_tables(seed, b + off,
							   len));
		}
}
END_TEST

START_TEST(test_round_trip)
{
	struct trace_reader *r;
	struct idle_period p, q;
	struct idl_err err;
	const struct trace_meta *m;
	uint64_t next[3] = { 0 }, total = 0;
	int c;

	write_trace(path, 3, 10000, 0);
	r = trace_reader_open(path, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	m = trace_reader_meta(r);
	ck_assert_uint_eq(m->version, 1);
	ck_assert_str_eq(m->kernel, "6.18.1-test");
	ck_assert_str_eq(m->governor, "teo");
	ck_assert_str_eq(m->tool, "idlelab test");
	ck_assert_uint_eq(m->hz, 250);
	ck_assert_uint_eq(m->nr_cpus, 3);
	ck_assert_int_eq(m->latency_req_ns, 2000);
	ck_assert_uint_eq(m->nr_periods, 30000);
	ck_assert_uint_eq(m->nr_events, 12345);
	ck_assert_uint_eq(m->lost_events, 7);
	ck_assert_uint_eq(m->start_ns, 0);	/* CPU 0, i = 0 */
	ck_assert_int_eq(m->table.count, 3);
	ck_assert_int_eq(m->table.power_unit, CSTATE_POWER_MW);
	ck_assert_str_eq(m->table.states[1].desc, "MWAIT 0x00");
	ck_assert_int_eq(m->table.states[2].target_residency_ns, 600000);
	ck_assert_uint_eq(m->table.states[2].flags,
			  CSTATE_TIMER_STOP | CSTATE_TLB_FLUSHED);
	ck_assert(m->table.states[2].disabled);
	ck_assert(!m->table.states[1].disabled);
	ck_assert(m->table.states[0].power == 1500.5);
	ck_assert(isnan(m->table.states[1].entry_energy));
	ck_assert(m->table.states[2].entry_energy == 120.75);
	while ((c = trace_reader_next(r, -1, &p, &err)) == 1) {
		ck_assert_uint_lt(p.cpu, 3);
		make_period(p.cpu, next[p.cpu]++, &q);
		p_eq(&p, &q);
		total++;
	}
	ck_assert_int_eq(c, 0);
	ck_assert_uint_eq(total, 30000);
	ck_assert_ptr_null(trace_reader_damage(r));

	/* Per-CPU filter after a rewind: exactly that CPU, in order. */
	for (c = 2; c >= 0; c--) {
		uint64_t i = 0;

		ck_assert_int_eq(trace_reader_rewind(r, &err), 0);
		while (trace_reader_next(r, c, &p, &err) == 1) {
			make_period((uint32_t)c, i++, &q);
			p_eq(&p, &q);
		}
		ck_assert_uint_eq(i, 10000);
		ck_assert_ptr_null(trace_reader_damage(r));
	}
	/* A CPU that has no periods. */
	ck_assert_int_eq(trace_reader_rewind(r, &err), 0);
	ck_assert_int_eq(trace_reader_next(r, 7, &p, &err), 0);
	trace_reader_close(r);
}
END_TEST

/*
 * The capture's governor tunables, module parameters, event types and
 * the kernel's counters survive a round trip.  2 CPUs x 3 states of
 * counters (92 bytes each) still fit the 4096-byte header; 40 CPUs x 3
 * (11 040 bytes) grow it to the next 4096 multiple, 16384.  Counters are
 * set before the first period (reserving room) and updated at the end;
 * more than reserved cannot be stored once a block follows the header.
 */
static void counters_trip(int ncpu, uint32_t header_size)
{
	struct trace_counter c[120], *e;
	const struct trace_counter *rc;
	const struct trace_meta *m;
	struct trace_meta meta;
	struct trace_writer *w;
	struct trace_reader *r;
	struct idle_period p;
	struct idl_err err;
	uint8_t h[16];
	size_t n = (size_t)ncpu * 3, i, got;
	FILE *f;

	fill_meta(&meta);
	strcpy(meta.governor_params, "guest_halt_poll_ns=0,guest_halt_poll_grow=2");
	strcpy(meta.module_params, "haltpoll.guest_halt_poll_ns=0 cpuidle_haltpoll.force=Y");
	meta.events_seen = 0x7ffe;
	meta.poll_ends_seen = 1234567890123ULL;
	memset(c, 0, sizeof(c));
	for (i = 0; i < n; i++) {
		c[i].cpu = (uint32_t)(i / 3);
		c[i].state = (uint32_t)(i % 3);
		c[i].start[TC_USAGE] = 1000 * i;
		c[i].start[TC_TIME_US] = UINT64_MAX - i;
	}
	w = trace_writer_create(path, &meta, &err);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(trace_writer_set_counters(w, c, n, &err), 0);
	ck_assert_int_eq(tf_writer_set_block_records(w, 1), 0);
	make_period(0, 0, &p);
	ck_assert_int_eq(trace_writer_add(w, &p, &err), 0);
	for (i = 0; i < n; i++)
		c[i].end[TC_USAGE] = 1000 * i + 7;
	/* more than reserved, once periods follow the header: refused */
	ck_assert_int_eq(trace_writer_set_counters(w, c, n + 1, &err), -1);
	ck_assert_int_eq(trace_writer_set_counters(w, c, n, &err), 0);
	ck_assert_int_eq(trace_writer_close(w, &err), 0);

	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(h, 1, sizeof(h), f), sizeof(h));
	fclose(f);
	ck_assert_uint_eq(h[12] | h[13] << 8 | h[14] << 16, header_size);
	r = trace_reader_open(path, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	m = trace_reader_meta(r);
	ck_assert_str_eq(m->governor_params,
			 "guest_halt_poll_ns=0,guest_halt_poll_grow=2");
	ck_assert_str_eq(m->module_params,
			 "haltpoll.guest_halt_poll_ns=0 cpuidle_haltpoll.force=Y");
	ck_assert_uint_eq(m->events_seen, 0x7ffe);
	ck_assert_uint_eq(m->poll_ends_seen, 1234567890123ULL);
	rc = trace_reader_counters(r, &got);
	ck_assert_uint_eq(got, n);
	for (i = 0; i < n; i++) {
		e = &c[i];
		ck_assert_uint_eq(rc[i].cpu, e->cpu);
		ck_assert_uint_eq(rc[i].state, e->state);
		ck_assert_uint_eq(rc[i].start[TC_TIME_US], UINT64_MAX - i);
		ck_assert_uint_eq(rc[i].end[TC_USAGE], 1000 * i + 7);
	}
	ck_assert_int_eq(trace_reader_next(r, -1, &p, &err), 1);
	trace_reader_close(r);
}

START_TEST(test_capture_metadata)
{
	counters_trip(1, 4096);
	counters_trip(40, 16384);
}
END_TEST

START_TEST(test_empty)
{
	struct trace_reader *r;
	struct idle_period p;
	struct idl_err err;
	struct stat st;

	write_trace(path, 3, 0, 0);
	ck_assert_int_eq(stat(path, &st), 0);
	/* header + end block only */
	ck_assert_int_eq(st.st_size, 4096 + 24 + 16);
	r = trace_reader_open(path, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	ck_assert_uint_eq(trace_reader_meta(r)->nr_periods, 0);
	ck_assert_int_eq(trace_reader_next(r, -1, &p, &err), 0);
	ck_assert_ptr_null(trace_reader_damage(r));
	trace_reader_close(r);
}
END_TEST

static int dir_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

START_TEST(test_atomic)
{
	struct trace_meta m;
	struct trace_writer *w;
	struct idle_period p;
	struct idl_err err;
	int i;

	fill_meta(&m);
	w = trace_writer_create(path, &m, &err);
	ck_assert_ptr_nonnull(w);
	for (i = 0; i < 9000; i++) {
		make_period(0, (uint64_t)i, &p);
		ck_assert_int_eq(trace_writer_add(w, &p, &err), 0);
	}
	ck_assert_int_ne(access(path, F_OK), 0);
	trace_writer_abort(w);
	ck_assert_int_eq(dir_entries(), 0);

	w = trace_writer_create(path, &m, &err);
	ck_assert_ptr_nonnull(w);
	make_period(0, 5, &p);
	ck_assert_int_eq(trace_writer_add(w, &p, &err), 0);
	/* Out of time order on one CPU is refused. */
	make_period(0, 4, &p);
	ck_assert_int_eq(trace_writer_add(w, &p, &err), -1);
	ck_assert_int_eq(err.status, 2);
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_int_eq(trace_writer_close(w, &err), 0);
	ck_assert_int_eq(access(path, F_OK), 0);
	ck_assert_int_eq(dir_entries(), 1);
}
END_TEST

/* Blocks of other CPUs are skipped by length: damage there goes unseen. */
START_TEST(test_filter_skips_blocks)
{
	struct trace_reader *r;
	struct idle_period p, q;
	struct idl_err err;
	unsigned char *b;
	size_t len, off[32];
	int nb, i, n = 0, victim = -1;

	write_trace(path, SMALL_CPUS, SMALL_N, SMALL_BLK);
	b = slurp(path, &len);
	nb = block_offsets(b, len, off, 31);
	for (i = 0; i < nb && victim < 0; i++)
		if (rd32(b + off[i] + 4) == 1)
			victim = i;
	ck_assert_int_ge(victim, 0);
	b[off[victim] + 24 + 5] ^= 0xff;	/* CPU 1's payload */
	spit(path, b, len);
	r = trace_reader_open(path, &err);
	ck_assert_ptr_nonnull(r);
	while (trace_reader_next(r, 0, &p, &err) == 1) {
		make_period(0, (uint64_t)n++, &q);
		p_eq(&p, &q);
	}
	ck_assert_int_eq(n, SMALL_N);
	ck_assert_ptr_null(trace_reader_damage(r));
	/* reading CPU 1 finds it */
	ck_assert_int_eq(trace_reader_rewind(r, &err), 0);
	n = 0;
	while (trace_reader_next(r, 1, &p, &err) == 1)
		n++;
	ck_assert_ptr_nonnull(trace_reader_damage(r));
	ck_assert_int_lt(n, SMALL_N);
	trace_reader_close(r);
	free(b);
}
END_TEST

/* Batches give the records one at a time gives, whatever their size. */
START_TEST(test_batch)
{
	static const int sizes[] = { 1, 7, 256 };
	struct trace_reader *r;
	struct idle_period p, b[256];
	struct idl_err err;
	int cpu, k, i, n, got;

	write_trace(path, SMALL_CPUS, SMALL_N, SMALL_BLK);
	r = trace_reader_open(path, &err);
	ck_assert_ptr_nonnull(r);
	for (cpu = -1; cpu < SMALL_CPUS; cpu++)
		for (k = 0; k < 3; k++) {
			struct trace_reader *one = trace_reader_open(path, &err);

			ck_assert_ptr_nonnull(one);
			ck_assert_int_eq(trace_reader_rewind(r, &err), 0);
			n = 0;
			while ((got = trace_reader_batch(r, cpu, b, sizes[k],
							 &err)) > 0) {
				ck_assert_int_le(got, sizes[k]);
				for (i = 0; i < got; i++, n++) {
					ck_assert_int_eq(trace_reader_next(one,
						cpu, &p, &err), 1);
					p_eq(&b[i], &p);
				}
			}
			ck_assert_int_eq(got, 0);
			ck_assert_int_eq(trace_reader_next(one, cpu, &p, &err), 0);
			ck_assert_int_eq(n, cpu < 0 ? SMALL_CPUS * SMALL_N :
					 SMALL_N);
			trace_reader_close(one);
		}
	trace_reader_close(r);
}
END_TEST

/*
 * Constraint records (version 2): each period reads back with the
 * constraint it was written with, one at a time and in batches, for all
 * CPUs and for one, whatever the block size (1: blocks holding a
 * constraint record alone); they are not periods.  A trace without them
 * stays version 1.
 */
START_TEST(test_qos_records)
{
	static const uint32_t blks[] = { 1, 5, 4096 };
	const uint64_t n = 200;
	struct idle_period p, want, b[16];
	struct trace_reader *r;
	struct idl_err err;
	unsigned char *raw;
	size_t len;
	uint64_t i, seen, nth[3];
	int k, cpu, got;

	write_trace(path, 2, 10, 0);
	raw = slurp(path, &len);
	ck_assert_uint_eq(rd32(raw + 8), 1);
	free(raw);
	for (k = 0; k < 3; k++) {
		write_made(path, 3, n, blks[k], make_qos_period);
		raw = slurp(path, &len);
		ck_assert_uint_eq(rd32(raw + 8), 2);
		free(raw);
		r = trace_reader_open(path, &err);
		ck_assert_ptr_nonnull(r);
		ck_assert_uint_eq(trace_reader_meta(r)->version, 2);
		ck_assert_uint_eq(trace_reader_meta(r)->nr_periods, 3 * n);
		for (cpu = -1; cpu < 3; cpu++) {
			ck_assert_int_eq(trace_reader_rewind(r, &err), 0);
			for (i = 0; cpu >= 0 && i < n; i++) {
				make_qos_period((uint32_t)cpu, i, n, &want);
				ck_assert_int_eq(trace_reader_next(r, cpu, &p,
								   &err), 1);
				p_eq(&p, &want);
			}
			if (cpu >= 0) {
				ck_assert_int_eq(trace_reader_next(r, cpu, &p,
								   &err), 0);
				continue;
			}
			seen = 0;
			memset(nth, 0, sizeof(nth));
			while ((got = trace_reader_batch(r, -1, b, 16,
							 &err)) > 0)
				for (i = 0; i < (uint64_t)got; i++, seen++) {
					ck_assert_uint_lt(b[i].cpu, 3);
					make_qos_period(b[i].cpu,
							nth[b[i].cpu]++, n,
							&want);
					p_eq(&b[i], &want);
				}
			ck_assert_int_eq(got, 0);
			ck_assert_uint_eq(seen, 3 * n);
			ck_assert_ptr_null(trace_reader_damage(r));
		}
		trace_reader_close(r);
	}
}
END_TEST

/* Full-width strings are cut to fit their C field; unknown tags skipped. */
START_TEST(test_meta_edges)
{
	struct trace_meta m;
	struct trace_writer *w;
	struct trace_reader *r;
	struct idl_err err;
	unsigned char *b;
	size_t len;
	uint32_t mlen, c;

	fill_meta(&m);
	memset(m.kernel, 'k', sizeof(m.kernel));	/* no NUL at all */
	memset(m.table.states[2].name, 'n', sizeof(m.table.states[2].name));
	w = trace_writer_create(path, &m, &err);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(trace_writer_close(w, &err), 0);
	r = trace_reader_open(path, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	ck_assert_uint_eq(strlen(trace_reader_meta(r)->kernel), 127);
	ck_assert_uint_eq(strlen(trace_reader_meta(r)->table.states[2].name),
			  15);
	trace_reader_close(r);

	/* append tag 999 (5 bytes) to the metadata, fix both CRCs */
	b = slurp(path, &len);
	mlen = rd32(b + 16);
	memcpy(b + 32 + mlen, "\xe7\x03\x05\x00hello", 9);
	mlen += 9;
	b[16] = (unsigned char)mlen;
	b[17] = (unsigned char)(mlen >> 8);
	c = idl_crc32(0, b + 32, mlen);
	memcpy(b + 20, &c, 4);	/* little-endian host (x86, arm64) */
	c = idl_crc32(0, b, 28);
	memcpy(b + 28, &c, 4);
	spit(path, b, len);
	r = trace_reader_open(path, &err);
	ck_assert_msg(r != NULL, "%s", err.msg);
	ck_assert_int_eq(trace_reader_meta(r)->table.count, 3);
	trace_reader_close(r);

	/* a known tag with a wrong length is an error at its offset */
	b[32 + mlen - 9] = 7;	/* tag 7 = hz, u32, but 5 bytes long */
	b[32 + mlen - 8] = 0;
	c = idl_crc32(0, b + 32, mlen);
	memcpy(b + 20, &c, 4);
	c = idl_crc32(0, b, 28);
	memcpy(b + 28, &c, 4);
	spit(path, b, len);
	ck_assert_ptr_null(trace_reader_open(path, &err));
	ck_assert_int_eq(err.status, 2);
	snprintf((char *)b, 64, "offset %u: metadata tag 7", 32 + mlen - 9);
	ck_assert_msg(strstr(err.msg, (char *)b), "%s", err.msg);
	free(b);
}
END_TEST

/* ---- streaming in bounded memory --------------------------------------- */

static long max_rss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

#define BIG_CPUS	4
#define BIG_N		1250000ULL	/* per CPU: 5 M periods */

START_TEST(test_big_streaming)
{
	struct trace_reader *r;
	struct idle_period p, q;
	struct idl_err err;
	struct stat st;
	uint64_t next[BIG_CPUS] = { 0 }, total = 0;
	long rss0 = max_rss_kb(), rss1, rss2;
	double t0, t1, t2;

	t0 = idl_mono_s();
	write_trace(path, BIG_CPUS, BIG_N, 0);
	t1 = idl_mono_s();
	rss1 = max_rss_kb();
	r = trace_reader_open(path, &err);
	ck_assert_ptr_nonnull(r);
	while (trace_reader_next(r, -1, &p, &err) == 1) {
		if (total % 4099 == 0) {	/* spot checks */
			make_period(p.cpu, next[p.cpu], &q);
			p_eq(&p, &q);
		}
		next[p.cpu & (BIG_CPUS - 1)]++;
		total++;
	}
	t2 = idl_mono_s();
	ck_assert_ptr_null(trace_reader_damage(r));
	trace_reader_close(r);
	rss2 = max_rss_kb();
	ck_assert_uint_eq(total, BIG_CPUS * BIG_N);
	ck_assert_int_eq(stat(path, &st), 0);
	printf("big trace: %" PRIu64 " periods, %.2f bytes/period, "
	       "write %.1f M/s, read %.1f M/s, max RSS +%ld/+%ld kB\n",
	       total, (double)st.st_size / (double)total,
	       (double)total / (t1 - t0) / 1e6,
	       (double)total / (t2 - t1) / 1e6, rss1 - rss0, rss2 - rss0);
	/* 200 MB of data; buffers are a few hundred kB */
	ck_assert_int_lt(rss1 - rss0, 8 * 1024);
	ck_assert_int_lt(rss2 - rss0, 8 * 1024);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("trace_format");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_crc32);
	tcase_add_test(tc, test_crc32_paths);
	tcase_add_test(tc, test_crc32_long);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_capture_metadata);
	tcase_add_test(tc, test_atomic);
	tcase_add_test(tc, test_filter_skips_blocks);
	tcase_add_test(tc, test_batch);
	tcase_add_test(tc, test_qos_records);
	tcase_add_test(tc, test_meta_edges);
	tcase_add_test(tc, test_big_streaming);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
