/* Summary statistics of a result's samples. */
#ifndef PG_STATS_H
#define PG_STATS_H

#include <stddef.h>

/* A result is marked noisy when its coefficient of variation is above this. */
#define PG_NOISY_CV 0.05

struct pg_stats {
	size_t n;
	double median, min, max, mean;
	double stddev;		/* sample standard deviation (n - 1) */
	double cv;		/* stddev / mean; 0 when the mean is 0 */
};

void pg_stats_compute(const double *samples, size_t n, struct pg_stats *out);

#endif
