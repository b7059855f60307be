// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The metadata section of a native trace: a sequence of tag-length-value
 * entries (u16 tag, u16 length, value; little-endian), one per field of
 * struct trace_meta and of its C-state table.  Readers skip tags they do
 * not know, so later minor additions do not need a new format version.
 * State fields apply to the state selected by the last TF_T_STATE tag.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace-format.h"
#include "text.h"

struct tlv_buf {
	uint8_t	*p;
	size_t	len, cap;
};

/* With b->p NULL, only the length is counted (tf_meta_max_len). */
static void tlv_put(struct tlv_buf *b, uint16_t tag, const void *v,
		    size_t len)
{
	if (!b->p) {
		b->len += 4 + len;
		return;
	}
	/* The capacity is sized for the largest possible metadata. */
	if (b->len + 4 + len > b->cap)
		abort();
	b->p[b->len] = (uint8_t)tag;
	b->p[b->len + 1] = (uint8_t)(tag >> 8);
	b->p[b->len + 2] = (uint8_t)len;
	b->p[b->len + 3] = (uint8_t)(len >> 8);
	memcpy(b->p + b->len + 4, v, len);
	b->len += 4 + len;
}

static void tlv_u64(struct tlv_buf *b, uint16_t tag, uint64_t v)
{
	uint8_t x[8];
	int i;

	for (i = 0; i < 8; i++)
		x[i] = (uint8_t)(v >> (8 * i));
	tlv_put(b, tag, x, 8);
}

static void tlv_u32(struct tlv_buf *b, uint16_t tag, uint32_t v)
{
	uint8_t x[4];
	int i;

	for (i = 0; i < 4; i++)
		x[i] = (uint8_t)(v >> (8 * i));
	tlv_put(b, tag, x, 4);
}

static void tlv_f64(struct tlv_buf *b, uint16_t tag, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	tlv_u64(b, tag, v);
}

/* Strings without their NUL; a full-width field is cut at its size. */
static void tlv_str(struct tlv_buf *b, uint16_t tag, const char *s,
		    size_t size)
{
	tlv_put(b, tag, s, strnlen(s, size - 1));
}

#define TLV_STR(b, tag, field) tlv_str(b, tag, field, sizeof(field))

static void encode_state(struct tlv_buf *b, const struct cstate *s, int i)
{
	uint8_t dis = s->disabled;

	tlv_u32(b, TF_T_STATE, (uint32_t)i);
	TLV_STR(b, TF_T_ST_NAME, s->name);
	TLV_STR(b, TF_T_ST_DESC, s->desc);
	tlv_u64(b, TF_T_ST_EXIT_LAT, (uint64_t)s->exit_latency_ns);
	tlv_u64(b, TF_T_ST_RESIDENCY, (uint64_t)s->target_residency_ns);
	tlv_u32(b, TF_T_ST_FLAGS, s->flags);
	tlv_put(b, TF_T_ST_DISABLED, &dis, 1);
	tlv_f64(b, TF_T_ST_POWER, s->power);
	tlv_f64(b, TF_T_ST_ENERGY, s->entry_energy);
}

static void encode_counter(struct tlv_buf *b, const struct trace_counter *c)
{
	uint8_t x[TF_COUNTER_LEN];
	int i, k;

	for (k = 0; k < 4; k++) {
		x[k] = (uint8_t)(c->cpu >> (8 * k));
		x[4 + k] = (uint8_t)(c->state >> (8 * k));
	}
	for (i = 0; i < TC_NR; i++)
		for (k = 0; k < 8; k++) {
			x[8 + 8 * i + k] = (uint8_t)(c->start[i] >> (8 * k));
			x[8 + 8 * (TC_NR + i) + k] =
				(uint8_t)(c->end[i] >> (8 * k));
		}
	tlv_put(b, TF_T_COUNTER, x, sizeof(x));
}

static size_t encode(const struct trace_meta *m, uint64_t nr_blocks,
		     const struct trace_counter *c, size_t nc,
		     struct tlv_buf *bp)
{
	struct tlv_buf b = *bp;
	const struct cstate_table *t = &m->table;
	int i, n = t->count;
	size_t k;

	TLV_STR(&b, TF_T_KERNEL, m->kernel);
	TLV_STR(&b, TF_T_DRIVER, m->driver);
	TLV_STR(&b, TF_T_GOVERNOR, m->governor);
	TLV_STR(&b, TF_T_CLOCK, m->clock);
	TLV_STR(&b, TF_T_SOURCE, m->source);
	TLV_STR(&b, TF_T_TOOL, m->tool);
	tlv_u32(&b, TF_T_HZ, m->hz);
	tlv_u32(&b, TF_T_NR_CPUS, m->nr_cpus);
	tlv_u64(&b, TF_T_LATENCY_REQ, (uint64_t)m->latency_req_ns);
	tlv_u64(&b, TF_T_START, m->start_ns);
	tlv_u64(&b, TF_T_END, m->end_ns);
	tlv_u64(&b, TF_T_NR_PERIODS, m->nr_periods);
	tlv_u64(&b, TF_T_NR_EVENTS, m->nr_events);
	tlv_u64(&b, TF_T_LOST_EVENTS, m->lost_events);
	tlv_u64(&b, TF_T_NR_BLOCKS, nr_blocks);
	TLV_STR(&b, TF_T_GOV_PARAMS, m->governor_params);
	TLV_STR(&b, TF_T_MODULE_PARAMS, m->module_params);
	tlv_u32(&b, TF_T_EVENTS_SEEN, m->events_seen);
	if (m->poll_ends_seen)	/* (absent in files of before) */
		tlv_u64(&b, TF_T_POLL_ENDS, m->poll_ends_seen);
	if (m->residency_lag_ns >= 0)	/* (idem) */
		tlv_u64(&b, TF_T_RESIDENCY_LAG, (uint64_t)m->residency_lag_ns);
	TLV_STR(&b, TF_T_TAB_NAME, t->name);
	TLV_STR(&b, TF_T_TAB_DESC, t->description);
	TLV_STR(&b, TF_T_TAB_DRIVER, t->driver);
	TLV_STR(&b, TF_T_TAB_SOURCE, t->source);
	TLV_STR(&b, TF_T_TAB_RULE, t->rule);
	tlv_u32(&b, TF_T_TAB_POWER_UNIT, (uint32_t)t->power_unit);
	if (n < 0)
		n = 0;
	if (n > CSTATE_MAX)
		n = CSTATE_MAX;
	tlv_u32(&b, TF_T_TAB_COUNT, (uint32_t)n);
	for (i = 0; i < n; i++)
		encode_state(&b, &t->states[i], i);
	for (k = 0; k < nc; k++)
		encode_counter(&b, &c[k]);
	return b.len;
}

size_t tf_meta_encode(const struct trace_meta *m, uint64_t nr_blocks,
		      const struct trace_counter *c, size_t nc,
		      uint8_t *buf, size_t cap)
{
	struct tlv_buf b = { buf, 0, cap };

	return encode(m, nr_blocks, c, nc, &b);
}

/* Every string field full, every state present. */
static void fill_max(struct trace_meta *m)
{
	struct cstate_table *t = &m->table;
	int i;

#define FULL(f) memset(f, 'x', sizeof(f) - 1)
	FULL(m->kernel); FULL(m->driver); FULL(m->governor); FULL(m->clock);
	FULL(m->source); FULL(m->tool); FULL(m->governor_params);
	FULL(m->module_params); FULL(t->name); FULL(t->description);
	FULL(t->driver); FULL(t->source); FULL(t->rule);
	t->count = CSTATE_MAX;
	m->poll_ends_seen = UINT64_MAX;
	m->residency_lag_ns = INT64_MAX;
	for (i = 0; i < CSTATE_MAX; i++) {
		FULL(t->states[i].name);
		FULL(t->states[i].desc);
	}
#undef FULL
}

size_t tf_meta_max_len(size_t nc)
{
	static struct trace_meta max;
	static size_t len;
	struct tlv_buf b = { NULL, 0, 0 };

	if (!len) {
		trace_meta_init(&max);
		fill_max(&max);
		len = encode(&max, 0, NULL, 0, &b);
	}
	return len + nc * (4 + TF_COUNTER_LEN);
}

/* ---- decoding -------------------------------------------------------- */

struct tlv_in {
	const char	*path;
	uint64_t	off;	/* file offset of the current entry */
	uint16_t	tag, len;
	const uint8_t	*v;
};

static uint64_t le(const uint8_t *v, int n)
{
	uint64_t x = 0;
	int i;

	for (i = n - 1; i >= 0; i--)
		x = x << 8 | v[i];
	return x;
}

static int get_int(const struct tlv_in *in, int size, uint64_t *x,
		   struct idl_err *err)
{
	if (in->len != size)
		return idl_err_at_offset(err, in->path, in->off,
					 "metadata tag %u: length %u, expected %d",
					 in->tag, in->len, size);
	*x = le(in->v, size);
	return 0;
}

static int get_str(const struct tlv_in *in, char *dst, size_t size,
		   struct idl_err *err)
{
	if (in->len >= size)
		return idl_err_at_offset(err, in->path, in->off,
					 "metadata tag %u: string of %u bytes, at most %zu allowed",
					 in->tag, in->len, size - 1);
	if (memchr(in->v, '\0', in->len))
		return idl_err_at_offset(err, in->path, in->off,
					 "metadata tag %u: NUL inside a string",
					 in->tag);
	memcpy(dst, in->v, in->len);
	dst[in->len] = '\0';
	/* names reach terminals, CSV and JSON: no escape sequences there */
	if (idl_text_clean(dst))
		idl_warn("%s: offset %" PRIu64 ": metadata tag %u: control "
			 "characters or bytes that are not UTF-8, shown as "
			 "'?'", in->path, in->off, in->tag);
	return 0;
}

#define GET_STR(in, field, err) get_str(in, field, sizeof(field), err)

static int decode_state(const struct tlv_in *in, struct cstate *s,
			struct idl_err *err)
{
	uint64_t x;
	int ret = 0;

	switch (in->tag) {
	case TF_T_ST_NAME:
		return GET_STR(in, s->name, err);
	case TF_T_ST_DESC:
		return GET_STR(in, s->desc, err);
	case TF_T_ST_DISABLED:
		ret = get_int(in, 1, &x, err);
		s->disabled = x != 0;
		return ret;
	case TF_T_ST_FLAGS:
		ret = get_int(in, 4, &x, err);
		s->flags = (unsigned int)x;
		return ret;
	}
	if (get_int(in, 8, &x, err) < 0)
		return -1;
	switch (in->tag) {
	case TF_T_ST_EXIT_LAT:
		s->exit_latency_ns = (int64_t)x;
		break;
	case TF_T_ST_RESIDENCY:
		s->target_residency_ns = (int64_t)x;
		break;
	case TF_T_ST_POWER:
		memcpy(&s->power, &x, sizeof(x));
		break;
	case TF_T_ST_ENERGY:
		memcpy(&s->entry_energy, &x, sizeof(x));
		break;
	}
	return 0;
}

static int decode_string_tag(const struct tlv_in *in, struct trace_meta *m,
			     struct idl_err *err)
{
	struct cstate_table *t = &m->table;

	switch (in->tag) {
	case TF_T_KERNEL:	return GET_STR(in, m->kernel, err);
	case TF_T_DRIVER:	return GET_STR(in, m->driver, err);
	case TF_T_GOVERNOR:	return GET_STR(in, m->governor, err);
	case TF_T_CLOCK:	return GET_STR(in, m->clock, err);
	case TF_T_SOURCE:	return GET_STR(in, m->source, err);
	case TF_T_TOOL:		return GET_STR(in, m->tool, err);
	case TF_T_GOV_PARAMS:	return GET_STR(in, m->governor_params, err);
	case TF_T_MODULE_PARAMS: return GET_STR(in, m->module_params, err);
	case TF_T_TAB_NAME:	return GET_STR(in, t->name, err);
	case TF_T_TAB_DESC:	return GET_STR(in, t->description, err);
	case TF_T_TAB_DRIVER:	return GET_STR(in, t->driver, err);
	case TF_T_TAB_SOURCE:	return GET_STR(in, t->source, err);
	case TF_T_TAB_RULE:	return GET_STR(in, t->rule, err);
	}
	return 1;
}

static int decode_int_tag(const struct tlv_in *in, struct trace_meta *m,
			  int64_t *nr_blocks, struct idl_err *err)
{
	int size = 8;
	uint64_t x;

	switch (in->tag) {
	case TF_T_HZ: case TF_T_NR_CPUS: case TF_T_EVENTS_SEEN:
	case TF_T_TAB_POWER_UNIT: case TF_T_TAB_COUNT:
		size = 4;
		break;
	case TF_T_LATENCY_REQ: case TF_T_START: case TF_T_END:
	case TF_T_NR_PERIODS: case TF_T_NR_EVENTS: case TF_T_LOST_EVENTS:
	case TF_T_NR_BLOCKS: case TF_T_POLL_ENDS: case TF_T_RESIDENCY_LAG:
		break;
	default:
		return 1;	/* unknown tag: skip */
	}
	if (get_int(in, size, &x, err) < 0)
		return -1;
	switch (in->tag) {
	case TF_T_HZ:		m->hz = (uint32_t)x; break;
	case TF_T_NR_CPUS:	m->nr_cpus = (uint32_t)x; break;
	case TF_T_EVENTS_SEEN:	m->events_seen = (uint32_t)x; break;
	case TF_T_POLL_ENDS:	m->poll_ends_seen = x; break;
	case TF_T_RESIDENCY_LAG:
		m->residency_lag_ns = x > INT64_MAX ? -1 : (int64_t)x;
		break;
	case TF_T_LATENCY_REQ:	m->latency_req_ns = (int64_t)x; break;
	case TF_T_START:	m->start_ns = x; break;
	case TF_T_END:		m->end_ns = x; break;
	case TF_T_NR_PERIODS:	m->nr_periods = x; break;
	case TF_T_NR_EVENTS:	m->nr_events = x; break;
	case TF_T_LOST_EVENTS:	m->lost_events = x; break;
	case TF_T_NR_BLOCKS:	*nr_blocks = (int64_t)x; break;
	case TF_T_TAB_POWER_UNIT:
		if (x > CSTATE_POWER_RELATIVE)
			return idl_err_at_offset(err, in->path, in->off,
						 "unknown power unit %" PRIu64, x);
		m->table.power_unit = (enum cstate_power_unit)x;
		break;
	case TF_T_TAB_COUNT:
		if (x > CSTATE_MAX)
			return idl_err_at_offset(err, in->path, in->off,
						 "%" PRIu64 " C-states, at most %d allowed",
						 x, CSTATE_MAX);
		m->table.count = (int)x;
		break;
	}
	return 0;
}

static int decode_counter(const struct tlv_in *in, struct tf_counters *ctr,
			  struct idl_err *err)
{
	struct trace_counter *c;
	int i;

	if (in->len != TF_COUNTER_LEN)
		return idl_err_at_offset(err, in->path, in->off,
					 "metadata tag %u: length %u, expected %d",
					 in->tag, in->len, TF_COUNTER_LEN);
	if (!ctr)
		return 0;
	if (ctr->n == TRACE_MAX_COUNTERS)
		return idl_err_at_offset(err, in->path, in->off,
					 "more than %d counter entries",
					 TRACE_MAX_COUNTERS);
	if (ctr->n == ctr->cap) {
		size_t cap = ctr->cap ? 2 * ctr->cap : 16;
		void *p = realloc(ctr->c, cap * sizeof(*ctr->c));

		if (!p)
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "out of memory");
		ctr->c = p;
		ctr->cap = cap;
	}
	c = &ctr->c[ctr->n];
	c->cpu = (uint32_t)le(in->v, 4);
	c->state = (uint32_t)le(in->v + 4, 4);
	if (c->cpu >= TRACE_MAX_CPUS || c->state >= CSTATE_MAX)
		return idl_err_at_offset(err, in->path, in->off,
					 "counter of CPU %u state %u out of range",
					 c->cpu, c->state);
	for (i = 0; i < TC_NR; i++) {
		c->start[i] = le(in->v + 8 + 8 * i, 8);
		c->end[i] = le(in->v + 8 + 8 * (TC_NR + i), 8);
	}
	ctr->n++;
	return 0;
}

static int decode_one(const struct tlv_in *in, struct trace_meta *m,
		      int64_t *nr_blocks, int *state, struct tf_counters *ctr,
		      struct idl_err *err)
{
	uint64_t x;
	int ret;

	if (in->tag == TF_T_COUNTER)
		return decode_counter(in, ctr, err);

	if (in->tag == TF_T_STATE) {
		if (get_int(in, 4, &x, err) < 0)
			return -1;
		if (x >= CSTATE_MAX)
			return idl_err_at_offset(err, in->path, in->off,
						 "C-state index %" PRIu64 " out of range",
						 x);
		*state = (int)x;
		return 0;
	}
	if (in->tag > TF_T_STATE && in->tag <= TF_T_ST_ENERGY) {
		if (*state < 0)
			return idl_err_at_offset(err, in->path, in->off,
						 "metadata tag %u before any C-state tag",
						 in->tag);
		return decode_state(in, &m->table.states[*state], err);
	}
	ret = decode_string_tag(in, m, err);
	if (ret <= 0)
		return ret;
	ret = decode_int_tag(in, m, nr_blocks, err);
	return ret < 0 ? -1 : 0;
}

/*
 * What the metadata says must make sense as a whole: the embedded table
 * passes the same validator as a table file, the CPU count and the span
 * are possible.
 */
static int meta_check(const struct trace_meta *m, const char *path,
		      uint64_t base, struct idl_err *err)
{
	char where[600];

	if (m->nr_cpus > TRACE_MAX_CPUS)
		return idl_err_at_offset(err, path, base,
					 "%" PRIu32 " CPUs, at most %d allowed",
					 m->nr_cpus, TRACE_MAX_CPUS);
	if (m->hz > TRACE_HZ_MAX)
		return idl_err_at_offset(err, path, base,
					 "HZ %" PRIu32 " (at most %d)", m->hz,
					 TRACE_HZ_MAX);
	if (m->start_ns > m->end_ns)
		return idl_err_at_offset(err, path, base,
					 "capture starts (%" PRIu64 " ns) after "
					 "it ends (%" PRIu64 " ns)",
					 m->start_ns, m->end_ns);
	if (!m->table.count)	/* no table: the reader's user brings one */
		return 0;
	snprintf(where, sizeof(where), "%s: offset %" PRIu64
		 ": embedded C-state table", path, base);
	return cstate_table_validate(&m->table, where, NULL, err);
}

int tf_meta_decode(const uint8_t *buf, size_t len, const char *path,
		   uint64_t base, struct trace_meta *m, int64_t *nr_blocks,
		   struct tf_counters *ctr, struct idl_err *err)
{
	struct tlv_in in = { .path = path };
	int state = -1, max_state = -1;
	unsigned int seen = 0;
	size_t pos = 0;

	trace_meta_init(m);
	*nr_blocks = -1;
	while (pos < len) {
		in.off = base + pos;
		if (len - pos < 4)
			return idl_err_at_offset(err, path, in.off,
						 "metadata entry header cut short");
		in.tag = (uint16_t)(buf[pos] | buf[pos + 1] << 8);
		in.len = (uint16_t)(buf[pos + 2] | buf[pos + 3] << 8);
		if (in.len > len - pos - 4)
			return idl_err_at_offset(err, path, in.off,
						 "metadata tag %u: length %u runs past the section",
						 in.tag, in.len);
		in.v = buf + pos + 4;
		if (decode_one(&in, m, nr_blocks, &state, ctr, err) < 0)
			return -1;
		if (in.tag == TF_T_STATE && (seen & 1u << state))
			return idl_err_at_offset(err, path, in.off,
						 "C-state %d described twice",
						 state);
		if (in.tag == TF_T_STATE)
			seen |= 1u << state;
		if (state > max_state)
			max_state = state;
		pos += 4 + (size_t)in.len;
	}
	if (max_state >= m->table.count)
		return idl_err_at_offset(err, path, base,
					 "C-state %d described but the table has %d states",
					 max_state, m->table.count);
	for (pos = 0; ctr && pos < ctr->n; pos++)
		if ((int)ctr->c[pos].state >= m->table.count)
			return idl_err_at_offset(err, path, base,
						 "counters of state %u but the table has %d states",
						 ctr->c[pos].state,
						 m->table.count);
	return meta_check(m, path, base, err);
}
