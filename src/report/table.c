/*
 * The walker's tables: a section's rows (one per result key, or pivoted on
 * the section's rows_by parameter), its footnotes, and the summary against a
 * baseline. The footnote policy is here, the same for every format: a
 * skipped or failed cell gets the number of its reason, identical reasons in
 * one table share a number.
 */
#include "table.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/params.h"
#include "core/record_json.h"
#include "core/text.h"

#define RATIO_LEGEND "\xe2\x89\x88: the two boards' min..max overlap, so the difference may be noise."
#define OVERLAP_MARK "\xe2\x89\x88"

int pg_table_alloc(struct pg_table *t, int nrows, int ncols)
{
	t->nrows = nrows;
	t->ncols = ncols;
	t->head = calloc((size_t)ncols + 1, sizeof(*t->head));
	t->cells = calloc((size_t)nrows * (size_t)ncols + 1, sizeof(*t->cells));
	return t->head && t->cells ? 0 : -1;
}

int pg_table_set(struct pg_tcell *c, enum pg_tkind kind, int col, const char *fmt, ...)
{
	char buf[600];
	va_list ap;
	va_start(ap, fmt);
	if ((size_t)vsnprintf(buf, sizeof(buf), fmt, ap) >= sizeof(buf))
		pg_utf8_trim(buf);
	va_end(ap);
	free(c->text);
	c->kind = kind;
	c->col = col;
	c->text = strdup(buf);
	return c->text ? 0 : -1;
}

void pg_table_free(struct pg_table *t)
{
	for (int i = 0; t->head && i < t->ncols; i++)
		free(t->head[i].text);
	for (size_t i = 0; t->cells && i < (size_t)t->nrows * (size_t)t->ncols; i++)
		free(t->cells[i].text);
	for (int i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->notes);
	free(t->head);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

/* The number of a note, added unless the table has its text already. */
static int note_of(struct pg_table *t, const char *text)
{
	for (int i = 0; i < t->nnotes; i++)
		if (strcmp(t->notes[i], text) == 0)
			return i + 1;
	char **n = realloc(t->notes, sizeof(*n) * (size_t)(t->nnotes + 1));
	if (!n)
		return 0;
	t->notes = n;
	if (!(n[t->nnotes] = strdup(text)))
		return 0;
	return ++t->nnotes;
}

/* A board's result, its note when it has none to show. */
static int value_cell(struct pg_table *t, struct pg_tcell *tc, const struct pg_guide *g,
		      const struct pg_grow *row, int c)
{
	const struct pg_gcell *cell = &row->cells[c];
	char text[160], name[320], note[1200];
	pg_cell_text(cell, text, sizeof(text));
	tc->cell = cell;
	tc->row = row;
	if (cell->present && cell->status != PG_OK) {
		pg_row_name(row, name, sizeof(name));
		if ((size_t)snprintf(note, sizeof(note), "%s, %s: %s", g->cols[c].board, name,
				     cell->reason ? cell->reason : "no reason given") >= sizeof(note))
			pg_utf8_trim(note);
		tc->note = note_of(t, note);
	}
	return pg_table_set(tc, PG_T_VALUE, c, "%s", text);
}

static int cpu_cell(struct pg_tcell *tc, const struct pg_grow *row, int c)
{
	const struct pg_gcell *cell = row ? &row->cells[c] : NULL;
	tc->cell = cell;
	tc->row = row;
	if (cell && cell->have_busy)
		return pg_table_set(tc, PG_T_CPU, c, "%.1f", cell->busy);
	return pg_table_set(tc, PG_T_CPU, c, "%s", "");
}

static int ratio_cell(struct pg_table *t, struct pg_tcell *tc, const struct pg_grow *row, int c)
{
	const struct pg_gcell *cell = row ? &row->cells[c] : NULL;
	tc->cell = cell;
	tc->row = row;
	if (!cell || !cell->have_ratio)
		return pg_table_set(tc, PG_T_RATIO, c, "%s", "");
	if (cell->overlap)
		t->legend = RATIO_LEGEND;
	return pg_table_set(tc, PG_T_RATIO, c, "%s%.2f", cell->overlap ? OVERLAP_MARK : "", cell->ratio);
}

/* The columns a board has in section s: its value, maybe its CPU load,
 * maybe its ratio to the baseline. */
struct percol {
	int cpu, ratio;
};

static int board_width(const struct pg_guide *g, int s, unsigned opts, int c, struct percol *pc)
{
	pc->cpu = (opts & PG_TABLE_ALL_CPU) || pg_section_has_cpu(g, s);
	pc->ratio = g->baseline >= 0 && c != g->baseline;
	return 1 + pc->cpu + pc->ratio;
}

/* A row of section s in this table: csv and json (PG_TABLE_FLAT) have every
 * metric, the others those the section shows. */
static int in_table(const struct pg_guide *g, int s, unsigned opts, int r)
{
	return g->rows[r].section == s && ((opts & PG_TABLE_FLAT) || pg_row_shown(g, &g->rows[r]));
}

static int flat_table(const struct pg_guide *g, int s, unsigned opts, struct pg_table *t)
{
	int first, last, ncols = 1, nrows = 0;
	struct percol pc;
	pg_section_rows(g, s, &first, &last);
	for (int c = 0; c < g->ncols; c++)
		ncols += board_width(g, s, opts, c, &pc);
	for (int r = first; r >= 0 && r <= last; r++)
		nrows += in_table(g, s, opts, r);
	int rc = pg_table_alloc(t, nrows, ncols);
	if (rc == 0)
		rc = pg_table_set(&t->head[0], PG_T_NAME, -1, "Benchmarks");
	for (int c = 0, k = 1; rc == 0 && c < g->ncols; c++) {
		board_width(g, s, opts, c, &pc);
		rc |= pg_table_set(&t->head[k++], PG_T_VALUE, c, "%s", g->cols[c].board);
		if (pc.cpu)
			rc |= pg_table_set(&t->head[k++], PG_T_CPU, c, "%s CPU Load %%", g->cols[c].board);
		if (pc.ratio)
			rc |= pg_table_set(&t->head[k++], PG_T_RATIO, c, "%s / %s", g->cols[c].board,
					   g->cols[g->baseline].board);
	}
	char name[320];
	for (int r = first, i = 0; rc == 0 && r >= 0 && r <= last; r++) {
		const struct pg_grow *row = &g->rows[r];
		if (!in_table(g, s, opts, r))
			continue;
		struct pg_tcell *tc = pg_table_cell(t, i++, 0);
		pg_row_name(row, name, sizeof(name));
		rc = pg_table_set(tc, PG_T_NAME, -1, "%s", name);
		tc->row = row;
		for (int c = 0; rc == 0 && c < g->ncols; c++) {
			board_width(g, s, opts, c, &pc);
			rc = value_cell(t, ++tc, g, row, c);
			if (rc == 0 && pc.cpu)
				rc = cpu_cell(++tc, row, c);
			if (rc == 0 && pc.ratio)
				rc = ratio_cell(t, ++tc, row, c);
		}
	}
	return rc < 0 ? -1 : 0;
}

/* --- a section pivoted on one parameter --- */

struct pivot {
	const char *param;
	char (*vals)[160];	/* the rows: the parameter's values, displayed */
	double *num;		/* and as numbers, to sort them */
	int nvals, numeric;
	int *keys;		/* the columns: a model row that stands for each (bench, metric, rest) */
	int nkeys;
	char *merged;		/* per column: it holds more than one benchmark */
	int *val_of, *key_of;	/* per model row of the section */
};

/* The parameter's value in a row ("" when the row lacks it), and the row's
 * parameters without it (canonical JSON). */
static void split_params(const struct pg_grow *row, const char *param, char *val, size_t vlen, double *num,
			 char **rest)
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
	json_object_del(p, param);
	*rest = pg_json_text(p);
	json_decref(p);
}

static int pivot_key(const struct pg_guide *g, struct pivot *pv, int r, char **rests, int first)
{
	const struct pg_grow *row = &g->rows[r];
	for (int k = 0; k < pv->nkeys; k++) {
		const struct pg_grow *o = &g->rows[pv->keys[k]];
		if (strcmp(o->bench, row->bench) == 0 && strcmp(o->metric, row->metric) == 0 &&
		    strcmp(rests[pv->keys[k] - first], rests[r - first]) == 0)
			return k;
	}
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

/* Benchmarks that share a metric and the other parameters, and whose rows
 * never meet, share a column: CoreMark-PRO's score row beside its workloads'
 * rows, each its own benchmark. Write and read of one buffer size meet, and
 * keep a column each. */
static void pivot_merge(const struct pg_guide *g, struct pivot *pv, char **rests, int first, int n)
{
	for (int b = 1; b < pv->nkeys; b++)
		for (int a = 0; a < b; a++) {
			const struct pg_grow *x = &g->rows[pv->keys[a]], *y = &g->rows[pv->keys[b]];
			if (strcmp(x->bench, y->bench) == 0 || strcmp(x->metric, y->metric) != 0 ||
			    strcmp(rests[pv->keys[a] - first], rests[pv->keys[b] - first]) != 0 ||
			    keys_collide(pv, a, b, n))
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

static int pivot_val(struct pivot *pv, const char *val, double num)
{
	for (int i = 0; i < pv->nvals; i++)
		if (strcmp(pv->vals[i], val) == 0)
			return i;
	pg_text_copy(pv->vals[pv->nvals], sizeof(pv->vals[0]), val);
	pv->num[pv->nvals] = num;
	return pv->nvals++;
}

/* Rows in the parameter's order when every value is a number (and rows
 * without it last), else in order of first appearance. */
static void pivot_sort(struct pivot *pv, int n)
{
	int *perm = malloc(sizeof(int) * (size_t)(pv->nvals + 1));
	if (!perm)
		return;
	for (int i = 0; i < pv->nvals; i++)
		perm[i] = i;
	for (int i = 1; i < pv->nvals; i++)
		for (int j = i; j > 0; j--) {
			const char *a = pv->vals[perm[j - 1]], *b = pv->vals[perm[j]];
			int later = !a[0] && b[0];
			if (pv->numeric && a[0] && b[0])
				later = pv->num[perm[j - 1]] > pv->num[perm[j]];
			if (!later)
				break;
			int x = perm[j];
			perm[j] = perm[j - 1];
			perm[j - 1] = x;
		}
	int *rank = malloc(sizeof(int) * (size_t)(pv->nvals + 1));
	char (*vals)[160] = malloc(sizeof(*vals) * (size_t)(pv->nvals + 1));
	if (rank && vals) {
		for (int i = 0; i < pv->nvals; i++) {
			rank[perm[i]] = i;
			memcpy(vals[i], pv->vals[perm[i]], sizeof(vals[i]));
		}
		memcpy(pv->vals, vals, sizeof(*vals) * (size_t)pv->nvals);
		for (int i = 0; i < n; i++)
			if (pv->val_of[i] >= 0)
				pv->val_of[i] = rank[pv->val_of[i]];
	}
	free(rank);
	free(vals);
	free(perm);
}

/* More rows or columns than this (per board) is no table to read: the
 * section is written flat. */
#define PIVOT_MAX 1024

/* 0, 1 when the pivot has more than PIVOT_MAX rows or columns, -1 out of memory. */
static int pivot_build(const struct pg_guide *g, int s, struct pivot *pv, int first, int n)
{
	char **rests = calloc((size_t)n + 1, sizeof(char *));
	pv->vals = calloc((size_t)n + 1, sizeof(*pv->vals));
	pv->num = calloc((size_t)n + 1, sizeof(double));
	pv->keys = calloc((size_t)n + 1, sizeof(int));
	pv->val_of = calloc((size_t)n + 1, sizeof(int));
	pv->key_of = calloc((size_t)n + 1, sizeof(int));
	pv->merged = calloc((size_t)n + 1, 1);
	int rc = rests && pv->vals && pv->num && pv->keys && pv->val_of && pv->key_of && pv->merged ? 0 : -1;
	pv->param = g->sections[s].rows_by;
	pv->numeric = 1;
	for (int i = 0; rc == 0 && i < n && pv->nvals <= PIVOT_MAX; i++) {
		char val[160];
		double num;
		/* a metric the section does not show: in no row or column */
		pv->val_of[i] = pv->key_of[i] = -1;
		if (!pg_row_shown(g, &g->rows[first + i]))
			continue;
		split_params(&g->rows[first + i], pv->param, val, sizeof(val), &num, &rests[i]);
		if (!rests[i])
			rc = -1;
		pv->numeric &= !val[0] || !isnan(num);
		pv->val_of[i] = pivot_val(pv, val, num);
	}
	if (rc == 0 && pv->nvals > PIVOT_MAX)
		rc = 1;
	for (int i = 0; rc == 0 && i < n; i++) {
		if (pv->val_of[i] >= 0)
			pv->key_of[i] = pivot_key(g, pv, first + i, rests, first);
		if (pv->nkeys > PIVOT_MAX)
			rc = 1;
	}
	if (rc == 0)
		pivot_merge(g, pv, rests, first, n);
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
}

/* A row's parameters without the pivot's, as JSON. */
static json_t *rest_json(const struct pg_grow *row, const char *param)
{
	json_t *p = json_loads(row->params, 0, NULL);
	json_object_del(p, param);
	return p;
}

/* The parameters of column k that tell it from the other columns of its
 * benchmark and metric ("channels=8"), displayed. */
static void distinguishing(const struct pg_guide *g, const struct pivot *pv, int k, char *buf, size_t len)
{
	const struct pg_grow *row = &g->rows[pv->keys[k]];
	json_t *mine = rest_json(row, pv->param), *keep = json_object(), *v;
	const char *name;
	json_object_foreach(mine, name, v) {
		int differs = 0;
		for (int j = 0; j < pv->nkeys && !differs; j++) {
			const struct pg_grow *o = &g->rows[pv->keys[j]];
			if (j == k || strcmp(o->bench, row->bench) != 0 || strcmp(o->metric, row->metric) != 0)
				continue;
			json_t *theirs = rest_json(o, pv->param);
			differs = !json_equal(json_object_get(theirs, name), v);
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

/* Labels name the columns when each column's rows share one and no two
 * columns share one (a label that changes with the pivot's parameter, a
 * row name like "4k", does not). */
static int labels_name_columns(const struct pg_guide *g, const struct pivot *pv, int first, int n)
{
	for (int i = 0; i < n; i++) {
		if (pv->key_of[i] < 0)
			continue;
		const struct pg_grow *row = &g->rows[first + i], *key = &g->rows[pv->keys[pv->key_of[i]]];
		if (!row->label || !key->label || strcmp(row->label, key->label) != 0)
			return 0;
	}
	for (int k = 0; k < pv->nkeys; k++)
		for (int j = 0; j < k; j++)
			if (strcmp(g->rows[pv->keys[k]].label, g->rows[pv->keys[j]].label) == 0)
				return 0;
	return 1;
}

/* A column's name: its label where labels name the columns, else the
 * benchmark's title, the parameters that tell the column from its
 * neighbours, and the metric. */
static void key_name(const struct pg_guide *g, const struct pivot *pv, int k, int labels, char *buf, size_t len)
{
	const struct pg_grow *row = &g->rows[pv->keys[k]];
	if (labels) {
		pg_text_copy(buf, len, row->label);
		return;
	}
	char dist[160];
	distinguishing(g, pv, k, dist, sizeof(dist));
	int w;
	if (pv->merged[k])	/* no one benchmark's title names it */
		w = snprintf(buf, len, "%s%s%s", dist, dist[0] ? " " : "", row->metric);
	else
		w = snprintf(buf, len, "%s%s%s %s", row->title ? row->title : row->bench, dist[0] ? " " : "", dist,
			     row->metric);
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

static int pivot_head(const struct pg_guide *g, int s, unsigned opts, const struct pivot *pv, int first, int n,
		      struct pg_table *t)
{
	const struct pg_section *sec = &g->sections[s];
	int rc = pg_table_set(&t->head[0], PG_T_NAME, -1, "%s", sec->rows_title ? sec->rows_title : sec->rows_by);
	char name[300], unit[64];
	struct percol pc;
	int labels = labels_name_columns(g, pv, first, n);
	for (int c = 0, h = 1; c < g->ncols; c++) {
		board_width(g, s, opts, c, &pc);
		for (int k = 0; k < pv->nkeys; k++) {
			const char *board = g->cols[c].board;
			key_name(g, pv, k, labels, name, sizeof(name));
			key_units(g, pv, k, first, n, unit, sizeof(unit));
			rc |= pg_table_set(&t->head[h++], PG_T_VALUE, c, "%s: %s%s%s%s", board, name,
					   unit[0] ? " (" : "", unit, unit[0] ? ")" : "");
			if (pc.cpu)
				rc |= pg_table_set(&t->head[h++], PG_T_CPU, c, "%s: %s CPU Load (%%)", board, name);
			if (pc.ratio)
				rc |= pg_table_set(&t->head[h++], PG_T_RATIO, c, "%s: %s / %s", board, name,
						   g->cols[g->baseline].board);
		}
	}
	return rc;
}

static int pivot_table(const struct pg_guide *g, int s, unsigned opts, struct pg_table *t)
{
	int first, last;
	pg_section_rows(g, s, &first, &last);
	int n = last - first + 1, ncols = 1, rc;
	struct pivot pv = { 0 };
	struct percol pc;
	if ((rc = pivot_build(g, s, &pv, first, n)) != 0) {
		pivot_free(&pv);
		return rc < 0 ? -1 : flat_table(g, s, opts, t);
	}
	/* A sparse grid (values and columns that rarely meet) is mostly empty
	 * cells: it is written flat, a row per result key, like csv. */
	size_t grid = (size_t)pv.nvals * (size_t)pv.nkeys;
	int *at = grid <= 16 * (size_t)n + 256 ? malloc(sizeof(int) * (grid + 1)) : NULL;
	if (!at) {
		pivot_free(&pv);
		return flat_table(g, s, opts, t);
	}
	memset(at, 0xff, sizeof(int) * (grid + 1));
	for (int i = n - 1; i >= 0; i--)	/* the first row of a (value, key) */
		if (pv.key_of[i] >= 0)
			at[(size_t)pv.val_of[i] * (size_t)pv.nkeys + (size_t)pv.key_of[i]] = first + i;
	for (int c = 0; c < g->ncols; c++)
		ncols += board_width(g, s, opts, c, &pc) * pv.nkeys;
	rc = pg_table_alloc(t, pv.nvals, ncols);
	for (int v = 0; rc == 0 && v < pv.nvals; v++)
		rc = pg_table_set(pg_table_cell(t, v, 0), PG_T_NAME, -1, "%s", pv.vals[v][0] ? pv.vals[v] : "-");
	rc = rc ? rc : pivot_head(g, s, opts, &pv, first, n, t);
	/* Cell (value v, board c, key k): the model row with that value and key. */
	for (int v = 0; rc == 0 && v < pv.nvals; v++)
		for (int c = 0, h = 1; rc == 0 && c < g->ncols; c++) {
			board_width(g, s, opts, c, &pc);
			for (int k = 0; rc == 0 && k < pv.nkeys; k++) {
				int r = at[(size_t)v * (size_t)pv.nkeys + (size_t)k];
				const struct pg_grow *row = r >= 0 ? &g->rows[r] : NULL;
				struct pg_tcell *tc = pg_table_cell(t, v, h++);
				rc = row ? value_cell(t, tc, g, row, c) : pg_table_set(tc, PG_T_VALUE, c, "%s", "");
				if (rc == 0 && pc.cpu)
					rc = cpu_cell(pg_table_cell(t, v, h++), row, c);
				if (rc == 0 && pc.ratio)
					rc = ratio_cell(t, pg_table_cell(t, v, h++), row, c);
			}
		}
	pivot_free(&pv);
	free(at);
	return rc;
}

int pg_table_section(const struct pg_guide *g, int s, unsigned opts, struct pg_table *t)
{
	const struct pg_section *sec = &g->sections[s];
	memset(t, 0, sizeof(*t));
	t->title = sec->title;
	t->intro = sec->intro;
	if ((size_t)snprintf(t->caption_buf, sizeof(t->caption_buf), "%s Benchmarks", sec->title) >= sizeof(t->caption_buf))
		pg_utf8_trim(t->caption_buf);
	t->caption = t->caption_buf;
	if (sec->rows_by && !(opts & PG_TABLE_FLAT))
		return pivot_table(g, s, opts, t);
	return flat_table(g, s, opts, t);
}

int pg_table_summary(const struct pg_guide *g, struct pg_table *t)
{
	memset(t, 0, sizeof(*t));
	int b = g->baseline;
	if ((size_t)snprintf(t->caption_buf, sizeof(t->caption_buf), "Against %s", g->cols[b].board) >=
	    sizeof(t->caption_buf))
		pg_utf8_trim(t->caption_buf);
	t->title = t->caption = t->caption_buf;
	t->intro = "Per section, the geometric mean of each board's ratios to the baseline over the rows "
		   "both have (above 1: better than the baseline, whichever way the metric goes), and "
		   "over how many rows.";
	if (pg_table_alloc(t, g->nsections, g->ncols) < 0 || pg_table_set(&t->head[0], PG_T_NAME, -1, "Section") < 0)
		return -1;
	for (int c = 0, h = 1; c < g->ncols; c++)
		if (c != b && pg_table_set(&t->head[h++], PG_T_RATIO, c, "%s / %s", g->cols[c].board, g->cols[b].board) < 0)
			return -1;
	for (int s = 0; s < g->nsections; s++) {
		if (pg_table_set(pg_table_cell(t, s, 0), PG_T_NAME, -1, "%s", g->sections[s].title) < 0)
			return -1;
		for (int c = 0, h = 1; c < g->ncols; c++) {
			if (c == b)
				continue;
			size_t at = (size_t)s * (size_t)g->ncols + (size_t)c;
			int rc = g->ngeo[at] ? pg_table_set(pg_table_cell(t, s, h), PG_T_RATIO, c, "%.2f (%d rows)",
							    g->geomean[at], g->ngeo[at])
					     : pg_table_set(pg_table_cell(t, s, h), PG_T_RATIO, c, "%s", "- (0 rows)");
			if (rc < 0)
				return -1;
			h++;
		}
	}
	return 0;
}
