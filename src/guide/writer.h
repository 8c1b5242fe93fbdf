/* SPDX-License-Identifier: MIT */
/*
 * The guide's writers, one file per format, and the walk that drives them:
 * the walker (walk.c) goes through the guide once, builds each table
 * (table.h) and hands it to the writer; a writer only prints.
 */
#ifndef PG_WRITER_H
#define PG_WRITER_H

#include <stdio.h>

#include "core/escape.h"
#include "core/hash.h"
#include "guide.h"
#include "table.h"

/* A heading of the guide, for its table of contents. */
struct pg_toc_entry {
	char title[200];
	char anchor[200];		/* what md, rst and html link it by */
};

struct pg_walk {
	const struct pg_guide *g;
	FILE *out;
	void *priv;			/* the writer's own state */
	/* The guide's head: its title, a line saying when it was made, by
	 * which perfguide and of which releases, and its table of contents. */
	const char *title;
	char about[800];
	struct pg_toc_entry *toc;
	int ntoc;
	/* Per section, its anchor: unique in the guide, also the slug of its
	 * charts' files, so that no two headings share an html id and no two
	 * sections a chart's file. */
	char (*slugs)[200];
	struct pg_strmap taken;		/* the anchors given so far (walk.c) */
	int failed;			/* something beside the guide (a chart's file) could not be written */
	struct pg_chart_files *chart_files;	/* charts.c's, while charts are written to files */
};

/* Text under a heading of its own: the figures to doubt, the sections
 * nothing was measured in. */
struct pg_notice {
	const char *title;
	const char *intro;
	char **items;			/* a list, one line each */
	int nitems;
};

struct pg_writer {
	const char *name;		/* what --format takes: "md" */
	unsigned table_opts;		/* PG_TABLE_*: how it wants its tables */
	/* Of the guide's --width, the percent its pages hold (Sphinx's
	 * themes: a column of about 930 px in a 1400 px window, a larger
	 * font than the html's); 0: all of it. */
	int width_pct;
	int (*begin)(struct pg_walk *w);
	void (*machines)(struct pg_walk *w, const struct pg_table *t);
	/* With a baseline: the summary, before the sections. */
	void (*summary)(struct pg_walk *w, const struct pg_table *t);
	/* A table of section s: t->heading says whether it starts the
	 * section (1), is its table of other metrics (2), or goes on the one
	 * before (0: the boards that did not fit beside it). */
	void (*section)(struct pg_walk *w, int s, const struct pg_table *t);
	void (*notice)(struct pg_walk *w, const struct pg_notice *n);
	/* Returns 0, or -1 when writing failed. */
	int (*end)(struct pg_walk *w);
};

extern const struct pg_writer pg_writer_md, pg_writer_rst, pg_writer_csv, pg_writer_json, pg_writer_html;

/* The writer of a format name; NULL when there is none. */
const struct pg_writer *pg_writer_find(const char *name);
/* "md, rst, csv, json or html" */
const char *pg_writer_names(void);

/* The anchor a heading is linked by: lower case, words joined by '-' (as
 * GitHub, mkdocs and docutils make them). */
void pg_anchor(const char *title, char *buf, size_t len);
/* The anchor the guide's table of contents gives the heading of this
 * title (unique in the guide); "" when it has none. */
const char *pg_walk_anchor(const struct pg_walk *w, const char *title);

/* md and rst: section s's charts (s < 0: the summary's) as SVG files
 * beside the guide, each referred to by ref(w, file, title) (charts.c). */
void pg_charts_to_files(struct pg_walk *w, int s, void (*ref)(struct pg_walk *w, const char *file, const char *title));
/* The end of the walk's chart files. */
void pg_charts_done(struct pg_walk *w);
/* html: the same inline. */
void pg_charts_inline(struct pg_walk *w, int s);

/* Every table of the guide through writer wr; -1 when out of memory or
 * writing failed, PG_GUIDE_CHART_FAILED when the guide was written but a
 * chart beside it was not (its own message said why). */
#define PG_GUIDE_CHART_FAILED (-3)
int pg_guide_write(const struct pg_guide *g, const struct pg_writer *wr, FILE *out);

#endif
