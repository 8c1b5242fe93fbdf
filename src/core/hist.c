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
	/* Nearest rank: the smallest value with at least q of all at or below. */
	uint64_t rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (int i = 0; i < PG_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen < rank)
			continue;
		uint64_t lo, width;
		pg_hist_bucket_range(i, &lo, &width);
		double v = (double)lo + (double)(width - 1) / 2;
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
