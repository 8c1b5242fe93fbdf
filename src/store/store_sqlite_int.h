/* SPDX-License-Identifier: MIT */
/*
 * The SQLite store's parts (store_sqlite.c: the schema, opening, adding;
 * store_sqlite_read.c: listing and reading runs) and what they share.
 * Nothing outside the two files includes this.
 */
#ifndef PG_STORE_SQLITE_INT_H
#define PG_STORE_SQLITE_INT_H

#include <sqlite3.h>
#include <stddef.h>

#include "store.h"
#include "store_sqlite_guard.h"

struct sq_store {
	struct pg_store base;
	sqlite3 *db;
	int newer;		/* a newer perfguide's store: read, never written */
	struct sq_guard guard;	/* what the store may make perfguide do */
};

sqlite3 *sq_db(struct pg_store *s);
/* -1, with err "what: SQLite's message" (or the time bound's). */
int sq_fail(sqlite3 *db, char *err, size_t errlen, const char *what);
/* A new operation on the store: its time bound starts. */
void sq_begin(struct pg_store *s);
/* Binds v, or NULL when v is. */
void sq_bind_text(sqlite3_stmt *st, int i, const char *v);
/* The result columns, in pg_record_fields' order: "bench, params, ..."
 * (or "?, ?, ..." with placeholders set). */
void sq_result_columns(char *buf, size_t len, int placeholders);

/* store_sqlite_read.c */
/* 1 when every query that reads runs finds its tables and columns. */
int sq_readable(sqlite3 *db);
int sq_list_runs(struct pg_store *s, struct pg_run_summary **out, int *n, char *err, size_t errlen);
int sq_load_run(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t errlen);
int sq_load_figures(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t errlen);

#endif
