/* SPDX-License-Identifier: MIT */
/*
 * The PostgreSQL store (libpq): the tables and schema versions of the SQLite
 * store, on a server that a board farm's many writers share. What sharing
 * asks for:
 * - Opening takes an advisory lock for the schema check and migration, so
 *   that the first imports into an empty database create the tables once.
 * - Adding a run locks its id (an advisory lock held to the end of the
 *   transaction) before looking it up, so the same run imported at once
 *   from two machines lands once; runs of different ids do not wait on
 *   each other.
 * - A file's runs go in one transaction; any error rolls all of it back.
 * - Text is compared with COLLATE "C" where order matters, so the report
 *   from PostgreSQL lists what the one from SQLite does, in the same order.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record_json.h"
#include "core/text.h"
#include "pq_dl.h"
#include "store.h"
#include "store_pgsql_int.h"
#include "core/err.h"

/* The migration lock (one bigint key) and the run locks (two int keys: this,
 * and the run id's hash); the two key spaces do not overlap. */
#define LOCK_KEY 0x70677273

static const char *const migrations[] = {
	/* 0 -> 1: the tables; the result columns of version 1 are added from
	 * pg_record_fields. The machine's identity is unique by its md5: a
	 * btree entry holds at most about 2.7 kB. */
	"CREATE TABLE perfguide_schema(version INTEGER NOT NULL);"
	"INSERT INTO perfguide_schema VALUES (0);"
	"CREATE TABLE machines(id BIGSERIAL PRIMARY KEY, identity TEXT NOT NULL);"
	"CREATE UNIQUE INDEX machines_identity ON machines(md5(identity));"
	"CREATE TABLE runs(id TEXT PRIMARY KEY, board TEXT NOT NULL, started TEXT, finished TEXT,"
	" status TEXT, version TEXT, machine_id BIGINT REFERENCES machines(id), build TEXT,"
	" config TEXT, source TEXT, added TIMESTAMPTZ DEFAULT now());"
	"CREATE TABLE results(id BIGSERIAL PRIMARY KEY,"
	" run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE, seq INTEGER NOT NULL);"
	"CREATE TABLE samples(result_id BIGINT NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, value DOUBLE PRECISION NOT NULL, PRIMARY KEY(result_id, seq));",
	/* 1 -> 2: what the report and compare look up. */
	"CREATE INDEX results_run ON results(run_id, seq);"
	"CREATE INDEX results_key ON results(bench, params, metric);"
	"CREATE INDEX runs_board ON runs(board, started);",
	/* 2 -> 3: the run's sections (and the result fields of version 3). */
	"ALTER TABLE runs ADD COLUMN sections TEXT;",
	/* 3 -> 4: the run's labels (run --label release=09.02). */
	"ALTER TABLE runs ADD COLUMN labels TEXT;",
	/* 4 -> 5: the result fields of version 5 (env, disturbed). */
	"",
	/* 5 -> 6: the result fields of version 6 (processes, processes_bimodal). */
	"",
};
#define SCHEMA_VERSION ((int)(sizeof(migrations) / sizeof(migrations[0])))

PGconn *pq_conn(struct pg_store *s)
{
	return ((struct pq_store *)s)->c;
}

static void first_line(const char *msg, char *buf, size_t len)
{
	snprintf(buf, len, "%s", msg && msg[0] ? msg : "unknown error");
	buf[strcspn(buf, "\n")] = '\0';
}

/* Runs sql with text parameters; the result when it has the status wanted,
 * else NULL with err set to "what: the server's message". */
PGresult *pq_query(PGconn *c, const char *sql, int n, const char *const *v, ExecStatusType want,
		   const char *what, char *err, size_t errlen)
{
	/* Without parameters, sql may be several statements (a migration). */
	PGresult *res = n ? pg_pq.PQexecParams(c, sql, n, NULL, v, NULL, NULL, 0) : pg_pq.PQexec(c, sql);
	if (pg_pq.PQresultStatus(res) == want)
		return res;
	if (pq_guard_timed_out(res, err, errlen)) {
		pg_pq.PQclear(res);
		return NULL;
	}
	char msg[400];
	const char *primary = res ? pg_pq.PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	first_line(primary ? primary : pg_pq.PQerrorMessage(c), msg, sizeof(msg));
	pg_err(err, errlen, "%s: %s", what, msg);
	pg_pq.PQclear(res);
	return NULL;
}

static int command(PGconn *c, const char *sql, int n, const char *const *v, const char *what, char *err,
		   size_t errlen)
{
	PGresult *res = pq_query(c, sql, n, v, PGRES_COMMAND_OK, what, err, errlen);
	pg_pq.PQclear(res);
	return res ? 0 : -1;
}

static void rollback(PGconn *c)
{
	pg_pq.PQclear(pg_pq.PQexec(c, "ROLLBACK"));
}

static const char *column_type(const struct pg_field *f)
{
	switch (f->type) {
	case PG_F_REAL: return "DOUBLE PRECISION";
	case PG_F_INT:
	case PG_F_INT32:
	case PG_F_BOOL: return "BIGINT";
	default: return "TEXT";
	}
}

/* Migration v -> v + 1: its SQL, then the result columns of version v + 1. */
static int migrate_one(PGconn *c, int v, char *err, size_t errlen)
{
	if (migrations[v][0] && command(c, migrations[v], 0, NULL, "creating the tables", err, errlen) < 0)
		return -1;
	for (const struct pg_field *f = pg_record_fields; f->name; f++) {
		if (f->since != v + 1 || (f->flags & PG_F_SAMPLES))
			continue;
		char sql[160];
		snprintf(sql, sizeof(sql), "ALTER TABLE results ADD COLUMN %s %s%s", f->name, column_type(f),
			 (f->flags & PG_F_KEY) ? " NOT NULL" : "");
		if (command(c, sql, 0, NULL, "adding a column", err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* In the caller's transaction. */
static int migrate(PGconn *c, int from, int to, char *err, size_t errlen)
{
	for (int v = from; v < to; v++)
		if (migrate_one(c, v, err, errlen) < 0)
			return -1;
	char sql[80];
	snprintf(sql, sizeof(sql), "UPDATE perfguide_schema SET version = %d", to);
	return command(c, sql, 0, NULL, "setting the schema version", err, errlen);
}

/* A version as the server gave its text: 64 bits, all of it a number (a
 * column another program made TEXT may hold anything); -1 with err set
 * when it is not one (said as it is, not as a version 0). */
static int version_of(const char *t, long long *v, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	*v = t ? strtoll(t, &end, 10) : 0;
	if (t && !errno && end != t && !*end)
		return 0;
	return pg_err(err, errlen, "store schema version '%.40s' is not an integer: the store is damaged",
		      t ? t : "NULL");
}

/* What the database holds: 0 ours at *version, 1 empty, -1 not ours or
 * unreadable (err set). */
static int inspect(PGconn *c, long long *version, char *err, size_t errlen)
{
	static const char sql[] =
		"SELECT count(*), count(*) FILTER (WHERE c.relname = 'perfguide_schema') FROM pg_class c"
		" JOIN pg_namespace n ON n.oid = c.relnamespace"
		" WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')";
	PGresult *res = pq_query(c, sql, 0, NULL, PGRES_TUPLES_OK, "reading the database", err, errlen);
	if (!res)
		return -1;
	int tables = atoi(pg_pq.PQgetvalue(res, 0, 0)), ours = atoi(pg_pq.PQgetvalue(res, 0, 1));
	pg_pq.PQclear(res);
	if (tables == 0)
		return 1;
	if (!ours)
		return pg_err(err, errlen, "not a perfguide store (a database with other tables)");
	res = pq_query(c, "SELECT version FROM perfguide_schema", 0, NULL, PGRES_TUPLES_OK, "reading the schema",
		    err, errlen);
	if (!res || pg_pq.PQntuples(res) != 1) {
		pg_err(err, errlen, "not a perfguide store (no schema version)");
		pg_pq.PQclear(res);
		return -1;
	}
	int rc = version_of(pg_pq.PQgetisnull(res, 0, 0) ? NULL : pg_pq.PQgetvalue(res, 0, 0), version, err, errlen);
	pg_pq.PQclear(res);
	return rc;
}

/* Under the migration lock: refuses what is not ours, creates or brings
 * up to date an older store, leaves a newer one as it is (the version
 * rules of store.h, as SQLite's). to < 0: to this build's version.
 * Returns 0, 1 for a newer store (the caller checks it is readable), -1. */
static int check_schema(PGconn *c, int create, int to, long long *version, char *err, size_t errlen)
{
	char sql[80];
	snprintf(sql, sizeof(sql), "SELECT pg_advisory_xact_lock(%d)", LOCK_KEY);
	int what, newer = 0;
	PGresult *res;
	*version = 0;
	if (command(c, "BEGIN", 0, NULL, "starting a transaction", err, errlen) < 0)
		return -1;
	if (!(res = pq_query(c, sql, 0, NULL, PGRES_TUPLES_OK, "locking the schema", err, errlen)))
		goto bad;
	pg_pq.PQclear(res);
	if ((what = inspect(c, version, err, errlen)) < 0)
		goto bad;
	if (what == 1 && !create) {
		pg_err(err, errlen, "not a perfguide store (empty)");
		goto bad;
	}
	if (what == 0) {
		enum pg_schema_state st = pg_store_schema_state(*version, SCHEMA_VERSION, err, errlen);
		if (st == PG_SCHEMA_BAD)
			goto bad;
		newer = st == PG_SCHEMA_NEWER;
	}
	/* nothing of the store's own runs: before a statement touches a table */
	char why[400];
	int guard = pq_guard_schema(c, what == 0 ? *version : 0, SCHEMA_VERSION, why, sizeof(why));
	if (guard == -1)
		snprintf(err, errlen, "not a store as perfguide makes them: %s; it is not read", why);
	else if (guard < 0)
		snprintf(err, errlen, "%s", why);
	if (guard < 0)
		goto bad;
	if (to < 0)
		to = SCHEMA_VERSION;
	if (!newer && *version < to && migrate(c, (int)*version, to, err, errlen) < 0)
		goto bad;
	if (command(c, "COMMIT", 0, NULL, "committing the schema", err, errlen) < 0)
		goto bad;
	return newer;
bad:
	rollback(c);
	return -1;
}

static void ignore_notice(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

/* postgresql://user@host:port/db, without the password, for messages. */
static void server_describe(PGconn *c, char *buf, size_t len)
{
	const char *host = pg_pq.PQhost(c), *port = pg_pq.PQport(c);
	if (host && host[0] == '/')
		snprintf(buf, len, "postgresql://%s@/%s?host=%s", pg_pq.PQuser(c), pg_pq.PQdb(c), host);
	else
		snprintf(buf, len, "postgresql://%s@%s%s%s/%s", pg_pq.PQuser(c), host ? host : "", port && port[0] ? ":" : "",
			 port ? port : "", pg_pq.PQdb(c));
}

static PGconn *connect_to(const char *url, char *err, size_t errlen)
{
	if (pg_pq_load(err, errlen) < 0)
		return NULL;
	PGconn *c = pg_pq.PQconnectdb(url);
	if (pg_pq.PQstatus(c) != CONNECTION_OK) {
		char msg[400];
		first_line(c ? pg_pq.PQerrorMessage(c) : "out of memory", msg, sizeof(msg));
		pg_err(err, errlen, "cannot connect to the PostgreSQL store: %s", msg);
		pg_pq.PQfinish(c);
		return NULL;
	}
	pg_pq.PQsetNoticeProcessor(c, ignore_notice, NULL);
	char msg[400];
	if (pq_guard_session(c, msg, sizeof(msg)) < 0) {
		snprintf(err, errlen, "the PostgreSQL store: %s", msg);
		pg_pq.PQfinish(c);
		return NULL;
	}
	/* Every double back as it went in (servers before 12 round). */
	pg_pq.PQclear(pg_pq.PQexec(c, "SET extra_float_digits = 3"));
	return c;
}

int pg_store_pgsql_version(void)
{
	return SCHEMA_VERSION;
}

int pg_store_pgsql_create_at(const char *url, int version, char *err, size_t errlen)
{
	PGconn *c = connect_to(url, err, errlen);
	if (!c)
		return -1;
	long long had;
	int rc = check_schema(c, 1, version, &had, err, errlen);
	pg_pq.PQfinish(c);
	return rc < 0 ? -1 : 0;
}

static const struct pg_store_ops pgsql_ops;

struct pg_store *pg_store_pgsql_open(const char *url, int create, char *err, size_t errlen)
{
	char msg[512], where[400];
	PGconn *c = connect_to(url, err, errlen);
	if (!c)
		return NULL;
	server_describe(c, where, sizeof(where));
	long long version;
	int newer = check_schema(c, create, -1, &version, msg, sizeof(msg));
	if (newer == 1)
		newer = pg_store_schema_newer(version, SCHEMA_VERSION, pq_readable(c), create, msg, sizeof(msg)) < 0 ? -1 : 1;
	if (newer < 0) {
		pg_err(err, errlen, "%s: %s", where, msg);
		pg_pq.PQfinish(c);
		return NULL;
	}
	struct pq_store *s = calloc(1, sizeof(*s));
	if (!s) {
		pg_err(err, errlen, "out of memory");
		pg_pq.PQfinish(c);
		return NULL;
	}
	s->base.ops = &pgsql_ops;
	snprintf(s->base.path, sizeof(s->base.path), "%s", where);
	s->c = c;
	s->newer = newer;
	return &s->base;
}

/* --- adding --- */

/* A field as the text of a query parameter, in buf or malloc'd into *owned;
 * NULL: SQL NULL. */
static const char *field_text(const struct pg_field *f, const struct pg_record *x, char *buf, size_t len,
			      char **owned)
{
	const void *p = (const char *)x + f->off;
	if (!pg_field_there(f, x))
		return NULL;
	switch (f->type) {
	case PG_F_TEXT:
	case PG_F_JSON: return *(char *const *)p;
	case PG_F_REAL: snprintf(buf, len, "%.17g", *(const double *)p); return buf;
	case PG_F_INT: snprintf(buf, len, "%lld", (long long)*(const int64_t *)p); return buf;
	case PG_F_INT32:
	case PG_F_BOOL: snprintf(buf, len, "%d", *(const int *)p); return buf;
	case PG_F_STATUS: return pg_status_name(*(const enum pg_status *)p);
	case PG_F_BETTER: return pg_better_name(*(const int *)p);
	case PG_F_REALS: {
		json_t *a = pg_json_reals(*(double *const *)p, *(const int *)((const char *)x + f->count_off));
		*owned = pg_json_text(a);
		json_decref(a);
		return *owned;
	}
	}
	return NULL;
}

/* The result columns, in pg_record_fields' order, and their count. */
int pq_result_columns(char *buf, size_t len)
{
	size_t at = 0;
	int n = 0;
	buf[0] = '\0';
	for (const struct pg_field *f = pg_record_fields; f->name; f++) {
		if (f->flags & PG_F_SAMPLES)
			continue;
		int w = snprintf(buf + at, len - at, "%s%s", n ? ", " : "", f->name);
		if (w < 0 || (size_t)w >= len - at)
			return -1;
		at += (size_t)w;
		n++;
	}
	return n;
}

#define MAX_COLUMNS 64

/* A result and its samples in one statement (one round trip), prepared
 * once per connection: $1 run id, $2 seq, $3.. the columns, then the
 * samples as an array. */
static int prepare_insert(struct pq_store *s, char *err, size_t errlen)
{
	char cols[1024], marks[600], sql[2048];
	int n = pq_result_columns(cols, sizeof(cols)), at = 0;
	if (n < 0 || n > MAX_COLUMNS)
		return pg_err(err, errlen, "too many result columns");
	for (int i = 0; i < n; i++)
		at += snprintf(marks + at, sizeof(marks) - (size_t)at, "%s$%d", i ? ", " : "", i + 3);
	snprintf(sql, sizeof(sql),
		 "WITH r AS (INSERT INTO results(run_id, seq, %s) VALUES ($1, $2, %s) RETURNING id)"
		 " INSERT INTO samples(result_id, seq, value) SELECT r.id, s.o - 1, s.v"
		 " FROM r, unnest($%d::float8[]) WITH ORDINALITY AS s(v, o)", cols, marks, n + 3);
	PGresult *res = pg_pq.PQprepare(s->c, "pg_add_result", sql, 0, NULL);
	int ok = pg_pq.PQresultStatus(res) == PGRES_COMMAND_OK;
	if (!ok)
		first_line(pg_pq.PQerrorMessage(s->c), err, errlen);
	pg_pq.PQclear(res);
	s->prepared = ok;
	return ok ? 0 : -1;
}

/* {1.5,2.5,...}: the samples as an array literal; the caller frees. */
static char *samples_text(const struct pg_record *x)
{
	size_t cap = 3 + (size_t)x->nsamples * 26, at = 1;
	char *t = malloc(cap);
	if (!t)
		return NULL;
	t[0] = '{';
	for (int i = 0; i < x->nsamples; i++)
		at += (size_t)snprintf(t + at, cap - at, "%s%.17g", i ? "," : "", x->samples[i]);
	snprintf(t + at, cap - at, "}");
	return t;
}

/* The parameters of one result's insert. */
struct result_params {
	const char *v[MAX_COLUMNS + 3];
	int n;
	char bufs[MAX_COLUMNS][32], seq[16];
	char *owned[MAX_COLUMNS];
	char *samples;
};

static void result_params(struct result_params *p, const char *run_id, int seq, const struct pg_record *x)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->seq, sizeof(p->seq), "%d", seq);
	p->v[p->n++] = run_id;
	p->v[p->n++] = p->seq;
	for (const struct pg_field *f = pg_record_fields; f->name; f++)
		if (!(f->flags & PG_F_SAMPLES)) {
			p->v[p->n] = field_text(f, x, p->bufs[p->n - 2], sizeof(p->bufs[0]), &p->owned[p->n - 2]);
			p->n++;
		}
	p->samples = samples_text(x);
	p->v[p->n++] = p->samples;
}

static void result_params_free(struct result_params *p)
{
	free(p->samples);
	for (int i = 0; i < MAX_COLUMNS; i++)
		free(p->owned[i]);
}

static void result_error(PGconn *c, PGresult *res, char *err, size_t errlen)
{
	if (pq_guard_timed_out(res, err, errlen))
		return;
	const char *primary = res ? pg_pq.PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	char msg[400];
	first_line(primary ? primary : pg_pq.PQerrorMessage(c), msg, sizeof(msg));
	pg_err(err, errlen, "adding a result: %s", msg);
}

static int insert_result(struct pq_store *s, const char *run_id, int seq, const struct pg_record *x, char *err,
			 size_t errlen)
{
	if (!s->prepared && prepare_insert(s, err, errlen) < 0)
		return -1;
	struct result_params p;
	result_params(&p, run_id, seq, x);
	PGresult *res = pg_pq.PQexecPrepared(s->c, "pg_add_result", p.n, p.v, NULL, NULL, 0);
	int ok = pg_pq.PQresultStatus(res) == PGRES_COMMAND_OK;
	if (!ok)
		result_error(s->c, res, err, errlen);
	pg_pq.PQclear(res);
	result_params_free(&p);
	return ok ? 0 : -1;
}

#ifdef LIBPQ_HAS_PIPELINING
/* Results sent before any reply is read: a round trip per batch. */
#define BATCH 128

/* The replies up to the batch's sync point; the first error into err. */
static int collect(PGconn *c, char *err, size_t errlen)
{
	int rc = 0, nulls = 0;
	for (;;) {
		PGresult *res = pg_pq.PQgetResult(c);
		if (!res) {
			/* one between the replies; two in a row: the connection is gone */
			if (++nulls > 1 || pg_pq.PQstatus(c) == CONNECTION_BAD) {
				result_error(c, NULL, err, errlen);
				return -1;
			}
			continue;
		}
		nulls = 0;
		ExecStatusType st = pg_pq.PQresultStatus(res);
		if (st == PGRES_PIPELINE_SYNC) {
			pg_pq.PQclear(res);
			return rc;
		}
		if (st != PGRES_COMMAND_OK && rc == 0) {
			result_error(c, res, err, errlen);
			rc = -1;
		}
		pg_pq.PQclear(res);
	}
}

static int insert_results(struct pq_store *s, const struct pg_rrun *r, char *err, size_t errlen)
{
	if (!s->prepared && prepare_insert(s, err, errlen) < 0)
		return -1;
	if (!pg_pq.PQenterPipelineMode(s->c)) {
		result_error(s->c, NULL, err, errlen);
		return -1;
	}
	int rc = 0;
	for (int i = 0; rc == 0 && i < r->nres; i += BATCH) {
		for (int k = i; rc == 0 && k < r->nres && k < i + BATCH; k++) {
			struct result_params p;
			result_params(&p, r->id, k, &r->res[k]);
			if (!pg_pq.PQsendQueryPrepared(s->c, "pg_add_result", p.n, p.v, NULL, NULL, 0)) {
				result_error(s->c, NULL, err, errlen);
				rc = -1;
			}
			result_params_free(&p);
		}
		if (!pg_pq.PQpipelineSync(s->c) || collect(s->c, err, errlen) < 0)
			rc = -1;
	}
	pg_pq.PQexitPipelineMode(s->c);
	return rc;
}
#else
static int insert_results(struct pq_store *s, const struct pg_rrun *r, char *err, size_t errlen)
{
	for (int i = 0; i < r->nres; i++)
		if (insert_result(s, r->id, i, &r->res[i], err, errlen) < 0)
			return -1;
	return 0;
}
#endif

static int insert_run(PGconn *c, const struct pg_rrun *r, char *err, size_t errlen)
{
	const char *machine = r->machine ? r->machine : "{}";
	if (command(c, "INSERT INTO machines(identity) VALUES ($1) ON CONFLICT (md5(identity)) DO NOTHING", 1,
		    &machine, "adding the machine", err, errlen) < 0)
		return -1;
	static const char sql[] =
		"INSERT INTO runs(id, board, started, finished, status, version, machine_id, build, config, source,"
		" sections, labels) VALUES ($1, $2, $3, $4, $5, $6,"
		" (SELECT id FROM machines WHERE md5(identity) = md5($7) AND identity = $7), $8, $9, $10, $11, $12)";
	const char *v[] = { r->id, r->board, r->started, r->finished, r->end_status, r->version, machine,
			    r->build, r->config, r->source, r->sections, r->labels };
	return command(c, sql, 12, v, "adding the run", err, errlen);
}

/* Waits for any other transaction adding the same run id. */
static int lock_run(PGconn *c, const char *id, char *err, size_t errlen)
{
	char sql[80];
	snprintf(sql, sizeof(sql), "SELECT pg_advisory_xact_lock(%d, hashtext($1))", LOCK_KEY);
	PGresult *res = pq_query(c, sql, 1, &id, PGRES_TUPLES_OK, "locking the run", err, errlen);
	pg_pq.PQclear(res);
	return res ? 0 : -1;
}

/* 1 held complete, 0 held without an end, -1 not held, -2 error. */
static int run_state(PGconn *c, const char *id, char *err, size_t errlen)
{
	PGresult *res = pq_query(c, "SELECT finished IS NOT NULL FROM runs WHERE id = $1", 1, &id, PGRES_TUPLES_OK,
			      "reading the store", err, errlen);
	if (!res)
		return -2;
	int state = pg_pq.PQntuples(res) ? strcmp(pg_pq.PQgetvalue(res, 0, 0), "t") == 0 : -1;
	pg_pq.PQclear(res);
	return state;
}

/* One run inside the caller's transaction; -2 when the store holds another
 * run of that id. */
static int add_one(struct pq_store *s, const struct pg_rrun *r, char *err, size_t errlen)
{
	int ret = PG_ADD_NEW;
	if (lock_run(s->c, r->id, err, errlen) < 0)
		return -1;
	int state = run_state(s->c, r->id, err, errlen);
	if (state == -2)
		return -1;
	if (state >= 0) {
		struct pg_rrun held;
		int same = pg_store_same_run(&s->base, &held, r, err, errlen);
		if (same <= 0)
			return same < 0 ? -1 : -2;
		if (state == 1)
			return PG_ADD_PRESENT;
	}
	if (state == 0) {
		const char *id = r->id;
		if (command(s->c, "DELETE FROM runs WHERE id = $1", 1, &id, "replacing the run", err, errlen) < 0)
			return -1;
		ret = PG_ADD_REPLACED;
	}
	if (insert_run(s->c, r, err, errlen) < 0 || insert_results(s, r, err, errlen) < 0)
		return -1;
	return ret;
}

/* -1 with err set for a newer perfguide's store, which is only read. */
static int writable(struct pg_store *s, char *err, size_t errlen)
{
	if (!((struct pq_store *)s)->newer)
		return 0;
	return pg_store_read_only(err, errlen);
}

static int by_id(const void *a, const void *b)
{
	return strcmp((*(const struct pg_rrun *const *)a)->id, (*(const struct pg_rrun *const *)b)->id);
}

static int pq_add_runs(struct pg_store *st, const struct pg_rrun *r, int n, int *how, char *err, size_t errlen)
{
	struct pq_store *s = (struct pq_store *)st;
	if (writable(st, err, errlen) < 0)
		return -1;
	/* Runs in the order of their ids, so two files sharing runs take the
	 * run locks in the same order. */
	const struct pg_rrun **order = malloc(sizeof(*order) * (size_t)(n ? n : 1));
	if (!order)
		return pg_err(err, errlen, "out of memory");
	for (int i = 0; i < n; i++)
		order[i] = &r[i];
	qsort(order, (size_t)n, sizeof(*order), by_id);
	int rc = command(s->c, "BEGIN", 0, NULL, "starting a transaction", err, errlen);
	for (int i = 0; rc == 0 && i < n; i++) {
		int k = (int)(order[i] - r);
		how[k] = add_one(s, order[i], err, errlen);
		rc = how[k] < 0 ? how[k] : 0;
	}
	free(order);
	if (rc == 0 && command(s->c, "COMMIT", 0, NULL, "committing", err, errlen) == 0)
		return 0;
	rollback(s->c);
	return rc < 0 ? rc : -1;
}

static int pq_add_run(struct pg_store *s, const struct pg_rrun *r, char *err, size_t errlen)
{
	int how, rc = pq_add_runs(s, r, 1, &how, err, errlen);
	return rc < 0 ? rc : how;
}

static int pq_begin_run(struct pg_store *s, const struct pg_rrun *r, char *err, size_t errlen)
{
	PGconn *c = pq_conn(s);
	if (writable(s, err, errlen) < 0 || command(c, "BEGIN", 0, NULL, "starting a transaction", err, errlen) < 0)
		return -1;
	if (insert_run(c, r, err, errlen) < 0 || command(c, "COMMIT", 0, NULL, "committing", err, errlen) < 0) {
		rollback(c);
		return -1;
	}
	return 0;
}

static int pq_add_result(struct pg_store *st, const char *run_id, const struct pg_record *x, char *err, size_t errlen)
{
	struct pq_store *s = (struct pq_store *)st;
	if (writable(st, err, errlen) < 0 || command(s->c, "BEGIN", 0, NULL, "starting a transaction", err, errlen) < 0)
		return -1;
	PGresult *res = pq_query(s->c, "SELECT count(*) FROM results WHERE run_id = $1", 1, &run_id, PGRES_TUPLES_OK,
			      "reading the store", err, errlen);
	int seq = res ? atoi(pg_pq.PQgetvalue(res, 0, 0)) : 0;
	pg_pq.PQclear(res);
	if (!res || insert_result(s, run_id, seq, x, err, errlen) < 0 ||
	    command(s->c, "COMMIT", 0, NULL, "committing", err, errlen) < 0) {
		rollback(s->c);
		return -1;
	}
	return 0;
}

static int pq_end_run(struct pg_store *s, const char *run_id, const char *finished, const char *status,
		      char *err, size_t errlen)
{
	const char *v[] = { finished, status, run_id };
	if (writable(s, err, errlen) < 0)
		return -1;
	return command(pq_conn(s), "UPDATE runs SET finished = $1, status = $2 WHERE id = $3", 3, v, "ending the run",
		       err, errlen);
}

static void pq_close(struct pg_store *s)
{
	pg_pq.PQfinish(pq_conn(s));
	free(s);
}

static const struct pg_store_ops pgsql_ops = {
	.name = "postgresql",
	.add_run = pq_add_run,
	.add_runs = pq_add_runs,
	.begin_run = pq_begin_run,
	.add_result = pq_add_result,
	.end_run = pq_end_run,
	.list_runs = pq_list_runs,
	.load_run = pq_load_run,
	.load_figures = pq_load_figures,
	.close = pq_close,
};
