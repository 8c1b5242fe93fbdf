/* SPDX-License-Identifier: MIT */
/* perfguide compare: runs (compare.c), a board's history and labelled runs
 * in a store (compare_store.c), or a fleet's releases (gate/fleet.c). */
#ifndef PG_CLI_COMPARE_H
#define PG_CLI_COMPARE_H

#include <stddef.h>

#include "gate/compare.h"
#include "store/store.h"

#define COMPARE_MAX_BOARDS 64

struct compare_opts {
	const char *db;
	double threshold;
	int json;
	int history;		/* --history K: NEW against its board's K runs before it */
	int force, allow_missing, gate_descriptive;
	const char *base_release, *release;	/* --baseline-release, --release */
	const char *boards[COMPARE_MAX_BOARDS];	/* --board: only these */
	int nboards;
};

/* The runs of one side, owned. */
struct compare_side {
	struct pg_rrun *runs;
	int n;
};

/* Whether --board lets this board in (every board without --board). */
int compare_board_wanted(const struct compare_opts *o, const char *board);

/* Every run of the store labelled KEY=VALUE (of one board: --board when
 * they are of several), added to s. 0, or -1 with err set. *store is
 * opened on first need. */
int compare_label_runs(const char *spec, const struct compare_opts *o, struct pg_store **store,
		       struct compare_side *s, char *err, size_t errlen);

/* BASE for --history K: the K complete runs of NEW's board before NEW. */
int compare_history(const struct compare_opts *o, struct pg_store **store, const struct compare_side *new,
		    struct compare_side *base, char *err, size_t errlen);

/* The store a compare of runs takes the board's noise profile from: the
 * one --db or $PERFGUIDE_DB names, else the default store when there is
 * one (a compare of files makes no store). NULL with err "" when there is
 * none, with err set when it cannot be opened. */
struct pg_store *compare_profile_store(const struct compare_opts *o, char *err, size_t errlen);

/* Every board with a run of both releases; the exit status. */
int compare_fleet(const struct compare_opts *o);

#endif
