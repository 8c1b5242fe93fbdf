/* SPDX-License-Identifier: MIT */
/*
 * A pivoted section written as several tables, as the seed's are: the
 * rows of the benchmarks its pivot does not take (rows_of) as they are,
 * first; then a table per value of its `tables` template (storage: one per
 * medium and configuration, "EMMC EXT4: psync, queue depth 1"). The
 * template is filled per figure, from its own result: two boards with the
 * same parameters on different media are in different tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/text.h"
#include "table.h"

#define PART_MAX 300
#define PARTS_MAX 16

/* Whether id is in the comma-separated list. */
static int listed(const char *list, const char *id)
{
	size_t n = strlen(id);
	for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',') {
		while (*p == ' ')
			p++;
		if (strncmp(p, id, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

/* Whether row r of section s goes in its pivoted tables. */
static int pivoted(const struct pg_guide *g, int s, int r)
{
	const struct pg_section *sec = &g->sections[s];
	return sec->rows_by && (!sec->rows_of || listed(sec->rows_of, g->rows[r].bench));
}

/* The template's parts ("; "-separated) filled for one figure, each ""
 * where a placeholder had no value; returns how many parts. */
static int fill_parts(const char *tpl, const struct pg_grow *row, const struct pg_record *x, char (*parts)[PART_MAX])
{
	int n = 0;
	for (const char *p = tpl; p && *p && n < PARTS_MAX; n++) {
		const char *end = strstr(p, "; ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char one[PART_MAX];
		snprintf(one, sizeof(one), "%.*s", (int)len, p);
		if (pg_template_fill(one, row, x, parts[n], PART_MAX) != 0)
			parts[n][0] = '\0';
		p = end ? end + 2 : p + len;
	}
	return n;
}

/* The table of a figure's parts: found, or added. */
static int table_of(struct pg_parts *p, char (*parts)[PART_MAX], int nparts)
{
	for (int i = 0; i < p->n; i++) {
		int same = 1;
		for (int j = 0; j < nparts && same; j++)
			same = strcmp(p->parts[i * PARTS_MAX + j], parts[j]) == 0;
		if (same)
			return i;
	}
	char (*np)[PART_MAX] = realloc(p->parts, sizeof(*np) * PARTS_MAX * (size_t)(p->n + 1));
	if (!np)
		return -3;
	p->parts = np;
	memset(np[p->n * PARTS_MAX], 0, sizeof(*np) * PARTS_MAX);
	memcpy(np[p->n * PARTS_MAX], parts, sizeof(*np) * (size_t)nparts);
	return p->n++;
}

static int assign(const struct pg_guide *g, int s, struct pg_parts *p)
{
	const char *tpl = g->sections[s].tables;
	char parts[PARTS_MAX][PART_MAX] = { { 0 } };
	p->nparts = tpl ? fill_parts(tpl, &g->rows[0], NULL, parts) : 0;
	for (int r = p->first; r < pg_section_end(g, s); r++) {
		const struct pg_grow *row = &g->rows[r];
		for (int c = 0; c < g->ncols; c++) {
			int *at = &p->of[(size_t)(r - p->first) * (size_t)g->ncols + (size_t)c];
			*at = -2;
			if (!pg_row_main(g, row) || !row->cells[c].present)
				continue;
			if (!pivoted(g, s, r)) {
				*at = -1;
				p->flat = 1;
				continue;
			}
			fill_parts(tpl, row, row->cells[c].rec, parts);
			if ((*at = table_of(p, parts, p->nparts)) < -2)
				return -1;
		}
	}
	return 0;
}

/* "name: the parts that tell it from the other tables"; its intro, every
 * part but the name. Where it ran (the place parameters: a path) is a line
 * under the table (table.c), never in these words. */
static void describe(struct pg_parts *p, int i, char *head, char *intro, size_t len)
{
	const char(*mine)[PART_MAX] = &p->parts[i * PARTS_MAX];
	size_t h = (size_t)snprintf(head, len, "%s", mine[0]), at = 0;
	intro[0] = '\0';
	for (int j = 1; j < p->nparts; j++) {
		if (!mine[j][0])
			continue;
		int differs = 0;
		for (int o = 0; o < p->n && !differs; o++)
			differs = strcmp(p->parts[o * PARTS_MAX + j], mine[j]) != 0;
		if (differs && h < len)
			h += (size_t)snprintf(head + h, len - h, "%s%s", h ? (strchr(head, ':') ? ", " : ": ") : "",
					      mine[j]);
		if (at < len)
			at += (size_t)snprintf(intro + at, len - at, "%s%s", at ? ", " : "Settings: ", mine[j]);
	}
	if (at && at < len)
		snprintf(intro + at, len - at, ".");
	pg_utf8_trim(head);
	pg_utf8_trim(intro);
}

int pg_section_parts(const struct pg_guide *g, int s, struct pg_parts *p)
{
	memset(p, 0, sizeof(*p));
	p->first = pg_section_first(g, s);
	p->of = malloc(sizeof(int) * ((size_t)(pg_section_end(g, s) - p->first) * (size_t)g->ncols + 1));
	if (!p->of || assign(g, s, p) < 0)
		return -1;
	p->name = calloc((size_t)p->n + 1, sizeof(char *));
	p->intro = calloc((size_t)p->n + 1, sizeof(char *));
	if (!p->name || !p->intro)
		return -1;
	for (int i = 0; i < p->n; i++) {
		char head[600], intro[600];
		describe(p, i, head, intro, sizeof(head));
		if (!(p->name[i] = strdup(head)) || !(p->intro[i] = strdup(intro)))
			return -1;
	}
	return 0;
}

void pg_parts_free(struct pg_parts *p)
{
	for (int i = 0; p->name && i < p->n; i++)
		free(p->name[i]);
	for (int i = 0; p->intro && i < p->n; i++)
		free(p->intro[i]);
	free(p->name);
	free(p->intro);
	free(p->parts);
	free(p->of);
	memset(p, 0, sizeof(*p));
}

/* The place parameters' values in table i, each board's where they
 * differ: "path /mnt/emmc (am62x), /data (am64x)". */
void pg_parts_place(const struct pg_guide *g, int s, const struct pg_parts *p, int i, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int r = p->first; r < pg_section_end(g, s) && at < len; r++)
		for (int c = 0; c < g->ncols && at < len; c++) {
			if (p->of[(size_t)(r - p->first) * (size_t)g->ncols + (size_t)c] != i)
				continue;
			json_t *o = json_loads(g->rows[r].params, 0, NULL), *v;
			const char *k;
			json_object_foreach(o, k, v) {
				char one[PART_MAX];
				if (!json_is_string(v) || !pg_place_param(g, s, k))
					continue;
				snprintf(one, sizeof(one), "%s %s (%s)", k, json_string_value(v), g->cols[c].name);
				if (!strstr(buf, one) && at < len)
					at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", one);
			}
			json_decref(o);
		}
	pg_utf8_trim(buf);
}
