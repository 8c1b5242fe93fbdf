/* SPDX-License-Identifier: MIT */
#include "gate.h"

#include "core/stats.h"

#include <math.h>
#include <stdlib.h>

const char *pg_gate_test_name(enum pg_gate_test t)
{
	switch (t) {
	case PG_TEST_RUNS: return "runs";
	case PG_TEST_ONE_VS_RUNS: return "one run against runs";
	case PG_TEST_ONE_RUN: return "one run a side";
	case PG_TEST_NONE: break;
	}
	return "none";
}

const char *pg_gate_spread_name(enum pg_gate_spread s)
{
	switch (s) {
	case PG_SPREAD_RUNS: return "runs";
	case PG_SPREAD_ALLOWANCE: return "allowance";
	case PG_SPREAD_PROFILE: return "board history";
	case PG_SPREAD_NONE: break;
	}
	return "none";
}

double pg_gate_log_median_se(const double *samples, int n)
{
	return n < 2 ? -1 : pg_log_median_se(samples, (size_t)n);
}

double pg_gate_stated_se(double lo, double hi, double level)
{
	if (!(level > 0 && level < 1) || !(lo > 0) || !(hi > lo) || !isfinite(hi))
		return -1;
	return log(hi / lo) / (2 * pg_student_q(1 - level, 0));
}

static void mean_var(const double *v, int n, double *mean, double *var)
{
	double s = 0, sq = 0;
	for (int i = 0; i < n; i++)
		s += v[i];
	*mean = s / n;
	for (int i = 0; i < n; i++)
		sq += (v[i] - *mean) * (v[i] - *mean);
	*var = n > 1 ? sq / (n - 1) : 0;
}

/* The mean squared standard error of a side's runs (0 where unknown): no
 * spread between runs is believed smaller than one run's own. */
static double mean_se2(const struct pg_gate_side *s)
{
	double sum = 0;
	for (int i = 0; i < s->n; i++)
		if (s->se[i] > 0)
			sum += s->se[i] * s->se[i];
	return sum / s->n;
}

static void set_p(struct pg_gate_result *r, double var, double df)
{
	r->df = df;
	r->se = var > 0 ? sqrt(var) : 0;
	if (var <= 0)
		r->p = r->d == 0 ? 1 : 0;
	else
		r->p = pg_student_p(r->d / sqrt(var), df);
}

/* A side's part of the variance of a difference and its degrees of
 * freedom, for Welch-Satterthwaite's sum (df <= 0: known). */
struct part {
	double var, df;
};

/* Welch-Satterthwaite's degrees of freedom of the sum of two parts (a
 * known part adds variance and no term: 1e9 when both are known). */
static double ws_df(struct part a, struct part b)
{
	double den = (a.df > 0 ? a.var * a.var / a.df : 0) + (b.df > 0 ? b.var * b.var / b.df : 0);
	return den > 0 ? (a.var + b.var) * (a.var + b.var) / den : 1e9;
}

/* One run's part with a noise profile: the run's own spread (var from
 * df degrees of freedom) or the board's between runs, the larger. */
static struct part with_profile(double var, double df, const struct pg_gate_side *s, struct pg_gate_result *r)
{
	double pv = s->profile_sd * s->profile_sd;
	r->spread = PG_SPREAD_PROFILE;
	r->spread_sd = s->profile_sd;
	r->spread_runs = s->profile_runs;
	if (var >= pv)
		return (struct part){ var, df };
	return (struct part){ pv, s->profile_runs - 1 };
}

/* One run a side measured in processes: the processes' spread, and the
 * run's own state besides: the board's profile, or the allowance (with
 * the processes' pooled degrees of freedom: the allowance is a guess, and
 * a guess is not taken as known). */
static void test_procs(double ab, const struct pg_gate_side *b, double an, const struct pg_gate_side *n,
		       struct pg_gate_result *r)
{
	if (b->profile_runs > 0) {
		struct part pb = with_profile(ab, b->n - 1, b, r), pn = with_profile(an, n->n - 1, n, r);
		set_p(r, pb.var + pn.var, ws_df(pb, pn));
		return;
	}
	r->spread = PG_SPREAD_ALLOWANCE;
	r->spread_sd = PG_GATE_RUN_SD;
	ab += PG_GATE_RUN_SD * PG_GATE_RUN_SD;
	an += PG_GATE_RUN_SD * PG_GATE_RUN_SD;
	/* As many processes a side (two each, say): the pooled test's
	 * degrees of freedom (its t is Welch's for the same sizes), as below */
	if (b->n == n->n) {
		set_p(r, ab + an, b->n + n->n - 2);
		return;
	}
	set_p(r, ab + an, ws_df((struct part){ ab, b->n - 1 }, (struct part){ an, n->n - 1 }));
}

/* Several replicates a side: Welch's t on their log medians. */
static void test_runs(const double *lb, const struct pg_gate_side *b, const double *ln, const struct pg_gate_side *n,
		      struct pg_gate_result *r)
{
	double mb, vb, mn, vn;
	mean_var(lb, b->n, &mb, &vb);
	mean_var(ln, n->n, &mn, &vn);
	vb = fmax(vb, mean_se2(b));
	vn = fmax(vn, mean_se2(n));
	double ab = vb / b->n, an = vn / n->n;
	r->test = PG_TEST_RUNS;
	r->d = mn - mb;
	if (b->runs == 1 && n->runs == 1) {
		test_procs(ab, b, an, n, r);
		return;
	}
	r->spread = PG_SPREAD_RUNS;
	/* As many replicates a side: the pooled test's degrees of freedom.
	 * Its t is Welch's when the sides are the same size, and it holds its
	 * false-alarm rate for unequal spreads then; Welch-Satterthwaite's
	 * estimate from 2 replicates a side falls to 1 whenever one side's two
	 * happen to agree. */
	if (b->n == n->n) {
		set_p(r, ab + an, b->n + n->n - 2);
		return;
	}
	set_p(r, ab + an, ws_df((struct part){ ab, b->n - 1 }, (struct part){ an, n->n - 1 }));
}

/* One run against several: is the one run where a further run of the
 * others would fall? (Student's t for a new observation.) */
static void test_one_vs_runs(double one, double one_se, const double *lk, const struct pg_gate_side *k, int one_is_new,
			     struct pg_gate_result *r)
{
	double mk, vk;
	mean_var(lk, k->n, &mk, &vk);
	vk = fmax(vk, fmax(mean_se2(k), one_se > 0 ? one_se * one_se : 0));
	r->test = PG_TEST_ONE_VS_RUNS;
	r->spread = PG_SPREAD_RUNS;
	r->spread_sd = sqrt(vk);
	r->spread_runs = k->n;
	r->d = one_is_new ? one - mk : mk - one;
	set_p(r, vk * (1 + 1.0 / k->n), k->n - 1);
}

/* One run of one process a side: the two medians' standard errors (-1: a
 * figure with none, only with a profile) and each run's spread between
 * runs: the board's profile, else the allowance, taken as known. */
static void test_one_run(double lb, double lbse, int nb, double ln, double lnse, int nn, const struct pg_gate_side *s,
			 struct pg_gate_result *r)
{
	r->test = PG_TEST_ONE_RUN;
	r->d = ln - lb;
	struct part pb = { lbse > 0 ? lbse * lbse : 0, nb - 1 }, pn = { lnse > 0 ? lnse * lnse : 0, nn - 1 };
	if (s->profile_runs > 0) {
		pb = with_profile(pb.var, pb.df, s, r);
		pn = with_profile(pn.var, pn.df, s, r);
	} else {
		double sd = s->run_sd > 0 ? s->run_sd : PG_GATE_ONE_RUN_SD;
		r->spread = PG_SPREAD_ALLOWANCE;
		r->spread_sd = sd;
		pb.var += sd * sd;
		pn.var += sd * sd;
	}
	set_p(r, pb.var + pn.var, ws_df(pb, pn));
}

void pg_gate_test(const struct pg_gate_side *base, const struct pg_gate_side *new, struct pg_gate_result *r)
{
	*r = (struct pg_gate_result){ .test = PG_TEST_NONE, .p = 1 };
	if (base->n < 1 || new->n < 1) {
		r->untested = "no run on one side";
		return;
	}
	double *lb = malloc(sizeof(double) * (size_t)(base->n + new->n));
	if (!lb) {
		r->untested = "out of memory";
		return;
	}
	double *ln = lb + base->n;
	for (int i = 0; i < base->n + new->n; i++) {
		double m = i < base->n ? base->median[i] : new->median[i - base->n];
		if (!(m > 0) || !isfinite(m)) {
			r->untested = "a median is zero or negative: no ratio to judge";
			free(lb);
			return;
		}
		lb[i] = log(m);
	}
	double sb = 0, sn = 0;
	for (int i = 0; i < base->n + new->n; i++)
		*(i < base->n ? &sb : &sn) += lb[i];
	double levels[2] = { exp(sb / base->n), exp(sn / new->n) };
	if (base->n >= 2 && new->n >= 2)
		test_runs(lb, base, ln, new, r);
	else if (base->n >= 2)
		test_one_vs_runs(ln[0], new->se[0], lb, base, 1, r);
	else if (new->n >= 2)
		test_one_vs_runs(lb[0], base->se[0], ln, new, 0, r);
	else if ((base->se[0] < 0 || new->se[0] < 0) && lb[0] == ln[0])
		*r = (struct pg_gate_result){ .test = PG_TEST_ONE_RUN, .p = 1, .df = 1 };	/* a fact, unchanged */
	else if ((base->se[0] < 0 || new->se[0] < 0) && base->profile_runs <= 0) {
		r->untested = "too few samples: one run a side with fewer than 2 samples, no test can judge it";
		r->few = 1;
	} else {
		struct pg_gate_side s = *base;
		s.run_sd = fmax(base->run_sd, new->run_sd);
		test_one_run(lb[0], base->se[0], base->nsamples ? base->nsamples[0] : 2, ln[0], new->se[0],
			     new->nsamples ? new->nsamples[0] : 2, &s, r);
	}
	if (!r->untested) {
		r->base_level = levels[0];
		r->new_level = levels[1];
	}
	free(lb);
}

struct ranked {
	double p;
	int i;
};

static int by_p(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->p, y = ((const struct ranked *)b)->p;
	return x < y ? -1 : x > y;
}

void pg_gate_bh(const double *p, int n, double q, int *reject)
{
	struct ranked *r = malloc(sizeof(*r) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++)
		reject[i] = 0;
	if (!r)
		return;
	for (int i = 0; i < n; i++)
		r[i] = (struct ranked){ p[i], i };
	qsort(r, (size_t)n, sizeof(*r), by_p);
	int k = -1;
	for (int j = 0; j < n; j++)
		if (r[j].p <= q * (j + 1) / n)
			k = j;
	for (int j = 0; j <= k; j++)
		reject[r[j].i] = 1;
	free(r);
}
