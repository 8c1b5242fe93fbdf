/* SPDX-License-Identifier: MIT */
/*
 * The release gate of a board farm (compare --baseline-release A --release
 * B): every board of a store with runs of both releases, each compared as
 * `compare BASE NEW` would (several runs of a release are its replicates),
 * and every board's regressions in one list, largest change first.
 */
#ifndef PG_GATE_FLEET_H
#define PG_GATE_FLEET_H

#include <stddef.h>
#include <stdio.h>

#include "store/store.h"

struct pg_fleet_opts {
	const char *base_release, *release;
	double threshold;			/* percent */
	int force, allow_missing, gate_descriptive;
	const char *const *boards;		/* only these boards (nboards 0: every one) */
	int nboards;
};

struct pg_fleet;

/* Every board of s with runs of both releases, compared; NULL with err set
 * when the store cannot be read or no board has both. o is kept. */
struct pg_fleet *pg_fleet_compare(struct pg_store *s, const struct pg_fleet_opts *o, char *err, size_t errlen);
/* compare's exit status: 1 when a board failed (regressed, or lost what
 * release A measured), else 3 when one could not be judged, else 0. */
int pg_fleet_status(const struct pg_fleet *f);
void pg_fleet_write_md(FILE *out, const struct pg_fleet *f);
void pg_fleet_write_json(FILE *out, const struct pg_fleet *f, int status);
void pg_fleet_free(struct pg_fleet *f);

#endif
