/* The guide in reStructuredText: the csv-table form the seed guide is written in. */
#include <stdlib.h>
#include <string.h>

#include "writer.h"

static void rst_title(FILE *out, const char *t, char ch)
{
	char *e = pg_rst_string(t, 1);
	fprintf(out, "%s\n", e ? e : "");
	/* the escaped text is at least as wide as the title shows */
	for (size_t i = e ? strlen(e) : 0; i > 0; i--)
		fputc(ch, out);
	fputs("\n\n", out);
	free(e);
}

/* A cell of the csv-table: rst text inside a csv field. docutils reads the
 * :header: option as rst text before it reads its csv (a first round of
 * escapes is taken off there): a header cell is escaped twice. */
static void rst_cell(FILE *out, const struct pg_tcell *tc, int header)
{
	char *e = pg_rst_string(tc->text, 1);
	if (e && header) {
		char *twice = pg_rst_string(e, 0);
		free(e);
		e = twice;
	}
	if (e && tc->note) {
		char *n = NULL;
		if (asprintf(&n, "%s [%d]", e, tc->note) < 0)
			n = NULL;
		free(e);
		e = n;
	}
	pg_csv_quote(out, e ? e : "");
	free(e);
}

static void rst_table(FILE *out, const struct pg_table *t)
{
	fputs(".. csv-table:: ", out);
	pg_rst_text(out, t->caption, 0);
	fputs("\n    :header: ", out);
	for (int c = 0; c < t->ncols; c++) {
		if (c)
			fputc(',', out);
		rst_cell(out, &t->head[c], 1);
	}
	fputs("\n\n", out);
	for (int r = 0; r < t->nrows; r++) {
		fputs("    ", out);
		for (int c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', out);
			rst_cell(out, pg_table_cell(t, r, c), 0);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
	for (int i = 0; i < t->nnotes; i++) {
		fprintf(out, "- [%d] ", i + 1);
		pg_rst_text(out, t->notes[i], 0);
		fputc('\n', out);
	}
	if (t->legend)
		fprintf(out, "- %s\n", t->legend);
	if (t->nnotes || t->legend)
		fputc('\n', out);
}

static int rst_begin(struct pg_walk *w)
{
	rst_title(w->out, "Performance guide", '#');
	return 0;
}

static void rst_section(struct pg_walk *w, int s, const struct pg_table *t)
{
	(void)s;
	rst_title(w->out, t->title, '=');
	if (t->intro) {
		pg_rst_text(w->out, t->intro, 1);
		fputs("\n\n", w->out);
	}
	rst_table(w->out, t);
}

static void rst_machines(struct pg_walk *w, const struct pg_table *t)
{
	rst_section(w, -1, t);
}

const struct pg_writer pg_writer_rst = {
	.name = "rst",
	.begin = rst_begin,
	.machines = rst_machines,
	.summary = rst_machines,
	.section = rst_section,
};
