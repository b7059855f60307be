// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Native trace format: round trip, per-CPU filter, damage handling
 * (truncation at every byte, bit flips in every block), header errors,
 * empty traces, atomic writes, and streaming of a big trace in bounded
 * memory.  Expected records come from a closed formula (make_period), and
 * block offsets are found by parsing the layout of doc/trace-format.md
 * here, not by asking the reader.
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

static char dir[256];
static char path[300];

static void setup(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/ctf-XXXXXX", t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.trace", dir);
}

static void teardown(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Period i of @cpu: a formula the test can recompute at any time. */
static void make_period(uint32_t cpu, uint64_t i, struct idle_period *p)
{
	memset(p, 0, sizeof(*p));
	p->cpu = cpu;
	p->entry_ns = 1000000ULL * i + 17 * cpu;
	p->exit_ns = p->entry_ns + 1000 + (i * 7919 + cpu) % 900000;
	p->sleep_length_ns = (i % 5 == 0) ? TRACE_NO_TIMER :
			     (int64_t)(i * 31 % 4000000) - 5;
	p->delta_tick_ns = (int64_t)((i * 13 + cpu) % 4000000);
	p->wake_detail = (uint32_t)(i * 2654435761U);
	p->state = (int16_t)((i % 4) - 1);
	p->wake_cause = (uint8_t)(i % WAKE_CAUSE_COUNT);
	p->flags = (uint8_t)(i * 37 % 128);
}

static void fill_meta(struct trace_meta *m)
{
	struct cstate *s;

	trace_meta_init(m);
	strcpy(m->kernel, "6.18.1-test");
	strcpy(m->driver, "intel_idle");
	strcpy(m->governor, "teo");
	strcpy(m->clock, "mono");
	strcpy(m->source, "check_trace_format");
	strcpy(m->tool, "idlelab test");
	m->hz = 250;
	m->nr_cpus = 3;
	m->latency_req_ns = 2000;
	m->nr_events = 12345;
	m->lost_events = 7;
	strcpy(m->table.name, "tiny");
	strcpy(m->table.driver, "intel_idle");
	m->table.power_unit = CSTATE_POWER_MW;
	m->table.count = 3;
	s = m->table.states;
	strcpy(s[0].name, "POLL");
	s[0].flags = CSTATE_POLLING;
	s[0].power = 1500.5;
	s[0].entry_energy = 0.0;
	strcpy(s[1].name, "C1");
	strcpy(s[1].desc, "MWAIT 0x00");
	s[1].exit_latency_ns = 2000;
	s[1].target_residency_ns = 2000;
	s[1].power = 900.25;
	s[1].entry_energy = NAN;
	strcpy(s[2].name, "C6");
	s[2].exit_latency_ns = 170000;
	s[2].target_residency_ns = 600000;
	s[2].flags = CSTATE_TIMER_STOP | CSTATE_TLB_FLUSHED;
	s[2].disabled = true;
	s[2].power = 50;
	s[2].entry_energy = 120.75;
}

static void p_eq(const struct idle_period *a, const struct idle_period *b)
{
	ck_assert_uint_eq(a->cpu, b->cpu);
	ck_assert_uint_eq(a->entry_ns, b->entry_ns);
	ck_assert_uint_eq(a->exit_ns, b->exit_ns);
	ck_assert_int_eq(a->sleep_length_ns, b->sleep_length_ns);
	ck_assert_int_eq(a->delta_tick_ns, b->delta_tick_ns);
	ck_assert_uint_eq(a->wake_detail, b->wake_detail);
	ck_assert_int_eq(a->state, b->state);
	ck_assert_uint_eq(a->wake_cause, b->wake_cause);
	ck_assert_uint_eq(a->flags, b->flags);
	ck_assert_uint_eq(a->qos_latency_us, b->qos_latency_us);
}

typedef void (*make_fn)(uint32_t cpu, uint64_t i, uint64_t n,
			struct idle_period *p);

static void make_plain(uint32_t cpu, uint64_t i, uint64_t n,
		       struct idle_period *p)
{
	(void)n;
	make_period(cpu, i, p);
}

/* Write @n periods per CPU on @ncpu CPUs made by @make, interleaved;
 * blocks of @blk. */
static void write_made(const char *file, int ncpu, uint64_t n, uint32_t blk,
		       make_fn make)
{
	struct trace_meta m;
	struct trace_writer *w;
	struct idle_period p;
	struct idl_err err;
	uint64_t i;
	int c, bad = 0;

	fill_meta(&m);
	w = trace_writer_create(file, &m, &err);
	ck_assert_msg(w != NULL, "%s", err.msg);
	if (blk)
		ck_assert_int_eq(tf_writer_set_block_records(w, blk), 0);
	/* No ck_assert in hot loops: each one writes to Check's pipe. */
	for (i = 0; i < n; i++)
		for (c = ncpu - 1; c >= 0; c--) {
			make((uint32_t)c, i, n, &p);
			bad |= trace_writer_add(w, &p, &err);
		}
	ck_assert_msg(bad == 0, "%s", err.msg);
	ck_assert_msg(trace_writer_close(w, &err) == 0, "%s", err.msg);
}

static void write_trace(const char *file, int ncpu, uint64_t n, uint32_t blk)
{
	write_made(file, ncpu, n, blk, make_plain);
}

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

/* ---- damage ---------------------------------------------------------- */

static unsigned char *slurp(const char *file, size_t *len)
{
	FILE *f = fopen(file, "rb");
	unsigned char *b;
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	b = malloc((size_t)n + 1);
	ck_assert_uint_eq(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b;
}

static void spit(const char *file, const unsigned char *b, size_t len)
{
	FILE *f = fopen(file, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static uint32_t rd32(const unsigned char *b)
{
	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Read all periods of @file into @out (max @cap); returns the count. */
static int read_all(const char *file, struct idle_period *out, int cap,
		    struct trace_damage *d)
{
	struct trace_reader *r;
	struct idl_err err;
	int n = 0, ret;

	r = trace_reader_open(file, &err);
	if (!r)
		return -1;
	while ((ret = trace_reader_next(r, -1, &out[n], &err)) == 1)
		ck_assert_int_lt(++n, cap);
	ck_assert_int_eq(ret, 0);
	trace_reader_damage_info(r, d);
	ck_assert_int_eq(d->damaged, trace_reader_damage(r) != NULL);
	trace_reader_close(r);
	return n;
}

/* Block boundaries, by walking the layout of doc/trace-format.md. */
static int block_offsets(const unsigned char *b, size_t len, size_t *off,
			 int cap)
{
	size_t o = rd32(b + 12);	/* header_size */
	int n = 0;

	while (o + 24 <= len && rd32(b + o) == 0x4b4c4249U) {
		ck_assert_int_lt(n, cap);
		off[n++] = o;
		o += 24 + rd32(b + o + 12);
	}
	ck_assert_uint_eq(rd32(b + o), 0x444e4549U);	/* "IEND" */
	off[n] = o;
	return n;
}

#define SMALL_CPUS	3
#define SMALL_N		10	/* per CPU */
#define SMALL_BLK	4

START_TEST(test_truncate_every_byte)
{
	struct idle_period full[64], got[64];
	struct trace_damage d;
	struct idl_err err;
	unsigned char *b;
	char cut[320];
	size_t len, k, off[32];
	int nfull, n, nb, last = 0;

	write_trace(path, SMALL_CPUS, SMALL_N, SMALL_BLK);
	nfull = read_all(path, full, 64, &d);
	ck_assert_int_eq(nfull, SMALL_CPUS * SMALL_N);
	ck_assert(!d.damaged);
	b = slurp(path, &len);
	nb = block_offsets(b, len, off, 31);
	/* 10 per CPU in blocks of 4: 3 blocks per CPU */
	ck_assert_int_eq(nb, 9);
	ck_assert_uint_eq(len, 4096 + 9 * 24 + 30 * 40 + 24 + 16);
	snprintf(cut, sizeof(cut), "%s/cut.trace", dir);
	for (k = 0; k < len; k++) {
		spit(cut, b, k);
		n = read_all(cut, got, 64, &d);
		if (k < 4096) {
			struct trace_reader *r = trace_reader_open(cut, &err);

			ck_assert_ptr_null(r);
			ck_assert_int_eq(err.status, 2);
			ck_assert_msg(strstr(err.msg, ": offset ") != NULL,
				      "%s", err.msg);
			continue;
		}
		ck_assert_int_ge(n, last);
		for (int i = 0; i < n; i++)
			p_eq(&got[i], &full[i]);
		ck_assert_msg(d.damaged, "no damage reported at cut %zu", k);
		ck_assert_uint_le(d.offset, k);
		ck_assert_uint_eq(d.bytes_lost, k - d.offset);
		ck_assert_int_eq(d.blocks_lost >= 0, 1);
		ck_assert_int_eq(d.records_lost, nfull - n);
		last = n;
	}
	ck_assert_int_eq(last, nfull);
	free(b);
}
END_TEST

START_TEST(test_bit_flips)
{
	struct idle_period full[64], got[64];
	struct trace_damage d;
	unsigned char *b;
	char bad[320];
	size_t len, off[32], pos;
	int nb, n, i, before;

	write_trace(path, SMALL_CPUS, SMALL_N, SMALL_BLK);
	ck_assert_int_eq(read_all(path, full, 64, &d), SMALL_CPUS * SMALL_N);
	b = slurp(path, &len);
	nb = block_offsets(b, len, off, 31);
	snprintf(bad, sizeof(bad), "%s/bad.trace", dir);
	for (i = 0; i <= nb; i++) {	/* every block and the end block */
		size_t blen = off[i] + 24 + rd32(b + off[i] + 12) - off[i];

		before = 0;
		for (int j = 0; j < i; j++)
			before += (int)rd32(b + off[j] + 8);
		/* one bit in the header's count, CRC, and payload bytes */
		for (pos = 0; pos < blen; pos += (pos < 24 ? 4 : 37)) {
			b[off[i] + pos] ^= 0x10;
			spit(bad, b, len);
			b[off[i] + pos] ^= 0x10;
			n = read_all(bad, got, 64, &d);
			ck_assert_msg(n == before, "block %d byte %zu: %d records, %d expected",
				      i, pos, n, before);
			for (int j = 0; j < n; j++)
				p_eq(&got[j], &full[j]);
			ck_assert(d.damaged);
			ck_assert_uint_eq(d.offset, off[i]);
		}
	}
	free(b);
}
END_TEST

static void expect_open_error(const unsigned char *b, size_t len,
			      const char *want1, const char *want2)
{
	struct trace_reader *r;
	struct idl_err err;
	char bad[320];

	snprintf(bad, sizeof(bad), "%s/bad.trace", dir);
	spit(bad, b, len);
	r = trace_reader_open(bad, &err);
	ck_assert_ptr_null(r);
	ck_assert_int_eq(err.status, 2);
	ck_assert_msg(strstr(err.msg, want1) != NULL, "'%s' lacks '%s'",
		      err.msg, want1);
	if (want2)
		ck_assert_msg(strstr(err.msg, want2) != NULL, "'%s' lacks '%s'",
			      err.msg, want2);
}

START_TEST(test_header_errors)
{
	unsigned char *b;
	size_t len;

	write_trace(path, 2, 3, 0);
	b = slurp(path, &len);

	b[8] = 3;	/* version 3 */
	expect_open_error(b, len, "bad.trace: offset 8: ", "version 3");
	expect_open_error(b, len, "versions 1 and 2", NULL);
	b[8] = 1;

	b[0] = 'X';
	expect_open_error(b, len, "offset 0: not an idlelab trace", NULL);
	b[0] = 'I';

	b[40] ^= 1;	/* inside the metadata */
	expect_open_error(b, len, "offset 20: metadata checksum", NULL);
	b[40] ^= 1;

	b[13] ^= 1;	/* header size, caught by the header CRC */
	expect_open_error(b, len, "offset 28: header checksum", NULL);
	b[13] ^= 1;

	expect_open_error(b, 20, "offset 20: file truncated", NULL);
	expect_open_error((const unsigned char *)"hello world, not a trace", 24,
			  "offset 0: not an idlelab trace", NULL);
	expect_open_error(b, 0, "offset 0", NULL);
	free(b);
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
 * Period i of @cpu with a PM QoS constraint: none known for the first
 * quarter and the last eighth, else one that changes every 3 periods
 * (0, 1, 2 000 000 000 us, or the CPU number), so that constraint
 * records fall everywhere in the blocks.
 */
static void make_qos_period(uint32_t cpu, uint64_t i, uint64_t n,
			    struct idle_period *p)
{
	static const uint32_t v[] = { 0, 1, 2000000000, UINT32_MAX };

	make_period(cpu, i, p);
	if (i < n / 4 || i >= n - n / 8)
		return;
	p->flags |= IP_QOS_KNOWN;
	p->qos_latency_us = v[i / 3 % 4] == UINT32_MAX ? cpu : v[i / 3 % 4];
}

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

/* Does one of the first @nb blocks at @off, not CPU @cpu's, hold
 * constraint records (block flag bit 0)? */
static bool skipped_qos(const unsigned char *raw, const size_t *off, int nb,
			uint32_t cpu)
{
	int j;

	for (j = 0; j < nb; j++)
		if (rd32(raw + off[j] + 4) != cpu &&
		    (rd32(raw + off[j] + 16) & 1))
			return true;
	return false;
}

/*
 * A damaged version-2 file counts the periods it lost, not the constraint
 * records among them: cut after every block, 3 CPUs of 200 periods in
 * blocks of 5 records, read whole.  Read for one CPU, the blocks of the
 * others are skipped unread: the count is then unknown (-1) when one of
 * them held constraint records, and the message gives blocks only.
 */
START_TEST(test_qos_damage)
{
	const uint64_t n = 200;
	struct idle_period b[16];
	struct trace_reader *r;
	struct trace_damage d;
	struct idl_err err;
	unsigned char *raw;
	char cut[320];
	size_t len, off[1024];
	int nb, k, got;
	uint64_t seen;

	write_made(path, 3, n, 5, make_qos_period);
	raw = slurp(path, &len);
	nb = block_offsets(raw, len, off, 1023);
	ck_assert_int_gt(nb, 3 * 40);
	snprintf(cut, sizeof(cut), "%s/cut.trace", dir);
	for (k = 1; k < nb; k += 7) {
		spit(cut, raw, off[k]);
		r = trace_reader_open(cut, &err);
		ck_assert_ptr_nonnull(r);
		seen = 0;
		while ((got = trace_reader_batch(r, -1, b, 16, &err)) > 0)
			seen += (uint64_t)got;
		ck_assert_int_eq(got, 0);
		trace_reader_damage_info(r, &d);
		ck_assert(d.damaged);
		ck_assert_int_eq(d.records_lost, (int64_t)(3 * n - seen));
		ck_assert_ptr_nonnull(strstr(trace_reader_damage(r),
					     " periods lost)"));
		/* one CPU: the others' blocks are not read */
		ck_assert_int_eq(trace_reader_rewind(r, &err), 0);
		while ((got = trace_reader_batch(r, 2, b, 16, &err)) > 0)
			;
		trace_reader_damage_info(r, &d);
		if (skipped_qos(raw, off, k, 2)) {
			ck_assert_int_eq(d.records_lost, -1);
			ck_assert_ptr_nonnull(strstr(trace_reader_damage(r),
						     " blocks lost)"));
		} else {
			ck_assert_int_eq(d.records_lost,
					 (int64_t)(3 * n - seen));
		}
		trace_reader_close(r);
	}
	free(raw);
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
	tcase_add_test(tc, test_truncate_every_byte);
	tcase_add_test(tc, test_bit_flips);
	tcase_add_test(tc, test_header_errors);
	tcase_add_test(tc, test_filter_skips_blocks);
	tcase_add_test(tc, test_batch);
	tcase_add_test(tc, test_qos_records);
	tcase_add_test(tc, test_qos_damage);
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
