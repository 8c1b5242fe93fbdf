/* SPDX-License-Identifier: MIT */
/*
 * cpu.linpack: the LINPACK 100 benchmark as its C translation runs it: LU
 * factorisation with partial pivoting (DGEFA) and solve (DGESL) of a dense
 * n x n double-precision system stored by columns with leading dimension
 * lda, on the BLAS-1 kernels (IDAMAX, DSCAL, DAXPY, DDOT) in their rolled
 * or 4/5-way unrolled forms. The matrix is the reference's own: entries from
 * the generator init = 3125 x init mod 65536 starting at 1325, scaled to
 * [-2, 2), and the right-hand side the row sums, so the solution is all ones.
 *
 * One iteration is one solve: the pristine matrix and right-hand side are
 * copied in, factored and solved. Counted, as the reference counts: 2n^3/3
 * + 2n^2 floating-point operations per solve; KFLOPS = that / seconds /
 * 1000. The reference times only DGEFA and DGESL, and regenerates the
 * matrix outside its clock; here the copy-in (n^2 doubles, 0.4% of a
 * solve's instructions at n = 100) is inside the timed step.
 *
 * The check is the reference's normalised residual,
 * max|Ax - b| / (n * max|A| * max|x| * eps), which the reference prints and
 * never tests: a step checks its last solve (every solve of a step solves
 * the same system the same way, so one answer stands for all), and a
 * residual above 16 (HPL's threshold) or not finite, or a singular
 * factorisation, is an error. Checking every solve cost 2.8% of the step.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "core/params.h"
#include "bench/cpu/cpu.h"

#define RESID_MAX 16.0

struct lp_state {
	int n, lda, unrolled;
	double *a, *a0;		/* working and pristine matrix, lda x n */
	double *b, *b0, *r;
	int *ipvt;
	double norma;
	double worst;		/* largest normalised residual seen */
	uint64_t solves, checked;
};

/* --- the BLAS-1 kernels, unit stride (all the benchmark uses) --- */

static int idamax(int n, const double *dx)
{
	if (n < 1)
		return -1;
	int best = 0;
	double dmax = fabs(dx[0]);
	for (int i = 1; i < n; i++)
		if (fabs(dx[i]) > dmax) {
			best = i;
			dmax = fabs(dx[i]);
		}
	return best;
}

static void dscal_r(int n, double da, double *dx)
{
	for (int i = 0; i < n; i++)
		dx[i] = da * dx[i];
}

static void daxpy_r(int n, double da, const double *dx, double *dy)
{
	if (n <= 0 || da == 0.0)
		return;
	for (int i = 0; i < n; i++)
		dy[i] = dy[i] + da * dx[i];
}

/* The unrolled forms: a short loop for the remainder, then 5 (dscal) or 4
 * (daxpy) elements per pass, as LINPACK's unrolled BLAS are written. */
static void dscal_u(int n, double da, double *dx)
{
	if (n <= 0)
		return;
	int m = n % 5, i;
	for (i = 0; i < m; i++)
		dx[i] = da * dx[i];
	for (i = m; i < n; i += 5) {
		dx[i] = da * dx[i];
		dx[i + 1] = da * dx[i + 1];
		dx[i + 2] = da * dx[i + 2];
		dx[i + 3] = da * dx[i + 3];
		dx[i + 4] = da * dx[i + 4];
	}
}

static void daxpy_u(int n, double da, const double *dx, double *dy)
{
	if (n <= 0 || da == 0.0)
		return;
	int m = n % 4, i;
	for (i = 0; i < m; i++)
		dy[i] = dy[i] + da * dx[i];
	for (i = m; i < n; i += 4) {
		dy[i] = dy[i] + da * dx[i];
		dy[i + 1] = dy[i + 1] + da * dx[i + 1];
		dy[i + 2] = dy[i + 2] + da * dx[i + 2];
		dy[i + 3] = dy[i + 3] + da * dx[i + 3];
	}
}

/* Gaussian elimination with partial pivoting, column by column. Returns 0,
 * or 1 + the index of a zero pivot. */
static int dgefa(double *a, int lda, int n, int *ipvt, int unrolled)
{
	int info = 0;
	for (int k = 0; k < n - 1; k++) {
		double *colk = &a[lda * k];
		int p = idamax(n - k, &colk[k]) + k;
		ipvt[k] = p;
		if (colk[p] == 0.0) {
			info = k + 1;
			continue;
		}
		if (p != k) {
			double t = colk[p];
			colk[p] = colk[k];
			colk[k] = t;
		}
		double t = -1.0 / colk[k];
		if (unrolled)
			dscal_u(n - k - 1, t, &colk[k + 1]);
		else
			dscal_r(n - k - 1, t, &colk[k + 1]);
		for (int j = k + 1; j < n; j++) {
			double *colj = &a[lda * j];
			t = colj[p];
			if (p != k) {
				colj[p] = colj[k];
				colj[k] = t;
			}
			if (unrolled)
				daxpy_u(n - k - 1, t, &colk[k + 1], &colj[k + 1]);
			else
				daxpy_r(n - k - 1, t, &colk[k + 1], &colj[k + 1]);
		}
	}
	ipvt[n - 1] = n - 1;
	if (a[lda * (n - 1) + n - 1] == 0.0)
		info = n;
	return info;
}

/* Solves A x = b with the factors from dgefa; x replaces b. */
static void dgesl(const double *a, int lda, int n, const int *ipvt, double *b, int unrolled)
{
	for (int k = 0; k < n - 1; k++) {
		int p = ipvt[k];
		double t = b[p];
		if (p != k) {
			b[p] = b[k];
			b[k] = t;
		}
		if (unrolled)
			daxpy_u(n - k - 1, t, &a[lda * k + k + 1], &b[k + 1]);
		else
			daxpy_r(n - k - 1, t, &a[lda * k + k + 1], &b[k + 1]);
	}
	for (int k = n - 1; k >= 0; k--) {
		b[k] = b[k] / a[lda * k + k];
		double t = -b[k];
		if (unrolled)
			daxpy_u(k, t, &a[lda * k], b);
		else
			daxpy_r(k, t, &a[lda * k], b);
	}
}

static void matgen(double *a, int lda, int n, double *b, double *norma)
{
	int init = 1325;
	*norma = 0.0;
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++) {
			init = (int)(3125L * init % 65536L);
			a[lda * j + i] = (init - 32768.0) / 16384.0;
			if (a[lda * j + i] > *norma)
				*norma = a[lda * j + i];
		}
	for (int i = 0; i < n; i++)
		b[i] = 0.0;
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++)
			b[i] += a[lda * j + i];
}

/* Column by column, as the matrix is stored: a row-wise walk would stride
 * lda doubles per load and cost a fifth of a solve at n = 100. r is
 * scratch of n doubles. */
double pg_linpack_residual(const double *a0, int lda, int n, const double *b0, const double *x,
			   double norma, double *r)
{
	double resid = 0.0, normx = 0.0;
	for (int i = 0; i < n; i++)
		r[i] = -b0[i];
	for (int j = 0; j < n; j++) {
		const double *col = &a0[lda * j];
		double xj = x[j];
		for (int i = 0; i < n; i++)
			r[i] += col[i] * xj;
	}
	for (int i = 0; i < n; i++) {
		if (fabs(r[i]) > resid || isnan(r[i]))
			resid = isnan(r[i]) ? r[i] : fabs(r[i]);
		if (fabs(x[i]) > normx || isnan(x[i]))
			normx = isnan(x[i]) ? x[i] : fabs(x[i]);
	}
	return resid / (n * norma * normx * DBL_EPSILON);
}

static int lp_setup(struct pg_ctx *ctx)
{
	struct lp_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->n = (int)pg_arg_int(ctx->args, "n");
	s->lda = 2 * s->n;
	s->unrolled = strcmp(pg_arg_str(ctx->args, "blas"), "unrolled") == 0;
	size_t mat = (size_t)s->lda * (size_t)s->n;
	s->a = calloc(mat, sizeof(double));
	s->a0 = calloc(mat, sizeof(double));
	s->b = calloc((size_t)s->n, sizeof(double));
	s->b0 = calloc((size_t)s->n, sizeof(double));
	s->r = calloc((size_t)s->n, sizeof(double));
	s->ipvt = calloc((size_t)s->n, sizeof(int));
	if (!s->a || !s->a0 || !s->b || !s->b0 || !s->r || !s->ipvt)
		return pg_error(ctx, "cannot allocate a %d x %d matrix", s->lda, s->n);
	matgen(s->a0, s->lda, s->n, s->b0, &s->norma);
	return PG_OK;
}

static void lp_teardown(struct pg_ctx *ctx)
{
	struct lp_state *s = ctx->priv;
	if (!s)
		return;
	free(s->a);
	free(s->a0);
	free(s->b);
	free(s->b0);
	free(s->r);
	free(s->ipvt);
	free(s);
}

static int lp_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct lp_state *s = ctx->priv;
	const int n = s->n, lda = s->lda;
	for (uint64_t it = 0; it < iters; it++) {
		for (int j = 0; j < n; j++)
			memcpy(&s->a[lda * j], &s->a0[lda * j], (size_t)n * sizeof(double));
		memcpy(s->b, s->b0, (size_t)n * sizeof(double));
		int info = dgefa(s->a, lda, n, s->ipvt, s->unrolled);
		if (info)
			return pg_error(ctx, "linpack: zero pivot in column %d: the matrix came out "
					"singular", info);
		dgesl(s->a, lda, n, s->ipvt, s->b, s->unrolled);
	}
	if (iters > 0) {
		double residn = pg_linpack_residual(s->a0, lda, n, s->b0, s->b, s->norma, s->r);
		if (!(residn <= RESID_MAX))
			return pg_error(ctx, "linpack: normalised residual %g is above %g: wrong answer",
					residn, RESID_MAX);
		if (residn > s->worst)
			s->worst = residn;
		s->checked++;
	}
	s->solves += iters;
	double nn = n;
	counts[0] = (double)iters * (2.0 * nn * nn * nn / 3.0 + 2.0 * nn * nn);
	return PG_OK;
}

static int lp_verify(struct pg_ctx *ctx)
{
	struct lp_state *s = ctx->priv;
	if (ctx->copy == 0)
		pg_note(ctx, "n=%d lda=%d, %s BLAS; %llu solves, each step's last checked (%llu "
			"checked), largest normalised residual %.2f", s->n, s->lda,
			s->unrolled ? "unrolled" : "rolled", (unsigned long long)s->solves,
			(unsigned long long)s->checked, s->worst);
	return PG_OK;
}

static void lp_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		     char *buf, size_t len)
{
	(void)b;
	(void)metric;
	if (pg_arg_int(a, "n") == 100)
		snprintf(buf, len, "linpack (Kflops)");
	else
		buf[0] = '\0';
}

static const struct pg_param lp_params[] = {
	{ .name = "n", .type = PG_P_INT, .def = "100", .min = 2, .max = 5000,
	  .help = "order of the system (the array's leading dimension is 2n)",
	  .standard = "100,200", .full = "100,200,1000" },
	{ .name = "blas", .type = PG_P_STR, .def = "unrolled", .choices = "unrolled,rolled",
	  .help = "the reference's unrolled or rolled BLAS loops",
	  .standard = "unrolled,rolled", .full = "unrolled,rolled" },
	PG_CPU_COPIES_PARAM,
	{ 0 },
};

static const struct pg_metric lp_metrics[] = {
	{ "kflops", "KFLOPS", PG_RATE, 1e-3, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_cpu_linpack = {
	.id = "cpu.linpack",
	.section = &pg_cpu_sec_linpack,
	.title = "LINPACK 100, double precision",
	.params = lp_params, .metrics = lp_metrics, .copies_param = "copies",
	.setup = lp_setup, .step = lp_step, .verify = lp_verify,
	.teardown = lp_teardown, .label = lp_label,
};
