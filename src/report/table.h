/*
 * The guide's tables as text, the same for every writer: what the columns
 * are, what each cell says, which cells have a footnote and what the notes
 * say. Every format prints these tables; none decides their content.
 */
#ifndef PG_TABLE_H
#define PG_TABLE_H

#include "guide.h"

enum pg_tkind {
	PG_T_NAME,		/* the row's name (first column) */
	PG_T_VALUE,		/* a board's result */
	PG_T_CPU,		/* a board's CPU load, % */
	PG_T_RATIO,		/* a board against the baseline */
	PG_T_TEXT,		/* anything else (machine facts, a summary) */
};

struct pg_tcell {
	char *text;
	enum pg_tkind kind;
	int col;			/* the guide's column (board); -1: none */
	int note;			/* its footnote's number; 0: none */
	const struct pg_gcell *cell;	/* value and ratio cells: the model's cell */
	const struct pg_grow *row;	/* the model's row, where there is one */
};

struct pg_table {
	const char *title;		/* "Machines", a section's title */
	const char *caption;		/* what rst's csv-table calls it */
	const char *intro;
	int ncols, nrows;
	struct pg_tcell *head;		/* ncols */
	struct pg_tcell *cells;		/* nrows * ncols, row by row */
	char **notes;			/* note n is notes[n - 1] */
	int nnotes;
	/* A line under the table explaining a mark it uses; NULL: none. */
	const char *legend;
	char caption_buf[200];
};

/* Table options a writer asks for. */
#define PG_TABLE_FLAT 0x1	/* a row per result key even where the section pivots */
#define PG_TABLE_ALL_CPU 0x2	/* a CPU-load column per board in every section */

static inline struct pg_tcell *pg_table_cell(const struct pg_table *t, int r, int c)
{
	return &t->cells[(size_t)r * (size_t)t->ncols + (size_t)c];
}

/* Section s of the guide; -1 when out of memory. */
int pg_table_section(const struct pg_guide *g, int s, unsigned opts, struct pg_table *t);
/* The machine table: a row per recorded fact, a column per board. */
int pg_table_machines(const struct pg_guide *g, struct pg_table *t);
/* With a baseline: a row per section, per board the geometric mean of its
 * ratios to the baseline. */
int pg_table_summary(const struct pg_guide *g, struct pg_table *t);
void pg_table_free(struct pg_table *t);

/* Building blocks for the table builders (table.c, machine.c). */
int pg_table_alloc(struct pg_table *t, int nrows, int ncols);
int pg_table_set(struct pg_tcell *c, enum pg_tkind kind, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
