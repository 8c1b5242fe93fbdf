/* SPDX-License-Identifier: MIT */
/*
 * The guide as one csv table for spreadsheets and scripts: a section column,
 * a row per result key (sections that pivot are flat here, their rows named
 * with every parameter that tells them apart), per board its value and CPU
 * load (and its ratio to a baseline). A skipped or failed cell says why in
 * the cell itself, and so does a figure to doubt: csv has no footnotes.
 */
#include "writer.h"

static int csv_begin(struct pg_walk *w)
{
	const struct pg_guide *g = w->g;
	char name[300];
	fputs("section,benchmark", w->out);
	for (int c = 0; c < g->ncols; c++) {
		fputc(',', w->out);
		pg_csv_text(w->out, g->cols[c].name);
		fputc(',', w->out);
		snprintf(name, sizeof(name), "%s CPU %%", g->cols[c].name);
		pg_csv_text(w->out, name);
		if (g->baseline >= 0 && c != g->baseline) {
			snprintf(name, sizeof(name), "%s / %s", g->cols[c].name, g->cols[g->baseline].name);
			fputc(',', w->out);
			pg_csv_text(w->out, name);
		}
	}
	fputc('\n', w->out);
	return 0;
}

static void csv_section(struct pg_walk *w, int s, const struct pg_table *t)
{
	char buf[1200];
	(void)s;
	for (int r = 0; r < t->nrows; r++) {
		pg_csv_text(w->out, t->title);
		for (int c = 0; c < t->ncols; c++) {
			const struct pg_tcell *tc = pg_table_cell(t, r, c);
			const char *text = tc->text;
			if (tc->note) {	/* why it has no figure, or why to doubt it */
				snprintf(buf, sizeof(buf), "%s: %s", tc->text, t->notes[tc->note - 1]);
				text = buf;
			}
			fputc(',', w->out);
			/* the numbers are perfguide's; names and reasons are not */
			if (tc->kind == PG_T_NAME || tc->kind == PG_T_TEXT || text != tc->text)
				pg_csv_text(w->out, text);
			else
				pg_csv_quote(w->out, text);
		}
		fputc('\n', w->out);
	}
}

const struct pg_writer pg_writer_csv = {
	.name = "csv",
	.table_opts = PG_TABLE_FLAT | PG_TABLE_ALL_CPU,
	.begin = csv_begin,
	.section = csv_section,
};
