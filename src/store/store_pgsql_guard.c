/* SPDX-License-Identifier: MIT */
/*
 * A PostgreSQL store as untrusted input, held to the SQLite store's rule
 * (store_sqlite_guard.c). The roles that share a farm's store may own its
 * tables, and the schema is code the server runs whenever perfguide touches
 * a table: a trigger on runs ran `COPY ... TO PROGRAM` as the superuser an
 * administrator imported with, and deleted every run while import said
 * "imported"; a view named runs with an endless recursive query hung
 * `runs`, and the server went on running it after the client had gone.
 * So:
 * - search_path is pinned to the store's schema and pg_temp last
 *   (pg_catalog, not named, is searched first), so that no function or
 *   operator of another schema, nor one planted in the store's, stands in
 *   for the server's own;
 * - every statement is stopped by the server after a time limit
 *   (statement_timeout), whether the client is still there or not;
 * - before a statement reads or writes the store, the catalogs are asked
 *   what its schema holds, and a store is refused when it holds anything
 *   of code perfguide never makes (a trigger, a rule, a view, a function,
 *   an operator, a type, a row security policy, a check constraint, a
 *   column default or an index of its own, a foreign key from elsewhere,
 *   an event trigger of the database) or a relation perfguide did not
 *   create.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/record.h"
#include "pq_dl.h"
#include "store_pgsql_int.h"

static double time_limit = PQ_GUARD_LIMIT_S;

void pg_store_pgsql_time_limit(double seconds)
{
	time_limit = seconds > 0 ? seconds : PQ_GUARD_LIMIT_S;
}

int pq_guard_timed_out(PGresult *res, char *err, size_t errlen)
{
	const char *state = res ? pg_pq.PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	/* query_canceled: what statement_timeout ends a statement with */
	if (!state || strcmp(state, "57014") != 0)
		return 0;
	snprintf(err, errlen, "stopped after %g s: the store took longer than perfguide allows one operation "
		 "(a damaged store, or one perfguide did not write)", time_limit);
	return 1;
}

static int set_config(PGconn *c, const char *name, const char *value, char *err, size_t errlen)
{
	const char *v[] = { name, value };
	PGresult *res = pq_query(c, "SELECT pg_catalog.set_config($1, $2, false)", 2, v, PGRES_TUPLES_OK,
				 "setting up the connection", err, errlen);
	pg_pq.PQclear(res);
	return res ? 0 : -1;
}

int pq_guard_session(PGconn *c, char *err, size_t errlen)
{
	PGresult *res = pq_query(c, "SELECT pg_catalog.current_schema()", 0, NULL, PGRES_TUPLES_OK,
				 "reading the schema", err, errlen);
	if (!res)
		return -1;
	if (pg_pq.PQntuples(res) != 1 || pg_pq.PQgetisnull(res, 0, 0)) {
		pg_pq.PQclear(res);
		return pg_err(err, errlen, "no schema to use: the role's search_path names none that exists");
	}
	/* "schema" quoted as an identifier: its quotes doubled */
	const char *schema = pg_pq.PQgetvalue(res, 0, 0);
	size_t n = strlen(schema), at = 0;
	char *path = malloc(2 * n + 32);
	if (path) {
		at = (size_t)sprintf(path, "\"");
		for (const char *p = schema; *p; p++) {
			if (*p == '"')
				path[at++] = '"';
			path[at++] = *p;
		}
		strcpy(path + at, "\", pg_temp");
	}
	pg_pq.PQclear(res);
	if (!path)
		return pg_err(err, errlen, "out of memory");
	char ms[32];
	snprintf(ms, sizeof(ms), "%.0f", time_limit * 1000);
	int rc = set_config(c, "search_path", path, err, errlen) < 0 || set_config(c, "statement_timeout", ms, err, errlen) < 0
			 ? -1
			 : 0;
	free(path);
	return rc;
}

/* --- what perfguide makes --- */

/* A relation of the schema, as of the version that makes it. */
struct rel {
	const char *name;
	char kind;		/* pg_class.relkind */
	int since;
	const char *table;	/* an index: its table and definition (after USING) */
	const char *def;
};

static const struct rel rels[] = {
	{ "perfguide_schema", 'r', 1, NULL, NULL },
	{ "machines", 'r', 1, NULL, NULL },
	{ "runs", 'r', 1, NULL, NULL },
	{ "results", 'r', 1, NULL, NULL },
	{ "samples", 'r', 1, NULL, NULL },
	{ "machines_id_seq", 'S', 1, NULL, NULL },
	{ "results_id_seq", 'S', 1, NULL, NULL },
	{ "machines_pkey", 'i', 1, "machines", "btree (id)" },
	{ "machines_identity", 'i', 1, "machines", "btree (md5(identity))" },
	{ "runs_pkey", 'i', 1, "runs", "btree (id)" },
	{ "results_pkey", 'i', 1, "results", "btree (id)" },
	{ "samples_pkey", 'i', 1, "samples", "btree (result_id, seq)" },
	{ "results_run", 'i', 2, "results", "btree (run_id, seq)" },
	{ "results_key", 'i', 2, "results", "btree (bench, params, metric)" },
	{ "runs_board", 'i', 2, "runs", "btree (board, started)" },
	{ NULL, 0, 0, NULL, NULL },
};

/* The constraints perfguide's tables have (NOT NULL aside). */
static const struct con {
	const char *name, *table, *def;
} cons[] = {
	{ "machines_pkey", "machines", "PRIMARY KEY (id)" },
	{ "runs_pkey", "runs", "PRIMARY KEY (id)" },
	{ "runs_machine_id_fkey", "runs", "FOREIGN KEY (machine_id) REFERENCES machines(id)" },
	{ "results_pkey", "results", "PRIMARY KEY (id)" },
	{ "results_run_id_fkey", "results", "FOREIGN KEY (run_id) REFERENCES runs(id) ON DELETE CASCADE" },
	{ "samples_pkey", "samples", "PRIMARY KEY (result_id, seq)" },
	{ "samples_result_id_fkey", "samples", "FOREIGN KEY (result_id) REFERENCES results(id) ON DELETE CASCADE" },
	{ NULL, NULL, NULL },
};

/* The columns of the tables other than results' record fields. */
static const struct col {
	const char *table, *name, *type, *def;
	int since;
} cols[] = {
	{ "perfguide_schema", "version", "integer", NULL, 1 },
	{ "machines", "id", "bigint", "nextval('machines_id_seq'::regclass)", 1 },
	{ "machines", "identity", "text", NULL, 1 },
	{ "runs", "id", "text", NULL, 1 },
	{ "runs", "board", "text", NULL, 1 },
	{ "runs", "started", "text", NULL, 1 },
	{ "runs", "finished", "text", NULL, 1 },
	{ "runs", "status", "text", NULL, 1 },
	{ "runs", "version", "text", NULL, 1 },
	{ "runs", "machine_id", "bigint", NULL, 1 },
	{ "runs", "build", "text", NULL, 1 },
	{ "runs", "config", "text", NULL, 1 },
	{ "runs", "source", "text", NULL, 1 },
	{ "runs", "added", "timestamp with time zone", "now()", 1 },
	{ "runs", "sections", "text", NULL, 3 },
	{ "runs", "labels", "text", NULL, 4 },
	{ "results", "id", "bigint", "nextval('results_id_seq'::regclass)", 1 },
	{ "results", "run_id", "text", NULL, 1 },
	{ "results", "seq", "integer", NULL, 1 },
	{ "samples", "result_id", "bigint", NULL, 1 },
	{ "samples", "seq", "integer", NULL, 1 },
	{ "samples", "value", "double precision", NULL, 1 },
	{ NULL, NULL, NULL, NULL, 0 },
};

static const char *field_type(const struct pg_field *f)
{
	switch (f->type) {
	case PG_F_REAL: return "double precision";
	case PG_F_INT:
	case PG_F_INT32:
	case PG_F_BOOL: return "bigint";
	default: return "text";
	}
}

/* The type and default perfguide gives table.name at version v (a newer
 * store: any version); 0 when it makes no such column. */
static int column_of(const char *table, const char *name, long long v, const char **type, const char **def)
{
	*def = NULL;
	for (const struct col *c = cols; c->table; c++)
		if (strcmp(c->table, table) == 0 && strcmp(c->name, name) == 0 && c->since <= v) {
			*type = c->type;
			*def = c->def;
			return 1;
		}
	if (strcmp(table, "results") != 0)
		return 0;
	for (const struct pg_field *f = pg_record_fields; f->name; f++)
		if (!(f->flags & PG_F_SAMPLES) && strcmp(f->name, name) == 0 && f->since <= v) {
			*type = field_type(f);
			return 1;
		}
	return 0;
}

static const struct rel *rel_of(const char *name, long long v)
{
	for (const struct rel *r = rels; r->name; r++)
		if (strcmp(r->name, name) == 0 && r->since <= v)
			return r;
	return NULL;
}

/* --- what the store holds --- */

/* The oid of the store's schema, as a query's text. */
#define NS "(SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = pg_catalog.current_schema())"

/* Objects no store may hold, whatever its version: a kind and a name. */
static const char never_sql[] =
	"SELECT 'a function', proname::text FROM pg_catalog.pg_proc WHERE pronamespace = " NS
	" UNION ALL SELECT 'an operator', oprname::text FROM pg_catalog.pg_operator WHERE oprnamespace = " NS
	" UNION ALL SELECT 'a type', t.typname::text FROM pg_catalog.pg_type t WHERE t.typnamespace = " NS
	"  AND t.typtype <> 'c' AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_type e WHERE e.oid = t.typelem"
	"  AND e.typtype = 'c')"
	" UNION ALL SELECT 'an operator class', opcname::text FROM pg_catalog.pg_opclass WHERE opcnamespace = " NS
	" UNION ALL SELECT 'a conversion', conname::text FROM pg_catalog.pg_conversion WHERE connamespace = " NS
	" UNION ALL SELECT 'a trigger', g.tgname::text FROM pg_catalog.pg_trigger g JOIN pg_catalog.pg_class c"
	"  ON c.oid = g.tgrelid WHERE c.relnamespace = " NS " AND NOT g.tgisinternal"
	" UNION ALL SELECT 'a rule', r.rulename::text FROM pg_catalog.pg_rewrite r JOIN pg_catalog.pg_class c"
	"  ON c.oid = r.ev_class WHERE c.relnamespace = " NS " AND c.relkind NOT IN ('v', 'm')"
	" UNION ALL SELECT 'a row security policy', p.polname::text FROM pg_catalog.pg_policy p"
	"  JOIN pg_catalog.pg_class c ON c.oid = p.polrelid WHERE c.relnamespace = " NS
	" UNION ALL SELECT 'row level security on', relname::text FROM pg_catalog.pg_class"
	"  WHERE relnamespace = " NS " AND relrowsecurity"
	" UNION ALL SELECT 'a foreign key of another schema''s table', k.conname::text FROM pg_catalog.pg_constraint k"
	"  JOIN pg_catalog.pg_class c ON c.oid = k.confrelid JOIN pg_catalog.pg_class o ON o.oid = k.conrelid"
	"  WHERE c.relnamespace = " NS " AND o.relnamespace <> " NS
	" UNION ALL SELECT 'an inherited table', c.relname::text FROM pg_catalog.pg_inherits i"
	"  JOIN pg_catalog.pg_class c ON c.oid IN (i.inhrelid, i.inhparent) WHERE c.relnamespace = " NS
	" UNION ALL SELECT 'an event trigger', evtname::text FROM pg_catalog.pg_event_trigger WHERE evtenabled <> 'D'"
	" LIMIT 1";

static const char rels_sql[] =
	"SELECT c.relname, c.relkind, coalesce(t.relname, ''),"
	" CASE WHEN c.relkind = 'i' THEN pg_catalog.pg_get_indexdef(c.oid) ELSE '' END"
	" FROM pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_index i ON i.indexrelid = c.oid"
	" LEFT JOIN pg_catalog.pg_class t ON t.oid = i.indrelid WHERE c.relnamespace = " NS " ORDER BY 1";

static const char cons_sql[] =
	"SELECT k.conname, c.relname, k.contype, pg_catalog.pg_get_constraintdef(k.oid) FROM pg_catalog.pg_constraint k"
	" JOIN pg_catalog.pg_class c ON c.oid = k.conrelid WHERE c.relnamespace = " NS " AND k.contype <> 'n' ORDER BY 1";

static const char cols_sql[] =
	"SELECT c.relname, a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), t.typtype,"
	" pg_catalog.pg_get_expr(d.adbin, d.adrelid), a.attgenerated <> ''"
	" FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid"
	" JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
	" LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
	" WHERE c.relnamespace = " NS " AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY 1, 2";

static const char *val(PGresult *res, int row, int col)
{
	return pg_pq.PQgetisnull(res, row, col) ? NULL : pg_pq.PQgetvalue(res, row, col);
}

static PGresult *ask(PGconn *c, const char *sql, char *err, size_t errlen)
{
	return pq_query(c, sql, 0, NULL, PGRES_TUPLES_OK, "reading the schema", err, errlen);
}

static const char *kind_name(char k)
{
	switch (k) {
	case 'r': return "table";
	case 'i': return "index";
	case 'S': return "sequence";
	case 'v': return "view";
	case 'm': return "materialized view";
	case 'f': return "foreign table";
	case 'p': return "partitioned table";
	case 'I': return "partitioned index";
	case 'c': return "composite type";
	default: return "relation";
	}
}

static const char *article(const char *noun)
{
	return strchr("aeiou", noun[0]) ? "an" : "a";
}

/* One relation of the store against perfguide's at version v; newer: a
 * newer perfguide's store may hold tables, sequences and indexes more. */
static int check_rel(PGresult *res, int i, long long v, int newer, char *err, size_t errlen)
{
	const char *name = val(res, i, 0), *table = val(res, i, 2), *def = val(res, i, 3);
	char kind = val(res, i, 1)[0];
	const struct rel *r = rel_of(name, v);
	const char *using = def ? strstr(def, " USING ") : NULL;
	if (kind != 'r' && kind != 'i' && kind != 'S')
		return pg_err(err, errlen, "the store holds %s %s, %s, that perfguide never makes", article(kind_name(kind)),
			      kind_name(kind), name);
	if (!r && newer)
		return 0;
	if (!r)
		return pg_err(err, errlen, "the store holds %s %s, %s, that perfguide did not make", article(kind_name(kind)),
			      kind_name(kind), name);
	if (r->kind != kind || (kind == 'i' && (strcmp(table, r->table) != 0 || !using || strcmp(using + 7, r->def) != 0)))
		return pg_err(err, errlen, "the store's %s %s is not the one perfguide made", kind_name(kind), name);
	return 0;
}

static int check_rels(PGconn *c, long long v, int newer, char *err, size_t errlen)
{
	PGresult *res = ask(c, rels_sql, err, errlen);
	if (!res)
		return -2;
	int n = pg_pq.PQntuples(res), rc = 0;
	for (int i = 0; rc == 0 && i < n; i++)
		rc = check_rel(res, i, v, newer, err, errlen);
	/* and every one perfguide makes is there */
	for (const struct rel *r = rels; rc == 0 && !newer && r->name; r++) {
		int found = r->since > v;
		for (int i = 0; !found && i < n; i++)
			found = strcmp(val(res, i, 0), r->name) == 0;
		if (!found)
			rc = pg_err(err, errlen, "the store has no %s %s", kind_name(r->kind), r->name);
	}
	pg_pq.PQclear(res);
	return rc;
}

static int check_cons(PGconn *c, char *err, size_t errlen)
{
	PGresult *res = ask(c, cons_sql, err, errlen);
	if (!res)
		return -2;
	int rc = 0;
	for (int i = 0; rc == 0 && i < pg_pq.PQntuples(res); i++) {
		const char *name = val(res, i, 0), *table = val(res, i, 1), *def = val(res, i, 3);
		const struct con *k = cons;
		while (k->name && strcmp(k->name, name) != 0)
			k++;
		if (!k->name)
			rc = pg_err(err, errlen, "the store holds a constraint, %s, that perfguide did not make", name);
		else if (strcmp(k->table, table) != 0 || strcmp(k->def, def) != 0)
			rc = pg_err(err, errlen, "the store's constraint %s is not the one perfguide made", name);
	}
	pg_pq.PQclear(res);
	return rc;
}

static int plain_type(const char *t)
{
	static const char *const ok[] = { "text", "bigint", "integer", "double precision", "timestamp with time zone" };
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (strcmp(t, ok[i]) == 0)
			return 1;
	return 0;
}

/* One column: a type of the server's own, and a default only where
 * perfguide gives one (a default or a generated column is an expression
 * the server evaluates on every insert). */
static int check_col(PGresult *res, int i, long long v, int newer, char *err, size_t errlen)
{
	const char *table = val(res, i, 0), *name = val(res, i, 1), *type = val(res, i, 2);
	const char *def = val(res, i, 4), *wtype = NULL, *wdef = NULL;
	int known = column_of(table, name, newer ? 1LL << 40 : v, &wtype, &wdef);
	if (val(res, i, 3)[0] != 'b' || !plain_type(type))
		return pg_err(err, errlen, "the store's column %s.%s is of a type perfguide never uses (%s)", table, name, type);
	if (strcmp(val(res, i, 5), "t") == 0)
		return pg_err(err, errlen, "the store's column %s.%s is generated: perfguide never makes one", table, name);
	if (!known && !newer)
		return pg_err(err, errlen, "the store holds a column, %s.%s, that perfguide did not make", table, name);
	if ((def || wdef) && (!def || !wdef || strcmp(def, wdef) != 0))
		return pg_err(err, errlen, "the store's column %s.%s has a default perfguide did not give it", table, name);
	if (known && !newer && strcmp(type, wtype) != 0)
		return pg_err(err, errlen, "the store's column %s.%s is not the one perfguide made", table, name);
	return 0;
}

static int check_cols(PGconn *c, long long v, int newer, char *err, size_t errlen)
{
	PGresult *res = ask(c, cols_sql, err, errlen);
	if (!res)
		return -2;
	int rc = 0, n = pg_pq.PQntuples(res), want = 0;
	for (int i = 0; rc == 0 && i < n; i++) {
		rc = check_col(res, i, v, newer, err, errlen);
		const char *type, *def;
		want += column_of(val(res, i, 0), val(res, i, 1), v, &type, &def);
	}
	/* every column of this version there: as many known as perfguide makes */
	int made = 0;
	for (const struct col *k = cols; k->table; k++)
		made += k->since <= v;
	for (const struct pg_field *f = pg_record_fields; f->name; f++)
		made += !(f->flags & PG_F_SAMPLES) && f->since <= v;
	if (rc == 0 && !newer && v > 0 && want != made)
		rc = pg_err(err, errlen, "the store lacks columns perfguide made (%d of %d)", want, made);
	pg_pq.PQclear(res);
	return rc;
}

int pq_guard_schema(PGconn *c, long long version, int known, char *err, size_t errlen)
{
	int newer = version > known;
	PGresult *res = ask(c, never_sql, err, errlen);
	if (!res)
		return -2;
	if (pg_pq.PQntuples(res)) {
		int rc = pg_err(err, errlen, "the store holds %s, %s, that perfguide never makes", val(res, 0, 0),
				val(res, 0, 1));
		pg_pq.PQclear(res);
		return rc;
	}
	pg_pq.PQclear(res);
	int rc = check_rels(c, version, newer, err, errlen);
	if (rc == 0)
		rc = check_cons(c, err, errlen);
	return rc == 0 ? check_cols(c, version, newer, err, errlen) : rc;
}
