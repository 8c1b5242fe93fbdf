/* SPDX-License-Identifier: MIT */
/*
 * E-divisive means, written from the paper's description (Matteson and
 * James 2014, sections 2 and 3):
 *
 * For two samples X (n points) and Y (m points), the empirical divergence
 *   E = 2/(nm) sum |X_i - Y_j|^a - 1/C(n,2) sum_{i<k} |X_i - X_k|^a
 *       - 1/C(m,2) sum_{j<k} |Y_j - Y_k|^a
 * and the scaled statistic Q = nm/(n+m) E. In a segment [s, e) the split
 * is the tau (and the kappa) that maximise Q of X = [s, tau) against
 * Y = [tau, kappa), kappa <= e: kappa lets Y end before a later change.
 * Segments are split one at a time: of every segment's best split the one
 * with the largest Q is tested, by permutations of the points within each
 * segment found so far (the split searched again on each); its p-value is
 * (1 + permutations whose best Q reaches the observed) / (1 + permutations).
 * A significant split divides its segment and the search goes on; the
 * first that is not ends it.
 *
 * Cost: the distances' two-dimensional prefix sums make every (tau, kappa)
 * O(1), so a search is O(n^2) and a test O(R n^2). The permutations stop
 * as soon as the p-value cannot reach the significance level any more,
 * so a series without a change costs a few permutations, not R.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"

const struct pg_cp_opts pg_cp_defaults = {
	.significance = 0.01, .permutations = 199, .min_size = 3, .alpha = 1, .seed = 1,
};

struct work {
	const struct pg_cp_opts *o;
	int n, w;		/* points, and the prefix table's row length (n + 1) */
	double *z;		/* the series, standardised */
	double *perm;		/* a copy permuted within the segments */
	double *sum;		/* (n + 1)^2 prefix sums of the distances */
	int *cuts;		/* segment bounds, ascending: 0, ..., n */
	int ncuts;
	uint64_t rng;
};

/* splitmix64 (Steele, Lea and Flood 2014): small, and the same everywhere. */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* sum[i][j]: the distances of points [0, i) to points [0, j). */
static void prefix(struct work *k, const double *z)
{
	int w = k->w;
	double *S = k->sum;
	memset(S, 0, sizeof(*S) * (size_t)w);
	for (int i = 0; i < k->n; i++) {
		S[(size_t)(i + 1) * w] = 0;
		for (int j = 0; j < k->n; j++) {
			double d = fabs(z[i] - z[j]);
			if (k->o->alpha != 1)
				d = pow(d, k->o->alpha);
			S[(size_t)(i + 1) * w + j + 1] = S[(size_t)i * w + j + 1] + S[(size_t)(i + 1) * w + j] -
							 S[(size_t)i * w + j] + d;
		}
	}
}

/* The distances of points [r0, r1) to points [c0, c1). */
static double rect(const struct work *k, int r0, int r1, int c0, int c1)
{
	const double *S = k->sum;
	size_t w = (size_t)k->w;
	return S[r1 * w + c1] - S[r0 * w + c1] - S[r1 * w + c0] + S[r0 * w + c0];
}

/* The largest Q of a split of [s, e), its tau into *tau (-1: too short). */
static double best_split(const struct work *k, int s, int e, int *tau)
{
	int min = k->o->min_size;
	double best = -INFINITY;
	*tau = -1;
	for (int t = s + min; t + min <= e; t++) {
		double nx = t - s;
		/* a sum over ordered pairs is twice the sum over i < k */
		double wx = rect(k, s, t, s, t) / (nx * (nx - 1));
		for (int c = t + min; c <= e; c++) {
			double my = c - t;
			double wy = rect(k, t, c, t, c) / (my * (my - 1));
			double q = nx * my / (nx + my) * (2 * rect(k, s, t, t, c) / (nx * my) - wx - wy);
			if (q > best) {
				best = q;
				*tau = t;
			}
		}
	}
	return best;
}

/* The best split over every segment of z (its prefix sums made here). */
static double best_of_all(struct work *k, const double *z, int *tau)
{
	double best = -INFINITY;
	*tau = -1;
	prefix(k, z);
	for (int i = 0; i + 1 < k->ncuts; i++) {
		int t;
		double q = best_split(k, k->cuts[i], k->cuts[i + 1], &t);
		if (t >= 0 && q > best) {
			best = q;
			*tau = t;
		}
	}
	return best;
}

/* Fisher-Yates within each segment. */
static void permute(struct work *k)
{
	memcpy(k->perm, k->z, sizeof(double) * (size_t)k->n);
	for (int i = 0; i + 1 < k->ncuts; i++) {
		int s = k->cuts[i];
		for (int j = k->cuts[i + 1] - 1; j > s; j--) {
			int r = s + (int)(((next(&k->rng) >> 32) * (uint64_t)(j - s + 1)) >> 32);
			double t = k->perm[j];
			k->perm[j] = k->perm[r];
			k->perm[r] = t;
		}
	}
}

/* The permutation test of an observed best Q: its p-value. It stops once
 * more permutations reached q than a significant p-value allows. */
static double p_value(struct work *k, double q)
{
	int R = k->o->permutations, over = 0;
	int allowed = (int)floor(k->o->significance * (R + 1) + 1e-9) - 1;
	for (int r = 0; r < R; r++) {
		int t;
		permute(k);
		if (best_of_all(k, k->perm, &t) >= q - 1e-12 * fabs(q))
			over++;
		if (over > allowed)
			return (over + 1.0) / (r + 2.0);
	}
	return (over + 1.0) / (R + 1.0);
}

static void add_cut(struct work *k, int t)
{
	int i = k->ncuts++;
	while (i > 0 && k->cuts[i - 1] > t) {
		k->cuts[i] = k->cuts[i - 1];
		i--;
	}
	k->cuts[i] = t;
}

/* z: x standardised (mean 0, deviation 1: the sums' rounding stays small
 * whatever the unit); 0 when every value is the same. */
static int standardise(const double *x, int n, double *z)
{
	double mean = 0, ss = 0;
	for (int i = 0; i < n; i++)
		mean += x[i] / n;
	for (int i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	double sd = sqrt(ss / n);
	if (!(sd > 0) || !isfinite(sd))
		return 0;
	for (int i = 0; i < n; i++)
		z[i] = (x[i] - mean) / sd;
	return 1;
}

static int by_at(const void *a, const void *b)
{
	return ((const struct pg_cp *)a)->at - ((const struct pg_cp *)b)->at;
}

static int search(struct work *k, struct pg_cp *out, int max)
{
	int found = 0;
	while (found < max) {
		int t;
		double q = best_of_all(k, k->z, &t);
		if (t < 0)
			break;
		double p = p_value(k, q);
		if (p > k->o->significance)
			break;
		out[found].at = t;
		out[found++].p = p;
		add_cut(k, t);
	}
	qsort(out, (size_t)found, sizeof(*out), by_at);
	return found;
}

int pg_cp_find(const double *x, int n, const struct pg_cp_opts *o, struct pg_cp *out, int max)
{
	struct work k = { .o = o, .n = n, .w = n + 1, .rng = o->seed };
	if (o->min_size < 2 || n < 2 * o->min_size || max < 1)
		return 0;
	k.z = malloc(sizeof(double) * (size_t)n);
	k.perm = malloc(sizeof(double) * (size_t)n);
	k.sum = malloc(sizeof(double) * (size_t)k.w * (size_t)k.w);
	k.cuts = malloc(sizeof(int) * (size_t)(n + 2));
	int found = -1;
	if (k.z && k.perm && k.sum && k.cuts) {
		k.cuts[0] = 0;
		k.cuts[1] = n;
		k.ncuts = 2;
		found = standardise(x, n, k.z) ? search(&k, out, max) : 0;
	}
	free(k.z);
	free(k.perm);
	free(k.sum);
	free(k.cuts);
	return found;
}
