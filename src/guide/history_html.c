/* SPDX-License-Identifier: MIT */
/*
 * `perfguide history --format html`: one self-contained page (no scripts,
 * no network): the change points, the charts (trend.c), the runs
 * and every figure run by run. Text from the store is escaped.
 */
#include <stdio.h>

#include "history/history_out.h"
#include "trend.h"

static const char style[] =
	"body{font-family:sans-serif;margin:2em;color:#222}"
	"table{border-collapse:collapse;margin:1em 0;font-size:13px}"
	"th,td{border:1px solid #bbb;padding:3px 6px;text-align:right}"
	"th.t,td.t{text-align:left}th{background:#eee}td.cp{background:#fde2e2}"
	".charts{display:flex;flex-wrap:wrap;gap:12px}"
	"svg{background:#fff;border:1px solid #ddd}.about{color:#555}";

static void td(FILE *out, const char *s)
{
	fputs("<td class=\"t\">", out);
	pg_html_esc(out, s);
	fputs("</td>", out);
}

static void run_cells(FILE *out, const struct pg_hist_run *run)
{
	char labels[400];
	pg_hist_labels(run->labels, labels, sizeof(labels));
	td(out, run->id);
	td(out, run->started);
	td(out, labels);
}

static void change_rows(const struct pg_history *h, FILE *out)
{
	for (int r = 0; r < h->nrows; r++)
		for (int i = 0; i < h->rows[r].nchanges; i++) {
			const struct pg_hist_row *row = &h->rows[r];
			const struct pg_hist_change *c = &row->changes[i];
			char name[400], b[40], a[40];
			pg_hist_row_name(row, name, sizeof(name));
			pg_hist_fig(c->before, b, sizeof(b));
			pg_hist_fig(c->after, a, sizeof(a));
			fputs("<tr>", out);
			td(out, name);
			td(out, row->unit);
			fprintf(out, "<td>%d</td>", c->at + 1);
			run_cells(out, &h->runs[c->at]);
			fprintf(out, "<td>%s</td><td>%s</td><td>%+.1f%% (%s)</td><td>%.3f</td></tr>\n", b, a,
				(c->after / c->before - 1) * 100, pg_hist_way(row, c), c->p);
		}
}

static void changes(const struct pg_history *h, FILE *out)
{
	fputs("<h2>Change points</h2>\n", out);
	if (!pg_history_changes(h)) {
		fprintf(out, "<p>No change point in any of the %d row%s.</p>\n", h->nrows, h->nrows == 1 ? "" : "s");
		return;
	}
	fputs("<table>\n<tr><th class=\"t\">Row</th><th class=\"t\">Unit</th><th>From run</th><th class=\"t\">Id</th>"
	      "<th class=\"t\">Started</th><th class=\"t\">Labels</th><th>Before</th><th>After</th><th>Change</th>"
	      "<th>p</th></tr>\n", out);
	change_rows(h, out);
	fprintf(out, "</table>\n<p>%d of %d rows have no change point.</p>\n", h->nrows - pg_hist_rows_changed(h),
		h->nrows);
}

static void runs(const struct pg_history *h, FILE *out)
{
	fputs("<h2>Runs</h2>\n<table>\n<tr><th>Run</th><th class=\"t\">Id</th><th class=\"t\">Started</th>"
	      "<th class=\"t\">Labels</th></tr>\n", out);
	for (int i = 0; i < h->nruns; i++) {
		fprintf(out, "<tr><td>%d</td>", i + 1);
		run_cells(out, &h->runs[i]);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void series(const struct pg_history *h, FILE *out)
{
	fputs("<h2>Figures run by run</h2>\n<p>Each run's median; shaded: the first run of a new level (a change "
	      "point); (d) measured while the machine was disturbed, (n) noisy; -: no figure in that run.</p>\n"
	      "<table>\n<tr><th class=\"t\">Row</th><th class=\"t\">Unit</th>", out);
	for (int i = 0; i < h->nruns; i++)
		fprintf(out, "<th>%d</th>", i + 1);
	fputs("</tr>\n", out);
	for (int r = 0; r < h->nrows; r++) {
		char name[400], cell[80];
		pg_hist_row_name(&h->rows[r], name, sizeof(name));
		fputs("<tr>", out);
		td(out, name);
		td(out, h->rows[r].unit);
		for (int i = 0; i < h->nruns; i++) {
			pg_hist_cell(&h->rows[r], i, cell, sizeof(cell), "\x01", "");
			fprintf(out, "<td%s>%s</td>", cell[0] == '\x01' ? " class=\"cp\"" : "", cell + (cell[0] == '\x01'));
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

int pg_history_html(const struct pg_history *h, FILE *out)
{
	char about[300], method[400];
	pg_hist_about(h, about, sizeof(about));
	pg_hist_method(h, method, sizeof(method));
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>History of ", out);
	pg_html_esc(out, h->board);
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>History of ", style);
	pg_html_esc(out, h->board);
	fputs("</h1>\n<p class=\"about\">", out);
	pg_html_esc(out, about);
	fputs(". Change points by ", out);
	pg_html_esc(out, method);
	fputs(".</p>\n", out);
	changes(h, out);
	fputs("<div class=\"charts\">\n", out);
	int rc = pg_history_svg(h, out, 1);
	fputs("</div>\n", out);
	runs(h, out);
	series(h, out);
	fputs("</body>\n</html>\n", out);
	return rc;
}
