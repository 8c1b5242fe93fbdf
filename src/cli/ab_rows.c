/* SPDX-License-Identifier: MIT */
/*
 * ab's rounds turned into rows: the first round's two runs compared as
 * compare does (which rows there are, their names and units, which are
 * gated, which restate another's figure, what B lost), then each round's
 * pair of figures per row for the paired test (gate/paired.h), and at the
 * end ab's verdicts written into the comparison's rows, which compare's
 * writers print.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ab.h"
#include "core/record_json.h"

/* A record of the same key in a run; NULL when none. */
static const struct pg_record *find(const struct pg_rrun *run, const struct pg_record *k)
{
	for (int i = 0; i < run->nres; i++) {
		const struct pg_record *x = &run->res[i];
		if (strcmp(x->bench, k->bench) == 0 && strcmp(x->params, k->params) == 0 &&
		    strcmp(x->metric, k->metric) == 0)
			return x;
	}
	return NULL;
}

/* A run's figure: the geometric mean of its processes' medians (each
 * process a draw of the run's speed), else its median. */
static double figure(const struct pg_record *x)
{
	double pm[PG_RECORD_MAX_PROCS];
	int pn[PG_RECORD_MAX_PROCS];
	int k = pg_record_processes(x, pm, pn, PG_RECORD_MAX_PROCS);
	if (k < 2)
		return x->median;
	double s = 0;
	for (int i = 0; i < k; i++) {
		if (!(pm[i] > 0))
			return x->median;
		s += log(pm[i]);
	}
	return exp(s / k);
}

static int keep_runs(struct ab_rows *x, struct pg_rrun *a, struct pg_rrun *b)
{
	if (x->nruns == x->cap) {
		int cap = x->cap ? 2 * x->cap : 16;
		for (int s = 0; s < 2; s++) {
			struct pg_rrun **r = realloc(x->runs[s], sizeof(*r) * (size_t)cap);
			if (!r)
				return -1;
			x->runs[s] = r;
		}
		struct ab_round *rd = realloc(x->rounds, sizeof(*rd) * (size_t)cap);
		if (!rd)
			return -1;
		x->rounds = rd;
		x->cap = cap;
	}
	struct pg_rrun *ka = malloc(sizeof(*ka)), *kb = malloc(sizeof(*kb));
	if (!ka || !kb) {
		free(ka);
		free(kb);
		return -1;
	}
	*ka = *a;
	*kb = *b;
	x->runs[0][x->nruns] = ka;
	x->runs[1][x->nruns] = kb;
	x->nruns++;
	return 0;
}

/* The rows from round 1: compare's, with every row's gating and names. */
static int make_rows(struct ab_rows *x, double threshold)
{
	x->first[0] = (struct pg_cmp_side){ x->runs[0][0], 1 };
	x->first[1] = (struct pg_cmp_side){ x->runs[1][0], 1 };
	/* the sides run on one machine by design: what differs (a governor a
	 * setup changed) is said, and judged */
	struct pg_cmp_opts o = { .threshold_pct = threshold, .force = 1 };
	if (pg_compare_sides(&x->first[0], &x->first[1], &o, &x->c) < 0)
		return -1;
	int n = x->c.n;
	x->ab = (struct pg_ab){ .rows = calloc((size_t)n + 1, sizeof(*x->ab.rows)), .n = n, .threshold_pct = threshold };
	x->sum_la = calloc((size_t)n + 1, sizeof(double));
	x->sum_lb = calloc((size_t)n + 1, sizeof(double));
	x->left_out = calloc((size_t)n + 1, sizeof(int));
	if (!x->ab.rows || !x->sum_la || !x->sum_lb || !x->left_out)
		return -1;
	for (int i = 0; i < n; i++) {
		const struct pg_cmp_row *r = &x->c.rows[i];
		x->ab.rows[i].gated = r->gated && r->alias < 0;
		x->ab.rows[i].higher = r->base->higher;
	}
	return 0;
}

static int same_key(const struct pg_record *a, const struct pg_record *b)
{
	return strcmp(a->bench, b->bench) == 0 && strcmp(a->params, b->params) == 0 &&
	       (!a->metric || !b->metric || strcmp(a->metric, b->metric) == 0);
}

/* What B lost in this round (compare of the round's two runs), each key
 * listed once over all rounds; the rows lost are measured no more. */
static int add_lost(struct ab_rows *x, const struct pg_rrun *a, const struct pg_rrun *b, double threshold)
{
	struct pg_cmp_side sa = { a, 1 }, sb = { b, 1 };
	struct pg_cmp_opts o = { .threshold_pct = threshold, .force = 1 };
	struct pg_comparison c;
	if (pg_compare_sides(&sa, &sb, &o, &c) < 0)
		return -1;
	for (int i = 0; i < c.nlost; i++) {
		int seen = 0;
		for (int j = 0; j < x->nlost && !seen; j++)
			seen = x->lost[j].metric_only == c.lost[i].metric_only && same_key(x->lost[j].base, c.lost[i].base);
		if (seen)
			continue;
		struct pg_cmp_lost *l = realloc(x->lost, sizeof(*l) * (size_t)(x->nlost + 1));
		if (!l) {
			pg_comparison_free(&c);
			return -1;
		}
		x->lost = l;
		x->lost[x->nlost++] = c.lost[i];
		for (int r = 0; r < x->c.n; r++)
			if (same_key(x->c.rows[r].base, c.lost[i].base) &&
			    (!c.lost[i].metric_only || strcmp(x->c.rows[r].base->metric, c.lost[i].base->metric) == 0))
				x->ab.rows[r].lost = 1;
	}
	pg_comparison_free(&c);
	return 0;
}

/* Row i's pair of this round: 1 added, 0 left out (disturbed, missing, no
 * ratio), -1 out of memory. */
static int add_pair(struct ab_rows *x, int i, const struct pg_rrun *a, const struct pg_rrun *b, int b_first)
{
	const struct pg_record *k = x->c.rows[i].base, *ra = find(a, k), *rb = find(b, k);
	if (!ra || !rb || ra->status != PG_OK || rb->status != PG_OK || ra->disturbed || rb->disturbed)
		return 0;
	double fa = figure(ra), fb = figure(rb);
	if (!(fa > 0) || !(fb > 0) || !isfinite(fa) || !isfinite(fb))
		return 0;
	if (pg_ab_add_pair(&x->ab.rows[i], log(fb / fa), b_first) < 0)
		return -1;
	x->sum_la[i] += log(fa);
	x->sum_lb[i] += log(fb);
	return 1;
}

/* Whether row i's benchmark ran in this round (it was selected). */
static int ran(const struct pg_rrun *run, const struct pg_record *k)
{
	for (int i = 0; i < run->nres; i++)
		if (strcmp(run->res[i].bench, k->bench) == 0 && strcmp(run->res[i].params, k->params) == 0)
			return 1;
	return 0;
}

int ab_rows_add(struct ab_rows *x, struct pg_rrun *a, struct pg_rrun *b, struct ab_round *round, double threshold)
{
	if (keep_runs(x, a, b) < 0) {
		pg_rrun_free(a);
		pg_rrun_free(b);
		return -1;
	}
	x->rounds[x->nrounds++] = *round;
	struct ab_round *rd = &x->rounds[x->nrounds - 1];
	a = x->runs[0][x->nruns - 1];
	b = x->runs[1][x->nruns - 1];
	if (x->nruns == 1 && make_rows(x, threshold) < 0)
		return -1;
	if (add_lost(x, a, b, threshold) < 0)
		return -1;
	for (int i = 0; i < x->c.n; i++) {
		/* a decided row keeps the pairs it was decided on */
		if (x->ab.rows[i].lost || x->ab.rows[i].decided || !ran(a, x->c.rows[i].base))
			continue;
		int rc = add_pair(x, i, a, b, round->b_first);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			x->left_out[i]++;
			rd->disturbed++;
		}
	}
	return 0;
}

int ab_rows_selection(const struct ab_rows *x, const char **ids, int max)
{
	int n = 0;
	for (int i = 0; i < x->c.n && n < max; i++) {
		const struct pg_ab_row *r = &x->ab.rows[i];
		if (r->lost || (x->ab.looks > 0 && !pg_ab_wanted(r)))
			continue;
		const char *id = x->c.rows[i].base->bench;
		int seen = 0;
		for (int j = 0; j < n && !seen; j++)
			seen = strcmp(ids[j], id) == 0;
		if (!seen)
			ids[n++] = id;
	}
	return n;
}

/* The words of a row that is not gated: why, and what the pairs say. */
static void not_gated_why(struct ab_rows *x, int i)
{
	struct pg_cmp_row *r = &x->c.rows[i];
	const struct pg_ab_row *e = &x->ab.rows[i];
	const char *was = e->used >= 2 && x->ab.looks ? pg_verdict_name(e->d.verdict) : "too few rounds to say";
	if (r->alias >= 0)
		return;	/* after its row's verdict: ab_rows_finish */
	if (r->history[0])
		snprintf(r->why, sizeof(r->why), "decided by %.100s: %s", r->history, was);
	else
		snprintf(r->why, sizeof(r->why), "descriptive: %s", was);
	r->verdict = PG_NOT_GATED;
}

/* A gated row's verdict: the last look's. */
static void gated_verdict(struct ab_rows *x, int i)
{
	struct pg_cmp_row *r = &x->c.rows[i];
	const struct pg_ab_row *e = &x->ab.rows[i];
	if (e->lost) {
		r->verdict = PG_INCONCLUSIVE;
		snprintf(r->why, sizeof(r->why), "lost in B (listed below): not measured again");
	} else if (e->used < 2 || !x->ab.looks) {
		r->verdict = PG_UNDECIDED;
		snprintf(r->why, sizeof(r->why), "%d round%s with both sides undisturbed: too few to test", e->used,
			 e->used == 1 ? "" : "s");
	} else {
		r->verdict = e->d.verdict;
		if (r->verdict == PG_UNDECIDED)
			pg_decision_words(&e->d, "rounds", r->why, sizeof(r->why));
	}
}

static void count(struct pg_comparison *c)
{
	c->nreg = c->nimp = c->ninc = c->nsame = c->ninfo = 0;
	for (int i = 0; i < c->n; i++) {
		enum pg_verdict v = c->rows[i].verdict;
		c->nreg += v == PG_REGRESSED;
		c->nimp += v == PG_IMPROVED;
		c->ninc += v == PG_INCONCLUSIVE || v == PG_UNDECIDED;
		c->nsame += v == PG_SAME;
		c->ninfo += v == PG_NOT_GATED;
	}
}

void ab_rows_finish(struct ab_rows *x)
{
	for (int i = 0; i < x->c.n; i++) {
		struct pg_cmp_row *r = &x->c.rows[i];
		const struct pg_ab_row *e = &x->ab.rows[i];
		r->bimodal = 0;
		r->env_slower = 0;
		r->why[0] = '\0';
		r->nbase = r->nnew = r->reps_base = r->reps_new = e->used;
		r->left_out = x->left_out[i] + (e->n - e->used);
		if (e->n > 0) {
			r->base_median = exp(x->sum_la[i] / e->n);
			r->new_median = exp(x->sum_lb[i] / e->n);
			r->change_pct = 100 * expm1(e->t.n ? e->t.mean : log(r->new_median / r->base_median));
		}
		r->g = (struct pg_gate_result){ .test = e->used >= 2 ? PG_TEST_RUNS : PG_TEST_NONE, .d = e->t.mean,
						.se = e->t.se, .p = e->t.p, .df = e->t.df };
		if (x->ab.rows[i].gated)
			gated_verdict(x, i);
		else
			not_gated_why(x, i);
	}
	for (int i = 0; i < x->c.n; i++) {
		struct pg_cmp_row *r = &x->c.rows[i];
		if (r->alias < 0)
			continue;
		const struct pg_cmp_row *a = &x->c.rows[r->alias];
		snprintf(r->why, sizeof(r->why), "derived from %s, judged there (%s)", a->base->metric,
			 pg_verdict_name(a->verdict));
		r->verdict = PG_NOT_GATED;
	}
	free(x->c.lost);	/* round 1's; ab lists its own, of every round */
	x->c.lost = NULL;
	x->c.nlost = 0;
	count(&x->c);
}

int ab_rows_exit(const struct ab_rows *x)
{
	if (x->c.nreg || x->nlost)
		return 1;
	return x->c.ninc ? 3 : 0;
}

void ab_rows_free(struct ab_rows *x)
{
	pg_comparison_free(&x->c);
	pg_ab_free(&x->ab);
	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < x->nruns; i++) {
			pg_rrun_free(x->runs[s][i]);
			free(x->runs[s][i]);
		}
		free(x->runs[s]);
	}
	free(x->sum_la);
	free(x->sum_lb);
	free(x->left_out);
	free(x->lost);
	free(x->rounds);
	memset(x, 0, sizeof(*x));
}
