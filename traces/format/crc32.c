// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CRC-32 (IEEE 802.3: reflected polynomial 0xEDB88320, initial value and
 * final XOR 0xFFFFFFFF), computed eight bytes at a time ("slice-by-8"):
 * table k maps a byte to its CRC contribution when it is followed by k
 * zero bytes, so eight table lookups fold in eight input bytes at once.
 * The tables are built once at program start.
 *
 * On x86-64 CPUs with carry-less multiplication (PCLMULQDQ), the bulk of
 * a buffer is folded 64 bytes at a time instead (the method of Intel's
 * white paper "Fast CRC Computation for Generic Polynomials Using
 * PCLMULQDQ Instruction", 2009), about eight times as fast: replay
 * checks every block it reads, and the tables took a fifth of its time
 * with the cheaper governors (doc/performance.md).  Where the CPU has
 * the 512-bit form (VPCLMULQDQ with AVX-512), four 512-bit lanes fold
 * 256 bytes at a time, faster again (doc/history/performance.md, seventh
 * round).  All give the same CRC; tests/check_trace_format compares
 * them.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define CRC_CLMUL 1
#endif

#include <stdbool.h>

#include "trace.h"

#define CRC_POLY	0xEDB88320U

static uint32_t crc_tab[8][256];

__attribute__((constructor))
static void crc32_init(void)
{
	uint32_t c;
	int i, k;

	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ CRC_POLY : c >> 1;
		crc_tab[0][i] = c;
	}
	for (i = 0; i < 256; i++) {
		c = crc_tab[0][i];
		for (k = 1; k < 8; k++) {
			c = (c >> 8) ^ crc_tab[0][c & 0xff];
			crc_tab[k][i] = c;
		}
	}
}

static inline uint32_t load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* @crc is the running (inverted) value */
static uint32_t crc_slice8(uint32_t crc, const uint8_t *p, size_t len)
{
	uint32_t a, b;

	while (len >= 8) {
		a = load_le32(p) ^ crc;
		b = load_le32(p + 4);
		crc = crc_tab[7][a & 0xff] ^ crc_tab[6][(a >> 8) & 0xff] ^
		      crc_tab[5][(a >> 16) & 0xff] ^ crc_tab[4][a >> 24] ^
		      crc_tab[3][b & 0xff] ^ crc_tab[2][(b >> 8) & 0xff] ^
		      crc_tab[1][(b >> 16) & 0xff] ^ crc_tab[0][b >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ crc_tab[0][(crc ^ *p++) & 0xff];
	return crc;
}

uint32_t idl_crc32_tables(uint32_t crc, const void *buf, size_t len)
{
	return ~crc_slice8(~crc, buf, len);
}

#ifdef CRC_CLMUL
/*
 * Constants for the reflected polynomial, each x^n mod P(x) bit-reflected
 * and shifted left by one (the white paper's k1..k6, mu): folding across
 * 512 bits (k1, k2), across 128 bits (k3, k4), 64 to 32 bits (k5), and
 * Barrett's reduction (P(x) and mu = x^64 / P(x)).
 */
#define K1	0x154442bd4ULL
#define K2	0x1c6e41596ULL
#define K3	0x1751997d0ULL
#define K4	0x0ccaa009eULL
#define K5	0x163cd6124ULL
#define POLY	0x1db710641ULL
#define MU	0x1f7011641ULL

/* @x times x^(distance) mod P, plus the 128 bits @next that follow */
__attribute__((target("pclmul,sse2")))
static inline __m128i fold(__m128i x, __m128i k, __m128i next)
{
	return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
					   _mm_clmulepi64_si128(x, k, 0x11)),
			     next);
}

#define LOAD(p)	_mm_loadu_si128((const __m128i *)(p))

/*
 * The end of a fold: four 128-bit remainders of the last 64 bytes folded
 * into one, then the 16-byte blocks left (@len < 64, a multiple of 16),
 * then down to 32 bits.
 */
__attribute__((target("pclmul,sse2")))
static inline uint32_t crc_clmul_end(__m128i x0, __m128i x1, __m128i x2,
				     __m128i x3, const uint8_t *p, size_t len)
{
	const __m128i k34 = _mm_set_epi64x(K4, K3);
	const __m128i k5 = _mm_set_epi64x(0, K5), pmu = _mm_set_epi64x(MU, POLY);
	const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
	__m128i t;

	x0 = fold(fold(fold(x0, k34, x1), k34, x2), k34, x3);
	for (; len >= 16; p += 16, len -= 16)
		x0 = fold(x0, k34, LOAD(p));
	/* 128 bits to 64, then to 32, then Barrett's reduction */
	x0 = _mm_xor_si128(_mm_clmulepi64_si128(x0, k34, 0x10),
			   _mm_srli_si128(x0, 8));
	x0 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x0, low32), k5,
						0x00),
			   _mm_srli_si128(x0, 4));
	t = _mm_clmulepi64_si128(_mm_and_si128(x0, low32), pmu, 0x10);
	t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), pmu, 0x00);
	return (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(_mm_xor_si128(t, x0),
							  4));
}

/* @len >= 64, a multiple of 16; @crc the running (inverted) value */
__attribute__((target("pclmul,sse2")))
static uint32_t crc_clmul(uint32_t crc, const uint8_t *p, size_t len)
{
	const __m128i k12 = _mm_set_epi64x(K2, K1);
	__m128i x0, x1, x2, x3;

	x0 = _mm_xor_si128(LOAD(p), _mm_cvtsi32_si128((int)crc));
	x1 = LOAD(p + 16);
	x2 = LOAD(p + 32);
	x3 = LOAD(p + 48);
	for (p += 64, len -= 64; len >= 64; p += 64, len -= 64) {
		x0 = fold(x0, k12, LOAD(p));
		x1 = fold(x1, k12, LOAD(p + 16));
		x2 = fold(x2, k12, LOAD(p + 32));
		x3 = fold(x3, k12, LOAD(p + 48));
	}
	return crc_clmul_end(x0, x1, x2, x3, p, len);
}

#if defined(__GNUC__) && (__GNUC__ >= 10 || defined(__clang__))
#define CRC_VPCLMUL 1
/* folding across 2048 bits: x^(2048 + 32) and x^(2048 - 32) mod P, in the
 * form of K1 and K2 */
#define K2048_LO	0x11542778aULL
#define K2048_HI	0x1322d1430ULL

#define VFOLD_TARGET	"avx512f,vpclmulqdq,pclmul,sse2"

/* fold() on four 128-bit lanes at once */
__attribute__((target(VFOLD_TARGET)))
static inline __m512i vfold(__m512i x, __m512i k, __m512i next)
{
	/* 0x96: a ^ b ^ c */
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00),
					 _mm512_clmulepi64_epi128(x, k, 0x11),
					 next, 0x96);
}

#define VLOAD(p)	_mm512_loadu_si512((const void *)(p))

/* @len >= 256, a multiple of 16; @crc the running (inverted) value */
__attribute__((target(VFOLD_TARGET)))
static uint32_t crc_vpclmul(uint32_t crc, const uint8_t *p, size_t len)
{
	const __m512i k2048 = _mm512_broadcast_i32x4(
		_mm_set_epi64x(K2048_HI, K2048_LO));
	const __m512i k512 = _mm512_broadcast_i32x4(_mm_set_epi64x(K2, K1));
	__m512i z0, z1, z2, z3;

	z0 = _mm512_xor_si512(VLOAD(p), _mm512_zextsi128_si512(
					 _mm_cvtsi32_si128((int)crc)));
	z1 = VLOAD(p + 64);
	z2 = VLOAD(p + 128);
	z3 = VLOAD(p + 192);
	for (p += 256, len -= 256; len >= 256; p += 256, len -= 256) {
		z0 = vfold(z0, k2048, VLOAD(p));
		z1 = vfold(z1, k2048, VLOAD(p + 64));
		z2 = vfold(z2, k2048, VLOAD(p + 128));
		z3 = vfold(z3, k2048, VLOAD(p + 192));
	}
	/* each lane of z0 is 512 bits ahead of its lane in z1, and so on */
	z0 = vfold(vfold(vfold(z0, k512, z1), k512, z2), k512, z3);
	for (; len >= 64; p += 64, len -= 64)
		z0 = vfold(z0, k512, VLOAD(p));
	return crc_clmul_end(_mm512_extracti32x4_epi32(z0, 0),
			     _mm512_extracti32x4_epi32(z0, 1),
			     _mm512_extracti32x4_epi32(z0, 2),
			     _mm512_extracti32x4_epi32(z0, 3), p, len);
}
#endif

static bool have_clmul, have_vpclmul;

__attribute__((constructor))
static void crc32_clmul_init(void)
{
	__builtin_cpu_init();
	have_clmul = __builtin_cpu_supports("pclmul") &&
		     __builtin_cpu_supports("sse2");
#ifdef CRC_VPCLMUL
	/* (libgcc checks that the kernel saves the AVX-512 registers) */
	have_vpclmul = have_clmul && __builtin_cpu_supports("avx512f") &&
		       __builtin_cpu_supports("vpclmulqdq");
#endif
}
#endif

uint32_t idl_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	crc = ~crc;
#ifdef CRC_CLMUL
	if (have_clmul && len >= 64) {
		size_t bulk = len & ~(size_t)15;

#ifdef CRC_VPCLMUL
		if (have_vpclmul && bulk >= 256)
			crc = crc_vpclmul(crc, p, bulk);
		else
#endif
			crc = crc_clmul(crc, p, bulk);
		p += bulk;
		len -= bulk;
	}
#endif
	return ~crc_slice8(crc, p, len);
}
