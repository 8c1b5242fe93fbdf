/* SPDX-License-Identifier: MIT */
/*
 * What a table of the guide need not say: a column with nothing in it (a
 * board's where it has no result of that kind, the baseline's, a ratio
 * where the baseline has no figure), a column whose every figure was
 * skipped for the same reasons (backend=kernel where the kernel has no
 * AF_ALG: one line under the table instead), and notes that differ only in
 * their numbers (merged, with each number's range).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "table.h"

#define NOTE_MAX 1200
#define NUMS_MAX 24

static int is_data(const struct pg_tcell *h)
{
	return h->kind == PG_T_VALUE || h->kind == PG_T_CPU || h->kind == PG_T_RATIO;
}

/* 0: column c is empty; 1: it has a figure (or an error, which is news);
 * 2: every cell with text was skipped, in a pivoted table (a flat table's
 * column is a board's: a line under it would not say which rows). */
static int column_state(const struct pg_table *t, int c)
{
	int skipped = 0;
	for (int r = 0; r < t->nrows; r++) {
		const struct pg_tcell *tc = pg_table_cell(t, r, c);
		if (!tc->text || !tc->text[0])
			continue;
		if (tc->kind != PG_T_VALUE || !tc->cell || !tc->cell->present || tc->cell->status != PG_SKIP)
			return 1;
		skipped = 1;
	}
	return skipped ? (t->pivoted ? 2 : 1) : 0;
}

int pg_table_remark(struct pg_table *t, const char *text)
{
	size_t old = t->legend ? strlen(t->legend) : 0;
	char *n = malloc(old + strlen(text) + 3);
	if (!n)
		return -1;
	snprintf(n, old + strlen(text) + 3, "%s%s%s", old ? t->legend : "", old ? " " : "", text);
	free(t->legend_own);
	t->legend = t->legend_own = n;
	return 0;
}

/* "vm: backend=kernel throughput (KBytes/Sec): skipped: <reasons>." */
static int collapse(struct pg_table *t, int c)
{
	char text[NOTE_MAX];
	size_t at = (size_t)snprintf(text, sizeof(text), "%s: skipped:", t->head[c].text);
	for (int r = 0; r < t->nrows && at < sizeof(text); r++) {
		const struct pg_tcell *tc = pg_table_cell(t, r, c);
		const char *why = tc->note ? t->notes[tc->note - 1] : NULL;
		if (why && !strstr(text, why))
			at += (size_t)snprintf(text + at, sizeof(text) - at, "%s %s", text[at - 1] == ':' ? "" : ";", why);
	}
	if (at < sizeof(text) - 1)
		snprintf(text + at, sizeof(text) - at, ".");
	pg_utf8_trim(text);
	size_t before = t->legend ? strlen(t->legend) + 1 : 0;
	if (!t->pruned_at)	/* where they begin: a split table says them once (split.c) */
		t->pruned_at = (int)before + 1;
	return pg_table_remark(t, text);
}

/* Keeps the columns keep[] says, in order. */
static void keep_columns(struct pg_table *t, const char *keep)
{
	int k = 0;
	for (int c = 0; c < t->ncols; c++) {
		if (!keep[c]) {
			free(t->head[c].text);
			for (int r = 0; r < t->nrows; r++)
				free(pg_table_cell(t, r, c)->text);
			continue;
		}
		t->head[k] = t->head[c];
		for (int r = 0; r < t->nrows; r++)
			t->cells[(size_t)r * (size_t)t->ncols + (size_t)k] = *pg_table_cell(t, r, c);
		k++;
	}
	/* the cells moved within each row's old stride: close the gaps */
	for (int r = 1; r < t->nrows; r++)
		memmove(&t->cells[(size_t)r * (size_t)k], &t->cells[(size_t)r * (size_t)t->ncols],
			sizeof(*t->cells) * (size_t)k);
	t->ncols = k;
}

/* Rows with no value left in them (their boards' columns gone) go. */
static void keep_rows(struct pg_table *t)
{
	int values = 0, k = 0;
	for (int c = 0; c < t->ncols; c++)
		values += t->head[c].kind == PG_T_VALUE;
	for (int r = 0; r < t->nrows; r++) {
		int any = !values;
		for (int c = 0; c < t->ncols && !any; c++) {
			const struct pg_tcell *tc = pg_table_cell(t, r, c);
			any = tc->kind == PG_T_VALUE && tc->text && tc->text[0];
		}
		if (!any) {
			for (int c = 0; c < t->ncols; c++)
				free(pg_table_cell(t, r, c)->text);
			continue;
		}
		memmove(&t->cells[(size_t)k * (size_t)t->ncols], &t->cells[(size_t)r * (size_t)t->ncols],
			sizeof(*t->cells) * (size_t)t->ncols);
		k++;
	}
	t->nrows = k;
}

/* The notes the cells still refer to, renumbered in order of use. */
static int renumber(struct pg_table *t, const int *map_in)
{
	int *map = calloc((size_t)t->nnotes + 1, sizeof(int)), n = 0;
	char **notes = calloc((size_t)t->nnotes + 1, sizeof(char *));
	if (!map || !notes) {
		free(map);
		free(notes);
		return -1;
	}
	for (int i = -1; i < t->nrows; i++)
		for (int c = 0; c < t->ncols; c++) {
			struct pg_tcell *tc = i < 0 ? &t->head[c] : pg_table_cell(t, i, c);
			int old = tc->note ? (map_in ? map_in[tc->note - 1] : tc->note - 1) : -1;
			if (old < 0)
				continue;
			if (!map[old]) {
				notes[n] = t->notes[old];
				t->notes[old] = NULL;
				map[old] = ++n;
			}
			tc->note = map[old];
		}
	for (int i = 0; i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->notes);
	t->notes = notes;
	t->nnotes = n;
	free(map);
	return 0;
}

int pg_table_prune(struct pg_table *t)
{
	char *keep = calloc((size_t)t->ncols + 1, 1);
	int rc = keep ? 0 : -1;
	for (int c = 0; rc == 0 && c < t->ncols; c++) {
		int state = is_data(&t->head[c]) ? column_state(t, c) : 1;
		keep[c] = state == 1;
		if (state == 2)
			rc = collapse(t, c);
	}
	if (rc == 0) {
		keep_columns(t, keep);
		keep_rows(t);
		rc = renumber(t, NULL);
	}
	free(keep);
	return rc;
}

/* --- notes that differ only in their numbers --- */

/* Whether a number starts at p: not inside a word or a name
 * ("aes-128-cbc", "ext4"), but after a space, a bracket, "+/-". */
static int number_at(const char *s, const char *p)
{
	if (!isdigit((unsigned char)*p))
		return 0;
	if (p == s)
		return 1;
	char b = p[-1];
	if (b == '-')
		return p - s >= 2 && p[-2] == '/';
	return strchr(" ([/=:+", b) != NULL;
}

/* The note with its numbers as \1, and the numbers; -1 when it has more
 * than NUMS_MAX of them. */
static int shape(const char *s, char *out, size_t len, double *nums, char (*toks)[32])
{
	size_t at = 0;
	int n = 0;
	for (const char *p = s; *p && at + 2 < len;) {
		if (!number_at(s, p)) {
			out[at++] = *p++;
			continue;
		}
		if (n == NUMS_MAX)
			return -1;
		size_t k = strspn(p, "0123456789");
		if (p[k] == '.' && isdigit((unsigned char)p[k + 1]))
			k += 1 + strspn(p + k + 1, "0123456789");
		snprintf(toks[n], 32, "%.*s", (int)(k < 31 ? k : 31), p);
		nums[n] = strtod(toks[n], NULL);
		n++;
		out[at++] = '\1';
		p += k;
	}
	out[at] = '\0';
	return n;
}

/* The notes of one shape as one: each number its range over them. */
static void merged_text(char *const *notes, const int *group, int ng, int cells, char *out, size_t len)
{
	double nums[NUMS_MAX], mn[NUMS_MAX], mx[NUMS_MAX];
	char shp[NOTE_MAX], toks[NUMS_MAX][32], lo[NUMS_MAX][32], hi[NUMS_MAX][32];
	int n = 0;
	for (int i = 0; i < ng; i++) {
		n = shape(notes[group[i]], shp, sizeof(shp), nums, toks);
		for (int k = 0; k < n; k++) {
			if (i == 0 || nums[k] < mn[k])
				mn[k] = nums[k], memcpy(lo[k], toks[k], 32);
			if (i == 0 || nums[k] > mx[k])
				mx[k] = nums[k], memcpy(hi[k], toks[k], 32);
		}
	}
	size_t at = (size_t)snprintf(out, len, "%d cells: ", cells);
	for (int p = 0, k = 0; shp[p] && at + 1 < len; p++) {
		if (shp[p] != '\1')
			out[at++] = shp[p];
		else if (k < n && mn[k] == mx[k])
			at += (size_t)snprintf(out + at, len - at, "%s", lo[k++]);
		else if (k < n) {
			at += (size_t)snprintf(out + at, len - at, "%s-%s", lo[k], hi[k]);
			k++;
		}
		at = at < len ? at : len - 1;
	}
	out[at] = '\0';
	pg_utf8_trim(out);
}

/* How many cells refer to each note. */
static void count_cells(const struct pg_table *t, int *uses)
{
	for (int i = -1; i < t->nrows; i++)
		for (int c = 0; c < t->ncols; c++) {
			const struct pg_tcell *tc = i < 0 ? &t->head[c] : pg_table_cell(t, i, c);
			if (tc->note)
				uses[tc->note - 1]++;
		}
}

int pg_table_merge_notes(struct pg_table *t)
{
	int n = t->nnotes, *map = malloc(sizeof(int) * ((size_t)n + 1)), *group = malloc(sizeof(int) * ((size_t)n + 1));
	int *uses = calloc((size_t)n + 1, sizeof(int));
	char (*shapes)[NOTE_MAX] = malloc(sizeof(*shapes) * ((size_t)n + 1));
	int rc = map && group && uses && shapes ? 0 : -1;
	double nums[NUMS_MAX];
	char toks[NUMS_MAX][32];
	for (int i = 0; rc == 0 && i < n; i++) {
		map[i] = i;
		if (shape(t->notes[i], shapes[i], NOTE_MAX, nums, toks) <= 0)
			shapes[i][0] = '\0';	/* no numbers (or too many): alone */
	}
	if (rc == 0)
		count_cells(t, uses);
	for (int i = 0; rc == 0 && i < n; i++) {
		if (map[i] != i || !shapes[i][0])
			continue;
		int ng = 0, cells = 0;
		for (int j = i; j < n; j++)
			if (map[j] == j && strcmp(shapes[j], shapes[i]) == 0)
				group[ng++] = j, cells += uses[j];
		if (ng < 2)
			continue;
		char text[NOTE_MAX];
		merged_text(t->notes, group, ng, cells, text, sizeof(text));
		char *m = strdup(text);
		if (!m) {
			rc = -1;
			break;
		}
		free(t->notes[i]);
		t->notes[i] = m;
		for (int k = 1; k < ng; k++)
			map[group[k]] = i;
	}
	if (rc == 0)
		rc = renumber(t, map);
	free(map);
	free(group);
	free(uses);
	free(shapes);
	return rc;
}
