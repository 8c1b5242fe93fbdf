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

#include "store.h"

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
};
#define SCHEMA_VERSION ((int)(sizeof(migrations) / sizeof(migrations[0])))

struct sq_store {
	struct pg_store base;
	sqlite3 *db;
};

static sqlite3 *db_of(struct pg_store *s)
{
	return ((struct sq_store *)s)->db;
}

static int fail(sqlite3 *db, char *err, size_t len, const char *what)
{
	snprintf(err, len, "%s: %s", what, sqlite3_errmsg(db));
	return -1;
}

static int exec(sqlite3 *db, const char *sql, char *err, size_t len)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
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

static int migrate(sqlite3 *db, int from, int to, char *err, size_t len)
{
	if (exec(db, "BEGIN IMMEDIATE", err, len) < 0)
		return -1;
	for (int v = from; v < to; v++) {
		if (exec(db, migrations[v], err, len) < 0) {
			rollback(db);
			return -1;
		}
	}
	char sql[160];
	snprintf(sql, sizeof(sql), "UPDATE perfguide_schema SET version = %d; PRAGMA application_id = %d;",
		 to, APPLICATION_ID);
	if (exec(db, sql, err, len) < 0 || exec(db, "COMMIT", err, len) < 0) {
		rollback(db);
		return -1;
	}
	return 0;
}

/* Opens the database and tells what it holds: 0 ours at *version, 1 empty,
 * -1 not ours or unreadable (err set). */
static int inspect(sqlite3 *db, int *version, char *err, size_t len)
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
	if (sqlite3_prepare_v2(db, "SELECT version FROM perfguide_schema", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		snprintf(err, len, "not a perfguide store (no schema version)");
		sqlite3_finalize(st);
		return -1;
	}
	*version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

static const struct pg_store_ops sqlite_ops;

static sqlite3 *open_db(const char *path, int create, char *err, size_t len)
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
	/* Several perfguides may write at once (a board farm importing). */
	sqlite3_busy_timeout(db, 10000);
	sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	return db;
}

int pg_store_sqlite_create_at(const char *path, int version, char *err, size_t len)
{
	sqlite3 *db = open_db(path, 1, err, len);
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

struct pg_store *pg_store_sqlite_open(const char *path, int create, char *err, size_t len)
{
	char msg[256];
	sqlite3 *db = open_db(path, create, err, len);
	if (!db)
		return NULL;
	int version = 0;
	int what = inspect(db, &version, msg, sizeof(msg));
	if (what < 0) {
		snprintf(err, len, "%s: %s", path, msg);
		goto bad;
	}
	if (what == 0 && version > SCHEMA_VERSION) {
		snprintf(err, len, "%s: store schema %d is newer than this perfguide knows (%d): use a newer perfguide",
			 path, version, SCHEMA_VERSION);
		goto bad;
	}
	if (what == 1 && !create) {
		snprintf(err, len, "%s: not a perfguide store (empty)", path);
		goto bad;
	}
	if (version < SCHEMA_VERSION && migrate(db, version, SCHEMA_VERSION, msg, sizeof(msg)) < 0) {
		snprintf(err, len, "%s: cannot bring the store to schema %d: %s", path, SCHEMA_VERSION, msg);
		goto bad;
	}
	struct sq_store *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, len, "out of memory");
		goto bad;
	}
	s->base.ops = &sqlite_ops;
	snprintf(s->base.path, sizeof(s->base.path), "%s", path);
	s->db = db;
	return &s->base;
bad:
	sqlite3_close(db);
	return NULL;
}

static void bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static const char *status_text(enum pg_rstatus s)
{
	return s == PG_R_OK ? "ok" : s == PG_R_SKIPPED ? "skipped" : "error";
}

static int insert_result(sqlite3 *db, const char *run_id, int seq, const struct pg_rres *x,
			 char *err, size_t len)
{
	static const char sql[] =
		"INSERT INTO results(run_id, seq, bench, params, metric, unit, better, status, reason,"
		" median, min, max, mean, stddev, cv, noisy, busy_pct, cpu, label, title, note)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail(db, err, len, "adding a result");
	bind_text(st, 1, run_id);
	sqlite3_bind_int(st, 2, seq);
	bind_text(st, 3, x->bench);
	bind_text(st, 4, x->params);
	bind_text(st, 5, x->metric);
	bind_text(st, 6, x->unit);
	bind_text(st, 7, x->higher ? "higher" : "lower");
	bind_text(st, 8, status_text(x->status));
	bind_text(st, 9, x->reason);
	if (x->status == PG_R_OK) {
		sqlite3_bind_double(st, 10, x->median);
		sqlite3_bind_double(st, 11, x->min);
		sqlite3_bind_double(st, 12, x->max);
		sqlite3_bind_double(st, 13, x->mean);
		sqlite3_bind_double(st, 14, x->stddev);
		sqlite3_bind_double(st, 15, x->cv);
		sqlite3_bind_int(st, 16, x->noisy);
	}
	if (x->have_busy)
		sqlite3_bind_double(st, 17, x->busy_pct);
	bind_text(st, 18, x->cpu);
	bind_text(st, 19, x->label);
	bind_text(st, 20, x->title);
	bind_text(st, 21, x->note);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(db, err, len, "adding a result");
	sqlite3_int64 rid = sqlite3_last_insert_rowid(db);
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
		"INSERT INTO runs(id, board, started, finished, status, version, machine_id, build, config, source)"
		" VALUES (?,?,?,?,?,?,(SELECT id FROM machines WHERE identity = ?),?,?,?)";
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

/* One run inside the caller's transaction. */
static int add_one(sqlite3 *db, const struct pg_rrun *r, char *err, size_t len)
{
	int state = run_state(db, r->id), ret = PG_ADD_NEW;
	if (state == -2)
		return fail(db, err, len, "reading the store");
	if (state == 1)
		return PG_ADD_PRESENT;
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

static int sq_add_runs(struct pg_store *s, const struct pg_rrun *r, int n, int *how, char *err, size_t len)
{
	sqlite3 *db = db_of(s);
	if (exec(db, "BEGIN IMMEDIATE", err, len) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		how[i] = add_one(db, &r[i], err, len);
		if (how[i] < 0) {
			rollback(db);
			return -1;
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
	int how;
	return sq_add_runs(s, r, 1, &how, err, len) < 0 ? -1 : how;
}

static int sq_begin_run(struct pg_store *s, const struct pg_rrun *r, char *err, size_t len)
{
	sqlite3 *db = db_of(s);
	if (exec(db, "BEGIN IMMEDIATE", err, len) < 0)
		return -1;
	if (insert_run(db, r, err, len) < 0 || exec(db, "COMMIT", err, len) < 0) {
		rollback(db);
		return -1;
	}
	return 0;
}

static int sq_add_result(struct pg_store *s, const char *run_id, const struct pg_rres *x, char *err, size_t len)
{
	sqlite3 *db = db_of(s);
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
	sqlite3 *db = db_of(s);
	sqlite3_stmt *st;
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
	const unsigned char *t = sqlite3_column_text(st, i);
	snprintf(buf, len, "%s", t ? (const char *)t : "");
}

static int sq_list_runs(struct pg_store *s, struct pg_run_summary **out, int *n, char *err, size_t len)
{
	sqlite3 *db = db_of(s);
	static const char sql[] =
		"SELECT r.id, r.board, r.started, r.version, coalesce(r.status, 'incomplete'),"
		" (SELECT count(*) FROM results WHERE run_id = r.id) FROM runs r ORDER BY r.started, r.id";
	sqlite3_stmt *st;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail(db, err, len, "listing runs");
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
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
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*out);
		*out = NULL;
		*n = 0;
		return fail(db, err, len, "listing runs");
	}
	return 0;
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? strdup((const char *)t) : NULL;
}

static int sq_load_run(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t len)
{
	sqlite3 *db = db_of(s);
	memset(r, 0, sizeof(*r));
	sqlite3_stmt *st;
	static const char run_sql[] =
		"SELECT r.id, r.board, r.started, r.finished, r.status, r.version, m.identity, r.build, r.config,"
		" r.source FROM runs r LEFT JOIN machines m ON m.id = r.machine_id WHERE r.id = ?";
	if (sqlite3_prepare_v2(db, run_sql, -1, &st, NULL) != SQLITE_OK)
		return fail(db, err, len, "reading a run");
	bind_text(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		return rc == SQLITE_DONE ? 0 : fail(db, err, len, "reading a run");
	}
	r->id = col_dup(st, 0);
	r->board = col_dup(st, 1);
	r->started = col_dup(st, 2);
	r->finished = col_dup(st, 3);
	r->end_status = col_dup(st, 4);
	r->version = col_dup(st, 5);
	r->machine = col_dup(st, 6);
	r->build = col_dup(st, 7);
	r->config = col_dup(st, 8);
	r->source = col_dup(st, 9);
	sqlite3_finalize(st);

	static const char res_sql[] =
		"SELECT bench, params, metric, unit, better, status, reason, median, min, max, mean, stddev, cv,"
		" noisy, busy_pct, cpu, label, title, note, id,"
		" (SELECT count(*) FROM samples WHERE result_id = results.id)"
		" FROM results WHERE run_id = ? ORDER BY seq";
	if (sqlite3_prepare_v2(db, res_sql, -1, &st, NULL) != SQLITE_OK)
		goto bad;
	bind_text(st, 1, id);
	sqlite3_int64 *rids = NULL;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pg_rres *p = realloc(r->res, sizeof(*p) * (size_t)(r->nres + 1));
		sqlite3_int64 *q = realloc(rids, sizeof(*q) * (size_t)(r->nres + 1));
		if (q)
			rids = q;
		if (!p || !q) {
			if (p)
				r->res = p;
			rc = SQLITE_NOMEM;
			break;
		}
		r->res = p;
		struct pg_rres *x = &r->res[r->nres];
		memset(x, 0, sizeof(*x));
		r->nres++;
		x->bench = col_dup(st, 0);
		x->params = col_dup(st, 1);
		x->metric = col_dup(st, 2);
		x->unit = col_dup(st, 3);
		const unsigned char *better = sqlite3_column_text(st, 4);
		x->higher = !better || strcmp((const char *)better, "lower") != 0;
		const char *status = (const char *)sqlite3_column_text(st, 5);
		x->status = !status || strcmp(status, "ok") == 0 ? PG_R_OK
			  : strcmp(status, "skipped") == 0 ? PG_R_SKIPPED : PG_R_ERROR;
		x->reason = col_dup(st, 6);
		x->median = sqlite3_column_double(st, 7);
		x->min = sqlite3_column_double(st, 8);
		x->max = sqlite3_column_double(st, 9);
		x->mean = sqlite3_column_double(st, 10);
		x->stddev = sqlite3_column_double(st, 11);
		x->cv = sqlite3_column_double(st, 12);
		x->noisy = sqlite3_column_int(st, 13);
		x->have_busy = sqlite3_column_type(st, 14) != SQLITE_NULL;
		x->busy_pct = sqlite3_column_double(st, 14);
		x->cpu = col_dup(st, 15);
		x->label = col_dup(st, 16);
		x->title = col_dup(st, 17);
		x->note = col_dup(st, 18);
		rids[r->nres - 1] = sqlite3_column_int64(st, 19);
		x->nsamples = sqlite3_column_int(st, 20);
		x->samples = x->nsamples ? calloc((size_t)x->nsamples, sizeof(double)) : NULL;
		if (x->nsamples && !x->samples)
			x->nsamples = 0;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(rids);
		goto bad;
	}
	if (sqlite3_prepare_v2(db, "SELECT value FROM samples WHERE result_id = ? ORDER BY seq", -1, &st, NULL) != SQLITE_OK) {
		free(rids);
		goto bad;
	}
	for (int i = 0; i < r->nres; i++) {
		sqlite3_bind_int64(st, 1, rids[i]);
		for (int k = 0; k < r->res[i].nsamples && sqlite3_step(st) == SQLITE_ROW; k++)
			r->res[i].samples[k] = sqlite3_column_double(st, 0);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	free(rids);
	return 1;
bad:
	fail(db, err, len, "reading results");
	pg_rrun_free(r);
	return -1;
}

int pg_store_runs_of_board(struct pg_store *s, const char *board, char ***ids, int *n, char *err, size_t len)
{
	struct pg_run_summary *all;
	int nall;
	*ids = NULL;
	*n = 0;
	if (s->ops->list_runs(s, &all, &nall, err, len) < 0)
		return -1;
	*ids = calloc((size_t)nall + 1, sizeof(char *));
	for (int i = 0; *ids && i < nall; i++)
		if (strcmp(all[i].board, board) == 0)
			(*ids)[(*n)++] = strdup(all[i].id);
	free(all);
	return 0;
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

/* Only the SQLite backend today. */
struct pg_store *pg_store_open(const char *path, int create, char *err, size_t len)
{
	return pg_store_sqlite_open(path, create, err, len);
}

void pg_store_close(struct pg_store *s)
{
	if (s)
		s->ops->close(s);
}

/* Creates the directories of the default path as needed. */
int pg_store_default_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	char dir[448];
	if (xdg && xdg[0] == '/')
		snprintf(dir, sizeof(dir), "%s/perfguide", xdg);
	else if (home && home[0])
		snprintf(dir, sizeof(dir), "%s/.local/share/perfguide", home);
	else
		return -1;
	snprintf(buf, len, "%s/results.db", dir);
	/* mkdir -p */
	for (char *p = dir + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			if (mkdir(dir, 0755) < 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -1;
	return 0;
}
