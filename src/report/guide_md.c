/* The guide in Markdown: a pipe table per section, its notes as a list. */
#include "writer.h"

/* md cells cannot hold a bare |. */
static void md_cell(FILE *out, const char *s)
{
	fputc(' ', out);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputs(" |", out);
}

static void md_table(FILE *out, const struct pg_table *t)
{
	char buf[1200];
	fputc('|', out);
	for (int c = 0; c < t->ncols; c++)
		md_cell(out, t->head[c].text);
	fputs("\n|", out);
	for (int c = 0; c < t->ncols; c++)
		fputs("---|", out);
	fputc('\n', out);
	for (int r = 0; r < t->nrows; r++) {
		fputc('|', out);
		for (int c = 0; c < t->ncols; c++) {
			const struct pg_tcell *tc = pg_table_cell(t, r, c);
			if (tc->note)
				snprintf(buf, sizeof(buf), "%s [%d]", tc->text, tc->note);
			md_cell(out, tc->note ? buf : tc->text);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}

static void md_notes(FILE *out, const struct pg_table *t)
{
	for (int i = 0; i < t->nnotes; i++)
		fprintf(out, "- [%d] %s\n", i + 1, t->notes[i]);
	if (t->legend)
		fprintf(out, "- %s\n", t->legend);
	if (t->nnotes || t->legend)
		fputc('\n', out);
}

static int md_begin(struct pg_walk *w)
{
	fputs("# Performance guide\n\n", w->out);
	return 0;
}

static void md_section(struct pg_walk *w, int s, const struct pg_table *t)
{
	(void)s;
	fprintf(w->out, "## %s\n\n", t->title);
	if (t->intro)
		fprintf(w->out, "%s\n\n", t->intro);
	md_table(w->out, t);
	md_notes(w->out, t);
}

static void md_machines(struct pg_walk *w, const struct pg_table *t)
{
	md_section(w, -1, t);
}

const struct pg_writer pg_writer_md = {
	.name = "md",
	.begin = md_begin,
	.machines = md_machines,
	.summary = md_machines,
	.section = md_section,
};
