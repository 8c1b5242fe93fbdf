/* SPDX-License-Identifier: MIT */
/*
 * cpu.nbench.bitfield: BYTEmark's bitfield test: runs of bits in a bitmap of
 * 32768 longs are set, cleared and complemented in turn (operation i % 3),
 * one bit at a time, at offsets and lengths from the reference's generator
 * (offset < 262140, length < 262140 - offset). The reference counts the
 * bits touched: its "iterations" per second are bit operations per second,
 * and so are this benchmark's. One iteration is a fixed list of 48 runs.
 *
 * Checked after every step: the bitmap against one built independently,
 * word by word with masks, for the same number of passes (complementing
 * makes the result depend on whether that number is odd or even).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "bench/cpu/cpu.h"
#include "nbench.h"

#define BITFARRAYSIZE 32768	/* longs in the bitmap */
#define NOPS 48			/* runs per iteration, a multiple of 3 */
#define FILL 0x5555555555555555ULL

typedef unsigned long long word;
#define WBITS 64

struct bitfield_state {
	word *map, *even, *odd;	/* the bitmap; expected after even, odd passes */
	unsigned long off[NOPS], len[NOPS];
	double bits;		/* bits touched per iteration */
};

static void toggle_run(word *map, unsigned long addr, unsigned long n, int val)
{
	while (n--) {
		unsigned long i = addr / WBITS, b = addr % WBITS;
		if (val)
			map[i] |= (word)1 << b;
		else
			map[i] &= ~((word)1 << b);
		addr++;
	}
}

/* Word and bit apart, as in toggle_run: written as one expression, GCC
 * drops the % 64 (x86 masks a shift's count itself) and the loop takes 9
 * instructions a bit where the reference's takes 10. */
static void flip_run(word *map, unsigned long addr, unsigned long n)
{
	while (n--) {
		unsigned long i = addr / WBITS, b = addr % WBITS;
		map[i] ^= (word)1 << b;
		addr++;
	}
}

static void bitfield_pass(const struct bitfield_state *s, word *map)
{
	for (int i = 0; i < NOPS; i++) {
		switch (i % 3) {
		case 0: toggle_run(map, s->off[i], s->len[i], 1); break;
		case 1: toggle_run(map, s->off[i], s->len[i], 0); break;
		case 2: flip_run(map, s->off[i], s->len[i]); break;
		}
	}
}

/* The same runs with whole-word masks: an independent way to the answer. */
static void masked_pass(const struct bitfield_state *s, word *map)
{
	for (int i = 0; i < NOPS; i++) {
		unsigned long a = s->off[i], end = s->off[i] + s->len[i];
		while (a < end) {
			unsigned long w = a / WBITS, lo = a % WBITS;
			unsigned long hi = end - w * WBITS < WBITS ? end - w * WBITS : WBITS;
			word m = (hi - lo == WBITS ? ~(word)0 : (((word)1 << (hi - lo)) - 1)) << lo;
			if (i % 3 == 0)
				map[w] |= m;
			else if (i % 3 == 1)
				map[w] &= ~m;
			else
				map[w] ^= m;
			a = w * WBITS + hi;
		}
	}
}

static int bitfield_setup(struct pg_ctx *ctx)
{
	struct bitfield_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	size_t bytes = BITFARRAYSIZE * sizeof(word);
	s->map = malloc(bytes);
	s->even = malloc(bytes);
	s->odd = malloc(bytes);
	if (!s->map || !s->even || !s->odd)
		return pg_error(ctx, "out of memory");
	struct nb_rand r;
	nb_rand_restart(&r);
	for (int i = 0; i < NOPS; i++) {
		s->off[i] = (unsigned long)abs(nb_rand_next(&r) % 262140);
		s->len[i] = (unsigned long)abs(nb_rand_next(&r) % (int32_t)(262140 - s->off[i]));
		s->bits += (double)s->len[i];
	}
	for (int i = 0; i < BITFARRAYSIZE; i++)
		s->even[i] = FILL;
	masked_pass(s, s->even);
	memcpy(s->odd, s->even, bytes);	/* after one pass */
	masked_pass(s, s->even);	/* after two: every even count */
	return PG_OK;
}

static void bitfield_teardown(struct pg_ctx *ctx)
{
	struct bitfield_state *s = ctx->priv;
	if (!s)
		return;
	free(s->map);
	free(s->even);
	free(s->odd);
	free(s);
}

int pg_nbench_bitfield_check(const word *map, const word *want)
{
	return memcmp(map, want, BITFARRAYSIZE * sizeof(word)) == 0 ? 0 : -1;
}

static int bitfield_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct bitfield_state *s = ctx->priv;
	for (int i = 0; i < BITFARRAYSIZE; i++)
		s->map[i] = FILL;
	for (uint64_t it = 0; it < iters; it++)
		bitfield_pass(s, s->map);
	if (iters > 0 && pg_nbench_bitfield_check(s->map, iters % 2 ? s->odd : s->even) != 0)
		return pg_error(ctx, "bitfield: the bitmap differs from the expected one after %llu "
				"passes", (unsigned long long)iters);
	counts[0] = (double)iters * s->bits;
	return PG_OK;
}

static const struct pg_param bitfield_params[] = {
	PG_CPU_COPIES_PARAM,
	{ 0 },
};

static const struct pg_metric bitfield_metrics[] = {
	{ "iterations", "bitops/s", PG_RATE, 1.0, 1, 0 },
	{ 0 },
};

/* The seed's NBench table has no bitfield row. */
const struct pg_bench pg_cpu_nbench_bitfield = {
	.id = "cpu.nbench.bitfield",
	.section = &pg_cpu_sec_nbench,
	.title = "BYTEmark bitfield operations",
	.params = bitfield_params, .metrics = bitfield_metrics, .copies_param = "copies",
	.setup = bitfield_setup, .step = bitfield_step, .teardown = bitfield_teardown,
};
