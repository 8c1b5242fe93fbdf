/* SPDX-License-Identifier: MIT */
/* A board's noise profile from its runs (profile.h). */
#include "profile.h"

#include "compare_int.h"

#include <stdio.h>

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One run's figure of one row. */
struct obs {
	const struct pg_record *x;
	int run;
	double l;	/* log of the run's figure */
};

static int cmp_key(const char *b, const char *p, const char *m, const struct pg_record *y)
{
	int c = strcmp(b, y->bench);
	if (!c)
		c = strcmp(p, y->params);
	return c ? c : strcmp(m, y->metric);
}

static int by_key_run(const void *a, const void *b)
{
	const struct obs *x = a, *y = b;
	int c = cmp_key(x->x->bench, x->x->params, x->x->metric, y->x);
	return c ? c : (x->run > y->run) - (x->run < y->run);
}

/* Every undisturbed ok result's run figure; how many into *n. */
static struct obs *observe(const struct pg_rrun *runs, int nruns, int *n)
{
	size_t total = 0;
	for (int i = 0; i < nruns; i++)
		total += (size_t)runs[i].nres;
	struct obs *o = malloc(sizeof(*o) * (total + 1));
	*n = 0;
	for (int i = 0; o && i < nruns; i++)
		for (int k = 0; k < runs[i].nres; k++) {
			const struct pg_record *x = &runs[i].res[k];
			double med, se;
			int cnt;
			if (x->status != PG_OK || x->disturbed || !(x->median > 0))
				continue;
			pg_cmp_run_level(x, &med, &se, &cnt);
			if (med > 0 && isfinite(med))
				o[(*n)++] = (struct obs){ x, i, log(med) };
		}
	return o;
}

/* The spread of one row's observations o[0..n) (a run's first only). */
static int row_of(const struct obs *o, int n, struct pg_noise_row *row)
{
	double sum = 0, sq = 0;
	int k = 0;
	for (int i = 0; i < n; i++)
		if (i == 0 || o[i].run != o[i - 1].run) {
			sum += o[i].l;
			k++;
		}
	if (k < PG_NOISE_MIN_RUNS)
		return 0;
	double mean = sum / k;
	for (int i = 0; i < n; i++)
		if (i == 0 || o[i].run != o[i - 1].run)
			sq += (o[i].l - mean) * (o[i].l - mean);
	*row = (struct pg_noise_row){ o[0].x->bench, o[0].x->params, o[0].x->metric, sqrt(sq / (k - 1)), k };
	return 1;
}

int pg_noise_build(const struct pg_rrun *runs, int n, struct pg_noise_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->nruns = n;
	int no;
	struct obs *o = observe(runs, n, &no);
	if (!o)
		return -1;
	qsort(o, (size_t)no, sizeof(*o), by_key_run);
	p->rows = malloc(sizeof(*p->rows) * (size_t)(no + 1));
	if (!p->rows) {
		free(o);
		return -1;
	}
	for (int i = 0, j; i < no; i = j) {
		for (j = i + 1; j < no && cmp_key(o[i].x->bench, o[i].x->params, o[i].x->metric, o[j].x) == 0; j++)
			;
		p->n += row_of(o + i, j - i, &p->rows[p->n]);
	}
	free(o);
	return 0;
}

const struct pg_noise_row *pg_noise_find(const struct pg_noise_profile *p, const struct pg_record *k)
{
	int lo = 0, hi = p->n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct pg_noise_row *r = &p->rows[mid];
		int c = strcmp(k->bench, r->bench);
		if (!c)
			c = strcmp(k->params, r->params);
		if (!c)
			c = strcmp(k->metric, r->metric);
		if (!c)
			return r;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

void pg_noise_free(struct pg_noise_profile *p)
{
	for (int i = 0; i < p->nown; i++)
		pg_rrun_free(&p->own[i]);
	free(p->own);
	free(p->rows);
	memset(p, 0, sizeof(*p));
}

/* Whether two JSON objects (text; NULL: none) agree on these fields. */
static int same_fields(const char *a, const char *b, const char *const *fields)
{
	json_t *x = a ? json_loads(a, 0, NULL) : NULL, *y = b ? json_loads(b, 0, NULL) : NULL;
	int same = 1;
	for (int i = 0; fields[i] && same; i++) {
		json_t *u = json_object_get(x, fields[i]), *v = json_object_get(y, fields[i]);
		same = (!u && !v) || (u && v && json_equal(u, v));
	}
	json_decref(x);
	json_decref(y);
	return same;
}

int pg_noise_same_setup(const struct pg_rrun *a, const struct pg_rrun *b)
{
	static const char *const build[] = { "compiler", "cflags", "build_type", "target", NULL };
	static const char *const config[] = { "suite", "min_time", NULL };
	return a->board && b->board && strcmp(a->board, b->board) == 0 && same_fields(a->build, b->build, build) &&
	       same_fields(a->config, b->config, config);
}

/* The one board of both sides' runs; NULL when they are of several. */
static const char *one_board(const struct pg_cmp_side *base, const struct pg_cmp_side *new)
{
	const char *b = new->n ? new->runs[0].board : NULL;
	for (int i = 0; b && i < base->n + new->n; i++) {
		const struct pg_rrun *r = i < base->n ? &base->runs[i] : &new->runs[i - base->n];
		if (!r->board || strcmp(r->board, b) != 0)
			b = NULL;
	}
	return b;
}

/* Whether a run of the store may give the profile: of the board, complete,
 * before NEW's latest start, on neither side. */
static int candidate(const struct pg_run_summary *x, const char *board, const char *before,
		     const struct pg_cmp_side *base, const struct pg_cmp_side *new)
{
	if (strcmp(x->board, board) != 0 || strcmp(x->status, "complete") != 0 ||
	    (before && strcmp(x->started, before) >= 0))
		return 0;
	for (int i = 0; i < base->n + new->n; i++) {
		const struct pg_rrun *r = i < base->n ? &base->runs[i] : &new->runs[i - base->n];
		if (strcmp(r->id, x->id) == 0)
			return 0;
	}
	return 1;
}

/* NEW's latest start (NULL: a run without one). */
static const char *latest_start(const struct pg_cmp_side *new)
{
	const char *t = NULL;
	for (int i = 0; i < new->n; i++) {
		if (!new->runs[i].started)
			return NULL;
		if (!t || strcmp(new->runs[i].started, t) > 0)
			t = new->runs[i].started;
	}
	return t;
}

/* Loads the store's runs that may stand in the profile, newest first, up
 * to PG_NOISE_MAX_RUNS of them measured as NEW was. */
static int load_profile_runs(struct pg_store *s, const struct pg_run_summary *runs, int n, const char *board,
			     const struct pg_cmp_side *base, const struct pg_cmp_side *new, struct pg_noise_profile *p,
			     char *err, size_t errlen)
{
	const char *before = latest_start(new);
	p->own = calloc(PG_NOISE_MAX_RUNS, sizeof(*p->own));
	if (!p->own)
		return -1;
	/* looks at no more than a few times the runs it keeps */
	for (int i = n - 1, looked = 0; i >= 0 && p->nown < PG_NOISE_MAX_RUNS && looked < 4 * PG_NOISE_MAX_RUNS; i--) {
		if (!candidate(&runs[i], board, before, base, new))
			continue;
		looked++;
		struct pg_rrun *r = &p->own[p->nown];
		if (s->ops->load_run(s, runs[i].id, r, err, errlen) != 1)
			return -1;
		if (pg_noise_same_setup(&new->runs[0], r))
			p->nown++;
		else
			pg_rrun_free(r);
	}
	return 0;
}

int pg_noise_from_store(struct pg_store *s, const struct pg_cmp_side *base, const struct pg_cmp_side *new,
			struct pg_noise_profile *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	const char *board = one_board(base, new);
	if (!board)
		return 0;
	struct pg_run_summary *runs;
	int n;
	if (s->ops->list_runs(s, &runs, &n, err, errlen) < 0)
		return -1;
	int rc = load_profile_runs(s, runs, n, board, base, new, p, err, errlen);
	pg_run_summaries_free(runs, n);
	struct pg_rrun *own = p->own;
	int nown = p->nown;
	if (rc == 0 && nown >= PG_NOISE_MIN_RUNS)
		rc = pg_noise_build(own, nown, p);	/* clears p */
	p->own = own;
	p->nown = nown;
	snprintf(p->board, sizeof(p->board), "%s", board);
	snprintf(p->where, sizeof(p->where), "%s", s->path);
	if (rc < 0 && !err[0])
		snprintf(err, errlen, "out of memory");
	return rc;
}
