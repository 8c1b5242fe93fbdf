/* SPDX-License-Identifier: MIT */
/*
 * A section pivoted on one parameter (its rows_by): a row per value of it
 * and, per board, a column per (benchmark, metric, other parameters), as the
 * seed's storage tables; or, where the section has rows_bench, a row per
 * (benchmark, value) and a column per (metric, other parameters) across its
 * benchmarks, as the seed's OpenSSL table (algorithm x buffer size).
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record_json.h"
#include "core/text.h"
#include "table.h"

struct pivot {
	const char *param;
	const char *shown;	/* the section's rows_shown: how a row's value reads, a column each */
	int nshown;
	int by_bench;		/* rows are (benchmark, value): the section's rows_bench */
	char (*vals)[160];	/* the rows: the parameter's values, displayed */
	double *num;		/* and as numbers, to sort them */
	int *bench;		/* and (by_bench) a model row of their benchmark */
	int *group;		/* and its benchmark's place among the section's */
	int nvals, numeric, ngroups;
	int one_bench;		/* every column is of one benchmark */
	int ncpu;		/* columns with the CPU load beside them */
	int *keys;		/* the columns: a model row that stands for each (bench, metric, rest) */
	const int *next;	/* per model row (less first): the next of its (value, key), -1 none */
	int first;
	int nkeys;
	char *merged;		/* per column: it holds more than one benchmark */
	char *cpu;		/* per column: the system's CPU load goes beside it (its result's first) */
	char *dead;		/* per column: skipped figures alone (a line under the table, prune.c) */
	int *val_of, *key_of;	/* per model row of the section */
	int *how;		/* per column: how the row being placed may join it (join.c) */
};

/* Part j of a '|'-separated list ("" where it has fewer); 0: none. */
static int list_part(const char *list, int j, char *buf, size_t len)
{
	buf[0] = '\0';
	for (const char *p = list; p; j--) {
		const char *bar = strchr(p, '|');
		if (j == 0) {
			snprintf(buf, len, "%.*s", (int)(bar ? (size_t)(bar - p) : strlen(p)), p);
			return 1;
		}
		p = bar ? bar + 1 : NULL;
	}
	return 0;
}

/* How many parts a '|'-separated list has (1 for none). */
static int list_count(const char *list)
{
	int n = 1;
	for (const char *p = list; p && (p = strchr(p, '|')); p++)
		n++;
	return n;
}

/* Whether model rows a and b are of one column's benchmark: by_bench, a
 * column holds every benchmark of the section. */
static int same_bench(const struct pivot *pv, const struct pg_grow *a, const struct pg_grow *b)
{
	return pv->by_bench || strcmp(a->bench, b->bench) == 0;
}

/* The parameter's value in a row ("" when the row lacks it), and the row's
 * parameters without it (canonical JSON). */
static json_t *rest_json(const struct pg_guide *g, const struct pg_grow *row, const char *param);

static void split_params(const struct pg_guide *g, const struct pg_grow *row, const char *param, char *val,
			 size_t vlen, double *num, char **rest)
{
	json_t *p = json_loads(row->params, 0, NULL);
	json_t *v = json_object_get(p, param);
	char one[160];
	val[0] = '\0';
	/* NAN: not a number, so the rows keep their order of appearance */
	*num = json_is_number(v) ? json_number_value(v) : NAN;
	if (v) {
		json_t *o = json_pack("{sO}", param, v);
		char *t = pg_json_text(o);
		pg_params_display(row->bench, t ? t : "{}", one, sizeof(one));
		free(t);
		json_decref(o);
		const char *eq = strchr(one, '=');
		pg_text_copy(val, vlen, eq ? eq + 1 : one);
	}
	json_decref(p);
	p = rest_json(g, row, param);
	*rest = pg_json_text(p);
	json_decref(p);
}

/* Whether a parameter of x has another value in y: one that y lacks
 * (a hash has no op, a cipher does) does not, where a column holds every
 * benchmark of the section. */
static int differs_in(const struct pivot *pv, json_t *y, const char *name, json_t *v)
{
	json_t *w = json_object_get(y, name);
	return pv->by_bench && !w ? 0 : !json_equal(w, v);
}

/* Whether two rows' other parameters (canonical JSON) put them in one column. */
static int rests_match(const struct pivot *pv, const char *a, const char *b)
{
	if (strcmp(a, b) == 0 || !pv->by_bench)
		return strcmp(a, b) == 0;
	json_t *x = json_loads(a, 0, NULL), *y = json_loads(b, 0, NULL), *v;
	const char *name;
	int match = 1;
	json_object_foreach(x, name, v)
		match &= !differs_in(pv, y, name, v);
	json_decref(x);
	json_decref(y);
	return match;
}

/* The column of row r: the one of its parameters; for a row that lacks
 * some (by_bench: a published table's), the one join.c picks of those it
 * agrees with, never merely the first (the backend a run recorded first). */
static int pivot_key(const struct pg_guide *g, struct pivot *pv, int r, char **rests, int first)
{
	const struct pg_grow *row = &g->rows[r];
	int *how = pv->how;
	for (int k = 0; k < pv->nkeys; k++) {
		const struct pg_grow *o = &g->rows[pv->keys[k]];
		const char *full = rests[pv->keys[k] - first], *rest = rests[r - first];
		how[k] = PG_JOIN_NO;
		if (!same_bench(pv, o, row) || strcmp(o->metric, row->metric) != 0)
			continue;
		if (strcmp(full, rest) == 0)
			return k;
		if (pv->by_bench && rests_match(pv, full, rest))
			how[k] = pg_row_joins(row->bench, rest, full);
	}
	int k = pg_join_pick(how, pv->nkeys);
	if (k >= 0)
		return k;
	pv->keys[pv->nkeys] = r;
	return pv->nkeys++;
}

/* Whether columns a and b have a row for the same value of the parameter. */
static int keys_collide(const struct pivot *pv, int a, int b, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; pv->key_of[i] == a && j < n; j++)
			if (pv->key_of[j] == b && pv->val_of[j] == pv->val_of[i])
				return 1;
	return 0;
}

/* The label every row of column k carries, or NULL when they differ. */
static const char *key_label(const struct pg_guide *g, const struct pivot *pv, int k, int first, int n)
{
	const char *l = NULL;
	for (int i = 0; i < n; i++) {
		const char *x = g->rows[first + i].label;
		if (pv->key_of[i] != k)
			continue;
		if (!x || (l && strcmp(l, x) != 0))
			return NULL;
		l = x;
	}
	return l;
}

/* Benchmarks that share a metric and the other parameters, and whose rows
 * never meet, share a column: CoreMark-PRO's score row beside its workloads'
 * rows, each its own benchmark. Write and read of one buffer size meet, and
 * keep a column each; so do columns their labels name apart ("EMMC EXT4
 * Write", "EMMC EXT4 Read") even where one ran at sizes the other did not. */
static void pivot_merge(const struct pg_guide *g, struct pivot *pv, char **rests, int first, int n)
{
	for (int b = 1; b < pv->nkeys; b++)
		for (int a = 0; a < b; a++) {
			const struct pg_grow *x = &g->rows[pv->keys[a]], *y = &g->rows[pv->keys[b]];
			if (strcmp(x->bench, y->bench) == 0 || strcmp(x->metric, y->metric) != 0 ||
			    strcmp(rests[pv->keys[a] - first], rests[pv->keys[b] - first]) != 0 ||
			    keys_collide(pv, a, b, n))
				continue;
			const char *la = key_label(g, pv, a, first, n), *lb = key_label(g, pv, b, first, n);
			if (la && lb && strcmp(la, lb) != 0)
				continue;
			for (int i = 0; i < n; i++)
				pv->key_of[i] = pv->key_of[i] == b ? a : pv->key_of[i] > b ? pv->key_of[i] - 1
												: pv->key_of[i];
			memmove(&pv->keys[b], &pv->keys[b + 1], sizeof(int) * (size_t)(pv->nkeys - b - 1));
			memmove(&pv->merged[b], &pv->merged[b + 1], (size_t)(pv->nkeys - b - 1));
			pv->merged[a] = 1;
			pv->nkeys--;
			b--;
			break;
		}
}

static int pivot_val(const struct pg_guide *g, struct pivot *pv, int r, const char *val, double num)
{
	int group = -1;
	for (int i = 0; i < pv->nvals; i++) {
		int same = !pv->by_bench || strcmp(g->rows[pv->bench[i]].bench, g->rows[r].bench) == 0;
		if (same && strcmp(pv->vals[i], val) == 0)
			return i;
		if (same)
			group = pv->group[i];
	}
	pg_text_copy(pv->vals[pv->nvals], sizeof(pv->vals[0]), val);
	pv->num[pv->nvals] = num;
	pv->bench[pv->nvals] = r;
	pv->group[pv->nvals] = group >= 0 ? group : pv->ngroups++;
	return pv->nvals++;
}

/* Whether row value a goes after b: by benchmark (in order of appearance)
 * first where rows are (benchmark, value); then in the parameter's order
 * when every value is a number (rows without it last), else in order of
 * first appearance. */
static int val_later(const struct pivot *pv, int a, int b)
{
	if (pv->group[a] != pv->group[b])
		return pv->group[a] > pv->group[b];
	const char *x = pv->vals[a], *y = pv->vals[b];
	if (pv->numeric && x[0] && y[0])
		return pv->num[a] > pv->num[b];
	return !x[0] && y[0];
}

static void pivot_sort(struct pivot *pv, int n)
{
	int *perm = malloc(sizeof(int) * (size_t)(pv->nvals + 1));
	int *rank = malloc(sizeof(int) * (size_t)(pv->nvals + 1));
	int *bench = malloc(sizeof(int) * (size_t)(pv->nvals + 1));
	int *group = malloc(sizeof(int) * (size_t)(pv->nvals + 1));
	char (*vals)[160] = malloc(sizeof(*vals) * (size_t)(pv->nvals + 1));
	double *num = malloc(sizeof(double) * (size_t)(pv->nvals + 1));
	if (perm && rank && bench && group && vals && num) {
		for (int i = 0; i < pv->nvals; i++)
			perm[i] = i;
		for (int i = 1; i < pv->nvals; i++)
			for (int j = i; j > 0 && val_later(pv, perm[j - 1], perm[j]); j--) {
				int x = perm[j];
				perm[j] = perm[j - 1];
				perm[j - 1] = x;
			}
		for (int i = 0; i < pv->nvals; i++) {
			rank[perm[i]] = i;
			memcpy(vals[i], pv->vals[perm[i]], sizeof(vals[i]));
			bench[i] = pv->bench[perm[i]];
			group[i] = pv->group[perm[i]];
			num[i] = pv->num[perm[i]];
		}
		memcpy(pv->vals, vals, sizeof(*vals) * (size_t)pv->nvals);
		memcpy(pv->bench, bench, sizeof(int) * (size_t)pv->nvals);
		memcpy(pv->group, group, sizeof(int) * (size_t)pv->nvals);
		memcpy(pv->num, num, sizeof(double) * (size_t)pv->nvals);
		for (int i = 0; i < n; i++)
			if (pv->val_of[i] >= 0)
				pv->val_of[i] = rank[pv->val_of[i]];
	}
	free(num);
	free(vals);
	free(group);
	free(bench);
	free(rank);
	free(perm);
}

/* More rows or columns than this (per board) is no table to read: the
 * section is written flat. */
#define PIVOT_MAX 1024

/* Per column: whether the system's CPU load goes beside it. A result's
 * metrics have one CPU load: it goes after the figures of what was done
 * (the leading columns of its result that go the first one's way: Mbit/s
 * and kpps, throughput), before what it cost (packet loss, the process's
 * own CPU share), as the seed's tables have it. */
static void cpu_columns(const struct pg_guide *g, struct pivot *pv, char **rests, int first)
{
	for (int k = 0; k < pv->nkeys; k++) {
		const struct pg_grow *row = &g->rows[pv->keys[k]];
		int way = -1, lead = 1, next = -1;
		for (int j = 0; j < pv->nkeys && next < 0; j++) {
			const struct pg_grow *o = &g->rows[pv->keys[j]];
			if (!same_bench(pv, o, row) || !rests_match(pv, rests[pv->keys[j] - first], rests[pv->keys[k] - first]))
				continue;
			if (way < 0)
				way = o->higher;	/* the result's first column */
			if (j <= k)
				lead &= o->higher == way;
			else
				next = j;
		}
		pv->cpu[k] = lead && (next < 0 || g->rows[pv->keys[next]].higher != way);
	}
}

static int pivot_alloc(struct pivot *pv, int n)
{
	pv->vals = calloc((size_t)n + 1, sizeof(*pv->vals));
	pv->num = calloc((size_t)n + 1, sizeof(double));
	pv->bench = calloc((size_t)n + 1, sizeof(int));
	pv->group = calloc((size_t)n + 1, sizeof(int));
	pv->keys = calloc((size_t)n + 1, sizeof(int));
	pv->val_of = calloc((size_t)n + 1, sizeof(int));
	pv->key_of = calloc((size_t)n + 1, sizeof(int));
	pv->merged = calloc((size_t)n + 1, 1);
	pv->cpu = calloc((size_t)n + 1, 1);
	pv->dead = calloc((size_t)n + 1, 1);
	pv->how = calloc((size_t)n + 1, sizeof(int));
	return pv->vals && pv->num && pv->bench && pv->group && pv->keys && pv->val_of && pv->key_of &&
			       pv->merged && pv->cpu && pv->dead && pv->how ? 0 : -1;
}

/* Per column: whether every figure in it was skipped (backend=kernel
 * where the kernel has no AF_ALG), so that it tells no other apart. */
static void dead_columns(const struct pg_guide *g, struct pivot *pv, int first, int n)
{
	memset(pv->dead, 1, (size_t)pv->nkeys);
	for (int i = 0; i < n; i++)
		for (int c = 0; pv->key_of[i] >= 0 && c < g->ncols; c++) {
			const struct pg_gcell *cell = &g->rows[first + i].cells[c];
			if (cell->present && cell->status != PG_SKIP)
				pv->dead[pv->key_of[i]] = 0;
		}
}

/* How many parameters a row's rest (canonical JSON) has. */
static int nparams(const char *rest)
{
	json_t *o = json_loads(rest ? rest : "{}", 0, NULL);
	int n = (int)json_object_size(o);
	json_decref(o);
	return n;
}

/* The columns, rows with more parameters first: a row that lacks one (a
 * published table's, its size alone) joins the column of a full row it
 * agrees with, never makes one that full rows of two kinds (openssl,
 * kernel) would share; then the columns in the order their rows first
 * appear. -1 past PIVOT_MAX columns. */
static int assign_keys(const struct pg_guide *g, struct pivot *pv, char **rests, int first, int n)
{
	int most = 0, *np = malloc(sizeof(int) * ((size_t)n + 1));
	if (!np)
		return -1;
	for (int i = 0; i < n; i++)
		if (pv->val_of[i] >= 0 && (np[i] = nparams(rests[i])) > most)
			most = np[i];
	for (int level = most; level >= 0; level--)
		for (int i = 0; i < n; i++) {
			if (pv->val_of[i] < 0 || np[i] != level)
				continue;
			pv->key_of[i] = pivot_key(g, pv, first + i, rests, first);
			if (pv->nkeys > PIVOT_MAX) {
				free(np);
				return -1;
			}
		}
	free(np);
	int *rank = calloc((size_t)pv->nkeys + 1, sizeof(int)), *keys = calloc((size_t)pv->nkeys + 1, sizeof(int));
	if (!rank || !keys) {
		free(rank);
		free(keys);
		return -1;
	}
	int r = 0;
	for (int k = 0; k < pv->nkeys; k++)
		rank[k] = -1;
	for (int i = 0; i < n; i++)
		if (pv->val_of[i] >= 0 && rank[pv->key_of[i]] < 0) {
			keys[r] = pv->keys[pv->key_of[i]];
			rank[pv->key_of[i]] = r++;
		}
	for (int i = 0; i < n; i++)
		if (pv->val_of[i] >= 0)
			pv->key_of[i] = rank[pv->key_of[i]];
	memcpy(pv->keys, keys, sizeof(int) * (size_t)pv->nkeys);
	free(rank);
	free(keys);
	return 0;
}

/* Whether the table has a figure of row r (sel: of its part). */
static int has_figure(const struct pg_guide *g, const struct pg_sel *sel, int r)
{
	for (int c = 0; sel && c < g->ncols; c++)
		if (pg_sel_has(sel, r, c))
			return 1;
	return !sel;
}

/* 0, 1 when the pivot has more than PIVOT_MAX rows or columns, -1 out of memory. */
static int pivot_build(const struct pg_guide *g, int s, const struct pg_sel *sel, struct pivot *pv, int first,
		       int n)
{
	char **rests = calloc((size_t)n + 1, sizeof(char *));
	int rc = rests && pivot_alloc(pv, n) == 0 ? 0 : -1;
	pv->param = g->sections[s].rows_by;
	pv->shown = g->sections[s].rows_shown;
	pv->nshown = list_count(pv->shown);
	pv->by_bench = g->sections[s].rows_bench != NULL;
	pv->numeric = 1;
	for (int i = 0; rc == 0 && i < n && pv->nvals <= PIVOT_MAX; i++) {
		char val[160];
		double num;
		/* a metric the section does not show: in no row or column */
		pv->val_of[i] = pv->key_of[i] = -1;
		if (!pg_row_main(g, &g->rows[first + i]) || !has_figure(g, sel, first + i))
			continue;
		split_params(g, &g->rows[first + i], pv->param, val, sizeof(val), &num, &rests[i]);
		if (!rests[i])
			rc = -1;
		pv->numeric &= !val[0] || !isnan(num);
		pv->val_of[i] = pivot_val(g, pv, first + i, val, num);
	}
	if (rc == 0 && pv->nvals > PIVOT_MAX)
		rc = 1;
	if (rc == 0 && assign_keys(g, pv, rests, first, n) < 0)
		rc = 1;
	if (rc == 0 && !pv->by_bench)
		pivot_merge(g, pv, rests, first, n);
	if (rc == 0) {
		cpu_columns(g, pv, rests, first);
		dead_columns(g, pv, first, n);
	}
	pv->one_bench = 1;
	for (int k = 0; k < pv->nkeys; k++) {
		pv->ncpu += pv->cpu[k];
		pv->one_bench &= strcmp(g->rows[pv->keys[k]].bench, g->rows[pv->keys[0]].bench) == 0;
	}
	for (int i = 0; rests && i < n; i++)
		free(rests[i]);
	free(rests);
	if (rc == 0)
		pivot_sort(pv, n);
	return rc;
}

static void pivot_free(struct pivot *pv)
{
	free(pv->vals);
	free(pv->num);
	free(pv->keys);
	free(pv->val_of);
	free(pv->key_of);
	free(pv->merged);
	free(pv->cpu);
	free(pv->dead);
	free(pv->how);
	free(pv->bench);
	free(pv->group);
}

/* A row's parameters without the pivot's and those that say where it
 * ran (the section's place: the table names the medium), as JSON. */
static json_t *rest_json(const struct pg_guide *g, const struct pg_grow *row, const char *param)
{
	json_t *p = json_loads(row->params, 0, NULL), *v;
	const char *k;
	void *tmp;
	json_object_del(p, param);
	json_object_foreach_safe(p, tmp, k, v)
		if (pg_place_param(g, row->section, k))
			json_object_del(p, k);
	return p;
}

/* The parameters of column k that tell it from the other columns of its
 * benchmark and metric ("channels=8"); where a column holds every
 * benchmark, from any other column ("backend=kernel"): displayed. A
 * column of skipped figures alone is a line under the table, no column:
 * the others need no telling from it. */
static void distinguishing(const struct pg_guide *g, const struct pivot *pv, int k, char *buf, size_t len)
{
	const struct pg_grow *row = &g->rows[pv->keys[k]];
	json_t *mine = rest_json(g, row, pv->param), *keep = json_object(), *v;
	const char *name;
	json_object_foreach(mine, name, v) {
		int differs = 0;
		for (int j = 0; j < pv->nkeys && !differs; j++) {
			const struct pg_grow *o = &g->rows[pv->keys[j]];
			if (j == k || pv->dead[j] || (!pv->by_bench && (strcmp(o->bench, row->bench) != 0 ||
							 strcmp(o->metric, row->metric) != 0)))
				continue;
			json_t *theirs = rest_json(g, o, pv->param);
			differs = differs_in(pv, theirs, name, v);
			json_decref(theirs);
		}
		if (differs)
			json_object_set(keep, name, v);
	}
	char *t = pg_json_text(keep);
	pg_params_display(row->bench, t ? t : "{}", buf, len);
	free(t);
	json_decref(keep);
	json_decref(mine);
}

/* Whether row r's label carries its value as the table's leading columns
 * show it: the frame in "UDP Throughput 0% loss, 1518-byte frames:
 * THROUGHPUT". Such a label names a row, not a column, even where the
 * table has that one row (a quick-suite run of one size). */
static int label_names_row(const struct pg_guide *g, const struct pivot *pv, int r, int v)
{
	const struct pg_grow *row = &g->rows[r];
	if (pv->vals[v][0] && pg_has_word(row->label, pv->vals[v]))
		return 1;
	for (int j = 0; j < pv->nshown; j++) {
		char tpl[200], text[200];
		if (list_part(pv->shown, j, tpl, sizeof(tpl)) && pg_template_fill(tpl, row, NULL, text, sizeof(text)) == 0 &&
		    text[0] && pg_has_word(row->label, text))
			return 1;
	}
	return 0;
}

/* Labels name the columns when each column's rows share one and no two
 * columns share one (a label that changes with the pivot's parameter, a
 * row name like "4k", does not; nor one that carries the row's value). */
static int labels_name_columns(const struct pg_guide *g, const struct pivot *pv, int first, int n)
{
	for (int i = 0; i < n; i++) {
		if (pv->key_of[i] < 0)
			continue;
		const struct pg_grow *row = &g->rows[first + i], *key = &g->rows[pv->keys[pv->key_of[i]]];
		if (!row->label || !key->label || strcmp(row->label, key->label) != 0 ||
		    label_names_row(g, pv, first + i, pv->val_of[i]))
			return 0;
	}
	for (int k = 0; k < pv->nkeys; k++)
		for (int j = 0; j < k; j++)
			if (strcmp(g->rows[pv->keys[k]].label, g->rows[pv->keys[j]].label) == 0)
				return 0;
	return 1;
}

/* "name (unit)", or "name unit" where the name ends in a bracket already. */
static void with_unit(char *buf, size_t len, const char *name, const char *unit)
{
	size_t n = strlen(name);
	int w = !unit[0] ? snprintf(buf, len, "%s", name)
	      : n && name[n - 1] == ')' ? snprintf(buf, len, "%s %s", name, unit)
					 : snprintf(buf, len, "%s (%s)", name, unit);
	if (w < 0 || (size_t)w >= len)
		pg_utf8_trim(buf);
}

/* A column's name: its label where labels name the columns (less the
 * words of the table's name it starts with: "Write" in the table "VIRTIO
 * EXT4", not "VIRTIO EXT4 Write"), else the benchmark's title (none where
 * the column holds several benchmarks), the parameters that tell the
 * column from its neighbours, and the metric as the section names it
 * (unless the title says it). */
static void key_name(const struct pg_guide *g, int s, const struct pivot *pv, int k, int labels,
		     const char *table, char *buf, size_t len)
{
	const struct pg_grow *row = &g->rows[pv->keys[k]];
	if (labels) {
		size_t n = strcspn(table, ":");
		const char *l = row->label;
		pg_text_copy(buf, len, n && strncmp(l, table, n) == 0 && l[n] == ' ' && l[n + 1] ? l + n + 1 : l);
		return;
	}
	char dist[160], mt[120];
	const char *metric = pg_metric_title(g, s, row->metric, mt, sizeof(mt));
	/* one of a section's tables, of one benchmark: its heading names it */
	int named = pg_template_names(g->sections[s].tables, "title") && pv->one_bench;
	const char *title = pv->merged[k] || pv->by_bench || named ? "" : row->title ? row->title : row->bench;
	if (pg_has_word(title, metric))
		metric = "";
	distinguishing(g, pv, k, dist, sizeof(dist));
	int w = snprintf(buf, len, "%s%s%s%s%s", title, title[0] && dist[0] ? " " : "", dist,
			 (title[0] || dist[0]) && metric[0] ? " " : "", metric);
	if (w < 0 || (size_t)w >= len)
		pg_utf8_trim(buf);
}

/* A column's units: its rows', each once ("score, iter/s" where the
 * CoreMark-PRO score shares the column of its workloads' rates). */
static void key_units(const struct pg_guide *g, const struct pivot *pv, int k, int first, int n, char *buf,
		      size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		const char *u = g->rows[first + i].unit;
		if (pv->key_of[i] != k || !u || !u[0])
			continue;
		int seen = 0;
		for (int j = 0; j < i && !seen; j++)
			seen = pv->key_of[j] == k && g->rows[first + j].unit &&
			       strcmp(g->rows[first + j].unit, u) == 0;
		int w = seen ? 0 : snprintf(buf + at, len - at, "%s%s", at ? ", " : "", u);
		if (w < 0 || (size_t)w >= len - at) {
			pg_utf8_trim(buf);
			break;
		}
		at += (size_t)w;
	}
}

/* The columns that name a row: the benchmark (by_bench), the value as
 * each of rows_shown's templates shows it (the frame, the datagram). */
static int lead_columns(const struct pivot *pv)
{
	return (pv->by_bench ? 1 : 0) + pv->nshown;
}

static int pivot_head(const struct pg_guide *g, int s, unsigned opts, const struct pivot *pv, int first, int n,
		      struct pg_table *t)
{
	const struct pg_section *sec = &g->sections[s];
	int h = lead_columns(pv), rc = 0;
	if (pv->by_bench)
		rc = pg_table_set(&t->head[0], PG_T_NAME, -1, "%s", sec->rows_bench);
	for (int j = 0; j < pv->nshown; j++) {
		char title[200];
		if (!list_part(sec->rows_title, j, title, sizeof(title)) || !title[0])
			pg_text_copy(title, sizeof(title), sec->rows_by);
		rc |= pg_table_set(&t->head[h - pv->nshown + j], PG_T_NAME, -1, "%s", title);
	}
	char name[300], unit[64], head[400], dist[160];
	struct pg_percol pc;
	int labels = labels_name_columns(g, pv, first, n);
	for (int c = 0; c < g->ncols; c++) {
		if (!pg_table_board_width(g, s, opts, c, &pc))
			continue;
		const char *board = g->cols[c].name;
		for (int k = 0; k < pv->nkeys; k++) {
			key_name(g, s, pv, k, labels, t->sub, name, sizeof(name));
			key_units(g, pv, k, first, n, unit, sizeof(unit));
			/* "glmark2 score", not "glmark2 score (score)" */
			if (strcmp(unit, g->rows[pv->keys[k]].metric) == 0 && pg_has_word(name, unit))
				unit[0] = '\0';
			with_unit(head, sizeof(head), name, unit);
			rc |= pg_table_set(&t->head[h++], PG_T_VALUE, c, "%s: %s", board, head);
			/* by_bench, a result's CPU load is of no one metric */
			if (pv->by_bench)
				distinguishing(g, pv, k, dist, sizeof(dist));
			/* one CPU load in the table: of its one result */
			const char *of = pv->by_bench ? dist : pv->ncpu > 1 ? name : "";
			if (pc.cpu && pv->cpu[k])
				rc |= pg_table_set(&t->head[h++], PG_T_CPU, c, "%s: %s%s%s", board, of, of[0] ? " " : "",
						   pg_cpu_heading(g));
			if (pc.ratio)
				rc |= pg_table_set(&t->head[h++], PG_T_RATIO, c, "%s: %s / %s", board, name,
						   g->cols[g->baseline].name);
		}
	}
	return rc;
}

/* The section's benchmarks' ids less the prefix they share up to a dot:
 * "crypto.aes-128-cbc" is "aes-128-cbc" in the Crypto table. */
static size_t shared_prefix(const struct pg_guide *g, int first, int last)
{
	const char *a = g->rows[first].bench;
	size_t n = strlen(a);
	for (int r = first + 1; r <= last; r++) {
		size_t i = 0;
		while (i < n && a[i] == g->rows[r].bench[i])
			i++;
		n = i;
	}
	while (n > 0 && a[n - 1] != '.')
		n--;
	return n;
}

/* The row cells that name value v: its benchmark (by_bench) and value. */
static int row_names(const struct pg_guide *g, const struct pivot *pv, int v, size_t prefix, struct pg_table *t)
{
	int rc = 0;
	if (pv->by_bench) {
		const char *id = g->rows[pv->bench[v]].bench;
		rc = pg_table_set(pg_table_cell(t, v, 0), PG_T_NAME, -1, "%s", id + (strlen(id) > prefix ? prefix : 0));
	}
	for (int j = 0, at = lead_columns(pv) - pv->nshown; j < pv->nshown; j++, at++) {
		char tpl[200], text[200];
		/* the value as the section shows it, else as parameters print */
		if (!pv->vals[v][0] || !list_part(pv->shown, j, tpl, sizeof(tpl)) ||
		    pg_template_fill(tpl, &g->rows[pv->bench[v]], NULL, text, sizeof(text)) != 0 || !text[0])
			pg_text_copy(text, sizeof(text), pv->vals[v][0] ? pv->vals[v] : "-");
		rc |= pg_table_set(pg_table_cell(t, v, at), PG_T_NAME, -1, "%s", text);
	}
	return rc;
}

/* Per board and column: whether its figures are once per benchmark, a
 * table of their own (apart.c); the last of each board's, its CPU load. */
static char *apart_of(const struct pg_guide *g, int s, const struct pivot *pv)
{
	size_t w = (size_t)pv->nkeys + 1;
	char *a = calloc((size_t)g->ncols * w + 1, 1);
	for (int c = 0; a && pv->by_bench && c < g->ncols; c++) {
		for (int k = 0; k < pv->nkeys; k++)
			a[(size_t)c * w + (size_t)k] = (char)pg_apart(g, s, c, g->rows[pv->keys[k]].metric);
		a[(size_t)c * w + (size_t)pv->nkeys] = (char)pg_apart(g, s, c, NULL);
	}
	return a;
}

/* Cell (value v, board c, key k): the model row with that value and key
 * (at, by value and key), its CPU load and ratio beside it; none of a
 * figure the board has once per benchmark. */
static int pivot_cells(const struct pg_guide *g, int s, unsigned opts, const struct pg_sel *sel,
		       const struct pivot *pv, const int *at, struct pg_table *t)
{
	struct pg_percol pc;
	char *apart = apart_of(g, s, pv);
	int rc = apart ? 0 : -1;
	size_t w = (size_t)pv->nkeys + 1;
	for (int v = 0; rc == 0 && v < pv->nvals; v++)
		for (int c = 0, h = lead_columns(pv); rc == 0 && c < g->ncols; c++) {
			if (!pg_table_board_width(g, s, opts, c, &pc))
				continue;
			for (int k = 0; rc == 0 && k < pv->nkeys; k++) {
				int r = at[(size_t)v * (size_t)pv->nkeys + (size_t)k];
				/* the board's row of the (value, key); a figure of another of the section's tables: none here */
				while (r >= 0 && !g->rows[r].cells[c].present && pv->next[r - pv->first] >= 0)
					r = pv->next[r - pv->first];
				const struct pg_grow *row = r >= 0 && pg_sel_has(sel, r, c) ? &g->rows[r] : NULL;
				const struct pg_grow *own = apart[(size_t)c * w + (size_t)k] ? NULL : row;
				struct pg_tcell *tc = pg_table_cell(t, v, h++);
				rc = own ? pg_table_value(t, tc, own, c) : pg_table_set(tc, PG_T_VALUE, c, "%s", "");
				if (rc == 0 && pc.cpu && pv->cpu[k])
					rc = pg_table_cpu(g, t, pg_table_cell(t, v, h++),
							  apart[(size_t)c * w + (size_t)pv->nkeys] ? NULL : row, c);
				if (rc == 0 && pc.ratio)
					rc = pg_table_ratio(t, pg_table_cell(t, v, h++), own, c);
			}
		}
	free(apart);
	return rc;
}

int pg_table_pivot(const struct pg_guide *g, int s, unsigned opts, const struct pg_sel *sel, struct pg_table *t)
{
	int first, last;
	pg_section_rows(g, s, &first, &last);
	int n = last - first + 1, rc;
	struct pivot pv = { 0 };
	struct pg_percol pc;
	if ((rc = pivot_build(g, s, sel, &pv, first, n)) != 0) {
		pivot_free(&pv);
		return rc < 0 ? -1 : pg_table_flat(g, s, opts, sel, t);
	}
	/* A sparse grid (values and columns that rarely meet) is mostly empty
	 * cells: it is written flat, a row per result key, like csv. */
	size_t grid = (size_t)pv.nvals * (size_t)pv.nkeys;
	int *at = grid <= 16 * (size_t)n + 256 ? malloc(sizeof(int) * (grid + 1)) : NULL;
	if (!at) {
		pivot_free(&pv);
		return pg_table_flat(g, s, opts, sel, t);
	}
	int *next = malloc(sizeof(int) * ((size_t)n + 1));
	if (!next) {
		free(at);
		pivot_free(&pv);
		return -1;
	}
	memset(at, 0xff, sizeof(int) * (grid + 1));
	/* the rows of a (value, key), first to last: each board's cell is
	 * the first that has one (a published table's row and a run's may
	 * share a column, each with its boards) */
	for (int i = n - 1; i >= 0; i--)
		if (pv.key_of[i] >= 0) {
			int *head = &at[(size_t)pv.val_of[i] * (size_t)pv.nkeys + (size_t)pv.key_of[i]];
			next[i] = *head;
			*head = first + i;
		}
	pv.next = next;
	pv.first = first;
	int ncols = lead_columns(&pv), ncpu = 0;
	for (int k = 0; k < pv.nkeys; k++)
		ncpu += pv.cpu[k];
	for (int c = 0; c < g->ncols; c++)
		if (pg_table_board_width(g, s, opts, c, &pc))
			ncols += pv.nkeys * (1 + pc.ratio) + pc.cpu * ncpu;
	rc = pg_table_alloc(t, pv.nvals, ncols);
	size_t prefix = shared_prefix(g, first, last);
	for (int v = 0; rc == 0 && v < pv.nvals; v++)
		rc = row_names(g, &pv, v, prefix, t);
	rc = rc ? rc : pivot_head(g, s, opts, &pv, first, n, t);
	rc = rc ? rc : pivot_cells(g, s, opts, sel, &pv, at, t);
	t->pivoted = 1;
	pivot_free(&pv);
	free(at);
	free(next);
	return rc;
}
