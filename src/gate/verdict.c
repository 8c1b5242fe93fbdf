/* SPDX-License-Identifier: MIT */
/* The gate's rule (verdict.h): interval and threshold to verdict. */
#include "verdict.h"

#include "core/stats.h"

#include <math.h>
#include <stdio.h>

const char *pg_verdict_name(enum pg_verdict v)
{
	switch (v) {
	case PG_IMPROVED: return "improved";
	case PG_REGRESSED: return "regressed";
	case PG_INCONCLUSIVE: return "inconclusive";
	case PG_NOT_GATED: return "not gated";
	case PG_UNDECIDED: return "undecided";
	case PG_SAME: break;
	}
	return "within noise";
}

void pg_change_interval(struct pg_change *c, double se, double df)
{
	double half = se > 0 ? pg_student_q(1 - PG_DECIDE_LEVEL, df) * se : 0;
	c->df = df;
	c->lo = c->est - half;
	c->hi = c->est + half;
}

/* The normal's upper p quantile, 0 < p <= 0.5 (Abramowitz and Stegun
 * 26.2.23, within 4.5e-4): projections need no more, and a thousand rows
 * of a simulation call this often. */
static double z_upper(double p)
{
	double t = sqrt(-2 * log(p));
	return t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t +
								     0.001308 * t * t * t);
}

/* Student's t whose two-sided p is p, about: the normal's, widened by
 * the Cornish-Fisher expansion in 1/df (Abramowitz and Stegun 26.7.5;
 * within 1% from 2 degrees of freedom at the levels used here). */
static double t_about(double p, double df)
{
	double z = z_upper(p / 2);
	if (df <= 0 || df > 1e6)
		return z;
	double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2, v = fmax(df, 1);
	double g1 = (z3 + z) / 4, g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
	double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
	double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
	return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
}

/* 1/n_base + 1/n_new (or 1/n for pairs) after m more added as g says. */
static double factor(const struct pg_change *c, enum pg_more_by g, int m)
{
	double nb = c->n_base > 0 ? c->n_base : 1, nn = c->n_new > 0 ? c->n_new : 1;
	switch (g) {
	case PG_MORE_BASE: return 1 / (nb + m) + 1 / nn;
	case PG_MORE_NEW: return 1 / nb + 1 / (nn + m);
	case PG_MORE_PAIRS: return 1 / (nb + m);
	case PG_MORE_SIDES: break;
	}
	return 1 / (nb + m) + 1 / (nn + m);
}

struct projection {
	const struct pg_change *c;
	enum pg_more_by more_by;
	double delta;	/* the threshold, log scale */
	double unit;	/* the standard error of one replicate's worth: se / sqrt(factor(0)) */
};

/* Whether m more replicates would decide the change, were the estimate
 * and the spread to hold. */
static int decided_at(const struct projection *pr, int m)
{
	const struct pg_change *c = pr->c;
	double se = pr->unit * sqrt(factor(c, pr->more_by, m));
	double df = c->df > 0 ? c->df + m * (pr->more_by == PG_MORE_SIDES ? 2 : 1) : 0;
	double q = t_about(1 - PG_DECIDE_LEVEL, df), a = fabs(c->est);
	double alpha = c->alpha > 0 && c->alpha < 1 ? c->alpha : 0.05;
	if (a + q * se <= pr->delta)
		return 1;
	return a - q * se >= pr->delta && a >= t_about(alpha, df) * se;
}

int pg_decide_more(const struct pg_change *c, double threshold_pct, enum pg_more_by more_by)
{
	struct projection pr = { c, more_by, log1p(threshold_pct / 100), 0 };
	double se = (c->hi - c->lo) / 2 / t_about(1 - PG_DECIDE_LEVEL, c->df);
	if (!(se > 0) || !isfinite(se))
		return se == 0 ? 0 : -1;
	pr.unit = se / sqrt(factor(c, more_by, 0));
	if (decided_at(&pr, 0))
		return 0;
	/* doubling, then halving: decided_at only turns true as m grows */
	int lo = 0, hi = 1;
	while (hi < PG_DECIDE_MAX_MORE && !decided_at(&pr, hi)) {
		lo = hi;
		hi *= 2;
	}
	if (hi >= PG_DECIDE_MAX_MORE) {
		hi = PG_DECIDE_MAX_MORE;
		if (!decided_at(&pr, hi))
			return -1;
	}
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		if (decided_at(&pr, mid))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

void pg_decide(const struct pg_change *c, double threshold_pct, struct pg_decision *d)
{
	double delta = log1p(threshold_pct / 100);
	d->pct = 100 * expm1(c->est);
	d->lo_pct = 100 * expm1(c->lo);
	d->hi_pct = 100 * expm1(c->hi);
	d->more = 0;
	if (c->lo >= -delta && c->hi <= delta) {
		d->verdict = PG_SAME;
	} else if (c->significant && (c->lo > delta || c->hi < -delta)) {
		int up = c->est > 0;
		d->verdict = up == (c->higher != 0) ? PG_IMPROVED : PG_REGRESSED;
	} else {
		d->verdict = PG_UNDECIDED;
		d->more = pg_decide_more(c, threshold_pct, c->more_by);
		if (d->more == 0)
			d->more = 1;	/* the projection's quantiles are approximate */
	}
}

/* A change in percent: one decimal below 10%, none above. */
static void pct_text(double pct, char *buf, size_t len)
{
	if (!isfinite(pct))
		snprintf(buf, len, "%s", pct > 0 ? "+inf%" : "-100%");
	else
		snprintf(buf, len, fabs(pct) < 10 ? "%+.1f%%" : "%+.0f%%", pct);
}

/* unit for one: its first word that ends in 's' without it ("runs a
 * side": "run a side", "NEW runs": "NEW run"). */
static void one_of(const char *unit, char *buf, size_t len)
{
	size_t at = 0, k = 0, cut = (size_t)-1;
	for (; unit[at] && cut == (size_t)-1; at++)
		if (unit[at] == 's' && (unit[at + 1] == ' ' || !unit[at + 1]))
			cut = at;
	for (at = 0; unit[at] && k + 1 < len; at++)
		if (at != cut)
			buf[k++] = unit[at];
	buf[k] = 0;
}

int pg_decision_words(const struct pg_decision *d, const char *unit, char *buf, size_t len)
{
	char lo[32], hi[32], one[120];
	pct_text(d->lo_pct, lo, sizeof(lo));
	pct_text(d->hi_pct, hi, sizeof(hi));
	if (d->more < 0)
		return snprintf(buf, len, "between %s and %s; not even %d more %s would decide it (the change is "
				"too near the threshold, or the spread too wide)", lo, hi, PG_DECIDE_MAX_MORE, unit);
	if (d->more == 1)
		one_of(unit, one, sizeof(one));
	return snprintf(buf, len, "between %s and %s; about %d more %s would decide it", lo, hi, d->more,
			d->more == 1 ? one : unit);
}
