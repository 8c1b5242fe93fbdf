/*
 * The guide's writers, one file per format, and the walk that drives them:
 * the walker (walk.c) goes through the guide once, builds each table
 * (table.h) and hands it to the writer; a writer only prints.
 */
#ifndef PG_WRITER_H
#define PG_WRITER_H

#include <stdio.h>

#include "guide.h"
#include "table.h"

struct pg_walk {
	const struct pg_guide *g;
	FILE *out;
	void *priv;			/* the writer's own state */
};

struct pg_writer {
	const char *name;		/* what --format takes: "md" */
	unsigned table_opts;		/* PG_TABLE_*: how it wants its tables */
	int (*begin)(struct pg_walk *w);
	void (*machines)(struct pg_walk *w, const struct pg_table *t);
	/* With a baseline: the summary, before the sections. */
	void (*summary)(struct pg_walk *w, const struct pg_table *t);
	void (*section)(struct pg_walk *w, int s, const struct pg_table *t);
	/* Returns 0, or -1 when writing failed. */
	int (*end)(struct pg_walk *w);
};

extern const struct pg_writer pg_writer_md, pg_writer_rst, pg_writer_csv, pg_writer_json, pg_writer_html;

/* The writer of a format name; NULL when there is none. */
const struct pg_writer *pg_writer_find(const char *name);
/* "md, rst, csv, json or html" */
const char *pg_writer_names(void);

/* Text from results in each format (escape.c): control characters as
 * spaces; md and rst escape what would be markup, and with block set also
 * a first character that would start a list, a heading or a directive. */
void pg_md_text(FILE *out, const char *s, int block);
void pg_rst_text(FILE *out, const char *s, int block);
/* pg_rst_text into a malloc'd string (NULL: out of memory). */
char *pg_rst_string(const char *s, int block);
/* A csv field in double quotes (csv, and rst's csv-table). */
void pg_csv_quote(FILE *out, const char *s);
/* The same for text a spreadsheet must not take for a formula (=, +, -, @
 * first get a quote mark before them). */
void pg_csv_text(FILE *out, const char *s);

/* Every table of the guide through writer wr; -1 when out of memory or
 * writing failed. */
int pg_guide_write(const struct pg_guide *g, const struct pg_writer *wr, FILE *out);

#endif
