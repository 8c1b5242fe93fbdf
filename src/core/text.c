/* SPDX-License-Identifier: MIT */
#include "text.h"

#include <stdlib.h>
#include <string.h>

size_t pg_utf8_char(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	if (n == 0)
		return 0;
	if (s[0] < 0x80)
		return 1;
	size_t len;
	unsigned lo = 0x80, hi = 0xbf;	/* the second byte's range */
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;	/* no overlong form */
		if (s[0] == 0xed)
			hi = 0x9f;	/* no surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		if (s[0] == 0xf0)
			lo = 0x90;
		if (s[0] == 0xf4)
			hi = 0x8f;	/* nothing above U+10FFFF */
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

int pg_utf8_valid(const char *s, size_t n)
{
	while (n > 0) {
		size_t k = pg_utf8_char(s, n);
		if (k == 0)
			return 0;
		s += k;
		n -= k;
	}
	return 1;
}

size_t pg_utf8_trim(char *s)
{
	size_t n = strlen(s), start = n;
	/* back over continuation bytes to the start of the last character */
	while (start > 0 && n - start < 4 && ((unsigned char)s[start - 1] & 0xc0) == 0x80)
		start--;
	if (start > 0 && (unsigned char)s[start - 1] >= 0xc0)
		start--;
	else if (start == n || ((unsigned char)s[start] & 0xc0) == 0x80)
		return n;	/* ASCII last, or not UTF-8 at all: nothing to cut */
	if (pg_utf8_char(s + start, n - start) == n - start)
		return n;
	s[start] = '\0';
	return start;
}

void pg_text_copy(char *buf, size_t len, const char *s)
{
	if (len == 0)
		return;
	if ((size_t)snprintf(buf, len, "%s", s ? s : "") >= len)
		pg_utf8_trim(buf);
}

char *pg_utf8_dup(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s), at = 0;
	char *out = malloc(3 * n + 1);	/* each byte at most U+FFFD's three */
	while (out && n > 0) {
		size_t k = pg_utf8_char(s, n);
		if (k) {
			memcpy(out + at, s, k);
			at += k;
		} else {
			memcpy(out + at, "\xef\xbf\xbd", 3);
			at += 3;
			k = 1;
		}
		s += k;
		n -= k;
	}
	if (out)
		out[at] = '\0';
	return out;
}

int pg_text_has_control(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	for (; *s; s++)
		if (*s < 0x20 || *s == 0x7f || (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f))
			return 1;
	return 0;
}

/* The next piece of s as it is shown: the character itself, or its escape. */
static size_t term_piece(const char *s, size_t n, char *out, size_t *outlen)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t k = pg_utf8_char(s, n);
	if (k == 1 && u[0] >= 0x20 && u[0] != 0x7f && u[0] != '<') {
		out[0] = s[0];
		*outlen = 1;
	} else if (k == 2 && u[0] == 0xc2 && u[1] <= 0x9f) {
		*outlen = (size_t)snprintf(out, 8, "\\u%04x", u[1]);
	} else if (k >= 2) {
		memcpy(out, s, k);
		*outlen = k;
	} else {
		*outlen = (size_t)snprintf(out, 8, "\\x%02x", u[0]);
		k = 1;
	}
	return k;
}

void pg_term_puts(FILE *f, const char *s)
{
	size_t n = strlen(s);
	char piece[8];
	while (n > 0) {
		size_t plen, k = term_piece(s, n, piece, &plen);
		fwrite(piece, 1, plen, f);
		s += k;
		n -= k;
	}
}

void pg_term_text(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s), at = 0;
	char piece[8];
	if (len == 0)
		return;
	while (n > 0) {
		size_t plen, k = term_piece(s, n, piece, &plen);
		if (at + plen >= len)
			break;
		memcpy(buf + at, piece, plen);
		at += plen;
		s += k;
		n -= k;
	}
	buf[at] = '\0';
}

int pg_json_write_safe(FILE *f, const char *json)
{
	const unsigned char *s = (const unsigned char *)json;
	while (*s) {
		size_t plain = 0;
		while (s[plain] && s[plain] != '<' && s[plain] != 0x7f && !(s[plain] == 0xc2 && s[plain + 1] >= 0x80 &&
									   s[plain + 1] <= 0x9f))
			plain++;
		if (plain && fwrite(s, 1, plain, f) != plain)
			return -1;
		s += plain;
		if (!*s)
			break;
		unsigned c = s[0] == 0xc2 ? s[1] : s[0];
		if (fprintf(f, "\\u%04x", c) < 0)
			return -1;
		s += s[0] == 0xc2 ? 2 : 1;
	}
	return ferror(f) ? -1 : 0;
}
