/* SPDX-License-Identifier: MIT */
#include "plots.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/record_json.h"
#include "core/stats.h"
#include "core/text.h"
#include "table.h"

/* A row on a plot: its x, and the value of the parameter its line is for. */
struct point {
	int row;
	double x;
	char series[64];
	double sv;
};

/* The rows of one plot: same benchmark, metric and other parameters. */
struct group {
	char key[700];
	char param[64];		/* x */
	char rest[300];		/* the other parameters, canonical JSON */
	const struct pg_grow *first;
	struct point *pts;
	int n, cap, count;
	int shown;		/* x as the section shows its rows (rows_shown): a number each */
};

struct groups {
	struct group *g;
	int n;
};

static int is_pow2(double v)
{
	if (!(v > 0) || v != floor(v) || v > 9e15)
		return 0;
	uint64_t u = (uint64_t)v;
	return (u & (u - 1)) == 0;
}

static void groups_free(struct groups *gs)
{
	for (int i = 0; i < gs->n; i++)
		free(gs->g[i].pts);
	free(gs->g);
	gs->g = NULL;
	gs->n = 0;
}

/* Charts in one section at most: beyond, its rows are drawn as bars. */
#define MAX_PLOTS 256

/* The group for (row, x parameter, the rest); created when create is set.
 * across: of every benchmark of the section (a line per benchmark). */
static struct group *group_of(struct groups *gs, const struct pg_grow *row, const char *param, const char *rest,
			      int create, int across)
{
	char key[700];
	snprintf(key, sizeof(key), "%s|%s|%s|%s", across ? "*" : row->bench, row->metric, param, rest);
	for (int i = 0; i < gs->n; i++)
		if (strcmp(gs->g[i].key, key) == 0)
			return &gs->g[i];
	if (!create || gs->n >= MAX_PLOTS)
		return NULL;
	struct group *n = realloc(gs->g, sizeof(*n) * (size_t)(gs->n + 1));
	if (!n)
		return NULL;
	gs->g = n;
	struct group *g = &n[gs->n++];
	memset(g, 0, sizeof(*g));
	snprintf(g->key, sizeof(g->key), "%s", key);
	pg_text_copy(g->param, sizeof(g->param), param);
	pg_text_copy(g->rest, sizeof(g->rest), rest);
	g->first = row;
	return g;
}

static int add_point(struct group *g, int row, double x, const char *series, double sv)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 8;
		struct point *p = realloc(g->pts, sizeof(*p) * (size_t)g->cap);
		if (!p)
			return -1;
		g->pts = p;
	}
	struct point *p = &g->pts[g->n++];
	p->row = row;
	p->x = x;
	p->sv = sv;
	pg_text_copy(p->series, sizeof(p->series), series);
	return 0;
}

/* The parameters of a row without the named ones and those that say
 * where it ran (the section's place), canonical. */
static char *rest_of(const struct pg_guide *g, int s, json_t *p, const char *a, const char *b)
{
	json_t *rest = json_deep_copy(p), *v;
	const char *k;
	void *tmp;
	json_object_del(rest, a);
	if (b)
		json_object_del(rest, b);
	json_object_foreach_safe(rest, tmp, k, v)
		if (pg_place_param(g, s, k))
			json_object_del(rest, k);
	char *t = pg_json_text(rest);
	json_decref(rest);
	return t;
}

/* The template the section shows rows_by's values with (the first of
 * rows_shown's), where param is rows_by; "" else. */
static void shown_x(const struct pg_section *sec, const char *param, char *buf, size_t len)
{
	buf[0] = '\0';
	if (sec->rows_by && sec->rows_shown && strcmp(sec->rows_by, param) == 0)
		snprintf(buf, len, "%.*s", (int)strcspn(sec->rows_shown, "|"), sec->rows_shown);
}

/* Row r's x: as the section shows it (a frame, not its datagram), so that
 * a chart's axis reads as its table's rows; else the parameter's value. */
static double row_x(const struct pg_guide *g, int s, int r, const char *param, double v, struct group *grp)
{
	char tpl[200];
	double x;
	shown_x(&g->sections[s], param, tpl, sizeof(tpl));
	if (tpl[0] && pg_template_number(tpl, &g->rows[r], &x)) {
		grp->shown = 1;
		return x;
	}
	return v;
}

/* Rows that differ in one integer parameter, three or more of them: first
 * count each candidate, then give each row to the first that has three. */
static int find_sweeps(const struct pg_guide *g, int s, char *used, struct groups *gs)
{
	int first = pg_section_first(g, s);
	for (int pass = 0; pass < 2; pass++)
		for (int r = first; r < pg_section_end(g, s); r++) {
			const struct pg_grow *row = &g->rows[r];
			if (used[r - first])
				continue;
			json_t *p = json_loads(row->params, 0, NULL), *v;
			const char *k;
			json_object_foreach(p, k, v) {
				if (!json_is_integer(v))
					continue;
				char *rest = rest_of(g, s, p, k, NULL);
				struct group *grp = group_of(gs, row, k, rest ? rest : "", pass == 0, 0);
				free(rest);
				if (pass == 0 && grp)
					grp->count++;
				if (pass == 1 && grp && grp->count >= 3) {
					if (add_point(grp, r, row_x(g, s, r, k, (double)json_integer_value(v), grp), "", 0) < 0)
						break;
					used[r - first] = 1;
					break;
				}
			}
			json_decref(p);
		}
	return 0;
}

/* A benchmark's id less its group: "crypto.aes-128-cbc" -> "aes-128-cbc". */
static const char *short_id(const char *id)
{
	const char *dot = strchr(id, '.');
	return dot && dot[1] ? dot + 1 : id;
}

/* Drops from p the parameters keep lacks (but x). */
static void keep_only(json_t *p, json_t *keep, const char *x)
{
	const char *k;
	json_t *v;
	void *tmp;
	json_object_foreach_safe(p, tmp, k, v)
		if (!json_object_get(keep, k) && !(x && strcmp(k, x) == 0))
			json_object_del(p, k);
}

/* The parameters every row of section s (not used yet) has. */
static json_t *common_params(const struct pg_guide *g, int s, const char *used)
{
	json_t *common = NULL;
	for (int r = pg_section_first(g, s); r < pg_section_end(g, s); r++) {
		if (used[r - pg_section_first(g, s)])
			continue;
		json_t *p = json_loads(g->rows[r].params, 0, NULL);
		if (!common) {
			common = p;
			continue;
		}
		keep_only(common, p, NULL);
		json_decref(p);
	}
	return common ? common : json_object();
}

/* Whether a group's rest (canonical JSON) has every parameter of rest
 * with the same value. */
static int rest_within(const char *rest, const char *group_rest)
{
	json_t *a = json_loads(rest, 0, NULL), *b = json_loads(group_rest, 0, NULL), *v;
	const char *k;
	int in = a && b;
	json_object_foreach(a, k, v)
		in &= json_equal(json_object_get(b, k), v);
	json_decref(a);
	json_decref(b);
	return in;
}

/* A row with fewer parameters than others of its benchmark (a published
 * table's: its size alone) joins the group of a fuller row that join.c
 * picks of those it agrees with, as it joins that row's column in the
 * table (pivot.c). */
static struct group *group_joined(struct groups *gs, const struct pg_grow *row, const char *param, const char *rest)
{
	struct group *grp = group_of(gs, row, param, rest, 0, 0);
	int *how = grp ? NULL : calloc((size_t)gs->n + 1, sizeof(int));
	for (int i = 0; how && i < gs->n; i++) {
		const struct pg_grow *o = gs->g[i].first;
		how[i] = PG_JOIN_NO;
		if (strcmp(o->bench, row->bench) == 0 && strcmp(o->metric, row->metric) == 0 &&
		    strcmp(gs->g[i].param, param) == 0 && rest_within(rest, gs->g[i].rest))
			how[i] = pg_row_joins(row->bench, rest, gs->g[i].rest);
	}
	int i = how ? pg_join_pick(how, gs->n) : -1;
	free(how);
	if (i >= 0)
		grp = &gs->g[i];
	return grp ? grp : group_of(gs, row, param, rest, 1, 0);
}

/* Row r on the section's declared plot; 1 when it has a number for x. */
static int declared_row(const struct pg_guide *g, int s, int r, json_t *common, int across, struct groups *gs)
{
	const struct pg_section *sec = &g->sections[s];
	const struct pg_grow *row = &g->rows[r];
	json_t *p = json_loads(row->params, 0, NULL);
	json_t *x = json_object_get(p, sec->plot_x);
	json_t *sv = sec->plot_series ? json_object_get(p, sec->plot_series) : NULL;
	if (common)	/* a cipher's op: a digest has none, it is no other plot */
		keep_only(p, common, sec->plot_x);
	char *rest = json_is_number(x) ? rest_of(g, s, p, sec->plot_x, sec->plot_series) : NULL;
	struct group *grp = !rest ? NULL
		: sec->rows_bench && !across ? group_joined(gs, row, sec->plot_x, rest)
					      : group_of(gs, row, sec->plot_x, rest, 1, across);
	char series[64] = "";
	if (across)
		pg_text_copy(series, sizeof(series), short_id(row->bench));
	else if (json_is_string(sv))
		pg_text_copy(series, sizeof(series), json_string_value(sv));
	else if (json_is_number(sv))
		snprintf(series, sizeof(series), "%g", json_number_value(sv));
	int in = grp && add_point(grp, r, row_x(g, s, r, sec->plot_x, json_number_value(x), grp), series,
				  json_is_number(sv) && !across ? json_number_value(sv) : NAN) == 0;
	free(rest);
	json_decref(p);
	return in;
}

/* How many parameters row r has. */
static int nparams_of(const struct pg_grow *row)
{
	json_t *p = json_loads(row->params, 0, NULL);
	int n = (int)json_object_size(p);
	json_decref(p);
	return n;
}

/* The section's declared plot: its x parameter, and the one its lines are
 * for. A section whose rows are (benchmark, value) draws one board's
 * benchmarks on one plot, a line each; several boards, a plot per
 * benchmark with a line per board, rows with more parameters first (a
 * published table's row joins a measured one's plot). */
static int find_declared(const struct pg_guide *g, int s, char *used, struct groups *gs)
{
	const struct pg_section *sec = &g->sections[s];
	int across = sec->rows_bench && g->ncols == 1, most = 0;
	int first = pg_section_first(g, s), end = pg_section_end(g, s);
	json_t *common = across ? common_params(g, s, used) : NULL;
	for (int r = first; !across && r < end; r++)	/* across: one plot, lines as the rows come */
		if (!used[r - first] && nparams_of(&g->rows[r]) > most)
			most = nparams_of(&g->rows[r]);
	for (int level = most; level >= 0; level--)
		for (int r = first; r < end; r++)
			if (!used[r - first] && (across || nparams_of(&g->rows[r]) == level) &&
			    declared_row(g, s, r, common, across, gs))
				used[r - first] = 1;
	json_decref(common);
	return across;
}

/* The distinct x values, ascending, and how each prints. */
static int plot_xs(struct pg_plot *p, const struct group *grp)
{
	p->xs = malloc(sizeof(double) * (size_t)grp->n);
	p->xticks = malloc(sizeof(*p->xticks) * (size_t)grp->n);
	if (!p->xs || !p->xticks)
		return -1;
	for (int i = 0; i < grp->n; i++)
		p->xs[i] = grp->pts[i].x;
	qsort(p->xs, (size_t)grp->n, sizeof(double), pg_cmp_double);
	p->nx = 0;
	int pow2 = 1;
	for (int i = 0; i < grp->n; i++) {
		if (p->nx && p->xs[p->nx - 1] == p->xs[i])
			continue;
		double x = p->xs[p->nx++] = p->xs[i];
		pow2 &= is_pow2(x);
		char one[96], disp[160];
		if (grp->shown) {	/* as the table's rows read: 1518, 16384 */
			snprintf(p->xticks[p->nx - 1], sizeof(p->xticks[0]), "%g", x);
			continue;
		}
		snprintf(one, sizeof(one), "{\"%s\":%.17g}", grp->param, x);
		if (x == floor(x) && fabs(x) < 9e15)
			snprintf(one, sizeof(one), "{\"%s\":%.0f}", grp->param, x);
		pg_params_display(grp->first->bench, one, disp, sizeof(disp));
		const char *eq = strchr(disp, '=');
		pg_text_copy(p->xticks[p->nx - 1], sizeof(p->xticks[0]), eq ? eq + 1 : disp);
	}
	/* sizes by powers of two, or values over more than a decade */
	p->logx = pow2 || (p->xs[0] > 0 && p->xs[p->nx - 1] / p->xs[0] > 10);
	return 0;
}

/* One line: the points of series sk (NULL: all) in column c, by x. */
static int plot_line(const struct pg_guide *g, const struct group *grp, const char *sk, int c, struct pg_series *ln)
{
	ln->x = malloc(sizeof(double) * (size_t)grp->n);
	ln->y = malloc(sizeof(double) * (size_t)grp->n);
	ln->lo = malloc(sizeof(double) * (size_t)grp->n);
	ln->hi = malloc(sizeof(double) * (size_t)grp->n);
	if (!ln->x || !ln->y || !ln->lo || !ln->hi)
		return -1;
	for (int i = 0; i < grp->n; i++) {
		const struct pg_gcell *cell = &g->rows[grp->pts[i].row].cells[c];
		if ((sk && strcmp(grp->pts[i].series, sk) != 0) || !pg_cell_ok(cell))
			continue;
		int k = ln->n++;
		for (; k > 0 && ln->x[k - 1] > grp->pts[i].x; k--) {
			ln->x[k] = ln->x[k - 1];
			ln->y[k] = ln->y[k - 1];
			ln->lo[k] = ln->lo[k - 1];
			ln->hi[k] = ln->hi[k - 1];
		}
		ln->x[k] = grp->pts[i].x;
		ln->y[k] = cell->median;
		ln->lo[k] = cell->min;
		ln->hi[k] = cell->max;
	}
	return 0;
}

/* The values of the series parameter, numbers ascending, else as they came. */
static int series_values(const struct group *grp, const struct point **vals)
{
	int n = 0;
	for (int i = 0; i < grp->n; i++) {
		int seen = 0;
		for (int k = 0; k < n && !seen; k++)
			seen = strcmp(vals[k]->series, grp->pts[i].series) == 0;
		if (seen)
			continue;
		int k = n++;
		for (; k > 0 && !isnan(grp->pts[i].sv) && vals[k - 1]->sv > grp->pts[i].sv; k--)
			vals[k] = vals[k - 1];
		vals[k] = &grp->pts[i];
	}
	return n;
}

/* The labels' common start, without a trailing separator ("bw_mem-fcp"
 * of bw_mem-fcp-1mb ... bw_mem-fcp-16mb); "" when a point has no label or
 * they share too little to name them. */
static void labels_prefix(const struct pg_guide *g, const struct group *grp, char *buf, size_t len)
{
	const char *a = g->rows[grp->pts[0].row].label;
	size_t n = a ? strlen(a) : 0;
	for (int i = 1; i < grp->n && n; i++) {
		const char *b = g->rows[grp->pts[i].row].label;
		size_t k = 0;
		while (b && k < n && a[k] == b[k])
			k++;
		n = b ? k : 0;
	}
	while (n > 0 && strchr("-_ .,:", a[n - 1]))
		n--;
	while (n > 0 && ((unsigned char)a[n] & 0xc0) == 0x80)
		n--;
	snprintf(buf, len, "%.*s", n >= 3 ? (int)n : 0, a ? a : "");
}

/* Whether a board has a figure of the row: one no board has (every
 * result skipped) is on no chart, and no chart needs telling from it. */
static int row_drawn(const struct pg_guide *g, const struct pg_grow *row)
{
	for (int c = 0; c < g->ncols; c++)
		if (pg_cell_ok(&row->cells[c]))
			return 1;
	return 0;
}

/* The parameters of the group's rest that tell it from other rows of its
 * benchmark (across: of any) in the section, displayed. */
static void rest_shown(const struct pg_guide *g, int s, const struct group *grp, int across, char *buf, size_t len)
{
	json_t *mine = json_loads(grp->rest, 0, NULL), *keep = json_object(), *v;
	const char *k;
	json_object_foreach(mine, k, v) {
		/* where it ran, and what the section's tables name: not here */
		int differs = 0;
		if (pg_place_param(g, s, k) || pg_template_names(g->sections[s].tables, k))
			continue;
		for (int r = pg_section_first(g, s); r < pg_section_end(g, s) && !differs; r++) {
			const struct pg_grow *o = &g->rows[r];
			if ((!across && strcmp(o->bench, grp->first->bench) != 0) || !row_drawn(g, o))
				continue;
			json_t *p = json_loads(o->params, 0, NULL), *w = json_object_get(p, k);
			/* a published table's row, without it, says nothing of it */
			differs = !(g->sections[s].rows_bench && !w) && !json_equal(w, v);
			json_decref(p);
		}
		if (differs)
			json_object_set(keep, k, v);
	}
	char *t = pg_json_text(keep);
	pg_params_display(grp->first->bench, t ? t : "{}", buf, len);
	free(t);
	json_decref(keep);
	json_decref(mine);
}

/* A title a reader knows the figures by: the labels the rows share, else
 * the benchmark's title (across benchmarks: the section's), the metric as
 * the section names it, and the parameters that tell the plot apart. */
static void plot_title(const struct pg_guide *g, int s, const struct group *grp, int across, const char *table,
		       struct pg_plot *p)
{
	const struct pg_grow *first = grp->first;
	char name[300], mt[120], rest[200];
	const char *metric = pg_metric_title(g, s, first->metric, mt, sizeof(mt));
	labels_prefix(g, grp, name, sizeof(name));
	int by_label = !across && name[0];
	if (across)
		pg_text_copy(name, sizeof(name), g->sections[s].title);
	else if (!by_label)
		pg_text_copy(name, sizeof(name), first->title ? first->title : first->bench);
	/* labels name the metric, unless the section names it otherwise */
	if ((by_label && metric == first->metric) || pg_has_word(name, metric))
		metric = "";
	rest_shown(g, s, grp, across, rest, sizeof(rest));
	if (!rest[0] && table)	/* what tells its table from the section's others */
		pg_text_copy(rest, sizeof(rest), table);
	if ((size_t)snprintf(p->title, sizeof(p->title), "%s%s%s%s%s%s", name, metric[0] ? ": " : "", metric,
			     rest[0] ? " (" : "", rest, rest[0] ? ")" : "") >= sizeof(p->title))
		pg_utf8_trim(p->title);
	/* the axis of the table's rows: "Frame size (bytes)" */
	char axis[200] = "";
	if (grp->shown && g->sections[s].rows_title)
		snprintf(axis, sizeof(axis), "%.*s", (int)strcspn(g->sections[s].rows_title, "|"),
			 g->sections[s].rows_title);
	pg_text_copy(p->xlabel, sizeof(p->xlabel), axis[0] ? axis : grp->param);
	if ((size_t)snprintf(p->ylabel, sizeof(p->ylabel), "%s%s%s%s", pg_metric_title(g, s, first->metric, mt, sizeof(mt)),
			     first->unit && first->unit[0] ? " (" : "", first->unit ? first->unit : "",
			     first->unit && first->unit[0] ? ")" : "") >= sizeof(p->ylabel))
		pg_utf8_trim(p->ylabel);
	p->note = first->higher ? "higher is better" : "lower is better";
}

static int make_plot(const struct pg_guide *g, int s, const struct group *grp, const char *series_param, int across,
		     const char *table, struct pg_plot *p)
{
	memset(p, 0, sizeof(*p));
	plot_title(g, s, grp, across, table, p);
	const struct point **vals = malloc(sizeof(*vals) * (size_t)grp->n);
	int nv = series_param && vals ? series_values(grp, vals) : 1;
	p->s = calloc((size_t)nv * (size_t)g->ncols + 1, sizeof(*p->s));
	if (!vals || !p->s || plot_xs(p, grp) < 0) {
		free(vals);
		return -1;
	}
	for (int v = 0; v < nv; v++)
		for (int c = 0; c < g->ncols; c++) {
			struct pg_series *ln = &p->s[p->ns++];
			const char *sk = series_param ? vals[v]->series : NULL;
			ln->color = series_param ? v : c;
			ln->dash = series_param ? c : 0;
			if (!series_param)
				snprintf(ln->name, sizeof(ln->name), "%s", g->cols[c].name);
			else if (across)
				snprintf(ln->name, sizeof(ln->name), "%s", sk);
			else if (g->ncols > 1)
				snprintf(ln->name, sizeof(ln->name), "%s, %s=%s", g->cols[c].name, series_param, sk);
			else
				snprintf(ln->name, sizeof(ln->name), "%s=%s", series_param, sk);
			pg_utf8_trim(ln->name);
			if (plot_line(g, grp, sk, c, ln) < 0) {
				free(vals);
				return -1;
			}
		}
	free(vals);
	return 0;
}

/* What tells the table of the group's figures from the section's other
 * tables ("psync, queue depth 1"); NULL: nothing. */
static const char *group_table(const struct pg_guide *g, const struct pg_parts *p, const struct group *grp)
{
	for (int i = 0; p->n > 1 && i < grp->n; i++)
		for (int c = 0; c < g->ncols; c++) {
			int t = p->of[(size_t)(grp->pts[i].row - p->first) * (size_t)g->ncols + (size_t)c];
			const char *colon = t >= 0 ? strstr(p->name[t], ": ") : NULL;
			if (t >= 0)
				return colon ? colon + 2 : NULL;
		}
	return NULL;
}

int pg_section_plots(const struct pg_guide *g, int s, char *used, struct pg_plot **out, int *n)
{
	const struct pg_section *sec = &g->sections[s];
	struct groups gs = { 0 };
	int across = 0;
	*out = NULL;
	*n = 0;
	if (sec->plot_x)
		across = find_declared(g, s, used, &gs);
	else
		find_sweeps(g, s, used, &gs);
	const char *series = across ? "algorithm" : sec->plot_x ? sec->plot_series : NULL;
	struct pg_plot *p = calloc((size_t)gs.n + 1, sizeof(*p));
	struct pg_parts parts;
	int rc = p && pg_section_parts(g, s, &parts) == 0 ? 0 : -1;
	for (int i = 0; rc == 0 && i < gs.n; i++) {
		if (gs.g[i].n == 0)
			continue;
		rc = make_plot(g, s, &gs.g[i], series, across, group_table(g, &parts, &gs.g[i]), &p[*n]);
		/* a plot of rows that were all skipped, or of one figure
		 * throughout (a process's CPU share at 100%): no chart */
		if (rc == 0 && (!pg_plot_has_points(&p[*n]) || pg_plot_constant(&p[*n])))
			pg_plot_free(&p[*n]);
		else
			(*n)++;
	}
	pg_parts_free(&parts);
	groups_free(&gs);
	*out = p;
	return rc;
}

void pg_plots_free(struct pg_plot *p, int n)
{
	for (int i = 0; i < n; i++)
		pg_plot_free(&p[i]);
	free(p);
}
