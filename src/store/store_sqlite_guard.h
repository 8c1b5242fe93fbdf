/* SPDX-License-Identifier: MIT */
/*
 * What an SQLite store file may make perfguide do: nothing but perfguide's
 * own SQL on perfguide's own tables, for a bounded time (store_sqlite_guard.c;
 * docs/security.md, "The results store"). A store is a file someone else
 * may have written: its schema is SQL that SQLite runs (a view is a query,
 * a trigger a statement run on every insert).
 */
#ifndef PG_STORE_SQLITE_GUARD_H
#define PG_STORE_SQLITE_GUARD_H

#include <sqlite3.h>
#include <stddef.h>

/* The longest a store operation (a listing, a run read or added) may take
 * by default before it is stopped. */
#define SQ_GUARD_LIMIT_S 300.0

struct sq_guard {
	double limit_s;		/* what one operation may take */
	double deadline;	/* of the operation under way (CLOCK_MONOTONIC) */
};

/* Sets db up defensively: SQLite's defensive mode, no triggers, no views,
 * no functions with side effects called from the schema, values at most
 * 16 MiB, and g's bound on every statement's time. */
void sq_guard_open(sqlite3 *db, struct sq_guard *g);
/* A new operation: its time starts now. */
void sq_guard_begin(struct sq_guard *g);
/* 1 with err saying so when db's last error was the time bound. */
int sq_guard_timed_out(sqlite3 *db, char *err, size_t errlen);

/* The schema's objects against what perfguide's migrations make: a store
 * at version (1 to known) must hold exactly the tables, columns and indexes
 * a store made and migrated to it holds; a newer one tables and indexes (a
 * newer perfguide's: the backend finds there what it reads, or says which
 * perfguide to use); no store a view, a trigger or a virtual table. migrate(db, from, to) is the backend's migration. 0, or
 * -1 with err saying what is not perfguide's. */
typedef int (*sq_migrate_fn)(sqlite3 *db, int from, int to, char *err, size_t errlen);
int sq_guard_schema(sqlite3 *db, long long version, int known, sq_migrate_fn migrate, char *err, size_t errlen);

#endif
