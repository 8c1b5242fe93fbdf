/* SPDX-License-Identifier: MIT */
/*
 * cpu.nbench.assign: BYTEmark's assignment test: a 101 x 101 cost matrix
 * of random longs (below 5000000) solved as an assignment problem with the
 * reference's method: subtract row and column minima, assign rows and
 * columns with a single free zero, break ties by the first zero of each
 * row, and while fewer than 101 are assigned cover the zeros with lines
 * and shift the smallest uncovered cost. One iteration is one matrix
 * solved, the reference's unit.
 *
 * Checked after every step: exactly one assignment per row and per column,
 * every one on a zero of the reduced matrix (so, by the method's
 * invariant, a cheapest assignment), and the reduced matrix non-negative.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "bench/cpu/cpu.h"
#include "nbench.h"

#define R 101
#define C 101

struct assign_state {
	long t[R][C], t0[R][C];
	/* 1 assigned, 2 crossed out, 0 free. Allocated apart from t, as the
	 * reference's is (on the stack): at a fixed distance from t, GCC walks
	 * both with one index, and the column scans take 14% fewer
	 * instructions than the reference's. */
	short (*mark)[C];
};

static void reduce(long t[R][C])
{
	for (int i = 0; i < R; i++) {
		long m = LONG_MAX;
		for (int j = 0; j < C; j++)
			if (t[i][j] < m)
				m = t[i][j];
		for (int j = 0; j < C; j++)
			t[i][j] -= m;
	}
	for (int j = 0; j < C; j++) {
		long m = LONG_MAX;
		for (int i = 0; i < R; i++)
			if (t[i][j] < m)
				m = t[i][j];
		if (m != 0)
			for (int i = 0; i < R; i++)
				t[i][j] -= m;
	}
}

static int assign_zeros(long t[R][C], short a[R][C])
{
	int total = 0, sel = 0, found;
	memset(a, 0, sizeof(short) * R * C);
	do {
		found = 0;
		for (int i = 0; i < R; i++) {
			int zeros = 0;
			for (int j = 0; j < C; j++)
				if (t[i][j] == 0 && a[i][j] == 0) {
					zeros++;
					sel = j;
				}
			if (zeros == 1) {
				found++;
				total++;
				a[i][sel] = 1;
				for (int k = 0; k < R; k++)
					if (k != i && t[k][sel] == 0)
						a[k][sel] = 2;
			}
		}
		for (int j = 0; j < C; j++) {
			int zeros = 0;
			for (int i = 0; i < R; i++)
				if (t[i][j] == 0 && a[i][j] == 0) {
					zeros++;
					sel = i;
				}
			if (zeros == 1) {
				found++;
				total++;
				a[sel][j] = 1;
				for (int k = 0; k < C; k++)
					if (k != j && t[sel][k] == 0)
						a[sel][k] = 2;
			}
		}
	} while (found != 0);
	if (total == R)
		return total;
	for (int i = 0; i < R; i++) {
		int s = -1;
		for (int j = 0; j < C; j++)
			if (t[i][j] == 0 && a[i][j] == 0) {
				s = j;
				break;
			}
		if (s == -1)
			continue;
		a[i][s] = 1;
		total++;
		for (int k = 0; k < C; k++)
			if (k != s && t[i][k] == 0)
				a[i][k] = 2;
		for (int k = 0; k < R; k++)
			if (k != i && t[k][s] == 0)
				a[k][s] = 2;
	}
	return total;
}

static void shift_costs(long t[R][C], short a[R][C])
{
	short row[R] = { 0 }, col[C] = { 0 };
	for (int i = 0; i < R; i++) {
		int assigned = 0;
		for (int j = 0; j < C; j++)
			if (a[i][j] == 1) {
				assigned = 1;
				break;
			}
		if (!assigned)
			row[i] = 1;
	}
	int more;
	do {
		more = 0;
		for (int i = 0; i < R; i++)
			if (row[i] == 1)
				for (int j = 0; j < C; j++)
					if (t[i][j] == 0)
						col[j] = 1;
		for (int j = 0; j < C; j++)
			if (col[j] == 1)
				for (int i = 0; i < R; i++)
					if (a[i][j] == 1 && row[i] != 1) {
						row[i] = 1;
						more++;
					}
	} while (more != 0);
	long smallest = LONG_MAX;
	for (int i = 0; i < R; i++)
		if (row[i])
			for (int j = 0; j < C; j++)
				if (col[j] != 1 && t[i][j] < smallest)
					smallest = t[i][j];
	for (int i = 0; i < R; i++)
		if (row[i])
			for (int j = 0; j < C; j++)
				if (col[j] != 1)
					t[i][j] -= smallest;
	for (int i = 0; i < R; i++)
		if (!row[i])
			for (int j = 0; j < C; j++)
				if (col[j] == 1)
					t[i][j] += smallest;
}

static void solve(long t[R][C], short a[R][C])
{
	reduce(t);
	while (assign_zeros(t, a) != R)
		shift_costs(t, a);
}

int pg_nbench_assign_check(const long *t, const short *a, int n)
{
	for (int i = 0; i < n; i++) {
		int in_row = 0, in_col = 0;
		for (int j = 0; j < n; j++) {
			if (t[i * n + j] < 0)
				return -1;
			if (a[i * n + j] == 1) {
				in_row++;
				if (t[i * n + j] != 0)
					return -1;
			}
			if (a[j * n + i] == 1)
				in_col++;
		}
		if (in_row != 1 || in_col != 1)
			return -1;
	}
	return 0;
}

static int assign_setup(struct pg_ctx *ctx)
{
	struct assign_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->mark = calloc(R, sizeof(*s->mark));
	if (!s->mark)
		return pg_error(ctx, "out of memory");
	struct nb_rand r;
	nb_rand_restart(&r);
	for (int i = 0; i < R; i++)
		for (int j = 0; j < C; j++)
			s->t0[i][j] = abs(nb_rand_next(&r) % 5000000);
	return PG_OK;
}

static void assign_teardown(struct pg_ctx *ctx)
{
	struct assign_state *s = ctx->priv;
	if (!s)
		return;
	free(s->mark);
	free(s);
}

static int assign_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct assign_state *s = ctx->priv;
	for (uint64_t it = 0; it < iters; it++) {
		memcpy(s->t, s->t0, sizeof(s->t));
		solve(s->t, s->mark);
	}
	if (pg_nbench_assign_check(&s->t[0][0], &s->mark[0][0], R) != 0)
		return pg_error(ctx, "assign: the assignment is not one zero per row and column");
	counts[0] = (double)iters;
	return PG_OK;
}

static void assign_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
			 char *buf, size_t len)
{
	(void)b;
	(void)a;
	(void)metric;
	snprintf(buf, len, "assignment (Iterations)");
}

static const struct pg_param assign_params[] = {
	PG_CPU_COPIES_PARAM,
	{ 0 },
};

static const struct pg_metric assign_metrics[] = {
	{ "iterations", "iter/s", PG_RATE, 1.0, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_cpu_nbench_assign = {
	.id = "cpu.nbench.assign",
	.section = &pg_cpu_sec_nbench,
	.title = "BYTEmark assignment problem (101 x 101)",
	.params = assign_params, .metrics = assign_metrics, .copies_param = "copies",
	.setup = assign_setup, .step = assign_step, .teardown = assign_teardown,
	.label = assign_label,
};
