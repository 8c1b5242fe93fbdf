/* SPDX-License-Identifier: MIT */
/*
 * Change points in a series by E-divisive means (Matteson and James, "A
 * nonparametric approach for multiple change point analysis of
 * multivariate data", JASA 2014), with the permutation test of its
 * significance, as MongoDB's and Apache Otava's first detectors used it.
 * docs/methodology.md says how and with which parameters.
 */
#ifndef PG_CHANGEPOINT_H
#define PG_CHANGEPOINT_H

#include <stdint.h>

struct pg_cp_opts {
	double significance;	/* a change point is kept when its p-value is at most this */
	int permutations;	/* of the permutation test (the most taken) */
	int min_size;		/* the fewest points on either side of a split (>= 2) */
	double alpha;		/* the distance's exponent, in (0, 2) */
	uint64_t seed;		/* of the permutations: the same series, the same answer */
};

/* What history and its tests use: 0.01, 199, 3, 1, 1. */
extern const struct pg_cp_opts pg_cp_defaults;

struct pg_cp {
	int at;			/* the first point of the new segment */
	double p;		/* the permutation test's p-value when it was found */
};

/* The change points of x[0..n), ascending by at, into out (at most max);
 * their count, or -1 when out of memory. A series shorter than two
 * segments, or with every value the same, has none. */
int pg_cp_find(const double *x, int n, const struct pg_cp_opts *o, struct pg_cp *out, int max);

#endif
