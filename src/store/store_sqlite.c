/* SPDX-License-Identifier: MIT */
/*
 * The SQLite store: one file, tables for machines, runs, results and
 * samples. The schema has a version; migrations[i] takes a store from
 * version i to i + 1, so a store written by an older perfguide opens in a
 * newer one. A database that is not ours is never written to.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/record_json.h"
#include "core/text.h"
#include "store.h"
#include "store_sqlite_guard.h"
#include "store_sqlite_int.h"
#include "core/err.h"

/* "pgrs" in the header, so `file` and other tools can tell what it is. */
#define APPLICATION_ID 0x70677273

static const char *const migrations[] = {
	/* 0 -> 1: the tables. */
	"CREATE TABLE perfguide_schema(version INTEGER NOT NULL);"
	"INSERT INTO perfguide_schema VALUES (0);"
	"CREATE TABLE machines(id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE);"
	"CREATE TABLE runs(id TEXT PRIMARY KEY, board TEXT NOT NULL, started TEXT, finished TEXT,"
	" status TEXT, version TEXT, machine_id INTEGER REFERENCES machines(id), build TEXT,"
	" config TEXT, source TEXT, added TEXT DEFAULT CURRENT_TIMESTAMP);"
	"CREATE TABLE results(id INTEGER PRIMARY KEY,"
	" run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, seq INTEGER NOT NULL,"
	" bench TEXT NOT NULL, params TEXT NOT NULL, metric TEXT NOT NULL, unit TEXT, better TEXT,"
	" status TEXT NOT NULL, reason TEXT, median REAL, min REAL, max REAL, mean REAL,"
	" stddev REAL, cv REAL, noisy INTEGER, busy_pct REAL, cpu TEXT, label TEXT, title TEXT,"
	" note TEXT);"
	"CREATE TABLE samples(result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, value REAL NOT NULL, PRIMARY KEY(result_id, seq)) WITHOUT ROWID;",
	/* 1 -> 2: what the report and compare look up. */
	"CREATE INDEX results_run ON results(run_id, seq);"
	"CREATE INDEX results_key ON results(bench, params, metric);"
	"CREATE INDEX runs_board ON runs(board, started);",
	/* 2 -> 3: the run's sections; the result fields of version 3 (section,
	 * iterations, copies, sample_s) are added from pg_record_fields. */
	"ALTER TABLE runs ADD COLUMN sections TEXT;",
	/* 3 -> 4: the run's labels (run --label release=09.02); the result
	 * fields of version 4 (the median's interval, why sampling stopped,
	 * bimodality) are added from pg_record_fields. */
	"ALTER TABLE runs ADD COLUMN labels TEXT;",
	/* 4 -> 5: the result fields of version 5 (what the machine did while
	 * it measured: env, disturbed) come from pg_record_fields. */
	"",
	/* 5 -> 6: the result fields of version 6 (the processes a result
	 * was measured in, whether they disagree) come from pg_record_fields. */
	"",
};
#define SCHEMA_VERSION ((int)(sizeof(migrations) / sizeof(migrations[0])))

sqlite3 *sq_db(struct pg_store *s)
{
	return ((struct sq_store *)s)->db;
}

int sq_fail(sqlite3 *db, char *err, size_t errlen, const char *what)
{
	char msg[256];
	if (!sq_guard_timed_out(db, msg, sizeof(msg)))
		snprintf(msg, sizeof(msg), "%s", sqlite3_errmsg(db));
	return pg_err(err, errlen, "%s: %s", what, msg);
}

void sq_begin(struct pg_store *s)
{
	sq_guard_begin(&((struct sq_store *)s)->guard);
}

void sq_bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}



static int exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		if (!sq_guard_timed_out(db, err, errlen))
			pg_err(err, errlen, "%s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static void rollback(sqlite3 *db)
{
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

static const char *column_type(const struct pg_field *f)
{
	switch (f->type) {
	case PG_F_REAL: return "REAL";
	case PG_F_INT:
	case PG_F_INT32:
	case PG_F_BOOL: return "INTEGER";
	default: return "TEXT";
	}
}

/* Migration v -> v + 1: its SQL, then the result columns of version v + 1. */
static int migrate_one(sqlite3 *db, int v, char *err, size_t errlen)
{
	if (exec(db, migrations[v], err, errlen) < 0)
		return -1;
	for (const struct pg_field *f = pg_record_fields; f->name; f++) {
		if (f->since != v + 1 || (f->flags & PG_F_SAMPLES) || v == 0)
			continue;
		char sql[128];
		snprintf(sql, sizeof(sql), "ALTER TABLE results ADD COLUMN %s %s;", f->name, column_type(f));
		if (exec(db, sql, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* The steps from one version to another, inside the caller's transaction. */
static int migrate_steps(sqlite3 *db, int from, int to, char *err, size_t errlen)
{
	if (from < 0 || to > SCHEMA_VERSION)
		return pg_err(err, errlen, "no migration from schema %d to %d", from, to);
	for (int v = from; v < to; v++)
		if (migrate_one(db, v, err, errlen) < 0)
			return -1;
	char sql[160];
	snprintf(sql, sizeof(sql), "UPDATE perfguide_schema SET version = %d; PRAGMA application_id = %d;",
		 to, APPLICATION_ID);
	return exec(db, sql, err, errlen);
}

static int migrate(sqlite3 *db, int from, int to, char *err, size_t errlen)
{
	if (exec(db, "BEGIN IMMEDIATE", err, errlen) < 0)
		return -1;
	if (migrate_steps(db, from, to, err, errlen) < 0 || exec(db, "COMMIT", err, errlen) < 0) {
		rollback(db);
		return -1;
	}
	return 0;
}

/* The database's schema version (64 bits: 4294967300 is not 4); -1 with err
 * set when there is none. */
static int read_version(sqlite3 *db, long long *version, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = -1;
	if (sqlite3_prepare_v2(db, "SELECT version FROM perfguide_schema", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		/* a version that is no integer is none perfguide writes: said
		 * as it is, not as a version 0 */
		if (sqlite3_column_type(st, 0) != SQLITE_INTEGER) {
			const unsigned char *t = sqlite3_column_text(st, 0);
			snprintf(err, errlen, "store schema version '%.40s' is not an integer: the store is damaged",
				 t ? (const char *)t : "NULL");
			sqlite3_finalize(st);
			return -1;
		}
		*version = sqlite3_column_int64(st, 0);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	}
	if (rc < 0 && !sq_guard_timed_out(db, err, errlen))
		pg_err(err, errlen, "not a perfguide store (no schema version, or more than one)");
	sqlite3_finalize(st);
	return rc;
}

/* Opens the database and tells what it holds: 0 ours at *version (its
 * schema objects all perfguide's), 1 empty, -1 not ours or unreadable (err
 * set). */
static int inspect(sqlite3 *db, long long *version, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "SELECT count(*), sum(name = 'perfguide_schema') FROM sqlite_master",
				    -1, &st, NULL);
	if (rc != SQLITE_OK)
		return pg_err(err, errlen, "not a perfguide store (%s)", sqlite3_errmsg(db));
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		pg_err(err, errlen, "not a perfguide store (%s)", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	int tables = sqlite3_column_int(st, 0), ours = sqlite3_column_int(st, 1);
	sqlite3_finalize(st);
	if (tables == 0)
		return 1;
	if (!ours)
		return pg_err(err, errlen, "not a perfguide store (an SQLite database with other tables)");
	if (read_version(db, version, err, errlen) < 0)
		return -1;
	if (*version < 1)
		return 0;	/* judged damaged by its version */
	char msg[400];
	if (sq_guard_schema(db, *version, SCHEMA_VERSION, migrate_steps, msg, sizeof(msg)) < 0)
		return pg_err(err, errlen, "not a store as perfguide makes them: %s; it is not read", msg);
	return 0;
}

static const struct pg_store_ops sqlite_ops;

static sqlite3 *open_db(const char *path, int create, struct sq_guard *g, char *err, size_t errlen)
{
	struct stat sb;
	if (!create && stat(path, &sb) < 0) {
		pg_err(err, errlen, "no results store at %s (run or import results first)", path);
		return NULL;
	}
	sqlite3 *db = NULL;
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		pg_err(err, errlen, "cannot open store %s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return NULL;
	}
	/* Several perfguides may write at once (a board farm importing): each
	 * waits for the others' transactions. */
	sqlite3_busy_timeout(db, 60000);
	sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	sq_guard_open(db, g);
	return db;
}

int pg_store_sqlite_create_at(const char *path, int version, char *err, size_t errlen)
{
	struct sq_guard g;
	sqlite3 *db = open_db(path, 1, &g, err, errlen);
	if (!db)
		return -1;
	int rc = migrate(db, 0, version, err, errlen);
	sqlite3_close(db);
	return rc;
}

int pg_store_sqlite_version(void)
{
	return SCHEMA_VERSION;
}

/* What inspect found, judged by the rules both stores share (store.h): 0
 * ours at this build's schema, 1 ours and newer (to be read only), 2 to be
 * created or migrated, -1 refused. */
static int judge(sqlite3 *db, int what, long long version, int create, char *err, size_t errlen)
{
	if (what < 0)
		return -1;
	if (what == 1) {
		if (create)
			return 2;
		return pg_err(err, errlen, "not a perfguide store (empty)");
	}
	switch (pg_store_schema_state(version, SCHEMA_VERSION, err, errlen)) {
	case PG_SCHEMA_CURRENT: return 0;
	case PG_SCHEMA_OLDER: return 2;
	case PG_SCHEMA_NEWER: return pg_store_schema_newer(version, SCHEMA_VERSION, sq_readable(db), create, err, errlen) < 0 ? -1 : 1;
	default: return -1;
	}
}

/* Brings the store to this build's schema, creating it when create is set.
 * The version is read again under the write lock, so that perfguides
 * importing into one new store at once create it once and all go on.
 * Returns what judge returns. */
static int prepare(sqlite3 *db, int create, char *err, size_t errlen)
{
	long long version = 0;
	int what = inspect(db, &version, err, errlen);
	what = judge(db, what, version, create, err, errlen);
	if (what != 2)
		return what;
	char msg[256];
	if (exec(db, "BEGIN IMMEDIATE", msg, sizeof(msg)) < 0)
		return pg_err(err, errlen, "cannot lock the store: %s", msg);
	what = inspect(db, &version, err, errlen);
	what = judge(db, what, version, create, err, errlen);
	if (what == 2) {
		if (migrate_steps(db, (int)version, SCHEMA_VERSION, msg, sizeof(msg)) < 0) {
			pg_err(err, errlen, "cannot bring the store to schema %d: %s", SCHEMA_VERSION, msg);
			what = -1;
		} else {
			what = 0;
		}
	}
	if (what < 0 || exec(db, "COMMIT", msg, sizeof(msg)) < 0) {
		if (what >= 0)
			pg_err(err, errlen, "cannot bring the store to schema %d: %s", SCHEMA_VERSION, msg);
		rollback(db);
		return -1;
	}
	return what;
}

struct pg_store *pg_store_sqlite_open(const char *path, int create, char *err, size_t errlen)
{
	char msg[512];
	/* first, so that the guard the connection's progress handler reads lives as long */
	struct sq_store *s = calloc(1, sizeof(*s));
	if (!s) {
		pg_err(err, errlen, "out of memory");
		return NULL;
	}
	if (!(s->db = open_db(path, create, &s->guard, err, errlen))) {
		free(s);
		return NULL;
	}
	int what = prepare(s->db, create, msg, sizeof(msg));
	if (what < 0) {
		pg_err(err, errlen, "%s: %s", path, msg);
		sqlite3_close(s->db);
		free(s);
		return NULL;
	}
	s->base.ops = &sqlite_ops;
	snprintf(s->base.path, sizeof(s->base.path), "%s", path);
	s->newer = what == 1;
	return &s->base;
}

/* The result columns, in pg_record_fields' order: "bench, params, ..." */
void sq_result_columns(char *buf, size_t len, int placeholders)
{
	size_t at = 0;
	buf[0] = '\0';
	for (const struct pg_field *f = pg_record_fields; f->name && at < len; f++) {
		if (f->flags & PG_F_SAMPLES)
			continue;
		int w = snprintf(buf + at, len - at, "%s%s", at ? ", " : "", placeholders ? "?" : f->name);
		if (w < 0)
			break;
		at += (size_t)w;
	}
}

static void bind_field(sqlite3_stmt *st, int i, const struct pg_field *f, const struct pg_record *x)
{
	const void *p = (const char *)x + f->off;
	int there = pg_field_there(f, x);
	if (!there) {
		sqlite3_bind_null(st, i);
		return;
	}
	switch (f->type) {
	case PG_F_TEXT:
	case PG_F_JSON: sq_bind_text(st, i, *(char *const *)p); break;
	case PG_F_REAL: sqlite3_bind_double(st, i, *(const double *)p); break;
	case PG_F_INT: sqlite3_bind_int64(st, i, *(const int64_t *)p); break;
	case PG_F_INT32:
	case PG_F_BOOL: sqlite3_bind_int(st, i, *(const int *)p); break;
	case PG_F_STATUS: sq_bind_text(st, i, pg_status_name(*(const enum pg_status *)p)); break;
	case PG_F_BETTER: sq_bind_text(st, i, pg_better_name(*(const int *)p)); break;
	case PG_F_REALS: {
		json_t *a = pg_json_reals(*(double *const *)p, *(const int *)((const char *)x + f->count_off));
		char *t = pg_json_text(a);
		json_decref(a);
		sq_bind_text(st, i, t);
		free(t);
		break;
	}
	}
}

static int insert_samples(sqlite3 *db, sqlite3_int64 rid, const struct pg_record *x, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "INSERT INTO samples(result_id, seq, value) VALUES (?,?,?)", -1, &st,
			       NULL) != SQLITE_OK)
		return sq_fail(db, err, errlen, "adding samples");
	for (int i = 0; i < x->nsamples; i++) {
		sqlite3_bind_int64(st, 1, rid);
		sqlite3_bind_int(st, 2, i);
		sqlite3_bind_double(st, 3, x->samples[i]);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			return sq_fail(db, err, errlen, "adding samples");
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

static int insert_result(sqlite3 *db, const char *run_id, int seq, const struct pg_record *x,
			 char *err, size_t errlen)
{
	char cols[1024], marks[512], sql[1700];
	sq_result_columns(cols, sizeof(cols), 0);
	sq_result_columns(marks, sizeof(marks), 1);
	snprintf(sql, sizeof(sql), "INSERT INTO results(run_id, seq, %s) VALUES (?, ?, %s)", cols, marks);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return sq_fail(db, err, errlen, "adding a result");
	sq_bind_text(st, 1, run_id);
	sqlite3_bind_int(st, 2, seq);
	int i = 3;
	for (const struct pg_field *f = pg_record_fields; f->name; f++)
		if (!(f->flags & PG_F_SAMPLES))
			bind_field(st, i++, f, x);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sq_fail(db, err, errlen, "adding a result");
	return insert_samples(db, sqlite3_last_insert_rowid(db), x, err, errlen);
}

static int insert_run(sqlite3 *db, const struct pg_rrun *r, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO machines(identity) VALUES (?)", -1, &st, NULL) != SQLITE_OK)
		return sq_fail(db, err, errlen, "adding the machine");
	sq_bind_text(st, 1, r->machine ? r->machine : "{}");
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sq_fail(db, err, errlen, "adding the machine");
	static const char sql[] =
		"INSERT INTO runs(id, board, started, finished, status, version, machine_id, build, config, source,"
		" sections, labels) VALUES (?,?,?,?,?,?,(SELECT id FROM machines WHERE identity = ?),?,?,?,?,?)";
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return sq_fail(db, err, errlen, "adding the run");
	sq_bind_text(st, 1, r->id);
	sq_bind_text(st, 2, r->board);
	sq_bind_text(st, 3, r->started);
	sq_bind_text(st, 4, r->finished);
	sq_bind_text(st, 5, r->end_status);
	sq_bind_text(st, 6, r->version);
	sq_bind_text(st, 7, r->machine ? r->machine : "{}");
	sq_bind_text(st, 8, r->build);
	sq_bind_text(st, 9, r->config);
	sq_bind_text(st, 10, r->source);
	sq_bind_text(st, 11, r->sections);
	sq_bind_text(st, 12, r->labels);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sq_fail(db, err, errlen, "adding the run");
	return 0;
}

/* 1 held complete, 0 held without an end, -1 not held, -2 error. */
static int run_state(sqlite3 *db, const char *id)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT finished IS NOT NULL FROM runs WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return -2;
	sq_bind_text(st, 1, id);
	int rc = sqlite3_step(st), state = -1;
	if (rc == SQLITE_ROW)
		state = sqlite3_column_int(st, 0);
	else if (rc != SQLITE_DONE)
		state = -2;
	sqlite3_finalize(st);
	return state;
}

/* One run inside the caller's transaction; -2 when the store holds another
 * run of that id. */
static int add_one(struct pg_store *s, const struct pg_rrun *r, char *err, size_t errlen)
{
	sqlite3 *db = sq_db(s);
	int state = run_state(db, r->id), ret = PG_ADD_NEW;
	if (state == -2)
		return sq_fail(db, err, errlen, "reading the store");
	if (state >= 0) {
		struct pg_rrun held;
		int same = pg_store_same_run(s, &held, r, err, errlen);
		if (same <= 0)
			return same < 0 ? -1 : -2;
		if (state == 1)
			return PG_ADD_PRESENT;
	}
	if (state == 0) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, "DELETE FROM runs WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
			return sq_fail(db, err, errlen, "replacing the run");
		sq_bind_text(st, 1, r->id);
		int rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return sq_fail(db, err, errlen, "replacing the run");
		ret = PG_ADD_REPLACED;
	}
	if (insert_run(db, r, err, errlen) < 0)
		return -1;
	for (int i = 0; i < r->nres; i++)
		if (insert_result(db, r->id, i, &r->res[i], err, errlen) < 0)
			return -1;
	return ret;
}

/* -1 with err set for a newer perfguide's store, which is only read. */
static int writable(struct pg_store *s, char *err, size_t errlen)
{
	if (!((struct sq_store *)s)->newer)
		return 0;
	return pg_store_read_only(err, errlen);
}

static int sq_add_runs(struct pg_store *s, const struct pg_rrun *r, int n, int *how, char *err, size_t errlen)
{
	sq_begin(s);
	sqlite3 *db = sq_db(s);
	if (writable(s, err, errlen) < 0)
		return -1;
	if (exec(db, "BEGIN IMMEDIATE", err, errlen) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		how[i] = add_one(s, &r[i], err, errlen);
		if (how[i] < 0) {
			rollback(db);
			return how[i];
		}
	}
	if (exec(db, "COMMIT", err, errlen) < 0) {
		rollback(db);
		return -1;
	}
	return 0;
}

static int sq_add_run(struct pg_store *s, const struct pg_rrun *r, char *err, size_t errlen)
{
	int how, rc = sq_add_runs(s, r, 1, &how, err, errlen);
	return rc < 0 ? rc : how;
}

static int sq_begin_run(struct pg_store *s, const struct pg_rrun *r, char *err, size_t errlen)
{
	sq_begin(s);
	sqlite3 *db = sq_db(s);
	if (writable(s, err, errlen) < 0)
		return -1;
	if (exec(db, "BEGIN IMMEDIATE", err, errlen) < 0)
		return -1;
	if (insert_run(db, r, err, errlen) < 0 || exec(db, "COMMIT", err, errlen) < 0) {
		rollback(db);
		return -1;
	}
	return 0;
}

static int sq_add_result(struct pg_store *s, const char *run_id, const struct pg_record *x, char *err, size_t errlen)
{
	sq_begin(s);
	sqlite3 *db = sq_db(s);
	if (writable(s, err, errlen) < 0)
		return -1;
	if (exec(db, "BEGIN IMMEDIATE", err, errlen) < 0)
		return -1;
	sqlite3_stmt *st;
	int seq = 0;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM results WHERE run_id = ?", -1, &st, NULL) == SQLITE_OK) {
		sq_bind_text(st, 1, run_id);
		if (sqlite3_step(st) == SQLITE_ROW)
			seq = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	if (insert_result(db, run_id, seq, x, err, errlen) < 0 || exec(db, "COMMIT", err, errlen) < 0) {
		rollback(db);
		return -1;
	}
	return 0;
}

static int sq_end_run(struct pg_store *s, const char *run_id, const char *finished, const char *status,
		      char *err, size_t errlen)
{
	sq_begin(s);
	sqlite3 *db = sq_db(s);
	sqlite3_stmt *st;
	if (writable(s, err, errlen) < 0)
		return -1;
	if (sqlite3_prepare_v2(db, "UPDATE runs SET finished = ?, status = ? WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return sq_fail(db, err, errlen, "ending the run");
	sq_bind_text(st, 1, finished);
	sq_bind_text(st, 2, status);
	sq_bind_text(st, 3, run_id);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sq_fail(db, err, errlen, "ending the run");
}

static void sq_close(struct pg_store *s)
{
	sqlite3_close(sq_db(s));
	free(s);
}

static const struct pg_store_ops sqlite_ops = {
	.name = "sqlite",
	.add_run = sq_add_run,
	.add_runs = sq_add_runs,
	.begin_run = sq_begin_run,
	.add_result = sq_add_result,
	.end_run = sq_end_run,
	.list_runs = sq_list_runs,
	.load_run = sq_load_run,
	.load_figures = sq_load_figures,
	.close = sq_close,
};
