/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fixtures of the native trace format's unit tests (check_trace_*.c): a
 * temporary directory per test, records from closed formulas the tests
 * can recompute (make_period, make_qos_period), traces written from them,
 * raw file access, and block offsets found by parsing the layout of
 * doc/trace-format.md, not by asking the reader.
 */
#ifndef IDLELAB_TESTS_CHECK_TRACE_FORMAT_H
#define IDLELAB_TESTS_CHECK_TRACE_FORMAT_H

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "trace-format.h"

static char dir[256];
static char path[300];

static inline void setup(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/ctf-XXXXXX", t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.trace", dir);
}

static inline void teardown(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Period i of @cpu: a formula the test can recompute at any time. */
static inline void make_period(uint32_t cpu, uint64_t i,
			       struct idle_period *p)
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

static inline void fill_meta(struct trace_meta *m)
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

static inline void p_eq(const struct idle_period *a,
			const struct idle_period *b)
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

static inline void make_plain(uint32_t cpu, uint64_t i, uint64_t n,
			      struct idle_period *p)
{
	(void)n;
	make_period(cpu, i, p);
}

/* Write @n periods per CPU on @ncpu CPUs made by @make, interleaved;
 * blocks of @blk. */
static inline void write_made(const char *file, int ncpu, uint64_t n,
			      uint32_t blk, make_fn make)
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

static inline void write_trace(const char *file, int ncpu, uint64_t n,
			       uint32_t blk)
{
	write_made(file, ncpu, n, blk, make_plain);
}

static inline unsigned char *slurp(const char *file, size_t *len)
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

static inline void spit(const char *file, const unsigned char *b, size_t len)
{
	FILE *f = fopen(file, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static inline uint32_t rd32(const unsigned char *b)
{
	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Block boundaries, by walking the layout of doc/trace-format.md. */
static inline int block_offsets(const unsigned char *b, size_t len,
				size_t *off, int cap)
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

/*
 * Period i of @cpu with a PM QoS constraint: none known for the first
 * quarter and the last eighth, else one that changes every 3 periods
 * (0, 1, 2 000 000 000 us, or the CPU number), so that constraint
 * records fall everywhere in the blocks.
 */
static inline void make_qos_period(uint32_t cpu, uint64_t i, uint64_t n,
				   struct idle_period *p)
{
	static const uint32_t v[] = { 0, 1, 2000000000, UINT32_MAX };

	make_period(cpu, i, p);
	if (i < n / 4 || i >= n - n / 8)
		return;
	p->flags |= IP_QOS_KNOWN;
	p->qos_latency_us = v[i / 3 % 4] == UINT32_MAX ? cpu : v[i / 3 % 4];
}

#endif /* IDLELAB_TESTS_CHECK_TRACE_FORMAT_H */
