/* SPDX-License-Identifier: MIT */
/* The guide in Markdown: a pipe table per section, its notes as a list, its
 * charts as SVG files beside the guide. */
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
	if (t->doubts)
		fputs("- " PG_DOUBT_MARK ": a figure to doubt; its note says why.\n", out);
	if (t->legend) {
		fputs("- ", out);
		pg_md_text(out, t->legend, 0);
		fputc('\n', out);
	}
	if (t->nnotes || t->legend || t->doubts)
		fputc('\n', out);
}

static void md_heading(FILE *out, const char *hashes, const char *title, const char *intro)
{
	if (hashes) {
		fprintf(out, "%s ", hashes);
		pg_md_text(out, title, 0);
		fputs("\n\n", out);
	}
	if (intro) {
		pg_md_text(out, intro, 1);
		fputs("\n\n", out);
	}
}

static int md_begin(struct pg_walk *w)
{
	md_heading(w->out, "#", w->title, w->about);
	for (int i = 0; i < w->ntoc; i++) {
		fputs("- [", w->out);
		pg_md_text(w->out, w->toc[i].title, 0);
		fprintf(w->out, "](#%s)\n", w->toc[i].anchor);
	}
	fputc('\n', w->out);
	return 0;
}

static void md_chart(struct pg_walk *w, const char *file, const char *title)
{
	fputs("![", w->out);
	pg_md_text(w->out, title, 0);
	/* the file's name is made of safe characters (report.c) */
	fprintf(w->out, "](%s)\n\n", file);
}

static void md_section(struct pg_walk *w, int s, const struct pg_table *t)
{
	if (t->heading == 1 || t->heading == 2)
		md_heading(w->out, t->heading == 1 ? "##" : "###", t->title, t->intro);
	if (t->heading && t->sub[0])	/* one of the section's tables */
		md_heading(w->out, "###", t->sub, t->sub_intro);
	else if (t->heading && t->sub_intro)
		md_heading(w->out, NULL, NULL, t->sub_intro);
	md_table(w->out, t);
	md_notes(w->out, t);
	if (t->last && t->part == 0)
		pg_charts_to_files(w, s, md_chart);
}

static void md_machines(struct pg_walk *w, const struct pg_table *t)
{
	md_heading(w->out, "##", t->title, t->intro);
	md_table(w->out, t);
	md_notes(w->out, t);
}

static void md_summary(struct pg_walk *w, const struct pg_table *t)
{
	md_heading(w->out, "##", t->title, t->intro);
	pg_charts_to_files(w, -1, md_chart);
	md_table(w->out, t);
	md_notes(w->out, t);
}

/* A piece of a notice: a command as typed, in a code span. */
static void md_piece(void *ctx, const char *piece, int code)
{
	if (code)
		fprintf(ctx, "`%s`", piece);
	else
		pg_md_text(ctx, piece, 0);
}

static void md_notice(struct pg_walk *w, const struct pg_notice *n)
{
	md_heading(w->out, "##", n->title, NULL);
	if (n->intro) {
		pg_code_spans(n->intro, md_piece, w->out);
		fputs("\n\n", w->out);
	}
	for (int i = 0; i < n->nitems; i++) {
		fputs("- ", w->out);
		pg_code_spans(n->items[i], md_piece, w->out);
		fputc('\n', w->out);
	}
	fputc('\n', w->out);
}

const struct pg_writer pg_writer_md = {
	.name = "md",
	.table_opts = PG_TABLE_SPLIT,
	.begin = md_begin,
	.machines = md_machines,
	.summary = md_summary,
	.section = md_section,
	.notice = md_notice,
};
