/*
 * The performance guide as data: one column per board, one row per result
 * key (bench, params, metric), rows grouped into the sections the results
 * carry. The writers only format this (writer.h); nothing here knows a
 * benchmark id: a result's section comes from the result, else from the
 * benchmark that the registry knows by that id, else "Other benchmarks".
 */
#ifndef PG_GUIDE_H
#define PG_GUIDE_H

#include "core/bench.h"
#include "rundata.h"

struct pg_gcell {
	int present;
	enum pg_status status;
	double median, min, max;	/* merged over the column's runs */
	int have_busy;
	double busy;
	const char *reason;		/* skipped or error */
	const double *samples;		/* one run only: its samples */
	int nsamples;
	/* Against the baseline column (report --baseline): the ratio, read so
	 * that above 1 is always better, and whether the two columns' min..max
	 * overlap (the difference may be noise). */
	int have_ratio;
	double ratio;
	int overlap;
};

struct pg_grow {
	const char *bench, *params, *metric, *unit, *label;
	const char *title;		/* the benchmark's, as its results say */
	char *dist;			/* the parameters that tell it from its benchmark's other rows */
	int higher;
	int section;			/* index into pg_guide.sections */
	int order;			/* first appearance */
	struct pg_gcell *cells;		/* one per column */
};

struct pg_gcol {
	const char *board;
	const struct pg_rrun **runs;	/* merged into this column, oldest first */
	int nruns;
};

/* The section of results with no section, from no benchmark this perfguide knows. */
#define PG_OTHER_SECTION "Other benchmarks"

struct pg_guide {
	struct pg_gcol *cols;
	int ncols;
	struct pg_grow *rows;		/* sorted by section, then first appearance */
	int nrows;
	/* The sections the rows are in, in the guide's order; strings malloc'd. */
	struct pg_section *sections;
	int nsections;
	int baseline;			/* column of --baseline; -1: none */
	/* Per section and column (s * ncols + c): geometric mean of the
	 * ratios to the baseline and how many rows it is over (0: none). */
	double *geomean;
	int *ngeo;
	/* Rows by key (guide.c): a hash table of row indices, -1 empty. */
	int *index;
	size_t index_cap;
};

/* Runs of one board go into one column, in the order given. */
int pg_guide_build(struct pg_guide *g, const struct pg_rrun *const *runs, int nruns);
void pg_guide_free(struct pg_guide *g);

/* Ratios of every column to the column of this board, and their geometric
 * means per section; -1 when no column is that board. */
int pg_guide_baseline(struct pg_guide *g, const char *board);

/* "9024.86 (min 4779.41, max 13270.31)", the bracket dropped when min and
 * max print as the median. */
void pg_cell_text(const struct pg_gcell *c, char *buf, size_t len);
/* The row's label where it has one, else "bench params metric"; then the
 * unit in brackets. */
void pg_row_name(const struct pg_grow *r, char *buf, size_t len);
int pg_section_has_cpu(const struct pg_guide *g, int section);
/* Whether the section's tables and plots show the row: its metric is one
 * of those the section names (all when it names none). */
int pg_row_shown(const struct pg_guide *g, const struct pg_grow *row);
/* Rows of section s: [*first, *last]; 0 when it has none. */
int pg_section_rows(const struct pg_guide *g, int s, int *first, int *last);
/* A cell with a result to draw or compare. */
int pg_cell_ok(const struct pg_gcell *c);

#endif
