/* SPDX-License-Identifier: MIT */
/*
 * A board's history from the store: its runs oldest first (as the store
 * lists them, by start), a row per result key with each run's median, and
 * the change points of each row's series. Only results that are figures
 * (status ok) are points; a run without one leaves a gap, which the
 * change-point search steps over.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/hash.h"
#include "core/registry.h"
#include "core/text.h"
#include "history.h"
#include "store/store.h"

static uint64_t key_hash(const char *bench, const char *params, const char *metric)
{
	uint64_t h = PG_HASH_INIT;
	const char *parts[] = { bench, params, metric };
	for (int i = 0; i < 3; i++)
		h = pg_hash_byte(pg_hash_str(h, parts[i], 0), 0xff);
	return h;
}

static int same_key(const struct pg_hist_row *r, const char *bench, const char *params, const char *metric)
{
	return strcmp(r->bench, bench) == 0 && strcmp(r->params, params) == 0 && strcmp(r->metric, metric) == 0;
}

int pg_history_row(const struct pg_history *h, const char *bench, const char *params, const char *metric)
{
	if (!h->index_cap)
		return -1;
	size_t mask = (size_t)h->index_cap - 1;
	for (size_t i = key_hash(bench, params, metric) & mask;; i = (i + 1) & mask) {
		int r = h->index[i];
		if (r < 0 || same_key(&h->rows[r], bench, params, metric))
			return r;
	}
}

/* The index grown to twice the rows (a power of two), every row in it. */
static int index_rows(struct pg_history *h)
{
	if (h->index_cap >= 2 * (h->nrows + 1))
		return 0;
	int cap = 64;
	while (cap < 4 * (h->nrows + 1))
		cap *= 2;
	int *idx = malloc(sizeof(int) * (size_t)cap);
	if (!idx)
		return -1;
	for (int i = 0; i < cap; i++)
		idx[i] = -1;
	for (int r = 0; r < h->nrows; r++) {
		const struct pg_hist_row *x = &h->rows[r];
		size_t i = key_hash(x->bench, x->params, x->metric) & (size_t)(cap - 1);
		while (idx[i] >= 0)
			i = (i + 1) & (size_t)(cap - 1);
		idx[i] = r;
	}
	free(h->index);
	h->index = idx;
	h->index_cap = cap;
	return 0;
}

/* Room for runs [0, cap) in every row. */
static int grow_runs(struct pg_history *h, int cap)
{
	struct pg_hist_run *runs = realloc(h->runs, sizeof(*runs) * (size_t)cap);
	if (!runs)
		return -1;
	h->runs = runs;
	for (int r = 0; r < h->nrows; r++) {
		struct pg_hist_row *x = &h->rows[r];
		double *v = realloc(x->v, sizeof(double) * (size_t)cap);
		if (v)
			x->v = v;
		unsigned char *m = realloc(x->marks, (size_t)cap);
		if (m)
			x->marks = m;
		if (!v || !m)
			return -1;
	}
	return 0;
}

static int add_row(struct pg_history *h, const struct pg_record *x, int run_cap)
{
	if (index_rows(h) < 0)
		return -1;
	struct pg_hist_row *rows = realloc(h->rows, sizeof(*rows) * (size_t)(h->nrows + 1));
	if (!rows)
		return -1;
	h->rows = rows;
	struct pg_hist_row *r = &rows[h->nrows];
	memset(r, 0, sizeof(*r));
	r->bench = strdup(x->bench);
	r->params = strdup(x->params ? x->params : "{}");
	r->metric = strdup(x->metric);
	r->unit = strdup(x->unit ? x->unit : "");
	r->higher = x->higher;
	r->v = malloc(sizeof(double) * (size_t)run_cap);
	r->marks = calloc((size_t)run_cap, 1);
	h->nrows++;
	if (!r->bench || !r->params || !r->metric || !r->unit || !r->v || !r->marks)
		return -1;
	for (int i = 0; i < run_cap; i++)
		r->v[i] = NAN;
	size_t mask = (size_t)h->index_cap - 1, i = key_hash(r->bench, r->params, r->metric) & mask;
	while (h->index[i] >= 0)
		i = (i + 1) & mask;
	h->index[i] = h->nrows - 1;
	return 0;
}

/* An id, a glob over ids, or a group ("mem": every mem.* id); an id the
 * registry knows is that benchmark alone, as `run` selects. */
static int selected(const char *bench, const char *const *sel, int n)
{
	for (int i = 0; i < n; i++) {
		size_t len = strlen(sel[i]);
		if (fnmatch(sel[i], bench, 0) == 0 ||
		    (!pg_registry_find(sel[i]) && strncmp(bench, sel[i], len) == 0 && bench[len] == '.'))
			return 1;
	}
	return n == 0;
}

static int add_results(struct pg_history *h, const struct pg_rrun *r, const char *const *sel, int nsel, int cap)
{
	int run = h->nruns - 1;
	for (int i = 0; i < r->nres; i++) {
		const struct pg_record *x = &r->res[i];
		if (!x->bench || !x->metric || !selected(x->bench, sel, nsel))
			continue;
		int row = pg_history_row(h, x->bench, x->params ? x->params : "{}", x->metric);
		if (row < 0 && add_row(h, x, cap) < 0)
			return -1;
		struct pg_hist_row *hr = &h->rows[row < 0 ? h->nrows - 1 : row];
		int ok = x->status == PG_OK && isfinite(x->median);
		hr->v[run] = ok ? x->median : NAN;
		hr->marks[run] = ok ? (x->noisy ? PG_HISTORY_NOISY : 0) | (x->disturbed ? PG_HISTORY_DISTURBED : 0) : 0;
	}
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

int pg_history_add_run(struct pg_history *h, const struct pg_rrun *r, const char *const *selectors, int nselectors)
{
	/* arrays grow by powers of two: nruns is a power of two when full */
	int cap = 1;
	while (cap < h->nruns + 1)
		cap *= 2;
	if ((h->nruns == 0 || (h->nruns & (h->nruns - 1)) == 0) && grow_runs(h, cap) < 0)
		return -1;
	for (int i = 0; i < h->nrows; i++) {
		h->rows[i].v[h->nruns] = NAN;
		h->rows[i].marks[h->nruns] = 0;
	}
	struct pg_hist_run *hr = &h->runs[h->nruns++];
	hr->id = strdup(r->id);
	hr->started = strdup(r->started ? r->started : "");
	hr->labels = dup_or_null(r->labels);
	if (!hr->id || !hr->started || (r->labels && !hr->labels))
		return -1;
	return add_results(h, r, selectors, nselectors, cap);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of v[from, to) (sorted in place: the caller's copy). */
static double median_of(double *v, int from, int to)
{
	int n = to - from;
	qsort(v + from, (size_t)n, sizeof(double), cmp_double);
	return n % 2 ? v[from + n / 2] : (v[from + n / 2 - 1] + v[from + n / 2]) / 2;
}

/* The row's change points: found on its figures (gaps left out), each
 * with the medians of the segments either side, at the run it starts. */
static int detect_row(struct pg_hist_row *r, int nruns, const struct pg_cp_opts *o)
{
	double *x = malloc(sizeof(double) * (size_t)(nruns + 1) * 2);
	int *run = malloc(sizeof(int) * (size_t)(nruns + 1));
	struct pg_cp *cp = malloc(sizeof(*cp) * (size_t)(nruns / 2 + 1));
	int n = 0, k = -1;
	if (x && run && cp) {
		for (int i = 0; i < nruns; i++)
			if (isfinite(r->v[i])) {
				run[n] = i;
				x[n++] = r->v[i];
			}
		r->npoints = n;
		k = pg_cp_find(x, n, o, cp, nruns / 2 + 1);
	}
	free(r->changes);
	r->changes = k > 0 ? calloc((size_t)k, sizeof(*r->changes)) : NULL;
	r->nchanges = 0;
	double *sorted = x ? x + nruns + 1 : NULL;
	for (int i = 0; r->changes && i < k; i++) {
		int from = i ? cp[i - 1].at : 0, to = i + 1 < k ? cp[i + 1].at : n;
		memcpy(sorted, x, sizeof(double) * (size_t)n);
		struct pg_hist_change *c = &r->changes[r->nchanges++];
		c->at = run[cp[i].at];
		c->p = cp[i].p;
		c->before = median_of(sorted, from, cp[i].at);
		c->after = median_of(sorted, cp[i].at, to);
	}
	free(x);
	free(run);
	free(cp);
	return k < 0 || (k > 0 && !r->changes) ? -1 : 0;
}

int pg_history_detect(struct pg_history *h)
{
	for (int r = 0; r < h->nrows; r++)
		if (detect_row(&h->rows[r], h->nruns, &h->cp) < 0)
			return -1;
	return 0;
}

int pg_history_changes(const struct pg_history *h)
{
	int n = 0;
	for (int r = 0; r < h->nrows; r++)
		n += h->rows[r].nchanges;
	return n;
}

void pg_hist_row_name(const struct pg_hist_row *r, char *buf, size_t len)
{
	char params[300];
	pg_params_display(r->bench, r->params, params, sizeof(params));
	snprintf(buf, len, "%s%s%s %s", r->bench, params[0] ? " " : "", params, r->metric);
}

static void free_row(struct pg_hist_row *r)
{
	free(r->bench);
	free(r->params);
	free(r->metric);
	free(r->unit);
	free(r->v);
	free(r->marks);
	free(r->changes);
}

void pg_history_free(struct pg_history *h)
{
	for (int i = 0; i < h->nruns; i++) {
		free(h->runs[i].id);
		free(h->runs[i].started);
		free(h->runs[i].labels);
	}
	for (int i = 0; i < h->nrows; i++)
		free_row(&h->rows[i]);
	free(h->runs);
	free(h->rows);
	free(h->index);
	free(h->board);
	memset(h, 0, sizeof(*h));
}

/* Whether labels has every KEY=VALUE asked for. */
static int labels_match(const char *labels, const struct pg_hist_query *q)
{
	for (int i = 0; i < q->nlabels; i++) {
		char key[256];
		const char *eq = strchr(q->labels[i], '=');
		if (!eq)
			return 0;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - q->labels[i]), q->labels[i]);
		if (!pg_labels_have(labels, key, eq + 1))
			return 0;
	}
	return 1;
}

/* The runs of the board with the labels, oldest first: their ids. */
static int board_runs(struct pg_store *s, const struct pg_hist_query *q, char (**ids)[PG_RUN_ID_MAX + 1], int *n,
		      char *err, size_t errlen)
{
	struct pg_run_summary *all;
	int nall;
	*n = 0;
	if (s->ops->list_runs(s, &all, &nall, err, errlen) < 0)
		return -1;
	*ids = malloc(sizeof(**ids) * (size_t)(nall + 1));
	for (int i = 0; *ids && i < nall; i++)
		if (strcmp(all[i].board, q->board) == 0 && labels_match(all[i].labels, q))
			snprintf((*ids)[(*n)++], PG_RUN_ID_MAX + 1, "%s", all[i].id);
	pg_run_summaries_free(all, nall);
	return *ids ? 0 : pg_err(err, errlen, "out of memory");
}

/* Rows without a figure in any run (skipped or failed everywhere) left
 * out: a line of dashes says nothing. */
static int drop_empty(struct pg_history *h)
{
	int k = 0;
	for (int r = 0; r < h->nrows; r++) {
		int any = 0;
		for (int i = 0; i < h->nruns && !any; i++)
			any = isfinite(h->rows[r].v[i]);
		if (any)
			h->rows[k++] = h->rows[r];
		else
			free_row(&h->rows[r]);
	}
	h->nrows = k;
	free(h->index);
	h->index = NULL;
	h->index_cap = 0;
	return index_rows(h);
}

/* Each selector matches a row: a misspelt one is said, not ignored. */
static int selectors_used(const struct pg_history *h, const struct pg_hist_query *q, char *err, size_t errlen)
{
	for (int i = 0; i < q->nselectors; i++) {
		int used = 0;
		for (int r = 0; r < h->nrows && !used; r++)
			used = selected(h->rows[r].bench, &q->selectors[i], 1);
		if (!used)
			return pg_err(err, errlen, "no figure of board %s's %d run%s matches '%s' (see 'perfguide list')",
				      q->board, h->nruns, h->nruns == 1 ? "" : "s", q->selectors[i]);
	}
	if (!h->nrows)
		return pg_err(err, errlen, "board %s's %d run%s hold no figures", q->board, h->nruns,
			      h->nruns == 1 ? "" : "s");
	return 0;
}

static int load_runs(struct pg_store *s, const struct pg_hist_query *q, char (*ids)[PG_RUN_ID_MAX + 1], int n,
		     struct pg_history *h, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		struct pg_rrun r;
		int found = s->ops->load_figures(s, ids[i], &r, err, errlen);
		if (found == 0)
			return pg_err(err, errlen, "run '%s' vanished from the store", ids[i]);
		if (found < 0)
			return -1;
		int rc = pg_history_add_run(h, &r, q->selectors, q->nselectors);
		pg_rrun_free(&r);
		if (rc < 0)
			return pg_err(err, errlen, "out of memory");
	}
	return 0;
}

int pg_history_load(struct pg_store *s, const struct pg_hist_query *q, struct pg_history *h, char *err, size_t errlen)
{
	char (*ids)[PG_RUN_ID_MAX + 1] = NULL;
	int n, max = q->max_runs > 0 ? q->max_runs : PG_HISTORY_MAX_RUNS;
	memset(h, 0, sizeof(*h));
	h->cp = pg_cp_defaults;
	if (!(h->board = strdup(q->board)))
		return pg_err(err, errlen, "out of memory");
	if (board_runs(s, q, &ids, &n, err, errlen) < 0)
		return -1;
	int rc = -1;
	if (n == 0)
		pg_err(err, errlen, "no runs of board '%s'%s in the store %s (see 'perfguide runs')", q->board,
		       q->nlabels ? " with the labels given" : "", s->path);
	else {
		h->skipped = n > max ? n - max : 0;
		rc = load_runs(s, q, ids + h->skipped, n - h->skipped, h, err, errlen);
	}
	free(ids);
	if (rc == 0 && drop_empty(h) < 0)
		rc = pg_err(err, errlen, "out of memory");
	if (rc == 0 && (rc = selectors_used(h, q, err, errlen)) == 0 && pg_history_detect(h) < 0)
		rc = pg_err(err, errlen, "out of memory");
	return rc;
}

void pg_hist_labels(const char *labels, char *buf, size_t len)
{
	json_t *o = labels && labels[0] ? json_loads(labels, 0, NULL) : NULL, *v;
	const char *k;
	size_t at = 0;
	buf[0] = '\0';
	json_object_foreach(o, k, v) {
		const char *t = json_string_value(v);
		int w = snprintf(buf + at, len - at, "%s%s=%s", at ? ", " : "", k, t ? t : "");
		if (w < 0 || (size_t)w >= len - at) {
			pg_utf8_trim(buf);
			break;
		}
		at += (size_t)w;
	}
	json_decref(o);
}
