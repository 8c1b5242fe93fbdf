/* SPDX-License-Identifier: MIT */
/*
 * A latency histogram of fixed size, log-linear as fio's completion-latency
 * histogram and HdrHistogram are: values below 64 ns each have a bucket;
 * above, every power of two is split into 64 equal buckets, so a bucket is
 * never wider than 1/64 of the values in it and a quantile read from it is
 * within 1.6 % of the true one. Recording costs a few instructions and no
 * memory, however many values a benchmark records (a million RPMsg round
 * trips, a minute of 4k I/O): no per-sample array that grows with the count.
 *
 * A benchmark records into ctx->hist; the runner owns the histograms (one
 * per copy, cleared before every timed step), derives the PG_HIST_* metrics
 * of each sample from them and keeps the whole run's for the results file.
 */
#ifndef PG_HIST_H
#define PG_HIST_H

#include <stddef.h>
#include <stdint.h>

#define PG_HIST_SUB_BITS 6
#define PG_HIST_SUB (1 << PG_HIST_SUB_BITS)
/* Values up to 2^44 ns (about 4.9 hours) have their own buckets; longer
 * ones count in the last bucket, and min, max and the mean stay exact. */
#define PG_HIST_MAX_BIT 44
#define PG_HIST_BUCKETS ((PG_HIST_MAX_BIT - PG_HIST_SUB_BITS + 1) * PG_HIST_SUB)

struct pg_hist {
	uint64_t count;
	uint64_t min, max;	/* exact, in ns */
	double sum;		/* for the exact mean */
	uint64_t bucket[PG_HIST_BUCKETS];
};

static inline int pg_hist_index(uint64_t ns)
{
	if (ns < PG_HIST_SUB)
		return (int)ns;
	int msb = 63 - __builtin_clzll(ns);
	if (msb >= PG_HIST_MAX_BIT)
		return PG_HIST_BUCKETS - 1;
	int e = msb - PG_HIST_SUB_BITS;
	return (e + 1) * PG_HIST_SUB + (int)((ns >> e) - PG_HIST_SUB);
}

static inline void pg_hist_add(struct pg_hist *h, uint64_t ns)
{
	h->bucket[pg_hist_index(ns)]++;
	if (h->count == 0 || ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->count++;
	h->sum += (double)ns;
}

void pg_hist_reset(struct pg_hist *h);
void pg_hist_merge(struct pg_hist *dst, const struct pg_hist *src);

/* The lowest value bucket i holds and the number of values it spans. */
void pg_hist_bucket_range(int i, uint64_t *lo, uint64_t *width);

/* Nanoseconds: the value below which a share q (0..1) of the values lie,
 * by nearest rank, as the middle of its bucket kept within [min, max];
 * q = 1 is the exact maximum. 0 when the histogram is empty. The rank and
 * the bucket's value are fio's, digit for digit (its clat percentiles from
 * the same histogram), but for the clamp to [min, max]: at most half a
 * bucket, 0.8 %, and only in the bucket holding the min or the max. */
double pg_hist_quantile(const struct pg_hist *h, double q);
double pg_hist_mean(const struct pg_hist *h);

#endif
