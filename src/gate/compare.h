/* SPDX-License-Identifier: MIT */
/* The gate part (src/gate/): compare's pairing and verdicts (this file),
 * their statistics (gate.h), a fleet's releases (fleet.h). Uses core, runs
 * and store; never the guide: its tables escape through core/escape.h
 * (docs/architecture.md, "Layers"). */
/*
 * What changed between two builds: BASE and NEW are each one run or several
 * (a results file may hold several; a store label names all its runs). Each
 * measurement gets one verdict (gate.h has the statistics):
 *
 *   regressed / improved  significant across all rows (Benjamini-Hochberg)
 *                         and its interval beyond the threshold, in the
 *                         metric's direction (gate/verdict.h);
 *   within noise          its interval inside +/- the threshold;
 *   undecided             neither: the interval, and about how many more
 *                         runs would decide it;
 *   inconclusive          with its reason: cannot be judged (disturbed on
 *                         a side, the environment differs, unlike
 *                         machines, no ratio).
 *
 * A benchmark BASE measured and NEW lost (missing, failed, newly skipped)
 * is listed. A metric that restates another's figure (DMIPS of
 * Dhrystones/s, MB/s of KBytes/s: the samples are proportional, or
 * reciprocal) takes that one's verdict and is not counted again;
 * descriptive metrics (CPU load, offered rate, counts of lost frames) are
 * shown and not gated unless asked.
 */
#ifndef PG_COMPARE_H
#define PG_COMPARE_H

#include <jansson.h>
#include <stdio.h>

#include "gate.h"
#include "verdict.h"

struct pg_noise_profile;
#include "runs/rundata.h"

/* The runs of one side. */
struct pg_cmp_side {
	const struct pg_rrun *runs;
	int n;
};

struct pg_cmp_row {
	const struct pg_record *base, *new;	/* the row's first record on each side */
	int nbase, nnew;			/* runs on each side that were judged */
	int reps_base, reps_new;		/* their replicates: processes, or runs */
	int bimodal;				/* a run's processes disagree: 1 in BASE, 2 in NEW */
	const char *bimodal_why;		/* that run's bimodal_why */
	int left_out;				/* disturbed runs left out (others remained) */
	double base_median, new_median;		/* over the runs: geometric mean of their medians */
	double change_pct;
	struct pg_gate_result g;
	struct pg_decision dec;			/* the rule's, for a tested row: the interval */
	const char *more_of;			/* what dec.more counts ("runs a side") */
	enum pg_verdict verdict;
	int gated;				/* counts towards the exit status */
	int alias;				/* the row whose figure this one restates; -1 none */
	char why[240];				/* inconclusive, not gated, same figure: why */
	/* The two sides ran in clearly different conditions (compare.c's
	 * env_differs): 1 BASE in the slower, 2 NEW; and what differed. */
	int env_slower;
	char env_why[200];
	char history[120];			/* env.history of a side: what decided the figure */
};

/* A benchmark (or one metric of it) BASE measured and a NEW run lost. */
struct pg_cmp_lost {
	const struct pg_record *base;	/* BASE's record: bench, params */
	const struct pg_record *new;	/* NEW's failed or skipped record; NULL: missing */
	const struct pg_rrun *run;	/* the NEW run */
	int metric_only;		/* the benchmark ran, this metric is missing */
	/* NEW measured the benchmark with these parameters and more (a
	 * parameter added since BASE's perfguide): not the same measurement */
	const struct pg_record *reparam;
};

struct pg_cmp_opts {
	double threshold_pct;
	int gate_descriptive;	/* descriptive metrics count too */
	int force;		/* unlike machines compared anyway */
	int releases;		/* a release against a release: a kernel change is expected */
	int history;		/* BASE is NEW's board's history (compare --history) */
	/* The board's noise profile (gate/profile.h): one run a side takes
	 * each row's spread between runs from it; NULL: an allowance. */
	const struct pg_noise_profile *profile;
};

#define PG_CMP_MAX_NOTES 16
#define PG_CMP_NOTE_LEN 240

struct pg_comparison {
	struct pg_cmp_row *rows;
	int n;
	struct pg_cmp_lost *lost;
	int nlost;
	/* Why BASE and NEW are unlike (listed first; exit 3 unless forced),
	 * and what else the reader should know (a run that did not finish). */
	char unlike[PG_CMP_MAX_NOTES][PG_CMP_NOTE_LEN];
	int nunlike;
	char notes[PG_CMP_MAX_NOTES][PG_CMP_NOTE_LEN];
	int nnotes;
	int nreg, nimp, ninc, nsame, ninfo, nund;
	double threshold;
	int forced;		/* --force: unlike machines judged anyway */
};

/* Every measurement BASE has, judged. -1 out of memory. */
int pg_compare_sides(const struct pg_cmp_side *base, const struct pg_cmp_side *new, const struct pg_cmp_opts *o,
		     struct pg_comparison *c);
void pg_comparison_free(struct pg_comparison *c);
/* Adds a note (what the reader should know) to a comparison made. */
void pg_compare_note(struct pg_comparison *c, const char *text);

/* compare's exit statuses, the command line's PG_EXIT_OK, PG_EXIT_FAIL and
 * PG_EXIT_DOUBT (cli/cli.h). */
enum { PG_CMP_PASS = 0, PG_CMP_FAIL = 1, PG_CMP_UNJUDGED = 3 };

/* PG_CMP_FAIL a regression, or (unless allow_missing) a benchmark lost;
 * PG_CMP_UNJUDGED nothing regressed but a row is undecided, or a row or the
 * machines could not be judged; PG_CMP_PASS otherwise. */
int pg_compare_exit(const struct pg_comparison *c, int allow_missing);

/* Whether a metric is descriptive (not gated unless asked), by name. */
int pg_metric_descriptive(const char *metric);

/* compare_unlike.c: why two runs' machines differ in what decides the
 * figures (architecture, CPU model, kernel, governor, emulated), one line
 * each into c->unlike (a kernel into c->notes when releases are compared). */
void pg_compare_unlike(const struct pg_cmp_side *base, const struct pg_cmp_side *new, const struct pg_cmp_opts *o,
		       struct pg_comparison *c);

/* What compare found, for printing (compare_out.c). */
struct pg_verdicts {
	const struct pg_cmp_side *base, *new;
	const struct pg_comparison *c;
	int allow_missing;
};

/* A Markdown table (names escaped for it, no control characters: it goes
 * to a terminal), or JSON. */
void pg_compare_write_md(FILE *out, const struct pg_verdicts *v);
void pg_compare_write_json(FILE *out, const struct pg_verdicts *v);
/* Their parts, for compare across a fleet: one row as JSON; the row's name
 * (the seed's label, or bench, parameters and metric) and unit, escaped
 * for Markdown; " | base | new | change | interval | p". */
json_t *pg_compare_row_json(const struct pg_cmp_row *r);
json_t *pg_compare_lost_json(const struct pg_cmp_lost *l);
void pg_compare_write_name(FILE *out, const struct pg_record *x);
void pg_compare_write_figures(FILE *out, const struct pg_cmp_row *r);
/* " | -4.0% .. +118%" (the change's 90% interval, "-" untested), for the
 * column after the change. */
/* "title" and a Markdown list of n notes, escaped; nothing when n is 0. */
void pg_compare_write_list(FILE *out, const char *title, const char (*t)[PG_CMP_NOTE_LEN], int n);
void pg_compare_write_interval(FILE *out, const struct pg_cmp_row *r);
/* The spread between runs a row was judged with: "runs", "5.4% allowed",
 * "0.8% (7 runs of the board)", "-". */
void pg_compare_write_spread(FILE *out, const struct pg_cmp_row *r);
/* The verdict cell: "regressed", "inconclusive: why". */
void pg_compare_write_verdict(FILE *out, const struct pg_cmp_row *r);
/* The lost benchmarks and the notes, as lines. */
void pg_compare_write_lost(FILE *out, const struct pg_comparison *c, int allow_missing);

#endif
