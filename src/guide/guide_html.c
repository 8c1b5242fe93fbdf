/* SPDX-License-Identifier: MIT */
/*
 * The guide as one self-contained HTML file: the tables of the text formats
 * and the charts (svg.c), no scripts, no network. A section's charts are its
 * line plots (plots.c) and, where several boards are compared, a bar chart
 * per row the plots do not draw: a single board gets no one-bar charts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plots.h"
#include "core/text.h"
#include "writer.h"

/* The page is never wider than the window, whatever the reader's fonts
 * (a table split to fit in DejaVu is wider in another font): a table
 * still wider than the page scrolls in its own box (.wide), a word or
 * path longer than a line breaks, a chart shrinks to the page. */
static const char style[] =
	"body{font-family:sans-serif;margin:2em;color:#222}"
	"p,li,h1,h2,h3{overflow-wrap:break-word}.wide{overflow-x:auto;max-width:100%}"
	".charts>svg{max-width:100%;height:auto}"
	"table{border-collapse:collapse;margin:1em 0;font-size:13px}"
	"th,td{border:1px solid #bbb;padding:3px 6px;text-align:right}"
	"th:first-child,td:first-child{text-align:left}"
	"th{background:#eee}.cpu{color:#666}.same{color:#999}"
	".charts{display:flex;flex-wrap:wrap;gap:12px}"
	"svg{background:#fff;border:1px solid #ddd}"
	"svg text{font-family:sans-serif;font-size:11px;fill:#222}"
	".notes{font-size:12px;color:#444}.about{color:#555}"
	"td.doubt{background:#fff3cd}td.t{text-align:left}td.n{white-space:nowrap}"
	"nav ul{columns:3;font-size:14px}";

/* A ratio whose two boards overlap is greyed: it may be noise. A figure
 * to doubt is shaded; its note is its title too. */
static const char *cell_class(const struct pg_tcell *tc)
{
	if (tc->kind == PG_T_RATIO)
		return tc->cell && tc->cell->have_ratio && tc->cell->overlap ? " class=\"v ratio same\"" : " class=\"v ratio\"";
	if (tc->kind == PG_T_VALUE)
		return tc->doubt ? " class=\"v doubt\"" : " class=\"v\"";
	if (tc->kind == PG_T_NAME)	/* a short name on one line: "aes-128-cbc" */
		return tc->text && strlen(tc->text) <= 40 ? " class=\"n\"" : "";
	if (tc->kind == PG_T_CPU)	/* a load beside other processes: marked as its figure is */
		return tc->doubt ? " class=\"v cpu doubt\"" : " class=\"v cpu\"";
	return tc->kind == PG_T_TEXT ? " class=\"t\"" : "";
}

static void html_table(FILE *out, const struct pg_table *t)
{
	fputs("<div class=\"wide\"><table>\n<tr>", out);
	for (int c = 0; c < t->ncols; c++) {
		fprintf(out, "<th%s>", t->head[c].kind == PG_T_CPU ? " class=\"cpu\"" : "");
		pg_html_esc(out, t->head[c].text);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (int r = 0; r < t->nrows; r++) {
		fputs("<tr>", out);
		for (int c = 0; c < t->ncols; c++) {
			const struct pg_tcell *tc = pg_table_cell(t, r, c);
			fprintf(out, "<td%s", cell_class(tc));
			if (tc->doubt) {
				fputs(" title=\"", out);
				pg_html_esc(out, t->notes[tc->note - 1]);
				fputc('"', out);
			}
			fputc('>', out);
			pg_html_esc(out, tc->text);
			if (tc->note)
				fprintf(out, " <sup>%d</sup>", tc->note);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table></div>\n", out);
	if (t->nnotes) {
		fputs("<ol class=\"notes\">\n", out);
		for (int i = 0; i < t->nnotes; i++) {
			fputs("<li>", out);
			pg_html_esc(out, t->notes[i]);
			fputs("</li>\n", out);
		}
		fputs("</ol>\n", out);
	}
	if (t->legend) {
		fputs("<p class=\"notes\">", out);
		pg_html_esc(out, t->legend);
		fputs("</p>\n", out);
	}
}

static int html_begin(struct pg_walk *w)
{
	fprintf(w->out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	pg_html_esc(w->out, w->title);
	fprintf(w->out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", style);
	pg_html_esc(w->out, w->title);
	fputs("</h1>\n<p class=\"about\">", w->out);
	pg_html_esc(w->out, w->about);
	fputs("</p>\n<nav><ul>\n", w->out);
	for (int i = 0; i < w->ntoc; i++) {
		fprintf(w->out, "<li><a href=\"#%s\">", w->toc[i].anchor);
		pg_html_esc(w->out, w->toc[i].title);
		fputs("</a></li>\n", w->out);
	}
	fputs("</ul></nav>\n", w->out);
	return 0;
}

static void html_machines(struct pg_walk *w, const struct pg_table *t)
{
	fprintf(w->out, "<h2 id=\"%s\">Machines</h2>\n", pg_walk_anchor(w, "Machines"));
	html_table(w->out, t);
}

/* A heading and its intro: h2 opens a section (anchored for the table of
 * contents), h3 is a table of the section's own. */
static void heading(FILE *out, int level, const char *title, const char *intro, const char *id)
{
	if (level == 2)
		fprintf(out, "<section>\n<h2 id=\"%s\">", id);
	else if (level)
		fputs("<h3>", out);
	if (level) {
		pg_html_esc(out, title);
		fprintf(out, "</h%d>\n", level);
	}
	if (intro) {
		fputs("<p>", out);
		pg_html_esc(out, intro);
		fputs("</p>\n", out);
	}
}

/* Ends the section a table of sections opened, if one is open (w->priv). */
static void close_section(struct pg_walk *w)
{
	if (w->priv)
		fputs("</section>\n", w->out);
	w->priv = NULL;
}

static void html_summary(struct pg_walk *w, const struct pg_table *t)
{
	heading(w->out, 2, t->title, t->intro, pg_walk_anchor(w, t->title));
	pg_charts_inline(w, -1);
	html_table(w->out, t);
	fputs("</section>\n", w->out);
}

static void html_section(struct pg_walk *w, int s, const struct pg_table *t)
{
	if (t->heading == 1) {
		close_section(w);
		w->priv = (void *)1;
	}
	if (t->heading == 1 || t->heading == 2)
		heading(w->out, t->heading + 1, t->title, t->intro, w->slugs[s]);
	if (t->heading && t->sub[0])	/* one of the section's tables */
		heading(w->out, 3, t->sub, t->sub_intro, "");
	else if (t->heading && t->sub_intro)
		heading(w->out, 0, NULL, t->sub_intro, "");
	html_table(w->out, t);
	/* the charts after the figures: after the section's last table */
	if (t->last && t->part == 0)
		pg_charts_inline(w, s);
}

/* A piece of a notice: a command as typed, in <code>. */
static void html_piece(void *ctx, const char *piece, int code)
{
	if (code)
		fputs("<code>", ctx);
	pg_html_esc(ctx, piece);
	if (code)
		fputs("</code>", ctx);
}

static void html_notice(struct pg_walk *w, const struct pg_notice *n)
{
	close_section(w);
	heading(w->out, 2, n->title, NULL, pg_walk_anchor(w, n->title));
	if (n->intro) {
		fputs("<p>", w->out);
		pg_code_spans(n->intro, html_piece, w->out);
		fputs("</p>\n", w->out);
	}
	fputs("<ul class=\"notice\">\n", w->out);
	for (int i = 0; i < n->nitems; i++) {
		fputs("<li>", w->out);
		pg_code_spans(n->items[i], html_piece, w->out);
		fputs("</li>\n", w->out);
	}
	fputs("</ul>\n</section>\n", w->out);
}

static int html_end(struct pg_walk *w)
{
	close_section(w);
	fputs("</body>\n</html>\n", w->out);
	return 0;
}

const struct pg_writer pg_writer_html = {
	.name = "html",
	.table_opts = PG_TABLE_SPLIT,
	.begin = html_begin,
	.machines = html_machines,
	.summary = html_summary,
	.section = html_section,
	.notice = html_notice,
	.end = html_end,
};
