/* SPDX-License-Identifier: MIT */
/*
 * cpu.work.score: one figure for the cpu.work.* workloads: the geometric
 * mean of their iterations per second, each run through the runner with
 * the run's options exactly as when named alone (copies=N runs each with
 * N copies: the multi-core score). A workload that skipped or failed makes
 * the score skip or fail with its reason: there is no score without all
 * of them. It is one sample; the workloads' spread is in their own
 * results, and the note lists their medians. Its interval is from the
 * standard errors of their medians' logs (that of the mean of nine logs).
 */
#include <math.h>
#include <stdio.h>

#include "cpu.h"
#include "work.h"

static const char *const ids[] = {
	"cpu.work.listmat", "cpu.work.state", "cpu.work.dct", "cpu.work.sha256", "cpu.work.lz",
	"cpu.work.parse", "cpu.work.fft", "cpu.work.nnet", "cpu.work.linalg",
};
#define NIDS (sizeof(ids) / sizeof(ids[0]))

double pg_work_geomean(const double *v, int n)
{
	double logsum = 0;
	for (int i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return NAN;
		logsum += log(v[i]);
	}
	return exp(logsum / n);
}

static int score_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	(void)iters;
	double rate[NIDS], w[NIDS];
	struct pg_cpu_other o[NIDS];
	char ov[32];
	snprintf(ov, sizeof(ov), "copies=%lld", (long long)pg_arg_int(ctx->args, "copies"));
	for (size_t i = 0; i < NIDS; i++) {
		int st = pg_cpu_run_other(ctx, ids[i], ov, &o[i]);
		if (st != PG_OK)
			return st;
		rate[i] = o[i].median;
		w[i] = 1.0 / NIDS;
	}
	counts[0] = pg_work_geomean(rate, (int)NIDS);
	if (!isfinite(counts[0]))
		return pg_error(ctx, "a workload gave no rate");
	/* the mean of the nine logs: its se from theirs */
	double df, se = pg_cpu_log_se(o, w, (int)NIDS, &df);
	pg_state_se(ctx, 0, se, df);
	pg_note(ctx, "geometric mean of (iter/s) listmat %.4g state %.4g dct %.4g sha256 %.4g "
		"lz %.4g parse %.4g fft %.4g nnet %.4g linalg %.4g", rate[0], rate[1], rate[2],
		rate[3], rate[4], rate[5], rate[6], rate[7], rate[8]);
	return PG_OK;
}

static const struct pg_metric score_metrics[] = {
	{ "score", "iter/s", PG_VALUE, 1.0, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_cpu_work_score = {
	.id = "cpu.work.score",
	.section = &pg_cpu_sec_cpu,
	.title = "Geometric mean of the cpu.work workloads' iterations per second",
	.params = pg_work_params, .metrics = score_metrics,
	/* It runs the nine workloads again: the quick suite has them alone. */
	.once = 1, .min_suite = PG_IN_STANDARD,
	.step = score_step,
};
