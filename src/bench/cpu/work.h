/* SPDX-License-Identifier: MIT */
/*
 * cpu.work.*: perfguide's own CPU workloads, each a kernel of a kind that
 * embedded CPU suites measure (integer list and matrix work, a state
 * machine, an 8x8 DCT, SHA-256, LZ compression, a parser, an FFT, a small
 * neural network, single-precision linear algebra). Each file describes
 * its workload with a struct pg_work; work.c turns that into a benchmark.
 *
 * One iteration is one run() on the same input, so every iteration does the
 * same work. run() returns a checksum of what it computed; after each step
 * the last checksum must be the one the workload knows is right (check()),
 * else the step is an error, never a figure.
 */
#ifndef PG_CPU_WORK_H
#define PG_CPU_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "core/bench.h"

struct pg_work {
	size_t state_size;	/* zeroed, given to every call */
	/* Makes the input; may check the kernel against an independent
	 * computation. 0, or -1 with why set. */
	int (*init)(void *state, char *why, size_t len);
	/* One iteration; the checksum of its result. */
	uint32_t (*run)(void *state);
	/* 0 when sum (and whatever run left in state) is right; else -1, why. */
	int (*check)(void *state, uint32_t sum, char *why, size_t len);
	void (*fini)(void *state);	/* frees what init allocated; may be NULL */
};

int pg_work_setup(struct pg_ctx *ctx);
int pg_work_step(struct pg_ctx *ctx, uint64_t iters, double *counts);
void pg_work_teardown(struct pg_ctx *ctx);
extern const struct pg_param pg_work_params[];
extern const struct pg_metric pg_work_metrics[];

#define PG_WORK_BENCH(ID, TITLE, WORK)                                              \
	{ .id = ID, .title = TITLE, .params = pg_work_params,                       \
	  .section = &pg_cpu_sec_cpu,                                               \
	  .metrics = pg_work_metrics, .copies_param = "copies", .data = WORK,       \
	  .setup = pg_work_setup, .step = pg_work_step,                             \
	  .teardown = pg_work_teardown }

/* check() for a workload whose run() returns a CRC known from init. */
int pg_work_crc_is(uint32_t sum, uint32_t want, char *why, size_t len);

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32) of len bytes, going on
 * from crc (0 to start): the workloads' checksums. */
uint32_t pg_work_crc32(uint32_t crc, const void *buf, size_t len);

/* A small deterministic generator (xorshift32) for the workloads' inputs. */
static inline uint32_t pg_work_rand(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

extern const struct pg_section pg_cpu_sec_cpu;

#endif
