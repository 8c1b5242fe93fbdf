/* SPDX-License-Identifier: MIT */
/*
 * The PostgreSQL store's parts (store_pgsql.c: the schema, connecting,
 * adding; store_pgsql_read.c: listing and reading runs) and what they
 * share. Nothing outside the two files includes this.
 */
#ifndef PG_STORE_PGSQL_INT_H
#define PG_STORE_PGSQL_INT_H

#include <stddef.h>

#include "pq_dl.h"
#include "store.h"

struct pq_store {
	struct pg_store base;
	PGconn *c;
	int prepared;		/* the result insert is prepared */
	int newer;		/* a newer perfguide's store: read, never written */
};

PGconn *pq_conn(struct pg_store *s);
/* Runs sql with text parameters; the result when it has the status wanted,
 * else NULL with err set to "what: the server's message". */
PGresult *pq_query(PGconn *c, const char *sql, int n, const char *const *v, ExecStatusType want,
		   const char *what, char *err, size_t errlen);
/* The result columns, in pg_record_fields' order, and their count; -1 when
 * they do not fit in buf. */
int pq_result_columns(char *buf, size_t len);

/* store_pgsql_guard.c: the store as untrusted input (docs/security.md). */
/* The longest one statement may run by default before the server stops it. */
#define PQ_GUARD_LIMIT_S 300.0
/* Pins search_path (the schema the connection would use, then pg_temp;
 * pg_catalog before both) and sets the statement timeout. 0, or -1 with
 * err set. */
int pq_guard_session(PGconn *c, char *err, size_t errlen);
/* The store's schema (at version; 0: an empty one) against what perfguide
 * makes at that version (a newer store's: what it makes at known, with
 * tables, sequences and indexes more). 0; -1 with err saying what is not
 * perfguide's; -2 when the catalogs could not be read (err says why). */
int pq_guard_schema(PGconn *c, long long version, int known, char *err, size_t errlen);
/* 1 with err set when res is a statement the time limit stopped. */
int pq_guard_timed_out(PGresult *res, char *err, size_t errlen);

/* store_pgsql_read.c */
/* 1 when every query that reads runs finds its tables and columns (a
 * newer perfguide's store: read where it can be). */
int pq_readable(PGconn *c);
int pq_list_runs(struct pg_store *s, struct pg_run_summary **out, int *n, char *err, size_t errlen);
int pq_load_run(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t errlen);
int pq_load_figures(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t errlen);

#endif
