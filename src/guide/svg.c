/* SPDX-License-Identifier: MIT */
#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NPAL (sizeof(palette) / sizeof(palette[0]))
static const char *const dashes[] = { "", "6 3", "2 2", "8 3 2 3" };
#define NDASH (sizeof(dashes) / sizeof(dashes[0]))

void pg_plot_free(struct pg_plot *p)
{
	for (int i = 0; i < p->ns; i++) {
		free(p->s[i].x);
		free(p->s[i].y);
		free(p->s[i].lo);
		free(p->s[i].hi);
	}
	free(p->s);
	free(p->xs);
	free(p->xticks);
	p->s = NULL;
	p->xs = NULL;
	p->xticks = NULL;
	p->ns = p->nx = 0;
}

/* Round numbers for an axis from 0 to max (finite, above 0); the step
 * and how many of them reach max (at most 10). Near the largest double the
 * rounded top would overflow: the top is max itself then. */
static double nice_step(double max, int ticks, int *nsteps)
{
	double raw = max / ticks, mag = pow(10, floor(log10(raw)));
	double step = (raw / mag <= 1 ? 1 : raw / mag <= 2 ? 2 : raw / mag <= 5 ? 5 : 10) * mag;
	double n = ceil(max / step);
	if (!(step > 0) || !isfinite(step) || !isfinite(n * step) || n < 1 || n > 10) {
		step = max;
		n = 1;
	}
	*nsteps = (int)n;
	return step;
}

static void fmt_num(double v, char *buf, size_t len)
{
	if (fabs(v) >= 100 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

/* The chart's font and background are its own: a file of it beside an md
 * or rst guide has no page's style around it. */
static void svg_open(FILE *out, int w, int h, const char *title)
{
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
		w, h, w, h, w, h);
	fputs("<title>", out);
	pg_html_esc(out, title);
}

/* A line plot: the plot area's size, the margins around it; the top grows
 * with the title's lines, the right with the legend's names. */
#define PW 340
#define PH 250
#define ML 70
#define MB 50
#define CHAR_W 6.2	/* px of an 11px sans-serif character, about */
#define LINE_H 14

struct frame {
	double x0, x1, ymax, step;
	int nsteps, logx, pw, ph, top;
	/* a value axis of decades (figures over more than a decade): from
	 * 10^ylo to 10^yhi */
	int logy;
	double ylo, yhi;
};

static double px(const struct frame *f, double v)
{
	return ML + ((f->logx ? log2(v) : v) - f->x0) / (f->x1 - f->x0) * f->pw;
}

static double py(const struct frame *f, double v)
{
	if (f->logy)
		return f->top + f->ph - (log10(fmax(v, pow(10, f->ylo))) - f->ylo) / (f->yhi - f->ylo) * f->ph;
	return f->top + f->ph - v / f->ymax * f->ph;
}

/* The decades a log axis spans, where every value is above 0 and the
 * largest over 10 times the smallest: a linear axis would flatten all
 * but the largest (12.7 GB/s of aes-128-ecb beside 0.5 GB/s of sha512).
 * lo and hi: the values' extent. Returns whether to draw it so. */
static int log_axis(double lo, double hi, double *dlo, double *dhi)
{
	if (!(lo > 0) || !isfinite(hi) || hi / lo <= 10)
		return 0;
	*dlo = floor(log10(lo));
	*dhi = ceil(log10(hi));
	if (*dhi <= *dlo)
		*dhi = *dlo + 1;
	return 1;
}

/* The ticks of a log axis: each decade, and 2 and 5 of it where there
 * are few decades; returns how many (at most max). */
static int log_ticks(double dlo, double dhi, double *ticks, int max)
{
	int n = 0;
	static const double steps[] = { 1, 2, 5 };
	int fine = dhi - dlo <= 3;
	for (double d = dlo; d <= dhi && n < max; d++)
		for (int i = 0; i < (fine ? 3 : 1) && n < max; i++) {
			double v = steps[i] * pow(10, d);
			if (log10(v) <= dhi + 1e-9)
				ticks[n++] = v;
		}
	return n;
}

/* The title in lines of at most width px, broken at spaces (a word longer
 * than a line is a line of its own): never cut. Returns the lines. */
static int title_lines(FILE *out, const char *t, int x, int y, int width, int draw)
{
	int per = (int)(width / (CHAR_W * 1.1)), lines = 0;
	if (per < 10)
		per = 10;
	while (t && *t) {
		int n = (int)strlen(t), cut = n;
		if (n > per) {
			cut = per;
			while (cut > 0 && t[cut] != ' ')
				cut--;
			if (cut == 0)	/* one long word */
				cut = (int)strcspn(t, " ");
		}
		/* never between the bytes of one character */
		while (cut < n && ((unsigned char)t[cut] & 0xc0) == 0x80)
			cut++;
		if (draw) {
			fprintf(out, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">", x, y + lines * LINE_H);
			char *line = strndup(t, (size_t)cut);
			pg_html_esc(out, line ? line : "");
			free(line);
			fputs("</text>\n", out);
		}
		lines++;
		t += cut;
		while (*t == ' ')
			t++;
	}
	return lines;
}

static void axes(FILE *out, const struct pg_plot *p, const struct frame *f)
{
	char t[64];
	int bottom = f->top + f->ph;
	fprintf(out, "<path d=\"M%d %d V%d H%d\" stroke=\"#333\" fill=\"none\"/>\n", ML, f->top, bottom, ML + f->pw);
	double ticks[40];
	int nt = f->logy ? log_ticks(f->ylo, f->yhi, ticks, 40) : f->nsteps + 1;
	for (int i = 0; i < nt; i++) {
		double y = f->logy ? ticks[i] : i * f->step;
		fmt_num(y, t, sizeof(t));
		fprintf(out, "<path d=\"M%d %.1f H%d\" stroke=\"#eee\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			ML + 1, py(f, y), ML + f->pw, ML - 4, py(f, y) + 4, t);
	}
	for (int i = 0; i < p->nx; i++) {
		fprintf(out, "<path d=\"M%.1f %d v5\" stroke=\"#333\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
			px(f, p->xs[i]), bottom, px(f, p->xs[i]), bottom + 17);
		pg_html_esc(out, p->xticks[i]);
		fputs("</text>\n", out);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", ML + f->pw / 2, bottom + 34);
	pg_html_esc(out, p->xlabel);
	fputs(f->logx ? " (log scale)" : "", out);
	if (p->note) {
		fputs("; ", out);
		pg_html_esc(out, p->note);
	}
	fputs("</text>\n", out);
	fprintf(out, "<text transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">", f->top + f->ph / 2);
	pg_html_esc(out, p->ylabel);
	fputs(f->logy ? " (log scale)" : "", out);
	fputs("</text>\n", out);
}

/* A vertical bar from lo to hi at x, with caps: the figure's min..max. */
static void error_bar(FILE *out, double x, double ylo, double yhi, const char *col)
{
	if (fabs(ylo - yhi) < 0.5)
		return;
	fprintf(out, "<path d=\"M%.1f %.1f V%.1f M%.1f %.1f h6 M%.1f %.1f h6\" stroke=\"%s\" stroke-width=\"1\" "
		"fill=\"none\"/>", x, ylo, yhi, x - 3, ylo, x - 3, yhi, col);
}

static void series(FILE *out, const struct frame *f, const struct pg_series *s, int i)
{
	const char *col = palette[s->color % NPAL];
	fprintf(out, "<path fill=\"none\" stroke-width=\"2\" stroke=\"%s\"", col);
	if (s->dash)
		fprintf(out, " stroke-dasharray=\"%s\"", dashes[s->dash % NDASH]);
	fputs(" d=\"", out);
	for (int k = 0, drawn = 0; k < s->n; k++)
		if (isfinite(s->y[k]))
			fprintf(out, "%s%.1f %.1f", drawn++ ? " L" : "M", px(f, s->x[k]), py(f, s->y[k]));
	fputs("\"/>\n", out);
	for (int k = 0; k < s->n; k++) {
		if (!isfinite(s->y[k]))
			continue;
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>", px(f, s->x[k]), py(f, s->y[k]), col);
		if (s->lo && s->hi && isfinite(s->lo[k]) && isfinite(s->hi[k]))
			error_bar(out, px(f, s->x[k]), py(f, s->lo[k]), py(f, s->hi[k]), col);
	}
	fputc('\n', out);
	int ly = f->top + LINE_H * i;
	fprintf(out, "<path d=\"M%d %d h18\" stroke=\"%s\" stroke-width=\"3\"", ML + f->pw + 10, ly + 4, col);
	if (s->dash)
		fprintf(out, " stroke-dasharray=\"%s\"", dashes[s->dash % NDASH]);
	fprintf(out, "/><text x=\"%d\" y=\"%d\">", ML + f->pw + 32, ly + 8);
	pg_html_esc(out, s->name);
	fputs("</text>\n", out);
}

int pg_plot_constant(const struct pg_plot *p)
{
	double lo = INFINITY, hi = -INFINITY;
	for (int i = 0; i < p->ns; i++)
		for (int k = 0; k < p->s[i].n; k++)
			if (isfinite(p->s[i].y[k])) {
				lo = fmin(lo, p->s[i].y[k]);
				hi = fmax(hi, p->s[i].y[k]);
			}
	/* the same as the tables print it, two decimals */
	return isfinite(lo) && fabs(hi - lo) < 0.005;
}

int pg_plot_has_points(const struct pg_plot *p)
{
	for (int i = 0; i < p->ns; i++)
		for (int k = 0; k < p->s[i].n; k++)
			if (isfinite(p->s[i].y[k]))
				return 1;
	return 0;
}

/* The highest value to show: of the points and, where drawn, their
 * maxima; *low the lowest (their minima), INFINITY where none is. */
static double plot_top(const struct pg_plot *p, double *low)
{
	double top = 0;
	*low = INFINITY;
	for (int i = 0; i < p->ns; i++)
		for (int k = 0; k < p->s[i].n; k++) {
			double v = p->s[i].hi && isfinite(p->s[i].hi[k]) ? fmax(p->s[i].hi[k], p->s[i].y[k]) : p->s[i].y[k];
			double l = p->s[i].lo && isfinite(p->s[i].lo[k]) ? fmin(p->s[i].lo[k], p->s[i].y[k]) : p->s[i].y[k];
			if (isfinite(v) && v > top)
				top = v;
			if (isfinite(l) && l < *low)
				*low = l;
		}
	return top > 0 ? top : 1;
}

void pg_svg_lines(FILE *out, const struct pg_plot *p)
{
	struct frame f = { .logx = p->logx, .pw = PW, .ph = PH };
	int legend = 0, namew = 0;
	for (int i = 0; i < p->ns; i++)
		if (p->s[i].n) {
			legend++;
			namew = (int)fmax(namew, strlen(p->s[i].name) * CHAR_W);
		}
	int mr = 50 + (namew > 100 ? namew : 100), w = ML + PW + mr;
	f.top = 14 + LINE_H * title_lines(out, p->title, 8, 18, w - 16, 0) + 8;
	int h = f.top + PH + MB;
	if (f.top + LINE_H * legend + 10 > h)
		h = f.top + LINE_H * legend + 10;
	double low, top = plot_top(p, &low);
	f.step = nice_step(top, 5, &f.nsteps);
	f.ymax = f.nsteps * f.step;
	f.logy = log_axis(low, top, &f.ylo, &f.yhi);
	f.x0 = p->logx ? log2(p->xs[0]) : p->xs[0];
	f.x1 = p->logx ? log2(p->xs[p->nx - 1]) : p->xs[p->nx - 1];
	if (f.x1 == f.x0)
		f.x1 = f.x0 + 1;
	svg_open(out, w, h, p->title);
	fputs("</title>\n", out);
	title_lines(out, p->title, 8, 18, w - 16, 1);
	axes(out, p, &f);
	for (int i = 0, k = 0; i < p->ns; i++)
		if (p->s[i].n)
			series(out, &f, &p->s[i], k++);
	fputs("</svg>\n", out);
}

/* The bars' value axis: linear from 0 to max, or decades from 10^lo. */
struct bar_scale {
	int logy, pw;
	double max, lo, hi;
};

/* The length of a bar of value v. */
static double bar_len(const struct bar_scale *k, double v)
{
	if (k->logy)
		return (log10(fmax(v, pow(10, k->lo))) - k->lo) / (k->hi - k->lo) * k->pw;
	return fmax(v, 0) / k->max * k->pw;
}

static void bar(FILE *out, const struct pg_bars *b, const struct bar_scale *k, int i, int lw, int y, int bh)
{
	char v[64];
	double bw = bar_len(k, b->v[i]);
	const char *col = palette[(b->color ? b->color[i] : i) % NPAL];
	fprintf(out, "<path d=\"M%d %d h%.1f v%d h%.1f Z\" fill=\"%s\"/>", lw, y, bw, bh, -bw, col);
	double hi = b->hi && isfinite(b->hi[i]) ? b->hi[i] : b->v[i];
	if (b->lo && b->hi && isfinite(b->lo[i]) && isfinite(b->hi[i]) && b->hi[i] > b->lo[i]) {
		double x0 = lw + bar_len(k, b->lo[i]), x1 = lw + bar_len(k, hi);
		fprintf(out, "<path d=\"M%.1f %d H%.1f M%.1f %d v6 M%.1f %d v6\" stroke=\"#333\" fill=\"none\"/>", x0,
			y + bh / 2, x1, x0, y + bh / 2 - 3, x1, y + bh / 2 - 3);
	}
	fmt_num(b->v[i], v, sizeof(v));
	if (!isnan(b->ref))
		snprintf(v, sizeof(v), "%.2f", b->v[i]);
	fprintf(out, "<text x=\"%.1f\" y=\"%d\">%s</text>", lw + fmax(bw, bar_len(k, hi)) + 4, y + 12, v);
}

/* The extent of the bars' values (and their min..max, the reference). */
static void bars_extent(const struct pg_bars *b, double *lo, double *max)
{
	*max = 0;
	*lo = INFINITY;
	for (int i = 0; i < b->n; i++) {
		double v = b->hi && isfinite(b->hi[i]) ? fmax(b->hi[i], b->v[i]) : b->v[i];
		double l = b->lo && isfinite(b->lo[i]) ? fmin(b->lo[i], b->v[i]) : b->v[i];
		if (v > *max && isfinite(v))
			*max = v;
		if (isfinite(l) && l < *lo)
			*lo = l;
	}
	if (!isnan(b->ref)) {
		*max = fmax(*max, b->ref);
		*lo = fmin(*lo, b->ref);
	}
}

void pg_svg_bars(FILE *out, const struct pg_bars *b)
{
	double lo;
	struct bar_scale k = { 0 };
	bars_extent(b, &lo, &k.max);
	if (!(k.max > 0))
		return;
	k.logy = log_axis(lo, k.max, &k.lo, &k.hi);
	int bh = 16, lw = b->label_width ? b->label_width : 120, vw = 80, w = lw + 300;
	int top = 10 + LINE_H * title_lines(out, b->title, 4, 16, w - 8, 0);
	int h = top + b->n * (bh + 4) + 22;
	k.pw = w - lw - vw;
	svg_open(out, w, h, b->title);
	fputs("</title>\n", out);
	title_lines(out, b->title, 4, 16, w - 8, 1);
	for (double d = k.lo; k.logy && d <= k.hi; d++)	/* each decade: a line */
		fprintf(out, "<path d=\"M%.1f %d V%d\" stroke=\"#eee\"/>\n", lw + bar_len(&k, pow(10, d)), top - 2, h - 16);
	for (int i = 0; i < b->n; i++) {
		int y = top + i * (bh + 4);
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", lw - 4, y + 12);
		pg_html_esc(out, b->labels[i]);
		fputs("</text>", out);
		if (isfinite(b->v[i])) {
			bar(out, b, &k, i, lw, y, bh);
		} else {
			fprintf(out, "<text x=\"%d\" y=\"%d\" fill=\"#888\">", lw + 4, y + 12);
			pg_html_esc(out, b->missing ? b->missing[i] : "no result");
			fputs("</text>", out);
		}
		fputc('\n', out);
	}
	if (!isnan(b->ref))
		fprintf(out, "<path d=\"M%.1f %d V%d\" stroke=\"#333\" stroke-dasharray=\"4 3\"/>\n",
			lw + bar_len(&k, b->ref), top - 2, h - 16);
	/* the value axis: what the values are, and which way is better */
	fprintf(out, "<path d=\"M%d %d V%d\" stroke=\"#333\"/><text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		lw, top - 2, h - 16, lw + k.pw / 2, h - 4);
	pg_html_esc(out, b->axis);
	if (k.logy) {
		char a[32], z[32];
		fmt_num(pow(10, k.lo), a, sizeof(a));
		fmt_num(pow(10, k.hi), z, sizeof(z));
		fprintf(out, ", log scale from %s to %s", a, z);
	} else {
		fputs(", from 0", out);
	}
	if (b->note) {
		fputs("; ", out);
		pg_html_esc(out, b->note);
	}
	fputs("</text>\n</svg>\n", out);
}
