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

struct sq_store {
	struct pg_store base;
	sqlite3 *db;
	int newer;		/* a newer perfguide's store: read, never written */
	struct sq_guard guard;	/* what the store may make perfguide do */
};

static sqlite3 *db_of(struct pg_store *s)
{
	return ((struct sq_store *)s)->db;
}

static int fail(sqlite3 *db, char *err, size_t len, const char *what)
{
	char msg[256];
	if (!sq_guard_timed_out(db, msg, sizeof(msg)))
		snprintf(msg, sizeof(msg), "%s", sqlite3_errmsg(db));
	snprintf(err, len, "%s: %s", what, msg);
	return -1;
}

/* A new operation on the store: its time bound starts. */
static void begin(struct pg_store *s)
{
	sq_guard_begin(&((struct sq_store *)s)->guard);
}

static int exec(sqlite3 *db, const char *sql, char *err, size_t len)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		if (!sq_guard_timed_out(db, err, len))
			snprintf(err, len, "%s", msg ? msg : sqlite3_errmsg(db));
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
static int migrate_one(sqlite3 *db, int v, char *err, size_t len)
{
	if (exec(db, migrations[v], err, len) < 0)
		return -1;
	for (const struct pg_field *f = pg_record_fields; f->name; f++) {
		if (f->since != v + 1 || (f->flags & PG_F_SAMPLES) || v == 0)
			continue;
		char sql[128];
		snprintf(sql, sizeof(sql), "ALTER TABLE results ADD COLUMN %s %s;", f->name, column_type(f));
		if (exec(db, sql, err, len) < 0)
			return -1;
	}
	return 0;
}

/* The steps from one version to another, inside the caller's transaction. */
static int migrate_steps(sqlite3 *db, int from, int to, char *err, size_t len)
{
	if (from < 0 || to > SCHEMA_VERSION) {
		snprintf(err, len, "no migration from schema %d to %d", from, to);
		return -1;
	}
	for (int v = from; v < to; v++)
		if (migrate_one(db, v, err, len) < 0)
			return -1;
	char sql[160];
	snprintf(sql, sizeof(sql), "UPDATE perfguide_schema SET version = %d; PRAGMA application_id = %d;",
		 to, APPLICATION_ID);
	return exec(db, sql, err, len);
}

static int migrate(sqlite3 *db, int from, int to, char *err, size_t len)
{
	if (exec(db, "BEGIN IMMEDIATE", err, len) < 0)
		return -1;
	if (migrate_steps(db, from, to, err, len) < 0 || exec(db, "COMMIT", err, len) < 0) {
		rollback(db);
		return -1;
	}
	return 0;
}

/* The database's schema version (64 bits: 4294967300 is not 4); -1 with err
 * set when there is none. */
static int read_version(sqlite3 *db, long long *version, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc = -1;
	if (sqlite3_prepare_v2(db, "SELECT version FROM perfguide_schema", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		/* a version that is no integer is none perfguide writes */
		*version = sqlite3_column_type(st, 0) == SQLITE_INTEGER ? sqlite3_column_int64(st, 0) : 0;
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	}
	if (rc < 0 && !sq_guard_timed_out(db, err, len))
		snprintf(err, len, "not a perfguide store (no schema version, or more than one)");
	sqlite3_finalize(st);
	return rc;
}

/* Opens the database and tells what it holds: 0 ours at *version (its
 * schema objects all perfguide's), 1 empty, -1 not ours or unreadable (err
 * set). */
static int inspect(sqlite3 *db, long long *version, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "SELECT count(*), sum(name = 'perfguide_schema') FROM sqlite_master",
				    -1, &st, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, len, "not a perfguide store (%s)", sqlite3_errmsg(db));
		return -1;
	}
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		snprintf(err, len, "not a perfguide store (%s)", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	int tables = sqlite3_column_int(st, 0), ours = sqlite3_column_int(st, 1);
	sqlite3_finalize(st);
	if (tables == 0)
		return 1;
	if (!ours) {
		snprintf(err, len, "not a perfguide store (an SQLite database with other tables)");
		return -1;
	}
	if (read_version(db, version, err, len) < 0)
		return -1;
	if (*version < 1)
		return 0;	/* judged damaged by its version */
	char msg[400];
	if (sq_guard_schema(db, *version, SCHEMA_VERSION, migrate_steps, msg, sizeof(msg)) < 0) {
		snprintf(err, len, "not a store as perfguide makes them: %s; it is not read", msg);
		return -1;
	}
	return 0;
}

static const struct pg_store_ops sqlite_ops;

static sqlite3 *open_db(const char *path, int create, struct sq_guard *g, char *err, size_t len)
{
	struct stat sb;
	if (!create && stat(path, &sb) < 0) {
		snprintf(err, len, "no results store at %s (run or import results first)", path);
		return NULL;
	}
	sqlite3 *db = NULL;
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		snprintf(err, len, "cannot open store %s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
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

int pg_store_sqlite_create_at(const char *path, int version, char *err, size_t len)
{
	struct sq_guard g;
	sqlite3 *db = open_db(path, 1, &g, err, len);
	if (!db)
		return -1;
	int rc = migrate(db, 0, version, err, len);
	sqlite3_close(db);
	return rc;
}

int pg_store_sqlite_version(void)
{
	return SCHEMA_VERSION;
}

static int readable(sqlite3 *db);

/* What inspect found, judged by the rules both stores share (store.h): 0
 * ours at this build's schema, 1 ours and newer (to be read only), 2 to be
 * created or migrated, -1 refused. */
static int judge(sqlite3 *db, int what, long long version, int create, char *err, size_t len)
{
	if (what < 0)
		return -1;
	if (what == 1) {
		if (create)
			return 2;
		snprintf(err, len, "not a perfguide store (empty)");
		return -1;
	}
	switch (pg_store_schema_state(version, SCHEMA_VERSION, err, len)) {
	case PG_SCHEMA_CURRENT: return 0;
	case PG_SCHEMA_OLDER: return 2;
	case PG_SCHEMA_NEWER: return pg_store_schema_newer(version, SCHEMA_VERSION, readable(db), create, err, len) < 0 ? -1 : 1;
	default: return -1;
	}
}

/* Brings the store to this build's schema, creating it when create is set.
 * The version is read again under the write lock, so that perfguides
 * importing into one new store at once create it once and all go on.
 * Returns what judge returns. */
static int prepare(sqlite3 *db, int create, char *err, size_t len)
{
	long long version = 0;
	int what = inspect(db, &version, err, len);
	what = judge(db, what, version, create, err, len);
	if (what != 2)
		return what;
	char msg[256];
	if (exec(db, "BEGIN IMMEDIATE", msg, sizeof(msg)) < 0) {
		snprintf(err, len, "cannot lock the store: %s", msg);
		return -1;
	}
	what = inspect(db, &version, err, len);
	what = judge(db, what, version, create, err, len);
	if (what == 2) {
		if (migrate_steps(db, (int)version, SCHEMA_VERSION, msg, sizeof(msg)) < 0) {
			snprintf(err, len, "cannot bring the store to schema %d: %s", SCHEMA_VERSION, msg);
			what = -1;
		} else {
			what = 0;
		}
	}
	if (what < 0 || exec(db, "COMMIT", msg, sizeof(msg)) < 0) {
		if (what >= 0)
			snprintf(err, len, "cannot bring the store to schema %d: %s", SCHEMA_VERSION, msg);
		rollback(db);
		return -1;
	}
	return what;
}

struct pg_store *pg_store_sqlite_open(const char *path, int create, char *err, size_t len)
{
	char msg[512];
	/* first, so that the guard the connection's progress handler reads lives as long */
	struct sq_store *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	if (!(s->db = open_db(path, create, &s->guard, err, len))) {
		free(s);
		return NULL;
	}
	int what = prepare(s->db, create, msg, sizeof(msg));
	if (what < 0) {
		snprintf(err, len, "%s: %s", path, msg);
		sqlite3_close(s->db);
		free(s);
		return NULL;
	}
	s->base.ops = &sqlite_ops;
	snprintf(s->base.path, sizeof(s->base.path), "%s", path);
	s->newer = what == 1;
	return &s->base;
}

static void bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* The result columns, in pg_record_fields' order: "bench, params, ..." */
static void result_columns(char *buf, size_t len, int placeholders)
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
	case PG_F_JSON: bind_text(st, i, *(char *const *)p); break;
	case PG_F_REAL: sqlite3_bind_double(st, i, *(const double *)p); break;
	case PG_F_INT: sqlite3_bind_int64(st, i, *(const int64_t *)p); break;
	case PG_F_INT32:
	case PG_F_BOOL: sqlite3_bind_int(st, i, *(const int *)p); break;
	case PG_F_STATUS: bind_text(st, i, pg_status_name(*(const enum pg_status *)p)); break;
	case PG_F_BETTER: bind_text(st, i, pg_better_name(*(const int *)p)); break;
	case PG_F_REALS: {
		json_t *a = pg_json_reals(*(double *const *)p, *(const int *)((const char *)x + f->count_off));
		char *t = pg_json_text(a);
		json_decref(a);
		bind_text(st, i, t);
		free(t);
		break;
	}
	}
}

static int insert_samples(sqlite3 *db, sqlite3_int64 rid, const struct pg_record *x, char *err, size_t len)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "INSERT INTO samples(result_id, seq, value) VALUES (?,?,?)", -1, &st,
			       NULL) != SQLITE_OK)
		return fail(db, err, len, "adding samples");
	for (int i = 0; i < x->nsamples; i++) {
		sqlite3_bind_int64(st, 1, rid);
		sqlite3_bind_int(st, 2, i);
		sqlite3_bind_double(st, 3, x->samples[i]);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			return fail(db, err, len, "adding samples");
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

static int insert_result(sqlite3 *db, const char *run_id, int seq, const struct pg_record *x,
			 char *err, size_t len)
{
	char cols[1024], marks[512], sql[1700];
	result_columns(cols, sizeof(cols), 0);
	result_columns(marks, sizeof(marks), 1);
	snprintf(sql, sizeof(sql), "INSERT INTO results(run_id, seq, %s) VALUES (?, ?, %s)", cols, marks);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail(db, err, len, "adding a result");
	bind_text(st, 1, run_id);
	sqlite3_bind_int(st, 2, seq);
	int i = 3;
	for (const struct pg_field *f = pg_record_fields; f->name; f++)
		if (!(f->flags & PG_F_SAMPLES))
			bind_field(st, i++, f, x);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(db, err, len, "adding a result");
	return insert_samples(db, sqlite3_last_insert_rowid(db), x, err, len);
}

static int insert_run(sqlite3 *db, const struct pg_rrun *r, char *err, size_t len)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO machines(identity) VALUES (?)", -1, &st, NULL) != SQLITE_OK)
		return fail(db, err, len, "adding the machine");
	bind_text(st, 1, r->machine ? r->machine : "{}");
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(db, err, len, "adding the machine");
	static const char sql[] =
		"INSERT INTO runs(id, board, started, finished, status, version, machine_id, build, config, source,"
		" sections, labels) VALUES (?,?,?,?,?,?,(SELECT id FROM machines WHERE identity = ?),?,?,?,?,?)";
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail(db, err, len, "adding the run");
	bind_text(st, 1, r->id);
	bind_text(st, 2, r->board);
	bind_text(st, 3, r->started);
	bind_text(st, 4, r->finished);
	bind_text(st, 5, r->end_status);
	bind_text(st, 6, r->version);
	bind_text(st, 7, r->machine ? r->machine : "{}");
	bind_text(st, 8, r->build);
	bind_text(st, 9, r->config);
	bind_text(st, 10, r->source);
	bind_text(st, 11, r->sections);
	bind_text(st, 12, r->labels);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(db, err, len, "adding the run");
	return 0;
}

/* 1 held complete, 0 held without an end, -1 not held, -2 error. */
static int run_state(sqlite3 *db, const char *id)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT finished IS NOT NULL FROM runs WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return -2;
	bind_text(st, 1, id);
	int rc = sqlite3_step(st), state = -1;
	if (rc == SQLITE_ROW)
		state = sqlite3_column_int(st, 0);
	else if (rc != SQLITE_DONE)
		state = -2;
	sqlite3_finalize(st);
	return state;
}

static int sq_load_run(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t len);

/* One run inside the caller's transaction; -2 when the store holds another
 * run of that id. */
static int add_one(struct pg_store *s, const struct pg_rrun *r, char *err, size_t len)
{
	sqlite3 *db = db_of(s);
	int state = run_state(db, r->id), ret = PG_ADD_NEW;
	if (state == -2)
		return fail(db, err, len, "reading the store");
	if (state >= 0) {
		struct pg_rrun held;
		int same = pg_store_same_run(s, &held, r, err, len);
		if (same <= 0)
			return same < 0 ? -1 : -2;
		if (state == 1)
			return PG_ADD_PRESENT;
	}
	if (state == 0) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, "DELETE FROM runs WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
			return fail(db, err, len, "replacing the run");
		bind_text(st, 1, r->id);
		int rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return fail(db, err, len, "replacing the run");
		ret = PG_ADD_REPLACED;
	}
	if (insert_run(db, r, err, len) < 0)
		return -1;
	for (int i = 0; i < r->nres; i++)
		if (insert_result(db, r->id, i, &r->res[i], err, len) < 0)
			return -1;
	return ret;
}

/* -1 with err set for a newer perfguide's store, which is only read. */
static int writable(struct pg_store *s, char *err, size_t len)
{
	if (!((struct sq_store *)s)->newer)
		return 0;
	return pg_store_read_only(err, len);
}

static int sq_add_runs(struct pg_store *s, const struct pg_rrun *r, int n, int *how, char *err, size_t len)
{
	begin(s);
	sqlite3 *db = db_of(s);
	if (writable(s, err, len) < 0)
		return -1;
	if (exec(db, "BEGIN IMMEDIATE", err, len) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		how[i] = add_one(s, &r[i], err, len);
		if (how[i] < 0) {
			rollback(db);
			return how[i];
		}
	}
	if (exec(db, "COMMIT", err, len) < 0) {
		rollback(db);
		return -1;
	}
	return 0;
}

static int sq_add_run(struct pg_store *s, const struct pg_rrun *r, char *err, size_t len)
{
	int how, rc = sq_add_runs(s, r, 1, &how, err, len);
	return rc < 0 ? rc : how;
}

static int sq_begin_run(struct pg_store *s, const struct pg_rrun *r, char *err, size_t len)
{
	begin(s);
	sqlite3 *db = db_of(s);
	if (writable(s, err, len) < 0)
		return -1;
	if (exec(db, "BEGIN IMMEDIATE", err, len) < 0)
		return -1;
	if (insert_run(db, r, err, len) < 0 || exec(db, "COMMIT", err, len) < 0) {
		rollback(db);
		return -1;
	}
	return 0;
}

static int sq_add_result(struct pg_store *s, const char *run_id, const struct pg_record *x, char *err, size_t len)
{
	begin(s);
	sqlite3 *db = db_of(s);
	if (writable(s, err, len) < 0)
		return -1;
	if (exec(db, "BEGIN IMMEDIATE", err, len) < 0)
		return -1;
	sqlite3_stmt *st;
	int seq = 0;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM results WHERE run_id = ?", -1, &st, NULL) == SQLITE_OK) {
		bind_text(st, 1, run_id);
		if (sqlite3_step(st) == SQLITE_ROW)
			seq = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	if (insert_result(db, run_id, seq, x, err, len) < 0 || exec(db, "COMMIT", err, len) < 0) {
		rollback(db);
		return -1;
	}
	return 0;
}

static int sq_end_run(struct pg_store *s, const char *run_id, const char *finished, const char *status,
		      char *err, size_t len)
{
	begin(s);
	sqlite3 *db = db_of(s);
	sqlite3_stmt *st;
	if (writable(s, err, len) < 0)
		return -1;
	if (sqlite3_prepare_v2(db, "UPDATE runs SET finished = ?, status = ? WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return fail(db, err, len, "ending the run");
	bind_text(st, 1, finished);
	bind_text(st, 2, status);
	bind_text(st, 3, run_id);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(db, err, len, "ending the run");
}

static void copy_col(sqlite3_stmt *st, int i, char *buf, size_t len)
{
	pg_text_copy(buf, len, (const char *)sqlite3_column_text(st, i));
}

#define STR(x) #x
#define XSTR(x) STR(x)
/* A run whose id or board is longer than a results file may give (only a
 * store written by something else has one) is not listed. */
static const char list_sql[] =
	"SELECT r.id, r.board, r.started, r.version, coalesce(r.status, 'incomplete'),"
	" (SELECT count(*) FROM results WHERE run_id = r.id), r.labels FROM runs r"
	" WHERE length(CAST(r.id AS BLOB)) <= " XSTR(PG_RUN_ID_MAX)
	" AND length(CAST(r.board AS BLOB)) <= " XSTR(PG_BOARD_MAX) " ORDER BY r.started, r.id";
static const char run_row_sql[] =
	"SELECT r.id, r.board, r.started, r.finished, r.status, r.version, m.identity, r.build, r.config,"
	" r.source, r.sections, r.labels FROM runs r LEFT JOIN machines m ON m.id = r.machine_id WHERE r.id = ?";
static const char samples_sql[] = "SELECT value FROM samples WHERE result_id = ? ORDER BY seq";

static void results_sql(char *sql, size_t len)
{
	char cols[1024];
	result_columns(cols, sizeof(cols), 0);
	snprintf(sql, len, "SELECT id, (SELECT count(*) FROM samples WHERE result_id = results.id), %s"
		 " FROM results WHERE run_id = ? ORDER BY seq", cols);
}

/* 1 when every query that reads runs finds its tables and columns. */
static int readable(sqlite3 *db)
{
	char sql[1300];
	results_sql(sql, sizeof(sql));
	const char *const all[] = { list_sql, run_row_sql, samples_sql, sql };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, all[i], -1, &st, NULL) != SQLITE_OK)
			return 0;
		sqlite3_finalize(st);
	}
	return 1;
}

/* The column's text; what is not UTF-8 in it (only a store written by
 * something else has any) as U+FFFD. */
static char *col_dup(sqlite3_stmt *st, int i)
{
	return pg_utf8_dup((const char *)sqlite3_column_text(st, i));
}

static int sq_list_runs(struct pg_store *s, struct pg_run_summary **out, int *n, char *err, size_t len)
{
	begin(s);
	sqlite3 *db = db_of(s);
	sqlite3_stmt *st;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, list_sql, -1, &st, NULL) != SQLITE_OK)
		return fail(db, err, len, "listing runs");
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!pg_store_listable((const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1)))
			continue;
		struct pg_run_summary *p = realloc(*out, sizeof(*p) * (size_t)(*n + 1));
		if (!p)
			break;
		*out = p;
		p += *n;
		copy_col(st, 0, p->id, sizeof(p->id));
		copy_col(st, 1, p->board, sizeof(p->board));
		copy_col(st, 2, p->started, sizeof(p->started));
		copy_col(st, 3, p->version, sizeof(p->version));
		copy_col(st, 4, p->status, sizeof(p->status));
		p->nresults = sqlite3_column_int(st, 5);
		p->labels = col_dup(st, 6);
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		pg_run_summaries_free(*out, *n);
		*out = NULL;
		*n = 0;
		return fail(db, err, len, "listing runs");
	}
	return 0;
}

static void column_field(sqlite3_stmt *st, int i, const struct pg_field *f, struct pg_record *x)
{
	void *p = (char *)x + f->off;
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return;
	if (f->flags & PG_F_HAVE)
		*(int *)((char *)x + f->count_off) = 1;
	switch (f->type) {
	case PG_F_TEXT:
	case PG_F_JSON: *(char **)p = col_dup(st, i); break;
	case PG_F_REAL: *(double *)p = sqlite3_column_double(st, i); break;
	case PG_F_INT: *(int64_t *)p = sqlite3_column_int64(st, i); break;
	case PG_F_INT32:
	case PG_F_BOOL: *(int *)p = sqlite3_column_int(st, i); break;
	case PG_F_STATUS:
		if (pg_status_parse((const char *)sqlite3_column_text(st, i), (enum pg_status *)p) < 0)
			*(enum pg_status *)p = PG_ERROR;
		break;
	case PG_F_BETTER: *(int *)p = pg_better_parse((const char *)sqlite3_column_text(st, i)); break;
	case PG_F_REALS: {
		char e[64];
		json_t *a = json_loads((const char *)sqlite3_column_text(st, i), 0, NULL);
		int *n = (int *)((char *)x + f->count_off);
		*(double **)p = json_is_array(a) ? pg_json_to_reals(a, n, f->name, e, sizeof(e)) : NULL;
		if (!*(double **)p)
			*n = 0;
		json_decref(a);
		break;
	}
	}
}

/* The run's own row; 1 found, 0 not, -1 error. */
static int load_run_row(sqlite3 *db, const char *id, struct pg_rrun *r)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, run_row_sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	bind_text(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		char **dst[] = { &r->id, &r->board, &r->started, &r->finished, &r->end_status, &r->version,
				 &r->machine, &r->build, &r->config, &r->source, &r->sections, &r->labels };
		for (int i = 0; i < (int)(sizeof(dst) / sizeof(dst[0])); i++)
			*dst[i] = col_dup(st, i);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static int load_samples(sqlite3 *db, struct pg_rrun *r, const sqlite3_int64 *rids)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, samples_sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	for (int i = 0; i < r->nres; i++) {
		struct pg_record *x = &r->res[i];
		x->samples = x->nsamples ? calloc((size_t)x->nsamples, sizeof(double)) : NULL;
		if (!x->samples)
			x->nsamples = 0;
		sqlite3_bind_int64(st, 1, rids[i]);
		for (int k = 0; k < x->nsamples && sqlite3_step(st) == SQLITE_ROW; k++)
			x->samples[k] = sqlite3_column_double(st, 0);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

/* Every result of the run, by the field table; their ids into *rids. */
static int load_results(sqlite3 *db, const char *id, struct pg_rrun *r, sqlite3_int64 **rids)
{
	char sql[1300];
	results_sql(sql, sizeof(sql));
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	bind_text(st, 1, id);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (r->nres == r->res_cap) {
			int cap = r->res_cap ? r->res_cap * 2 : 16;
			struct pg_record *p = realloc(r->res, sizeof(*p) * (size_t)cap);
			if (p)
				r->res = p;
			sqlite3_int64 *q = realloc(*rids, sizeof(*q) * (size_t)cap);
			if (q)
				*rids = q;
			if (!p || !q) {
				rc = SQLITE_NOMEM;
				break;
			}
			r->res_cap = cap;
		}
		struct pg_record *x = &r->res[r->nres];
		memset(x, 0, sizeof(*x));
		x->higher = 1;
		(*rids)[r->nres++] = sqlite3_column_int64(st, 0);
		x->nsamples = sqlite3_column_int(st, 1);
		int i = 2;
		for (const struct pg_field *f = pg_record_fields; f->name; f++)
			if (!(f->flags & PG_F_SAMPLES))
				column_field(st, i++, f, x);
		pg_record_text_defaults(x);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int sq_load_run(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t len)
{
	begin(s);
	sqlite3 *db = db_of(s);
	memset(r, 0, sizeof(*r));
	int found = load_run_row(db, id, r);
	if (found <= 0) {
		pg_rrun_free(r);
		return found < 0 ? fail(db, err, len, "reading a run") : 0;
	}
	sqlite3_int64 *rids = NULL;
	if (load_results(db, id, r, &rids) < 0 || load_samples(db, r, rids) < 0) {
		free(rids);
		fail(db, err, len, "reading results");
		pg_rrun_free(r);
		return -1;
	}
	free(rids);
	return 1;
}

static void sq_close(struct pg_store *s)
{
	sqlite3_close(db_of(s));
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
	.close = sq_close,
};
