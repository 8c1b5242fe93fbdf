/* SPDX-License-Identifier: MIT */
/*
 * cpu.scaling: how a CPU benchmark scales over copies. It runs the
 * benchmark named by `bench` once with one copy and once with `copies`
 * copies at once (one per thread, pinned when --cpu lists CPUs), both
 * through the runner with the run's options, and reports
 *
 *   speedup     aggregate of N copies / one copy
 *   efficiency  speedup / N, in percent: 100% is perfect scaling
 *
 * from the two results' medians of the benchmark's primary metric (for a
 * rate: the aggregate is the sum over the copies). The note gives both
 * figures; the result's interval is from their samples (the standard errors
 * of the two medians' logs added in quadrature, pg_cpu_log_se). copies=0
 * means one copy per CPU: those --cpu lists, else those online.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/bench.h"
#include "core/registry.h"
#include "core/runner.h"
#include "cpu.h"
#include "core/err.h"

static int scaling_check(const struct pg_args *a, char *err, size_t errlen)
{
	const char *id = pg_arg_str(a, "bench");
	const struct pg_bench *b = pg_registry_find(id);
	if (!b || strncmp(id, "cpu.", 4) != 0 || !b->copies_param ||
	    strcmp(b->copies_param, "copies") != 0) {
		return pg_err(err, errlen, "bench=%s: give a cpu.* benchmark that takes copies "
			      "(perfguide list shows them)", id);
	}
	if (!b->metrics[0].higher_is_better)
		return pg_err(err, errlen, "bench=%s: its figure is a time, not a rate to add up", id);
	return 0;
}

static int scaling_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	(void)iters;
	const char *id = pg_arg_str(ctx->args, "bench");
	int64_t n = pg_arg_int(ctx->args, "copies");
	if (n == 0)
		n = ctx->run && ctx->run->ncpus > 0 ? ctx->run->ncpus : sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 2)
		return pg_skip(ctx, "one CPU: nothing to scale over (give copies=N or --cpu with "
			       "several CPUs)");
	char ov[32];
	struct pg_cpu_other one, many;
	int st = pg_cpu_run_other(ctx, id, "copies=1", &one);
	if (st != PG_OK)
		return st;
	snprintf(ov, sizeof(ov), "copies=%lld", (long long)n);
	st = pg_cpu_run_other(ctx, id, ov, &many);
	if (st != PG_OK)
		return st;
	if (!(one.median > 0))
		return pg_error(ctx, "%s gave no figure with one copy", id);
	counts[0] = many.median / one.median / (double)n * 100.0;
	counts[1] = many.median / one.median;
	/* log speedup = log many - log one: both figures' log share its se */
	struct pg_cpu_other both[2] = { one, many };
	double df, se = pg_cpu_log_se(both, (const double[]){ 1, 1 }, 2, &df);
	pg_state_se(ctx, 0, se, df);
	pg_state_se(ctx, 1, se, df);
	const struct pg_bench *b = pg_registry_find(id);
	pg_note(ctx, "%s %s: 1 copy %.6g %s (cv %.1f%%, %d samples), %lld copies %.6g %s (cv %.1f%%, %d samples)",
		id, b->metrics[0].name, one.median, b->metrics[0].unit, one.cv * 100, one.n, (long long)n,
		many.median, b->metrics[0].unit, many.cv * 100, many.n);
	return PG_OK;
}

static const struct pg_param scaling_params[] = {
	{ .name = "bench", .type = PG_P_STR, .def = "cpu.dhrystone",
	  .help = "the cpu.* benchmark to scale (one that takes copies)",
	  .standard = "cpu.dhrystone,cpu.linpack,cpu.nbench.numsort,cpu.nbench.fourier",
	  .full = "cpu.dhrystone,cpu.whetstone,cpu.linpack,cpu.nbench.numsort,"
		  "cpu.nbench.strsort,cpu.nbench.fourier,cpu.nbench.idea,cpu.nbench.lu" },
	{ .name = "copies", .type = PG_P_INT, .def = "0", .min = 0, .max = 1024,
	  .help = "copies at once against one; 0: one per CPU (--cpu's, else online)" },
	{ 0 },
};

static const struct pg_metric scaling_metrics[] = {
	{ "efficiency", "%", PG_VALUE, 1.0, 1, 0 },
	{ "speedup", "x", PG_VALUE, 1.0, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_cpu_scaling = {
	.id = "cpu.scaling",
	.section = &pg_cpu_sec_cpu,
	.title = "Scaling of N copies against one (aggregate / N x single)",
	.params = scaling_params, .metrics = scaling_metrics,
	.once = 1, .check = scaling_check, .step = scaling_step,
	/* one figure a run from a second CPU that a VM's host gives or not:
	 * the efficiency of 15 quick runs on 2 vCPUs, 67% to 108%, a log
	 * standard deviation of 0.15 */
	.run_sd = 0.15,
};
