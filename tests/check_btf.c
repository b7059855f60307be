// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * traces/record/btf.c: a BTF blob built here by hand, type by type (the
 * layout of the kernel's Documentation/bpf/btf.rst), with every kind that
 * carries extra bytes before the struct that is looked for, so that a
 * wrong length for any of them loses the struct; then damaged blobs.
 */
#include "config.h"

#include <check.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf.h"
#include "error.h"

static uint8_t blob[4096];
static size_t blob_len;
static uint32_t types[512], nr_types;
static char strs[512];
static uint32_t strs_len;

static uint32_t str(const char *s)
{
	uint32_t off = strs_len;

	if (!*s)
		return 0;
	memcpy(strs + strs_len, s, strlen(s) + 1);
	strs_len += (uint32_t)strlen(s) + 1;
	return off;
}

static void word(uint32_t w)
{
	types[nr_types++] = w;
}

/* @n words: the extra bytes of a type */
static void words(int n, ...)
{
	va_list ap;

	va_start(ap, n);
	while (n--)
		word(va_arg(ap, uint32_t));
	va_end(ap);
}

/* a type's head: name, kind, vlen, kind_flag, size or type */
static void head(const char *name, uint32_t kind, uint32_t vlen, int kflag,
		 uint32_t size)
{
	word(str(name));
	word(kind << 24 | vlen | (kflag ? 1u << 31 : 0));
	word(size);
}

static void member(const char *name, uint32_t type, uint32_t off)
{
	word(str(name));
	word(type);
	word(off);
}

static void finish(void)
{
	uint32_t hdr[6] = { 0x0001eB9F, 24, 0, nr_types * 4, nr_types * 4,
			    strs_len };

	memcpy(blob, hdr, sizeof(hdr));
	memcpy(blob + 24, types, nr_types * 4);
	memcpy(blob + 24 + nr_types * 4, strs, strs_len);
	blob_len = 24 + nr_types * 4 + strs_len;
}

/*
 * [1] INT u64; [2] PTR; [3] ARRAY; [4] ENUM of 2; [5] FUNC_PROTO of 2;
 * [6] VAR; [7] DATASEC of 1; [8] DECL_TAG; [9] ENUM64 of 1; [10] FLOAT;
 * [11] UNION without a name { a, b }; [12] STRUCT dev (bit field sizes
 * in the offsets) { flags:1, cpu, <11> at 64, res at 192, odd at 195 };
 * [13] a second STRUCT dev whose res is elsewhere (the first one counts).
 */
static void build(void)
{
	nr_types = 0;
	strs_len = 1;
	strs[0] = '\0';
	head("u64", 1, 0, 0, 8);
	word(64);
	head("", 2, 0, 0, 1);
	head("", 3, 0, 0, 0);
	words(3, 1, 1, 4);
	head("e", 6, 2, 0, 4);
	words(4, str("E0"), 0, str("E1"), 1);
	head("", 13, 2, 0, 1);
	words(4, 0, 1, 0, 2);
	head("v", 14, 0, 0, 1);
	word(1);
	head(".data", 15, 1, 0, 8);
	words(3, 6, 0, 8);
	head("tag", 17, 0, 0, 12);
	word((uint32_t)-1);
	head("e64", 19, 1, 1, 8);
	words(3, str("BIG"), 1, 2);
	head("double", 16, 0, 0, 8);
	head("", 5, 2, 0, 8);
	member("a", 1, 0);
	member("b", 1, 0);
	head("dev", 4, 5, 1, 40);
	member("flags", 1, 1u << 24 | 0);
	member("cpu", 1, 32);
	member("", 11, 64);
	member("res", 1, 192);
	member("odd", 1, 1u << 24 | 195);
	head("dev", 4, 1, 0, 8);
	member("res", 1, 0);
	finish();
}

static struct idl_err err;

/* The offset of @strct.@member in @buf, @err saying why it has none. */
static long off(const void *buf, size_t len, const char *strct,
		const char *member)
{
	err.msg[0] = '\0';
	return btf_member_offset(buf, len, strct, member, &err);
}

/* -1, and @err holds @what */
static void refused(long got, const char *what)
{
	ck_assert_int_eq(got, -1);
	ck_assert_msg(strstr(err.msg, what), "\"%s\" is not in \"%s\"",
		      what, err.msg);
}

START_TEST(test_offsets)
{
	build();
	ck_assert_int_eq(off(blob, blob_len, "dev", "res"), 24);
	ck_assert_int_eq(off(blob, blob_len, "dev", "cpu"), 4);
	ck_assert_int_eq(off(blob, blob_len, "dev", "flags"), 0);
	/* members of an anonymous union count as the struct's own */
	ck_assert_int_eq(off(blob, blob_len, "dev", "a"), 8);
	ck_assert_int_eq(off(blob, blob_len, "dev", "b"), 8);
	/* a bit field that does not start a byte has no byte offset */
	refused(off(blob, blob_len, "dev", "odd"),
		"BTF: dev.odd is a bit field that does not start a byte");
	refused(off(blob, blob_len, "dev", "nope"),
		"BTF: struct dev has no member nope");
	refused(off(blob, blob_len, "cpu", "res"), "BTF: no struct cpu");
	/* an enum is not a struct, its values not members */
	refused(off(blob, blob_len, "e", "E0"), "BTF: no struct e");
}
END_TEST

START_TEST(test_damaged)
{
	uint8_t copy[sizeof(blob)];
	size_t cut;

	build();
	/* every blob cut short is refused */
	for (cut = 0; cut < blob_len; cut++)
		refused(off(blob, cut, "dev", "res"), "BTF: offset ");
	memcpy(copy, blob, blob_len);
	copy[0] ^= 1;			/* magic */
	refused(off(copy, blob_len, "dev", "res"),
		"BTF: offset 0: not a BTF header (magic 0xeb9e, version 1)");
	memcpy(copy, blob, blob_len);
	copy[2] = 2;			/* version */
	refused(off(copy, blob_len, "dev", "res"), "version 2");
	memcpy(copy, blob, blob_len);
	copy[24 + 7] = 31;		/* the first type's kind: unknown */
	refused(off(copy, blob_len, "dev", "res"),
		"BTF: offset 24: type 1 of unknown kind 31");
	memcpy(copy, blob, blob_len);
	copy[12] = 0xff;		/* type_len past the end */
	refused(off(copy, blob_len, "dev", "res"),
		"BTF: offset 8: its sections run past its");
	refused(off(NULL, 0, "dev", "res"), "BTF: offset 0: 0 bytes: not BTF");
}
END_TEST

START_TEST(test_file)
{
	char path[] = "/tmp/check_btf.XXXXXX";
	int fd = mkstemp(path);

	build();
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, blob, blob_len), (ssize_t)blob_len);
	close(fd);
	ck_assert_int_eq(btf_file_member_offset(path, "dev", "res", &err), 24);
	ck_assert_int_eq(btf_file_member_offset(path, "dev", "nope", &err),
			 -1);
	ck_assert_msg(strstr(err.msg, path), "no file name in \"%s\"",
		      err.msg);
	unlink(path);
	ck_assert_int_eq(btf_file_member_offset(path, "dev", "res", &err), -1);
	ck_assert_msg(strstr(err.msg, "No such file"), "%s", err.msg);
}
END_TEST

static Suite *btf_suite(void)
{
	Suite *s = suite_create("btf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_offsets);
	tcase_add_test(tc, test_damaged);
	tcase_add_test(tc, test_file);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(btf_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
