/* SPDX-License-Identifier: MIT */
/*
 * cpu.nbench.fourier: BYTEmark's Fourier test: the first Fourier
 * coefficients of f(x) = (x + 1)^x on [0, 2], each integral by the
 * trapezoid rule with 200 steps, with pow, sin and cos at every point. The
 * reference counts 2n - 1 "iterations" per pass of n coefficients (A0, then
 * A1..An-1 and B1..Bn-1), growing n until a pass lasts 0.1 s; here a pass is
 * n = 100 coefficients, counted 199, the same unit.
 *
 * Checked: in setup, the first ten coefficients against the same integrals
 * by Simpson's rule with 2000 steps (an independent, far more accurate
 * method) within the trapezoid rule's error; after the samples, the last
 * pass must give exactly what the first gave.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/bench.h"
#include "bench/cpu/cpu.h"

#define NCOEF 100
#define STEPS 200
#define PI 3.1415926535897932

#define NCHECK 10	/* coefficients checked against Simpson's rule */

struct fourier_state {
	double a[NCOEF], b[NCOEF];
	double a0[NCOEF], b0[NCOEF];	/* the first pass, in setup */
};

static double f(double x, double omegan, int which)
{
	switch (which) {
	case 1:
		return pow(x + 1.0, x) * cos(omegan * x);
	case 2:
		return pow(x + 1.0, x) * sin(omegan * x);
	default:
		return pow(x + 1.0, x);
	}
}

static double trapezoid(double x0, double x1, int steps, double omegan, int which)
{
	double dx = (x1 - x0) / steps, x = x0;
	double sum = f(x0, omegan, which) / 2.0;
	for (int i = 1; i < steps; i++) {
		x += dx;
		sum += f(x, omegan, which);
	}
	return (sum + f(x1, omegan, which) / 2.0) * dx;
}

static void fourier_pass(double *a, double *b)
{
	a[0] = trapezoid(0.0, 2.0, STEPS, 0.0, 0) / 2.0;
	for (int i = 1; i < NCOEF; i++) {
		a[i] = trapezoid(0.0, 2.0, STEPS, PI * i, 1);
		b[i] = trapezoid(0.0, 2.0, STEPS, PI * i, 2);
	}
}

static double simpson(double omegan, int which)
{
	const int n = 2000;
	double h = 2.0 / n, sum = f(0.0, omegan, which) + f(2.0, omegan, which);
	for (int i = 1; i < n; i++)
		sum += f(i * h, omegan, which) * (i % 2 ? 4.0 : 2.0);
	return sum * h / 3.0;
}

/* 0 when the first n coefficients are the integrals they should be. Only
 * the low ones can be checked this way: 200 steps over [0, 2] sample
 * cos(pi i x) ever more coarsely, and by i = 100 the trapezoid rule is
 * aliased (as it is in the reference). */
int pg_nbench_fourier_check(const double *a, const double *b, int n, char *why, size_t len)
{
	/* The trapezoid rule's error at i <= 10 is below 1e-3; a wrong answer
	 * is off by far more. */
	const double tol = 5e-3;
	double want = simpson(0.0, 0) / 2.0;
	if (!(fabs(a[0] - want) <= tol)) {
		snprintf(why, len, "A[0] is %.6g, should be %.6g", a[0], want);
		return -1;
	}
	for (int i = 1; i < n; i++) {
		double wa = simpson(PI * i, 1), wb = simpson(PI * i, 2);
		if (!(fabs(a[i] - wa) <= tol) || !(fabs(b[i] - wb) <= tol)) {
			snprintf(why, len, "A[%d], B[%d] are %.6g, %.6g, should be %.6g, %.6g", i, i,
				 a[i], b[i], wa, wb);
			return -1;
		}
	}
	return 0;
}

static int fourier_setup(struct pg_ctx *ctx)
{
	struct fourier_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	fourier_pass(s->a0, s->b0);
	char why[160];
	if (pg_nbench_fourier_check(s->a0, s->b0, NCHECK, why, sizeof(why)) != 0)
		return pg_error(ctx, "fourier: %s", why);
	return PG_OK;
}

static void fourier_teardown(struct pg_ctx *ctx)
{
	free(ctx->priv);
}

static int fourier_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct fourier_state *s = ctx->priv;
	for (uint64_t it = 0; it < iters; it++) {
		fourier_pass(s->a, s->b);
		__asm__ volatile("" : : "r"(s->a), "r"(s->b) : "memory");
	}
	counts[0] = (double)iters * (2.0 * NCOEF - 1.0);
	return PG_OK;
}

/* After the samples: the last pass gives exactly what the first one did. */
static int fourier_verify(struct pg_ctx *ctx)
{
	struct fourier_state *s = ctx->priv;
	for (int i = 0; i < NCOEF; i++)
		if (s->a[i] != s->a0[i] || (i > 0 && s->b[i] != s->b0[i]))
			return pg_error(ctx, "fourier: coefficient %d changed between passes: %.17g, "
					"%.17g, first %.17g, %.17g", i, s->a[i], s->b[i], s->a0[i],
					s->b0[i]);
	return PG_OK;
}

static void fourier_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
			  char *buf, size_t len)
{
	(void)b;
	(void)a;
	(void)metric;
	snprintf(buf, len, "fourier (Iterations)");
}

static const struct pg_param fourier_params[] = {
	PG_CPU_COPIES_PARAM,
	{ 0 },
};

static const struct pg_metric fourier_metrics[] = {
	{ "iterations", "iter/s", PG_RATE, 1.0, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_cpu_nbench_fourier = {
	.id = "cpu.nbench.fourier",
	.section = &pg_cpu_sec_nbench,
	.title = "BYTEmark Fourier coefficients",
	.params = fourier_params, .metrics = fourier_metrics, .copies_param = "copies",
	.setup = fourier_setup, .step = fourier_step, .verify = fourier_verify,
	.teardown = fourier_teardown, .label = fourier_label,
};
