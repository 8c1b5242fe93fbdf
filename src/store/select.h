/* SPDX-License-Identifier: MIT */
/* Finding runs for report and compare: by results file, run id or board. */
#ifndef PG_SELECT_H
#define PG_SELECT_H

#include <stddef.h>

#include "runs/rundata.h"
#include "store.h"

/* The store at db, or the default one when db is NULL. */
struct pg_store *pg_select_store(const char *db, int create, char *err, size_t errlen);

/* 1 when spec names a results file by its form: a path with a '/' or a
 * name ending .jsonl. */
int pg_select_names_file(const char *spec);

/* spec is a results file when its form says so (a path with a '/', or a
 * name ending .jsonl), else a run id, "latest", or a board name (its
 * latest run) in the store; a name that is both a store's run and a file
 * here is refused, naming both. *store is opened from db on first need.
 * Returns 0, or -1 with err set. */
int pg_select_run(const char *spec, const char *db, struct pg_store **store, struct pg_rrun *r,
		  char *err, size_t errlen);

#endif
