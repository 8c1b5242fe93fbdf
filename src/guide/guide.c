/* SPDX-License-Identifier: MIT */
/*
 * Building the guide from runs: columns, rows, their sections, merged cells
 * and, with a baseline, the ratios and their geometric means.
 */
#include "guide.h"

#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <strings.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/record_json.h"
#include "core/registry.h"
#include "core/stats.h"
#include "core/text.h"

/* A title declared by a result but described nowhere goes after the known
 * ones; "Other benchmarks" is always last. */
#define ORDER_UNDESCRIBED 1000000

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), pg_cmp_double);
	return pg_median_sorted(v, (size_t)n);
}

/* The section a result is in: its own, else its benchmark's, else Other. */
static const char *section_title(const struct pg_record *x)
{
	if (x->section && x->section[0])
		return x->section;
	const struct pg_bench *b = pg_registry_find(x->bench);
	return b && b->section ? b->section->title : PG_OTHER_SECTION;
}

static void copy_section(struct pg_section *to, const struct pg_section *from)
{
	*to = *from;
	for (const struct pg_field *f = pg_section_fields; f->name; f++)
		if (f->type == PG_F_TEXT) {
			char **p = (char **)((char *)to + f->off);
			*p = pg_strdup0(*p);
		}
}

struct known {
	const char *title;
	const struct pg_section *found;
};

static void find_known(const struct pg_bench *b, void *arg)
{
	struct known *k = arg;
	if (!k->found && b->section && strcasecmp(b->section->title, k->title) == 0)
		k->found = b->section;
}

/* A section of this perfguide's benchmarks, its title's case aside: a
 * table imported as "linpack" is the Linpack section. */
static const struct pg_section *known_section(const char *title)
{
	struct known k = { title, pg_registry_section(title) };
	if (!k.found)
		pg_registry_each(find_known, &k);
	return k.found;
}

/* A run recorded before sections had their tables' templates: what this
 * perfguide says of the section, so that an older run's storage is a table
 * per medium too. */
static void later_fields(struct pg_section *s, const struct pg_section *known)
{
	if (!known || s->rows_shown || s->rows_of || s->tables || s->place)
		return;
	const char **mine[] = { &s->rows_shown, &s->rows_of, &s->tables, &s->place, &s->rows_by,
				&s->rows_title, &s->metric_titles };
	const char *const theirs[] = { known->rows_shown, known->rows_of, known->tables, known->place,
				       known->rows_by, known->rows_title, known->metric_titles };
	for (size_t i = 0; i < sizeof(mine) / sizeof(mine[0]); i++)
		if (!*mine[i])
			*mine[i] = pg_strdup0(theirs[i]);
}

/* How a title is described: by the run that carries it, else by a benchmark
 * of this perfguide that declares it, else by its title alone; a title is
 * one section whatever its case. */
static void section_describe(struct pg_section *s, const char *title, json_t *run_sections)
{
	size_t i;
	json_t *o;
	const struct pg_section *known = known_section(title);
	json_array_foreach(run_sections, i, o) {
		const char *t = json_string_value(json_object_get(o, "title"));
		if (t && strcasecmp(t, title) == 0 && pg_section_from_json(o, s) == 0) {
			later_fields(s, known);
			return;
		}
	}
	struct pg_section bare = { .title = title };
	bare.order = strcmp(title, PG_OTHER_SECTION) == 0 ? INT_MAX : ORDER_UNDESCRIBED;
	copy_section(s, known ? known : &bare);
}

static int section_index(struct pg_guide *g, const char *title, json_t *run_sections)
{
	int i = pg_guide_find_section(g, title);
	if (i >= 0)
		return i;
	struct pg_section *n = realloc(g->sections, sizeof(*n) * (size_t)(g->nsections + 1));
	if (!n)
		return -1;
	g->sections = n;
	section_describe(&n[g->nsections], title, run_sections);
	return pg_guide_index_section(g, g->nsections) < 0 ? -1 : g->nsections++;
}

static int same_key(const struct pg_grow *r, const struct pg_record *x)
{
	return strcmp(r->bench, x->bench) == 0 && strcmp(r->metric, x->metric) == 0 &&
	       strcmp(r->params, x->params) == 0;
}

/* FNV-1a over the key: rows are found in constant time, so that a guide
 * of many results is built in time linear in them. */
static size_t key_hash(const char *bench, const char *params, const char *metric)
{
	uint64_t h = PG_HASH_INIT;
	const char *parts[] = { bench, params, metric };
	for (int i = 0; i < 3; i++)
		h = pg_hash_byte(pg_hash_str(h, parts[i], 0), 0xff);
	return (size_t)h;
}

static int find_row(const struct pg_guide *g, const struct pg_record *x)
{
	if (!g->index_cap)
		return -1;
	size_t mask = g->index_cap - 1;
	for (size_t i = key_hash(x->bench, x->params, x->metric) & mask;; i = (i + 1) & mask) {
		int r = g->index[i];
		if (r < 0 || same_key(&g->rows[r], x))
			return r;
	}
}

static void index_put(struct pg_guide *g, int r)
{
	const struct pg_grow *row = &g->rows[r];
	size_t mask = g->index_cap - 1, i = key_hash(row->bench, row->params, row->metric) & mask;
	while (g->index[i] >= 0)
		i = (i + 1) & mask;
	g->index[i] = r;
}

/* The index of every row, at least twice as large as the rows need. */
static int index_rows(struct pg_guide *g, int nrows)
{
	size_t cap = 64;
	while (cap < (size_t)nrows * 2)
		cap *= 2;
	if (cap != g->index_cap) {
		int *n = realloc(g->index, sizeof(int) * cap);
		if (!n)
			return -1;
		g->index = n;
		g->index_cap = cap;
	}
	memset(g->index, 0xff, sizeof(int) * cap);
	for (int r = 0; r < g->nrows; r++)
		index_put(g, r);
	return 0;
}

/* The rows of one run not seen before, in the order the run wrote them. */
static int add_rows(struct pg_guide *g, const struct pg_rrun *run, int *cap, int *order)
{
	json_t *secs = run->sections ? json_loads(run->sections, 0, NULL) : NULL;
	int rc = 0;
	for (int k = 0; k < run->nres && rc == 0; k++) {
		const struct pg_record *x = &run->res[k];
		int r = find_row(g, x);
		if (r >= 0) {
			if (!g->rows[r].label && x->label && x->label[0])
				g->rows[r].label = x->label;
			continue;
		}
		if (g->nrows == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			struct pg_grow *n = realloc(g->rows, sizeof(*n) * (size_t)*cap);
			if (!n || (g->rows = n, index_rows(g, *cap) < 0)) {
				rc = -1;
				break;
			}
		}
		struct pg_grow *row = &g->rows[g->nrows];
		memset(row, 0, sizeof(*row));
		row->bench = x->bench;
		row->params = x->params;
		row->metric = x->metric;
		row->unit = x->unit;
		row->label = x->label && x->label[0] ? x->label : NULL;
		row->title = x->title && x->title[0] ? x->title : NULL;
		row->higher = x->higher;
		row->order = (*order)++;
		row->section = section_index(g, section_title(x), secs);
		rc = row->section < 0 ? -1 : 0;
		index_put(g, g->nrows++);
	}
	json_decref(secs);
	return rc;
}

struct by_order {
	int order, first;	/* the section's order, then its first appearance */
};

static int cmp_section(const void *a, const void *b)
{
	const struct by_order *x = a, *y = b;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return x->first - y->first;
}

static int cmp_row(const void *a, const void *b)
{
	const struct pg_grow *x = a, *y = b;
	if (x->section != y->section)
		return x->section - y->section;
	return x->order - y->order;
}

/* Sections in the guide's order (then first appearance), rows by section. */
static int sort_sections(struct pg_guide *g)
{
	int n = g->nsections;
	struct by_order *by = malloc(sizeof(*by) * (size_t)(n + 1));
	int *rank = malloc(sizeof(int) * (size_t)(n + 1));
	struct pg_section *sorted = malloc(sizeof(*sorted) * (size_t)(n + 1));
	if (!by || !rank || !sorted) {
		free(by);
		free(rank);
		free(sorted);
		return -1;
	}
	for (int i = 0; i < n; i++)
		by[i] = (struct by_order){ g->sections[i].order, i };
	qsort(by, (size_t)n, sizeof(*by), cmp_section);
	for (int i = 0; i < n; i++) {
		rank[by[i].first] = i;
		sorted[i] = g->sections[by[i].first];
	}
	for (int r = 0; r < g->nrows; r++)
		g->rows[r].section = rank[g->rows[r].section];
	free(g->sections);
	g->sections = sorted;
	free(by);
	free(rank);
	if (g->nrows)
		qsort(g->rows, (size_t)g->nrows, sizeof(*g->rows), cmp_row);
	return 0;
}

/* One result into its cell: min of the mins, max of the maxes; the medians
 * are collected, their median taken when the column is complete. */
struct acc {
	double *medians;
	int n, cap;
	double busy, self;
	int nbusy, nself;
};

/* A number in a result's JSON object text (cpu, env); 0 when absent. */
static int json_field(const char *text, const char *name, double *v)
{
	if (!text || !strstr(text, name))
		return 0;
	json_t *o = json_loads(text, 0, NULL), *x = json_object_get(o, name);
	int have = json_is_number(x);
	*v = json_number_value(x);
	json_decref(o);
	return have;
}

/* What else used the CPUs while x was measured, and its own share. */
static void merge_shares(struct pg_gcell *c, struct acc *a, const struct pg_record *x)
{
	double v;
	if (x->have_busy && json_field(x->cpu, "self_pct", &v)) {
		a->self += v;
		a->nself++;
	}
	if (json_field(x->env, "others_pct", &v) && (!c->have_others || v > c->others)) {
		c->have_others = 1;
		c->others = v;
	}
}

static int merge_cell(struct pg_gcell *c, struct acc *a, const struct pg_record *x, const struct pg_gcol *col,
		      int k)
{
	if (x->status != PG_OK) {
		if (!c->present) {
			c->present = 1;
			c->status = x->status;
			c->reason = x->reason;
			c->run = col->runs[k];
			c->rec = x;
		}
		return 0;
	}
	if (!c->present || c->status != PG_OK) {
		*c = (struct pg_gcell){ .present = 1, .status = PG_OK, .min = x->min, .max = x->max,
					.samples = x->samples, .nsamples = x->nsamples };
	} else {
		c->min = fmin(c->min, x->min);
		c->max = fmax(c->max, x->max);
		c->samples = NULL;
		c->nsamples = 0;
	}
	c->run = col->runs[k];
	c->rec = x;
	pg_doubt_add(c, x, col, k);
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 4;
		double *m = realloc(a->medians, sizeof(double) * (size_t)a->cap);
		if (!m)
			return -1;
		a->medians = m;
	}
	a->medians[a->n++] = x->median;
	if (x->have_busy) {
		a->busy += x->busy_pct;
		a->nbusy++;
	}
	merge_shares(c, a, x);
	return 0;
}

/* The runs' results into the column's cells: every run merged, or (latest)
 * the newest run first and each key from the first run that has it, so a
 * run of a few benchmarks hides none of an earlier full run's. */
static int fill_column(struct pg_guide *g, int c)
{
	struct pg_gcol *col = &g->cols[c];
	struct acc *acc = calloc((size_t)g->nrows + 1, sizeof(*acc));
	if (!acc)
		return -1;
	int rc = 0, latest = g->opts.merge == PG_MERGE_LATEST;
	for (int i = 0; i < col->nruns && rc == 0; i++) {
		int k = latest ? col->nruns - 1 - i : i;
		const struct pg_rrun *run = col->runs[k];
		for (int j = 0; j < run->nres && rc == 0; j++) {
			int r = find_row(g, &run->res[j]);
			if (r < 0 || (latest && g->rows[r].cells[c].present))
				continue;
			rc = merge_cell(&g->rows[r].cells[c], &acc[r], &run->res[j], col, k);
			col->used[k]++;
		}
	}
	for (int r = 0; r < g->nrows; r++) {
		struct pg_gcell *cell = &g->rows[r].cells[c];
		if (acc[r].n)
			cell->median = median_of(acc[r].medians, acc[r].n);
		if (acc[r].nbusy) {
			cell->have_busy = 1;
			cell->busy = acc[r].busy / acc[r].nbusy;
		}
		if (acc[r].nself) {
			cell->have_self = 1;
			cell->self = acc[r].self / acc[r].nself;
		}
		free(acc[r].medians);
	}
	free(acc);
	return rc;
}

/* Rows in an order that puts alike rows side by side (a sort, so that
 * what all of a benchmark's rows share, or which rows share a label, is
 * found in one pass over them, not by a scan of every row per row: a guide
 * of 100,000 rows took minutes, issue 40). */
struct row_ref {
	const struct pg_grow *row;
	int r;
};

static int cmp_bench(const void *a, const void *b)
{
	const struct row_ref *x = a, *y = b;
	int c = strcmp(x->row->bench, y->row->bench);
	return c ? c : x->r - y->r;
}

/* Rows with a label by section, label and metric. */
static int cmp_label(const void *a, const void *b)
{
	const struct row_ref *x = a, *y = b;
	int c = x->row->section - y->row->section;
	if (!c)
		c = strcmp(x->row->label, y->row->label);
	if (!c)
		c = strcmp(x->row->metric, y->row->metric);
	return c ? c : x->r - y->r;
}

static int same_label(const struct pg_grow *x, const struct pg_grow *y)
{
	return x->section == y->section && strcmp(x->label, y->label) == 0 && strcmp(x->metric, y->metric) == 0;
}

/* label_shared of every row with a label: another row of its section
 * carries its label (and metric). */
static int mark_shared_labels(struct pg_guide *g)
{
	struct row_ref *by = malloc(sizeof(*by) * ((size_t)g->nrows + 1));
	if (!by)
		return -1;
	int n = 0;
	for (int r = 0; r < g->nrows; r++)
		if (g->rows[r].label)
			by[n++] = (struct row_ref){ &g->rows[r], r };
	qsort(by, (size_t)n, sizeof(*by), cmp_label);
	for (int i = 0; i < n; i++)
		g->rows[by[i].r].label_shared = (i > 0 && same_label(by[i - 1].row, by[i].row)) ||
						(i + 1 < n && same_label(by[i].row, by[i + 1].row));
	free(by);
	return 0;
}

/* The parameters that have one value in every row of a benchmark (rows
 * by[first..last)): those of the first row that each other row has too,
 * with that value. Naming a row by them tells a reader nothing. */
static json_t *shared_params(json_t **params, const struct row_ref *by, int first, int last)
{
	json_t *all = json_object(), *v;
	const char *name;
	if (!all)
		return NULL;
	json_object_foreach(params[by[first].r], name, v) {
		int i = first + 1;
		while (i < last && json_equal(json_object_get(params[by[i].r], name), v))
			i++;
		if (i == last && json_object_set(all, name, v) < 0) {
			json_decref(all);
			return NULL;
		}
	}
	return all;
}

int pg_place_param(const struct pg_guide *g, int s, const char *name)
{
	const char *list = g->sections[s].place;
	size_t n = strlen(name);
	for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',')
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

/* Row r's dist: its parameters less those its benchmark's rows share
 * and those that say where it ran (the medium's to say, in its table's
 * intro). */
static int name_row(struct pg_guide *g, int r, json_t *params, json_t *shared)
{
	json_t *keep = json_object(), *v;
	const char *name;
	json_object_foreach(params, name, v)
		if (!json_object_get(shared, name) && !pg_place_param(g, g->rows[r].section, name))
			json_object_set(keep, name, v);
	char *t = pg_json_text(keep), shown[160];
	pg_params_display(g->rows[r].bench, t ? t : "{}", shown, sizeof(shown));
	free(t);
	json_decref(keep);
	return (g->rows[r].dist = strdup(shown)) ? 0 : -1;
}

/* A row with no label is named by its benchmark's title, the parameters
 * that tell it from the benchmark's other rows ("msg=1k") and its metric,
 * not by every parameter it ran with; a label that several rows carry
 * (one per buffer size) is followed by those parameters too. */
static int name_rows(struct pg_guide *g)
{
	json_t **params = calloc((size_t)g->nrows + 1, sizeof(*params));
	struct row_ref *by = malloc(sizeof(*by) * ((size_t)g->nrows + 1));
	int rc = params && by ? mark_shared_labels(g) : -1;
	for (int r = 0; rc == 0 && r < g->nrows; r++) {
		if (!(params[r] = json_loads(g->rows[r].params, 0, NULL)))
			params[r] = json_object();
		by[r] = (struct row_ref){ &g->rows[r], r };
	}
	if (rc == 0)
		qsort(by, (size_t)g->nrows, sizeof(*by), cmp_bench);
	for (int first = 0, last; rc == 0 && first < g->nrows; first = last) {
		for (last = first + 1; last < g->nrows && strcmp(by[last].row->bench, by[first].row->bench) == 0;)
			last++;
		json_t *shared = shared_params(params, by, first, last);
		if (!shared)
			rc = -1;
		for (int i = first; rc == 0 && i < last; i++) {
			int r = by[i].r;
			if (!g->rows[r].label || g->rows[r].label_shared)
				rc = name_row(g, r, params[r], shared);
		}
		json_decref(shared);
	}
	for (int r = 0; params && r < g->nrows; r++)
		json_decref(params[r]);
	free(params);
	free(by);
	return rc;
}

int pg_guide_build(struct pg_guide *g, const struct pg_rrun *const *runs, int nruns)
{
	struct pg_guide_opts o = { 0 };
	return pg_guide_build_opts(g, runs, nruns, &o);
}

int pg_guide_build_opts(struct pg_guide *g, const struct pg_rrun *const *runs, int nruns,
			const struct pg_guide_opts *o)
{
	memset(g, 0, sizeof(*g));
	g->opts = *o;
	g->baseline = -1;
	g->cols = calloc((size_t)nruns + 1, sizeof(*g->cols));
	if (!g->cols)
		return -1;
	int cap = 0, order = 0;
	for (int i = 0; i < nruns; i++)
		if (pg_guide_add_column(g, runs[i], nruns) < 0 || add_rows(g, runs[i], &cap, &order) < 0)
			return -1;
	if (sort_sections(g) < 0 || index_rows(g, g->nrows) < 0 || name_rows(g) < 0)	/* the rows moved */
		return -1;
	for (int r = 0; r < g->nrows; r++)
		if (!(g->rows[r].cells = calloc((size_t)g->ncols + 1, sizeof(struct pg_gcell))))
			return -1;
	for (int c = 0; c < g->ncols; c++) {
		pg_column_sort(&g->cols[c]);
		if (pg_column_emulators(&g->cols[c]) < 0 || fill_column(g, c) < 0)
			return -1;
	}
	return pg_guide_note_sections(g) < 0 ? -1 : pg_guide_name_columns(g);
}

void pg_guide_free(struct pg_guide *g)
{
	for (int c = 0; c < g->ncols; c++) {
		for (int k = 0; g->cols[c].emulator && k < g->cols[c].nruns; k++)
			free(g->cols[c].emulator[k]);
		free(g->cols[c].emulator);
		free(g->cols[c].runs);
		free(g->cols[c].used);
		free(g->cols[c].name);
	}
	for (int r = 0; r < g->nrows; r++) {
		free(g->rows[r].cells);
		free(g->rows[r].dist);
	}
	for (int s = 0; s < g->nsections; s++)
		pg_section_free(&g->sections[s]);
	free(g->sections);
	free(g->cols);
	free(g->rows);
	free(g->geomean);
	free(g->ngeo);
	free(g->has);
	free(g->index);
	free(g->titles);
	free(g->sec_start);
	memset(g, 0, sizeof(*g));
	g->baseline = -1;
}

int pg_cell_ok(const struct pg_gcell *c)
{
	return c->present && c->status == PG_OK;
}

/* The ratio of c to the baseline cell b, above 1 when c is better. */
static void ratio(struct pg_gcell *c, const struct pg_gcell *b, int higher)
{
	if (!pg_cell_ok(c) || !pg_cell_ok(b) || !(c->median > 0) || !(b->median > 0))
		return;
	double r = higher ? c->median / b->median : b->median / c->median;
	if (!isfinite(r) || !(r > 0))
		return;	/* beyond what a double holds: no ratio to show */
	c->have_ratio = 1;
	c->ratio = r;
	c->overlap = c->min <= b->max && b->min <= c->max;
}

int pg_guide_column(const struct pg_guide *g, const char *name)
{
	for (int c = 0; c < g->ncols; c++)
		if (strcmp(g->cols[c].name, name) == 0)
			return c;
	for (int c = 0; c < g->ncols; c++)
		if (strcmp(g->cols[c].board, name) == 0)
			return c;
	return -1;
}

int pg_guide_baseline(struct pg_guide *g, const char *board)
{
	int base = pg_guide_column(g, board);
	if (base < 0)
		return -1;
	size_t n = (size_t)g->nsections * (size_t)g->ncols + 1;
	double *sum = calloc(n, sizeof(double));
	g->geomean = calloc(n, sizeof(double));
	g->ngeo = calloc(n, sizeof(int));
	if (!sum || !g->geomean || !g->ngeo) {
		free(sum);
		return -1;
	}
	g->baseline = base;
	for (int r = 0; r < g->nrows; r++) {
		struct pg_grow *row = &g->rows[r];
		for (int c = 0; c < g->ncols; c++) {
			ratio(&row->cells[c], &row->cells[base], row->higher);
			/* the summary is of the rows the tables show */
			if (!row->cells[c].have_ratio || !pg_row_main(g, row))
				continue;
			size_t at = (size_t)row->section * (size_t)g->ncols + (size_t)c;
			sum[at] += log(row->cells[c].ratio);
			g->ngeo[at]++;
		}
	}
	for (size_t i = 0; i + 1 < n; i++)
		g->geomean[i] = g->ngeo[i] ? exp(sum[i] / g->ngeo[i]) : 0;
	free(sum);
	return 0;
}

/* Two decimals as the seed guides print them; a value too large for that
 * to be readable (beyond 10^15) in exponent form. */
static void value_text(double v, char *buf, size_t len)
{
	snprintf(buf, len, fabs(v) < 1e15 ? "%.2f" : "%.6g", v);
}

void pg_cell_text(const struct pg_gcell *c, char *buf, size_t len)
{
	if (!c->present) {
		buf[0] = '\0';
		return;
	}
	if (c->status != PG_OK) {
		snprintf(buf, len, "%s", pg_status_name(c->status));
		return;
	}
	char med[48], mn[48], mx[48];
	value_text(c->median, med, sizeof(med));
	value_text(c->min, mn, sizeof(mn));
	value_text(c->max, mx, sizeof(mx));
	if (strcmp(med, mn) == 0 && strcmp(med, mx) == 0)
		snprintf(buf, len, "%s", med);
	else
		snprintf(buf, len, "%s (min %s, max %s)", med, mn, mx);
}

/* Whether word w is a word of text t (case aside): "glmark2 score" has
 * "score", so its rows need not say the metric again. */
int pg_has_word(const char *t, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = t; n && p && *p; p++)
		if (strncasecmp(p, w, n) == 0 && (p == t || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]) && p[n] != '_')
			return 1;
	return 0;
}

void pg_row_name(const struct pg_grow *r, char *buf, size_t len)
{
	char base[256];
	const char *d = r->dist ? r->dist : "";
	int w;
	if (r->label && r->label_shared)
		w = snprintf(base, sizeof(base), "%s%s%s", r->label, d[0] ? " " : "", d);
	else if (r->label)
		w = snprintf(base, sizeof(base), "%s", r->label);
	else {
		const char *t = r->title ? r->title : r->bench;
		int said = pg_has_word(t, r->metric);
		w = snprintf(base, sizeof(base), "%s%s%s%s%s", t, d[0] ? " " : "", d, said ? "" : " ",
			     said ? "" : r->metric);
	}
	if (w < 0 || (size_t)w >= sizeof(base))
		pg_utf8_trim(base);
	/* Some of the seed's row names carry their unit already:
	 * "dhrystone_per_second (DhrystoneP)"; a unit that is the metric's
	 * name ("score") adds nothing. */
	size_t bl = strlen(base);
	int has_unit = (r->label && bl > 2 && base[bl - 1] == ')' && strstr(base, " (")) ||
		       (r->unit && strcmp(r->unit, r->metric) == 0 && pg_has_word(base, r->unit));
	if (r->unit && r->unit[0] && !has_unit) {
		if ((size_t)snprintf(buf, len, "%s (%s)", base, r->unit) >= len)
			pg_utf8_trim(buf);
	} else {
		pg_text_copy(buf, len, base);
	}
}

/* Whether metric is in the comma-separated list. */
static int in_list(const char *list, const char *metric)
{
	size_t n = strlen(metric);
	for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',')
		if (strncmp(p, metric, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

/* The metrics section s shows: what report --metrics says for it, else
 * what it declares; NULL: every one. */
static const char *shown_metrics(const struct pg_guide *g, int s)
{
	const char *title = g->sections[s].title;
	size_t n = strlen(title);
	for (int i = 0; i < g->opts.nmetrics; i++)
		if (strncmp(g->opts.metrics[i], title, n) == 0 && g->opts.metrics[i][n] == '=')
			return g->opts.metrics[i] + n + 1;
	return g->sections[s].metrics;
}

int pg_row_main(const struct pg_guide *g, const struct pg_grow *row)
{
	const char *list = shown_metrics(g, row->section);
	return !list || !list[0] || in_list(list, row->metric);
}

const char *pg_metric_title(const struct pg_guide *g, int section, const char *metric, char *buf, size_t len)
{
	const char *list = g->sections[section].metric_titles;
	size_t n = strlen(metric);
	for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',')
		if (strncmp(p, metric, n) == 0 && p[n] == '=') {
			size_t tl = strcspn(p + n + 1, ",");
			snprintf(buf, len, "%.*s", (int)tl, p + n + 1);
			pg_utf8_trim(buf);
			return buf;
		}
	return metric;
}
