/* SPDX-License-Identifier: MIT */
/*
 * The PostgreSQL store's read side: what reading asks of the store (its
 * queries, checked against a newer perfguide's store), the runs listed, a
 * run read back whole in two queries. Text that is not UTF-8 (a server
 * whose encoding is SQL_ASCII keeps any bytes) comes back as U+FFFD.
 */
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

#define STR(x) #x
#define XSTR(x) STR(x)
/* What reading asks of the store. As SQLite's: a run whose id or board is
 * longer than a results file may give (only a store written by something
 * else has one) is not listed. */
static const char list_sql[] =
	"SELECT r.id, r.board, r.started, r.version, coalesce(r.status, 'incomplete'),"
	" (SELECT count(*) FROM results WHERE run_id = r.id), r.labels FROM runs r"
	" WHERE octet_length(r.id) <= " XSTR(PG_RUN_ID_MAX) " AND octet_length(r.board) <= " XSTR(PG_BOARD_MAX)
	" ORDER BY r.started COLLATE \"C\" NULLS FIRST, r.id COLLATE \"C\"";
static const char run_row_sql[] =
	"SELECT r.id, r.board, r.started, r.finished, r.status, r.version, m.identity, r.build, r.config,"
	" r.source, r.sections, r.labels FROM runs r LEFT JOIN machines m ON m.id = r.machine_id WHERE r.id = $1";

/* Every result of a run ($1) with its samples (or without), in one query. */
static int results_sql(char *sql, size_t len, int samples)
{
	char cols[1024];
	if (pq_result_columns(cols, sizeof(cols)) < 0)
		return -1;
	snprintf(sql, len, "SELECT %s, %s FROM results WHERE run_id = $1 ORDER BY seq",
		 samples ? "(SELECT array_agg(value ORDER BY seq) FROM samples WHERE result_id = results.id)" : "NULL",
		 cols);
	return 0;
}

/* 1 when every query that reads runs finds its tables and columns (a
 * newer perfguide's store: read where it can be). */
int pq_readable(PGconn *c)
{
	char sql[1400];
	if (results_sql(sql, sizeof(sql), 1) < 0)
		return 0;
	const char *const all[] = { list_sql, run_row_sql, sql };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		PGresult *res = pg_pq.PQprepare(c, "", all[i], 0, NULL);
		int ok = pg_pq.PQresultStatus(res) == PGRES_COMMAND_OK;
		pg_pq.PQclear(res);
		if (!ok)
			return 0;
	}
	return 1;
}

static void copy_col(PGresult *res, int row, int col, char *buf, size_t len)
{
	snprintf(buf, len, "%s", pg_pq.PQgetisnull(res, row, col) ? "" : pg_pq.PQgetvalue(res, row, col));
}

/* The column's text; what is not UTF-8 in it (a server whose encoding is
 * SQL_ASCII keeps any bytes) as U+FFFD. */
static char *col_dup(PGresult *res, int row, int col)
{
	return pg_pq.PQgetisnull(res, row, col) ? NULL : pg_utf8_dup(pg_pq.PQgetvalue(res, row, col));
}

int pq_list_runs(struct pg_store *s, struct pg_run_summary **out, int *n, char *err, size_t errlen)
{
	*out = NULL;
	*n = 0;
	PGresult *res = pq_query(pq_conn(s), list_sql, 0, NULL, PGRES_TUPLES_OK, "listing runs", err, errlen);
	if (!res)
		return -1;
	int rows = pg_pq.PQntuples(res);
	*out = calloc((size_t)(rows ? rows : 1), sizeof(**out));
	if (!*out) {
		pg_pq.PQclear(res);
		return pg_err(err, errlen, "out of memory");
	}
	*n = 0;
	for (int i = 0; i < rows; i++) {
		if (!pg_store_listable(pg_pq.PQgetvalue(res, i, 0), pg_pq.PQgetvalue(res, i, 1)))
			continue;
		struct pg_run_summary *p = &(*out)[(*n)++];
		copy_col(res, i, 0, p->id, sizeof(p->id));
		copy_col(res, i, 1, p->board, sizeof(p->board));
		copy_col(res, i, 2, p->started, sizeof(p->started));
		copy_col(res, i, 3, p->version, sizeof(p->version));
		copy_col(res, i, 4, p->status, sizeof(p->status));
		p->nresults = atoi(pg_pq.PQgetvalue(res, i, 5));
		p->labels = col_dup(res, i, 6);
	}
	pg_pq.PQclear(res);
	return 0;
}

/* A column's text into the field (NULL leaves it unset). */
static void column_field(PGresult *res, int row, int col, const struct pg_field *f, struct pg_record *x)
{
	void *p = (char *)x + f->off;
	if (pg_pq.PQgetisnull(res, row, col))
		return;
	const char *t = pg_pq.PQgetvalue(res, row, col);
	if (f->flags & PG_F_HAVE)
		*(int *)((char *)x + f->count_off) = 1;
	switch (f->type) {
	case PG_F_TEXT:
	case PG_F_JSON: *(char **)p = strdup(t); break;
	case PG_F_REAL: *(double *)p = strtod(t, NULL); break;
	case PG_F_INT: *(int64_t *)p = strtoll(t, NULL, 10); break;
	case PG_F_INT32:
	case PG_F_BOOL: *(int *)p = atoi(t); break;
	case PG_F_STATUS:
		if (pg_status_parse(t, (enum pg_status *)p) < 0)
			*(enum pg_status *)p = PG_ERROR;
		break;
	case PG_F_BETTER: *(int *)p = pg_better_parse(t); break;
	case PG_F_REALS: {
		char e[64];
		json_t *a = json_loads(t, 0, NULL);
		int *n = (int *)((char *)x + f->count_off);
		*(double **)p = json_is_array(a) ? pg_json_to_reals(a, n, f->name, e, sizeof(e)) : NULL;
		if (!*(double **)p)
			*n = 0;
		json_decref(a);
		break;
	}
	}
}

/* {1.5,2.5} -> the samples. */
static void parse_samples(const char *t, struct pg_record *x)
{
	size_t n = *t == '{' && t[1] != '}' ? 1 : 0;
	for (const char *p = t; *p; p++)
		n += *p == ',';
	x->samples = n ? calloc(n, sizeof(double)) : NULL;
	x->nsamples = 0;
	for (const char *p = t + 1; x->samples && (size_t)x->nsamples < n && *p && *p != '}'; p++) {
		char *end;
		x->samples[x->nsamples++] = strtod(p, &end);
		p = end;
		if (*p != ',')
			break;
	}
}

static int load_run_row(PGconn *c, const char *id, struct pg_rrun *r, char *err, size_t errlen)
{
	PGresult *res = pq_query(c, run_row_sql, 1, &id, PGRES_TUPLES_OK, "reading a run", err, errlen);
	if (!res)
		return -1;
	int found = pg_pq.PQntuples(res) == 1;
	if (found) {
		char **dst[] = { &r->id, &r->board, &r->started, &r->finished, &r->end_status, &r->version,
				 &r->machine, &r->build, &r->config, &r->source, &r->sections, &r->labels };
		for (int i = 0; i < (int)(sizeof(dst) / sizeof(dst[0])); i++)
			*dst[i] = col_dup(res, 0, i);
	}
	pg_pq.PQclear(res);
	return found;
}

/* Every result of the run with its samples (or without), in one query. */
static int load_results(PGconn *c, const char *id, struct pg_rrun *r, int samples, char *err, size_t errlen)
{
	char sql[1400];
	if (results_sql(sql, sizeof(sql), samples) < 0)
		return -1;
	PGresult *res = pq_query(c, sql, 1, &id, PGRES_TUPLES_OK, "reading results", err, errlen);
	if (!res)
		return -1;
	int rows = pg_pq.PQntuples(res);
	r->res = calloc((size_t)(rows ? rows : 1), sizeof(*r->res));
	if (!r->res) {
		pg_pq.PQclear(res);
		return pg_err(err, errlen, "out of memory");
	}
	for (int i = 0; i < rows; i++) {
		struct pg_record *x = &r->res[r->nres++];
		x->higher = 1;
		if (!pg_pq.PQgetisnull(res, i, 0))
			parse_samples(pg_pq.PQgetvalue(res, i, 0), x);
		int col = 1;
		for (const struct pg_field *f = pg_record_fields; f->name; f++)
			if (!(f->flags & PG_F_SAMPLES))
				column_field(res, i, col++, f, x);
		pg_record_text_defaults(x);
	}
	pg_pq.PQclear(res);
	return 0;
}

static int load_run(struct pg_store *s, const char *id, struct pg_rrun *r, int samples, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	int found = load_run_row(pq_conn(s), id, r, err, errlen);
	if (found == 1 && load_results(pq_conn(s), id, r, samples, err, errlen) < 0)
		found = -1;
	if (found != 1)
		pg_rrun_free(r);
	return found;
}

int pq_load_run(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t errlen)
{
	return load_run(s, id, r, 1, err, errlen);
}

int pq_load_figures(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t errlen)
{
	return load_run(s, id, r, 0, err, errlen);
}
