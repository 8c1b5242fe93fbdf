/* SPDX-License-Identifier: MIT */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pg_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double pg_median_sorted(const double *sorted, size_t n)
{
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* P(B = k), B ~ Binomial(n, 1/2), by logarithms so large n cannot underflow
 * the intermediate terms. */
static double binom_half(size_t n, size_t k)
{
	return exp(lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) -
		   (double)n * M_LN2);
}

double pg_median_coverage(size_t n, size_t l)
{
	double below = 0;	/* P(B < l): the median falls below x(l) */
	for (size_t k = 0; k < l && k <= n; k++)
		below += binom_half(n, k);
	double c = 1 - 2 * below;
	return c > 0 ? c : 0;
}

static void median_ci(const double *sorted, size_t n, struct pg_stats *out)
{
	/* The largest l with coverage >= PG_CI_LEVEL: add P(B = k) while the
	 * tail stays within (1 - level) / 2. */
	double tail = 0, half = (1 - PG_CI_LEVEL) / 2;
	size_t l = 0;
	for (size_t k = 0; k < (n + 1) / 2; k++) {
		double p = binom_half(n, k);
		if (tail + p > half + 1e-12)
			break;
		tail += p;
		l = k + 1;
	}
	if (l == 0) {
		out->ci_lo = sorted[0];
		out->ci_hi = sorted[n - 1];
		out->ci_level = pg_median_coverage(n, 1);
	} else {
		out->ci_lo = sorted[l - 1];
		out->ci_hi = sorted[n - l];
		out->ci_level = 1 - 2 * tail;
	}
	double side = fmax(out->median - out->ci_lo, out->ci_hi - out->median);
	out->ci_rel = out->median != 0 ? side / fabs(out->median) : 0;
}

static void find_modes(const double *sorted, size_t n, struct pg_stats *out)
{
	if (n < 6)
		return;
	size_t least = n / 5 > 2 ? n / 5 : 2, at = 0;
	double gap = -1;
	for (size_t k = least; k + least <= n; k++)
		if (sorted[k] - sorted[k - 1] > gap) {
			gap = sorted[k] - sorted[k - 1];
			at = k;
		}
	if (at == 0)
		return;
	double spread = fmax(sorted[at - 1] - sorted[0], sorted[n - 1] - sorted[at]);
	if (gap > 2 * spread && gap > 0.01 * fabs(out->median)) {
		out->bimodal = 1;
		out->n_lo = at;
		out->mode_lo = pg_median_sorted(sorted, at);
		out->mode_hi = pg_median_sorted(sorted + at, n - at);
	}
}

void pg_stats_compute(const double *s, size_t n, struct pg_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	if (n == 0)
		return;
	double *sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return;
	memcpy(sorted, s, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), pg_cmp_double);
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = pg_median_sorted(sorted, n);
	median_ci(sorted, n, out);
	find_modes(sorted, n, out);
	free(sorted);

	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;
	if (n > 1) {
		double ss = 0;
		for (size_t i = 0; i < n; i++)
			ss += (s[i] - out->mean) * (s[i] - out->mean);
		out->stddev = sqrt(ss / (double)(n - 1));
	}
	out->cv = out->mean != 0 ? out->stddev / fabs(out->mean) : 0;
}

double pg_log_spread(const double *samples, size_t n)
{
	double *l = malloc(2 * n * sizeof(double));
	if (!l)
		return -1;
	double *dev = l + n, sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++) {
		l[i] = log(samples[i]);
		sum += l[i];
	}
	qsort(l, n, sizeof(double), pg_cmp_double);
	double med = pg_median_sorted(l, n), mean = sum / (double)n;
	for (size_t i = 0; i < n; i++) {
		dev[i] = fabs(l[i] - med);
		sq += (l[i] - mean) * (l[i] - mean);
	}
	qsort(dev, n, sizeof(double), pg_cmp_double);
	double mad = pg_median_sorted(dev, n);
	free(l);
	return mad > 0 ? 1.4826 * mad : sqrt(sq / (double)(n - 1));
}

double pg_log_median_se(const double *samples, size_t n)
{
	if (n < 2)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!(samples[i] > 0))
			return -1;
	double s = pg_log_spread(samples, n);
	/* the median's standard error is sqrt(pi/2) times the mean's */
	return s < 0 ? -1 : 1.2533 * s / sqrt((double)n);
}

/* The regularized incomplete beta function I_x(a, b) by its continued
 * fraction (modified Lentz), on the side where it converges fast. */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	double f = d;
	for (int m = 1; m <= 300; m++) {
		double num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		for (int k = 0; k < 2; k++) {
			d = 1 + num * d;
			d = fabs(d) < tiny ? tiny : d;
			c = 1 + num / c;
			c = fabs(c) < tiny ? tiny : c;
			d = 1 / d;
			f *= c * d;
			num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		}
		if (fabs(c * d - 1) < 1e-14)
			break;
	}
	return f;
}

static double inc_beta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double pg_student_p(double t, double df)
{
	if (!isfinite(t))
		return 0;
	if (df > 1e6)
		return erfc(fabs(t) / sqrt(2));
	return inc_beta(df / 2, 0.5, df / (df + t * t));
}

/* Student's t density at t, for the quantile's Newton steps. */
static double student_pdf(double t, double df)
{
	if (df > 1e6)
		return exp(-t * t / 2) / sqrt(2 * M_PI);
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2) - (df + 1) / 2 * log1p(t * t / df)) / sqrt(df * M_PI);
}

double pg_student_q(double p, double df)
{
	if (df <= 0)
		df = 2e6;
	/* p falls as t grows: bracket, then Newton's steps on p(t) (its slope
	 * is twice the density), halving the bracket where a step would leave
	 * it. Halving alone took some 45 incomplete betas a quantile, and
	 * compare asks for one per row: the gate's simulations in make check
	 * spent a quarter of their time here. */
	double lo = 0, hi = 2;
	while (pg_student_p(hi, df) > p && hi < 1e12)
		hi *= 2;
	double t = (lo + hi) / 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double f = pg_student_p(t, df) - p;
		if (f > 0)
			lo = t;
		else if (f < 0)
			hi = t;
		else
			return t;
		double d = 2 * student_pdf(t, df), next = d > 0 ? t + f / d : NAN;
		if (!(next > lo && next < hi))
			next = (lo + hi) / 2;
		if (fabs(next - t) <= 1e-13 * t)
			return next;
		t = next;
	}
	return t;
}

void pg_stats_stated(struct pg_stats *s, double se, double df)
{
	if (s->n != 1 || !(s->median > 0) || !(se > 0) || !isfinite(se))
		return;
	double half = pg_student_q(1 - PG_CI_LEVEL, df) * se;
	s->ci_lo = s->median * exp(-half);
	s->ci_hi = s->median * exp(half);
	s->ci_level = PG_CI_LEVEL;
	s->ci_rel = expm1(half);
}
