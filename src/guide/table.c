/* SPDX-License-Identifier: MIT */
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

#include "core/env.h"
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
	free(t->intro_text);
	free(t->sub_intro);
	free(t->legend_own);
	free(t->head);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

/* The number of a note, added unless the table has its text already. */
int pg_table_note(struct pg_table *t, const char *text)
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

/* A board's result; a note says why it has none to show (the reason
 * alone: the cell's row and column say whose), or why it is to be doubted,
 * and then the cell is marked. */
int pg_table_value(struct pg_table *t, struct pg_tcell *tc, const struct pg_grow *row, int c)
{
	const struct pg_gcell *cell = &row->cells[c];
	char text[160], note[1200];
	pg_cell_text(cell, text, sizeof(text));
	tc->cell = cell;
	tc->row = row;
	if (cell->present && cell->status != PG_OK)
		tc->note = pg_table_note(t, cell->reason ? cell->reason : "no reason given");
	else if (pg_doubt_text(cell, note, sizeof(note))) {
		tc->note = pg_table_note(t, note);
		tc->doubt = 1;
		t->doubts = 1;
		return pg_table_set(tc, PG_T_VALUE, c, "%s %s", text, PG_DOUBT_MARK);
	}
	return pg_table_set(tc, PG_T_VALUE, c, "%s", text);
}

const char *pg_cpu_heading(const struct pg_guide *g)
{
	return g->opts.cpu_load == PG_CPU_LOAD_PROCESS ? PG_CPU_PROCESS : PG_CPU_SYSTEM;
}

/* Why a CPU load is to be doubted: other processes used the CPUs while it
 * was measured (as much as makes a figure disturbed), which the system's
 * load counts; or perfguide's own share was asked for and not recorded. */
static int cpu_doubt(const struct pg_guide *g, const struct pg_gcell *cell, char *note, size_t len)
{
	int busy = cell->have_others && cell->others >= 100 * PG_ENV_SHARE;
	if (g->opts.cpu_load == PG_CPU_LOAD_PROCESS && !cell->have_self)
		snprintf(note, len, "the system's load: the result records no share of perfguide's own");
	else if (busy && g->opts.cpu_load == PG_CPU_LOAD_PROCESS)
		snprintf(note, len, "perfguide's own share; other processes used %.0f%% of the CPUs meanwhile",
			 cell->others);
	else if (busy && cell->have_self)
		snprintf(note, len, "CPU load counts other processes: they used %.0f%% of the CPUs meanwhile, "
			 "perfguide %.0f%%", cell->others, cell->self);
	else if (busy)
		snprintf(note, len, "CPU load counts other processes: they used %.0f%% of the CPUs meanwhile",
			 cell->others);
	else
		return 0;
	return 1;
}

int pg_table_cpu(const struct pg_guide *g, struct pg_table *t, struct pg_tcell *tc, const struct pg_grow *row, int c)
{
	const struct pg_gcell *cell = row ? &row->cells[c] : NULL;
	char note[300];
	tc->cell = cell;
	tc->row = row;
	if (!cell || !cell->have_busy)
		return pg_table_set(tc, PG_T_CPU, c, "%s", "");
	int self = g->opts.cpu_load == PG_CPU_LOAD_PROCESS && cell->have_self;
	if (!pg_cell_ok(cell) || !cpu_doubt(g, cell, note, sizeof(note)))
		return pg_table_set(tc, PG_T_CPU, c, "%.1f", self ? cell->self : cell->busy);
	tc->note = pg_table_note(t, note);
	tc->doubt = 1;
	t->doubts = 1;
	return pg_table_set(tc, PG_T_CPU, c, "%.1f %s", self ? cell->self : cell->busy, PG_DOUBT_MARK);
}

int pg_table_ratio(struct pg_table *t, struct pg_tcell *tc, const struct pg_grow *row, int c)
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

/* Whether board c has a result in section s (csv keeps a column for
 * every board: its header is the guide's). */
static int board_in_section(const struct pg_guide *g, int s, unsigned opts, int c)
{
	return (opts & PG_TABLE_FLAT) || pg_column_in_section(g, s, c);
}

/* The columns a board has in section s: none when it has no result there
 * (the seed's OpenSSL table leaves out a board it did not measure), else
 * its value, maybe its CPU load, maybe its ratio to the baseline. */
int pg_table_board_width(const struct pg_guide *g, int s, unsigned opts, int c, struct pg_percol *pc)
{
	pc->none = !board_in_section(g, s, opts, c);
	pc->cpu = !pc->none && ((opts & PG_TABLE_ALL_CPU) || pg_section_has_cpu(g, s));
	pc->ratio = !pc->none && g->baseline >= 0 && c != g->baseline;
	return pc->none ? 0 : 1 + pc->cpu + pc->ratio;
}

/* A row of section s in this table: csv and json (PG_TABLE_FLAT) have every
 * metric, the others those the section shows, and its table of other
 * metrics (PG_TABLE_OTHER) the rest. */
static int in_table(const struct pg_guide *g, int s, unsigned opts, int r)
{
	if (g->rows[r].section != s)
		return 0;
	if (opts & PG_TABLE_FLAT)
		return 1;
	return (opts & PG_TABLE_OTHER) ? !pg_row_main(g, &g->rows[r]) : pg_row_main(g, &g->rows[r]);
}

/* Whether the table has a figure of row r (sel: of its part). */
static int row_selected(const struct pg_guide *g, const struct pg_sel *sel, int r)
{
	for (int c = 0; sel && c < g->ncols; c++)
		if (pg_sel_has(sel, r, c))
			return 1;
	return !sel;
}

int pg_table_flat(const struct pg_guide *g, int s, unsigned opts, const struct pg_sel *sel, struct pg_table *t)
{
	int first, last, ncols = 1, nrows = 0;
	struct pg_percol pc;
	pg_section_rows(g, s, &first, &last);
	for (int c = 0; c < g->ncols; c++)
		ncols += pg_table_board_width(g, s, opts, c, &pc);
	for (int r = first; r >= 0 && r <= last; r++)
		nrows += in_table(g, s, opts, r) && row_selected(g, sel, r);
	int rc = pg_table_alloc(t, nrows, ncols);
	if (rc == 0)
		rc = pg_table_set(&t->head[0], PG_T_NAME, -1, "Benchmarks");
	for (int c = 0, k = 1; rc == 0 && c < g->ncols; c++) {
		if (!pg_table_board_width(g, s, opts, c, &pc))
			continue;
		rc |= pg_table_set(&t->head[k++], PG_T_VALUE, c, "%s", g->cols[c].name);
		if (pc.cpu)
			rc |= pg_table_set(&t->head[k++], PG_T_CPU, c, "%s %s", g->cols[c].name, pg_cpu_heading(g));
		if (pc.ratio)
			rc |= pg_table_set(&t->head[k++], PG_T_RATIO, c, "%s / %s", g->cols[c].name,
					   g->cols[g->baseline].name);
	}
	char name[320];
	for (int r = first, i = 0; rc == 0 && r >= 0 && r <= last; r++) {
		const struct pg_grow *row = &g->rows[r];
		if (!in_table(g, s, opts, r) || !row_selected(g, sel, r))
			continue;
		struct pg_tcell *tc = pg_table_cell(t, i++, 0);
		pg_row_name(row, name, sizeof(name));
		rc = pg_table_set(tc, PG_T_NAME, -1, "%s", name);
		tc->row = row;
		for (int c = 0; rc == 0 && c < g->ncols; c++) {
			if (!pg_table_board_width(g, s, opts, c, &pc))
				continue;
			/* a figure of another of the section's tables: none here */
			const struct pg_grow *here = pg_sel_has(sel, r, c) ? row : NULL;
			rc = here ? pg_table_value(t, ++tc, row, c) : pg_table_set(++tc, PG_T_VALUE, c, "%s", "");
			if (rc == 0 && pc.cpu)
				rc = pg_table_cpu(g, t, ++tc, here, c);
			if (rc == 0 && pc.ratio)
				rc = pg_table_ratio(t, ++tc, here, c);
		}
	}
	return rc < 0 ? -1 : 0;
}

/* The section's title and caption; with PG_TABLE_OTHER, those of its
 * table of other metrics and what that is. */
static void section_texts(const struct pg_guide *g, int s, unsigned opts, struct pg_table *t)
{
	const struct pg_section *sec = &g->sections[s];
	memset(t, 0, sizeof(*t));
	t->title = sec->title;
	if ((size_t)snprintf(t->caption_buf, sizeof(t->caption_buf), "%s Benchmarks", sec->title) >= sizeof(t->caption_buf))
		pg_utf8_trim(t->caption_buf);
	t->caption = t->caption_buf;
	if (!(opts & PG_TABLE_OTHER))
		return;
	if ((size_t)snprintf(t->title_buf, sizeof(t->title_buf), "%s: other metrics", sec->title) >=
	    sizeof(t->title_buf))
		pg_utf8_trim(t->title_buf);
	t->title = t->caption = t->title_buf;
	t->intro = "Figures the section's table leaves out (report --all-metrics): per-operation times, "
		   "derived and descriptive metrics.";
	t->part = 1;
}

int pg_table_section_part(const struct pg_guide *g, int s, unsigned opts, const struct pg_parts *p, int i,
			  struct pg_table *t)
{
	struct pg_sel sel = { p->of, i, g->ncols, p->first };
	section_texts(g, s, opts, t);
	if (i >= 0) {
		pg_text_copy(t->sub, sizeof(t->sub), p->name[i]);
		if (p->intro[i][0] && !(t->sub_intro = strdup(p->intro[i])))
			return -1;
		if (t->sub[0])
			pg_text_copy(t->caption_buf, sizeof(t->caption_buf), t->sub);
	}
	int rc = i >= 0 ? pg_table_pivot(g, s, opts, &sel, t) : pg_table_flat(g, s, opts, &sel, t);
	/* the path in a note, never in the words of a heading or its settings */
	char where[PG_PART_MAX], line[PG_PART_MAX + 32];
	if (rc == 0 && i >= 0) {
		pg_parts_place(g, s, p, i, where, sizeof(where));
		snprintf(line, sizeof(line), "Where it ran: %s.", where);
		rc = where[0] ? pg_table_remark(t, line) : 0;
	}
	return rc == 0 ? pg_table_prune(t) : rc;
}

int pg_table_intro(const struct pg_guide *g, int s, struct pg_table *t)
{
	t->intro = t->intro_text = pg_section_intro(g, s);
	/* the section's own words say the system's load: the column is not */
	if (g->opts.cpu_load == PG_CPU_LOAD_PROCESS && pg_section_has_cpu(g, s)) {
		char *with = NULL;
		if (asprintf(&with, "%s%sHere the CPU load columns are perfguide's own share of all the CPUs "
			     "(report --cpu-load process), not the system's.", t->intro ? t->intro : "",
			     t->intro ? " " : "") < 0)
			return -1;
		free(t->intro_text);
		t->intro = t->intro_text = with;
	}
	return 0;
}

int pg_table_section(const struct pg_guide *g, int s, unsigned opts, struct pg_table *t)
{
	section_texts(g, s, opts, t);
	int rc;
	if (opts & PG_TABLE_OTHER)
		rc = pg_table_flat(g, s, opts, NULL, t);
	else if ((rc = pg_table_intro(g, s, t)) == 0)
		rc = g->sections[s].rows_by && !(opts & PG_TABLE_FLAT) ? pg_table_pivot(g, s, opts, NULL, t)
								       : pg_table_flat(g, s, opts, NULL, t);
	/* csv and json keep a column per board and every cell */
	return rc == 0 && !(opts & PG_TABLE_FLAT) ? pg_table_prune(t) : rc;
}

/* Whether section s has rows its table leaves out. */
int pg_section_has_other(const struct pg_guide *g, int s)
{
	for (int r = pg_section_first(g, s); r < pg_section_end(g, s); r++)
		if (!pg_row_main(g, &g->rows[r]))
			return 1;
	return 0;
}

/* Whether a board has a ratio to the baseline in section s. */
static int summary_row(const struct pg_guide *g, int s)
{
	for (int c = 0; c < g->ncols; c++)
		if (c != g->baseline && g->ngeo[(size_t)s * (size_t)g->ncols + (size_t)c])
			return 1;
	return 0;
}

int pg_table_summary(const struct pg_guide *g, struct pg_table *t)
{
	memset(t, 0, sizeof(*t));
	int b = g->baseline;
	if ((size_t)snprintf(t->caption_buf, sizeof(t->caption_buf), "Against %s", g->cols[b].name) >=
	    sizeof(t->caption_buf))
		pg_utf8_trim(t->caption_buf);
	t->title = t->caption = t->caption_buf;
	t->intro = "Per section, the geometric mean of each board's ratios to the baseline over the rows "
		   "both have (above 1: better than the baseline, whichever way the metric goes), and "
		   "over how many rows.";
	/* a row per section some board has a ratio in: the others have
	 * nothing to say against the baseline */
	int nrows = 0;
	for (int s = 0; s < g->nsections; s++)
		nrows += summary_row(g, s);
	if (pg_table_alloc(t, nrows, g->ncols) < 0 || pg_table_set(&t->head[0], PG_T_NAME, -1, "Section") < 0)
		return -1;
	for (int c = 0, h = 1; c < g->ncols; c++)
		if (c != b && pg_table_set(&t->head[h++], PG_T_RATIO, c, "%s / %s", g->cols[c].name, g->cols[b].name) < 0)
			return -1;
	for (int s = 0, i = 0; s < g->nsections; s++) {
		if (!summary_row(g, s))
			continue;
		if (pg_table_set(pg_table_cell(t, i, 0), PG_T_NAME, -1, "%s", g->sections[s].title) < 0)
			return -1;
		for (int c = 0, h = 1; c < g->ncols; c++) {
			if (c == b)
				continue;
			size_t at = (size_t)s * (size_t)g->ncols + (size_t)c;
			int rc = g->ngeo[at] ? pg_table_set(pg_table_cell(t, i, h), PG_T_RATIO, c, "%.2f (%d row%s)",
							    g->geomean[at], g->ngeo[at], g->ngeo[at] == 1 ? "" : "s")
					     : pg_table_set(pg_table_cell(t, i, h), PG_T_RATIO, c, "%s", "- (0 rows)");
			if (rc < 0)
				return -1;
			h++;
		}
		i++;
	}
	return 0;
}
