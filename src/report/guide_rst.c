/* The guide in reStructuredText: the csv-table form the seed guide is written in. */
#include <string.h>

#include "writer.h"

static void rst_title(FILE *out, const char *t, char ch)
{
	fprintf(out, "%s\n", t);
	for (size_t i = strlen(t); i > 0; i--)
		fputc(ch, out);
	fputs("\n\n", out);
}

static void rst_table(FILE *out, const struct pg_table *t)
{
	char buf[1200];
	fprintf(out, ".. csv-table:: %s\n    :header: ", t->caption);
	for (int c = 0; c < t->ncols; c++) {
		if (c)
			fputc(',', out);
		pg_csv_quote(out, t->head[c].text);
	}
	fputs("\n\n", out);
	for (int r = 0; r < t->nrows; r++) {
		fputs("    ", out);
		for (int c = 0; c < t->ncols; c++) {
			const struct pg_tcell *tc = pg_table_cell(t, r, c);
			if (tc->note)
				snprintf(buf, sizeof(buf), "%s [%d]", tc->text, tc->note);
			if (c)
				fputc(',', out);
			pg_csv_quote(out, tc->note ? buf : tc->text);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
	for (int i = 0; i < t->nnotes; i++)
		fprintf(out, "- [%d] %s\n", i + 1, t->notes[i]);
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
	if (t->intro)
		fprintf(w->out, "%s\n\n", t->intro);
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
