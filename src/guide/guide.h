/* SPDX-License-Identifier: MIT */
/* The guide part (src/guide/): the guide's model (this file), the walk
 * and the writers (writer.h), charts (plots.h, svg.h). Uses core and runs;
 * never the gate or the store: cli/report.c hands it the runs
 * (docs/architecture.md, "Layers"). */
/*
 * The performance guide as data: one column per board, one row per result
 * key (bench, params, metric), rows grouped into the sections the results
 * carry. The writers only format this (writer.h); nothing here knows a
 * benchmark id: a result's section comes from the result, else from the
 * benchmark that the registry knows by that id, else "Other benchmarks".
 */
#ifndef PG_GUIDE_H
#define PG_GUIDE_H

#include <time.h>

#include "core/bench.h"
#include "runs/rundata.h"

/* Why a figure is to be doubted (pg_gcell.doubt): the guide marks the cell
 * and says why in its note, in every format (doubt.c). */
enum {
	PG_DOUBT_NOISY = 0x1,		/* the samples' CV is above the runner's threshold */
	PG_DOUBT_DISTURBED = 0x2,	/* the machine did something else meanwhile (env) */
	PG_DOUBT_CAPPED = 0x4,		/* sampling stopped at a time cap or the budget */
	PG_DOUBT_FEW = 0x8,		/* fewer samples than the runner's floor */
	PG_DOUBT_BIMODAL = 0x10,	/* the samples fall in two groups */
	PG_DOUBT_EMULATED = 0x20,	/* measured on an emulated CPU (qemu) */
	PG_DOUBT_WIDE = 0x40,		/* its stated 95% interval is wider than +/-10% */
};
#define PG_DOUBT_KINDS 7
/* The half-width of a figure's 95% interval past which it is doubtful. */
#define PG_DOUBT_WIDE_REL 0.10

struct pg_gcell {
	int present;
	enum pg_status status;
	double median, min, max;	/* merged over the column's runs */
	int have_busy;
	double busy;
	/* perfguide's own share of the CPUs over the same window (cpu.self_pct),
	 * and the largest share other processes took meanwhile (env.others_pct):
	 * the system's load counts theirs. */
	int have_self, have_others;
	double self, others;
	const char *reason;		/* skipped or error */
	const double *samples;		/* one run only: its samples */
	int nsamples;
	/* Against the baseline column (report --baseline): the ratio, read so
	 * that above 1 is always better, and whether the two columns' min..max
	 * overlap (the difference may be noise). */
	int have_ratio;
	double ratio;
	int overlap;
	/* What makes it doubtful (PG_DOUBT_*), with the figures the note
	 * gives: the largest CV, the fewest samples, why the machine was
	 * disturbed, the emulator. Over merged runs, the union. */
	unsigned doubt;
	double cv;
	int fewest;
	double wide;			/* the widest stated interval's half-width (ci_rel) */
	const char *why;		/* disturbed_why */
	const char *bimodal_why;	/* the processes disagree: their medians */
	const char *virt;		/* the emulated (or perhaps emulated) CPU's note */
	const struct pg_rrun *run;	/* the run the figure is from (the latest of a merge) */
	const struct pg_record *rec;	/* and its result */
};

struct pg_grow {
	const char *bench, *params, *metric, *unit, *label;
	const char *title;		/* the benchmark's, as its results say */
	char *dist;			/* the parameters that tell it from its benchmark's other rows */
	int label_shared;		/* another row of its section has its label: the name adds dist */
	int higher;
	int section;			/* index into pg_guide.sections */
	int order;			/* first appearance */
	struct pg_gcell *cells;		/* one per column */
};

struct pg_gcol {
	const char *board;
	char *name;			/* the heading: the board, with its labels or run where one board has several columns */
	const char *labels;		/* the labels of its runs (JSON text; NULL: none) */
	const struct pg_rrun **runs;	/* in this column, oldest first */
	int *used;			/* per run: the cells whose figure is from it */
	/* per run: the note of its figures when its CPU was emulated, or
	 * perhaps ("emulated CPU (qemu-user): not the hardware's speed");
	 * NULL: not emulated */
	char **emulator;
	int nruns;
};

/* Which runs make a column: all runs of a board, those of a board with the
 * same labels (release=09.01 and release=09.02 side by side), or each run. */
enum pg_columns_by { PG_COLS_BOARD, PG_COLS_LABEL, PG_COLS_RUN };
/* What a column with several runs shows: the median of their medians (min
 * of the mins, max of the maxes), or per result key the latest run's. */
enum pg_merge { PG_MERGE_ALL, PG_MERGE_LATEST };

/* How the guide is made and written; zero is the plain guide of one column
 * per board. */
struct pg_history;

struct pg_guide_opts {
	enum pg_columns_by columns_by;
	enum pg_merge merge;
	const char *title;		/* NULL: "Performance guide" */
	/* The CPU load columns: the system's busy share (PG_CPU_LOAD_SYSTEM,
	 * as the seed's) or perfguide's own share of the CPUs. */
	enum { PG_CPU_LOAD_SYSTEM, PG_CPU_LOAD_PROCESS } cpu_load;
	int all_metrics;		/* every metric in the tables, not only those sections show */
	/* Characters a table may take before its boards are split over
	 * several tables; 0: never split. */
	int width;
	/* md and rst: each chart is written to <charts>-<section>-<n>.svg
	 * beside the guide (NULL: no charts); charts_ref is how the guide
	 * refers to it (the same without the directory). */
	const char *charts, *charts_ref;
	/* "Section=metric,metric": the metrics a section shows instead of
	 * those it declares (Crypto=bandwidth: MB/s instead of KB/s). */
	const char *const *metrics;
	int nmetrics;
	time_t date;			/* when the guide is made (0: not said) */
	/* report --trend: boards' histories (history/history.h), each
	 * charted beside every section's table it has rows of. */
	const struct pg_history *const *trends;
	int ntrends;
};

#define PG_HAS_RESULT 0x1
#define PG_HAS_BUSY 0x2

/* The section of results with no section, from no benchmark this perfguide knows. */
#define PG_OTHER_SECTION "Other benchmarks"

struct pg_guide {
	struct pg_guide_opts opts;
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
	/* Per section and column (s * ncols + c): whether the column has a
	 * result there (PG_HAS_RESULT) and one with a CPU load
	 * (PG_HAS_BUSY); the tables ask for each row. */
	unsigned char *has;
	/* Rows by key (guide.c): a hash table of row indices, -1 empty. */
	int *index;
	size_t index_cap;
	/* Sections by title, case aside (sections.c): a hash table of
	 * indices into sections, -1 empty (pg_guide_note_sections indexes
	 * them again once sort_sections has reordered them). */
	int *titles;
	size_t title_cap;
	/* The rows of section s are sec_start[s] .. sec_start[s + 1] - 1. */
	int *sec_start;
};

/* Runs of one board go into one column, in the order given. */
int pg_guide_build(struct pg_guide *g, const struct pg_rrun *const *runs, int nruns);
/* The same with options (columns, merging, what the writers do). */
int pg_guide_build_opts(struct pg_guide *g, const struct pg_rrun *const *runs, int nruns,
			const struct pg_guide_opts *o);
void pg_guide_free(struct pg_guide *g);

/* Ratios of every column to the column of this name (else the first of
 * this board), and their geometric means per section; -1 when no column
 * is that. */
int pg_guide_baseline(struct pg_guide *g, const char *board);

/* Building the columns (columns.c): run into its column (made when new),
 * a column's runs by when they started, what emulated each run's CPU. */
int pg_guide_add_column(struct pg_guide *g, const struct pg_rrun *run, int nruns);
void pg_column_sort(struct pg_gcol *c);
int pg_column_emulators(struct pg_gcol *c);

/* The column of this heading, else the first of this board; -1: none. */
int pg_guide_column(const struct pg_guide *g, const char *name);
/* Each column's heading: its board, and where a board has several
 * columns, its labels or run (columns.c). */
int pg_guide_name_columns(struct pg_guide *g);
/* "release=09.02, lab=x" from a labels object's text ("" for none). */
void pg_labels_text(const char *labels, char *buf, size_t len);
/* Whether w is a word of t, case aside. */
int pg_has_word(const char *t, const char *w);

/* "9024.86 (min 4779.41, max 13270.31)", the bracket dropped when min and
 * max print as the median. */
void pg_cell_text(const struct pg_gcell *c, char *buf, size_t len);
/* The row's label where it has one, else "bench params metric"; then the
 * unit in brackets. */
void pg_row_name(const struct pg_grow *r, char *buf, size_t len);
int pg_section_has_cpu(const struct pg_guide *g, int section);
/* Building the sections (sections.c): the section of this title, case
 * aside (-1: none yet), a new section s into that look-up, and once the
 * cells are filled, each section's rows and what each column has there. */
int pg_guide_find_section(const struct pg_guide *g, const char *title);
int pg_guide_index_section(struct pg_guide *g, int s);
int pg_guide_note_sections(struct pg_guide *g);
/* Whether column c has a result in section s. */
int pg_column_in_section(const struct pg_guide *g, int s, int c);
/* How a metric is named in the section's tables: its title there
 * ("cpu_load" -> "CPU (process)", from the section's metric_titles), else
 * its name. */
const char *pg_metric_title(const struct pg_guide *g, int section, const char *metric, char *buf, size_t len);

/* Whether the parameter says where section s's benchmarks ran, not what
 * they measured (its place: storage's path). */
int pg_place_param(const struct pg_guide *g, int s, const char *name);
/* Rows of section s: [*first, *last]; 0 when it has none. */
int pg_section_rows(const struct pg_guide *g, int s, int *first, int *last);
/* The same as a range, for (r = pg_section_first(g, s); r < pg_section_end(g, s); r++):
 * what is done per section passes over its own rows, never over all of
 * them (a file may give every result a section of its own: issue 40). */
static inline int pg_section_first(const struct pg_guide *g, int s)
{
	return g->sec_start[s];
}
static inline int pg_section_end(const struct pg_guide *g, int s)
{
	return g->sec_start[s + 1];
}
/* A cell with a result to draw or compare. */
int pg_cell_ok(const struct pg_gcell *c);
/* Whether the section's tables, plots and summary show the row: its
 * metric is one of those the section names (all when it names none;
 * report --metrics changes them). The others are in csv and json, and
 * with --all-metrics in a table of their own after the section's. */
int pg_row_main(const struct pg_guide *g, const struct pg_grow *row);

/* --- join.c: where a row that lacks parameters goes --- */

/* How a row of benchmark bench with parameters rest (canonical JSON, the
 * table's row parameter left out: a published table's row, its size
 * alone) stands to a fuller row's full: PG_JOIN_NO when they differ in a
 * parameter both have; PG_JOIN_DEFAULT when each parameter of the
 * benchmark's that rest lacks is at its default in full (perfguide's
 * figure of what a published table names without it); PG_JOIN_SOME else. */
enum { PG_JOIN_NO, PG_JOIN_SOME, PG_JOIN_DEFAULT };
int pg_row_joins(const char *bench, const char *rest, const char *full);
/* Which of n candidates (their PG_JOIN_*) a row joins: the first at its
 * benchmark's defaults, else the one it could join if only one; -1: none
 * (a column or chart of its own rather than a guess between two). */
int pg_join_pick(const int *how, int n);

/* --- doubt.c: how far a figure can be trusted --- */

/* Adds what result x of run k of column col says about its trust to c. */
void pg_doubt_add(struct pg_gcell *c, const struct pg_record *x, const struct pg_gcol *col, int k);
/* "noisy: CV 16% over 10 samples; capped: ..." for the cell's note; 0
 * when there is nothing to doubt. */
int pg_doubt_text(const struct pg_gcell *c, char *buf, size_t len);
/* The short word of each kind: "noisy", "disturbed"... */
const char *pg_doubt_name(unsigned kind);

struct pg_doubts {
	int figures;			/* cells with a figure in the tables */
	int doubtful;			/* of which marked */
	int kind[PG_DOUBT_KINDS];	/* per PG_DOUBT_* bit, in bit order */
};
/* Counts over the cells the guide's tables show. */
void pg_guide_doubts(const struct pg_guide *g, struct pg_doubts *d);

/* Every metric each --metrics names (opts.metrics) is one its section's
 * rows have: a section is never emptied by a name it does not know. 0, or
 * -1 with err saying which metric and what the section has. */
int pg_guide_check_metrics(const struct pg_guide *g, char *err, size_t errlen);

#endif
