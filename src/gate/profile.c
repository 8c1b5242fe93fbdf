/* A board's noise profile from its runs (profile.h). */
#include "profile.h"

#include "compare_int.h"

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
