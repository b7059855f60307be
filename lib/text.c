// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Control characters, invalid UTF-8 and spreadsheet formulas (text.h).
 */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "text.h"

/* Length of the valid UTF-8 sequence at @s, or 0 (RFC 3629). */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned int c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	c = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return n;
}

int idl_text_clean(char *s)
{
	unsigned char *p = (unsigned char *)s;
	int bad = 0;
	size_t n;

	while (*p) {
		n = utf8_len(p);
		if (!n || *p < 0x20 || *p == 0x7f) {
			*p++ = '?';
			bad++;
			continue;
		}
		p += n;
	}
	return bad;
}

json_t *idl_json_string(const char *s)
{
	static bool said;
	const unsigned char *p = (const unsigned char *)s;
	char *buf, *w;
	json_t *j;
	size_t n;

	j = json_string(s);
	if (j)
		return j;
	/* each bad byte takes at most 3 bytes (U+FFFD) */
	buf = malloc(strlen(s) * 3 + 1);
	if (!buf)
		return NULL;
	for (w = buf; *p; ) {
		n = utf8_len(p);
		if (n) {
			memcpy(w, p, n);
			w += n;
			p += n;
		} else {
			memcpy(w, "\xef\xbf\xbd", 3);
			w += 3;
			p++;
		}
	}
	*w = '\0';
	j = json_string(buf);
	free(buf);
	if (!said)
		idl_warn("text that is not valid UTF-8 written to JSON with "
			 "U+FFFD in place of the bad bytes");
	said = true;
	return j;
}

void idl_csv_text(FILE *f, const char *s, bool always_quote)
{
	bool formula = *s && strchr("=+-@\t\r", *s);

	if (!always_quote && !formula && !strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

json_t *idl_json_number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}
