/* SPDX-License-Identifier: MIT */
/*
 * Memory bandwidth, the nine access patterns of LMBench's bw_mem.
 *
 * As bw_mem does, every pattern walks the buffer in 512-byte blocks of 4-byte
 * words and counts the buffer's size once per pass, whatever it reads or
 * writes: rd reads one word in four (every 16 bytes, so every cache line),
 * frd every word; wr and fwr write likewise; rdwr reads then writes one word
 * in four in place; cp and fcp copy one word in four or every word to a
 * second buffer; bzero is memset and bcopy is memmove of the whole buffer.
 * So a copy of N bytes reads N and writes N but counts N: half of what
 * STREAM's copy counts for the same traffic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "core/params.h"
#include "mem.h"

#define BLOCK 512			/* bytes per unrolled block, as bw_mem */
#define WORDS (BLOCK / (int)sizeof(int))

enum op { RD, WR, RDWR, CP, FRD, FWR, FCP, BZERO, BCOPY };

struct bw_op {
	enum op op;
	const char *name;		/* bw_mem's name for it */
	int two_buffers;
};

struct bw_state {
	int *src, *dst;
	size_t blocks;			/* whole 512-byte blocks in the buffer */
	size_t bytes;
};

/* Tells the compiler memory changed, so repeated passes are not merged. */
#define CLOBBER() __asm__ volatile("" : : : "memory")

static int bw_setup(struct pg_ctx *ctx)
{
	const struct bw_op *op = ctx->bench->data;
	size_t size = (size_t)pg_arg_int(ctx->args, "size");
	struct bw_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->blocks = size / BLOCK;
	s->bytes = op->op == BZERO || op->op == BCOPY ? size : s->blocks * BLOCK;
	s->src = pg_mem_alloc(size);
	if (op->two_buffers)
		s->dst = pg_mem_alloc(size);
	if (!s->src || (op->two_buffers && !s->dst))
		return pg_error(ctx, "cannot allocate 2 x %zu bytes", size);
	/* First touch in this copy's thread puts the pages near its CPU. Zeros,
	 * as bw_mem's: a pass's sum is then at most a word count. */
	memset(s->src, 0, size);
	if (s->dst)
		memset(s->dst, 0, size);
	pg_mem_mark_tenants(ctx, (uint64_t)size * (op->two_buffers ? 2 : 1) * (uint64_t)ctx->copies);
	return PG_OK;
}

static void bw_teardown(struct pg_ctx *ctx)
{
	struct bw_state *s = ctx->priv;
	if (!s)
		return;
	free(s->src);
	free(s->dst);
	free(s);
}

/*
 * Each kernel walks the buffer a 512-byte block at a time, the block written
 * out access by access as bw_mem's are, in bw_mem's expression shapes, so the
 * compiler makes the same loops of them: the sums are signed ints added in
 * one serial chain per pass (an unsigned sum may be regrouped into a chain
 * per block, and then blocks overlap: rdwr ran 1.22x bw_mem's), the copies
 * stay scalar 4-byte moves (bw_mem's source and destination may alias, so
 * nothing vectorises them; perfguide's restrict-qualified copy did, and fcp
 * ran at 2.06x bw_mem's at 1m), and fwr is one chained assignment, which
 * GCC does turn into vector stores for both. A kernel does one pass and
 * returns its sum, so a long sample cannot overflow it.
 */
#define SEQ4(m, i, s) m(i) m((i) + (s)) m((i) + 2 * (s)) m((i) + 3 * (s))
#define SEQ16(m, i, s) \
	SEQ4(m, i, s) SEQ4(m, (i) + 4 * (s), s) SEQ4(m, (i) + 8 * (s), s) SEQ4(m, (i) + 12 * (s), s)
#define SEQ32(m, i, s) SEQ16(m, i, s) SEQ16(m, (i) + 16 * (s), s)
#define SEQ128(m, i, s) \
	SEQ32(m, i, s) SEQ32(m, (i) + 32 * (s), s) SEQ32(m, (i) + 64 * (s), s) \
	SEQ32(m, (i) + 96 * (s), s)

#define EACH_BLOCK(p, base, blocks) \
	for (int *p = (base), *end_ = (base) + (blocks) * WORDS; p < end_; p += WORDS)

#define TERM(i) p[i] +
#define STORE1(i) p[i] = 1;
#define CHAIN(i) p[i] =
#define RDWR(i) sum += p[i]; p[i] = 1;
#define COPY(i) dst[i] = p[i];

static int k_rd(int *buf, size_t blocks)
{
	int sum = 0;
	EACH_BLOCK(p, buf, blocks)
		sum += SEQ32(TERM, 0, 4) 0;
	return sum;
}

static int k_frd(int *buf, size_t blocks)
{
	int sum = 0;
	EACH_BLOCK(p, buf, blocks)
		sum += SEQ128(TERM, 0, 1) 0;
	return sum;
}

static void k_wr(int *buf, size_t blocks)
{
	EACH_BLOCK(p, buf, blocks) {
		SEQ32(STORE1, 0, 4)
	}
}

static void k_fwr(int *buf, size_t blocks)
{
	EACH_BLOCK(p, buf, blocks) {
		SEQ128(CHAIN, 0, 1) 1;
	}
}

static int k_rdwr(int *buf, size_t blocks)
{
	int sum = 0;
	EACH_BLOCK(p, buf, blocks) {
		SEQ32(RDWR, 0, 4)
	}
	return sum;
}

static void k_cp(int *src, int *dst, size_t blocks)
{
	EACH_BLOCK(p, src, blocks) {
		SEQ32(COPY, 0, 4)
		dst += WORDS;
	}
}

static void k_fcp(int *src, int *dst, size_t blocks)
{
	EACH_BLOCK(p, src, blocks) {
		SEQ128(COPY, 0, 1)
		dst += WORDS;
	}
}

static int bw_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	const struct bw_op *op = ctx->bench->data;
	struct bw_state *s = ctx->priv;
	int *src = s->src, *dst = s->dst;
	size_t blocks = s->blocks, bytes = s->bytes;
	unsigned sum = 0;

	for (uint64_t it = 0; it < iters; it++) {
		switch (op->op) {
		case RD: sum += (unsigned)k_rd(src, blocks); break;
		case FRD: sum += (unsigned)k_frd(src, blocks); break;
		case WR: k_wr(src, blocks); break;
		case FWR: k_fwr(src, blocks); break;
		case RDWR: sum += (unsigned)k_rdwr(src, blocks); break;
		case CP: k_cp(src, dst, blocks); break;
		case FCP: k_fcp(src, dst, blocks); break;
		case BZERO: memset(src, 0, bytes); break;
		case BCOPY: memmove(dst, src, bytes); break;
		}
		CLOBBER();
	}
	pg_consume(sum);
	counts[0] = (double)bytes * (double)iters;
	return PG_OK;
}

/* The seed guide's row: bw_mem-fcp-8mb. */
static void bw_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		     char *buf, size_t len)
{
	const struct bw_op *op = b->data;
	char size[32];
	(void)metric;
	pg_format_size(pg_arg_int(a, "size"), size, sizeof(size));
	snprintf(buf, len, "bw_mem-%s-%sb", op->name, size);
}

static const struct pg_param bw_params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "8m", .min = BLOCK, .mem_factor = 2,
	  .help = "bytes per buffer (cp, fcp and bcopy use two)",
	  .quick = "1m,8m,16m", .standard = "1m,2m,4m,8m,16m",
	  .full = "512k,1m,2m,4m,8m,16m,32m,64m,128m" },
	{ .name = "threads", .type = PG_P_INT, .def = "1", .min = 1, .max = 1024,
	  .help = "copies running at once, each on its own buffers; bandwidths add up" },
	{ 0 },
};

static const struct pg_metric bw_metrics[] = {
	{ "bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ 0 },
};

#define BW_BENCH(var, opc, nm, two, what)                                        \
	static const struct bw_op var##_op = { opc, nm, two };                  \
	const struct pg_bench pg_mem_bw_##var = {                               \
		.id = "mem.bw." nm,                                             \
		.section = &pg_mem_sec_lmbench,                                 \
		.title = "Memory bandwidth, " what " (bw_mem " nm ")",          \
		.params = bw_params, .metrics = bw_metrics,                     \
		.copies_param = "threads", .data = &var##_op,                   \
		.setup = bw_setup, .step = bw_step, .teardown = bw_teardown,    \
		.label = bw_label,                    \
	}

BW_BENCH(rd, RD, "rd", 0, "read one word in four");
BW_BENCH(wr, WR, "wr", 0, "write one word in four");
BW_BENCH(rdwr, RDWR, "rdwr", 0, "read then write one word in four");
BW_BENCH(cp, CP, "cp", 1, "copy one word in four");
BW_BENCH(frd, FRD, "frd", 0, "read every word");
BW_BENCH(fwr, FWR, "fwr", 0, "write every word");
BW_BENCH(fcp, FCP, "fcp", 1, "copy every word");
BW_BENCH(bzero, BZERO, "bzero", 0, "memset");
BW_BENCH(bcopy, BCOPY, "bcopy", 1, "memmove");
