/* SPDX-License-Identifier: MIT */
/*
 * Figures a board has once per benchmark in a table of a row per
 * (benchmark, value): the seed's OpenSSL CPU load, one figure per
 * algorithm over all its buffer sizes (time -v of the whole openssl speed
 * run). Beside one of the rows they would leave a column all but empty;
 * the seed prints them as a table of their own, a row per algorithm and a
 * column per board, and so does the guide (walk.c, after the section's
 * table; pivot.c leaves them out of it).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "table.h"

/* Whether board c has a figure in row r: of its metric (metric != NULL),
 * else its CPU load beside. */
static int has(const struct pg_grow *row, int c, const char *metric)
{
	const struct pg_gcell *cell = &row->cells[c];
	if (!cell->present)
		return 0;
	return metric ? strcmp(row->metric, metric) == 0 : cell->have_busy;
}

/* Rows by benchmark, in their order within one. */
static int by_bench(const void *a, const void *b)
{
	const struct pg_grow *x = *(const struct pg_grow *const *)a, *y = *(const struct pg_grow *const *)b;
	int d = strcmp(x->bench, y->bench);
	return d ? d : x < y ? -1 : x > y;
}

int pg_apart(const struct pg_guide *g, int s, int c, const char *metric)
{
	int first, last, n = 0, any = 0, more = 0, apart = 1;
	if (!g->sections[s].rows_bench || !pg_section_rows(g, s, &first, &last))
		return 0;
	const struct pg_grow **rows = malloc(sizeof(*rows) * (size_t)(last - first + 2));
	if (!rows)
		return 0;
	for (int r = first; r <= last; r++)
		if (pg_row_main(g, &g->rows[r]) && g->rows[r].cells[c].present)
			rows[n++] = &g->rows[r];
	qsort(rows, (size_t)n, sizeof(*rows), by_bench);
	/* per benchmark: the figure at one value at most, the board's rows at more */
	for (int i = 0, b = 0; i < n && apart; i++) {
		if (strcmp(rows[i]->bench, rows[b]->bench) != 0)
			b = i;
		more |= strcmp(rows[i]->params, rows[b]->params) != 0;
		if (!has(rows[i], c, metric))
			continue;
		any = 1;
		for (int j = b; j < i && apart; j++)
			apart = !has(rows[j], c, metric) || strcmp(rows[j]->params, rows[i]->params) == 0;
	}
	free(rows);
	return apart && any && more;
}

/* The section's benchmarks, each its first main row; their count. */
static int benchmarks(const struct pg_guide *g, int first, int last, int *rows)
{
	int n = 0;
	for (int r = first; r <= last; r++) {
		int seen = !pg_row_main(g, &g->rows[r]);
		for (int i = 0; i < n && !seen; i++)
			seen = strcmp(g->rows[rows[i]].bench, g->rows[r].bench) == 0;
		if (!seen)
			rows[n++] = r;
	}
	return n;
}

/* The section's metrics shown, each its first main row; their count. */
static int metrics(const struct pg_guide *g, int first, int last, int *rows)
{
	int n = 0;
	for (int r = first; r <= last; r++) {
		int seen = !pg_row_main(g, &g->rows[r]);
		for (int i = 0; i < n && !seen; i++)
			seen = strcmp(g->rows[rows[i]].metric, g->rows[r].metric) == 0;
		if (!seen)
			rows[n++] = r;
	}
	return n;
}

/* Board c's row of benchmark bench with the figure (metric, or the CPU
 * load where NULL); NULL: none. */
static const struct pg_grow *figure(const struct pg_guide *g, int first, int last, const char *bench, int c,
				    const char *metric)
{
	for (int r = first; r <= last; r++)
		if (pg_row_main(g, &g->rows[r]) && strcmp(g->rows[r].bench, bench) == 0 && has(&g->rows[r], c, metric))
			return &g->rows[r];
	return NULL;
}

/* The columns: per board, its figures apart (a metric's, then the CPU
 * load's: -1); their count, each as board * (nm + 1) + metric. */
static int columns(const struct pg_guide *g, int s, const int *mrow, int nm, int *cols)
{
	int n = 0;
	for (int c = 0; c < g->ncols; c++)
		for (int m = 0; m <= nm; m++)
			if (pg_apart(g, s, c, m < nm ? g->rows[mrow[m]].metric : NULL))
				cols[n++] = c * (nm + 1) + m;
	return n;
}

static int fill(const struct pg_guide *g, int s, struct pg_table *t, const int *brow, int nb, const int *mrow,
		int nm, const int *cols, int nc)
{
	int first, last, rc;
	pg_section_rows(g, s, &first, &last);
	size_t prefix = strcspn(g->rows[brow[0]].bench, ".");
	for (int i = 1; i < nb; i++)
		if (strncmp(g->rows[brow[i]].bench, g->rows[brow[0]].bench, prefix + 1) != 0)
			prefix = (size_t)-1;
	rc = pg_table_set(&t->head[0], PG_T_NAME, -1, "%s", g->sections[s].rows_bench);
	for (int j = 0; rc == 0 && j < nc; j++) {
		int c = cols[j] / (nm + 1), m = cols[j] % (nm + 1);
		char mt[120];
		const struct pg_grow *mr = m < nm ? &g->rows[mrow[m]] : NULL;
		if (mr)
			rc = pg_table_set(&t->head[1 + j], PG_T_VALUE, c, "%s: %s%s%s%s", g->cols[c].name,
					  pg_metric_title(g, s, mr->metric, mt, sizeof(mt)), mr->unit && mr->unit[0] ? " (" : "",
					  mr->unit ? mr->unit : "", mr->unit && mr->unit[0] ? ")" : "");
		else
			rc = pg_table_set(&t->head[1 + j], PG_T_CPU, c, "%s: %s", g->cols[c].name, pg_cpu_heading(g));
	}
	for (int b = 0; rc == 0 && b < nb; b++) {
		const char *id = g->rows[brow[b]].bench;
		rc = pg_table_set(pg_table_cell(t, b, 0), PG_T_NAME, -1, "%s",
				  prefix != (size_t)-1 && id[prefix] ? id + prefix + 1 : id);
		for (int j = 0; rc == 0 && j < nc; j++) {
			int c = cols[j] / (nm + 1), m = cols[j] % (nm + 1);
			const char *metric = m < nm ? g->rows[mrow[m]].metric : NULL;
			const struct pg_grow *row = figure(g, first, last, id, c, metric);
			struct pg_tcell *tc = pg_table_cell(t, b, 1 + j);
			rc = !row ? pg_table_set(tc, metric ? PG_T_VALUE : PG_T_CPU, c, "%s", "")
			   : metric ? pg_table_value(t, tc, row, c) : pg_table_cpu(g, t, tc, row, c);
		}
	}
	return rc;
}

int pg_table_apart(const struct pg_guide *g, int s, struct pg_table *t)
{
	int first, last;
	memset(t, 0, sizeof(*t));
	if (!g->sections[s].rows_bench || !pg_section_rows(g, s, &first, &last))
		return 1;
	int n = last - first + 1;
	int *brow = malloc(sizeof(int) * ((size_t)n + 1)), *mrow = malloc(sizeof(int) * ((size_t)n + 1));
	int nb = brow && mrow ? benchmarks(g, first, last, brow) : 0, nm = nb ? metrics(g, first, last, mrow) : 0;
	int *cols = malloc(sizeof(int) * ((size_t)g->ncols * (size_t)(nm + 1) + 1));
	int nc = cols && nb ? columns(g, s, mrow, nm, cols) : 0, rc = brow && mrow && cols ? 1 : -1;
	if (nc > 0) {
		t->title = g->sections[s].title;
		snprintf(t->caption_buf, sizeof(t->caption_buf), "%s: per %s", g->sections[s].title,
			 g->sections[s].rows_bench);
		pg_utf8_trim(t->caption_buf);
		t->caption = t->caption_buf;
		char what[64];
		pg_text_copy(what, sizeof(what), g->sections[s].rows_bench);
		what[0] = (char)tolower((unsigned char)what[0]);
		rc = asprintf(&t->sub_intro, "One figure per %s for all its %ss, as the boards' own tables give it.",
			      what, g->sections[s].rows_by) < 0;
		if (rc == 0 && pg_table_alloc(t, nb, 1 + nc) == 0)
			rc = fill(g, s, t, brow, nb, mrow, nm, cols, nc) == 0 ? pg_table_prune(t) : -1;
		else
			rc = -1;
	}
	free(brow);
	free(mrow);
	free(cols);
	return rc;
}
