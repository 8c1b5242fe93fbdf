/* SPDX-License-Identifier: MIT */
/*
 * cpu.nbench.lu: BYTEmark's LU decomposition: a 101 x 101 system of doubles
 * (row-major, as a C 2-D array) factored by Crout's method with implicit
 * partial pivoting (each row scaled by its largest element when choosing
 * the pivot) and solved by forward and back substitution. One iteration is
 * one system solved, the reference's unit ("arrays" per second).
 *
 * The reference copies each pristine system in outside its stopwatch; here
 * the copy (101 x 101 doubles) is inside the timed step, a few percent of a
 * solve. The system has a known solution (x_i = 1 + i / 101) and each step
 * checks the last solve against it; every solve has the same input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "bench/cpu/cpu.h"
#include "nbench.h"

#define N 101

struct lu_state {
	double a[N][N], a0[N][N];
	double b[N], b0[N];
	double vv[N];
	int indx[N];
};

/* Factors a in place; 0, or -1 when it is singular. */
static int ludcmp(double a[N][N], int indx[N], double vv[N])
{
	for (int i = 0; i < N; i++) {
		double big = 0.0;
		for (int j = 0; j < N; j++)
			if (fabs(a[i][j]) > big)
				big = fabs(a[i][j]);
		if (big == 0.0)
			return -1;
		vv[i] = 1.0 / big;
	}
	for (int j = 0; j < N; j++) {
		for (int i = 0; i < j; i++) {
			double sum = a[i][j];
			for (int k = 0; k < i; k++)
				sum -= a[i][k] * a[k][j];
			a[i][j] = sum;
		}
		double big = 0.0;
		int imax = j;
		for (int i = j; i < N; i++) {
			double sum = a[i][j];
			for (int k = 0; k < j; k++)
				sum -= a[i][k] * a[k][j];
			a[i][j] = sum;
			double dum = vv[i] * fabs(sum);
			if (dum >= big) {
				big = dum;
				imax = i;
			}
		}
		if (j != imax) {
			for (int k = 0; k < N; k++) {
				double dum = a[imax][k];
				a[imax][k] = a[j][k];
				a[j][k] = dum;
			}
			vv[imax] = vv[j];
		}
		indx[j] = imax;
		if (a[j][j] == 0.0)
			return -1;
		if (j != N - 1) {
			double dum = 1.0 / a[j][j];
			for (int i = j + 1; i < N; i++)
				a[i][j] *= dum;
		}
	}
	return 0;
}

static void lubksb(double a[N][N], const int indx[N], double b[N])
{
	int ii = -1;
	for (int i = 0; i < N; i++) {
		int ip = indx[i];
		double sum = b[ip];
		b[ip] = b[i];
		if (ii >= 0)
			for (int j = ii; j < i; j++)
				sum -= a[i][j] * b[j];
		else if (sum != 0.0)
			ii = i;
		b[i] = sum;
	}
	for (int i = N - 1; i >= 0; i--) {
		double sum = b[i];
		for (int j = i + 1; j < N; j++)
			sum -= a[i][j] * b[j];
		b[i] = sum / a[i][i];
	}
}

/* 0 when x is the known solution to within rounding. */
int pg_nbench_lu_check(const double *x, int n)
{
	for (int i = 0; i < n; i++) {
		double want = 1.0 + (double)i / n;
		if (!(fabs(x[i] - want) <= 1e-9 * want))
			return -1;
	}
	return 0;
}

static int lu_setup(struct pg_ctx *ctx)
{
	struct lu_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	/* Random entries in [-1, 1) and a heavier diagonal: well conditioned,
	 * yet pivoting still swaps rows. */
	struct nb_rand r;
	nb_rand_init(&r);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			s->a0[i][j] = nb_rand_next(&r) / 499781.5 - 1.0 + (i == j ? 4.0 : 0.0);
	for (int i = 0; i < N; i++) {
		s->b0[i] = 0.0;
		for (int j = 0; j < N; j++)
			s->b0[i] += s->a0[i][j] * (1.0 + (double)j / N);
	}
	return PG_OK;
}

static void lu_teardown(struct pg_ctx *ctx)
{
	free(ctx->priv);
}

static int lu_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct lu_state *s = ctx->priv;
	for (uint64_t it = 0; it < iters; it++) {
		memcpy(s->a, s->a0, sizeof(s->a));
		memcpy(s->b, s->b0, sizeof(s->b));
		if (ludcmp(s->a, s->indx, s->vv) != 0)
			return pg_error(ctx, "lu: the matrix came out singular");
		lubksb(s->a, s->indx, s->b);
	}
	if (pg_nbench_lu_check(s->b, N) != 0)
		return pg_error(ctx, "lu: the solution is not the system's known one");
	counts[0] = (double)iters;
	return PG_OK;
}

static void lu_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		     char *buf, size_t len)
{
	(void)b;
	(void)a;
	(void)metric;
	snprintf(buf, len, "lu_decomposition (Iterations)");
}

static const struct pg_param lu_params[] = {
	PG_CPU_COPIES_PARAM,
	{ 0 },
};

static const struct pg_metric lu_metrics[] = {
	{ "iterations", "iter/s", PG_RATE, 1.0, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_cpu_nbench_lu = {
	.id = "cpu.nbench.lu",
	.section = &pg_cpu_sec_nbench,
	.title = "BYTEmark LU decomposition of a 101 x 101 system",
	.params = lu_params, .metrics = lu_metrics, .copies_param = "copies",
	.setup = lu_setup, .step = lu_step, .teardown = lu_teardown,
	.label = lu_label,
};
