/* SPDX-License-Identifier: MIT */
#include "hist.h"

#include <math.h>
#include <string.h>

void pg_hist_reset(struct pg_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void pg_hist_merge(struct pg_hist *dst, const struct pg_hist *src)
{
	if (src->count == 0)
		return;
	for (int i = 0; i < PG_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	if (dst->count == 0 || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
}

void pg_hist_bucket_range(int i, uint64_t *lo, uint64_t *width)
{
	if (i < PG_HIST_SUB) {
		*lo = (uint64_t)i;
		*width = 1;
		return;
	}
	int e = i / PG_HIST_SUB - 1;
	*lo = (uint64_t)(i % PG_HIST_SUB + PG_HIST_SUB) << e;
	*width = UINT64_C(1) << e;
}

double pg_hist_quantile(const struct pg_hist *h, double q)
{
	if (h->count == 0)
		return 0;
	if (q >= 1)
		return (double)h->max;
	if (q <= 0)
		return (double)h->min;
	/* Nearest rank, worked out as fio works it out: the first bucket
	 * where the count so far reaches pct / 100 x count, pct the
	 * percentage as fio's list holds it (99.9 read from text, not
	 * 0.999 x 100) and the product in long double. 0.999 x 20000 is
	 * 19980 in double, fio's 99.9 / 100 x 20000 a hair over it: its p99.9
	 * of 20000 I/Os is the 19981st, and so is ours (issue 29). */
	double pct = nearbyint(q * 1e6) / 1e4;
	long double limit = (long double)pct / 100.0 * (long double)h->count;
	uint64_t seen = 0;
	for (int i = 0; i < PG_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen == 0 || (long double)seen < limit)
			continue;
		uint64_t lo, width;
		pg_hist_bucket_range(i, &lo, &width);
		/* fio's value of a bucket: a one-value bucket is its value,
		 * a wider one the middle of the range [lo, lo + width). */
		double v = width > 1 ? (double)lo + (double)(width / 2) : (double)lo;
		if (v < (double)h->min)
			v = (double)h->min;
		if (v > (double)h->max)
			v = (double)h->max;
		return v;
	}
	return (double)h->max;
}

double pg_hist_mean(const struct pg_hist *h)
{
	return h->count ? h->sum / (double)h->count : 0;
}
