/* SPDX-License-Identifier: MIT */
/*
 * cpu.nbench.index: BYTEmark's MEMORY, INTEGER and FLOATING-POINT indices,
 * as nbench-byte prints them under "LINUX DATA BELOW": each workload's
 * iterations per second over the baseline machine's (an AMD K6/233, 512 KB
 * L2, gcc 2.7.2.3, libc 5.4.38, Linux 2.0.32: the figures nbench-byte 2.2
 * keeps in nbench0.h as its Linux baseline), then the geometric mean of
 * those ratios over the workloads of each index:
 *
 *   MEMORY:         string sort, bitfield, assignment
 *   INTEGER:        numeric sort, FP emulation, IDEA, Huffman
 *   FLOATING-POINT: Fourier, neural net, LU decomposition
 *
 * The ten workloads are run here through the runner, with the run's
 * options, exactly as cpu.nbench.* are run alone; an index is computed
 * only when all its workloads gave a figure, and a workload that skipped
 * or failed makes the whole result skip or fail with its reason. It is
 * one sample (a fact computed from ten results): the workloads' spread is
 * in their own results, and each index's interval is from the standard
 * errors of its workloads' medians' logs.
 */
#include <math.h>
#include <stdio.h>

#include "core/bench.h"
#include "cpu.h"

enum { IX_MEM, IX_INT, IX_FP, IX_N };

static const struct {
	const char *id;
	double base;		/* the K6/233's iterations per second */
	int index;
} workloads[] = {
	{ "cpu.nbench.numsort", 118.73, IX_INT },
	{ "cpu.nbench.strsort", 14.459, IX_MEM },
	{ "cpu.nbench.bitfield", 27910000, IX_MEM },
	{ "cpu.nbench.fpemu", 9.0314, IX_INT },
	{ "cpu.nbench.fourier", 1565.5, IX_FP },
	{ "cpu.nbench.assign", 1.0132, IX_MEM },
	{ "cpu.nbench.idea", 220.21, IX_INT },
	{ "cpu.nbench.huffman", 112.93, IX_INT },
	{ "cpu.nbench.nnet", 1.4799, IX_FP },
	{ "cpu.nbench.lu", 26.732, IX_FP },
};
#define NW (sizeof(workloads) / sizeof(workloads[0]))

double pg_nbench_index_of(int which, const double *rates)
{
	double logsum = 0;
	int n = 0;
	for (size_t i = 0; i < NW; i++)
		if (workloads[i].index == which) {
			if (!(rates[i] > 0))
				return NAN;
			logsum += log(rates[i] / workloads[i].base);
			n++;
		}
	return exp(logsum / n);
}

/* Index k is the mean of its workloads' logs (less the baseline's): its
 * standard error from theirs. */
static void index_se(struct pg_ctx *ctx, int k, const struct pg_cpu_other *o)
{
	double w[NW];
	int n = 0;
	for (size_t i = 0; i < NW; i++)
		n += workloads[i].index == k;
	for (size_t i = 0; i < NW; i++)
		w[i] = workloads[i].index == k ? 1.0 / n : 0;
	double df, se = pg_cpu_log_se(o, w, (int)NW, &df);
	pg_state_se(ctx, k, se, df);
}

static int index_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	(void)iters;
	double rates[NW];
	struct pg_cpu_other o[NW];
	for (size_t i = 0; i < NW; i++) {
		int st = pg_cpu_run_other(ctx, workloads[i].id, NULL, &o[i]);
		if (st != PG_OK)
			return st;
		rates[i] = o[i].median;
	}
	for (int k = 0; k < IX_N; k++) {
		counts[k] = pg_nbench_index_of(k, rates);
		if (!isfinite(counts[k]))
			return pg_error(ctx, "a BYTEmark workload gave no rate");
		index_se(ctx, k, o);
	}
	pg_note(ctx, "against the AMD K6/233 baseline; medians (iter/s): numsort %.4g strsort %.4g "
		"bitfield %.4g fpemu %.4g fourier %.4g assign %.4g idea %.4g huffman %.4g "
		"nnet %.4g lu %.4g", rates[0], rates[1], rates[2], rates[3], rates[4], rates[5],
		rates[6], rates[7], rates[8], rates[9]);
	return PG_OK;
}

static const struct pg_param index_params[] = {
	{ 0 },
};

static const struct pg_metric index_metrics[] = {
	{ "mem_index", "index", PG_VALUE, 1.0, 1, 0 },
	{ "int_index", "index", PG_VALUE, 1.0, 1, 0 },
	{ "fp_index", "index", PG_VALUE, 1.0, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_cpu_nbench_index = {
	.id = "cpu.nbench.index",
	.section = &pg_cpu_sec_nbench,
	.title = "BYTEmark memory, integer and floating-point indices (AMD K6/233 = 1)",
	.params = index_params, .metrics = index_metrics,
	/* It runs the ten workloads again: the quick suite has them alone. */
	.once = 1, .min_suite = PG_IN_STANDARD,
	.step = index_step,
};
