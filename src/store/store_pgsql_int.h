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

/* store_pgsql_read.c */
/* 1 when every query that reads runs finds its tables and columns (a
 * newer perfguide's store: read where it can be). */
int pq_readable(PGconn *c);
int pq_list_runs(struct pg_store *s, struct pg_run_summary **out, int *n, char *err, size_t errlen);
int pq_load_run(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t errlen);
int pq_load_figures(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t errlen);

#endif
