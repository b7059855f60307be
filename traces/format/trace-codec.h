/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The native trace format's byte layout, shared by its writer
 * (trace-format.c) and reader (trace-read.c): little-endian fields,
 * records and block headers (doc/trace-format.md).  Private to them.
 */
#ifndef IDLELAB_TRACE_CODEC_H
#define IDLELAB_TRACE_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trace.h"
#include "trace-format.h"

/* ---- little-endian helpers ------------------------------------------ */

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static inline void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) | (uint32_t)get16(p + 2) << 16;
}

static inline uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* ---- records ------------------------------------------------------- */

static inline void rec_encode(uint8_t *b, const struct idle_period *p)
{
	put64(b + 0, p->entry_ns);
	put64(b + 8, p->exit_ns);
	put64(b + 16, (uint64_t)p->sleep_length_ns);
	put64(b + 24, (uint64_t)p->delta_tick_ns);
	put32(b + 32, p->wake_detail);
	put16(b + 36, (uint16_t)p->state);
	b[38] = p->wake_cause;
	b[39] = p->flags & ~IP_QOS_KNOWN;
}

/*
 * A latency-constraint record (version 2): from @ns on, the CPU's PM QoS
 * constraint is @us (TF_QOS_UNKNOWN: not known).  A period record never
 * has TF_REC_QOS in its flags.
 */
static inline void rec_encode_qos(uint8_t *b, uint64_t ns, uint32_t us)
{
	memset(b, 0, TF_REC_SIZE);
	put64(b + 0, ns);
	put64(b + 8, ns);
	put32(b + 32, us);
	put16(b + 36, (uint16_t)TRACE_STATE_UNKNOWN);
	b[39] = TF_REC_QOS;
}

static inline void rec_decode(const uint8_t *b, uint32_t cpu,
			      struct idle_period *p)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* the four times are stored as the struct holds them, and so are
	 * state, wake cause and flags: three copies instead of eight */
	_Static_assert(offsetof(struct idle_period, delta_tick_ns) == 24 &&
		       offsetof(struct idle_period, wake_detail) == 36 &&
		       offsetof(struct idle_period, state) == 40 &&
		       offsetof(struct idle_period, wake_cause) == 42 &&
		       offsetof(struct idle_period, flags) == 43,
		       "struct idle_period no longer matches the record");
	memcpy(p, b, 32);
	p->cpu = cpu;
	memcpy(&p->wake_detail, b + 32, 4);
	memcpy(&p->state, b + 36, 4);
	p->qos_latency_us = 0;
#else
	p->entry_ns = get64(b + 0);
	p->exit_ns = get64(b + 8);
	p->sleep_length_ns = (int64_t)get64(b + 16);
	p->delta_tick_ns = (int64_t)get64(b + 24);
	p->cpu = cpu;
	p->wake_detail = get32(b + 32);
	p->state = (int16_t)get16(b + 36);
	p->wake_cause = b[38];
	p->flags = b[39];
	p->qos_latency_us = 0;
#endif
}

/* ---- block header -------------------------------------------------- */

struct blk_hdr {
	uint32_t magic, cpu, count, len, flags, crc;
};

static inline void blk_encode(uint8_t *b, const struct blk_hdr *h)
{
	put32(b + 0, h->magic);
	put32(b + 4, h->cpu);
	put32(b + 8, h->count);
	put32(b + 12, h->len);
	put32(b + 16, h->flags);
	put32(b + 20, h->crc);
}

static inline void blk_decode(const uint8_t *b, struct blk_hdr *h)
{
	h->magic = get32(b + 0);
	h->cpu = get32(b + 4);
	h->count = get32(b + 8);
	h->len = get32(b + 12);
	h->flags = get32(b + 16);
	h->crc = get32(b + 20);
}

/* CRC of the first 20 header bytes followed by the payload. */
static inline uint32_t blk_crc(const uint8_t *hdr, const void *payload, size_t len)
{
	return idl_crc32(idl_crc32(0, hdr, TF_BLK_CRC_OFF), payload, len);
}

#endif
