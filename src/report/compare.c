#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct obs {
	double v;
	int group;
};

static int cmp_obs(const void *a, const void *b)
{
	double x = ((const struct obs *)a)->v, y = ((const struct obs *)b)->v;
	return x < y ? -1 : x > y;
}

/* P(U <= u) under the null, counting arrangements: f(m, n, u) =
 * f(m - 1, n, u - n) + f(m, n - 1, u). */
static double exact_cdf(int m, int n, double u)
{
	int max = m * n;
	/* table over (i, j) for every u: (m + 1) * (n + 1) * (max + 1) */
	size_t stride = (size_t)max + 1;
	double *f = calloc((size_t)(m + 1) * (size_t)(n + 1) * stride, sizeof(double));
	if (!f)
		return -1;
#define F(i, j, k) f[((size_t)(i) * (size_t)(n + 1) + (size_t)(j)) * stride + (size_t)(k)]
	for (int i = 0; i <= m; i++)
		for (int j = 0; j <= n; j++)
			for (int k = 0; k <= i * j; k++) {
				if (i == 0 || j == 0) {
					F(i, j, k) = k == 0;
					continue;
				}
				double a = k - j >= 0 ? F(i - 1, j, k - j) : 0;
				double b = k <= i * (j - 1) ? F(i, j - 1, k) : 0;
				F(i, j, k) = a + b;
			}
	double total = 0, below = 0;
	for (int k = 0; k <= max; k++) {
		total += F(m, n, k);
		if (k <= u + 1e-9)
			below += F(m, n, k);
	}
#undef F
	free(f);
	return below / total;
}

double pg_mann_whitney(const double *a, int na, const double *b, int nb)
{
	if (na < 1 || nb < 1)
		return 1;
	int n = na + nb;
	struct obs *o = malloc(sizeof(*o) * (size_t)n);
	if (!o)
		return 1;
	for (int i = 0; i < na; i++)
		o[i] = (struct obs){ a[i], 0 };
	for (int i = 0; i < nb; i++)
		o[na + i] = (struct obs){ b[i], 1 };
	qsort(o, (size_t)n, sizeof(*o), cmp_obs);
	/* Ranks, ties sharing the mean rank. */
	double ra = 0, ties = 0;
	int tied = 0;
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && o[j + 1].v == o[i].v)
			j++;
		double rank = (i + j) / 2.0 + 1;
		int t = j - i + 1;
		if (t > 1) {
			tied = 1;
			ties += (double)t * t * t - t;
		}
		for (int k = i; k <= j; k++)
			if (o[k].group == 0)
				ra += rank;
		i = j + 1;
	}
	free(o);
	double ua = ra - na * (na + 1) / 2.0;
	double u = fmin(ua, (double)na * nb - ua);
	if (!tied && na <= 20 && nb <= 20) {
		double p = 2 * exact_cdf(na, nb, u);
		if (p >= 0)
			return fmin(p, 1);
	}
	double mu = na * nb / 2.0;
	double var = na * nb / 12.0 * ((n + 1) - ties / ((double)n * (n - 1)));
	if (var <= 0)
		return 1;	/* every value equal */
	double z = (fabs(ua - mu) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	return fmin(1, erfc(z / sqrt(2)));
}

const char *pg_verdict_name(enum pg_verdict v)
{
	return v == PG_IMPROVED ? "improved" : v == PG_REGRESSED ? "regressed" : "within noise";
}

static int cmp_key(const struct pg_record *a, const struct pg_record *b)
{
	int c = strcmp(a->bench, b->bench);
	if (!c)
		c = strcmp(a->metric, b->metric);
	return c ? c : strcmp(a->params, b->params);
}

/* NEW's ok results by key, then by their order in the run: the first of
 * equal keys is the one compared, as a walk through NEW would find it. */
static int cmp_ptr(const void *a, const void *b)
{
	const struct pg_record *x = *(const struct pg_record *const *)a, *y = *(const struct pg_record *const *)b;
	int c = cmp_key(x, y);
	return c ? c : (x > y) - (x < y);
}

static const struct pg_record *find(const struct pg_record *const *by, int n, const struct pg_record *b)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (cmp_key(by[mid], b) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && cmp_key(by[lo], b) == 0 ? by[lo] : NULL;
}

int pg_compare(const struct pg_rrun *base, const struct pg_rrun *new, double threshold_pct,
	       struct pg_cmp_row **rows, int *n)
{
	*rows = calloc((size_t)base->nres + 1, sizeof(**rows));
	const struct pg_record **by = malloc(sizeof(*by) * ((size_t)new->nres + 1));
	int nby = 0;
	*n = 0;
	if (!*rows || !by) {
		free(*rows);
		free(by);
		*rows = NULL;
		return -1;
	}
	for (int k = 0; k < new->nres; k++)
		if (new->res[k].status == PG_OK)
			by[nby++] = &new->res[k];
	qsort(by, (size_t)nby, sizeof(*by), cmp_ptr);
	for (int i = 0; i < base->nres; i++) {
		const struct pg_record *b = &base->res[i];
		const struct pg_record *x = b->status == PG_OK ? find(by, nby, b) : NULL;
		if (!x)
			continue;
		struct pg_cmp_row *r = &(*rows)[(*n)++];
		r->base = b;
		r->new = x;
		r->change_pct = b->median != 0 ? (x->median - b->median) / fabs(b->median) * 100
				: x->median == 0 ? 0 : INFINITY;
		r->p = pg_mann_whitney(b->samples, b->nsamples, x->samples, x->nsamples);
		r->verdict = PG_SAME;
		if (fabs(r->change_pct) > threshold_pct && r->p < PG_CMP_ALPHA) {
			int better = (r->change_pct > 0) == (b->higher != 0);
			r->verdict = better ? PG_IMPROVED : PG_REGRESSED;
		}
	}
	free(by);
	return 0;
}
