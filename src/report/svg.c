#include "svg.h"

#include <math.h>
#include <stdlib.h>

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NPAL (sizeof(palette) / sizeof(palette[0]))
static const char *const dashes[] = { "", "6 3", "2 2", "8 3 2 3" };
#define NDASH (sizeof(dashes) / sizeof(dashes[0]))

void pg_html_esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			/* control characters (C0, DEL, C1) are not text in HTML */
			if (c < 0x20 || c == 0x7f) {
				fputc(' ', out);
			} else if (c == 0xc2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f) {
				fputc(' ', out);
				s++;
			} else {
				fputc(c, out);
			}
		}
	}
}

void pg_plot_free(struct pg_plot *p)
{
	for (int i = 0; i < p->ns; i++) {
		free(p->s[i].x);
		free(p->s[i].y);
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

static void svg_open(FILE *out, int w, int h, const char *title)
{
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
		w, h, w, h);
	fputs("<title>", out);
	pg_html_esc(out, title);
}

#define W 560
#define H 330
#define ML 70
#define MR 150
#define MT 30
#define MB 50

struct frame {
	double x0, x1, ymax, step;
	int nsteps, logx, pw, ph;
};

static double px(const struct frame *f, double v)
{
	return ML + ((f->logx ? log2(v) : v) - f->x0) / (f->x1 - f->x0) * f->pw;
}

static double py(const struct frame *f, double v)
{
	return MT + f->ph - v / f->ymax * f->ph;
}

static void axes(FILE *out, const struct pg_plot *p, const struct frame *f)
{
	char t[64];
	fprintf(out, "<path d=\"M%d %d V%d H%d\" stroke=\"#333\" fill=\"none\"/>\n", ML, MT, MT + f->ph, ML + f->pw);
	for (int i = 0; i <= f->nsteps; i++) {
		double y = i * f->step;
		fmt_num(y, t, sizeof(t));
		fprintf(out, "<path d=\"M%d %.1f H%d\" stroke=\"#eee\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			ML + 1, py(f, y), ML + f->pw, ML - 4, py(f, y) + 4, t);
	}
	for (int i = 0; i < p->nx; i++) {
		fprintf(out, "<path d=\"M%.1f %d v5\" stroke=\"#333\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
			px(f, p->xs[i]), MT + f->ph, px(f, p->xs[i]), MT + f->ph + 17);
		pg_html_esc(out, p->xticks[i]);
		fputs("</text>\n", out);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", ML + f->pw / 2, H - 8);
	pg_html_esc(out, p->xlabel);
	fputs(f->logx ? " (log scale)</text>\n" : "</text>\n", out);
	fprintf(out, "<text transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">", MT + f->ph / 2);
	pg_html_esc(out, p->ylabel);
	fputs("</text>\n", out);
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
	for (int k = 0; k < s->n; k++)
		if (isfinite(s->y[k]))
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>", px(f, s->x[k]),
				py(f, s->y[k]), col);
	fputc('\n', out);
	int ly = MT + 14 * i;
	fprintf(out, "<path d=\"M%d %d h18\" stroke=\"%s\" stroke-width=\"3\"", ML + f->pw + 10, ly + 4, col);
	if (s->dash)
		fprintf(out, " stroke-dasharray=\"%s\"", dashes[s->dash % NDASH]);
	fprintf(out, "/><text x=\"%d\" y=\"%d\">", ML + f->pw + 32, ly + 8);
	pg_html_esc(out, s->name);
	fputs("</text>\n", out);
}

void pg_svg_lines(FILE *out, const struct pg_plot *p)
{
	struct frame f = { .logx = p->logx, .pw = W - ML - MR, .ph = H - MT - MB };
	for (int i = 0; i < p->ns; i++)
		for (int k = 0; k < p->s[i].n; k++)
			if (p->s[i].y[k] > f.ymax && isfinite(p->s[i].y[k]))
				f.ymax = p->s[i].y[k];
	if (!(f.ymax > 0))
		f.ymax = 1;
	f.step = nice_step(f.ymax, 5, &f.nsteps);
	f.ymax = f.nsteps * f.step;
	f.x0 = p->logx ? log2(p->xs[0]) : p->xs[0];
	f.x1 = p->logx ? log2(p->xs[p->nx - 1]) : p->xs[p->nx - 1];
	if (f.x1 == f.x0)
		f.x1 = f.x0 + 1;
	svg_open(out, W, H, p->title);
	fprintf(out, "</title>\n<text x=\"%d\" y=\"18\" font-weight=\"bold\">", ML);
	pg_html_esc(out, p->title);
	fputs("</text>\n", out);
	axes(out, p, &f);
	for (int i = 0; i < p->ns; i++)
		series(out, &f, &p->s[i], i);
	fputs("</svg>\n", out);
}

void pg_svg_bars(FILE *out, const struct pg_bars *b)
{
	double max = 0;
	for (int i = 0; i < b->n; i++)
		if (b->v[i] > max && isfinite(b->v[i]))
			max = b->v[i];
	if (!isnan(b->ref) && b->ref > max)
		max = b->ref;
	if (!(max > 0))
		return;
	int bh = 16, lw = b->label_width ? b->label_width : 120, vw = 80, w = lw + 300, h = 34 + b->n * (bh + 4) + 18;
	int pw = w - lw - vw;
	char v[64];
	svg_open(out, w, h, b->title);
	fputs("</title><text x=\"4\" y=\"16\" font-weight=\"bold\">", out);
	pg_html_esc(out, b->title);
	fputs("</text>\n", out);
	for (int i = 0; i < b->n; i++) {
		int y = 26 + i * (bh + 4);
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", lw - 4, y + 12);
		pg_html_esc(out, b->labels[i]);
		fputs("</text>", out);
		if (isfinite(b->v[i])) {
			double bw = fmax(b->v[i], 0) / max * pw;
			fprintf(out, "<path d=\"M%d %d h%.1f v%d h%.1f Z\" fill=\"%s\"/>", lw, y, bw, bh, -bw,
				palette[(b->color ? b->color[i] : i) % NPAL]);
			fmt_num(b->v[i], v, sizeof(v));
			if (!isnan(b->ref))
				snprintf(v, sizeof(v), "%.2f", b->v[i]);
			fprintf(out, "<text x=\"%.1f\" y=\"%d\">%s</text>", lw + bw + 4, y + 12, v);
		} else {
			fprintf(out, "<text x=\"%d\" y=\"%d\" fill=\"#888\">", lw + 4, y + 12);
			pg_html_esc(out, b->missing ? b->missing[i] : "no result");
			fputs("</text>", out);
		}
		fputc('\n', out);
	}
	if (!isnan(b->ref))
		fprintf(out, "<path d=\"M%.1f 24 V%d\" stroke=\"#333\" stroke-dasharray=\"4 3\"/>\n", lw + b->ref / max * pw,
			h - 16);
	/* the value axis: what the values are */
	fprintf(out, "<path d=\"M%d 24 V%d\" stroke=\"#333\"/><text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		lw, h - 16, lw + pw / 2, h - 4);
	pg_html_esc(out, b->axis);
	fputs(", from 0</text>\n</svg>\n", out);
}
