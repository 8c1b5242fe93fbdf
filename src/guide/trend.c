/* SPDX-License-Identifier: MIT */
/*
 * A history's charts (svg_trend.c draws them): one row in its own
 * unit with the level of each segment; several rows each against its own
 * median over the runs (100%), so that rows of any unit share an axis, the
 * rows with a change point in colour and named, the others grey.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "trend.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of the row's figures; NAN: none. */
static double row_median(const struct pg_hist_row *r, int nruns)
{
	double *v = malloc(sizeof(double) * (size_t)(nruns + 1));
	int n = 0;
	for (int i = 0; v && i < nruns; i++)
		if (isfinite(r->v[i]))
			v[n++] = r->v[i];
	double m = NAN;
	if (n) {
		qsort(v, (size_t)n, sizeof(double), cmp_double);
		m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	return m;
}

/* "mem.bw.rd size=8m bandwidth: from run 18 -10.0%" */
static void line_name(const struct pg_hist_row *r, char *buf, size_t len)
{
	size_t at;
	pg_hist_row_name(r, buf, len);
	at = strlen(buf);
	for (int i = 0; i < r->nchanges && at < len; i++) {
		const struct pg_hist_change *c = &r->changes[i];
		at += (size_t)snprintf(buf + at, len - at, "%s run %d %+.1f%%", i ? "," : ": from", c->at + 1,
				       (c->after / c->before - 1) * 100);
	}
	if (!r->nchanges && at < len)
		snprintf(buf + at, len - at, ": no change point");
	pg_utf8_trim(buf);
}

/* The row's figures (over scale, times 100 when scaled) and each
 * segment's level. */
static void fill_line(const struct pg_hist_row *r, int nruns, double scale, double *y, double *level)
{
	double f = isnan(scale) ? 1 : 100 / scale, whole = r->nchanges ? NAN : row_median(r, nruns);
	for (int i = 0, k = 0; i < nruns; i++) {
		while (k < r->nchanges && r->changes[k].at <= i)
			k++;
		y[i] = r->v[i] * f;
		level[i] = (r->nchanges ? (k == 0 ? r->changes[0].before : r->changes[k - 1].after) : whole) * f;
	}
}

static int add_line(struct pg_hist_chart *c, const struct pg_history *h, const struct pg_hist_row *r, int relative)
{
	struct pg_trend_line *l = &c->t.lines[c->t.nlines];
	double *y = c->buf + (size_t)c->t.nlines * 2 * (size_t)h->nruns;
	double scale = relative ? row_median(r, h->nruns) : NAN;
	if (relative && !(scale > 0) && !(scale < 0))
		return 0;	/* no figure, or a median of 0: nothing to scale by */
	memset(l, 0, sizeof(*l));
	line_name(r, l->name, sizeof(l->name));
	fill_line(r, h->nruns, scale, y, y + h->nruns);
	l->y = y;
	l->highlight = !relative || r->nchanges > 0;
	l->level = l->highlight ? y + h->nruns : NULL;
	int *ch = c->changes + c->nchanges;
	for (int i = 0; i < r->nchanges; i++)
		ch[i] = r->changes[i].at;
	l->changes = ch;
	l->nchanges = r->nchanges;
	c->nchanges += r->nchanges;
	c->t.nlines++;
	return !l->highlight;
}

/* Each run's tooltip: its id, date and labels. */
static int tips(struct pg_hist_chart *c, const struct pg_history *h)
{
	c->tips = calloc((size_t)h->nruns + 1, sizeof(char *));
	if (!c->tips)
		return -1;
	for (int i = 0; i < h->nruns; i++) {
		char labels[400], tip[800];
		pg_hist_labels(h->runs[i].labels, labels, sizeof(labels));
		snprintf(tip, sizeof(tip), "%s, %s%s%s", h->runs[i].id, h->runs[i].started, labels[0] ? ", " : "", labels);
		pg_utf8_trim(tip);
		if (!(c->tips[i] = strdup(tip)))
			return -1;
	}
	c->t.tips = (const char *const *)c->tips;
	return 0;
}

static void titles(struct pg_hist_chart *c, const struct pg_history *h, const struct pg_hist_row *one, int nrows,
		   const char *what)
{
	char name[300];
	if (one) {
		pg_hist_row_name(one, name, sizeof(name));
		snprintf(c->t.title, sizeof(c->t.title), "%s: %s, %d runs", h->board, name, h->nruns);
		snprintf(c->t.ylabel, sizeof(c->t.ylabel), "%s%s%s%s", one->metric, one->unit[0] ? " (" : "", one->unit,
			 one->unit[0] ? ")" : "");
		c->t.note = one->higher ? "higher is better" : "lower is better";
	} else {
		snprintf(c->t.title, sizeof(c->t.title), "%s: %s%s%d rows, %d runs, each row against its median", h->board,
			 what ? what : "", what ? ", " : "", nrows, h->nruns);
		snprintf(c->t.ylabel, sizeof(c->t.ylabel), "%% of the row's median over the runs");
	}
	pg_utf8_trim(c->t.title);
	pg_utf8_trim(c->t.ylabel);
}

int pg_history_chart(const struct pg_history *h, const int *rows, int n, const char *what, struct pg_hist_chart *c)
{
	memset(c, 0, sizeof(*c));
	int total = 0, grey = 0;
	for (int i = 0; i < n; i++)
		total += h->rows[rows[i]].nchanges;
	c->t.lines = calloc((size_t)n + 1, sizeof(*c->t.lines));
	c->buf = malloc(sizeof(double) * 2 * ((size_t)n * (size_t)h->nruns + 1));
	c->changes = malloc(sizeof(int) * (size_t)(total + 1));
	c->t.nruns = h->nruns;
	if (!c->t.lines || !c->buf || !c->changes || tips(c, h) < 0) {
		pg_history_chart_free(c);
		return -1;
	}
	titles(c, h, n == 1 ? &h->rows[rows[0]] : NULL, n, what);
	for (int i = 0; i < n; i++)
		grey += add_line(c, h, &h->rows[rows[i]], n > 1);
	if (grey)
		snprintf(c->t.other, sizeof(c->t.other), "%d row%s without a change point", grey, grey == 1 ? "" : "s");
	return 0;
}

void pg_history_chart_free(struct pg_hist_chart *c)
{
	for (int i = 0; c->tips && i < c->t.nruns; i++)
		free(c->tips[i]);
	free(c->tips);
	free(c->t.lines);
	free(c->buf);
	free(c->changes);
	memset(c, 0, sizeof(*c));
}

/* The charts of h: all rows together (when several), then each row with a
 * change point alone. */
static int make_charts(const struct pg_history *h, struct pg_hist_chart **out, int *n)
{
	int *all = malloc(sizeof(int) * (size_t)(h->nrows + 1));
	*out = calloc((size_t)h->nrows + 2, sizeof(**out));
	*n = 0;
	int rc = all && *out ? 0 : -1;
	for (int r = 0; all && r < h->nrows; r++)
		all[r] = r;
	if (rc == 0 && h->nrows > 1)
		rc = pg_history_chart(h, all, h->nrows, NULL, &(*out)[(*n)++]);
	for (int r = 0; rc == 0 && r < h->nrows; r++)
		if (h->nrows == 1 || h->rows[r].nchanges)
			rc = pg_history_chart(h, &all[r], 1, NULL, &(*out)[(*n)++]);
	free(all);
	return rc;
}

/* The charts stacked in one SVG document, each nested at its offset. */
static void stacked(FILE *out, const struct pg_hist_chart *c, int n)
{
	int width = 0, height = 0, w, ht;
	for (int i = 0; i < n; i++) {
		pg_svg_trend_size(&c[i].t, &w, &ht);
		width = w > width ? w : width;
		height += ht + (i ? 10 : 0);
	}
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\" font-family=\"sans-serif\" font-size=\"11\">\n<title>", width, height, width, height);
	pg_html_esc(out, c[0].t.title);
	fputs("</title>\n", out);
	for (int i = 0, y = 0; i < n; i++) {
		pg_svg_trend_size(&c[i].t, &w, &ht);
		pg_svg_trend(out, &c[i].t, y);
		y += ht + 10;
	}
	fputs("</svg>\n", out);
}

int pg_history_svg(const struct pg_history *h, FILE *out, int separate)
{
	struct pg_hist_chart *c;
	int n, rc = make_charts(h, &c, &n);
	if (rc == 0 && n > 1 && !separate)
		stacked(out, c, n);
	else
		for (int i = 0; rc == 0 && i < n; i++)
			pg_svg_trend(out, &c[i].t, -1);
	for (int i = 0; c && i < n; i++)
		pg_history_chart_free(&c[i]);
	free(c);
	return rc;
}
