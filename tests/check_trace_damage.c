// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Native trace format, damage handling: truncation at every byte, bit
 * flips in every block, header errors, and the periods a damaged file
 * with constraint records counts as lost.  Expected records come from a
 * closed formula (make_period, check_trace_format.h), and block offsets
 * are found by parsing the layout of doc/trace-format.md, not by asking
 * the reader.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "trace-format.h"
#include "check_trace_format.h"

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

static Suite *suite(void)
{
	Suite *s = suite_create("trace_damage");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_truncate_every_byte);
	tcase_add_test(tc, test_bit_flips);
	tcase_add_test(tc, test_header_errors);
	tcase_add_test(tc, test_qos_damage);
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
