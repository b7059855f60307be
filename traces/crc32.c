// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CRC-32 (IEEE 802.3: reflected polynomial 0xEDB88320, initial value and
 * final XOR 0xFFFFFFFF), computed eight bytes at a time ("slice-by-8"):
 * table k maps a byte to its CRC contribution when it is followed by k
 * zero bytes, so eight table lookups fold in eight input bytes at once.
 * The tables are built once at program start.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

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

uint32_t idl_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t a, b;

	crc = ~crc;
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
	return ~crc;
}
