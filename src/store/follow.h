/* SPDX-License-Identifier: MIT */
/*
 * `perfguide run` writing into the store: the results file stays the record
 * and is always written first; the follower reads each line back as it is
 * flushed and adds it to the store, so the store holds exactly what the
 * file holds. A store failure is reported once and never touches the file.
 */
#ifndef PG_FOLLOW_H
#define PG_FOLLOW_H

#include <stddef.h>

struct pg_follow;

/* Opens (creating) the store at db, or the default store when db is NULL,
 * to follow the results file at path from its current end. NULL with err
 * set when the store cannot be opened. */
struct pg_follow *pg_follow_open(const char *db, const char *path, char *err, size_t errlen);

/* Adds the lines written to the file since the last call. */
void pg_follow_sync(struct pg_follow *fw);

/* Returns 0 when everything reached the store, -1 otherwise. */
int pg_follow_close(struct pg_follow *fw);

#endif
