/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private to the native trace format (trace-format.c, trace-meta.c) and
 * its tests: the constants of doc/trace-format.md and the metadata codec.
 */
#ifndef IDLELAB_TRACE_FORMAT_H
#define IDLELAB_TRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

#define TF_MAGIC		"IDLTRACE"	/* 8 bytes, no NUL */
#define TF_FIXED_HDR		32	/* fixed part of the file header */
#define TF_HEADER_SIZE		4096	/* header + reserved metadata room */
#define TF_MAX_HEADER		(1U << 20)	/* reader's sanity limit */
#define TF_REC_SIZE		40	/* one encoded idle period */
#define TF_REC_QOS		0x80	/* record flags: latency constraint */
#define TF_QOS_UNKNOWN		UINT32_MAX	/* its value: not known */
#define TF_BLK_QOS		0x1	/* block flags: holds such records */
#define TF_BLK_HDR		24	/* block header */
#define TF_BLK_CRC_OFF		20	/* CRC field in the block header */
#define TF_BLK_MAGIC		0x4b4c4249U	/* "IBLK" little-endian */
#define TF_END_MAGIC		0x444e4549U	/* "IEND" little-endian */
#define TF_END_LEN		16	/* end block payload */
#define TF_BLOCK_RECORDS	4096	/* writer's records per block */
#define TF_MAX_BLOCK_RECORDS	65536	/* reader's sanity limit */

/* Metadata TLV tags (u16 tag, u16 length, value). */
enum tf_tag {
	TF_T_KERNEL = 1, TF_T_DRIVER, TF_T_GOVERNOR, TF_T_CLOCK, TF_T_SOURCE,
	TF_T_TOOL, TF_T_HZ, TF_T_NR_CPUS, TF_T_LATENCY_REQ, TF_T_START,
	TF_T_END, TF_T_NR_PERIODS, TF_T_NR_EVENTS, TF_T_LOST_EVENTS,
	TF_T_NR_BLOCKS, TF_T_GOV_PARAMS, TF_T_MODULE_PARAMS, TF_T_EVENTS_SEEN,
	TF_T_POLL_ENDS, TF_T_RESIDENCY_LAG,
	TF_T_TAB_NAME = 32, TF_T_TAB_DESC, TF_T_TAB_DRIVER, TF_T_TAB_SOURCE,
	TF_T_TAB_RULE, TF_T_TAB_POWER_UNIT, TF_T_TAB_COUNT,
	TF_T_STATE = 48, TF_T_ST_NAME, TF_T_ST_DESC, TF_T_ST_EXIT_LAT,
	TF_T_ST_RESIDENCY, TF_T_ST_FLAGS, TF_T_ST_DISABLED, TF_T_ST_POWER,
	TF_T_ST_ENERGY,
	TF_T_COUNTER = 64,	/* u32 cpu, u32 state, u64 start[5], end[5] */
};
#define TF_COUNTER_LEN		(8 + 2 * TC_NR * 8)

/* Counters decoded from the metadata (grown while decoding only). */
struct tf_counters {
	struct trace_counter	*c;
	size_t			n, cap;
};

/* Encode @m and @nc counters into @buf (at most @cap bytes, see
 * tf_meta_max_len()); returns the length used. */
size_t tf_meta_encode(const struct trace_meta *m, uint64_t nr_blocks,
		      const struct trace_counter *c, size_t nc,
		      uint8_t *buf, size_t cap);
/* The largest encoding of any metadata with @nc counters. */
size_t tf_meta_max_len(size_t nc);
/*
 * Decode the metadata section @buf (found at file offset @base of
 * @path, for messages).  @nr_blocks is -1 when the tag is absent.
 */
int tf_meta_decode(const uint8_t *buf, size_t len, const char *path,
		   uint64_t base, struct trace_meta *m, int64_t *nr_blocks,
		   struct tf_counters *ctr, struct idl_err *err);

/* Tests: records per block, before the first trace_writer_add(). */
int tf_writer_set_block_records(struct trace_writer *w, uint32_t n);

#endif /* IDLELAB_TRACE_FORMAT_H */
