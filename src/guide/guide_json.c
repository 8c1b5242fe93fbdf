/* SPDX-License-Identifier: MIT */
/*
 * The guide as JSON: the machine table, and per section its rows with the
 * numbers (median, min, max, CPU load, and with a baseline each board's
 * ratio and the sections' geometric means), for programs that read guides.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "core/record_json.h"
#include "writer.h"

static json_t *num_or_null(int ok, double v)
{
	return ok && isfinite(v) ? json_real(v) : json_null();
}

static int json_begin(struct pg_walk *w)
{
	json_t *root = json_object();
	struct pg_doubts d;
	w->priv = root;
	json_object_set_new(root, "title", json_string(w->title));
	json_object_set_new(root, "about", json_string(w->about));
	if (w->g->baseline >= 0)
		json_object_set_new(root, "baseline", json_string(w->g->cols[w->g->baseline].name));
	pg_guide_doubts(w->g, &d);
	json_t *o = json_pack("{s:i,s:i}", "figures", d.figures, "doubtful", d.doubtful);
	for (int i = 0; i < PG_DOUBT_KINDS; i++)
		json_object_set_new(o, pg_doubt_name(1u << i), json_integer(d.kind[i]));
	json_object_set_new(root, "doubts", o);
	return root ? 0 : -1;
}

static void json_machines(struct pg_walk *w, const struct pg_table *t)
{
	json_t *machines = json_array();
	for (int c = 1; c < t->ncols; c++) {
		json_t *m = json_object();
		for (int r = 0; r < t->nrows; r++)
			json_object_set_new(m, pg_table_cell(t, r, 0)->text, json_string(pg_table_cell(t, r, c)->text));
		json_object_set_new(m, "board", json_string(w->g->cols[c - 1].board));
		json_object_set_new(m, "column", json_string(t->head[c].text));
		json_array_append_new(machines, m);
	}
	json_object_set_new(w->priv, "machines", machines);
}

static void json_summary(struct pg_walk *w, const struct pg_table *t)
{
	(void)t;
	const struct pg_guide *g = w->g;
	json_t *a = json_array();
	for (int s = 0; s < g->nsections; s++) {
		json_t *o = json_object(), *boards = json_array();
		json_object_set_new(o, "section", json_string(g->sections[s].title));
		for (int c = 0; c < g->ncols; c++) {
			size_t at = (size_t)s * (size_t)g->ncols + (size_t)c;
			if (c == g->baseline)
				continue;
			json_array_append_new(boards, json_pack("{s:s,s:o,s:i}", "board", g->cols[c].name, "geomean",
								num_or_null(g->ngeo[at] > 0, g->geomean[at]), "rows",
								g->ngeo[at]));
		}
		json_object_set_new(o, "boards", boards);
		json_array_append_new(a, o);
	}
	json_object_set_new(w->priv, "summary", a);
}

static json_t *cell_json(const struct pg_guide *g, const struct pg_gcell *cell, int c)
{
	char v[1200];
	json_t *j = json_object();
	json_object_set_new(j, "board", json_string(g->cols[c].name));
	if (!cell->present) {
		json_object_set_new(j, "status", json_null());
		return j;
	}
	int ok = cell->status == PG_OK;
	json_object_set_new(j, "status", json_string(pg_status_name(cell->status)));
	json_object_set_new(j, "median", num_or_null(ok, cell->median));
	json_object_set_new(j, "min", num_or_null(ok, cell->min));
	json_object_set_new(j, "max", num_or_null(ok, cell->max));
	json_object_set_new(j, "busy_pct", num_or_null(cell->have_busy, cell->busy));
	if (cell->reason)
		json_object_set_new(j, "reason", json_string(cell->reason));
	pg_cell_text(cell, v, sizeof(v));
	json_object_set_new(j, "text", json_string(v));
	if (cell->run)
		json_object_set_new(j, "run", json_string(cell->run->id));
	if (ok && cell->doubt) {
		json_t *kinds = json_array();
		for (int i = 0; i < PG_DOUBT_KINDS; i++)
			if (cell->doubt & (1u << i))
				json_array_append_new(kinds, json_string(pg_doubt_name(1u << i)));
		json_object_set_new(j, "doubt", kinds);
		pg_doubt_text(cell, v, sizeof(v));
		json_object_set_new(j, "doubt_note", json_string(v));
	}
	if (g->baseline >= 0) {
		json_object_set_new(j, "ratio", num_or_null(cell->have_ratio, cell->ratio));
		json_object_set_new(j, "overlap", json_boolean(cell->have_ratio && cell->overlap));
	}
	return j;
}

static json_t *row_json(const struct pg_guide *g, const struct pg_grow *row)
{
	char v[400];
	json_t *o = json_object(), *cells = json_array();
	pg_row_name(row, v, sizeof(v));
	json_object_set_new(o, "name", json_string(v));
	json_object_set_new(o, "bench", json_string(row->bench));
	json_object_set_new(o, "params", json_loads(row->params, 0, NULL));
	json_object_set_new(o, "metric", json_string(row->metric));
	json_object_set_new(o, "unit", json_string(row->unit ? row->unit : ""));
	json_object_set_new(o, "better", json_string(pg_better_name(row->higher)));
	for (int c = 0; c < g->ncols; c++)
		json_array_append_new(cells, cell_json(g, &row->cells[c], c));
	json_object_set_new(o, "cells", cells);
	return o;
}

/* A row per result key whatever the layout: rows_by says how to pivot. */
static void json_section(struct pg_walk *w, int s, const struct pg_table *t)
{
	(void)t;
	const struct pg_guide *g = w->g;
	json_t *secs = json_object_get(w->priv, "sections");
	if (!secs) {
		secs = json_array();
		json_object_set_new(w->priv, "sections", secs);
	}
	json_t *so = pg_section_to_json(&g->sections[s]), *rows = json_array();
	char *intro = pg_section_intro(g, s);	/* as the results made it true */
	if (intro)
		json_object_set_new(so, "intro", json_string(intro));
	else
		json_object_del(so, "intro");
	free(intro);
	for (int r = pg_section_first(g, s); r < pg_section_end(g, s); r++)
		json_array_append_new(rows, row_json(g, &g->rows[r]));
	json_object_set_new(so, "rows", rows);
	json_array_append_new(secs, so);
}

static int json_end(struct pg_walk *w)
{
	if (!json_object_get(w->priv, "sections"))
		json_object_set_new(w->priv, "sections", json_array());
	int rc = pg_json_dumpf_safe(w->priv, w->out, JSON_INDENT(1) | JSON_REAL_PRECISION(12));
	fputc('\n', w->out);
	json_decref(w->priv);
	return rc;
}

static void json_notice(struct pg_walk *w, const struct pg_notice *n)
{
	json_t *a = json_object_get(w->priv, "notices"), *items = json_array();
	if (!a) {
		a = json_array();
		json_object_set_new(w->priv, "notices", a);
	}
	for (int i = 0; i < n->nitems; i++)
		json_array_append_new(items, json_string(n->items[i]));
	json_array_append_new(a, json_pack("{s:s,s:s,s:o}", "title", n->title, "intro", n->intro, "items", items));
}

const struct pg_writer pg_writer_json = {
	.name = "json",
	.table_opts = PG_TABLE_FLAT,
	.begin = json_begin,
	.machines = json_machines,
	.summary = json_summary,
	.section = json_section,
	.notice = json_notice,
	.end = json_end,
};
