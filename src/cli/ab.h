/* SPDX-License-Identifier: MIT */
/*
 * perfguide ab, in parts: the options and the rounds (ab.c), one side's
 * run with its setup and teardown (ab_side.c), and the runs turned into
 * rows, pairs and the table (ab_rows.c); the statistics are gate/paired.c.
 */
#ifndef PG_CLI_AB_H
#define PG_CLI_AB_H

#include <signal.h>
#include <stdio.h>

#include "gate/compare.h"
#include "gate/paired.h"
#include "runs/rundata.h"

#define AB_MAX_FWD 96		/* run options passed on, words */
#define AB_MAX_PARAMS 16	/* -p options */
#define AB_BUDGET_DEFAULT (20 * 60.0)

/* One side: how its runs are made, and where they go. */
struct ab_side {
	char name;		/* 'A', 'B' */
	const char *bin;	/* the perfguide that runs */
	const char *prefix;	/* shell words before it ("taskset -c 1"); NULL: none */
	const char *setup, *teardown;	/* shell commands around each run; NULL: none */
	char path[600];		/* its results file: every run of this side */
	char log[600];		/* what its runs, setups and teardowns printed */
};

struct ab_opts {
	double threshold, budget;
	const char *out;	/* NULL: perfguide-results/ab-<time> */
	int json;
	const char *suite;	/* --suite as given; NULL: none */
	const char *fwd[AB_MAX_FWD];	/* run options passed on as they are */
	int nfwd;
	const char *params[AB_MAX_PARAMS];	/* NAME=VALUE of -p (and --peer...) */
	int nparams;
	char *const *selectors;
	int nselectors;
	struct ab_side side[2];
};

/* What stops the rounds: the user (a signal), or a side. */
extern volatile sig_atomic_t ab_stop;

/* --- ab_side.c --- */

enum ab_side_rc {
	AB_SIDE_OK,		/* a run, complete (some benchmarks may have failed) */
	AB_SIDE_INTERRUPTED,	/* stopped by the user: what it wrote is kept, not counted */
	AB_SIDE_BAD_INPUT,	/* perfguide run said so (exit 2) */
	AB_SIDE_SETUP_FAILED,	/* the setup failed; its teardown ran */
	AB_SIDE_TEARDOWN_FAILED,	/* the state may not be restored */
	AB_SIDE_LOST,		/* the run crashed or wrote no run */
};

/* Sends a signal the user sent ab (kill, not the terminal's Ctrl-C, which
 * reaches the run itself) on to the run in progress. */
void ab_catch_signals(void);

/* One run of the side over the selection (run's SELECTORs and options:
 * argv-like, NULL-terminated), between its setup and teardown: the run
 * read back from its results file into run. why says what failed. */
enum ab_side_rc ab_side_run(const struct ab_side *s, char *const *run_args, struct pg_rrun *run, char *why,
			    size_t len);

/* A dry run of the selection by the side's binary, before anything runs:
 * 0, or -1 with its message in err (bad input). */
int ab_side_check(const struct ab_side *s, char *const *run_args, char *err, size_t len);

/* --- ab_rows.c --- */

/* One round as it went. */
struct ab_round {
	int b_first;
	int benches;		/* benchmarks measured */
	double seconds;
	int counted;		/* both sides ran: its pairs were added */
	int disturbed;		/* rows whose pair was left out: disturbed, or missing on a side */
	char a_id[160], b_id[160];
};

struct ab_rows {
	/* every counted run of each side, in round order (the first is the
	 * rows' names and units: round 1), each allocated once: the rows and
	 * what was lost point into them */
	struct pg_rrun **runs[2];
	int nruns, cap;
	struct pg_comparison c;	/* round 1's rows, then ab's verdicts */
	struct pg_cmp_side first[2];
	struct pg_ab ab;	/* one row per c.rows[i] */
	double *sum_la, *sum_lb;	/* the logs of each row's figures over its pairs */
	int *left_out;		/* pairs left out: disturbed, missing */
	struct pg_cmp_lost *lost;	/* what B lost in any round, each key once */
	int nlost;
	struct ab_round *rounds;
	int nrounds;
	int look_at[PG_AB_NLOOKS];	/* the rounds after which each look was taken */
};

/* Takes a round's two runs (owned from here on) and adds their pairs; the
 * first round also makes the rows. -1 out of memory. */
int ab_rows_add(struct ab_rows *x, struct pg_rrun *a, struct pg_rrun *b, struct ab_round *round,
		double threshold);
/* The benchmark ids to measure again (each once, in the rows' order):
 * those with a row still wanted; all the first runs' before the first
 * look. Returns how many (ids point into the runs). */
int ab_rows_selection(const struct ab_rows *x, const char **ids, int max);
/* Gives every row ab's verdict (the last look's) and counts them. */
void ab_rows_finish(struct ab_rows *x);
/* 1 a regression or a benchmark lost; 3 a gated row undecided or
 * inconclusive; 0 otherwise. */
int ab_rows_exit(const struct ab_rows *x);
void ab_rows_free(struct ab_rows *x);

/* The table and JSON, in compare's shape (ab_out.c). */
struct ab_report {
	const struct ab_rows *x;
	const struct ab_opts *o;
	double seconds;
	int interrupted;
	const char *stopped;	/* why the rounds stopped early, or NULL */
};
void ab_write_md(FILE *out, const struct ab_report *r);
void ab_write_json(FILE *out, const struct ab_report *r);
/* "taskset -c 1 perfguide" with its setup and teardown, in words */
void ab_side_words(const struct ab_side *s, char *buf, size_t len);

#endif
