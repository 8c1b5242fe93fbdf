/* SPDX-License-Identifier: MIT */
/* The store, on each backend: round trip, idempotent adds, incomplete runs
 * replaced, older schemas migrated, foreign databases refused untouched.
 * SQLite by default; PostgreSQL when PERFGUIDE_TEST_PG_HOST names the socket
 * directory of a server to use (tests/pg/with_server.sh starts one), each
 * test in a database of its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>
#include <cmocka.h>

#include "history/history.h"
#include "store/store.h"

static char dir[] = "/tmp/pg-store-test.XXXXXX";

/* What a test needs of a backend besides the store API: a fresh store's
 * place, and SQL on it from outside perfguide. */
struct backend {
	const char *(*where)(const char *name);
	int (*create_at)(const char *where, int version, char *err, size_t len);
	int (*version)(void);
	/* The first column of the first row of sql, as an int; -1 on error. */
	int (*query_int)(const char *where, const char *sql);
	const char *column_sql;	/* count of results' columns named %s */
};

static const struct backend *be;

static const char *path(const char *name)
{
	return be->where(name);
}

static const char *sqlite_where(const char *name)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

static int sqlite_query_int(const char *where, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int v = -1;
	if (sqlite3_open(where, &db) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	else if (sqlite3_errcode(db) == SQLITE_OK || sqlite3_errcode(db) == SQLITE_DONE)
		v = 0;	/* a statement without rows */
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static const struct backend sqlite_backend = {
	sqlite_where, pg_store_sqlite_create_at, pg_store_sqlite_version, sqlite_query_int,
	"SELECT count(*) FROM pragma_table_info('results') WHERE name = '%s'",
};

#ifdef PG_HAVE_LIBPQ
#include <libpq-fe.h>

static PGresult *pg_sql(const char *conninfo, const char *sql)
{
	PGconn *c = PQconnectdb(conninfo);
	PGresult *res = PQstatus(c) == CONNECTION_OK ? PQexec(c, sql) : NULL;
	PQfinish(c);
	return res;
}

/* A new empty store named after the test's file name: a schema of its own
 * (a database each would cost a checkpoint each), which the URL makes the
 * connection's search path. */
static const char *pgsql_where(const char *name)
{
	static char url[512];
	char schema[64], ci[400], sql[200];
	const char *host = getenv("PERFGUIDE_TEST_PG_HOST");
	snprintf(schema, sizeof(schema), "t_%s", name);
	for (char *p = schema; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			*p = '_';
	snprintf(ci, sizeof(ci), "host=%s user=perfguide dbname=postgres", host);
	snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s", schema, schema);
	PQclear(pg_sql(ci, sql));
	snprintf(url, sizeof(url), "postgresql:///postgres?host=%s&user=perfguide&options=-csearch_path%%3D%s", host,
		 schema);
	return url;
}

static int pgsql_query_int(const char *where, const char *sql)
{
	PGresult *res = pg_sql(where, sql);
	int v = -1;
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0)
		v = atoi(PQgetvalue(res, 0, 0));
	else if (PQresultStatus(res) == PGRES_COMMAND_OK)
		v = 0;
	PQclear(res);
	return v;
}

static const struct backend pgsql_backend = {
	pgsql_where, pg_store_pgsql_create_at, pg_store_pgsql_version, pgsql_query_int,
	"SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema()"
	" AND table_name = 'results' AND column_name = '%s'",
};
#define PGSQL_BACKEND (&pgsql_backend)
#else
#define PGSQL_BACKEND NULL
#endif

static void make_run(struct pg_rrun *r, const char *id, int with_end)
{
	char err[256];
	char line[512];
	memset(r, 0, sizeof(*r));
	snprintf(line, sizeof(line),
		 "{\"type\":\"run\",\"schema\":\"perfguide/1\",\"id\":\"%s\",\"board\":\"bd\",\"started\":\"2026-01-0%cT00:00:00Z\","
		 "\"machine\":{\"arch\":\"x\"},\"build\":{\"version\":\"9.9\"},"
		 "\"sections\":[{\"title\":\"LMBench\",\"order\":10}]}", id, id[strlen(id) - 1]);
	assert_int_equal(pg_rrun_add_line(r, line, err, sizeof(err)), 0);
	assert_int_equal(pg_rrun_add_line(r,
		"{\"type\":\"result\",\"bench\":\"mem.bw.rd\",\"params\":{\"threads\":1,\"size\":8388608},"
		"\"metric\":\"bandwidth\",\"unit\":\"MB/s\",\"better\":\"higher\",\"samples\":[1.5,2.5,3.25],"
		"\"median\":2.5,\"min\":1.5,\"max\":3.25,\"cpu\":{\"busy_pct\":51.5},\"label\":\"bw_mem-rd-8mb\",\"status\":\"ok\","
		"\"iterations\":1099511627776,\"copies\":2,\"sample_s\":[0.5,0.25,0.125],\"section\":\"LMBench\","
		"\"hist\":{\"unit\":\"ns\",\"count\":3,\"buckets\":[[5,2],[1000,1]]},"
		"\"ci_lo\":1.5,\"ci_hi\":3.25,\"ci_level\":0.75,\"ci_rel\":0.35,\"stop\":\"time\",\"cap_s\":3,"
		"\"bimodal\":[1.5,3],\"bimodal_low_n\":1,"
		"\"processes\":[{\"median\":2.5,\"n\":2},{\"median\":3.25,\"n\":1}],\"processes_bimodal\":true,"
		"\"bimodal_why\":\"its 2 processes disagree\"}",
		err, sizeof(err)), 0);
	assert_int_equal(pg_rrun_add_line(r,
		"{\"type\":\"result\",\"bench\":\"crypto.x\",\"params\":{},\"metric\":\"t\",\"status\":\"skipped\","
		"\"reason\":\"no engine\"}", err, sizeof(err)), 0);
	if (with_end)
		assert_int_equal(pg_rrun_add_line(r, "{\"type\":\"end\",\"finished\":\"f\",\"status\":\"complete\"}",
						  err, sizeof(err)), 0);
}

static void round_trip(void **state)
{
	(void)state;
	char err[512];
	struct pg_store *s = pg_store_open(path("a.db"), 1, err, sizeof(err));
	assert_non_null(s);
	struct pg_rrun r, back;
	make_run(&r, "run1", 1);
	/* params are canonical: keys sorted */
	assert_string_equal(r.res[0].params, "{\"size\":8388608,\"threads\":1}");
	assert_int_equal(s->ops->add_run(s, &r, err, sizeof(err)), PG_ADD_NEW);
	assert_int_equal(s->ops->add_run(s, &r, err, sizeof(err)), PG_ADD_PRESENT);
	assert_int_equal(s->ops->load_run(s, "run1", &back, err, sizeof(err)), 1);
	assert_string_equal(back.board, "bd");
	assert_string_equal(back.version, "9.9");
	assert_string_equal(back.sections, "[{\"order\":10,\"title\":\"LMBench\"}]");
	assert_int_equal(back.nres, 2);
	assert_int_equal(back.res[0].nsamples, 3);
	assert_true(back.res[0].samples[2] == 3.25);
	assert_true(back.res[0].have_busy && back.res[0].busy_pct == 51.5);
	assert_string_equal(back.res[0].label, "bw_mem-rd-8mb");
	/* the fields of schema 3 */
	assert_string_equal(back.res[0].section, "LMBench");
	assert_true(back.res[0].iterations == 1099511627776LL);
	assert_int_equal(back.res[0].copies, 2);
	assert_int_equal(back.res[0].nsample_s, 3);
	assert_true(back.res[0].sample_s[2] == 0.125);
	assert_null(back.res[1].section);
	/* the fields of schema 4: the median's interval, why sampling stopped */
	assert_true(back.res[0].ci_lo == 1.5 && back.res[0].ci_hi == 3.25);
	assert_true(back.res[0].ci_level == 0.75 && back.res[0].ci_rel == 0.35);
	assert_string_equal(back.res[0].stop, "time");
	assert_true(back.res[0].cap_s == 3);
	assert_int_equal(back.res[0].nbimodal, 2);
	assert_true(back.res[0].bimodal[1] == 3);
	assert_int_equal(back.res[0].bimodal_low_n, 1);
	assert_null(back.res[1].stop);
	assert_int_equal(back.res[1].nbimodal, 0);
	/* the fields of schema 6: the processes it was measured in */
	assert_string_equal(back.res[0].processes, "[{\"median\":2.5,\"n\":2},{\"median\":3.25,\"n\":1}]");
	assert_int_equal(back.res[0].processes_bimodal, 1);
	assert_string_equal(back.res[0].bimodal_why, "its 2 processes disagree");
	assert_null(back.res[1].processes);
	/* a nested field is kept as its JSON */
	assert_string_equal(back.res[0].hist, "{\"buckets\":[[5,2],[1000,1]],\"count\":3,\"unit\":\"ns\"}");
	assert_null(back.res[1].hist);
	assert_int_equal(back.res[1].status, PG_SKIP);
	assert_string_equal(back.res[1].reason, "no engine");
	{ struct pg_rrun none; assert_int_equal(s->ops->load_run(s, "nope", &none, err, sizeof(err)), 0); }
	pg_rrun_free(&back);
	struct pg_run_summary *list;
	int n;
	assert_int_equal(s->ops->list_runs(s, &list, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(list[0].nresults, 2);
	assert_string_equal(list[0].status, "complete");
	pg_run_summaries_free(list, n);
	pg_rrun_free(&r);
	pg_store_close(s);
}

/* A run's figures without its samples, and a board's history from them:
 * the same medians as the whole run, on each backend. */
static void figures_and_history(void **state)
{
	(void)state;
	char err[512];
	struct pg_store *s = pg_store_open(path("h.db"), 1, err, sizeof(err));
	assert_non_null(s);
	for (int i = 1; i <= 9; i++) {
		struct pg_rrun r;
		char id[8];
		snprintf(id, sizeof(id), "run%d", i);
		make_run(&r, id, 1);
		r.res[0].median = i < 6 ? 2.5 : 5;
		assert_int_equal(s->ops->add_run(s, &r, err, sizeof(err)), PG_ADD_NEW);
		pg_rrun_free(&r);
	}
	struct pg_rrun whole, figs;
	assert_int_equal(s->ops->load_run(s, "run7", &whole, err, sizeof(err)), 1);
	assert_int_equal(s->ops->load_figures(s, "run7", &figs, err, sizeof(err)), 1);
	assert_int_equal(figs.nres, whole.nres);
	assert_int_equal(figs.res[0].nsamples, 0);
	assert_null(figs.res[0].samples);
	assert_true(figs.res[0].median == 5 && whole.res[0].median == 5);
	assert_true(figs.res[0].min == whole.res[0].min && figs.res[0].max == whole.res[0].max);
	assert_string_equal(figs.res[0].params, whole.res[0].params);
	assert_int_equal(figs.res[1].status, PG_SKIP);
	pg_rrun_free(&whole);
	pg_rrun_free(&figs);
	assert_int_equal(s->ops->load_figures(s, "nope", &figs, err, sizeof(err)), 0);

	struct pg_history h;
	struct pg_hist_query q = { .board = "bd" };
	assert_int_equal(pg_history_load(s, &q, &h, err, sizeof(err)), 0);
	assert_int_equal(h.nruns, 9);
	assert_string_equal(h.runs[8].id, "run9");
	assert_int_equal(h.nrows, 1);	/* the skipped result has no figure: no row */
	assert_string_equal(h.rows[0].bench, "mem.bw.rd");
	assert_int_equal(h.rows[0].npoints, 9);
	assert_true(h.rows[0].v[4] == 2.5 && h.rows[0].v[5] == 5);
	pg_history_free(&h);
	q.max_runs = 4;
	assert_int_equal(pg_history_load(s, &q, &h, err, sizeof(err)), 0);
	assert_int_equal(h.nruns, 4);
	assert_int_equal(h.skipped, 5);
	assert_string_equal(h.runs[0].id, "run6");
	pg_history_free(&h);
	q.board = "none";
	q.max_runs = 0;
	assert_int_equal(pg_history_load(s, &q, &h, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no runs of board 'none'"));
	pg_history_free(&h);
	pg_store_close(s);
}

static void incomplete_run_replaced(void **state)
{
	(void)state;
	char err[512];
	struct pg_store *s = pg_store_open(path("b.db"), 1, err, sizeof(err));
	assert_non_null(s);
	struct pg_rrun part, whole;
	make_run(&part, "run2", 0);
	part.nres = 1;	/* crashed after the first result */
	assert_int_equal(s->ops->add_run(s, &part, err, sizeof(err)), PG_ADD_NEW);
	part.nres = 2;
	make_run(&whole, "run2", 1);
	assert_int_equal(s->ops->add_run(s, &whole, err, sizeof(err)), PG_ADD_REPLACED);
	assert_int_equal(s->ops->add_run(s, &whole, err, sizeof(err)), PG_ADD_PRESENT);
	struct pg_run_summary *list;
	int n;
	assert_int_equal(s->ops->list_runs(s, &list, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(list[0].nresults, 2);
	pg_run_summaries_free(list, n);
	pg_rrun_free(&part);
	pg_rrun_free(&whole);
	pg_store_close(s);
}

static void older_schema_migrated(void **state)
{
	(void)state;
	char err[512], sql[300];
	const char *old = strdup(path("old.db"));
	assert_true(be->version() >= 4);
	assert_int_equal(be->create_at(old, 1, err, sizeof(err)), 0);
	struct pg_store *s = pg_store_open(old, 0, err, sizeof(err));
	assert_non_null(s);
	struct pg_rrun r, back;
	make_run(&r, "run3", 1);
	free(r.labels);
	r.labels = strdup("{\"release\":\"09.02\"}");
	assert_int_equal(s->ops->add_run(s, &r, err, sizeof(err)), PG_ADD_NEW);
	assert_int_equal(s->ops->load_run(s, "run3", &back, err, sizeof(err)), 1);
	assert_string_equal(back.labels, "{\"release\":\"09.02\"}");
	pg_rrun_free(&back);
	pg_rrun_free(&r);
	pg_store_close(s);
	assert_int_equal(be->query_int(old, "SELECT version FROM perfguide_schema"), be->version());
	/* Every field of the record has its column once migrated. */
	for (const struct pg_field *f = pg_record_fields; f->name; f++) {
		if (f->flags & PG_F_SAMPLES)
			continue;
		snprintf(sql, sizeof(sql), be->column_sql, f->name);
		if (be->query_int(old, sql) != 1)
			fail_msg("no column for field %s", f->name);
	}
	/* A store from a newer perfguide is never written nor downgraded, and
	 * both stores read it where its columns allow (issue 26, defect 2:
	 * PostgreSQL refused it; test_report_hardening has the rest). */
	assert_int_equal(be->query_int(old, "UPDATE perfguide_schema SET version = 999"), 0);
	assert_null(pg_store_open(old, 1, err, sizeof(err)));
	assert_non_null(strstr(err, "newer"));
	struct pg_store *newer = pg_store_open(old, 0, err, sizeof(err));
	if (!newer)
		fail_msg("a newer store is not read: %s", err);
	assert_int_equal(newer->ops->load_run(newer, "run3", &back, err, sizeof(err)), 1);
	assert_int_equal(newer->ops->add_run(newer, &back, err, sizeof(err)), -1);
	pg_rrun_free(&back);
	pg_store_close(newer);
	free((char *)old);
}

static void foreign_database_refused(void **state)
{
	(void)state;
	char err[512];
	const char *foreign = strdup(path("foreign.db"));
	assert_int_equal(be->query_int(foreign, "CREATE TABLE t(x INTEGER)"), 0);
	assert_int_equal(be->query_int(foreign, "INSERT INTO t VALUES (1)"), 0);
	assert_null(pg_store_open(foreign, 1, err, sizeof(err)));
	assert_non_null(strstr(err, "not a perfguide store"));
	/* never written to */
	assert_int_equal(be->query_int(foreign, "SELECT count(*) FROM t"), 1);
	assert_int_equal(be->query_int(foreign, "SELECT count(*) FROM perfguide_schema"), -1);
	free((char *)foreign);
	/* An empty store is not opened for reading. */
	assert_null(pg_store_open(path("empty.db"), 0, err, sizeof(err)));
	if (be != &sqlite_backend)
		return;
	assert_null(pg_store_open(path("missing.db"), 0, err, sizeof(err)));
	FILE *f = fopen(path("text.db"), "w");
	fputs("hello, this is not a database at all, just some text that is long enough\n", f);
	fclose(f);
	assert_null(pg_store_open(path("text.db"), 1, err, sizeof(err)));
	assert_non_null(strstr(err, "not a perfguide store"));
}

/* A statement the server would wait on forever (another session holds the
 * table) is stopped by the server after the time limit (issue 40, defect
 * 1: a view with an endless query ran on after the client had gone). */
static void slow_statement_stopped(void **state)
{
	(void)state;
#ifdef PG_HAVE_LIBPQ
	char err[512];
	if (be == &sqlite_backend)
		skip();
	const char *where = strdup(path("slow.db"));
	struct pg_store *s = pg_store_open(where, 1, err, sizeof(err));
	assert_non_null(s);
	PGconn *holder = PQconnectdb(where);
	assert_int_equal(PQstatus(holder), CONNECTION_OK);
	PQclear(PQexec(holder, "BEGIN; LOCK TABLE results IN ACCESS EXCLUSIVE MODE"));
	pg_store_pgsql_time_limit(1);
	time_t t0 = time(NULL);
	struct pg_store *t = pg_store_open(where, 0, err, sizeof(err));
	assert_null(t);
	assert_true(time(NULL) - t0 < 30);
	if (!strstr(err, "stopped after 1 s: the store took longer"))
		fail_msg("%s", err);
	pg_store_pgsql_time_limit(0);
	PQfinish(holder);
	pg_store_close(s);
	free((char *)where);
#else
	skip();
#endif
}

static void parse_errors(void **state)
{
	(void)state;
	struct pg_rrun r;
	char err[256];
	memset(&r, 0, sizeof(r));
	assert_int_equal(pg_rrun_add_line(&r, "{\"type\":\"result\"}", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "first record"));
	assert_int_equal(pg_rrun_add_line(&r, "{\"type\":\"run\",\"schema\":\"perfguide/7\",\"id\":\"a\",\"board\":\"b\"}",
					  err, sizeof(err)), -1);
	assert_non_null(strstr(err, "newer"));
	assert_int_equal(pg_rrun_add_line(&r, "{\"type\":\"run\",\"schema\":\"perfguide/1\",\"id\":\"a\",\"board\":\"b\"}",
					  err, sizeof(err)), 0);
	assert_int_equal(pg_rrun_add_line(&r, "{\"type\":\"result\",\"bench\":\"x\",\"params\":{},\"metric\":\"m\","
					  "\"status\":\"ok\",\"median\":1,\"min\":1,\"max\":1,\"samples\":[1,\"x\"]}",
					  err, sizeof(err)), -1);
	assert_int_equal(pg_rrun_add_line(&r, "{\"type\":\"run\",\"schema\":\"perfguide/1\",\"id\":\"b\",\"board\":\"b\"}",
					  err, sizeof(err)), 1);
	pg_rrun_free(&r);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	be = &sqlite_backend;
	if (getenv("PERFGUIDE_TEST_PG_HOST")) {
		be = PGSQL_BACKEND;
		if (!be) {
			fprintf(stderr, "SKIP: built without libpq\n");
			return 77;
		}
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(figures_and_history),
		cmocka_unit_test(incomplete_run_replaced),
		cmocka_unit_test(older_schema_migrated),
		cmocka_unit_test(foreign_database_refused),
		cmocka_unit_test(parse_errors),
		cmocka_unit_test(slow_statement_stopped),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
