#include "plots.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/record_json.h"
#include "core/text.h"

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

/* The group for (row, x parameter, the rest); created when create is set. */
static struct group *group_of(struct groups *gs, const struct pg_grow *row, const char *param, const char *rest,
			      int create)
{
	char key[700];
	snprintf(key, sizeof(key), "%s|%s|%s|%s", row->bench, row->metric, param, rest);
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

/* The parameters of a row without the named ones, canonical. */
static char *rest_of(json_t *p, const char *a, const char *b)
{
	json_t *rest = json_deep_copy(p);
	json_object_del(rest, a);
	if (b)
		json_object_del(rest, b);
	char *t = pg_json_text(rest);
	json_decref(rest);
	return t;
}

/* Rows that differ in one integer parameter, three or more of them: first
 * count each candidate, then give each row to the first that has three. */
static int find_sweeps(const struct pg_guide *g, int s, char *used, struct groups *gs)
{
	for (int pass = 0; pass < 2; pass++)
		for (int r = 0; r < g->nrows; r++) {
			const struct pg_grow *row = &g->rows[r];
			if (row->section != s || used[r])
				continue;
			json_t *p = json_loads(row->params, 0, NULL), *v;
			const char *k;
			json_object_foreach(p, k, v) {
				if (!json_is_integer(v))
					continue;
				char *rest = rest_of(p, k, NULL);
				struct group *grp = group_of(gs, row, k, rest ? rest : "", pass == 0);
				free(rest);
				if (pass == 0 && grp)
					grp->count++;
				if (pass == 1 && grp && grp->count >= 3) {
					if (add_point(grp, r, (double)json_integer_value(v), "", 0) < 0)
						break;
					used[r] = 1;
					break;
				}
			}
			json_decref(p);
		}
	return 0;
}

/* The section's declared plot: its x parameter, and the one its lines are for. */
static int find_declared(const struct pg_guide *g, int s, char *used, struct groups *gs)
{
	const struct pg_section *sec = &g->sections[s];
	for (int r = 0; r < g->nrows; r++) {
		const struct pg_grow *row = &g->rows[r];
		if (row->section != s || used[r])
			continue;
		json_t *p = json_loads(row->params, 0, NULL);
		json_t *x = json_object_get(p, sec->plot_x);
		json_t *sv = sec->plot_series ? json_object_get(p, sec->plot_series) : NULL;
		char *rest = json_is_number(x) ? rest_of(p, sec->plot_x, sec->plot_series) : NULL;
		struct group *grp = rest ? group_of(gs, row, sec->plot_x, rest, 1) : NULL;
		char series[64] = "";
		if (json_is_string(sv))
			pg_text_copy(series, sizeof(series), json_string_value(sv));
		else if (json_is_number(sv))
			snprintf(series, sizeof(series), "%g", json_number_value(sv));
		if (grp && add_point(grp, r, json_number_value(x), series,
				     json_is_number(sv) ? json_number_value(sv) : NAN) == 0)
			used[r] = 1;
		free(rest);
		json_decref(p);
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
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
	qsort(p->xs, (size_t)grp->n, sizeof(double), cmp_double);
	p->nx = 0;
	p->logx = 1;
	for (int i = 0; i < grp->n; i++) {
		if (p->nx && p->xs[p->nx - 1] == p->xs[i])
			continue;
		double x = p->xs[p->nx++] = p->xs[i];
		p->logx &= is_pow2(x);
		char one[96], disp[160];
		snprintf(one, sizeof(one), "{\"%s\":%.17g}", grp->param, x);
		if (x == floor(x) && fabs(x) < 9e15)
			snprintf(one, sizeof(one), "{\"%s\":%.0f}", grp->param, x);
		pg_params_display(grp->first->bench, one, disp, sizeof(disp));
		const char *eq = strchr(disp, '=');
		pg_text_copy(p->xticks[p->nx - 1], sizeof(p->xticks[0]), eq ? eq + 1 : disp);
	}
	return 0;
}

/* One line: the points of series sk (NULL: all) in column c, by x. */
static int plot_line(const struct pg_guide *g, const struct group *grp, const char *sk, int c, struct pg_series *ln)
{
	ln->x = malloc(sizeof(double) * (size_t)grp->n);
	ln->y = malloc(sizeof(double) * (size_t)grp->n);
	if (!ln->x || !ln->y)
		return -1;
	for (int i = 0; i < grp->n; i++) {
		const struct pg_gcell *cell = &g->rows[grp->pts[i].row].cells[c];
		if ((sk && strcmp(grp->pts[i].series, sk) != 0) || !pg_cell_ok(cell))
			continue;
		int k = ln->n++;
		for (; k > 0 && ln->x[k - 1] > grp->pts[i].x; k--) {
			ln->x[k] = ln->x[k - 1];
			ln->y[k] = ln->y[k - 1];
		}
		ln->x[k] = grp->pts[i].x;
		ln->y[k] = cell->median;
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

static int make_plot(const struct pg_guide *g, const struct group *grp, const char *series_param, struct pg_plot *p)
{
	const struct pg_grow *first = grp->first;
	char rest[200];
	memset(p, 0, sizeof(*p));
	pg_params_display(first->bench, grp->rest, rest, sizeof(rest));
	snprintf(p->title, sizeof(p->title), "%s %s%s%s", first->bench, first->metric, rest[0] ? ", " : "", rest);
	pg_text_copy(p->xlabel, sizeof(p->xlabel), grp->param);
	pg_utf8_trim(p->title);
	snprintf(p->ylabel, sizeof(p->ylabel), "%s%s%s%s", first->metric, first->unit && first->unit[0] ? " (" : "",
		 first->unit ? first->unit : "", first->unit && first->unit[0] ? ")" : "");
	const struct point **vals = malloc(sizeof(*vals) * (size_t)grp->n);
	int nv = series_param && vals ? series_values(grp, vals) : 1;
	pg_utf8_trim(p->ylabel);
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
				snprintf(ln->name, sizeof(ln->name), "%s", g->cols[c].board);
			else if (g->ncols > 1)
				snprintf(ln->name, sizeof(ln->name), "%s, %s=%s", g->cols[c].board, series_param, sk);
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

int pg_section_plots(const struct pg_guide *g, int s, char *used, struct pg_plot **out, int *n)
{
	const struct pg_section *sec = &g->sections[s];
	struct groups gs = { 0 };
	*out = NULL;
	*n = 0;
	if (sec->plot_x)
		find_declared(g, s, used, &gs);
	else
		find_sweeps(g, s, used, &gs);
	struct pg_plot *p = calloc((size_t)gs.n + 1, sizeof(*p));
	int rc = p ? 0 : -1;
	for (int i = 0; rc == 0 && i < gs.n; i++) {
		if (gs.g[i].n == 0)
			continue;
		rc = make_plot(g, &gs.g[i], sec->plot_x ? sec->plot_series : NULL, &p[*n]);
		(*n)++;
	}
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
