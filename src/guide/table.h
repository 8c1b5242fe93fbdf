/* SPDX-License-Identifier: MIT */
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
	int doubt;			/* a figure to doubt (marked, its note says why) */
	const struct pg_gcell *cell;	/* value and ratio cells: the model's cell */
	const struct pg_grow *row;	/* the model's row, where there is one */
};

struct pg_table {
	const char *title;		/* "Machines", a section's title */
	const char *caption;		/* what rst's csv-table calls it */
	const char *intro;
	char *intro_text;		/* the intro, where the table owns it */
	int ncols, nrows;
	struct pg_tcell *head;		/* ncols */
	struct pg_tcell *cells;		/* nrows * ncols, row by row */
	char **notes;			/* note n is notes[n - 1] */
	int nnotes;
	/* A line under the table explaining a mark it uses, and what its
	 * pruned columns were (prune.c); NULL: none. */
	const char *legend;
	char *legend_own;		/* legend, where the table made it */
	int pruned_at;			/* 1 + where in legend_own the pruned columns' lines begin; 0: none */
	int doubts;			/* some cell has PG_DOUBT_MARK */
	/* Pivoted: a value column is one figure's (a benchmark and its
	 * parameters) at every row; flat: a board's, a row per figure. */
	int pivoted;
	int part;			/* 0: a section's table; 1: its table of other metrics */
	int heading;			/* 1: starts its section; 2: a sub-heading; 0: goes on the table before */
	int last;			/* the last part of its table (the charts go after it) */
	/* One of the tables a section is written as (parts.c): its heading
	 * under the section's ("" none) and its intro; heading is 3 where it
	 * goes on in a section begun by another. */
	char sub[300];
	char *sub_intro;
	char caption_buf[200];
	char title_buf[200];
};

/* The mark of a figure to doubt, its note saying why. */
#define PG_DOUBT_MARK "\xe2\x80\xa0"
/* The heading of the system-wide CPU load beside a figure, as against a
 * metric that is the process's own CPU share. */
#define PG_CPU_SYSTEM "CPU load (system) %"
/* The same column when it shows perfguide's own share of the CPUs. */
#define PG_CPU_PROCESS "CPU load (perfguide) %"

/* Table options a writer asks for. */
#define PG_TABLE_FLAT 0x1	/* a row per result key even where the section pivots */
#define PG_TABLE_ALL_CPU 0x2	/* a CPU-load column per board in every section */
#define PG_TABLE_OTHER 0x4	/* the section's other metrics (--all-metrics): a row per result key */
#define PG_TABLE_SPLIT 0x8	/* tables wider than the guide's width split by boards */

static inline struct pg_tcell *pg_table_cell(const struct pg_table *t, int r, int c)
{
	return &t->cells[(size_t)r * (size_t)t->ncols + (size_t)c];
}

/* Section s of the guide; -1 when out of memory. */
int pg_table_section(const struct pg_guide *g, int s, unsigned opts, struct pg_table *t);

/* --- parts.c: a section written as several tables --- */
#define PG_PART_MAX 300
#define PG_PARTS_MAX 16
struct pg_parts {
	int n;			/* the pivot's tables, one per value of the section's tables template */
	int flat;		/* figures of benchmarks the pivot leaves out (rows_of): a table first */
	int first;		/* the section's first row */
	int *of;		/* per row of the section and column ((r - first) * ncols + c): its table;
				 * -1 the flat one; -2 none */
	int nparts;		/* the template's parts */
	char (*parts)[PG_PART_MAX];	/* per table, its parts filled (PG_PARTS_MAX each) */
	char **name, **intro;	/* per table: its heading ("": none), its intro */
};
/* Which figures of section s go in which of its tables; -1 out of memory. */
int pg_section_parts(const struct pg_guide *g, int s, struct pg_parts *p);
void pg_parts_free(struct pg_parts *p);
/* The section's intro, as the first of its tables says it. */
int pg_table_intro(const struct pg_guide *g, int s, struct pg_table *t);
/* Table i of the parts (-1: the flat one) as a table of the guide. */
int pg_table_section_part(const struct pg_guide *g, int s, unsigned opts, const struct pg_parts *p, int i,
			  struct pg_table *t);
/* The place parameters' values of table i's figures, each with its board. */
void pg_parts_place(const struct pg_guide *g, int s, const struct pg_parts *p, int i, char *buf, size_t len);

/* --- apart.c: figures a board has once per benchmark (rows_bench) --- */
/* Whether board c's figures of metric (NULL: its CPU load beside) in
 * section s are once per benchmark where its other figures are at more
 * values: the seed's OpenSSL CPU load, a figure per algorithm. */
int pg_apart(const struct pg_guide *g, int s, int c, const char *metric);
/* Those figures as a table, a row per benchmark and a column per board's
 * figure: 0, 1 when there are none, -1 out of memory. */
int pg_table_apart(const struct pg_guide *g, int s, struct pg_table *t);

/* --- template.c: what a section's templates say of a figure --- */
/* Fills template t from a figure's row and result (x may be NULL:
 * parameters only); returns how many placeholders had no value. */
int pg_template_fill(const char *t, const struct pg_grow *row, const struct pg_record *x, char *out, size_t len);
/* The template's text as a number; 0 when it is none. */
int pg_template_number(const char *t, const struct pg_grow *row, double *v);
/* Whether template t has a placeholder of that name. */
int pg_template_names(const char *t, const char *name);
/* The value of key in a note of "key=value; key=value" pairs. */
int pg_note_value(const char *note, const char *key, char *buf, size_t len);

/* Which figures a table holds: those of the section whose
 * of[(r - first) * ncols + c] is part; NULL: every one. */
struct pg_sel {
	const int *of;
	int part, ncols, first;
};
static inline int pg_sel_has(const struct pg_sel *sel, int r, int c)
{
	return !sel || sel->of[(size_t)(r - sel->first) * (size_t)sel->ncols + (size_t)c] == sel->part;
}

/* --- prune.c: what a table need not say --- */
/* Columns with nothing in them go (a board's, the baseline's, a ratio
 * where the baseline has no figure); in a pivoted table, a column whose
 * every figure was skipped becomes one note; notes no cell refers to go. */
int pg_table_prune(struct pg_table *t);
/* Adds text to the table's own lines under it (its legend); -1 out of memory. */
int pg_table_remark(struct pg_table *t, const char *text);
/* Notes that differ only in their numbers become one, with each number's
 * range ("12 cells: disturbed: other processes used 55-90% ..."). */
int pg_table_merge_notes(struct pg_table *t);
/* The machine table: a row per recorded fact, a column per board. */
int pg_table_machines(const struct pg_guide *g, struct pg_table *t);
/* With a baseline: a row per section, per board the geometric mean of its
 * ratios to the baseline. */
int pg_table_summary(const struct pg_guide *g, struct pg_table *t);
/* Whether section s has rows its table leaves out (--all-metrics shows
 * them in a table of their own, PG_TABLE_OTHER). */
int pg_section_has_other(const struct pg_guide *g, int s);
/* Section s's intro as the results made it true (intro.c): its
 * placeholders filled, with how the runs were made; malloc'd, NULL: none. */
char *pg_section_intro(const struct pg_guide *g, int s);
void pg_table_free(struct pg_table *t);
/* The "Not measured" notice's lines (unfilled.c): each section of the seed
 * guide and of perfguide's benchmarks with no figure in g, why, and the
 * command that fills it; gone[s]: every result of section s was skipped.
 * *items malloc'd (pg_unfilled_free); -1 when out of memory. */
int pg_unfilled(const struct pg_guide *g, const int *gone, char ***items, int *n);
void pg_unfilled_free(char **items, int n);
/* A table too wide for width characters as several, each with the naming
 * columns, board keep's (the baseline; -1: none) and as many other boards
 * as fit, its notes numbered anew (split.c); *n is 1 (and *parts t itself,
 * moved) when it fits. t is left empty either way. */
int pg_table_split(struct pg_table *t, int width, int keep, struct pg_table **parts, int *n);

/* Building blocks for the table builders (table.c, pivot.c, machine.c). */
/* The number of a note, added unless the table has its text already. */
int pg_table_note(struct pg_table *t, const char *text);
/* A board's value, its CPU load, its ratio to the baseline, into tc. */
int pg_table_value(struct pg_table *t, struct pg_tcell *tc, const struct pg_grow *row, int c);
int pg_table_cpu(const struct pg_guide *g, struct pg_table *t, struct pg_tcell *tc, const struct pg_grow *row, int c);
/* The CPU load columns' heading: PG_CPU_SYSTEM, or with report --cpu-load
 * process PG_CPU_PROCESS. */
const char *pg_cpu_heading(const struct pg_guide *g);
int pg_table_ratio(struct pg_table *t, struct pg_tcell *tc, const struct pg_grow *row, int c);
/* The columns a board has in section s: its value, maybe its CPU load,
 * maybe its ratio to the baseline; returns how many. */
struct pg_percol {
	int none;	/* no result of the board in the section: no column */
	int cpu, ratio;
};
int pg_table_board_width(const struct pg_guide *g, int s, unsigned opts, int c, struct pg_percol *pc);
/* Section s with a row per result key; pivoted on its rows_by (pivot.c),
 * which falls back to the first where a pivot makes no table to read. */
int pg_table_flat(const struct pg_guide *g, int s, unsigned opts, const struct pg_sel *sel, struct pg_table *t);
int pg_table_pivot(const struct pg_guide *g, int s, unsigned opts, const struct pg_sel *sel, struct pg_table *t);
int pg_table_alloc(struct pg_table *t, int nrows, int ncols);
int pg_table_set(struct pg_tcell *c, enum pg_tkind kind, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
