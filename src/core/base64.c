/* SPDX-License-Identifier: MIT */
#include "base64.h"

#include <string.h>

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

long pg_base64_encode_file(FILE *in, FILE *out)
{
	unsigned char b[57];	/* 57 bytes: one line of 76 characters */
	long total = 0;
	size_t n;
	while ((n = fread(b, 1, sizeof(b), in)) > 0) {
		char line[80];
		size_t o = 0;
		for (size_t i = 0; i < n; i += 3) {
			unsigned v = (unsigned)b[i] << 16 | (i + 1 < n ? (unsigned)b[i + 1] << 8 : 0) |
				     (i + 2 < n ? b[i + 2] : 0);
			line[o++] = alphabet[v >> 18 & 63];
			line[o++] = alphabet[v >> 12 & 63];
			line[o++] = i + 1 < n ? alphabet[v >> 6 & 63] : '=';
			line[o++] = i + 2 < n ? alphabet[v & 63] : '=';
		}
		line[o++] = '\n';
		if (fwrite(line, 1, o, out) != o)
			return -1;
		total += (long)n;
	}
	return ferror(in) ? -1 : total;
}

size_t pg_base64_decode(struct pg_base64_decoder *d, const char *s, size_t len, unsigned char *out)
{
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		if (c == '=') {
			d->ended = 1;
			continue;
		}
		const char *p = c ? strchr(alphabet, c) : NULL;
		if (!p || d->ended) {
			d->bad = 1;
			continue;
		}
		d->bits = (d->bits << 6 | (unsigned)(p - alphabet)) & 0xffffff;
		d->nbits += 6;
		if (d->nbits >= 8) {
			d->nbits -= 8;
			out[o++] = (unsigned char)(d->bits >> d->nbits);
		}
	}
	return o;
}
