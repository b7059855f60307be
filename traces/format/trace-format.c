// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The native trace format: metadata helpers and the writer (the reader
 * is trace-read.c).  The layout is specified in doc/trace-format.md; in
 * short:
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
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "trace.h"
#include "trace-format.h"
#include "trace-codec.h"

/* ---- metadata -------------------------------------------------------- */

void trace_meta_init(struct trace_meta *m)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->version = TRACE_FORMAT_VERSION_V1;
	m->latency_req_ns = -1;
	m->residency_lag_ns = -1;
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
	uint32_t	qos_us;		/* the last constraint written */
	bool		has_qos;	/* a constraint record in buf */
};

struct trace_writer {
	char		*path, *tmp;
	int		fd;
	uint64_t	off;		/* end of data written so far */
	uint32_t	block_records;
	uint64_t	nr_blocks, nr_records;
	uint64_t	nr_qos;		/* latency-constraint records */
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
			     c->has_qos ? TF_BLK_QOS : 0, 0 };
	size_t len = TF_BLK_HDR + (size_t)h.len;

	if (!c->n)
		return 0;
	c->has_qos = false;
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
	c->qos_us = TF_QOS_UNKNOWN;
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
	w->meta.version = TRACE_FORMAT_VERSION_V1;
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

/* Before @p, a record of its CPU's latency constraint if it changed. */
static int w_qos(struct trace_writer *w, struct wcpu *c,
		 const struct idle_period *p, struct idl_err *err)
{
	uint32_t us = p->flags & IP_QOS_KNOWN ? p->qos_latency_us :
		      TF_QOS_UNKNOWN;

	if (us == c->qos_us)
		return 0;
	c->qos_us = us;
	rec_encode_qos(c->buf + TF_BLK_HDR + (size_t)c->n * TF_REC_SIZE,
		       p->entry_ns, us);
	c->has_qos = true;
	w->nr_qos++;
	if (++c->n == w->block_records)
		return w_flush_cpu(w, p->cpu, err);
	return 0;
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
	if (w_qos(w, c, p, err))
		return -1;
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

static uint32_t w_version(const struct trace_writer *w)
{
	return w->nr_qos ? TRACE_FORMAT_VERSION : TRACE_FORMAT_VERSION_V1;
}

/* Counts the writer knows better than its caller. */
static void w_fix_meta(struct trace_writer *w)
{
	struct trace_meta *m = &w->meta;

	m->version = w_version(w);
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
	put32(hdr + 8, w_version(w));
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
	put64(b + TF_BLK_HDR + 8, w->nr_records + w->nr_qos);
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
	if (idl_commit(w->tmp, w->path, err))
		goto fail;
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
