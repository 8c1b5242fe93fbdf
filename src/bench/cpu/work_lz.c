/* SPDX-License-Identifier: MIT */
/*
 * cpu.work.lz: LZ77-style compression and decompression of 32 KB of
 * generated text (words drawn with a skewed distribution, so it repeats
 * as prose does). The compressor hashes the next 4 bytes to find the last
 * place they occurred, extends the match, and writes tokens of a literal
 * run length, the literals, a match length and a 16-bit offset (a format
 * in the manner of LZ4, perfguide's own); the decompressor copies
 * literals and matches back. One iteration is one compression and one
 * decompression. Hash lookups, unpredictable branches, byte copies.
 *
 * Checked on every step: the decompressed text equals the original, the
 * compressed size is what setup found (and smaller than the text).
 */
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "work.h"

#define TEXT 32768
#define HBITS 12
#define MINMATCH 4

struct lz_work {
	uint8_t text[TEXT];
	uint8_t comp[TEXT + TEXT / 64 + 64];
	uint8_t back[TEXT + 8];
	uint16_t table[1 << HBITS];
	size_t clen, want_clen, blen;
};

static uint32_t hash4(const uint8_t *p)
{
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	return (v * 2654435761u) >> (32 - HBITS);
}

/* A length in a token nibble, 15 meaning "more bytes follow". */
static uint8_t *put_len(uint8_t *o, size_t n)
{
	for (n -= 15; n >= 255; n -= 255)
		*o++ = 255;
	*o++ = (uint8_t)n;
	return o;
}

static size_t compress(struct lz_work *s)
{
	const uint8_t *in = s->text, *end = s->text + TEXT, *lit = in;
	uint8_t *o = s->comp;
	memset(s->table, 0, sizeof(s->table));
	const uint8_t *p = in + 1;
	while (p + MINMATCH <= end - 8) {
		uint32_t h = hash4(p);
		const uint8_t *ref = in + s->table[h];
		s->table[h] = (uint16_t)(p - in);
		if (ref >= p || p - ref > 65535 || memcmp(ref, p, MINMATCH) != 0) {
			p++;
			continue;
		}
		size_t m = MINMATCH;
		while (p + m < end - 8 && ref[m] == p[m])
			m++;
		size_t nlit = (size_t)(p - lit);
		uint8_t *tok = o++;
		*tok = (uint8_t)((nlit < 15 ? nlit : 15) << 4 | (m - MINMATCH < 15 ? m - MINMATCH : 15));
		if (nlit >= 15)
			o = put_len(o, nlit);
		memcpy(o, lit, nlit);
		o += nlit;
		size_t off = (size_t)(p - ref);
		*o++ = (uint8_t)off;
		*o++ = (uint8_t)(off >> 8);
		if (m - MINMATCH >= 15)
			o = put_len(o, m - MINMATCH);
		p += m;
		lit = p;
	}
	/* the last literals, with no match after them */
	size_t nlit = (size_t)(end - lit);
	*o++ = (uint8_t)((nlit < 15 ? nlit : 15) << 4);
	if (nlit >= 15)
		o = put_len(o, nlit);
	memcpy(o, lit, nlit);
	o += nlit;
	return (size_t)(o - s->comp);
}

static size_t get_len(const uint8_t **p)
{
	size_t n = 15;
	uint8_t b;
	do
		n += b = *(*p)++;
	while (b == 255);
	return n;
}

/* Returns the decompressed length, or 0 on a malformed stream. */
static size_t decompress(struct lz_work *s)
{
	const uint8_t *p = s->comp, *end = s->comp + s->clen;
	uint8_t *o = s->back, *oend = s->back + TEXT;
	while (p < end) {
		uint8_t tok = *p++;
		size_t nlit = tok >> 4;
		if (nlit == 15)
			nlit = get_len(&p);
		if (nlit > (size_t)(end - p) || nlit > (size_t)(oend - o))
			return 0;
		memcpy(o, p, nlit);
		o += nlit;
		p += nlit;
		if (p >= end)
			break;
		size_t off = p[0] | (size_t)p[1] << 8;
		p += 2;
		size_t m = (tok & 15) + MINMATCH;
		if ((tok & 15) == 15)
			m = get_len(&p) + MINMATCH;
		if (off == 0 || off > (size_t)(o - s->back) || m > (size_t)(oend - o))
			return 0;
		const uint8_t *ref = o - off;
		for (size_t i = 0; i < m; i++)	/* may overlap: byte by byte */
			o[i] = ref[i];
		o += m;
	}
	return (size_t)(o - s->back);
}

static uint32_t lz_run(void *p)
{
	struct lz_work *s = p;
	s->clen = compress(s);
	s->blen = decompress(s);
	return (uint32_t)s->clen;
}

static int lz_init(void *p, char *why, size_t len)
{
	(void)why;
	(void)len;
	struct lz_work *s = p;
	static const char *const words[] = {
		"the", "of", "and", "a", "to", "in", "is", "board", "memory", "cache", "clock",
		"latency", "bandwidth", "kernel", "driver", "interrupt", "buffer", "thread",
		"benchmark", "measure", "result", "sample", "median", "processor", "core",
		"frequency", "governor", "temperature", "voltage", "throughput", "packet",
		"network", "storage", "controller", "register", "instruction", "pipeline",
	};
	const size_t nw = sizeof(words) / sizeof(words[0]);
	uint32_t r = 4242;
	size_t n = 0;
	while (n < TEXT) {
		uint32_t v = pg_work_rand(&r);
		/* low indices far more often: the minimum of two draws */
		size_t a = v % nw, b = (v >> 8) % nw, w = a < b ? a : b;
		const char *word = words[w];
		for (size_t i = 0; word[i] && n < TEXT; i++)
			s->text[n++] = (uint8_t)word[i];
		if (n < TEXT)
			s->text[n++] = (v >> 16) % 11 ? ' ' : ((v >> 20) % 2 ? '.' : '\n');
	}
	lz_run(s);
	s->want_clen = s->clen;
	return 0;
}

static int lz_check(void *p, uint32_t sum, char *why, size_t len)
{
	struct lz_work *s = p;
	(void)sum;
	if (s->blen != TEXT || memcmp(s->back, s->text, TEXT) != 0) {
		snprintf(why, len, "decompressed %zu bytes that differ from the %d of the text",
			 s->blen, TEXT);
		return -1;
	}
	if (s->clen != s->want_clen || s->clen >= TEXT) {
		snprintf(why, len, "compressed to %zu bytes, setup's run to %zu", s->clen, s->want_clen);
		return -1;
	}
	return 0;
}

static const struct pg_work lz_work = {
	.state_size = sizeof(struct lz_work),
	.init = lz_init, .run = lz_run, .check = lz_check,
};

const struct pg_bench pg_cpu_work_lz =
	PG_WORK_BENCH("cpu.work.lz", "LZ77-style compression and decompression of 32 KB of text",
		      &lz_work);
