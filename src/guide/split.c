/* SPDX-License-Identifier: MIT */
/*
 * Tables wider than a page: a guide with a baseline and seven boards has 14
 * columns, the Crypto table 21; they overflow html and Sphinx. Such a table
 * is written as several, each with the columns that name the rows, the
 * baseline's, and as many boards' columns as fit the width.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

/* Characters a text takes on a line (UTF-8: each character one). */
static int text_width(const char *s)
{
	int n = 0;
	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The longest word: a heading wraps at its spaces (html, Sphinx). */
static int word_width(const char *s)
{
	int best = 0, n = 0;
	for (; s && *s; s++) {
		if (*s == ' ') {
			n = 0;
			continue;
		}
		n += ((unsigned char)*s & 0xc0) != 0x80;
		if (n > best)
			best = n;
	}
	return best;
}

/* What a cell takes when html or Sphinx lay the table out: it wraps at
 * spaces, so a value's bracket "(min X, max Y)" goes under its median and a
 * name's words under each other, to at most NAME_WIDTH a line. */
#define NAME_WIDTH 40
#define BRACKET_WIDTH 14

static int cell_width(const struct pg_tcell *tc)
{
	const char *t = tc->text ? tc->text : "", *br = strstr(t, " (");
	int all = text_width(t), w = word_width(t);
	if (tc->kind == PG_T_NAME || tc->kind == PG_T_TEXT)
		w = all < NAME_WIDTH ? all : w > NAME_WIDTH ? w : NAME_WIDTH;
	else if (br) {
		char head[160];
		snprintf(head, sizeof(head), "%.*s", (int)(br - t), t);
		int hw = text_width(head);
		w = hw > BRACKET_WIDTH ? hw : BRACKET_WIDTH;
	} else
		w = all;
	return w + (tc->note ? 5 : 0);
}

/* What column c takes: its widest cell, its heading's longest word, and
 * the space between columns. */
static int column_width(const struct pg_table *t, int c)
{
	int w = word_width(t->head[c].text);
	for (int r = 0; r < t->nrows; r++) {
		int x = cell_width(pg_table_cell(t, r, c));
		if (x > w)
			w = x;
	}
	return w + 3;
}

/* Column c of t as column k of part p, its note renumbered there: moved,
 * or (copy) duplicated for the columns every part has (the naming ones,
 * the baseline's). */
static int take_column(struct pg_table *t, struct pg_table *p, int c, int k, int copy)
{
	struct pg_tcell *cells[2] = { &t->head[c], &p->head[k] };
	for (int r = -1; r < t->nrows; r++) {
		struct pg_tcell *from = r < 0 ? cells[0] : pg_table_cell(t, r, c);
		struct pg_tcell *to = r < 0 ? cells[1] : pg_table_cell(p, r, k);
		*to = *from;
		if (copy && from->text && !(to->text = strdup(from->text)))
			return -1;
		if (!copy)
			memset(from, 0, sizeof(*from));
		if (to->note && !(to->note = pg_table_note(p, t->notes[to->note - 1])))
			return -1;
		p->doubts |= to->doubt;
	}
	return 0;
}

/* p's title and caption where t's point into t itself (its buffers). */
static void own_texts(const struct pg_table *t, struct pg_table *p)
{
	p->title = t->title;
	p->caption = t->caption;
	if (t->title == t->title_buf || t->caption == t->title_buf) {
		memcpy(p->title_buf, t->title_buf, sizeof(p->title_buf));
		p->title = t->title == t->title_buf ? p->title_buf : p->title;
		p->caption = t->caption == t->title_buf ? p->title_buf : p->caption;
	}
	if (t->title == t->caption_buf || t->caption == t->caption_buf) {
		memcpy(p->caption_buf, t->caption_buf, sizeof(p->caption_buf));
		p->title = t->title == t->caption_buf ? p->caption_buf : p->title;
		p->caption = t->caption == t->caption_buf ? p->caption_buf : p->caption;
	}
}

/* Part *n of t with columns cols[0..k), the first nfixed copied. */
static int make_part(struct pg_table *t, const int *cols, int k, int nfixed, struct pg_table *p, int first)
{
	memset(p, 0, sizeof(*p));
	own_texts(t, p);
	p->part = t->part;
	p->legend = t->legend;
	if (t->legend_own && !(p->legend = p->legend_own = strdup(t->legend_own)))
		return -1;
	p->heading = first ? t->heading : 0;
	if (first)
		memcpy(p->sub, t->sub, sizeof(p->sub));
	if (pg_table_alloc(p, t->nrows, k) < 0)
		return -1;
	int rc = 0;
	for (int i = 0; i < k && rc == 0; i++)
		rc = take_column(t, p, cols[i], i, i < nfixed);
	return rc;
}

/* Part p's legend without the lines of the pruned columns, from at on. */
static void drop_pruned(struct pg_table *p, int at)
{
	if (!p->legend_own || (size_t)at > strlen(p->legend_own))
		return;
	while (at > 0 && p->legend_own[at - 1] == ' ')
		at--;
	p->legend_own[at] = '\0';
	if (!at) {
		free(p->legend_own);
		p->legend = p->legend_own = NULL;
	}
}

static int fits(const int *width, const int *cols, int n, int limit)
{
	int w = 0;
	for (int i = 0; i < n; i++)
		w += width[cols[i]];
	return w <= limit;
}

/* What a part takes whole: a board's columns; where one board's are
 * wider than a part alone (five storage jobs, each with its CPU load),
 * each figure's column with the CPU load and ratio beside it. -1: a
 * column every part has. */
static void units(const struct pg_table *t, const int *w, int fixedw, int keep, int width, int *unit)
{
	int n = -1, wide = 0;
	for (int c = 0; c < t->ncols; c++) {
		int board = t->head[c].col;
		if (board < 0 || board == keep) {
			unit[c] = -1;
			continue;
		}
		if (c == 0 || t->head[c - 1].col != board) {	/* a board's first column */
			int all = fixedw;
			for (int e = c; e < t->ncols && t->head[e].col == board; e++)
				all += w[e];
			wide = width > 0 && all > width;
			n++;
		} else if (wide && t->head[c].kind == PG_T_VALUE) {
			n++;
		}
		unit[c] = n;
	}
}

/* The columns of the next part from column *c on: the fixed ones, then
 * whole units (boards) while they fit (at least one) and at most max of
 * them. Returns how many columns; *boards how many units. */
static int next_part(const struct pg_table *t, const int *w, const int *unit, const int *fixed, int nfixed,
		     int width, int max, int *c, int *cols, int *boards)
{
	int k = nfixed;
	memcpy(cols, fixed, sizeof(int) * (size_t)nfixed);
	*boards = 0;
	while (*c < t->ncols && *boards < max) {
		int u = unit[*c], e = *c;
		if (u < 0) {
			(*c)++;
			continue;
		}
		while (e < t->ncols && unit[e] == u)
			e++;
		for (int i = *c; i < e; i++)
			cols[k + i - *c] = i;
		if (k > nfixed && !fits(w, cols, k + e - *c, width))
			break;
		k += e - *c;
		*c = e;
		(*boards)++;
	}
	return k;
}

int pg_table_split(struct pg_table *t, int width, int keep, struct pg_table **parts, int *n)
{
	int *w = calloc((size_t)t->ncols + 1, sizeof(int)), *cols = calloc((size_t)t->ncols + 1, sizeof(int));
	int *fixed = calloc((size_t)t->ncols + 1, sizeof(int)), nfixed = 0, total = 0, rc = 0, fixedw = 0;
	int *unit = calloc((size_t)t->ncols + 1, sizeof(int));
	*parts = calloc((size_t)t->ncols + 1, sizeof(**parts));
	*n = 0;
	if (!w || !cols || !fixed || !unit || !*parts) {
		free(w), free(cols), free(fixed), free(unit);
		return -1;
	}
	for (int c = 0; c < t->ncols; c++) {
		total += w[c] = column_width(t, c);
		if (t->head[c].col < 0 || t->head[c].col == keep)
			fixed[nfixed++] = c, fixedw += w[c];
	}
	units(t, w, fixedw, keep, width, unit);
	/* as many parts as the widest boards need, the boards shared evenly */
	int nparts = 0, nboards = 0, b, max = t->ncols;
	for (int c = 0; width > 0 && total > width && c < t->ncols && next_part(t, w, unit, fixed, nfixed, width,
										 t->ncols, &c, cols, &b) > nfixed;) {
		nparts++;
		nboards += b;
	}
	if (nparts > 1)
		max = (nboards + nparts - 1) / nparts;
	for (int c = 0; rc == 0 && nparts > 1 && c < t->ncols;) {
		int k = next_part(t, w, unit, fixed, nfixed, width, max, &c, cols, &b);
		if (k == nfixed)
			break;
		rc = make_part(t, cols, k, nfixed, &(*parts)[*n], *n == 0);
		(*n)++;
	}
	free(w), free(cols), free(fixed), free(unit);
	if (rc == 0 && *n == 0) {	/* it fits: itself */
		(*parts)[0] = *t;
		own_texts(t, &(*parts)[0]);
		memset(t, 0, sizeof(*t));
		*n = 1;
		return 0;
	}
	/* the columns pruned as all skipped: one line, under the last part */
	for (int i = 0; t->pruned_at && i + 1 < *n; i++)
		drop_pruned(&(*parts)[i], t->pruned_at - 1);
	if (*n) {
		(*parts)[0].intro = t->intro, (*parts)[0].intro_text = t->intro_text, t->intro_text = NULL;
		(*parts)[0].sub_intro = t->sub_intro, t->sub_intro = NULL;
	}
	pg_table_free(t);
	return rc;
}
