/* SPDX-License-Identifier: MIT */
/* The guide in reStructuredText: the csv-table form the seed guide is
 * written in, its charts as SVG files beside it (.. image::), a table of
 * contents: a document Sphinx builds with -W. */
#include <stdlib.h>
#include <string.h>

#include "writer.h"

/* What keeps the page as wide as the theme's column, whatever the fonts:
 * how wide a table is laid out depends on the fonts the reader has (a
 * table that fits in DejaVu does not in a wider one, and Sphinx's themes
 * put tables in a column narrower than the window: alabaster's 660 px),
 * and a table wider than the column widened the page. Each table scrolls
 * in its own box instead, in a smaller font than the text (alabaster's
 * 17 px is wide for tables of figures: 14 px, as its sidebar); a word or
 * path longer than a line breaks; a chart shrinks to the column. A style in the page itself (raw html, which
 * other builders leave out) needs nothing in the project's conf.py. */
#define RST_TABLE_CLASS "pg-table"
static const char rst_style[] =
	"table." RST_TABLE_CLASS "{display:block;overflow-x:auto;max-width:100%;width:max-content;font-size:.85em}"
	"div.body p,div.body li,div.body h1,div.body h2,div.body h3{overflow-wrap:break-word}"
	"div.body img{max-width:100%;height:auto}";

static void rst_title(FILE *out, const char *t, char ch)
{
	char *e = pg_rst_string(t, 1);
	fprintf(out, "%s\n", e ? e : "");
	/* the escaped text is at least as wide as the title shows */
	for (size_t i = e ? strlen(e) : 0; i > 0; i--)
		fputc(ch, out);
	fputs("\n\n", out);
	free(e);
}

/* A cell of the csv-table: rst text inside a csv field. docutils reads the
 * :header: option as rst text before it reads its csv (a first round of
 * escapes is taken off there): a header cell is escaped twice. */
static void rst_cell(FILE *out, const struct pg_tcell *tc, int header)
{
	char *e = pg_rst_string(tc->text, 1);
	if (e && header) {
		char *twice = pg_rst_string(e, 0);
		free(e);
		e = twice;
	}
	if (e && tc->note) {
		char *n = NULL;
		if (asprintf(&n, "%s [%d]", e, tc->note) < 0)
			n = NULL;
		free(e);
		e = n;
	}
	pg_csv_quote(out, e ? e : "");
	free(e);
}

static void rst_table(FILE *out, const struct pg_table *t)
{
	fputs(".. csv-table::", out);
	/* no caption that says again the heading just above it */
	if (!(t->heading && t->sub[0] && strcmp(t->caption, t->sub) == 0)) {
		fputc(' ', out);
		pg_rst_text(out, t->caption, 0);
	}
	fputs("\n    :class: " RST_TABLE_CLASS "\n    :header: ", out);
	for (int c = 0; c < t->ncols; c++) {
		if (c)
			fputc(',', out);
		rst_cell(out, &t->head[c], 1);
	}
	fputs("\n\n", out);
	for (int r = 0; r < t->nrows; r++) {
		fputs("    ", out);
		for (int c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', out);
			rst_cell(out, pg_table_cell(t, r, c), 0);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
	for (int i = 0; i < t->nnotes; i++) {
		fprintf(out, "- [%d] ", i + 1);
		pg_rst_text(out, t->notes[i], 0);
		fputc('\n', out);
	}
	if (t->doubts)
		fputs("- " PG_DOUBT_MARK ": a figure to doubt; its note says why.\n", out);
	if (t->legend) {
		fputs("- ", out);
		pg_rst_text(out, t->legend, 0);
		fputc('\n', out);
	}
	if (t->nnotes || t->legend || t->doubts)
		fputc('\n', out);
}

static void rst_text(FILE *out, const char *text)
{
	if (text) {
		pg_rst_text(out, text, 1);
		fputs("\n\n", out);
	}
}

static int rst_begin(struct pg_walk *w)
{
	rst_title(w->out, w->title, '#');
	rst_text(w->out, w->about);
	fprintf(w->out, ".. raw:: html\n\n    <style>%s</style>\n\n", rst_style);
	/* the headings' list, as docutils and Sphinx make it */
	fputs(".. contents::\n    :local:\n    :depth: 1\n\n", w->out);
	return 0;
}

static void rst_chart(struct pg_walk *w, const char *file, const char *title)
{
	/* the file's name is made of safe characters (report.c) */
	fprintf(w->out, ".. image:: %s\n    :alt: ", file);
	pg_rst_text(w->out, title, 0);
	fputs("\n\n", w->out);
}

static void rst_section(struct pg_walk *w, int s, const struct pg_table *t)
{
	if (t->heading == 1 || t->heading == 2) {
		rst_title(w->out, t->title, t->heading == 1 ? '=' : '-');
		rst_text(w->out, t->intro);
	}
	if (t->heading && t->sub[0])	/* one of the section's tables */
		rst_title(w->out, t->sub, '-');
	if (t->heading)
		rst_text(w->out, t->sub_intro);
	rst_table(w->out, t);
	if (t->last && t->part == 0)
		pg_charts_to_files(w, s, rst_chart);
}

static void rst_machines(struct pg_walk *w, const struct pg_table *t)
{
	rst_title(w->out, t->title, '=');
	rst_text(w->out, t->intro);
	rst_table(w->out, t);
}

static void rst_summary(struct pg_walk *w, const struct pg_table *t)
{
	rst_title(w->out, t->title, '=');
	rst_text(w->out, t->intro);
	pg_charts_to_files(w, -1, rst_chart);
	rst_table(w->out, t);
}

/* A piece of a notice: a command as typed, an inline literal (Sphinx
 * leaves its "--" and quotes as they are). */
static void rst_piece(void *ctx, const char *piece, int code)
{
	if (code)
		fprintf(ctx, "``%s``", piece);
	else
		pg_rst_text(ctx, piece, 0);
}

static void rst_notice(struct pg_walk *w, const struct pg_notice *n)
{
	rst_title(w->out, n->title, '=');
	if (n->intro) {
		pg_code_spans(n->intro, rst_piece, w->out);
		fputs("\n\n", w->out);
	}
	for (int i = 0; i < n->nitems; i++) {
		fputs("- ", w->out);
		pg_code_spans(n->items[i], rst_piece, w->out);
		fputc('\n', w->out);
	}
	fputc('\n', w->out);
}

const struct pg_writer pg_writer_rst = {
	.name = "rst",
	.table_opts = PG_TABLE_SPLIT,
	.width_pct = 72,
	.begin = rst_begin,
	.machines = rst_machines,
	.summary = rst_summary,
	.section = rst_section,
	.notice = rst_notice,
};
