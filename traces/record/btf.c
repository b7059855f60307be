// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A reader of BTF type sections (the format of the kernel's
 * Documentation/bpf/btf.rst) that walks the types once, checking every
 * length against the blob, and looks for one struct member.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf.h"
#include "error.h"

#define BTF_MAGIC	0xeB9F
#define BTF_HDR_MIN	24	/* magic .. str_len */

enum {
	KIND_INT = 1, KIND_PTR, KIND_ARRAY, KIND_STRUCT, KIND_UNION,
	KIND_ENUM, KIND_FWD, KIND_TYPEDEF, KIND_VOLATILE, KIND_CONST,
	KIND_RESTRICT, KIND_FUNC, KIND_FUNC_PROTO, KIND_VAR, KIND_DATASEC,
	KIND_FLOAT, KIND_DECL_TAG, KIND_TYPE_TAG, KIND_ENUM64,
};

struct btf_blob {
	const uint8_t	*types;		/* the type section */
	size_t		types_len;
	const char	*strs;		/* the string section */
	size_t		strs_len;
	const uint8_t	**by_id;	/* type id -> its btf_type; 0 is void */
	uint32_t	nr;
};

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A type's kind, from the info word of its head. */
static unsigned int kind_of(uint32_t info)
{
	return (info >> 24) & 0x1f;
}

/* The bytes that follow a type's 12-byte head; -1 for an unknown kind. */
static long type_extra(uint32_t info)
{
	uint32_t vlen = info & 0xffff;

	switch (kind_of(info)) {
	case KIND_INT: case KIND_VAR: case KIND_DECL_TAG:
		return 4;
	case KIND_ARRAY:
		return 12;
	case KIND_STRUCT: case KIND_UNION: case KIND_DATASEC:
	case KIND_ENUM64:
		return 12L * vlen;
	case KIND_ENUM: case KIND_FUNC_PROTO:
		return 8L * vlen;
	case KIND_PTR: case KIND_FWD: case KIND_TYPEDEF: case KIND_VOLATILE:
	case KIND_CONST: case KIND_RESTRICT: case KIND_FUNC: case KIND_FLOAT:
	case KIND_TYPE_TAG:
		return 0;
	}
	return -1;
}

static const char *name_of(const struct btf_blob *b, uint32_t off)
{
	if (off >= b->strs_len || !memchr(b->strs + off, '\0',
					   b->strs_len - off))
		return NULL;
	return b->strs + off;
}

/* Index every type; 0, or -1 for a damaged section (@err says where). */
static int index_types(struct btf_blob *b, const char *name, size_t base,
		       struct idl_err *err)
{
	size_t pos = 0, cap = 0;

	b->nr = 1;
	while (pos < b->types_len) {
		uint32_t info;
		long extra;

		if (b->types_len - pos < 12)
			return idl_err_at_offset(err, name, base + pos,
						 "type %u cut short", b->nr);
		info = get32(b->types + pos + 4);
		extra = type_extra(info);
		if (extra < 0)
			return idl_err_at_offset(err, name, base + pos,
						 "type %u of unknown kind %u",
						 b->nr, kind_of(info));
		if (b->types_len - pos - 12 < (size_t)extra)
			return idl_err_at_offset(err, name, base + pos,
						 "type %u runs past the type "
						 "section", b->nr);
		if (b->nr >= cap) {
			const uint8_t **n;

			cap = cap ? cap * 2 : 4096;
			n = realloc(b->by_id, cap * sizeof(*n));
			if (!n)
				return idl_err_set(err, IDL_EXIT_FAILURE,
						   "out of memory");
			b->by_id = n;
		}
		b->by_id[b->nr++] = b->types + pos;
		pos += 12 + (size_t)extra;
	}
	return 0;
}

/* The bit offset of @member in struct/union type @t, or -1. */
static long find_member(const struct btf_blob *b, const uint8_t *t,
			const char *member, int depth)
{
	uint32_t info = get32(t + 4), vlen = info & 0xffff, i;
	unsigned int kind = kind_of(info);
	const uint8_t *m = t + 12;

	if ((kind != KIND_STRUCT && kind != KIND_UNION) || depth > 8)
		return -1;
	for (i = 0; i < vlen; i++, m += 12) {
		uint32_t name = get32(m), type = get32(m + 4);
		uint32_t off = get32(m + 8);
		const char *s = name_of(b, name);
		long inner;

		if (info >> 31)		/* kind_flag: bitfield size on top */
			off &= 0xffffff;
		if (s && *s && !strcmp(s, member))
			return off;
		if (name || !type || type >= b->nr)
			continue;
		/* an anonymous struct or union: its members are ours */
		inner = find_member(b, b->by_id[type], member, depth + 1);
		if (inner >= 0)
			return (long)off + inner;
	}
	return -1;
}

static long member_offset(const void *buf, size_t len, const char *strct,
			  const char *member, const char *name,
			  struct idl_err *err)
{
	const uint8_t *p = buf;
	struct btf_blob b = { 0 };
	uint32_t hdr_len, type_off, type_len, str_off, str_len, id;
	bool found = false;
	long bits = -1;
	uint16_t magic;

	if (len < BTF_HDR_MIN)
		return idl_err_at_offset(err, name, 0, "%zu bytes: not BTF",
					 len);
	memcpy(&magic, p, sizeof(magic));
	hdr_len = get32(p + 4);
	if (magic != BTF_MAGIC || p[2] != 1 || hdr_len < BTF_HDR_MIN ||
	    hdr_len > len)
		return idl_err_at_offset(err, name, 0, "not a BTF header "
					 "(magic %#x, version %u)", magic,
					 p[2]);
	type_off = get32(p + 8);
	type_len = get32(p + 12);
	str_off = get32(p + 16);
	str_len = get32(p + 20);
	if ((uint64_t)type_off + type_len > len - hdr_len ||
	    (uint64_t)str_off + str_len > len - hdr_len)
		return idl_err_at_offset(err, name, 8, "its sections run past "
					 "its %zu bytes", len);
	b.types = p + hdr_len + type_off;
	b.types_len = type_len;
	b.strs = (const char *)p + hdr_len + str_off;
	b.strs_len = str_len;
	if (index_types(&b, name, hdr_len + type_off, err)) {
		free(b.by_id);
		return -1;
	}
	for (id = 1; id < b.nr && bits < 0; id++) {
		const uint8_t *t = b.by_id[id];
		const char *s = name_of(&b, get32(t));

		if (kind_of(get32(t + 4)) == KIND_STRUCT && s &&
		    !strcmp(s, strct)) {
			found = true;
			bits = find_member(&b, t, member, 0);
		}
	}
	free(b.by_id);
	if (!found)
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: no struct %s",
				   name, strct);
	if (bits < 0)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "%s: struct %s has no member %s", name,
				   strct, member);
	if (bits % 8)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "%s: %s.%s is a bit field that does not "
				   "start a byte", name, strct, member);
	return bits / 8;
}

long btf_member_offset(const void *buf, size_t len, const char *strct,
		       const char *member, struct idl_err *err)
{
	return member_offset(buf, len, strct, member, "BTF", err);
}

long btf_file_member_offset(const char *path, const char *strct,
			    const char *member, struct idl_err *err)
{
	size_t cap = 1 << 22, len = 0;
	uint8_t *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	long off = -1;
	ssize_t n;

	if (fd < 0)
		idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", path,
			    strerror(errno));
	else if (!buf)
		idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	/* sysfs gives no size for the blob: read until the end */
	while (buf && fd >= 0) {
		if (len == cap) {
			uint8_t *more = realloc(buf, cap * 2);

			if (!more) {
				idl_err_set(err, IDL_EXIT_FAILURE,
					    "out of memory");
				break;
			}
			buf = more;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", path,
				    strerror(errno));
		if (n <= 0) {
			if (n == 0)
				off = member_offset(buf, len, strct, member,
						    path, err);
			break;
		}
		len += (size_t)n;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return off;
}
