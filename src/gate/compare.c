/* SPDX-License-Identifier: MIT */
/*
 * The rows of a comparison: every measurement of BASE found in NEW's runs,
 * what NEW lost, which rows restate another's figure or only describe, and
 * each row's verdict (the statistics are gate.c's).
 */
#include "compare_int.h"
#include "profile.h"

#include "core/env.h"
#include "core/record_json.h"
#include "core/registry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What describes the measurement rather than measures the build: the CPU
 * load it caused, the CPU time per operation derived from it, the rate a
 * test offered, counts of lost or failed units, the clock it saw; and the
 * far tail of a latency (p99.9, the maximum), which a handful of I/Os or
 * messages per sample decide: an A/A of the quick suite had storage.read's
 * p99.9 at 338, 2056 and 1958 us in one run and 342, 334 and 387 in the
 * next (its p99 at 165-194 in both), and called it "improved -82%". */
int pg_metric_descriptive(const char *metric)
{
	static const char *const names[] = {
		"cpu_load", "load", "process_cpu_per_op", "thread_cpu_per_op", "sd_local", "sd_remote", "offered",
		"offered_kpps", "datagrams", "cpu_clock", "errors", "lost", "loss", "xruns", "enobufs", "lat_p999",
		"lat_max",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(metric, names[i]) == 0)
			return 1;
	return 0;
}

/* --- finding a key in a run --- */

/* (bench, params, metric); metric NULL sorts first of its benchmark. */
static int cmp_key3(const char *b1, const char *p1, const char *m1, const struct pg_record *y)
{
	int c = strcmp(b1, y->bench);
	if (!c)
		c = strcmp(p1, y->params);
	if (!c)
		c = m1 ? strcmp(m1, y->metric) : -1;
	return c;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct pg_record *x = *(const struct pg_record *const *)a, *y = *(const struct pg_record *const *)b;
	int c = cmp_key3(x->bench, x->params, x->metric, y);
	return c ? c : (x > y) - (x < y);	/* the first of equal keys first */
}

/* A run's records sorted by key. */
struct run_index {
	const struct pg_rrun *run;
	const struct pg_record **by;
	int n;
};

static int index_run(const struct pg_rrun *r, struct run_index *ix)
{
	ix->run = r;
	ix->n = r->nres;
	ix->by = malloc(sizeof(*ix->by) * (size_t)(r->nres + 1));
	if (!ix->by)
		return -1;
	for (int i = 0; i < r->nres; i++)
		ix->by[i] = &r->res[i];
	if (ix->n > 1)
		qsort(ix->by, (size_t)ix->n, sizeof(*ix->by), cmp_rec);
	return 0;
}

/* Where the first record at or after (bench, params, metric) is. */
static int seek_at(const struct run_index *ix, const char *bench, const char *params, const char *metric)
{
	int lo = 0, hi = ix->n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (cmp_key3(bench, params, metric, ix->by[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first record at or after (bench, params, metric); NULL past the end. */
static const struct pg_record *seek(const struct run_index *ix, const char *bench, const char *params,
				    const char *metric)
{
	int at = seek_at(ix, bench, params, metric);
	return at < ix->n ? ix->by[at] : NULL;
}

static const struct pg_record *find(const struct run_index *ix, const struct pg_record *k)
{
	const struct pg_record *x = seek(ix, k->bench, k->params, k->metric);
	return x && cmp_key3(k->bench, k->params, k->metric, x) == 0 ? x : NULL;
}

/* Any record of the benchmark with these parameters (a failed or skipped
 * one is under its primary metric only). */
static const struct pg_record *find_bench(const struct run_index *ix, const struct pg_record *k)
{
	const struct pg_record *x = seek(ix, k->bench, k->params, NULL);
	return x && strcmp(x->bench, k->bench) == 0 && strcmp(x->params, k->params) == 0 ? x : NULL;
}

static int same_bench(const struct pg_record *a, const struct pg_record *b)
{
	return strcmp(a->bench, b->bench) == 0 && strcmp(a->params, b->params) == 0;
}

/* NEW's record of k's benchmark and metric whose parameters are k's and
 * more: a later perfguide added a parameter (os.pipe.lat's cpu=, which
 * pinned what was placed by the scheduler); NULL when none. Only the
 * first PG_CMP_REPARAM_SCAN records of the benchmark are looked at, so a
 * file of many cannot make this quadratic. */
#define PG_CMP_REPARAM_SCAN 256
static const struct pg_record *find_reparam(const struct run_index *ix, const struct pg_record *k)
{
	json_t *want = json_loads(k->params, 0, NULL);
	const struct pg_record *found = NULL;
	int from = seek_at(ix, k->bench, "", NULL);
	for (int i = from; want && i < ix->n && i < from + PG_CMP_REPARAM_SCAN && !found; i++) {
		const struct pg_record *x = ix->by[i];
		if (strcmp(x->bench, k->bench) != 0)
			break;
		if (strcmp(x->metric, k->metric) != 0)
			continue;
		json_t *has = json_loads(x->params, 0, NULL);
		const char *key;
		json_t *v;
		int all = json_is_object(has) && json_object_size(has) > json_object_size(want);
		json_object_foreach(want, key, v)
			all = all && json_equal(v, json_object_get(has, key));
		json_decref(has);
		if (all)
			found = x;
	}
	json_decref(want);
	return found;
}

/* --- rows --- */

struct work {
	const struct pg_cmp_side *base, *new;
	const struct pg_cmp_opts *o;
	struct run_index *bix, *nix;
	struct pg_comparison *c;
	int rows_cap, lost_cap;
};

static void note(char (*list)[PG_CMP_NOTE_LEN], int *n, const char *text)
{
	if (*n < PG_CMP_MAX_NOTES)
		snprintf(list[(*n)++], PG_CMP_NOTE_LEN, "%s", text);
}

void pg_compare_note(struct pg_comparison *c, const char *text)
{
	note(c->notes, &c->nnotes, text);
}

/* Which spread one run a side is judged with: said once, above the rows. */
static void spread_note(const struct pg_cmp_opts *o, struct pg_comparison *c)
{
	char t[PG_CMP_NOTE_LEN];
	if (!o->profile || !o->profile->n)
		return;
	if ((size_t)snprintf(t, sizeof(t), "one run a side: each row's spread between runs is board %.40s's, from "
			     "its %d earlier runs in the store %.60s (a row in fewer than %d: an allowance)",
			     o->profile->board, o->profile->nruns, o->profile->where, PG_NOISE_MIN_RUNS) >= sizeof(t))
		t[sizeof(t) - 2] = '.';
	note(c->notes, &c->nnotes, t);
}

static int add_lost(struct work *w, const struct pg_record *base, const struct pg_record *new,
		    const struct pg_rrun *run, int metric_only, const struct pg_record *reparam)
{
	struct pg_comparison *c = w->c;
	/* a benchmark lost whole is listed once, not once per metric */
	for (int i = c->nlost - 1; !metric_only && i >= 0; i--)
		if (c->lost[i].run == run && !c->lost[i].metric_only && same_bench(c->lost[i].base, base))
			return 0;
	if (c->nlost == w->lost_cap) {
		int cap = w->lost_cap ? 2 * w->lost_cap : 16;
		struct pg_cmp_lost *l = realloc(c->lost, sizeof(*l) * (size_t)cap);
		if (!l)
			return -1;
		c->lost = l;
		w->lost_cap = cap;
	}
	c->lost[c->nlost++] = (struct pg_cmp_lost){ base, new, run, metric_only, reparam };
	return 0;
}

/* NEW's result for key k in each of its runs; what a run lost is listed. */
static int gather_new(struct work *w, const struct pg_record *k, const struct pg_record **out, int *n)
{
	*n = 0;
	for (int j = 0; j < w->new->n; j++) {
		const struct pg_record *x = find(&w->nix[j], k);
		if (x && x->status == PG_OK) {
			out[(*n)++] = x;
			continue;
		}
		const struct pg_record *any = x ? x : find_bench(&w->nix[j], k);
		int metric_only = any && any->status == PG_OK;
		const struct pg_record *re = any ? NULL : find_reparam(&w->nix[j], k);
		if (add_lost(w, k, metric_only ? NULL : any, &w->new->runs[j], metric_only, re) < 0)
			return -1;
	}
	return 0;
}

/* BASE's ok results for key k, one per run. */
static void gather_base(struct work *w, const struct pg_record *k, const struct pg_record **out, int *n)
{
	*n = 0;
	for (int j = 0; j < w->base->n; j++) {
		const struct pg_record *x = find(&w->bix[j], k);
		if (x && x->status == PG_OK)
			out[(*n)++] = x;
	}
}

/* Leaves out disturbed runs where undisturbed ones remain on both sides;
 * 1 when a side has only disturbed ones (the row cannot be judged). */
static int drop_disturbed(const struct pg_record **b, int *nb, const struct pg_record **n, int *nn, int *left_out,
			  const struct pg_record **why)
{
	int cb = 0, cn = 0;
	for (int i = 0; i < *nb; i++)
		cb += !b[i]->disturbed;
	for (int i = 0; i < *nn; i++)
		cn += !n[i]->disturbed;
	*why = NULL;
	for (int i = 0; i < *nb && !*why; i++)
		if (b[i]->disturbed)
			*why = b[i];
	for (int i = 0; i < *nn && !*why; i++)
		if (n[i]->disturbed)
			*why = n[i];
	if (!cb || !cn)
		return 1;
	*left_out = (*nb - cb) + (*nn - cn);
	int k = 0;
	for (int i = 0; i < *nb; i++)
		if (!b[i]->disturbed)
			b[k++] = b[i];
	*nb = k;
	k = 0;
	for (int i = 0; i < *nn; i++)
		if (!n[i]->disturbed)
			n[k++] = n[i];
	*nn = k;
	return 0;
}

/* Geometric mean of the medians (their mean where one is not positive). */
static double centre(const struct pg_record **x, int n)
{
	double lsum = 0, sum = 0;
	int pos = 1;
	for (int i = 0; i < n; i++) {
		pos = pos && x[i]->median > 0;
		lsum += x[i]->median > 0 ? log(x[i]->median) : 0;
		sum += x[i]->median;
	}
	return pos ? exp(lsum / n) : sum / n;
}

/* What a result's env says decided its figure besides the build (a file
 * system's recent deletes), into buf; 0 when nothing. */
static int env_history(const struct pg_record *x, char *buf, size_t len)
{
	json_t *e = x->env ? json_loads(x->env, 0, NULL) : NULL;
	const char *h = json_string_value(json_object_get(e, "history"));
	if (h)
		snprintf(buf, len, "%s", h);
	json_decref(e);
	return h != NULL;
}

/* The CPU frequency range a result's env saw; 0 when not recorded. */
static int freq_range(const struct pg_record *x, double *lo, double *hi)
{
	json_t *e = x->env ? json_loads(x->env, 0, NULL) : NULL;
	json_t *a = json_object_get(e, "freq_min_khz"), *b = json_object_get(e, "freq_max_khz");
	int ok = json_is_number(a) && json_is_number(b);
	if (ok) {
		*lo = json_number_value(a);
		*hi = json_number_value(b);
	}
	json_decref(e);
	return ok;
}

/* The cache probe after a result's samples (env.cache_ns), 0 when none. */
static double cache_ns(const struct pg_record *x)
{
	json_t *e = x->env ? json_loads(x->env, 0, NULL) : NULL;
	json_t *v = json_object_get(e, "cache_ns");
	double ns = json_is_number(v) ? json_number_value(v) : 0;
	json_decref(e);
	return ns > 0 && isfinite(ns) ? ns : 0;
}

/* The CPU ran at clearly other frequencies in NEW than in BASE, or the
 * shared cache answered the cache probe from another level (a whole run
 * can be in either state: its own start is no help): the change may be
 * the machine's, not the build's. Which side ran in the slower conditions
 * (1 BASE, 2 NEW: the lower frequencies, the cache others held), 0 when
 * they are alike; what differed in why. */
static int env_differs(const struct pg_record *b, const struct pg_record *n, char *why, size_t len)
{
	double bc = cache_ns(b), nc = cache_ns(n);
	if (bc > 0 && nc > 0 && fmax(bc, nc) > PG_ENV_CACHE_FACTOR * fmin(bc, nc)) {
		snprintf(why, len, "the shared cache answered the cache probe in %.1f ns a load in BASE and %.1f "
			 "in NEW, others held it in %s", bc, nc, nc > bc ? "NEW" : "BASE");
		return nc > bc ? 2 : 1;
	}
	double blo, bhi, nlo, nhi;
	if (!freq_range(b, &blo, &bhi) || !freq_range(n, &nlo, &nhi))
		return 0;
	if (nhi * 1.05 >= blo && nlo <= bhi * 1.05)
		return 0;
	snprintf(why, len, "the CPU ran at %.0f-%.0f MHz in BASE and %.0f-%.0f MHz in NEW", blo / 1000, bhi / 1000,
		 nlo / 1000, nhi / 1000);
	return nhi < blo ? 2 : 1;
}

/* Whether two metrics of one result carry one figure: their samples are
 * proportional, or reciprocal (a rate and a time per operation). */
static int same_figure(const struct pg_record *a, const struct pg_record *b)
{
	if (a->nsamples == 1 && b->nsamples == 1) {
		/* One figure each: the same one when their benchmark stated the
		 * same uncertainty for both (cpu.scaling's efficiency is its
		 * speedup over N, their interval one) */
		double sa = pg_gate_stated_se(a->ci_lo, a->ci_hi, a->ci_level);
		double sb = pg_gate_stated_se(b->ci_lo, b->ci_hi, b->ci_level);
		return sa > 0 && fabs(sa - sb) <= 1e-6 * sa;
	}
	if (a->nsamples < 2 || a->nsamples != b->nsamples)
		return 0;
	for (int mode = 0; mode < 2; mode++) {
		double k0 = 0;
		int same = 1;
		for (int i = 0; i < a->nsamples && same; i++) {
			if (!(a->samples[i] > 0) || !(b->samples[i] > 0))
				return 0;
			double k = mode ? a->samples[i] * b->samples[i] : a->samples[i] / b->samples[i];
			if (i == 0)
				k0 = k;
			same = fabs(k - k0) <= 1e-6 * fabs(k0);
		}
		if (same)
			return 1;
	}
	return 0;
}

/* The earlier row of the same result whose figure row i restates; -1. */
static int alias_of(const struct pg_comparison *c, int i)
{
	const struct pg_record *x = c->rows[i].base;
	if (!c->rows[i].gated)
		return -1;	/* a descriptive row says so, whatever it is proportional to */
	for (int j = i - 1; j >= 0 && same_bench(c->rows[j].base, x); j--)
		if (c->rows[j].alias < 0 && c->rows[j].gated && same_figure(c->rows[j].base, x))
			return j;
	return -1;
}

/* One row: its runs on each side, what keeps it from being judged, its
 * test. */
static int make_row(struct work *w, const struct pg_record *k, struct pg_cmp_row *r)
{
	const struct pg_record **b = malloc(sizeof(*b) * (size_t)(w->base->n + w->new->n + 1));
	if (!b)
		return -1;
	const struct pg_record **n = b + w->base->n;
	int nb, nn;
	gather_base(w, k, b, &nb);
	if (gather_new(w, k, n, &nn) < 0) {
		free(b);
		return -1;
	}
	if (nn == 0) {
		free(b);
		return 0;	/* lost, listed */
	}
	memset(r, 0, sizeof(*r));
	r->base = b[0];
	r->new = n[0];
	r->alias = -1;
	r->g.p = 1;
	r->gated = !pg_metric_descriptive(k->metric) || w->o->gate_descriptive;
	/* a figure that what ran before it decides is no verdict on a build */
	for (int i = 0; i < nb + nn && !r->history[0]; i++)
		if (env_history(i < nb ? b[i] : n[i - nb], r->history, sizeof(r->history)))
			r->gated = r->gated && w->o->gate_descriptive;
	for (int i = 0; i < nb + nn && !r->bimodal; i++) {
		const struct pg_record *x = i < nb ? b[i] : n[i - nb];
		if (x->processes_bimodal) {
			r->bimodal = i < nb ? 1 : 2;
			r->bimodal_why = x->bimodal_why;
		}
	}
	const struct pg_record *dist;
	if (drop_disturbed(b, &nb, n, &nn, &r->left_out, &dist)) {
		char why[PG_CMP_NOTE_LEN];
		int in_new = 0;
		for (int i = 0; i < nn; i++)
			in_new |= n[i] == dist;
		snprintf(why, sizeof(why), "disturbed in %s: %s", in_new ? "NEW" : "BASE",
			 dist->disturbed_why ? dist->disturbed_why : "see its env");
		pg_cmp_set(r, PG_INCONCLUSIVE, why);
	}
	r->nbase = nb;
	r->nnew = nn;
	r->base_median = centre(b, nb);
	r->new_median = centre(n, nn);
	r->change_pct = r->base_median != 0 ? (r->new_median - r->base_median) / fabs(r->base_median) * 100
			: r->new_median == 0 ? 0 : INFINITY;
	int rc = r->verdict == PG_INCONCLUSIVE ? 0 : pg_cmp_test_row(r, b, nb, n, nn, w->o);
	/* a figure that came out the same to the last bit (a fact the machine
	 * keeps: os.boot.kernel) owes nothing to the environment; judged
	 * with the verdict (judge_env) */
	if (r->verdict != PG_INCONCLUSIVE && r->base_median != r->new_median)
		r->env_slower = env_differs(r->base, r->new, r->env_why, sizeof(r->env_why));
	free(b);
	return rc < 0 ? -1 : 1;
}

/* Every ok key of BASE's runs, once, in the order BASE first has it. */
static int make_rows(struct work *w)
{
	for (int j = 0; j < w->base->n; j++) {
		const struct pg_rrun *run = &w->base->runs[j];
		for (int i = 0; i < run->nres; i++) {
			const struct pg_record *k = &run->res[i];
			int earlier = k->status != PG_OK;
			for (int e = 0; e <= j && !earlier; e++) {
				const struct pg_record *x = find(&w->bix[e], k);
				earlier = x && x->status == PG_OK && (e < j || x < k);
			}
			if (earlier)
				continue;
			struct pg_comparison *c = w->c;
			if (c->n == w->rows_cap) {
				int cap = w->rows_cap ? 2 * w->rows_cap : 64;
				struct pg_cmp_row *rows = realloc(c->rows, sizeof(*rows) * (size_t)cap);
				if (!rows)
					return -1;
				c->rows = rows;
				w->rows_cap = cap;
			}
			int rc = make_row(w, k, &c->rows[c->n]);
			if (rc < 0)
				return -1;
			if (rc == 1) {
				c->rows[c->n].alias = alias_of(c, c->n);
				c->n++;
			}
		}
	}
	return 0;
}

/* Restating and descriptive rows say what they would be; unlike machines
 * leave every row unjudged; then the counts. */
static void finish(struct pg_comparison *c, const struct pg_cmp_opts *o)
{
	for (int i = 0; i < c->n; i++) {
		struct pg_cmp_row *r = &c->rows[i];
		if (r->alias >= 0) {
			const struct pg_cmp_row *a = &c->rows[r->alias];
			snprintf(r->why, sizeof(r->why), "derived from %s, judged there (%s)", a->base->metric,
				 pg_verdict_name(a->verdict));
			r->verdict = PG_NOT_GATED;
			r->gated = 0;
		} else if (!r->gated) {
			char was[40];
			snprintf(was, sizeof(was), "%s", pg_verdict_name(r->verdict));
			if (r->history[0])
				snprintf(r->why, sizeof(r->why), "decided by %.100s (--gate-descriptive gates it): %s",
					 r->history, was);
			else
				snprintf(r->why, sizeof(r->why), "descriptive, not gated (--gate-descriptive): %s", was);
			r->verdict = PG_NOT_GATED;
		} else if (c->nunlike && !o->force) {
			char was[40];
			snprintf(was, sizeof(was), "%s", pg_verdict_name(r->verdict));
			snprintf(r->why, sizeof(r->why), "unlike machines (listed above; --force to judge): %s", was);
			r->verdict = PG_INCONCLUSIVE;
		}
		c->nreg += r->verdict == PG_REGRESSED;
		c->nimp += r->verdict == PG_IMPROVED;
		c->ninc += r->verdict == PG_INCONCLUSIVE;
		c->nund += r->verdict == PG_UNDECIDED;
		c->nsame += r->verdict == PG_SAME;
		c->ninfo += r->verdict == PG_NOT_GATED;
	}
}

/* Runs that did not finish: what they lack is lost, and said why. */
static void unfinished(const struct pg_cmp_side *s, const char *side, struct pg_comparison *c)
{
	for (int i = 0; i < s->n; i++)
		if (!s->runs[i].finished) {
			char t[PG_CMP_NOTE_LEN];
			snprintf(t, sizeof(t), "%s run %.80s has no end record: it crashed, was killed or is still running",
				 side, s->runs[i].id);
			note(c->notes, &c->nnotes, t);
		}
}

int pg_compare_sides(const struct pg_cmp_side *base, const struct pg_cmp_side *new, const struct pg_cmp_opts *o,
		     struct pg_comparison *c)
{
	memset(c, 0, sizeof(*c));
	c->threshold = o->threshold_pct;
	c->forced = o->force;
	struct work w = { .base = base, .new = new, .o = o, .c = c };
	w.bix = calloc((size_t)(base->n + new->n), sizeof(*w.bix));
	int rc = w.bix ? 0 : -1;
	w.nix = w.bix ? w.bix + base->n : NULL;
	for (int i = 0; rc == 0 && i < base->n + new->n; i++)
		rc = index_run(i < base->n ? &base->runs[i] : &new->runs[i - base->n], &w.bix[i]);
	unfinished(base, "BASE", c);
	unfinished(new, "NEW", c);
	pg_compare_unlike(base, new, o, c);
	if (base->n == 1 && new->n == 1)
		spread_note(o, c);
	if (rc == 0)
		rc = make_rows(&w);
	if (rc == 0)
		rc = pg_cmp_verdicts(c, o);
	if (rc == 0)
		finish(c, o);
	for (int i = 0; w.bix && i < base->n + new->n; i++)
		free(w.bix[i].by);
	free(w.bix);
	if (rc < 0)
		pg_comparison_free(c);
	return rc;
}

void pg_comparison_free(struct pg_comparison *c)
{
	free(c->rows);
	free(c->lost);
	c->rows = NULL;
	c->lost = NULL;
	c->n = c->nlost = 0;
}

int pg_compare_exit(const struct pg_comparison *c, int allow_missing)
{
	if (c->nreg || (c->nlost && !allow_missing))
		return PG_CMP_FAIL;
	if (c->ninc || c->nund || (c->nunlike && !c->forced))
		return PG_CMP_UNJUDGED;
	return PG_CMP_PASS;
}
