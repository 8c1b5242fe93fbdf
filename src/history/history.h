/* SPDX-License-Identifier: MIT */
/*
 * A board's history: its runs in the store oldest first, and per result
 * key (bench, params, metric) the median of each run, with the change
 * points E-divisive means finds in that series (changepoint.h). `perfguide
 * history` writes it as md and json (history_out.c); its charts are the
 * guide's (guide/trend.h: history's svg and html, and `report --trend`
 * beside the guide's tables).
 */
#ifndef PG_HISTORY_H
#define PG_HISTORY_H

#include <stdio.h>

#include "changepoint.h"
#include "runs/rundata.h"

struct pg_store;

/* A figure's marks (pg_hist_row.marks). */
#define PG_HISTORY_NOISY 0x1
#define PG_HISTORY_DISTURBED 0x2

struct pg_hist_run {
	char *id, *started;
	char *labels;			/* JSON object text; NULL: none */
};

struct pg_hist_change {
	int at;				/* the run (index) the new level starts at */
	double before, after;		/* the medians of the segments either side */
	double p;			/* the permutation test's */
};

struct pg_hist_row {
	char *bench, *params, *metric, *unit, *label, *section;
	int higher;
	double *v;			/* per run: its median; NAN: no figure in that run */
	unsigned char *marks;		/* per run: PG_HISTORY_NOISY, _DISTURBED */
	int npoints;			/* runs with a figure */
	struct pg_hist_change *changes;
	int nchanges;
};

struct pg_history {
	char *board;
	struct pg_hist_run *runs;
	int nruns;
	int skipped;			/* older runs left out (the latest max_runs kept) */
	struct pg_hist_row *rows;	/* in order of first appearance */
	int nrows;
	struct pg_cp_opts cp;
	int *index;			/* rows by key, -1 empty (history.c) */
	int index_cap;
};

/* What is read: the runs of one board with every label asked for, the
 * results of the benchmarks the selectors match (every one when none:
 * an id, a glob, or a group such as "mem"), the latest max_runs runs. */
struct pg_hist_query {
	const char *board;
	const char *const *labels;	/* "KEY=VALUE" */
	int nlabels;
	const char *const *selectors;
	int nselectors;
	int max_runs;
};

#define PG_HISTORY_MAX_RUNS 200

/* Reads h from the store (results without their samples) and finds each
 * row's change points with pg_cp_defaults. 0, or -1 with err set (no such
 * board, no run with those labels, nothing selected, the store failed). */
int pg_history_load(struct pg_store *s, const struct pg_hist_query *q, struct pg_history *h, char *err, size_t errlen);
void pg_history_free(struct pg_history *h);

/* Adds run r's results (of the benchmarks the selectors match) as the
 * next run; then pg_history_detect. For the store's reader and tests. */
int pg_history_add_run(struct pg_history *h, const struct pg_rrun *r, const char *const *selectors, int nselectors);
/* Each row's change points. 0, or -1 when out of memory. */
int pg_history_detect(struct pg_history *h);

/* The row of a key; -1 none. */
int pg_history_row(const struct pg_history *h, const char *bench, const char *params, const char *metric);
/* "mem.bw.rd size=8m threads=1 bandwidth" (the row's label where it has one). */
void pg_hist_row_name(const struct pg_hist_row *r, char *buf, size_t len);
/* The total of every row's change points. */
int pg_history_changes(const struct pg_history *h);

/* "release=09.02, lab=x" from a run's labels (JSON object text; "" for
 * none). */
void pg_hist_labels(const char *labels, char *buf, size_t len);

/* history_out.c: `perfguide history` as md or json (svg and html are the
 * guide's: guide/trend.h). 0, or -1 when writing failed. */
int pg_history_md(const struct pg_history *h, FILE *out);
int pg_history_json(const struct pg_history *h, FILE *out);

#endif
