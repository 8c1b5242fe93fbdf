/* SPDX-License-Identifier: MIT */
/*
 * cpu.nbench.numsort: BYTEmark's numeric sort. One iteration is a heapsort
 * of one array of 8111 longs filled from the reference's generator, the
 * reference's unit ("iterations" = arrays sorted). The reference refills
 * its arrays outside its stopwatch; here the pristine array is copied in
 * inside the timed step (8111 words, about 1% of a sort). The sorted array
 * is checked after every step for order and for holding the same values
 * (sum and xor); every pass sorts the same input, so that checks them all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "bench/cpu/cpu.h"
#include "nbench.h"

#define NUMARRAYSIZE 8111

struct numsort_state {
	long *a, *orig;
	unsigned long sum;
	unsigned long xr;
};

static int numsort_setup(struct pg_ctx *ctx)
{
	struct numsort_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->a = malloc(NUMARRAYSIZE * sizeof(long));
	s->orig = malloc(NUMARRAYSIZE * sizeof(long));
	if (!s->a || !s->orig)
		return pg_error(ctx, "out of memory");
	struct nb_rand r;
	nb_rand_restart(&r);
	for (int i = 0; i < NUMARRAYSIZE; i++) {
		s->orig[i] = nb_rand_next(&r);
		s->sum += (unsigned long)s->orig[i];
		s->xr ^= (unsigned long)s->orig[i];
	}
	return PG_OK;
}

static void numsort_teardown(struct pg_ctx *ctx)
{
	struct numsort_state *s = ctx->priv;
	if (!s)
		return;
	free(s->a);
	free(s->orig);
	free(s);
}

/*
 * The reference's heapsort, step for step, since its comparisons and moves
 * are the workload: node i's children are 2i and 2i + 1, the heap is built
 * from top/2 down to 1, and each round sifts from element 0 before moving
 * the largest to the end. A sift that finds its element in place ends, as
 * the reference's does, by moving i past j and failing the loop's test
 * (a break instead makes 8% fewer instructions than the reference).
 */
static void sift(long *a, size_t i, size_t j)
{
	while (i + i <= j) {
		size_t k = i + i;
		if (k < j && a[k] < a[k + 1])
			k++;
		if (a[i] < a[k]) {
			long t = a[k];
			a[k] = a[i];
			a[i] = t;
			i = k;
		} else {
			i = j + 1;
		}
	}
}

static void heapsort_longs(long *a, size_t n)
{
	size_t top = n - 1;
	for (size_t i = top / 2; i > 0; i--)
		sift(a, i, top);
	for (size_t i = top; i > 0; i--) {
		sift(a, 0, i);
		long t = a[0];
		a[0] = a[i];
		a[i] = t;
	}
}

int pg_nbench_numsort_check(const long *a, size_t n, unsigned long sum, unsigned long xr)
{
	unsigned long s = 0, x = 0;
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && a[i] > a[i + 1])
			return -1;
		s += (unsigned long)a[i];
		x ^= (unsigned long)a[i];
	}
	return s == sum && x == xr ? 0 : -1;
}

static int numsort_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct numsort_state *s = ctx->priv;
	for (uint64_t it = 0; it < iters; it++) {
		memcpy(s->a, s->orig, NUMARRAYSIZE * sizeof(long));
		heapsort_longs(s->a, NUMARRAYSIZE);
	}
	/* Every pass sorts the same input: checking the last one checks all. */
	if (pg_nbench_numsort_check(s->a, NUMARRAYSIZE, s->sum, s->xr) != 0)
		return pg_error(ctx, "numsort: the array came out unsorted or changed");
	counts[0] = (double)iters;
	return PG_OK;
}

static void numsort_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
			  char *buf, size_t len)
{
	(void)b;
	(void)a;
	(void)metric;
	snprintf(buf, len, "numeric_sort (Iterations)");
}

static const struct pg_param numsort_params[] = {
	PG_CPU_COPIES_PARAM,
	{ 0 },
};

static const struct pg_metric numsort_metrics[] = {
	{ "iterations", "iter/s", PG_RATE, 1.0, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_cpu_nbench_numsort = {
	.id = "cpu.nbench.numsort",
	.section = &pg_cpu_sec_nbench,
	.title = "BYTEmark numeric sort (heapsort of 8111 longs)",
	.params = numsort_params, .metrics = numsort_metrics, .copies_param = "copies",
	.setup = numsort_setup, .step = numsort_step, .teardown = numsort_teardown,
	.label = numsort_label,
};
