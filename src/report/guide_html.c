/*
 * The guide as one self-contained HTML file: the tables of the text formats
 * plus SVG charts drawn here, no scripts, no network. A sweep (latency or
 * bandwidth against size, throughput against packet size) becomes a line
 * chart with a line per board, log-scaled where the sweep goes by powers of
 * two; every other row a bar chart across boards.
 */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/params.h"
#include "guide.h"

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NPAL (sizeof(palette) / sizeof(palette[0]))

static void esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

static const char style[] =
	"body{font-family:sans-serif;margin:2em;color:#222}"
	"table{border-collapse:collapse;margin:1em 0;font-size:13px}"
	"th,td{border:1px solid #bbb;padding:3px 6px;text-align:right}"
	"th:first-child,td:first-child{text-align:left}"
	"th{background:#eee}.cpu{color:#666}"
	".charts{display:flex;flex-wrap:wrap;gap:12px}"
	"svg{background:#fff;border:1px solid #ddd}"
	"svg text{font-family:sans-serif;font-size:11px;fill:#222}"
	".notes{font-size:12px;color:#444}";

/* --- which rows make a curve --- */

struct sweep {
	char key[600];
	char param[64];		/* the swept parameter */
	char rest[256];		/* the other parameters, canonical JSON */
	int *rows;		/* guide row indexes, by x */
	double *x;
	int n;
	int count;		/* rows that fit, from the first pass */
};

static int is_pow2(double v)
{
	if (!(v > 0) || v != floor(v) || v > 9e15)
		return 0;
	uint64_t u = (uint64_t)v;
	return (u & (u - 1)) == 0;
}

/* Finds the sweeps of one section: rows that differ only in one numeric
 * parameter, at least three values of it. used[r] marks rows drawn. */
static int find_sweeps(const struct pg_guide *g, int section, struct sweep **out, char *used)
{
	struct sweep *sw = NULL;
	int nsw = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (int r = 0; r < g->nrows; r++) {
			const struct pg_grow *row = &g->rows[r];
			if (row->section != section || used[r])
				continue;
			json_t *p = json_loads(row->params, 0, NULL);
			const char *k;
			json_t *v;
			json_object_foreach(p, k, v) {
				if (!json_is_integer(v))
					continue;
				json_t *rest = json_deep_copy(p);
				json_object_del(rest, k);
				char *rs = json_dumps(rest, JSON_COMPACT | JSON_SORT_KEYS);
				char key[600];
				snprintf(key, sizeof(key), "%s|%s|%s|%s", row->bench, row->metric, k, rs ? rs : "");
				free(rs);
				json_decref(rest);
				int i = 0;
				while (i < nsw && strcmp(sw[i].key, key) != 0)
					i++;
				if (pass == 0) {
					if (i == nsw) {
						struct sweep *ns = realloc(sw, sizeof(*sw) * (size_t)(nsw + 1));
						if (!ns)
							break;
						sw = ns;
						memset(&sw[nsw], 0, sizeof(*sw));
						snprintf(sw[nsw].key, sizeof(sw[nsw].key), "%s", key);
						snprintf(sw[nsw].param, sizeof(sw[nsw].param), "%s", k);
						snprintf(sw[nsw].rest, sizeof(sw[nsw].rest), "%s",
							 strchr(strchr(strchr(key, '|') + 1, '|') + 1, '|') + 1);
						nsw++;
					}
					sw[i].count++;
				} else if (i < nsw && sw[i].count >= 3) {
					/* Second pass: fill the sweeps that have three or more. */
					if (!sw[i].rows) {
						sw[i].rows = malloc(sizeof(int) * (size_t)sw[i].count);
						sw[i].x = malloc(sizeof(double) * (size_t)sw[i].count);
						if (!sw[i].rows || !sw[i].x)
							break;
					}
					sw[i].rows[sw[i].n] = r;
					sw[i].x[sw[i].n++] = (double)json_integer_value(v);
					used[r] = 1;
					break;
				}
			}
			json_decref(p);
		}
	}
	/* Keep the filled ones, points sorted by x. */
	int k = 0;
	for (int i = 0; i < nsw; i++) {
		if (!sw[i].rows)
			continue;
		for (int a = 1; a < sw[i].n; a++)
			for (int b = a; b > 0 && sw[i].x[b - 1] > sw[i].x[b]; b--) {
				double tx = sw[i].x[b];
				sw[i].x[b] = sw[i].x[b - 1];
				sw[i].x[b - 1] = tx;
				int tr = sw[i].rows[b];
				sw[i].rows[b] = sw[i].rows[b - 1];
				sw[i].rows[b - 1] = tr;
			}
		sw[k++] = sw[i];
	}
	*out = sw;
	return k;
}

/* Round numbers for an axis from 0 to max. */
static double nice_step(double max, int ticks)
{
	double raw = max / ticks, mag = pow(10, floor(log10(raw)));
	double f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static void fmt_num(double v, char *buf, size_t len)
{
	if (fabs(v) >= 100 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

static void param_label(const char *bench, const char *param, double x, char *buf, size_t len)
{
	char p[64];
	snprintf(p, sizeof(p), "{\"%s\":%.0f}", param, x);
	char disp[128];
	pg_params_display(bench, p, disp, sizeof(disp));
	const char *eq = strchr(disp, '=');
	snprintf(buf, len, "%s", eq ? eq + 1 : disp);
}

#define W 560
#define H 330
#define ML 70
#define MR 150
#define MT 30
#define MB 50

static void line_chart(const struct pg_guide *g, const struct sweep *s, FILE *out)
{
	const struct pg_grow *first = &g->rows[s->rows[0]];
	int logx = 1;
	for (int i = 0; i < s->n; i++)
		logx &= is_pow2(s->x[i]);
	double ymax = 0;
	for (int i = 0; i < s->n; i++)
		for (int c = 0; c < g->ncols; c++) {
			const struct pg_gcell *cell = &g->rows[s->rows[i]].cells[c];
			if (cell->present && cell->status == PG_OK && cell->median > ymax)
				ymax = cell->median;
		}
	if (!(ymax > 0))
		ymax = 1;
	double step = nice_step(ymax, 5);
	ymax = ceil(ymax / step) * step;
	double x0 = logx ? log2(s->x[0]) : s->x[0], x1 = logx ? log2(s->x[s->n - 1]) : s->x[s->n - 1];
	if (x1 == x0)
		x1 = x0 + 1;
	int pw = W - ML - MR, ph = H - MT - MB;
#define PX(v) (ML + ((logx ? log2(v) : (v)) - x0) / (x1 - x0) * pw)
#define PY(v) (MT + ph - (v) / ymax * ph)
	char title[400], p[160], rest[200];
	pg_params_display(first->bench, s->rest, rest, sizeof(rest));
	snprintf(title, sizeof(title), "%s %s%s%s", first->bench, first->metric, rest[0] ? ", " : "", rest);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
		W, H, W, H);
	fputs("<title>", out);
	esc(out, title);
	fputs("</title>\n<text x=\"", out);
	fprintf(out, "%d\" y=\"18\" font-weight=\"bold\">", ML);
	esc(out, title);
	fputs("</text>\n", out);
	/* axes and grid */
	fprintf(out, "<path d=\"M%d %d V%d H%d\" stroke=\"#333\" fill=\"none\"/>\n", ML, MT, MT + ph, ML + pw);
	for (double y = 0; y <= ymax * 1.0001; y += step) {
		fmt_num(y, p, sizeof(p));
		fprintf(out, "<path d=\"M%d %.1f H%d\" stroke=\"#eee\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			ML + 1, PY(y), ML + pw, ML - 4, PY(y) + 4, p);
	}
	for (int i = 0; i < s->n; i++) {
		if (i && s->x[i] == s->x[i - 1])
			continue;
		param_label(first->bench, s->param, s->x[i], p, sizeof(p));
		fprintf(out, "<path d=\"M%.1f %d v5\" stroke=\"#333\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
			PX(s->x[i]), MT + ph, PX(s->x[i]), MT + ph + 17);
		esc(out, p);
		fputs("</text>\n", out);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", ML + pw / 2, H - 8);
	esc(out, s->param);
	fputs(logx ? " (log scale)</text>\n" : "</text>\n", out);
	fprintf(out, "<text transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">", MT + ph / 2);
	esc(out, first->metric);
	if (first->unit && first->unit[0]) {
		fputs(" (", out);
		esc(out, first->unit);
		fputs(")", out);
	}
	fputs("</text>\n", out);
	/* a line per board, and the legend */
	for (int c = 0; c < g->ncols; c++) {
		const char *col = palette[c % NPAL];
		int pts = 0;
		fputs("<path fill=\"none\" stroke-width=\"2\" stroke=\"", out);
		fputs(col, out);
		fputs("\" d=\"", out);
		for (int i = 0; i < s->n; i++) {
			const struct pg_gcell *cell = &g->rows[s->rows[i]].cells[c];
			if (!cell->present || cell->status != PG_OK)
				continue;
			fprintf(out, "%s%.1f %.1f", pts++ ? " L" : "M", PX(s->x[i]), PY(cell->median));
		}
		fputs("\"/>\n", out);
		for (int i = 0; i < s->n; i++) {
			const struct pg_gcell *cell = &g->rows[s->rows[i]].cells[c];
			if (cell->present && cell->status == PG_OK)
				fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>", PX(s->x[i]),
					PY(cell->median), col);
		}
		fputc('\n', out);
		int ly = MT + 14 * c;
		fprintf(out, "<path d=\"M%d %d h18\" stroke=\"%s\" stroke-width=\"3\"/><text x=\"%d\" y=\"%d\">",
			ML + pw + 10, ly + 4, col, ML + pw + 32, ly + 8);
		esc(out, g->cols[c].board);
		fputs("</text>\n", out);
	}
	fputs("</svg>\n", out);
#undef PX
#undef PY
}

static void bar_chart(const struct pg_guide *g, const struct pg_grow *row, FILE *out)
{
	double max = 0;
	for (int c = 0; c < g->ncols; c++)
		if (row->cells[c].present && row->cells[c].status == PG_OK && row->cells[c].median > max)
			max = row->cells[c].median;
	if (!(max > 0))
		return;
	int bh = 16, lw = 120, vw = 80, w = 420, h = 34 + g->ncols * (bh + 4) + 18;
	int pw = w - lw - vw;
	char name[320], v[64];
	pg_row_name(row, name, sizeof(name));
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
		w, h, w, h);
	fputs("<title>", out);
	esc(out, name);
	fputs("</title><text x=\"4\" y=\"16\" font-weight=\"bold\">", out);
	esc(out, name);
	fputs("</text>\n", out);
	for (int c = 0; c < g->ncols; c++) {
		const struct pg_gcell *cell = &row->cells[c];
		int y = 26 + c * (bh + 4);
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", lw - 4, y + 12);
		esc(out, g->cols[c].board);
		fputs("</text>", out);
		if (cell->present && cell->status == PG_OK) {
			double bw = cell->median / max * pw;
			fprintf(out, "<path d=\"M%d %d h%.1f v%d h%.1f Z\" fill=\"%s\"/>", lw, y, bw, bh, -bw,
				palette[c % NPAL]);
			fmt_num(cell->median, v, sizeof(v));
			fprintf(out, "<text x=\"%.1f\" y=\"%d\">%s</text>", lw + bw + 4, y + 12, v);
		} else {
			fprintf(out, "<text x=\"%d\" y=\"%d\" fill=\"#888\">%s</text>", lw + 4, y + 12,
				cell->present ? pg_status_name(cell->status) : "no result");
		}
		fputc('\n', out);
	}
	/* the value axis: its unit */
	fprintf(out, "<path d=\"M%d 24 V%d\" stroke=\"#333\"/><text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		lw, h - 16, lw + pw / 2, h - 4);
	esc(out, row->metric);
	if (row->unit && row->unit[0]) {
		fputs(" (", out);
		esc(out, row->unit);
		fputs(")", out);
	}
	fputs(", from 0</text>\n</svg>\n", out);
}

static void machine_table(const struct pg_guide *g, FILE *out)
{
	char v[512];
	fputs("<h2>Machines</h2>\n<table>\n<tr><th></th>", out);
	for (int c = 0; c < g->ncols; c++) {
		fputs("<th>", out);
		esc(out, g->cols[c].board);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (int f = 0; f < PG_MACHINE_FIELDS; f++) {
		int any = 0;
		for (int c = 0; c < g->ncols; c++) {
			pg_machine_value(&g->cols[c], f, v, sizeof(v));
			any |= v[0] != '\0';
		}
		if (!any)
			continue;
		fputs("<tr><td>", out);
		esc(out, pg_machine_field_name(f));
		fputs("</td>", out);
		for (int c = 0; c < g->ncols; c++) {
			pg_machine_value(&g->cols[c], f, v, sizeof(v));
			fputs("<td>", out);
			esc(out, v);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

int pg_guide_write_html(const struct pg_guide *g, FILE *out)
{
	char *used = calloc((size_t)g->nrows + 1, 1);
	if (!used)
		return -1;
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>Performance guide</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>Performance guide</h1>\n", style);
	machine_table(g, out);
	char name[320], val[160];
	for (int s = 0; s < pg_section_count(); s++) {
		int any = 0;
		for (int r = 0; r < g->nrows && !any; r++)
			any = g->rows[r].section == s;
		if (!any)
			continue;
		const struct pg_gsection *sec = pg_section(s);
		fputs("<section>\n<h2>", out);
		esc(out, sec->title);
		fputs("</h2>\n", out);
		if (sec->intro) {
			fputs("<p>", out);
			esc(out, sec->intro);
			fputs("</p>\n", out);
		}
		struct sweep *sw;
		int nsw = find_sweeps(g, s, &sw, used);
		fputs("<div class=\"charts\">\n", out);
		for (int i = 0; i < nsw; i++)
			line_chart(g, &sw[i], out);
		for (int r = 0; r < g->nrows; r++)
			if (g->rows[r].section == s && !used[r])
				bar_chart(g, &g->rows[r], out);
		fputs("</div>\n", out);
		for (int i = 0; i < nsw; i++) {
			free(sw[i].rows);
			free(sw[i].x);
		}
		free(sw);

		int has_cpu = pg_section_has_cpu(g, s);
		fputs("<table>\n<tr><th>Benchmarks</th>", out);
		for (int c = 0; c < g->ncols; c++) {
			fputs("<th>", out);
			esc(out, g->cols[c].board);
			fputs("</th>", out);
			if (has_cpu) {
				fputs("<th class=\"cpu\">", out);
				esc(out, g->cols[c].board);
				fputs(" CPU Load %</th>", out);
			}
		}
		fputs("</tr>\n", out);
		int nnotes = 0;
		for (int r = 0; r < g->nrows; r++) {
			const struct pg_grow *row = &g->rows[r];
			if (row->section != s)
				continue;
			pg_row_name(row, name, sizeof(name));
			fputs("<tr><td>", out);
			esc(out, name);
			fputs("</td>", out);
			for (int c = 0; c < g->ncols; c++) {
				const struct pg_gcell *cell = &row->cells[c];
				pg_cell_text(cell, val, sizeof(val));
				fputs("<td>", out);
				esc(out, val);
				if (cell->present && cell->status != PG_OK)
					fprintf(out, " <sup>%d</sup>", ++nnotes);
				fputs("</td>", out);
				if (has_cpu) {
					if (cell->have_busy)
						fprintf(out, "<td class=\"cpu\">%.1f</td>", cell->busy);
					else
						fputs("<td class=\"cpu\"></td>", out);
				}
			}
			fputs("</tr>\n", out);
		}
		fputs("</table>\n", out);
		if (nnotes) {
			fputs("<ol class=\"notes\">\n", out);
			for (int r = 0; r < g->nrows; r++) {
				const struct pg_grow *row = &g->rows[r];
				if (row->section != s)
					continue;
				for (int c = 0; c < g->ncols; c++) {
					const struct pg_gcell *cell = &row->cells[c];
					if (!cell->present || cell->status == PG_OK)
						continue;
					pg_row_name(row, name, sizeof(name));
					fputs("<li>", out);
					esc(out, g->cols[c].board);
					fputs(", ", out);
					esc(out, name);
					fputs(": ", out);
					esc(out, cell->reason ? cell->reason : "no reason given");
					fputs("</li>\n", out);
				}
			}
			fputs("</ol>\n", out);
		}
		fputs("</section>\n", out);
	}
	fputs("</body>\n</html>\n", out);
	free(used);
	return ferror(out) ? -1 : 0;
}
