/* SPDX-License-Identifier: MIT */
/* ab's paired test and its planned looks (paired.h). */
#include "paired.h"

#include "gate.h"	/* pg_gate_bh */
#include "core/stats.h"

#include <math.h>
#include <stdlib.h>

const int pg_ab_look_rounds[PG_AB_NLOOKS] = PG_AB_LOOK_ROUNDS;
const double pg_ab_look_share[PG_AB_NLOOKS] = PG_AB_LOOK_SHARE;
const double pg_ab_equiv_share[PG_AB_NLOOKS] = PG_AB_EQUIV_SHARE;

void pg_paired_t(const double *x, int n, struct pg_paired *out)
{
	double sum = 0, sq = 0;
	*out = (struct pg_paired){ .n = n, .kept = n, .p = 1 };
	if (n < 1)
		return;
	for (int i = 0; i < n; i++)
		sum += x[i];
	out->mean = sum / n;
	if (n < 2)
		return;
	for (int i = 0; i < n; i++)
		sq += (x[i] - out->mean) * (x[i] - out->mean);
	out->sd = sqrt(sq / (n - 1));
	out->se = out->sd / sqrt(n);
	out->df = n - 1;
	/* every pair alike (a fact of the machine, the same each round): no
	 * spread, so any difference is certain and none is none */
	if (out->se > 0)
		out->p = pg_student_p(out->mean / out->se, out->df);
	else
		out->p = out->mean == 0 ? 1 : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Yuen (1974): the trimmed mean over its standard error, which is the
 * winsorized sample's spread over the pairs kept, on kept - 1 degrees
 * of freedom. */
int pg_paired_trimmed(const double *x, int n, double trim, struct pg_paired *out)
{
	int g = n > 0 ? (int)floor(trim * n) : 0;
	if (g < 1 || n - 2 * g < 2) {
		pg_paired_t(x, n, out);
		return 0;
	}
	double *s = malloc(sizeof(double) * (size_t)n);
	if (!s)
		return -1;
	for (int i = 0; i < n; i++)
		s[i] = x[i];
	qsort(s, (size_t)n, sizeof(double), cmp_double);
	int h = n - 2 * g;
	double sum = 0, wsum = 0, wsq = 0;
	for (int i = g; i < n - g; i++)
		sum += s[i];
	for (int i = 0; i < n; i++)
		wsum += s[i < g ? g : i >= n - g ? n - g - 1 : i];
	double wmean = wsum / n;
	for (int i = 0; i < n; i++) {
		double w = s[i < g ? g : i >= n - g ? n - g - 1 : i] - wmean;
		wsq += w * w;
	}
	free(s);
	*out = (struct pg_paired){ .n = n, .kept = h, .p = 1, .mean = sum / h, .df = h - 1 };
	out->sd = sqrt(wsq / (n - 1));
	out->se = sqrt(wsq / ((double)h * (h - 1)));
	if (out->se > 0)
		out->p = pg_student_p(out->mean / out->se, out->df);
	else
		out->p = out->mean == 0 ? 1 : 0;
	return 0;
}

int pg_ab_add_pair(struct pg_ab_row *r, double log_ratio, int b_first)
{
	if (r->n == r->cap) {
		int cap = r->cap ? 2 * r->cap : 16;
		double *lr = realloc(r->lr, sizeof(*lr) * (size_t)cap);
		if (!lr)
			return -1;
		r->lr = lr;
		unsigned char *bf = realloc(r->b_first, (size_t)cap);
		if (!bf)
			return -1;
		r->b_first = bf;
		r->cap = cap;
	}
	r->lr[r->n] = log_ratio;
	r->b_first[r->n++] = (unsigned char)(b_first != 0);
	return 0;
}

int pg_ab_balanced(const struct pg_ab_row *r, double *out)
{
	int nb = 0;
	for (int i = 0; i < r->n; i++)
		nb += r->b_first[i];
	int k = nb < r->n - nb ? nb : r->n - nb, seen[2] = { 0, 0 }, m = 0;
	for (int i = 0; i < r->n; i++) {
		int o = r->b_first[i];
		if (seen[o]++ >= k)
			continue;
		if (out)
			out[m] = r->lr[i];
		m++;
	}
	return m;
}

int pg_ab_wanted(const struct pg_ab_row *r)
{
	return r->gated && !r->decided && !r->lost;
}

int pg_ab_next_look_rounds(const struct pg_ab *ab)
{
	return ab->looks < PG_AB_NLOOKS ? pg_ab_look_rounds[ab->looks] : 0;
}

int pg_ab_look_due(const struct pg_ab *ab)
{
	int need = pg_ab_next_look_rounds(ab), any = 0;
	if (!need)
		return 0;
	for (int i = 0; i < ab->n; i++) {
		if (!pg_ab_wanted(&ab->rows[i]))
			continue;
		any = 1;
		if (pg_ab_balanced(&ab->rows[i], NULL) < need)
			return 0;
	}
	return any;
}

int pg_ab_done(const struct pg_ab *ab)
{
	if (ab->looks >= PG_AB_NLOOKS)
		return 1;
	for (int i = 0; i < ab->n; i++)
		if (pg_ab_wanted(&ab->rows[i]))
			return 0;
	return 1;
}

int pg_ab_decided(const struct pg_ab *ab, int *gated)
{
	int d = 0;
	*gated = 0;
	for (int i = 0; i < ab->n; i++) {
		const struct pg_ab_row *r = &ab->rows[i];
		if (!r->gated || r->lost)
			continue;
		++*gated;
		d += r->decided;
	}
	return d;
}

/* Student's t quantiles of one look, by degrees of freedom: a look asks
 * for few distinct ones, and each is a root search. */
#define TQ_CACHE 256
struct tq_cache {
	double p;
	double v[TQ_CACHE];
};

static double tq(struct tq_cache *c, int df)
{
	if (df >= TQ_CACHE)
		return pg_student_q(c->p, df);
	if (!(c->v[df] > 0))
		c->v[df] = pg_student_q(c->p, df);
	return c->v[df];
}

/* A row's pairs tested: its paired t and its interval at this look's
 * level for the equivalence test. -1 out of memory. */
static int test_row(struct pg_ab_row *r, struct tq_cache *q)
{
	double *x = malloc(sizeof(double) * (size_t)(r->n ? r->n : 1));
	if (!x)
		return -1;
	r->used = pg_ab_balanced(r, x);
	int rc = pg_paired_trimmed(x, r->used, PG_AB_TRIM, &r->t);
	free(x);
	if (rc < 0)
		return -1;
	r->c = (struct pg_change){ .est = r->t.mean, .higher = r->higher, .n_base = r->used, .n_new = r->used,
				   .more_by = PG_MORE_PAIRS, .df = r->t.df };
	double half = r->used < 2 ? INFINITY : tq(q, (int)r->t.df) * r->t.se;
	r->c.lo = r->t.mean - half;
	r->c.hi = r->t.mean + half;
	return 0;
}

/* Benjamini-Hochberg over the gated rows not lost, at level q: rows
 * decided earlier keep the p they were called at (1: within noise). */
static int family(struct pg_ab *ab, double q, int *significant)
{
	double *p = malloc(sizeof(double) * (size_t)(ab->n + 1));
	int *idx = malloc(sizeof(int) * (size_t)(ab->n + 1)), *rej = malloc(sizeof(int) * (size_t)(ab->n + 1));
	int m = 0;
	if (!p || !idx || !rej) {
		free(p);
		free(idx);
		free(rej);
		return -1;
	}
	for (int i = 0; i < ab->n; i++) {
		const struct pg_ab_row *r = &ab->rows[i];
		significant[i] = 0;
		if (!r->gated || r->lost)
			continue;
		idx[m] = i;
		p[m++] = r->decided && r->d.verdict == PG_SAME ? 1 : r->t.p;
	}
	pg_gate_bh(p, m, q, rej);
	for (int k = 0; k < m; k++)
		significant[idx[k]] = rej[k];
	free(p);
	free(idx);
	free(rej);
	return m;
}

/* A row's verdict at this look: within noise by the equivalence test's
 * interval (r->c); regressed or improved when significant and beyond the
 * threshold by that interval or by the false alarms' own (each bound
 * one-sided at PG_AB_EQUIV x the look's share of them: qr), which is then
 * the one shown; else undecided. Fewer pairs than the first planned look
 * needs decide nothing: Student's t at these levels rests on the tails of
 * the pairs' distribution, which 2 to 5 pairs do not show. */
static void decide_row(struct pg_ab_row *r, struct tq_cache *qr, double threshold_pct)
{
	pg_decide(&r->c, threshold_pct, &r->d);
	if (r->d.verdict == PG_UNDECIDED && r->c.significant && r->used >= 2) {
		struct pg_change c = r->c;
		struct pg_decision d;
		double half = tq(qr, (int)r->t.df) * r->t.se;
		c.lo = r->t.mean - half;
		c.hi = r->t.mean + half;
		pg_decide(&c, threshold_pct, &d);
		if (d.verdict == PG_REGRESSED || d.verdict == PG_IMPROVED) {
			r->c = c;
			r->d = d;
		}
	}
	if (r->used < pg_ab_look_rounds[0] && r->d.verdict != PG_UNDECIDED) {
		r->d.verdict = PG_UNDECIDED;
		r->d.more = pg_ab_look_rounds[0] - r->used;
	}
}

int pg_ab_look(struct pg_ab *ab)
{
	if (ab->looks >= PG_AB_NLOOKS)
		return 0;
	double share = pg_ab_look_share[ab->looks];
	/* each bound one-sided at PG_AB_EQUIV x its share: two-sided twice that */
	struct tq_cache q = { .p = 2 * PG_AB_EQUIV * pg_ab_equiv_share[ab->looks] }, qr = { .p = 2 * PG_AB_EQUIV * share };
	int *sig = malloc(sizeof(int) * (size_t)(ab->n + 1));
	if (!sig)
		return -1;
	for (int i = 0; i < ab->n; i++)
		if (!ab->rows[i].decided && !ab->rows[i].lost && test_row(&ab->rows[i], &q) < 0) {
			free(sig);
			return -1;
		}
	int m = family(ab, PG_AB_Q * share, sig);
	if (m < 0) {
		free(sig);
		return -1;
	}
	/* what a lone row must reach at the next look, for "how many more" */
	double next = ab->looks + 1 < PG_AB_NLOOKS ? pg_ab_look_share[ab->looks + 1] : share;
	for (int i = 0; i < ab->n; i++) {
		struct pg_ab_row *r = &ab->rows[i];
		if (r->decided || r->lost)
			continue;
		/* a row that is not gated is shown with its own test, not the rows' */
		r->c.significant = r->gated ? sig[i] : r->t.p <= PG_AB_Q * share;
		r->c.alpha = PG_AB_Q * next / (m > 0 ? m : 1);
		decide_row(r, &qr, ab->threshold_pct);
		if (r->gated && r->d.verdict != PG_UNDECIDED) {
			r->decided = 1;
			r->decided_look = ab->looks;
		}
	}
	free(sig);
	ab->looks++;
	return 0;
}

void pg_ab_free(struct pg_ab *ab)
{
	for (int i = 0; i < ab->n; i++) {
		free(ab->rows[i].lr);
		free(ab->rows[i].b_first);
	}
	free(ab->rows);
	ab->rows = NULL;
	ab->n = 0;
}
