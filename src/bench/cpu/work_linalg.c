/* SPDX-License-Identifier: MIT */
/*
 * cpu.work.linalg: single-precision linear algebra: the LU factorisation
 * with partial pivoting of a 100 x 100 float matrix (row-major, right-
 * looking: eliminate below each pivot, update the trailing matrix), then
 * forward and back substitution for one right-hand side. One iteration
 * copies the matrix in, factors and solves. Single-precision multiply-adds
 * over rows, what a vectorising compiler and a NEON or SSE unit work on.
 *
 * Checked on every step: the system is built with a known solution
 * (x_i = 1 + i / 100); the solve must give it to float accuracy
 * (max |x - x*| below 1e-3; a wrong pivot or update is off by far more),
 * and no pivot may be zero.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "work.h"

#define N 100

struct linalg_work {
	float a0[N][N], b0[N];
	float a[N][N], b[N];
	int piv[N];
	int singular;
};

static void lu_solve(struct linalg_work *s)
{
	float (*a)[N] = s->a;
	float *b = s->b;
	s->singular = 0;
	for (int k = 0; k < N; k++) {
		int p = k;
		float big = fabsf(a[k][k]);
		for (int i = k + 1; i < N; i++)
			if (fabsf(a[i][k]) > big) {
				big = fabsf(a[i][k]);
				p = i;
			}
		s->piv[k] = p;
		if (big == 0.0f) {
			s->singular = 1;
			return;
		}
		if (p != k) {
			for (int j = 0; j < N; j++) {
				float t = a[k][j];
				a[k][j] = a[p][j];
				a[p][j] = t;
			}
			float t = b[k];
			b[k] = b[p];
			b[p] = t;
		}
		float inv = 1.0f / a[k][k];
		for (int i = k + 1; i < N; i++) {
			float l = a[i][k] * inv;
			a[i][k] = l;
			for (int j = k + 1; j < N; j++)
				a[i][j] -= l * a[k][j];
			b[i] -= l * b[k];
		}
	}
	for (int i = N - 1; i >= 0; i--) {
		float sum = b[i];
		for (int j = i + 1; j < N; j++)
			sum -= a[i][j] * b[j];
		b[i] = sum / a[i][i];
	}
}

static uint32_t linalg_run(void *p)
{
	struct linalg_work *s = p;
	memcpy(s->a, s->a0, sizeof(s->a));
	memcpy(s->b, s->b0, sizeof(s->b));
	lu_solve(s);
	return 0;
}

static int linalg_check(void *p, uint32_t sum, char *why, size_t len)
{
	struct linalg_work *s = p;
	(void)sum;
	if (s->singular) {
		snprintf(why, len, "a zero pivot");
		return -1;
	}
	for (int i = 0; i < N; i++) {
		float want = 1.0f + (float)i / N;
		if (!(fabsf(s->b[i] - want) < 1e-3f)) {
			snprintf(why, len, "x[%d] is %.6g, should be %.6g", i, s->b[i], want);
			return -1;
		}
	}
	return 0;
}

static int linalg_init(void *p, char *why, size_t len)
{
	(void)why;
	(void)len;
	struct linalg_work *s = p;
	uint32_t r = 8675309;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)	/* uniform in [-1, 1): pivoting has work to do */
			s->a0[i][j] = (float)((int32_t)(pg_work_rand(&r) >> 8) - (1 << 23)) / (1 << 23);
	for (int i = 0; i < N; i++) {
		double sum = 0;	/* b = A x* in double, then rounded once */
		for (int j = 0; j < N; j++)
			sum += (double)s->a0[i][j] * (1.0 + (double)j / N);
		s->b0[i] = (float)sum;
	}
	return 0;
}

static const struct pg_work linalg_work = {
	.state_size = sizeof(struct linalg_work),
	.init = linalg_init, .run = linalg_run, .check = linalg_check,
};

const struct pg_bench pg_cpu_work_linalg =
	PG_WORK_BENCH("cpu.work.linalg", "Single-precision LU solve of a 100x100 system",
		      &linalg_work);
