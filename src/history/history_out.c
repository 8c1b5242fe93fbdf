/* SPDX-License-Identifier: MIT */
/*
 * `perfguide history` written out: md (the change points, the runs, every
 * figure run by run) and JSON (the same for programs); the svg and html
 * with the charts are the guide's (guide/trend.c, guide/history_html.c),
 * with the helpers of history_out.h. What comes from the store
 * (the board, run ids, dates, labels, benchmark names, units) is text,
 * escaped for each format.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "history_out.h"

void pg_hist_fig(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e5)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.5g", v);
}

void pg_hist_method(const struct pg_history *h, char *buf, size_t len)
{
	snprintf(buf, len, "E-divisive means (Matteson and James 2014) with a permutation test: significance %g, "
		 "at most %d permutations, segments of %d runs or more, distance exponent %g, seed %llu "
		 "(docs/methodology.md)", h->cp.significance, h->cp.permutations, h->cp.min_size, h->cp.alpha,
		 (unsigned long long)h->cp.seed);
}

void pg_hist_about(const struct pg_history *h, char *buf, size_t len)
{
	int changes = pg_history_changes(h), at;
	at = snprintf(buf, len, "%d run%s", h->nruns, h->nruns == 1 ? "" : "s");
	if (h->skipped && at >= 0 && (size_t)at < len)
		at += snprintf(buf + at, len - at, " (the latest; %d older left out)", h->skipped);
	if (at >= 0 && (size_t)at < len)
		snprintf(buf + at, len - at, ", %d row%s, %d change point%s", h->nrows, h->nrows == 1 ? "" : "s", changes,
			 changes == 1 ? "" : "s");
}

/* Worse or better, by the row's direction. */
const char *pg_hist_way(const struct pg_hist_row *r, const struct pg_hist_change *c)
{
	return (c->after > c->before) == (r->higher != 0) ? "better" : "worse";
}

static void md_cell(FILE *out, const char *s)
{
	fputs("| ", out);
	pg_md_text(out, s, 0);
	fputc(' ', out);
}

static void md_run_cells(FILE *out, const struct pg_hist_run *run)
{
	char labels[400];
	pg_hist_labels(run->labels, labels, sizeof(labels));
	md_cell(out, run->id);
	md_cell(out, run->started);
	md_cell(out, labels);
}

static void md_changes(const struct pg_history *h, FILE *out)
{
	int n = pg_history_changes(h);
	fputs("## Change points\n\n", out);
	if (!n) {
		fprintf(out, "No change point in any of the %d row%s.\n\n", h->nrows, h->nrows == 1 ? "" : "s");
		return;
	}
	fputs("| Row | Unit | From run | Id | Started | Labels | Before | After | Change | p |\n"
	      "|---|---|--:|---|---|---|--:|--:|--:|--:|\n", out);
	for (int r = 0; r < h->nrows; r++)
		for (int i = 0; i < h->rows[r].nchanges; i++) {
			const struct pg_hist_row *row = &h->rows[r];
			const struct pg_hist_change *c = &row->changes[i];
			char name[400], b[40], a[40];
			pg_hist_row_name(row, name, sizeof(name));
			md_cell(out, name);
			md_cell(out, row->unit);
			fprintf(out, "| %d ", c->at + 1);
			md_run_cells(out, &h->runs[c->at]);
			pg_hist_fig(c->before, b, sizeof(b));
			pg_hist_fig(c->after, a, sizeof(a));
			fprintf(out, "| %s | %s | %+.1f%% (%s) | %.3f |\n", b, a, (c->after / c->before - 1) * 100,
				pg_hist_way(row, c), c->p);
		}
	fprintf(out, "\n%d of %d rows have no change point.\n\n", h->nrows - pg_hist_rows_changed(h), h->nrows);
}

static void md_runs(const struct pg_history *h, FILE *out)
{
	fputs("## Runs\n\n| Run | Id | Started | Labels |\n|--:|---|---|---|\n", out);
	for (int i = 0; i < h->nruns; i++) {
		fprintf(out, "| %d ", i + 1);
		md_run_cells(out, &h->runs[i]);
		fputs("|\n", out);
	}
	fputc('\n', out);
}

/* A figure as the series tables print it: the first run of a new level
 * in bold, a mark for a noisy or disturbed one. */
void pg_hist_cell(const struct pg_hist_row *r, int run, char *buf, size_t len, const char *bold0, const char *bold1)
{
	char v[40];
	int change = 0;
	for (int i = 0; i < r->nchanges; i++)
		change |= r->changes[i].at == run;
	pg_hist_fig(r->v[run], v, sizeof(v));
	snprintf(buf, len, "%s%s%s%s%s", change ? bold0 : "", v, change ? bold1 : "",
		 r->marks[run] & PG_HISTORY_DISTURBED ? " (d)" : "", r->marks[run] & PG_HISTORY_NOISY ? " (n)" : "");
}

static void md_series(const struct pg_history *h, FILE *out)
{
	fputs("## Figures run by run\n\nEach run's median; **bold**: the first run of a new level (a change point); "
	      "(d) measured while the machine was disturbed, (n) noisy; -: no figure in that run.\n\n| Row | Unit |", out);
	for (int i = 0; i < h->nruns; i++)
		fprintf(out, " %d |", i + 1);
	fputs("\n|---|---|", out);
	for (int i = 0; i < h->nruns; i++)
		fputs("--:|", out);
	fputc('\n', out);
	for (int r = 0; r < h->nrows; r++) {
		char name[400], cell[80];
		pg_hist_row_name(&h->rows[r], name, sizeof(name));
		md_cell(out, name);
		md_cell(out, h->rows[r].unit);
		for (int i = 0; i < h->nruns; i++) {
			pg_hist_cell(&h->rows[r], i, cell, sizeof(cell), "**", "**");
			fprintf(out, "| %s ", cell);
		}
		fputs("|\n", out);
	}
}

static void md_write(const struct pg_history *h, FILE *out)
{
	char about[300], method[400];
	pg_hist_about(h, about, sizeof(about));
	pg_hist_method(h, method, sizeof(method));
	fputs("# History of ", out);
	pg_md_text(out, h->board, 0);
	fputs("\n\n", out);
	pg_md_text(out, about, 1);
	fputs(". Change points by ", out);
	fputs(method, out);
	fputs(".\n\n", out);
	md_changes(h, out);
	md_runs(h, out);
	md_series(h, out);
}

/* --- JSON --- */

static json_t *json_text_object(const char *text)
{
	json_t *o = text && text[0] ? json_loads(text, 0, NULL) : NULL;
	if (o && json_is_object(o))
		return o;
	json_decref(o);
	return json_object();
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *json_row(const struct pg_history *h, const struct pg_hist_row *r)
{
	json_t *series = json_array(), *changes = json_array();
	for (int i = 0; i < h->nruns; i++)
		json_array_append_new(series, json_pack("{s:i,s:o,s:b,s:b}", "run", i + 1, "median", num(r->v[i]), "noisy",
							(r->marks[i] & PG_HISTORY_NOISY) != 0, "disturbed",
							(r->marks[i] & PG_HISTORY_DISTURBED) != 0));
	for (int i = 0; i < r->nchanges; i++) {
		const struct pg_hist_change *c = &r->changes[i];
		json_array_append_new(changes, json_pack("{s:i,s:s,s:s,s:o,s:o,s:o,s:s,s:f}", "run", c->at + 1, "id",
							 h->runs[c->at].id, "started", h->runs[c->at].started, "before",
							 num(c->before), "after", num(c->after), "change_pct",
							 num((c->after / c->before - 1) * 100), "way", pg_hist_way(r, c),
							 "p", c->p));
	}
	return json_pack("{s:s,s:o,s:s,s:s,s:s,s:i,s:o,s:o}", "bench", r->bench, "params", json_text_object(r->params),
			 "metric", r->metric, "unit", r->unit, "better", r->higher ? "higher" : "lower", "points", r->npoints,
			 "change_points", changes, "series", series);
}

static int json_write(const struct pg_history *h, FILE *out)
{
	json_t *runs = json_array(), *rows = json_array();
	for (int i = 0; i < h->nruns; i++)
		json_array_append_new(runs, json_pack("{s:i,s:s,s:s,s:o}", "run", i + 1, "id", h->runs[i].id, "started",
						      h->runs[i].started, "labels", json_text_object(h->runs[i].labels)));
	for (int r = 0; r < h->nrows; r++)
		json_array_append_new(rows, json_row(h, &h->rows[r]));
	json_t *method = json_pack("{s:s,s:s,s:f,s:i,s:i,s:f,s:I}", "name", "e-divisive means", "test", "permutation",
				   "significance", h->cp.significance, "permutations", h->cp.permutations,
				   "min_segment", h->cp.min_size, "alpha", h->cp.alpha, "seed", (json_int_t)h->cp.seed);
	json_t *root = json_pack("{s:s,s:i,s:i,s:i,s:o,s:o,s:o}", "board", h->board, "runs_left_out", h->skipped,
				 "change_points", pg_history_changes(h), "rows_changed", pg_hist_rows_changed(h), "method",
				 method, "runs", runs, "rows", rows);
	int rc = root ? json_dumpf(root, out, JSON_INDENT(1) | JSON_ENSURE_ASCII) : -1;
	json_decref(root);
	fputc('\n', out);
	return rc;
}

int pg_hist_rows_changed(const struct pg_history *h)
{
	int n = 0;
	for (int r = 0; r < h->nrows; r++)
		n += h->rows[r].nchanges > 0;
	return n;
}

int pg_history_md(const struct pg_history *h, FILE *out)
{
	md_write(h, out);
	return ferror(out) ? -1 : 0;
}

int pg_history_json(const struct pg_history *h, FILE *out)
{
	return json_write(h, out) < 0 || ferror(out) ? -1 : 0;
}
