// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The native trace format: writer and streaming reader.  The layout is
 * specified in doc/trace-format.md; in short:
 *
 *   header (32 bytes) | metadata TLVs, zero padded to header_size |
 *   block* | end block
 *
 * Every block is a 24-byte header (magic, CPU, record count, payload
 * length, flags, CRC-32 of header and payload) and fixed-size 40-byte
 * records.  All integers are little-endian and every field is encoded
 * explicitly, so the file does not depend on this compiler's struct
 * layout.  The writer keeps one block buffer per CPU it has seen; the
 * reader keeps one block buffer: neither grows with the trace.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "atomic.h"
#include "input.h"
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
	b[39] = p->flags;
}

static inline void rec_decode(const uint8_t *b, uint32_t cpu,
			      struct idle_period *p)
{
	p->entry_ns = get64(b + 0);
	p->exit_ns = get64(b + 8);
	p->sleep_length_ns = (int64_t)get64(b + 16);
	p->delta_tick_ns = (int64_t)get64(b + 24);
	p->cpu = cpu;
	p->wake_detail = get32(b + 32);
	p->state = (int16_t)get16(b + 36);
	p->wake_cause = b[38];
	p->flags = b[39];
	p->reserved = 0;
}

/* ---- block header -------------------------------------------------- */

struct blk_hdr {
	uint32_t magic, cpu, count, len, flags, crc;
};

static void blk_encode(uint8_t *b, const struct blk_hdr *h)
{
	put32(b + 0, h->magic);
	put32(b + 4, h->cpu);
	put32(b + 8, h->count);
	put32(b + 12, h->len);
	put32(b + 16, h->flags);
	put32(b + 20, h->crc);
}

static void blk_decode(const uint8_t *b, struct blk_hdr *h)
{
	h->magic = get32(b + 0);
	h->cpu = get32(b + 4);
	h->count = get32(b + 8);
	h->len = get32(b + 12);
	h->flags = get32(b + 16);
	h->crc = get32(b + 20);
}

/* CRC of the first 20 header bytes followed by the payload. */
static uint32_t blk_crc(const uint8_t *hdr, const void *payload, size_t len)
{
	return idl_crc32(idl_crc32(0, hdr, TF_BLK_CRC_OFF), payload, len);
}

/* ---- metadata -------------------------------------------------------- */

void trace_meta_init(struct trace_meta *m)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->version = TRACE_FORMAT_VERSION;
	m->latency_req_ns = -1;
	for (i = 0; i < CSTATE_MAX; i++) {
		m->table.states[i].power = NAN;
		m->table.states[i].entry_energy = NAN;
	}
}

const char *wake_cause_name(enum wake_cause c)
{
	static const char *const names[WAKE_CAUSE_COUNT] = {
		[WAKE_UNKNOWN] = "unknown",
		[WAKE_TICK] = "tick",
		[WAKE_HRTIMER] = "hrtimer",
		[WAKE_TIMER] = "timer",
		[WAKE_IRQ] = "irq",
		[WAKE_IPI] = "ipi",
		[WAKE_SCHED] = "sched",
	};

	if ((unsigned int)c >= WAKE_CAUSE_COUNT)
		return "invalid";
	return names[c];
}

/* ---- writer ---------------------------------------------------------- */

struct wcpu {
	uint8_t		*buf;		/* TF_BLK_HDR + records */
	uint32_t	n;
	uint64_t	last_entry;
};

struct trace_writer {
	char		*path, *tmp;
	int		fd;
	uint64_t	off;		/* end of data written so far */
	uint32_t	block_records;
	uint64_t	nr_blocks, nr_records;
	uint64_t	min_entry, max_exit;
	uint32_t	max_cpu;
	bool		failed;
	uint32_t	header_size;
	struct trace_counter *ctr;
	size_t		nctr, ctr_room;
	struct trace_meta meta;
	struct wcpu	*cpus[TRACE_MAX_CPUS];
};

static int w_write(struct trace_writer *w, const void *buf, size_t len,
		   struct idl_err *err)
{
	const uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = write(w->fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			w->failed = true;
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "%s: write: %s", w->tmp,
					   strerror(errno));
		}
		p += n;
		len -= (size_t)n;
		w->off += (uint64_t)n;
	}
	return 0;
}

static int w_write_zeros(struct trace_writer *w, size_t len,
			 struct idl_err *err)
{
	static const uint8_t zero[4096];
	size_t n;

	for (; len; len -= n) {
		n = len < sizeof(zero) ? len : sizeof(zero);
		if (w_write(w, zero, n, err) < 0)
			return -1;
	}
	return 0;
}

/* Header room for the largest metadata with @nc counters. */
static uint32_t header_size_for(size_t nc)
{
	size_t need = TF_FIXED_HDR + tf_meta_max_len(nc);

	need = (need + TF_HEADER_SIZE - 1) / TF_HEADER_SIZE * TF_HEADER_SIZE;
	return (uint32_t)need;
}

static int w_flush_cpu(struct trace_writer *w, uint32_t cpu,
		       struct idl_err *err)
{
	struct wcpu *c = w->cpus[cpu];
	struct blk_hdr h = { TF_BLK_MAGIC, cpu, c->n, c->n * TF_REC_SIZE,
			     0, 0 };
	size_t len = TF_BLK_HDR + (size_t)h.len;

	if (!c->n)
		return 0;
	blk_encode(c->buf, &h);
	h.crc = blk_crc(c->buf, c->buf + TF_BLK_HDR, h.len);
	put32(c->buf + TF_BLK_CRC_OFF, h.crc);
	c->n = 0;
	w->nr_blocks++;
	return w_write(w, c->buf, len, err);
}

static struct wcpu *w_cpu(struct trace_writer *w, uint32_t cpu,
			  struct idl_err *err)
{
	struct wcpu *c = calloc(1, sizeof(*c));

	if (c)
		c->buf = malloc(TF_BLK_HDR +
				(size_t)w->block_records * TF_REC_SIZE);
	if (!c || !c->buf) {
		free(c);
		idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
		return NULL;
	}
	w->cpus[cpu] = c;
	return c;
}

/* Smaller blocks for very wide machines keep the buffers bounded. */
static uint32_t w_block_records(uint32_t nr_cpus)
{
	uint32_t n = TF_BLOCK_RECORDS;

	if (nr_cpus > 64)
		n = TF_BLOCK_RECORDS * 64 / nr_cpus;
	return n < 256 ? 256 : n;
}

struct trace_writer *trace_writer_create(const char *path,
					 const struct trace_meta *meta,
					 struct idl_err *err)
{
	struct trace_writer *w = calloc(1, sizeof(*w));
	size_t tlen = strlen(path) + 40;
	mode_t mask;

	if (!w || !(w->path = strdup(path)) || !(w->tmp = malloc(tlen)) ||
	    idl_tmp_template(path, w->tmp, tlen)) {
		if (w)
			free(w->tmp);
		if (w)
			free(w->path);
		free(w);
		idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
		return NULL;
	}
	w->meta = *meta;
	w->meta.version = TRACE_FORMAT_VERSION;
	w->header_size = TF_HEADER_SIZE;
	w->block_records = w_block_records(meta->nr_cpus);
	w->min_entry = UINT64_MAX;
	w->fd = mkstemp(w->tmp);
	if (w->fd < 0) {
		idl_err_set(err, IDL_EXIT_FAILURE, "%s: cannot create: %s",
			    path, strerror(errno));
		free(w->tmp);
		free(w->path);
		free(w);
		return NULL;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(w->fd, 0666 & ~mask) < 0 ||
	    w_write_zeros(w, w->header_size, err) < 0) {
		if (!w->failed)
			idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", w->tmp,
				    strerror(errno));
		trace_writer_abort(w);
		return NULL;
	}
	return w;
}

int trace_writer_add(struct trace_writer *w, const struct idle_period *p,
		     struct idl_err *err)
{
	struct wcpu *c;

	if (p->cpu >= TRACE_MAX_CPUS)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "period on CPU %" PRIu32 ": CPU number too large (max %d)",
				   p->cpu, TRACE_MAX_CPUS - 1);
	c = w->cpus[p->cpu];
	if (!c && !(c = w_cpu(w, p->cpu, err)))
		return -1;
	if (p->exit_ns < p->entry_ns || (c->last_entry > p->entry_ns))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "CPU %" PRIu32 ": period at %" PRIu64
				   " ns ends before it starts or is out of time order",
				   p->cpu, p->entry_ns);
	c->last_entry = p->entry_ns;
	rec_encode(c->buf + TF_BLK_HDR + (size_t)c->n * TF_REC_SIZE, p);
	w->nr_records++;
	if (p->entry_ns < w->min_entry)
		w->min_entry = p->entry_ns;
	if (p->exit_ns > w->max_exit)
		w->max_exit = p->exit_ns;
	if (p->cpu > w->max_cpu)
		w->max_cpu = p->cpu;
	if (++c->n == w->block_records)
		return w_flush_cpu(w, p->cpu, err);
	return 0;
}

int tf_writer_set_block_records(struct trace_writer *w, uint32_t n)
{
	uint32_t cpu;

	if (!n || n > TF_MAX_BLOCK_RECORDS || w->nr_records)
		return -1;
	for (cpu = 0; cpu < TRACE_MAX_CPUS; cpu++)
		if (w->cpus[cpu])
			return -1;
	w->block_records = n;
	return 0;
}

struct trace_meta *trace_writer_meta(struct trace_writer *w)
{
	return &w->meta;
}

int trace_writer_set_counters(struct trace_writer *w,
			      const struct trace_counter *c, size_t n,
			      struct idl_err *err)
{
	uint32_t hs;

	if (n > TRACE_MAX_COUNTERS)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "%zu counters, at most %d", n,
				   TRACE_MAX_COUNTERS);
	if (n > w->ctr_room) {
		/* grow the header while nothing follows it */
		hs = header_size_for(n);
		if (w->off != w->header_size || hs > TF_MAX_HEADER)
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "%s: no room for %zu counters",
					   w->path, n);
		if (hs > w->header_size &&
		    w_write_zeros(w, hs - w->header_size, err) < 0)
			return -1;
		w->header_size = hs;
		free(w->ctr);
		w->ctr = calloc(n, sizeof(*w->ctr));
		if (!w->ctr) {
			w->ctr_room = w->nctr = 0;
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "out of memory");
		}
		w->ctr_room = n;
	}
	memcpy(w->ctr, c, n * sizeof(*c));
	w->nctr = n;
	return 0;
}

/* Counts the writer knows better than its caller. */
static void w_fix_meta(struct trace_writer *w)
{
	struct trace_meta *m = &w->meta;

	m->version = TRACE_FORMAT_VERSION;
	m->nr_periods = w->nr_records;
	if (!w->nr_records)
		return;
	if ((!m->start_ns && !m->end_ns) || m->start_ns > w->min_entry)
		m->start_ns = w->min_entry;
	if (m->end_ns < w->max_exit)
		m->end_ns = w->max_exit;
	if (m->nr_cpus <= w->max_cpu)
		m->nr_cpus = w->max_cpu + 1;
}

static int w_write_header(struct trace_writer *w, struct idl_err *err)
{
	uint8_t *hdr = calloc(1, w->header_size);
	size_t mlen;
	ssize_t done;

	if (!hdr)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	mlen = tf_meta_encode(&w->meta, w->nr_blocks, w->ctr, w->nctr,
			      hdr + TF_FIXED_HDR,
			      w->header_size - TF_FIXED_HDR);
	memcpy(hdr, TF_MAGIC, 8);
	put32(hdr + 8, TRACE_FORMAT_VERSION);
	put32(hdr + 12, w->header_size);
	put32(hdr + 16, (uint32_t)mlen);
	put32(hdr + 20, idl_crc32(0, hdr + TF_FIXED_HDR, mlen));
	put32(hdr + 24, TF_REC_SIZE);
	put32(hdr + 28, idl_crc32(0, hdr, 28));
	done = pwrite(w->fd, hdr, w->header_size, 0);
	free(hdr);
	if (done != (ssize_t)w->header_size) {
		w->failed = true;
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: write: %s",
				   w->tmp, strerror(errno));
	}
	return 0;
}

static int w_write_end(struct trace_writer *w, struct idl_err *err)
{
	uint8_t b[TF_BLK_HDR + TF_END_LEN];
	struct blk_hdr h = { TF_END_MAGIC, UINT32_MAX, 0, TF_END_LEN, 0, 0 };

	blk_encode(b, &h);
	put64(b + TF_BLK_HDR, w->nr_blocks);
	put64(b + TF_BLK_HDR + 8, w->nr_records);
	put32(b + TF_BLK_CRC_OFF, blk_crc(b, b + TF_BLK_HDR, TF_END_LEN));
	return w_write(w, b, sizeof(b), err);
}

static void w_free(struct trace_writer *w)
{
	int i;

	for (i = 0; i < TRACE_MAX_CPUS; i++) {
		if (w->cpus[i])
			free(w->cpus[i]->buf);
		free(w->cpus[i]);
	}
	free(w->ctr);
	free(w->tmp);
	free(w->path);
	free(w);
}

int trace_writer_close(struct trace_writer *w, struct idl_err *err)
{
	uint32_t cpu;

	if (w->failed) {
		idl_err_set(err, IDL_EXIT_FAILURE, "%s: earlier write failed",
			    w->path);
		goto fail;
	}
	for (cpu = 0; cpu < TRACE_MAX_CPUS; cpu++)
		if (w->cpus[cpu] && w_flush_cpu(w, cpu, err) < 0)
			goto fail;
	w_fix_meta(w);
	if (w_write_end(w, err) < 0 || w_write_header(w, err) < 0)
		goto fail;
	if (close(w->fd) < 0) {
		w->fd = -1;
		idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", w->tmp,
			    strerror(errno));
		goto fail;
	}
	w->fd = -1;
	if (rename(w->tmp, w->path) < 0) {
		idl_err_set(err, IDL_EXIT_FAILURE, "%s: rename: %s", w->path,
			    strerror(errno));
		goto fail;
	}
	w_free(w);
	return 0;
fail:
	trace_writer_abort(w);
	return -1;
}

void trace_writer_abort(struct trace_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	unlink(w->tmp);
	w_free(w);
}

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
	uint64_t	cur_payload;	/* file offset of the current records */
	uint64_t	blocks_seen, records_seen;
	bool		done;
	/* per CPU: the last entry time read, to refuse time going back */
	uint64_t	last_entry[TRACE_MAX_CPUS];
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
	if (version != TRACE_FORMAT_VERSION)
		return idl_err_at_offset(err, r->path, 8,
					 "trace format version %" PRIu32
					 " is not supported (this idlelab reads version %d)",
					 version, TRACE_FORMAT_VERSION);
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
					 " (version %d uses %d)",
					 get32(h + 24), TRACE_FORMAT_VERSION,
					 TF_REC_SIZE);
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
	r->size = (uint64_t)st.st_size;
	if (r_header(r, err) < 0)
		goto fail;
	posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	r->off = r->header_size;
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

/* Stop reading at @off and describe the loss; returns 0 (end of data). */
static int r_damage(struct trace_reader *r, uint64_t off, const char *what)
{
	struct trace_damage *d = &r->dmg;
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
	if (r->meta.nr_periods >= r->records_seen)
		d->records_lost = (int64_t)(r->meta.nr_periods -
					    r->records_seen);
	n = snprintf(r->dmg_msg, sizeof(r->dmg_msg),
		     "%s: offset %" PRIu64 ": %s; %" PRIu64
		     " bytes not read", r->path, off, what, d->bytes_lost);
	if (n > 0 && (size_t)n < sizeof(r->dmg_msg) && d->blocks_lost >= 0)
		snprintf(r->dmg_msg + n, sizeof(r->dmg_msg) - (size_t)n,
			 " (%" PRId64 " of %" PRId64 " blocks, %" PRId64
			 " of %" PRIu64 " periods lost)", d->blocks_lost,
			 r->hdr_blocks, d->records_lost, r->meta.nr_periods);
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
		r->n = h.count;
		r->pos = 0;
		return 1;
	}
	return 0;
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
	if (p->entry_ns < r->last_entry[p->cpu])
		return idl_err_at_offset(err, r->path, off,
			"CPU %" PRIu32 ": idle period at %" PRIu64 " ns goes back in time (previous at %" PRIu64 " ns)",
			p->cpu, p->entry_ns, r->last_entry[p->cpu]);
	r->last_entry[p->cpu] = p->entry_ns;
	return 1;
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
			return rec_check(r, p, err);
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
int trace_reader_batch(struct trace_reader *r, int cpu, struct idle_period *p,
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
		uint64_t last = r->last_entry[c];
		const uint8_t *b = r->buf + (size_t)pos * TF_REC_SIZE;

		/* rec_check()'s tests first, without the call */
		for (; n < max && pos < end; n++, pos++, b += TF_REC_SIZE) {
			rec_decode(b, c, &p[n]);
			if (p[n].exit_ns < p[n].entry_ns ||
			    p[n].entry_ns < last)
				break;
			last = p[n].entry_ns;
		}
		r->pos = pos;
		r->last_entry[c] = last;
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
		n++;
	}
	return n;
}

int trace_reader_rewind(struct trace_reader *r, struct idl_err *err)
{
	(void)err;
	r->err_pending = false;
	r->off = r->header_size;
	r->pos = r->n = 0;
	r->blocks_seen = r->records_seen = 0;
	r->done = false;
	memset(r->last_entry, 0, sizeof(r->last_entry));
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
