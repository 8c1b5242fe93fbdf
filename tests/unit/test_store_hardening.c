/* SPDX-License-Identifier: MIT */
/*
 * Issue 26: the results file reader and the SQLite store as untrusted input,
 * the defects of the third audit that the library shows (the command-line
 * ones are in tests/e2e/hardening3.sh); each failed before its fix.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>
#include <cmocka.h>

#include "store/store.h"

static char dir[] = "/tmp/pg-harden3-test.XXXXXX";

static const char *path(const char *name)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

#define RUN(id, board) \
	"{\"type\":\"run\",\"schema\":\"perfguide/1\",\"id\":\"" id "\",\"board\":\"" board "\"," \
	"\"started\":\"2026-01-01T00:00:00Z\",\"machine\":{},\"build\":{\"version\":\"1\"}}\n"
#define RESULT(bench, median) \
	"{\"type\":\"result\",\"bench\":\"" bench "\",\"params\":{},\"metric\":\"m\",\"samples\":[" median "]," \
	"\"median\":" median ",\"min\":" median ",\"max\":" median ",\"status\":\"ok\"}\n"
#define END "{\"type\":\"end\",\"finished\":\"f\",\"status\":\"complete\"}\n"

static int read_text(const char *text, struct pg_rrun **runs, int *n, char *err, size_t elen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(f);
	int rc = pg_rrun_read_stream(f, "t.jsonl", runs, n, err, elen);
	fclose(f);
	return rc;
}

static void free_runs(struct pg_rrun *runs, int n)
{
	for (int i = 0; i < n; i++)
		pg_rrun_free(&runs[i]);
	free(runs);
}

static void sql(const char *db, const char *text)
{
	sqlite3 *s;
	assert_int_equal(sqlite3_open(db, &s), SQLITE_OK);
	int rc = sqlite3_exec(s, text, NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		fail_msg("%s: %s", text, sqlite3_errmsg(s));
	sqlite3_close(s);
}

/* A new store at name holding the runs of text. */
static void store_of(const char *name, const char *text)
{
	char err[512];
	struct pg_rrun *runs;
	int n;
	unlink(path(name));
	if (read_text(text, &runs, &n, err, sizeof(err)) < 0)
		fail_msg("refused: %s", err);
	struct pg_store *s = pg_store_open(path(name), 1, err, sizeof(err));
	assert_non_null(s);
	int *how = calloc((size_t)n, sizeof(int));
	assert_int_equal(s->ops->add_runs(s, runs, n, how, err, sizeof(err)), 0);
	free(how);
	pg_store_close(s);
	free_runs(runs, n);
}

/* 1: a null key was counted as present and left NULL (the guide's hash and
 * compare's key then read through it); a null status read as ok. */
static void defect1_null_key(void **state)
{
	(void)state;
#define REC(key) RUN("r", "b") "{\"type\":\"result\"," key ",\"params\":{},\"samples\":[1]," \
	"\"median\":1,\"min\":1,\"max\":1}\n" END
	static const char *const files[] = {
		REC("\"bench\":null,\"metric\":\"m\",\"status\":\"ok\""),
		REC("\"bench\":\"x\",\"metric\":null,\"status\":\"ok\""),
		REC("\"bench\":\"x\",\"metric\":\"m\",\"status\":null"),
	};
	for (int i = 0; i < 3; i++) {
		char err[512] = "";
		struct pg_rrun *runs;
		int n;
		if (read_text(files[i], &runs, &n, err, sizeof(err)) == 0)
			fail_msg("accepted %s", files[i]);
		assert_non_null(strstr(err, "line 2:"));
		assert_non_null(strstr(err, "(one is null)"));
	}
}

/* 8: a store's schema holds only what the migrations make: a column, a
 * generated column, another index definition, a view, a trigger, a table
 * more are refused before a statement touches them; ANALYZE's statistics
 * and an older store perfguide made are not. */
static void defect8_schema_objects(void **state)
{
	(void)state;
	static const char *const hostile[] = {
		"ALTER TABLE runs ADD COLUMN extra TEXT",
		"ALTER TABLE results ADD COLUMN g INTEGER AS (length(bench)) VIRTUAL",
		"DROP INDEX results_key; CREATE INDEX results_key ON results(bench)",
		"CREATE VIEW v AS SELECT 1",
		"CREATE TRIGGER t AFTER INSERT ON samples BEGIN DELETE FROM runs; END",
		"CREATE TABLE notes(x)",
		"ALTER TABLE samples RENAME TO samples_old; CREATE TABLE samples(result_id INTEGER, seq INTEGER, value REAL)",
	};
	static const char *const why[] = { "column extra", "column g", "index results_key", "a view, v",
					   "a trigger, t", "a table, notes", "" };
	char err[512];
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		store_of("h.db", RUN("r1", "b") RESULT("x.y", "1") END);
		sql(path("h.db"), hostile[i]);
		struct pg_store *s = pg_store_open(path("h.db"), 0, err, sizeof(err));
		if (s)
			fail_msg("opened a store after: %s", hostile[i]);
		assert_non_null(strstr(err, why[i]));
		assert_null(pg_store_open(path("h.db"), 1, err, sizeof(err)));
	}
	store_of("ok.db", RUN("r1", "b") RESULT("x.y", "1") END);
	sql(path("ok.db"), "ANALYZE");
	struct pg_store *s = pg_store_open(path("ok.db"), 0, err, sizeof(err));
	if (!s)
		fail_msg("ANALYZE's statistics refused: %s", err);
	pg_store_close(s);
	unlink(path("old.db"));
	assert_int_equal(pg_store_sqlite_create_at(path("old.db"), 3, err, sizeof(err)), 0);
	s = pg_store_open(path("old.db"), 1, err, sizeof(err));
	if (!s)
		fail_msg("a store of schema 3 refused: %s", err);
	pg_store_close(s);
}

/* 8: nothing in a store runs forever: an operation longer than the limit
 * is stopped with one line (the limit lowered so that a listing of 3000
 * runs passes it). */
static void defect8_time_bound(void **state)
{
	(void)state;
	size_t cap = 3000 * 200, at = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	for (int i = 0; i < 3000; i++)
		at += (size_t)snprintf(text + at, cap - at, "{\"type\":\"run\",\"schema\":\"perfguide/1\",\"id\":\"r%d\","
				       "\"board\":\"b%d\",\"started\":\"2026-01-01T00:00:%02dZ\"}\n", i, i % 7, i % 60);
	store_of("slow.db", text);
	free(text);
	char err[512];
	struct pg_run_summary *list;
	int n;
	pg_store_sqlite_time_limit(1e-9);
	struct pg_store *s = pg_store_open(path("slow.db"), 0, err, sizeof(err));
	pg_store_sqlite_time_limit(0);
	if (!s)
		fail_msg("opening took longer than the limit: %s", err);
	assert_int_equal(s->ops->list_runs(s, &list, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the store took longer than perfguide allows one operation"));
	pg_store_close(s);
	s = pg_store_open(path("slow.db"), 0, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(s->ops->list_runs(s, &list, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3000);
	pg_run_summaries_free(list, n);
	pg_store_close(s);
}

/* 11: another run under an id the store holds (complete, or held without
 * its end) is refused as bad input (-2), and the store keeps its run. */
static void defect11_other_run_same_id(void **state)
{
	(void)state;
	static const char *const other[] = {
		RUN("r1", "other") RESULT("x.y", "1") END,
		RUN("r1", "b") RESULT("x.y", "2") END,
		RUN("r1", "b") RESULT("x.y", "1") RESULT("x.z", "1") END,
	};
	char err[512];
	for (int held_whole = 0; held_whole < 2; held_whole++)
		for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
			store_of("d.db", held_whole ? RUN("r1", "b") RESULT("x.y", "1") END : RUN("r1", "b") RESULT("x.y", "1"));
			struct pg_rrun *runs;
			int n, how;
			assert_int_equal(read_text(other[i], &runs, &n, err, sizeof(err)), 0);
			struct pg_store *s = pg_store_open(path("d.db"), 1, err, sizeof(err));
			assert_non_null(s);
			int rc = s->ops->add_runs(s, runs, n, &how, err, sizeof(err));
			/* a complete copy of what the store held without its end replaces it */
			if (!held_whole && i == 2) {
				assert_int_equal(rc, 0);
				assert_int_equal(how, PG_ADD_REPLACED);
			} else {
				assert_int_equal(rc, -2);
				assert_non_null(strstr(err, "run r1 is already in the store with other content"));
				struct pg_rrun back;
				assert_int_equal(s->ops->load_run(s, "r1", &back, err, sizeof(err)), 1);
				assert_string_equal(back.board, "b");
				assert_int_equal(back.nres, 1);
				pg_rrun_free(&back);
			}
			pg_store_close(s);
			free_runs(runs, n);
		}
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
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defect1_null_key),
		cmocka_unit_test(defect8_schema_objects),
		cmocka_unit_test(defect8_time_bound),
		cmocka_unit_test(defect11_other_run_same_id),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
