// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The native trace format's streaming reader (doc/trace-format.md).  It
 * keeps one block buffer, whatever the trace's length; every block's
 * CRC is checked before any of its records is handed out, and damage
 * (a bad block, a truncated file) ends the reading with a message that
 * gives its byte offset, the records before it being kept.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "trace.h"
#include "trace-format.h"
#include "trace-codec.h"

/* ---- reader ---------------------------------------------------------- */

struct trace_reader {
	char		*path;
	int		fd;
	uint64_t	size;		/* file size at open */
	uint64_t	header_size;
	uint64_t	off;		/* next block header */
	int64_t		hdr_blocks;	/* from metadata, -1 unknown */
	uint8_t		*buf;
	size_t		buf_cap;
	uint32_t	pos, n, cur_cpu;
	bool		cur_qos;	/* the block holds constraint records */
	uint64_t	cur_payload;	/* file offset of the current records */
	uint64_t	blocks_seen, records_seen;
	/* constraint records among them, unless a block holding some was
	 * skipped unread (another CPU's): then not known */
	uint64_t	qos_seen;
	bool		qos_uncounted;
	bool		done;
	/* per CPU: the last entry time read, to refuse time going back */
	uint64_t	last_exit[TRACE_MAX_CPUS];	/* or the start */
	uint64_t	span_end;	/* end_ns, or no limit when no span */
	/* per CPU: its latency constraint (TF_QOS_UNKNOWN: the trace's) */
	uint32_t	qos_us[TRACE_MAX_CPUS];
	/* an error found by trace_reader_batch() after the periods it
	 * returned: reported by the next call */
	bool		err_pending;
	struct idl_err	pend;
	struct trace_damage dmg;
	char		dmg_msg[400];
	struct tf_counters ctr;
	struct trace_meta meta;
};

static int r_pread(struct trace_reader *r, void *buf, size_t len,
		   uint64_t off, struct idl_err *err)
{
	uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = pread(r->fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "%s: read: %s", r->path,
					   strerror(errno));
		if (n == 0)
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "%s: file shrank while reading",
					   r->path);
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int r_header(struct trace_reader *r, struct idl_err *err)
{
	uint8_t h[TF_FIXED_HDR];
	uint32_t version, hsize, mlen;
	size_t have = r->size < TF_FIXED_HDR ? (size_t)r->size : TF_FIXED_HDR;
	uint8_t *meta;
	int ret;

	if (have && r_pread(r, h, have, 0, err) < 0)
		return -1;
	if (memcmp(h, TF_MAGIC, have < 8 ? have : 8))
		return idl_err_at_offset(err, r->path, 0,
					 "not an idlelab trace (bad magic)");
	if (have < TF_FIXED_HDR)
		return idl_err_at_offset(err, r->path, r->size,
					 "file truncated inside the %d-byte header",
					 TF_FIXED_HDR);
	version = get32(h + 8);
	if (version != TRACE_FORMAT_VERSION &&
	    version != TRACE_FORMAT_VERSION_V1)
		return idl_err_at_offset(err, r->path, 8,
					 "trace format version %" PRIu32
					 " is not supported (this idlelab reads versions %d and %d)",
					 version, TRACE_FORMAT_VERSION_V1,
					 TRACE_FORMAT_VERSION);
	if (get32(h + 28) != idl_crc32(0, h, 28))
		return idl_err_at_offset(err, r->path, 28,
					 "header checksum mismatch");
	hsize = get32(h + 12);
	mlen = get32(h + 16);
	if (hsize < TF_FIXED_HDR || hsize > TF_MAX_HEADER ||
	    mlen > hsize - TF_FIXED_HDR)
		return idl_err_at_offset(err, r->path, 12,
					 "bad header/metadata size %" PRIu32
					 "/%" PRIu32, hsize, mlen);
	if (get32(h + 24) != TF_REC_SIZE)
		return idl_err_at_offset(err, r->path, 24,
					 "record size %" PRIu32
					 " (version %" PRIu32 " uses %d)",
					 get32(h + 24), version, TF_REC_SIZE);
	if (r->size < TF_FIXED_HDR + (uint64_t)mlen)
		return idl_err_at_offset(err, r->path, r->size,
					 "file truncated inside the metadata (%" PRIu32
					 " bytes expected)", mlen);
	meta = malloc(mlen ? mlen : 1);
	if (!meta)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	ret = r_pread(r, meta, mlen, TF_FIXED_HDR, err);
	if (!ret && get32(h + 20) != idl_crc32(0, meta, mlen))
		ret = idl_err_at_offset(err, r->path, 20,
					"metadata checksum mismatch");
	if (!ret)
		ret = tf_meta_decode(meta, mlen, r->path, TF_FIXED_HDR,
				     &r->meta, &r->hdr_blocks, &r->ctr, err);
	free(meta);
	if (ret < 0)
		return -1;
	r->meta.version = version;
	r->header_size = hsize;
	if (r->size < hsize)
		return idl_err_at_offset(err, r->path, r->size,
					 "file truncated inside the header (%" PRIu32
					 " bytes expected)", hsize);
	return 0;
}

/*
 * No period of a CPU may begin before the capture or its last exit, nor
 * end after the capture.  A span of 0-0 is none given (the tags are
 * optional, doc/trace-format.md): then only the order is checked.
 */
static void start_times(struct trace_reader *r)
{
	int c;

	r->span_end = r->meta.start_ns || r->meta.end_ns ? r->meta.end_ns :
		      UINT64_MAX;
	for (c = 0; c < TRACE_MAX_CPUS; c++)
		r->last_exit[c] = r->meta.start_ns;
}

struct trace_reader *trace_reader_open(const char *path, struct idl_err *err)
{
	struct trace_reader *r = calloc(1, sizeof(*r));
	struct stat st;

	if (!r || !(r->path = strdup(path))) {
		free(r);
		idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
		return NULL;
	}
	/* a FIFO, a device or a directory is refused without blocking */
	r->fd = idl_input_open(path, 0, NULL, err);
	if (r->fd < 0 || fstat(r->fd, &st) < 0) {
		if (r->fd >= 0)
			idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", path,
				    strerror(errno));
		goto fail;
	}
	/* procfs, sysfs, tracefs: sizes that are not what a read gives */
	if (idl_input_kernel_file(r->fd)) {
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s: a file of the "
			    "kernel's, not an idlelab trace", path);
		goto fail;
	}
	r->size = (uint64_t)st.st_size;
	if (r_header(r, err) < 0)
		goto fail;
	posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	r->off = r->header_size;
	memset(r->qos_us, 0xff, sizeof(r->qos_us));
	start_times(r);
	return r;
fail:
	trace_reader_close(r);
	return NULL;
}

const struct trace_meta *trace_reader_meta(const struct trace_reader *r)
{
	return &r->meta;
}

const struct trace_counter *trace_reader_counters(const struct trace_reader *r,
						  size_t *n)
{
	*n = r->ctr.n;
	return r->ctr.n ? r->ctr.c : NULL;
}

/* The latency-constraint records among the @n of a block's payload. */
static uint64_t qos_records(const uint8_t *b, uint32_t n)
{
	uint64_t k = 0;
	uint32_t i;

	for (i = 0; i < n; i++)	/* (byte 39: the flags) */
		k += !!(b[(size_t)i * TF_REC_SIZE + 39] & TF_REC_QOS);
	return k;
}

/* Stop reading at @off and describe the loss; returns 0 (end of data). */
static int r_damage(struct trace_reader *r, uint64_t off, const char *what)
{
	struct trace_damage *d = &r->dmg;
	char periods[64] = "";
	int n;

	r->done = true;
	r->n = r->pos = 0;
	d->damaged = true;
	d->offset = off;
	d->bytes_lost = r->size > off ? r->size - off : 0;
	d->blocks_lost = -1;
	d->records_lost = -1;
	if (r->hdr_blocks >= 0 && (uint64_t)r->hdr_blocks >= r->blocks_seen)
		d->blocks_lost = r->hdr_blocks - (int64_t)r->blocks_seen;
	/* (the metadata counts periods, the blocks records) */
	if (!r->qos_uncounted &&
	    r->meta.nr_periods >= r->records_seen - r->qos_seen)
		d->records_lost = (int64_t)(r->meta.nr_periods -
					    (r->records_seen - r->qos_seen));
	n = snprintf(r->dmg_msg, sizeof(r->dmg_msg),
		     "%s: offset %" PRIu64 ": %s; %" PRIu64
		     " bytes not read", r->path, off, what, d->bytes_lost);
	/* the periods lost only when known */
	if (d->records_lost >= 0)
		snprintf(periods, sizeof(periods),
			 ", %" PRId64 " of %" PRIu64 " periods",
			 d->records_lost, r->meta.nr_periods);
	if (n > 0 && (size_t)n < sizeof(r->dmg_msg) && d->blocks_lost >= 0)
		snprintf(r->dmg_msg + n, sizeof(r->dmg_msg) - (size_t)n,
			 " (%" PRId64 " of %" PRId64 " blocks%s lost)",
			 d->blocks_lost, r->hdr_blocks, periods);
	return 0;
}

static int r_end_block(struct trace_reader *r, const uint8_t *hb,
		       const struct blk_hdr *h, struct idl_err *err)
{
	uint8_t p[TF_END_LEN];
	char what[160];

	if (h->len != TF_END_LEN || r->off + TF_BLK_HDR + TF_END_LEN > r->size)
		return r_damage(r, r->off, "truncated or bad end marker");
	if (r_pread(r, p, TF_END_LEN, r->off + TF_BLK_HDR, err) < 0)
		return -1;
	if (blk_crc(hb, p, TF_END_LEN) != h->crc)
		return r_damage(r, r->off, "end marker checksum mismatch");
	if (get64(p) != r->blocks_seen || get64(p + 8) != r->records_seen) {
		snprintf(what, sizeof(what), "end marker counts %" PRIu64
			 " blocks, %" PRIu64 " periods but %" PRIu64
			 " and %" PRIu64 " were found", get64(p), get64(p + 8),
			 r->blocks_seen, r->records_seen);
		return r_damage(r, r->off, what);
	}
	r->off += TF_BLK_HDR + TF_END_LEN;
	if (r->off != r->size) {
		r_damage(r, r->off, "trailing data after the end marker");
		r->dmg.blocks_lost = 0;
		r->dmg.records_lost = 0;
	}
	r->done = true;
	return 0;
}

static int r_grow(struct trace_reader *r, size_t len, struct idl_err *err)
{
	uint8_t *b;

	if (len <= r->buf_cap)
		return 0;
	b = realloc(r->buf, len);
	if (!b)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	r->buf = b;
	r->buf_cap = len;
	return 0;
}

/*
 * Advance to the next block of @cpu (any if < 0).  Returns 1 with the
 * block loaded, 0 at the end or at damage, -1 on an I/O error.
 */
static int r_next_block(struct trace_reader *r, int cpu, struct idl_err *err)
{
	uint8_t hb[TF_BLK_HDR];
	struct blk_hdr h;

	while (!r->done) {
		if (r->off == r->size)
			return r_damage(r, r->off,
					"file ends without an end marker (truncated)");
		if (r->off + TF_BLK_HDR > r->size)
			return r_damage(r, r->off, "truncated block header");
		if (r_pread(r, hb, TF_BLK_HDR, r->off, err) < 0)
			return -1;
		blk_decode(hb, &h);
		if (h.magic == TF_END_MAGIC)
			return r_end_block(r, hb, &h, err);
		if (h.magic != TF_BLK_MAGIC)
			return r_damage(r, r->off, "bad block magic");
		if (h.cpu >= TRACE_MAX_CPUS || !h.count ||
		    h.count > TF_MAX_BLOCK_RECORDS ||
		    h.len != h.count * TF_REC_SIZE)
			return r_damage(r, r->off, "bad block header");
		if (r->off + TF_BLK_HDR + h.len > r->size)
			return r_damage(r, r->off, "truncated block");
		/* (a CPU beyond the trace's is read, to be checked below) */
		if (cpu >= 0 && h.cpu != (uint32_t)cpu &&
		    h.cpu < r->meta.nr_cpus) {
			/* Not ours: skip by length without decoding. */
			r->off += TF_BLK_HDR + h.len;
			r->blocks_seen++;
			r->records_seen += h.count;
			r->qos_uncounted |= !!(h.flags & TF_BLK_QOS);
			continue;
		}
		if (r_grow(r, h.len, err) < 0 ||
		    r_pread(r, r->buf, h.len, r->off + TF_BLK_HDR, err) < 0)
			return -1;
		if (blk_crc(hb, r->buf, h.len) != h.crc)
			return r_damage(r, r->off, "block checksum mismatch");
		/* intact, but not what a writer of this file can produce */
		if (h.cpu >= r->meta.nr_cpus)
			return idl_err_at_offset(err, r->path, r->off,
				"block of CPU %" PRIu32 " in a trace of %" PRIu32 " CPUs",
				h.cpu, r->meta.nr_cpus);
		r->cur_payload = r->off + TF_BLK_HDR;
		r->off += TF_BLK_HDR + h.len;
		r->blocks_seen++;
		r->records_seen += h.count;
		r->cur_cpu = h.cpu;
		r->cur_qos = h.flags & TF_BLK_QOS;
		if (r->cur_qos)
			r->qos_seen += qos_records(r->buf, h.count);
		r->n = h.count;
		r->pos = 0;
		return 1;
	}
	return 0;
}

/* rec_check()'s tests, inline for the batch loop: @last is the CPU's
 * last exit (the capture's start before its first period) */
static inline bool bad_record(const struct idle_period *p, uint64_t last,
			      uint64_t end_ns)
{
	return p->exit_ns < p->entry_ns || p->entry_ns < last ||
	       p->exit_ns > end_ns || p->sleep_length_ns < -TRACE_TIME_MAX ||
	       p->delta_tick_ns < -TRACE_TIME_MAX;
}

/*
 * Records of an intact block that no writer produces (the writer refuses
 * them): an idle period that ends before it starts, or a CPU's periods
 * going back in time.  Replaying them would give nonsense, so they are
 * errors, with the offset of the record.
 */
static int rec_check(struct trace_reader *r, const struct idle_period *p,
		     struct idl_err *err)
{
	uint64_t off = r->cur_payload + (uint64_t)(r->pos - 1) * TF_REC_SIZE;

	if (p->exit_ns < p->entry_ns)
		return idl_err_at_offset(err, r->path, off,
			"CPU %" PRIu32 ": idle period ends (%" PRIu64 " ns) before it starts (%" PRIu64 " ns)",
			p->cpu, p->exit_ns, p->entry_ns);
	if (p->entry_ns < r->meta.start_ns || p->exit_ns > r->span_end)
		return idl_err_at_offset(err, r->path, off,
			"CPU %" PRIu32 ": idle period %" PRIu64 "-%" PRIu64 " ns outside the capture (%" PRIu64 "-%" PRIu64 " ns)",
			p->cpu, p->entry_ns, p->exit_ns, r->meta.start_ns,
			r->meta.end_ns);
	if (p->entry_ns < r->last_exit[p->cpu])
		return idl_err_at_offset(err, r->path, off,
			"CPU %" PRIu32 ": idle period at %" PRIu64 " ns begins before the previous one ended (%" PRIu64 " ns)",
			p->cpu, p->entry_ns, r->last_exit[p->cpu]);
	if (p->sleep_length_ns < -TRACE_TIME_MAX ||
	    p->delta_tick_ns < -TRACE_TIME_MAX)
		return idl_err_at_offset(err, r->path, off,
			"CPU %" PRIu32 ": idle period at %" PRIu64 " ns: sleep length %" PRId64 " or tick distance %" PRId64 " ns below -2^62",
			p->cpu, p->entry_ns, p->sleep_length_ns,
			p->delta_tick_ns);
	r->last_exit[p->cpu] = p->exit_ns;
	return 1;
}

/*
 * After rec_decode(): a latency-constraint record (version 2) becomes the
 * CPU's constraint and is not a period (false); a period gets the
 * constraint in force.  Either must keep the CPU's time order.
 */
static inline bool rec_qos(struct trace_reader *r, struct idle_period *p)
{
	uint32_t *q = &r->qos_us[p->cpu];

	if (__builtin_expect(p->flags & TF_REC_QOS, 0)) {
		*q = p->wake_detail;
		return false;
	}
	if (__builtin_expect(*q != TF_QOS_UNKNOWN, 0)) {
		p->flags |= IP_QOS_KNOWN;
		p->qos_latency_us = *q;
	}
	return true;
}

int trace_reader_next(struct trace_reader *r, int cpu, struct idle_period *p,
		      struct idl_err *err)
{
	int ret;

	for (;;) {
		if (r->pos < r->n && (cpu < 0 || r->cur_cpu == (uint32_t)cpu)) {
			rec_decode(r->buf + (size_t)r->pos * TF_REC_SIZE,
				   r->cur_cpu, p);
			r->pos++;
			ret = rec_check(r, p, err);
			if (ret < 0 || rec_qos(r, p))
				return ret;
			continue;
		}
		r->pos = r->n = 0;
		ret = r_next_block(r, cpu, err);
		if (ret <= 0)
			return ret;
	}
}

/*
 * The same records as trace_reader_next(), up to @max at a time from the
 * current block: the caller's loop over them is not interrupted by a call
 * per record.  A record that fails rec_check() ends the batch before it;
 * its error is returned by the next call, so that the records before it
 * are seen first, as one at a time.
 */
static int r_batch(struct trace_reader *r, int cpu, struct idle_period *p,
		   int max, struct idl_err *err)
{
	int n = 0, ret;

	if (r->err_pending) {
		*err = r->pend;
		return -1;
	}
	while (r->pos >= r->n || (cpu >= 0 && r->cur_cpu != (uint32_t)cpu)) {
		r->pos = r->n = 0;
		ret = r_next_block(r, cpu, err);
		if (ret <= 0)
			return ret;
	}
	while (n < max && r->pos < r->n) {
		/* in locals: the stores to p[] could be to them for all the
		 * compiler knows */
		uint32_t pos = r->pos, end = r->n, c = r->cur_cpu;
		uint32_t q = r->qos_us[c];
		uint64_t last = r->last_exit[c], end_ns = r->span_end;
		const uint8_t *b = r->buf + (size_t)pos * TF_REC_SIZE;
		bool plain = !r->cur_qos && q == TF_QOS_UNKNOWN;

		/* rec_check()'s tests first, without the call; a block of
		 * periods alone, no constraint known: nothing else (a stray
		 * TF_REC_QOS bit is not taken for IP_QOS_KNOWN) */
		for (; plain && n < max && pos < end;
		     n++, pos++, b += TF_REC_SIZE) {
			rec_decode(b, c, &p[n]);
			p[n].flags &= ~IP_QOS_KNOWN;
			if (bad_record(&p[n], last, end_ns))
				break;
			last = p[n].exit_ns;
		}
		/* the same with rec_qos()'s, where constraints are known */
		for (; n < max && pos < end; pos++, b += TF_REC_SIZE) {
			rec_decode(b, c, &p[n]);
			if (bad_record(&p[n], last, end_ns))
				break;
			last = p[n].exit_ns;
			if (__builtin_expect(p[n].flags & TF_REC_QOS, 0)) {
				q = p[n].wake_detail;
				continue;
			}
			if (__builtin_expect(q != TF_QOS_UNKNOWN, 0)) {
				p[n].flags |= IP_QOS_KNOWN;
				p[n].qos_latency_us = q;
			}
			n++;
		}
		r->pos = pos;
		r->qos_us[c] = q;
		r->last_exit[c] = last;
		if (n == max || pos == end)
			break;
		r->pos++;
		if (rec_check(r, &p[n], &r->pend) < 0) {
			if (!n) {
				*err = r->pend;
				return -1;
			}
			r->err_pending = true;
			break;
		}
		n += rec_qos(r, &p[n]);
	}
	return n;
}

int trace_reader_batch(struct trace_reader *r, int cpu, struct idle_period *p,
		       int max, struct idl_err *err)
{
	int n;

	/* a block may end in latency records only: then the next one */
	do
		n = r_batch(r, cpu, p, max, err);
	while (!n && !r->done);
	return n;
}

int trace_reader_rewind(struct trace_reader *r, struct idl_err *err)
{
	(void)err;
	r->err_pending = false;
	r->off = r->header_size;
	r->pos = r->n = 0;
	r->blocks_seen = r->records_seen = r->qos_seen = 0;
	r->qos_uncounted = false;
	r->done = false;
	start_times(r);
	memset(r->qos_us, 0xff, sizeof(r->qos_us));
	memset(&r->dmg, 0, sizeof(r->dmg));
	r->dmg_msg[0] = '\0';
	return 0;
}

const char *trace_reader_damage(const struct trace_reader *r)
{
	return r->dmg.damaged ? r->dmg_msg : NULL;
}

void trace_reader_damage_info(const struct trace_reader *r,
			      struct trace_damage *d)
{
	*d = r->dmg;
}

void trace_reader_close(struct trace_reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	free(r->ctr.c);
	free(r->buf);
	free(r->path);
	free(r);
}
