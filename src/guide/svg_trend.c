/* SPDX-License-Identifier: MIT */
/*
 * A figure run by run as SVG (`perfguide history`, `report --trend`): the
 * runs along x, oldest first; a line per row; where a row's new level
 * starts (a change point) a dashed line across the plot in the row's
 * colour and a ring on its point; the level of each segment as steps. A
 * row without a change point is a thin grey line, so that a chart of a
 * whole section stays readable. Each point of a coloured row says its run
 * (id, date, labels) and figure as a tooltip. The axis is the figures'
 * range, not from 0: a change of 10% is what the chart is for.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

/* A row with a change point takes a colour of these; a row drawn alone
 * without one is blue, a colour none of them is. */
static const char *const colors[] = {
	"#d62728", "#ff7f0e", "#9467bd", "#2ca02c", "#8c564b", "#e377c2", "#bcbd22", "#17becf",
};
#define NCOLORS (sizeof(colors) / sizeof(colors[0]))
#define CALM "#1f77b4"

#define PW 600
#define PH 240
#define ML 70
#define MR 30
#define LINE_H 14
#define CHAR_W 6.2

struct frame {
	int top, nruns;
	double y0, y1, step;
};

static double px(const struct frame *f, double run)
{
	return ML + (f->nruns > 1 ? run / (f->nruns - 1) : 0.5) * PW;
}

static double py(const struct frame *f, double v)
{
	return f->top + PH - (v - f->y0) / (f->y1 - f->y0) * PH;
}

/* Lines of at most width px the title takes (drawn at y when draw). */
static int title_lines(FILE *out, const char *t, int y, int width, int draw)
{
	int per = (int)(width / (CHAR_W * 1.1)), lines = 0;
	while (t && *t) {
		int n = (int)strlen(t), cut = n;
		if (n > per) {
			for (cut = per; cut > 0 && t[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = (int)strcspn(t, " ");
		}
		while (cut < n && ((unsigned char)t[cut] & 0xc0) == 0x80)
			cut++;
		if (draw) {
			char *line = strndup(t, (size_t)cut);
			fprintf(out, "<text x=\"8\" y=\"%d\" font-weight=\"bold\">", y + lines * LINE_H);
			pg_html_esc(out, line ? line : "");
			fputs("</text>\n", out);
			free(line);
		}
		lines++;
		t += cut;
		while (*t == ' ')
			t++;
	}
	return lines;
}

static const char *line_color(const struct pg_trend *t, int i)
{
	int k = 0;
	if (!t->lines[i].nchanges)
		return CALM;
	for (int j = 0; j < i; j++)
		k += t->lines[j].highlight && t->lines[j].nchanges;
	return colors[k % NCOLORS];
}

static int legend_lines(const struct pg_trend *t)
{
	int n = t->other[0] != '\0';
	for (int i = 0; i < t->nlines; i++)
		n += t->lines[i].highlight;
	return n;
}

void pg_svg_trend_size(const struct pg_trend *t, int *w, int *h)
{
	*w = ML + PW + MR;
	*h = 14 + LINE_H * title_lines(NULL, t->title, 0, *w - 16, 0) + 8 + PH + 44 + LINE_H * legend_lines(t) + 8;
}

/* The figures' range, with a margin, to round steps. */
static void y_range(const struct pg_trend *t, struct frame *f)
{
	double lo = INFINITY, hi = -INFINITY;
	for (int i = 0; i < t->nlines; i++)
		for (int k = 0; k < t->nruns; k++) {
			double v[2] = { t->lines[i].y[k], t->lines[i].level ? t->lines[i].level[k] : NAN };
			for (int j = 0; j < 2; j++)
				if (isfinite(v[j])) {
					lo = fmin(lo, v[j]);
					hi = fmax(hi, v[j]);
				}
		}
	if (!isfinite(lo)) {
		lo = 0;
		hi = 1;
	}
	double span = hi > lo ? hi - lo : fmax(fabs(hi), 1) * 0.1;
	lo -= span * 0.05;
	hi += span * 0.05;
	double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw)));
	f->step = (raw / mag <= 1 ? 1 : raw / mag <= 2 ? 2 : raw / mag <= 5 ? 5 : 10) * mag;
	f->y0 = floor(lo / f->step) * f->step;
	f->y1 = ceil(hi / f->step) * f->step;
	if (!(f->y1 > f->y0) || !isfinite(f->y1 - f->y0) || (f->y1 - f->y0) / f->step > 12) {
		f->y0 = lo;
		f->y1 = hi > lo ? hi : lo + 1;
		f->step = f->y1 - f->y0;
	}
}

static void axes(FILE *out, const struct pg_trend *t, const struct frame *f)
{
	int bottom = f->top + PH, every = 1;
	fprintf(out, "<path d=\"M%d %d V%d H%d\" stroke=\"#333\" fill=\"none\"/>\n", ML, f->top, bottom, ML + PW);
	for (double v = f->y0; v <= f->y1 + f->step * 1e-6; v += f->step)
		fprintf(out, "<path d=\"M%d %.1f H%d\" stroke=\"#eee\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.4g</text>\n",
			ML + 1, py(f, v), ML + PW, ML - 4, py(f, v) + 4, fabs(v) < f->step * 1e-6 ? 0 : v);
	/* 1, 2, 5, 10, 20, 50...: at most 15 ticks */
	for (int i = 0; t->nruns / every > 15; i++)
		every = (i % 3 == 1 ? every / 2 * 5 : every * 2);
	for (int r = 1; r <= t->nruns; r++)
		if (r % every == 0 || (r == 1 && every >= 5))	/* 1 beside 2 would crowd */
			fprintf(out, "<path d=\"M%.1f %d v5\" stroke=\"#333\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
				px(f, r - 1), bottom, px(f, r - 1), bottom + 17, r);
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">run (oldest first)", ML + PW / 2, bottom + 33);
	if (t->note) {
		fputs("; ", out);
		pg_html_esc(out, t->note);
	}
	fprintf(out, "</text>\n<text transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">", f->top + PH / 2);
	pg_html_esc(out, t->ylabel);
	fputs("</text>\n", out);
}

/* The line through the figures there are (a gap is stepped over). */
static void path(FILE *out, const struct frame *f, const double *y, int n, const char *attrs)
{
	fprintf(out, "<path fill=\"none\" %s d=\"", attrs);
	for (int k = 0, drawn = 0; k < n; k++)
		if (isfinite(y[k]))
			fprintf(out, "%s%.1f %.1f", drawn++ ? " L" : "M", px(f, k), py(f, y[k]));
	fputs("\"/>\n", out);
}

/* Each segment's level, a dashed step from its first run to its last. */
static void levels(FILE *out, const struct frame *f, const struct pg_trend_line *l, int n, const char *col)
{
	fprintf(out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"6 3\" opacity=\"0.7\" d=\"", col);
	for (int k = 0; k < n;) {
		int e = k;
		while (e + 1 < n && (l->level[e + 1] == l->level[k] || !isfinite(l->level[e + 1])))
			e++;
		if (isfinite(l->level[k]))
			fprintf(out, "M%.1f %.1f H%.1f ", px(f, k), py(f, l->level[k]), px(f, e));
		k = e + 1;
	}
	fputs("\"/>\n", out);
}

static void points(FILE *out, const struct frame *f, const struct pg_trend *t, const struct pg_trend_line *l,
		   const char *col)
{
	for (int k = 0; k < t->nruns; k++) {
		if (!isfinite(l->y[k]))
			continue;
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"><title>run %d", px(f, k), py(f, l->y[k]), col,
			k + 1);
		if (t->tips && t->tips[k]) {
			fputs(": ", out);
			pg_html_esc(out, t->tips[k]);
		}
		fprintf(out, ": %.6g</title></circle>", l->y[k]);
	}
	fputc('\n', out);
}

/* A change point: a dashed line between the run before and its run, a
 * ring on its run's point, "run N" at the top. */
static void changes(FILE *out, const struct frame *f, const struct pg_trend_line *l, int nruns, const char *col)
{
	for (int i = 0; i < l->nchanges; i++) {
		int at = l->changes[i];
		if (at < 0 || at >= nruns)
			continue;
		double x = px(f, at - 0.5);
		fprintf(out, "<path d=\"M%.1f %d V%d\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>"
			"<text x=\"%.1f\" y=\"%d\" fill=\"%s\" text-anchor=\"middle\">run %d</text>", x, f->top, f->top + PH, col, x,
			f->top - 3, col, at + 1);
		if (isfinite(l->y[at]))
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>",
				px(f, at), py(f, l->y[at]), col);
		fputc('\n', out);
	}
}

static void legend(FILE *out, const struct pg_trend *t, int y)
{
	for (int i = 0; i < t->nlines; i++) {
		if (!t->lines[i].highlight)
			continue;
		fprintf(out, "<path d=\"M%d %d h18\" stroke=\"%s\" stroke-width=\"3\"/><text x=\"%d\" y=\"%d\">", ML, y - 4,
			line_color(t, i), ML + 24, y);
		pg_html_esc(out, t->lines[i].name);
		fputs("</text>\n", out);
		y += LINE_H;
	}
	if (t->other[0]) {
		fprintf(out, "<path d=\"M%d %d h18\" stroke=\"#bbb\" stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">", ML, y - 4,
			ML + 24, y);
		pg_html_esc(out, t->other);
		fputs("</text>\n", out);
	}
}

void pg_svg_trend(FILE *out, const struct pg_trend *t, int y)
{
	int w, h;
	struct frame f = { .nruns = t->nruns };
	pg_svg_trend_size(t, &w, &h);
	f.top = 14 + LINE_H * title_lines(NULL, t->title, 0, w - 16, 0) + 8;
	y_range(t, &f);
	if (y >= 0)
		fprintf(out, "<svg x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\">\n", y, w, h);
	else
		fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
			"role=\"img\" font-family=\"sans-serif\" font-size=\"11\">\n", w, h, w, h);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n<title>", w, h);
	pg_html_esc(out, t->title);
	fputs("</title>\n", out);
	title_lines(out, t->title, 18, w - 16, 1);
	axes(out, t, &f);
	for (int i = 0; i < t->nlines; i++)
		if (!t->lines[i].highlight)
			path(out, &f, t->lines[i].y, t->nruns, "stroke=\"#bbb\" stroke-width=\"1\"");
	for (int i = 0; i < t->nlines; i++) {
		const struct pg_trend_line *l = &t->lines[i];
		if (!l->highlight)
			continue;
		const char *col = line_color(t, i);
		char attrs[80];
		snprintf(attrs, sizeof(attrs), "stroke=\"%s\" stroke-width=\"1.5\"", col);
		path(out, &f, l->y, t->nruns, attrs);
		if (l->level)
			levels(out, &f, l, t->nruns, col);
		points(out, &f, t, l, col);
		changes(out, &f, l, t->nruns, col);
	}
	legend(out, t, f.top + PH + 44 + 10);
	fputs("</svg>\n", out);
}
