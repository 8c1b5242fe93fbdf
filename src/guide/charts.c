/* SPDX-License-Identifier: MIT */
/*
 * The guide's charts, the same in every format that has them: a section's
 * line plots (plots.c) and, where several boards are compared, a bar chart
 * per row the plots do not draw (a single board gets no one-bar charts);
 * with a baseline, the summary's bars. html has them inline; md and rst as
 * SVG files beside the guide, so that mkdocs and Sphinx show them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/newfile.h"
#include "plots.h"
#include "core/text.h"
#include "trend.h"
#include "writer.h"

/* Where a chart goes: open gives the stream to draw it into (NULL: it is
 * left out), close is called after. */
struct sink {
	FILE *(*open)(struct sink *k, const char *title);
	void (*close)(struct sink *k, FILE *f);
	struct pg_walk *w;
	const char *slug;
	int n;
	/* a chart's file: a new file of ours, named when it is complete
	 * (core/newfile.h), never a link, FIFO or device planted at its name */
	struct pg_newfile nf;
	void (*ref)(struct pg_walk *w, const char *file, const char *title);
};

/* The geometric means against the baseline, a bar per section and board. */
static void ratio_chart(const struct pg_guide *g, struct sink *k)
{
	int n = g->nsections * g->ncols, nb = 0;
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
			snprintf(text[nb], sizeof(text[nb]), "%s: %s", g->sections[s].title, g->cols[c].name);
			pg_utf8_trim(text[nb]);
			labels[nb] = text[nb];
			v[nb] = g->geomean[at];
			color[nb++] = c;
		}
	snprintf(title, sizeof(title), "Geometric mean of the ratios to %s (above 1: better)", g->cols[g->baseline].name);
	snprintf(axis, sizeof(axis), "ratio to %s", g->cols[g->baseline].name);
	pg_utf8_trim(title);
	pg_utf8_trim(axis);
	struct pg_bars b = { .title = title, .axis = axis, .n = nb, .labels = labels, .v = v, .color = color,
			     .ref = 1, .label_width = 260, .note = "higher is better" };
	FILE *f = nb ? k->open(k, title) : NULL;
	if (f) {
		pg_svg_bars(f, &b);
		k->close(k, f);
	}
	free(labels);
	free(text);
	free(v);
	free(color);
}

/* A bar per board with a figure for one row, with its min..max; none
 * where fewer than two boards have one (a bar alone compares nothing) or
 * they all have the same. */
static void row_bars(const struct pg_guide *g, const struct pg_grow *row, struct sink *k)
{
	const char **labels = calloc((size_t)g->ncols + 1, sizeof(*labels));
	double *v = calloc((size_t)g->ncols + 1, sizeof(double) * 3);
	int *color = calloc((size_t)g->ncols + 1, sizeof(int));
	char name[320], axis[200], mt[120];
	int nb = 0, differ = 0;
	for (int c = 0; labels && v && color && c < g->ncols; c++) {
		const struct pg_gcell *cell = &row->cells[c];
		if (!pg_cell_ok(cell))
			continue;
		differ |= nb && fabs(cell->median - v[0]) >= 0.005;
		labels[nb] = g->cols[c].name;
		color[nb] = c;	/* a board's colour whatever the others have */
		v[nb] = cell->median;
		v[g->ncols + nb] = cell->min;
		v[2 * g->ncols + nb++] = cell->max;
	}
	pg_row_name(row, name, sizeof(name));
	const char *metric = pg_metric_title(g, row->section, row->metric, mt, sizeof(mt));
	snprintf(axis, sizeof(axis), "%s%s%s%s", metric, row->unit && row->unit[0] ? " (" : "",
		 row->unit ? row->unit : "", row->unit && row->unit[0] ? ")" : "");
	pg_utf8_trim(axis);
	struct pg_bars b = { .title = name, .axis = axis, .n = nb, .labels = labels, .v = v,
			     .lo = v ? v + g->ncols : NULL, .hi = v ? v + 2 * g->ncols : NULL, .color = color,
			     .ref = NAN, .note = row->higher ? "higher is better" : "lower is better" };
	FILE *f = nb > 1 && differ ? k->open(k, name) : NULL;
	if (f) {
		pg_svg_bars(f, &b);
		k->close(k, f);
	}
	free(labels);
	free(color);
	free(v);
}

/* report --trend: each history's rows of section s, run by run, with
 * their change points. */
static void trend_charts(const struct pg_guide *g, int s, struct sink *k)
{
	int first = pg_section_first(g, s), end = pg_section_end(g, s);
	int *rows = g->opts.ntrends ? calloc((size_t)(end - first) + 1, sizeof(int)) : NULL;
	for (int i = 0; rows && i < g->opts.ntrends; i++) {
		const struct pg_history *h = g->opts.trends[i];
		int n = 0;
		struct pg_hist_chart c;
		for (int r = first; h->nruns > 1 && r < end; r++) {	/* one run is no trend */
			const struct pg_grow *row = &g->rows[r];
			int at = pg_row_main(g, row) ? pg_history_row(h, row->bench, row->params, row->metric) : -1;
			if (at >= 0)
				rows[n++] = at;
		}
		if (!n || pg_history_chart(h, rows, n, g->sections[s].title, &c) < 0)
			continue;
		FILE *f = k->open(k, c.t.title);
		if (f) {
			pg_svg_trend(f, &c.t, -1);
			k->close(k, f);
		}
		pg_history_chart_free(&c);
	}
	free(rows);
}

static void section_charts(const struct pg_guide *g, int s, struct sink *k)
{
	int first = pg_section_first(g, s), end = pg_section_end(g, s);
	char *used = calloc((size_t)(end - first) + 1, 1);	/* per row of the section */
	struct pg_plot *plots = NULL;
	int n = 0;
	if (!used)
		return;
	/* what the section's tables leave out, its charts do too */
	for (int r = first; r < end; r++)
		used[r - first] = !pg_row_main(g, &g->rows[r]);
	pg_section_plots(g, s, used, &plots, &n);
	for (int i = 0; i < n; i++) {
		FILE *f = k->open(k, plots[i].title);
		if (f) {
			pg_svg_lines(f, &plots[i]);
			k->close(k, f);
		}
	}
	pg_plots_free(plots, n);
	for (int r = first; r < end && g->ncols > 1; r++)
		if (!used[r - first])
			row_bars(g, &g->rows[r], k);
	free(used);
	trend_charts(g, s, k);
}

static void charts(struct sink *k, int s)
{
	if (s < 0)
		ratio_chart(k->w->g, k);
	else
		section_charts(k->w->g, s, k);
}

/* --- inline (html) --- */

static FILE *inline_open(struct sink *k, const char *title)
{
	(void)title;
	if (!k->n++)
		fputs("<div class=\"charts\">\n", k->w->out);
	return k->w->out;
}

static void inline_close(struct sink *k, FILE *f)
{
	(void)k;
	(void)f;
}

void pg_charts_inline(struct pg_walk *w, int s)
{
	struct sink k = { .open = inline_open, .close = inline_close, .w = w };
	charts(&k, s);
	if (k.n)
		fputs("</div>\n", w->out);
}

/* --- files beside the guide (md, rst) --- */

/* The walk's chart files: the guide's directory, opened once (every
 * chart is made in it, core/newfile.h). */
struct pg_chart_files {
	int dirfd;
};

static struct pg_chart_files *chart_files(struct pg_walk *w)
{
	if (w->chart_files)
		return w->chart_files;
	char dir[1100], err[1300];
	const char *p = w->g->opts.charts, *slash = strrchr(p, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - p) + (slash == p) : 1, slash ? p : ".");
	struct pg_chart_files *cf = calloc(1, sizeof(*cf));
	if (cf && (cf->dirfd = pg_dir_open(dir, err, sizeof(err))) < 0) {
		fprintf(stderr, "perfguide: report: the charts' directory %s\n", err);
		free(cf);
		return NULL;
	}
	return w->chart_files = cf;
}

void pg_charts_done(struct pg_walk *w)
{
	struct pg_chart_files *cf = w->chart_files;
	if (!cf)
		return;
	close(cf->dirfd);
	free(cf);
	w->chart_files = NULL;
}

static FILE *file_open(struct sink *k, const char *title)
{
	const struct pg_guide *g = k->w->g;
	struct pg_chart_files *cf = chart_files(k->w);
	char name[800], file[800];
	const char *stem = strrchr(g->opts.charts, '/') ? strrchr(g->opts.charts, '/') + 1 : g->opts.charts;
	int n = ++k->n;
	if (!cf || (size_t)snprintf(file, sizeof(file), "%s-%s-%d.svg", g->opts.charts_ref, k->slug, n) >= sizeof(file) ||
	    (size_t)snprintf(name, sizeof(name), "%s-%s-%d.svg", stem, k->slug, n) >= sizeof(name)) {
		k->w->failed = 1;
		return NULL;
	}
	FILE *f = pg_newfile_fopen(&k->nf, cf->dirfd, name, 0666);
	if (!f) {
		fprintf(stderr, "perfguide: report: cannot write the chart %s: %s\n", name, strerror(errno));
		k->w->failed = 1;
		return NULL;
	}
	k->ref(k->w, file, title);
	return f;
}

static void file_close(struct sink *k, FILE *f)
{
	char why[400];
	int rc = fflush(f) != 0 || ferror(f) ? -1 : pg_newfile_commit(&k->nf, why, sizeof(why));
	if (rc == -1 && k->nf.tmp[0])
		pg_newfile_abort(&k->nf);
	if (rc == -2) {
		fprintf(stderr, "perfguide: report: the chart %s\n", why);
		errno = EEXIST;	/* what the guide's own message then says */
	} else if (rc < 0) {
		fprintf(stderr, "perfguide: report: writing the chart %s: %s\n", k->nf.name, strerror(errno));
	}
	if (fclose(f) != 0 || rc < 0)
		k->w->failed = 1;
}

void pg_charts_to_files(struct pg_walk *w, int s, void (*ref)(struct pg_walk *w, const char *file, const char *title))
{
	if (!w->g->opts.charts)
		return;
	/* the sections' slugs are unique, and none is "summary" (walk.c) */
	const char *slug = s < 0 ? "summary" : w->slugs[s];
	struct sink k = { .open = file_open, .close = file_close, .w = w, .slug = slug, .ref = ref };
	charts(&k, s);
}
