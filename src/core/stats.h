/* SPDX-License-Identifier: MIT */
/* Summary statistics of a result's samples. */
#ifndef PG_STATS_H
#define PG_STATS_H

#include <stddef.h>

/* A result is marked noisy when its coefficient of variation is above this. */
#define PG_NOISY_CV 0.05
/* The confidence of the median's interval. */
#define PG_CI_LEVEL 0.95

struct pg_stats {
	size_t n;
	double median, min, max, mean;
	double stddev;		/* sample standard deviation (n - 1) */
	double cv;		/* stddev / mean; 0 when the mean is 0 */
	/*
	 * An interval for the median that assumes nothing of the samples'
	 * distribution: [x(l), x(n+1-l)] of the sorted samples, with the
	 * largest l whose coverage, 1 - 2 P(Binomial(n, 1/2) < l), is at least
	 * PG_CI_LEVEL. ci_level is that coverage; below PG_CI_LEVEL when n < 6,
	 * too few samples for any such pair (the interval is then the range,
	 * and its coverage 1 - 2^(1-n)). ci_rel is the interval's larger side
	 * over the median: the median is known to within +/- ci_rel of itself.
	 * One sample has no interval (the figure itself, coverage 0) unless
	 * the benchmark stated one (pg_stats_stated).
	 */
	double ci_lo, ci_hi, ci_level, ci_rel;
	/*
	 * Two groups of samples, apart: sorted, the samples split at their
	 * widest gap into two groups of at least max(2, n/5) samples each,
	 * the gap more than twice either group's range and more than 1% of
	 * the median (two machine states, e.g. a clock that moved). The
	 * groups' medians and the lower group's size; needs n >= 6.
	 */
	int bimodal;
	double mode_lo, mode_hi;
	size_t n_lo;
};

/* qsort's comparison of doubles, ascending. */
int pg_cmp_double(const void *a, const void *b);
/* The median of n > 0 values sorted ascending. */
double pg_median_sorted(const double *sorted, size_t n);

void pg_stats_compute(const double *samples, size_t n, struct pg_stats *out);

/* The spread of the logs of n positive samples (n >= 2), robustly: 1.4826
 * times their median absolute deviation, which one sample far off (a 342
 * us connect among 28 us ones) does not move; their standard deviation
 * where that is 0 (half the samples alike). -1: out of memory. */
double pg_log_spread(const double *samples, size_t n);

/* The standard error of the log of the median of n samples, from the
 * samples' spread on the log scale (sqrt(pi/2) s / sqrt(n), s robust: 1.4826
 * times the median absolute deviation, else the standard deviation); -1
 * when n < 2 or a sample is not positive. */
double pg_log_median_se(const double *samples, size_t n);

/* Two-sided p of Student's t with df degrees of freedom (df > 0; above
 * 1e6, the normal's). */
double pg_student_p(double t, double df);
/* The t whose two-sided p is p (0 < p < 1) with df degrees of freedom
 * (df <= 0: the normal's). */
double pg_student_q(double p, double df);

/* One sample whose figure's log has the standard error se, from df
 * degrees of freedom (0: known), as a benchmark stated it (pg_state_se):
 * its interval is the figure times exp(+/- t se), t Student's at
 * PG_CI_LEVEL, and its level PG_CI_LEVEL. Nothing for a figure or an se
 * that is not positive, or more than one sample. */
void pg_stats_stated(struct pg_stats *s, double se, double df);

/* The coverage of [x(l), x(n+1-l)] for the median of n samples (l >= 1). */
double pg_median_coverage(size_t n, size_t l);

#endif
