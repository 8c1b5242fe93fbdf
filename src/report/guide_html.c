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

static const char style[] =
	"body{font-family:sans-serif;margin:2em;color:#222}"
	"table{border-collapse:collapse;margin:1em 0;font-size:13px}"
	"th,td{border:1px solid #bbb;padding:3px 6px;text-align:right}"
	"th:first-child,td:first-child{text-align:left}"
	"th{background:#eee}.cpu{color:#666}.same{color:#999}"
	".charts{display:flex;flex-wrap:wrap;gap:12px}"
	"svg{background:#fff;border:1px solid #ddd}"
	"svg text{font-family:sans-serif;font-size:11px;fill:#222}"
	".notes{font-size:12px;color:#444}";

/* A ratio whose two boards overlap is greyed: it may be noise. */
static const char *cell_class(const struct pg_tcell *tc)
{
	if (tc->kind == PG_T_RATIO)
		return tc->cell && tc->cell->have_ratio && tc->cell->overlap ? " class=\"ratio same\"" : " class=\"ratio\"";
	return tc->kind == PG_T_CPU ? " class=\"cpu\"" : "";
}

static void html_table(FILE *out, const struct pg_table *t)
{
	fputs("<table>\n<tr>", out);
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
			fprintf(out, "<td%s>", cell_class(tc));
			pg_html_esc(out, tc->text);
			if (tc->note)
				fprintf(out, " <sup>%d</sup>", tc->note);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
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
	fprintf(w->out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>Performance guide</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>Performance guide</h1>\n", style);
	return 0;
}

static void html_machines(struct pg_walk *w, const struct pg_table *t)
{
	fputs("<h2>Machines</h2>\n", w->out);
	html_table(w->out, t);
}

static void heading(FILE *out, const struct pg_table *t)
{
	fputs("<section>\n<h2>", out);
	pg_html_esc(out, t->title);
	fputs("</h2>\n", out);
	if (t->intro) {
		fputs("<p>", out);
		pg_html_esc(out, t->intro);
		fputs("</p>\n", out);
	}
}

/* The geometric means against the baseline, a bar per section and board. */
static void ratio_chart(FILE *out, const struct pg_guide *g)
{
	int n = g->nsections * g->ncols, k = 0;
	const char **labels = calloc((size_t)n + 1, sizeof(*labels));
	char (*text)[300] = calloc((size_t)n + 1, sizeof(*text));
	double *v = calloc((size_t)n + 1, sizeof(double));
	int *color = calloc((size_t)n + 1, sizeof(int));
	char title[300], axis[200];
	for (int s = 0; labels && text && v && color && s < g->nsections; s++)
		for (int c = 0; c < g->ncols; c++) {
			size_t at = (size_t)s * (size_t)g->ncols + (size_t)c;
			if (c == g->baseline || !g->ngeo[at])
				continue;
			snprintf(text[k], sizeof(text[k]), "%s: %s", g->sections[s].title, g->cols[c].board);
			pg_utf8_trim(text[k]);
			labels[k] = text[k];
			v[k] = g->geomean[at];
			color[k++] = c;
		}
	snprintf(title, sizeof(title), "Geometric mean of the ratios to %s (above 1: better)", g->cols[g->baseline].board);
	snprintf(axis, sizeof(axis), "ratio to %s", g->cols[g->baseline].board);
	pg_utf8_trim(title);
	pg_utf8_trim(axis);
	struct pg_bars b = { .title = title, .axis = axis, .n = k, .labels = labels, .v = v, .color = color,
			     .ref = 1, .label_width = 260 };
	if (k)
		pg_svg_bars(out, &b);
	free(labels);
	free(text);
	free(v);
	free(color);
}

static void html_summary(struct pg_walk *w, const struct pg_table *t)
{
	heading(w->out, t);
	fputs("<div class=\"charts\">\n", w->out);
	ratio_chart(w->out, w->g);
	fputs("</div>\n", w->out);
	html_table(w->out, t);
	fputs("</section>\n", w->out);
}

/* A bar per board for one row. */
static void row_bars(FILE *out, const struct pg_guide *g, const struct pg_grow *row)
{
	const char **labels = calloc((size_t)g->ncols + 1, sizeof(*labels));
	const char **missing = calloc((size_t)g->ncols + 1, sizeof(*missing));
	double *v = calloc((size_t)g->ncols + 1, sizeof(double));
	char name[320], axis[200];
	for (int c = 0; labels && missing && v && c < g->ncols; c++) {
		const struct pg_gcell *cell = &row->cells[c];
		labels[c] = g->cols[c].board;
		v[c] = pg_cell_ok(cell) ? cell->median : NAN;
		missing[c] = cell->present ? pg_status_name(cell->status) : "no result";
	}
	pg_row_name(row, name, sizeof(name));
	snprintf(axis, sizeof(axis), "%s%s%s%s", row->metric, row->unit && row->unit[0] ? " (" : "",
		 row->unit ? row->unit : "", row->unit && row->unit[0] ? ")" : "");
	pg_utf8_trim(axis);
	struct pg_bars b = { .title = name, .axis = axis, .n = g->ncols, .labels = labels, .v = v,
			     .missing = missing, .ref = NAN };
	if (labels && missing && v)
		pg_svg_bars(out, &b);
	free(labels);
	free(missing);
	free(v);
}

static void charts(FILE *out, const struct pg_guide *g, int s)
{
	char *used = calloc((size_t)g->nrows + 1, 1);
	struct pg_plot *plots = NULL;
	int n = 0;
	if (!used)
		return;
	fputs("<div class=\"charts\">\n", out);
	/* what the section's tables leave out, its plots do too */
	for (int r = 0; r < g->nrows; r++)
		used[r] = !pg_row_shown(g, &g->rows[r]);
	pg_section_plots(g, s, used, &plots, &n);
	for (int i = 0; i < n; i++)
		pg_svg_lines(out, &plots[i]);
	pg_plots_free(plots, n);
	for (int r = 0; r < g->nrows && g->ncols > 1; r++)
		if (g->rows[r].section == s && !used[r])
			row_bars(out, g, &g->rows[r]);
	fputs("</div>\n", out);
	free(used);
}

static void html_section(struct pg_walk *w, int s, const struct pg_table *t)
{
	heading(w->out, t);
	charts(w->out, w->g, s);
	html_table(w->out, t);
	fputs("</section>\n", w->out);
}

static int html_end(struct pg_walk *w)
{
	fputs("</body>\n</html>\n", w->out);
	return 0;
}

const struct pg_writer pg_writer_html = {
	.name = "html",
	.begin = html_begin,
	.machines = html_machines,
	.summary = html_summary,
	.section = html_section,
	.end = html_end,
};
