/* SPDX-License-Identifier: MIT */
/*
 * An SQLite store as untrusted input. Its schema is SQL that SQLite runs
 * when perfguide touches a table: a view named runs is whatever query its
 * author wrote (an endless recursive one hung `runs`), a trigger runs on
 * every insert (one deleted a run while `import` said "imported"). So:
 * - the connection is defensive (SQLite's SQLITE_DBCONFIG_DEFENSIVE), runs
 *   no trigger and no view, calls no function with side effects from the
 *   schema (TRUSTED_SCHEMA off), and takes values of at most 16 MiB;
 * - a store whose schema holds anything the migrations did not make is
 *   refused before a statement touches it (sq_guard_schema);
 * - every statement is bounded in time (a progress handler), as a last
 *   line: no store makes perfguide run forever.
 */
#include "store_sqlite_guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/timer.h"
#include "store.h"
#include "core/err.h"

/* A results file's line is at most 1 MiB, so is any value perfguide stores. */
#define VALUE_MAX (16 * 1024 * 1024)

static double default_limit = SQ_GUARD_LIMIT_S;

void pg_store_sqlite_time_limit(double seconds)
{
	default_limit = seconds > 0 ? seconds : SQ_GUARD_LIMIT_S;
}

static int over_time(void *arg)
{
	const struct sq_guard *g = arg;
	return pg_now() > g->deadline;
}

void sq_guard_open(sqlite3 *db, struct sq_guard *g)
{
	g->limit_s = default_limit;
	sq_guard_begin(g);
	static const int off[] = {
#ifdef SQLITE_DBCONFIG_ENABLE_TRIGGER
		SQLITE_DBCONFIG_ENABLE_TRIGGER,
#endif
#ifdef SQLITE_DBCONFIG_ENABLE_VIEW
		SQLITE_DBCONFIG_ENABLE_VIEW,
#endif
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
		SQLITE_DBCONFIG_TRUSTED_SCHEMA,
#endif
		0,
	};
	for (int i = 0; off[i]; i++)
		sqlite3_db_config(db, off[i], 0, (int *)NULL);
#ifdef SQLITE_DBCONFIG_DEFENSIVE
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
#endif
	sqlite3_limit(db, SQLITE_LIMIT_LENGTH, VALUE_MAX);
	/* every 10000 virtual machine steps: a few hundred microseconds */
	sqlite3_progress_handler(db, 10000, over_time, g);
}

void sq_guard_begin(struct sq_guard *g)
{
	g->deadline = pg_now() + g->limit_s;
}

int sq_guard_timed_out(sqlite3 *db, char *err, size_t errlen)
{
	if (sqlite3_errcode(db) != SQLITE_INTERRUPT)
		return 0;
	pg_err(err, errlen,
	       "stopped after %g s: the store took longer than perfguide allows one operation "
	       "(a damaged store, or one perfguide did not write)",
	       default_limit);
	return 1;
}

/* --- the schema's objects --- */

/* What sqlite_master lists of one database, in order of type and name. */
struct objects {
	sqlite3_stmt *st;
};

/* ANALYZE's tables are the store's to have, and only those: a table of
 * that very name and no other object (a trigger or view named sqlite_stat*
 * written into the schema was passed over). */
static const char objects_sql[] =
	"SELECT type, name, tbl_name, sql FROM sqlite_master WHERE NOT (type = 'table' AND tbl_name = name AND"
	" name IN ('sqlite_stat1', 'sqlite_stat2', 'sqlite_stat3', 'sqlite_stat4'))"
	" ORDER BY type, name";

static const char *text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? (const char *)t : "";
}

/* 1 when the column (name, type, not null, default, key, hidden) is in
 * the table of the other database. */
static int has_column(sqlite3 *other, const char *table, sqlite3_stmt *col)
{
	sqlite3_stmt *st;
	static const char sql[] = "SELECT count(*) FROM pragma_table_xinfo(?) WHERE name = ? AND type = ?"
				  " AND \"notnull\" = ? AND dflt_value IS ? AND pk = ? AND hidden = ?";
	if (sqlite3_prepare_v2(other, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_TRANSIENT);
	for (int i = 0; i < 6; i++)
		sqlite3_bind_value(st, i + 2, sqlite3_column_value(col, i));
	int has = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1;
	sqlite3_finalize(st);
	return has;
}

/* Every column of table in a is one of b's: 1, or 0 with the column named. */
static int columns_in(sqlite3 *a, sqlite3 *b, const char *table, char *col, size_t len)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(a, "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?)",
			       -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_TRANSIENT);
	int all = 1;
	while (all && sqlite3_step(st) == SQLITE_ROW)
		if (!has_column(b, table, st)) {
			snprintf(col, len, "%s", text(st, 0));
			all = 0;
		}
	sqlite3_finalize(st);
	return all;
}

/* The object of that type and name in db: its tbl_name and sql (malloc'd
 * into *tbl and *sql); 1 found, 0 not. */
static int find_object(sqlite3 *db, const char *type, const char *name, char **tbl, char **sql)
{
	sqlite3_stmt *st;
	*tbl = *sql = NULL;
	if (sqlite3_prepare_v2(db, "SELECT tbl_name, sql FROM sqlite_master WHERE type = ? AND name = ?", -1, &st,
			       NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, type, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
	int found = sqlite3_step(st) == SQLITE_ROW;
	if (found) {
		*tbl = strdup(text(st, 0));
		*sql = strdup(text(st, 1));
	}
	sqlite3_finalize(st);
	return found;
}

/* One object of the store (st's row) against the expected schema: 0 it
 * is perfguide's (or a newer perfguide's: newer), -1 with err set. */
static int check_object(sqlite3 *db, sqlite3 *want, sqlite3_stmt *st, int newer, char *err, size_t errlen)
{
	const char *type = text(st, 0), *name = text(st, 1), *tbl = text(st, 2), *sql = text(st, 3);
	char *wtbl, *wsql, col[128] = "";
	if (strcmp(type, "table") != 0 && strcmp(type, "index") != 0)
		return pg_err(err, errlen, "the store holds a %s, %s, that perfguide never makes", type, name);
	if (strncmp(sql, "CREATE VIRTUAL", 14) == 0)
		return pg_err(err, errlen, "the store holds a virtual table, %s, that perfguide never makes", name);
	if (newer)
		return 0;	/* what else a newer perfguide makes is its own; readable() says what this one finds */
	if (!find_object(want, type, name, &wtbl, &wsql))
		return pg_err(err, errlen, "the store holds a %s, %s, that perfguide did not make", type, name);
	int ok = strcmp(tbl, wtbl) == 0;
	if (ok && strcmp(type, "index") == 0)
		ok = strcmp(sql, wsql) == 0;
	else if (ok)
		ok = columns_in(want, db, name, col, sizeof(col)) && columns_in(db, want, name, col, sizeof(col));
	if (!ok)
		pg_err(err, errlen, "the store's %s %s%s%s is not the one perfguide made", type, name,
		       col[0] ? ", column " : "", col);
	free(wtbl);
	free(wsql);
	return ok ? 0 : -1;
}

/* Every object perfguide makes is in the store. */
static int all_there(sqlite3 *db, sqlite3 *want, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(want, objects_sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	int rc = 0;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		char *tbl, *sql;
		if (!find_object(db, text(st, 0), text(st, 1), &tbl, &sql)) {
			pg_err(err, errlen, "the store has no %s %s", text(st, 0), text(st, 1));
			rc = -1;
		}
		free(tbl);
		free(sql);
	}
	sqlite3_finalize(st);
	return rc;
}

int sq_guard_schema(sqlite3 *db, long long version, int known, sq_migrate_fn migrate, char *err, size_t errlen)
{
	sqlite3 *want = NULL;
	char msg[256];
	int newer = version > known;
	if (sqlite3_open_v2(":memory:", &want, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    migrate(want, 0, newer ? 1 : (int)version, msg, sizeof(msg)) < 0) {
		pg_err(err, errlen, "cannot make the schema to compare with: %s",
		       want ? sqlite3_errmsg(want) : "out of memory");
		sqlite3_close(want);
		return -1;
	}
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, objects_sql, -1, &st, NULL) == SQLITE_OK ? 0 : -1, step = SQLITE_DONE;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = check_object(db, want, st, newer, err, errlen);
	if (rc == 0 && step != SQLITE_DONE)
		rc = -1;
	if (rc < 0 && step != SQLITE_ROW)
		pg_err(err, errlen, "cannot read the schema: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	if (rc == 0 && !newer)
		rc = all_there(db, want, err, errlen);
	sqlite3_close(want);
	return rc;
}
