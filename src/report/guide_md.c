/* The guide in Markdown: a pipe table per section, its notes as a list. */
#include "writer.h"

static void md_cell(FILE *out, const struct pg_tcell *tc)
{
	fputc(' ', out);
	pg_md_text(out, tc->text, 0);
	if (tc->note)
		fprintf(out, " [%d]", tc->note);
	fputs(" |", out);
}

static void md_table(FILE *out, const struct pg_table *t)
{
	fputc('|', out);
	for (int c = 0; c < t->ncols; c++)
		md_cell(out, &t->head[c]);
	fputs("\n|", out);
	for (int c = 0; c < t->ncols; c++)
		fputs("---|", out);
	fputc('\n', out);
	for (int r = 0; r < t->nrows; r++) {
		fputc('|', out);
		for (int c = 0; c < t->ncols; c++)
			md_cell(out, pg_table_cell(t, r, c));
		fputc('\n', out);
	}
	fputc('\n', out);
}

static void md_notes(FILE *out, const struct pg_table *t)
{
	for (int i = 0; i < t->nnotes; i++) {
		fprintf(out, "- [%d] ", i + 1);
		pg_md_text(out, t->notes[i], 0);
		fputc('\n', out);
	}
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
	fputs("## ", w->out);
	pg_md_text(w->out, t->title, 0);
	fputs("\n\n", w->out);
	if (t->intro) {
		pg_md_text(w->out, t->intro, 1);
		fputs("\n\n", w->out);
	}
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
