/* SPDX-License-Identifier: MIT */
/*
 * Procedure call, LMBench's lat_proc proccall: a call to a function the
 * compiler may not inline, which returns its argument, each call needing
 * the result of the one before. One operation is one call and return;
 * nanoseconds (the seed prints microseconds, where it rounds to 0.00).
 */
#include <stdio.h>

#include "cpuops.h"

#define CALLS_PER_ITER 64

__attribute__((noinline)) static uint64_t callee(uint64_t x)
{
	/* Without this the compiler may see the function is pure and call it
	 * once, or not at all. */
	__asm__ volatile("" : "+r"(x));
	return x;
}

static int call_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	(void)ctx;
	uint64_t x = iters;
	for (uint64_t i = 0; i < iters; i++)
		for (int k = 0; k < CALLS_PER_ITER; k++)
			x = callee(x);
	pg_consume(x);
	counts[0] = (double)iters * CALLS_PER_ITER;
	return PG_OK;
}

static void call_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		       char *buf, size_t len)
{
	(void)b;
	(void)a;
	(void)metric;
	snprintf(buf, len, "lat_proc-proccall");
}

static const struct pg_param no_params[] = { { 0 } };
static const struct pg_metric ns_per_call[] = {
	{ "latency", "ns", PG_TIME_PER, 1e9, 0, 0 },
	{ 0 },
};

const struct pg_bench pg_cpu_proccall = {
	.id = "cpu.proccall", .title = "Procedure call and return (lat_proc proccall)",
	.section = &pg_cpuops_sec_lmbench,
	.params = no_params, .metrics = ns_per_call, .step = call_step, .label = call_label,
};
