/* SPDX-License-Identifier: MIT */
/*
 * A board's noise profile: how much each row's figure varies between runs
 * of the board, from the runs of it that a store holds. compare with one
 * run a side takes each row's spread between runs from here, instead of a
 * fixed allowance (gate.h), so that a quiet board decides what its history
 * allows and a noisy one says it cannot.
 *
 * A run counts when it is of the same board and was measured by a
 * perfguide of the same build settings (compiler, flags, build type,
 * target) with the same suite and minimum time (pg_noise_same_setup), it
 * is complete, and it is on neither side of the comparison (the caller
 * chooses: compare_store.c). A row's spread is the standard deviation of
 * its runs' log figures (each run's geometric mean of its processes'
 * medians, as compare takes a run), over its undisturbed ok results, with
 * as many runs less one degrees of freedom; a row with fewer than
 * PG_NOISE_MIN_RUNS runs has none. A real change in the history (a
 * release that made a row slower) widens its spread: the profile then
 * errs toward "undecided", never toward a false verdict.
 */
#ifndef PG_PROFILE_H
#define PG_PROFILE_H

#include <stddef.h>

#include "runs/rundata.h"
#include "store/store.h"

struct pg_cmp_side;

/* The fewest runs a row's spread is taken from (2 degrees of freedom). */
#define PG_NOISE_MIN_RUNS 3
/* The most runs a profile is made of: the latest. */
#define PG_NOISE_MAX_RUNS 20

struct pg_noise_row {
	const char *bench, *params, *metric;	/* the key, in the runs given */
	double sd;		/* of a run's log figure */
	int runs;		/* runs it is from */
};

struct pg_noise_profile {
	struct pg_noise_row *rows;	/* sorted by key */
	int n;
	int nruns;			/* runs given */
	/* pg_noise_from_store's: the runs it read (the rows' keys point into
	 * them), the board and the store */
	struct pg_rrun *own;
	int nown;
	char board[PG_BOARD_MAX + 1];
	char where[512];
};

/* Each row's spread over the runs given (they must outlive p). 0, or -1
 * out of memory. */
int pg_noise_build(const struct pg_rrun *runs, int n, struct pg_noise_profile *p);
/* The row of key k's (bench, params, metric); NULL when none. */
const struct pg_noise_row *pg_noise_find(const struct pg_noise_profile *p, const struct pg_record *k);
void pg_noise_free(struct pg_noise_profile *p);

/* The profile for a comparison of base and new from the store: the latest
 * PG_NOISE_MAX_RUNS complete runs of the one board both sides are of,
 * measured as NEW's first run was (pg_noise_same_setup), started before
 * NEW's latest run, on neither side (by id). 0 with p->n 0 when there is
 * none (the sides are of several boards, or no such run); -1 with err set
 * when the store cannot be read. */
int pg_noise_from_store(struct pg_store *s, const struct pg_cmp_side *base, const struct pg_cmp_side *new,
			struct pg_noise_profile *p, char *err, size_t errlen);

/* Whether run b was measured as run a was (board, build settings, suite,
 * minimum time), so that its spread may stand for a's. */
int pg_noise_same_setup(const struct pg_rrun *a, const struct pg_rrun *b);

#endif
