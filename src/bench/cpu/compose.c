/* SPDX-License-Identifier: MIT */
/*
 * Benchmarks made of other benchmarks (the BYTEmark indices, the scaling
 * of N copies against one, the cpu.work score) run those through the
 * runner, with this run's options, exactly as if they had been named on
 * the command line: the runner calibrates and times them, the composite
 * only combines their medians, and states how well that one figure is
 * known from their samples (pg_cpu_log_se, pg_state_se).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/params.h"
#include "core/registry.h"
#include "core/runner.h"
#include "core/stats.h"
#include "cpu.h"

int pg_cpu_run_other(struct pg_ctx *ctx, const char *id, const char *override,
		     struct pg_cpu_other *out)
{
	const struct pg_bench *b = pg_registry_find(id);
	if (!b)
		return pg_error(ctx, "%s is not in this build", id);
	struct pg_override ov;
	int nov = 0;
	char err[PG_MSG_LEN];
	if (override) {
		if (pg_override_parse(override, &ov, err, sizeof(err)) != 0)
			return pg_error(ctx, "%s: %s", id, err);
		nov = 1;
	}
	struct pg_args *all = NULL;
	int n = 0;
	if (pg_sweep(b, PG_SUITE_NONE, &ov, nov, 0, &all, &n, err, sizeof(err)) != 0)
		return pg_error(ctx, "%s: %s", id, err);
	if (n != 1) {
		free(all);
		return pg_error(ctx, "%s: %s is not one set of parameters", id, override);
	}
	/* Called outside a run (a test): one short sample. */
	struct pg_run_opts o = { .runs = 1, .min_time = 0.01 };
	if (ctx->run)
		o = *ctx->run;
	struct pg_result r;
	int st = pg_run_bench(b, &all[0], &o, &r);
	if (st == PG_OK) {
		memset(out, 0, sizeof(*out));
		out->median = r.stats[0].median;
		out->cv = r.stats[0].cv;
		out->n = r.nsamples;
		out->se = pg_log_median_se(r.values[0], (size_t)r.nsamples);
		out->copies = r.copies;
	} else {
		/* its reason, prefixed with which benchmark, cut to fit */
		int k = snprintf(ctx->msg, sizeof(ctx->msg), "%s: ", id);
		if (k > 0 && (size_t)k < sizeof(ctx->msg)) {
			size_t room = sizeof(ctx->msg) - 1 - (size_t)k;
			size_t len = strnlen(r.reason, room);
			memcpy(ctx->msg + k, r.reason, len);
			ctx->msg[(size_t)k + len] = 0;
		}
	}
	pg_result_free(&r);
	free(all);
	return st;
}

double pg_cpu_log_se(const struct pg_cpu_other *o, const double *w, int k, double *df)
{
	double var = 0, den = 0;
	*df = 0;
	for (int i = 0; i < k; i++) {
		if (w[i] == 0)
			continue;
		if (o[i].se < 0 || o[i].n < 2)
			return -1;
		double v = w[i] * w[i] * o[i].se * o[i].se;
		var += v;
		den += v * v / (o[i].n - 1);
	}
	*df = den > 0 ? var * var / den : 0;
	return sqrt(var);
}
