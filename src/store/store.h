/* SPDX-License-Identifier: MIT */
/* The store part (src/store/): the stores, their guards, libpq loaded at
 * run time, the runs a command names (select.h) and a results file
 * followed into a store (follow.h). Uses core and runs; never the gate or
 * the guide (docs/architecture.md, "Layers"). */
/*
 * The results store, behind one small interface with one set of ops per
 * backend (as fio's engines): SQLite, an embedded file with nothing to start
 * (the default), and PostgreSQL, the server a board farm's many writers
 * share (--db postgresql://...). store.c picks the backend from the --db
 * string. Everything above this file works on struct pg_rrun and never sees
 * SQL. Both backends have the same tables and schema versions, and take the
 * result columns from pg_record_fields.
 */
#ifndef PG_STORE_H
#define PG_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "runs/rundata.h"
#include "core/err.h"

struct pg_store;

/* One line of `perfguide runs`. */
struct pg_run_summary {
	char id[PG_RUN_ID_MAX + 1];
	char board[PG_BOARD_MAX + 1];
	char started[40];
	char version[64];
	char status[16];	/* complete, interrupted, incomplete */
	int nresults;
	char *labels;		/* JSON object ({"release":"09.02"}), whole; NULL: none */
};

/* Whether list_runs lists a run of this id and board: only text a results
 * file may give (valid UTF-8; the length is the backends' query's), so
 * that the run listed is the run its id loads, and the guide is UTF-8. */
int pg_store_listable(const char *id, const char *board);

/* What list_runs gave: the labels of each, then the array. */
void pg_run_summaries_free(struct pg_run_summary *runs, int n);

enum pg_add_result { PG_ADD_NEW, PG_ADD_PRESENT, PG_ADD_REPLACED };

struct pg_store_ops {
	const char *name;
	/* Every run given to these has passed pg_rrun_check_names (the results
	 * file reader checks it: rundata.h has the limits).
	 * Adds a whole run in one transaction. A run already held complete is
	 * left as it is (PG_ADD_PRESENT); one held without its end record (the
	 * board crashed, or `run` stopped writing to the store) is replaced.
	 * Either only when it is the same run (pg_rrun_same): another run of
	 * an id the store holds is refused with -2 (bad input), err saying so;
	 * -1 is the store's failure. */
	int (*add_run)(struct pg_store *s, const struct pg_rrun *r, char *err, size_t errlen);
	/* Several runs (one file) in one transaction; how[i] says what
	 * happened to each. */
	int (*add_runs)(struct pg_store *s, const struct pg_rrun *r, int n, int *how, char *err, size_t errlen);
	/* Follows a run as it is written: begin, each result, end. */
	int (*begin_run)(struct pg_store *s, const struct pg_rrun *r, char *err, size_t errlen);
	int (*add_result)(struct pg_store *s, const char *run_id, const struct pg_record *x, char *err, size_t errlen);
	int (*end_run)(struct pg_store *s, const char *run_id, const char *finished, const char *status,
		       char *err, size_t errlen);
	/* Every run, oldest first; the caller frees *out. */
	int (*list_runs)(struct pg_store *s, struct pg_run_summary **out, int *n, char *err, size_t errlen);
	/* 1 found, 0 no such run, -1 error. */
	int (*load_run)(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t errlen);
	/* The same without the samples (each result's nsamples 0, samples
	 * NULL): what reading a board's many runs (history) needs, at a
	 * fraction of the cost. */
	int (*load_figures)(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t errlen);
	void (*close)(struct pg_store *s);
};

struct pg_store {
	const struct pg_store_ops *ops;
	char path[512];		/* for messages: a file, or a URL without its password */
};

/* A backend: whether a --db string is its kind, and how it opens one. */
struct pg_store_backend {
	const char *name;
	int (*claims)(const char *where);
	struct pg_store *(*open)(const char *where, int create, char *err, size_t errlen);
};

/* $XDG_DATA_HOME/perfguide/results.db, else ~/.local/share/perfguide/results.db. */
int pg_store_default_path(char *buf, size_t len);
/* The same path, its directories not made (to see whether it is there). */
int pg_store_default_file(char *buf, size_t len);

/* The store --db names when it is set, else $PERFGUIDE_DB when that is
 * set, else NULL (the default file). */
const char *pg_store_env(void);

/* Opens (creating when create is set and it does not exist) the store at
 * path (a file, or a postgresql:// URL). NULL with err set when it cannot be
 * opened or is not a perfguide store. */
struct pg_store *pg_store_open(const char *path, int create, char *err, size_t errlen);
void pg_store_close(struct pg_store *s);

/* SQLite backend. */
struct pg_store *pg_store_sqlite_open(const char *path, int create, char *err, size_t errlen);
/* The schema version this build writes; tests build older stores with it. */
int pg_store_sqlite_version(void);
int pg_store_sqlite_create_at(const char *path, int version, char *err, size_t errlen);
/* What one operation on an SQLite store opened from now on may take before
 * it is stopped (default 300 s: nothing in a store runs forever); tests and
 * fuzz targets lower it. <= 0: the default. */
void pg_store_sqlite_time_limit(double seconds);

/* PostgreSQL backend (libpq): a postgresql:// or postgres:// URL. Built
 * without libpq, opening one says so. */
int pg_store_is_url(const char *where);
#ifdef PG_HAVE_LIBPQ
struct pg_store *pg_store_pgsql_open(const char *url, int create, char *err, size_t errlen);
int pg_store_pgsql_version(void);
int pg_store_pgsql_create_at(const char *url, int version, char *err, size_t errlen);
/* What one statement on a PostgreSQL store connected from now on may take
 * before the server stops it (default 300 s); tests lower it. <= 0: the
 * default. */
void pg_store_pgsql_time_limit(double seconds);
#else
#include <stdio.h>
static inline struct pg_store *pg_store_pgsql_open(const char *url, int create, char *err, size_t errlen)
{
	(void)url;
	(void)create;
	pg_err(err, errlen,
	       "a PostgreSQL store needs a build with libpq: this perfguide was built without libpq "
	       "(install libpq-dev and rebuild)");
	return NULL;
}
#endif

/* For the backends' add_run: loads the run the store holds of r's id into
 * held (freed again) and compares. 1 the same run, 0 another (err says
 * how), -1 the store failed. */
int pg_store_same_run(struct pg_store *s, struct pg_rrun *held, const struct pg_rrun *r, char *err, size_t errlen);

/* The schema version a store holds (read as 64 bits), judged by the rules
 * every backend shares (docs/security.md): below 1 no perfguide wrote it
 * (damaged: refused, err set); this build's version (known); older (to be
 * migrated); newer (a newer perfguide's store). */
enum pg_schema_state { PG_SCHEMA_BAD = -1, PG_SCHEMA_CURRENT, PG_SCHEMA_OLDER, PG_SCHEMA_NEWER };
enum pg_schema_state pg_store_schema_state(int64_t version, int known, char *err, size_t errlen);
/* A newer store is read where this build finds the tables and columns it
 * reads (readable), and never written (create: a writer opens it): 0 to be
 * read only, -1 refused with err set. */
int pg_store_schema_newer(int64_t version, int known, int readable, int create, char *err, size_t errlen);

/* -1 with err saying a newer perfguide's store is not written to. */
int pg_store_read_only(char *err, size_t errlen);

/* Runs of one board, oldest first (ids into *ids, caller frees). */
int pg_store_runs_of_board(struct pg_store *s, const char *board, char ***ids, int *n, char *err, size_t errlen);

#endif
