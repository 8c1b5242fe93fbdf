/* SPDX-License-Identifier: MIT */
/*
 * The SQLite store's read side: the runs it holds listed, a run read back
 * whole (its row, its results by the field table, their samples). What is
 * read is someone else's file as much as ours: text that is not UTF-8 comes
 * back as U+FFFD, a run with ids longer than a results file may give is not
 * listed (store.h's rules).
 */
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record_json.h"
#include "core/text.h"
#include "store.h"
#include "store_sqlite_int.h"

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
	sq_result_columns(cols, sizeof(cols), 0);
	snprintf(sql, len, "SELECT id, (SELECT count(*) FROM samples WHERE result_id = results.id), %s"
		 " FROM results WHERE run_id = ? ORDER BY seq", cols);
}

int sq_readable(sqlite3 *db)
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

int sq_list_runs(struct pg_store *s, struct pg_run_summary **out, int *n, char *err, size_t errlen)
{
	sq_begin(s);
	sqlite3 *db = sq_db(s);
	sqlite3_stmt *st;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, list_sql, -1, &st, NULL) != SQLITE_OK)
		return sq_fail(db, err, errlen, "listing runs");
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
		return sq_fail(db, err, errlen, "listing runs");
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
	sq_bind_text(st, 1, id);
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

static int no_samples(struct pg_rrun *r)
{
	for (int i = 0; i < r->nres; i++)
		r->res[i].nsamples = 0;
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
	sq_bind_text(st, 1, id);
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

static int load_run(struct pg_store *s, const char *id, struct pg_rrun *r, int samples, char *err, size_t errlen)
{
	sq_begin(s);
	sqlite3 *db = sq_db(s);
	memset(r, 0, sizeof(*r));
	int found = load_run_row(db, id, r);
	if (found <= 0) {
		pg_rrun_free(r);
		return found < 0 ? sq_fail(db, err, errlen, "reading a run") : 0;
	}
	sqlite3_int64 *rids = NULL;
	if (load_results(db, id, r, &rids) < 0 || (samples ? load_samples(db, r, rids) : no_samples(r)) < 0) {
		free(rids);
		sq_fail(db, err, errlen, "reading results");
		pg_rrun_free(r);
		return -1;
	}
	free(rids);
	return 1;
}

int sq_load_run(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t errlen)
{
	return load_run(s, id, r, 1, err, errlen);
}

int sq_load_figures(struct pg_store *s, const char *id, struct pg_rrun *r, char *err, size_t errlen)
{
	return load_run(s, id, r, 0, err, errlen);
}
