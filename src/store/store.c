/* SPDX-License-Identifier: MIT */
/*
 * The store API over its backends: the --db string (or $PERFGUIDE_DB)
 * chooses one, the first whose claims() says it is its kind; SQLite takes
 * whatever is left (a file name).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/text.h"
#include "store.h"
#include "core/err.h"

int pg_store_is_url(const char *where)
{
	return strncmp(where, "postgresql://", 13) == 0 || strncmp(where, "postgres://", 11) == 0;
}

static int any_file(const char *where)
{
	(void)where;
	return 1;
}

static const struct pg_store_backend backends[] = {
	{ "postgresql", pg_store_is_url, pg_store_pgsql_open },
	{ "sqlite", any_file, pg_store_sqlite_open },
};

const char *pg_store_env(void)
{
	const char *db = getenv("PERFGUIDE_DB");
	return db && db[0] ? db : NULL;
}

static int ops_complete(const struct pg_store_ops *o)
{
	return o->add_run && o->add_runs && o->begin_run && o->add_result && o->end_run && o->list_runs &&
	       o->load_run && o->load_figures && o->close;
}

struct pg_store *pg_store_open(const char *where, int create, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		if (!backends[i].claims(where))
			continue;
		struct pg_store *s = backends[i].open(where, create, err, errlen);
		if (s && !ops_complete(s->ops)) {
			/* A new backend's omission, found at its first open rather
			 * than as a crash in whichever command first needs the op. */
			pg_err(err, errlen, "the %s store backend lacks an operation (store.h: each is required)",
			       backends[i].name);
			if (s->ops->close)
				s->ops->close(s);
			return NULL;
		}
		return s;
	}
	pg_err(err, errlen, "%s: no store backend takes it", where);
	return NULL;
}

int pg_store_listable(const char *id, const char *board)
{
	return id && board && pg_utf8_valid(id, strlen(id)) && pg_utf8_valid(board, strlen(board));
}

void pg_run_summaries_free(struct pg_run_summary *runs, int n)
{
	for (int i = 0; runs && i < n; i++)
		free(runs[i].labels);
	free(runs);
}

void pg_store_close(struct pg_store *s)
{
	if (s)
		s->ops->close(s);
}

enum pg_schema_state pg_store_schema_state(int64_t version, int known, char *err, size_t errlen)
{
	if (version < 1) {
		pg_err(err, errlen,
		       "store schema version %lld is not one perfguide writes (1 to %d): the store is damaged",
		       (long long)version, known);
		return PG_SCHEMA_BAD;
	}
	return version == known ? PG_SCHEMA_CURRENT : version < known ? PG_SCHEMA_OLDER : PG_SCHEMA_NEWER;
}

int pg_store_schema_newer(int64_t version, int known, int readable, int create, char *err, size_t errlen)
{
	if (!readable)
		return pg_err(err, errlen, "store schema %lld is newer than this perfguide reads (1 to %d): use a perfguide "
			      "that knows schema %lld", (long long)version, known, (long long)version);
	if (create)
		return pg_err(err, errlen, "store schema %lld is newer than this perfguide writes (%d): it can read the store "
			      "(runs, report, compare) but not add to it; add with a perfguide that knows schema %lld",
			      (long long)version, known, (long long)version);
	return 0;
}

int pg_store_read_only(char *err, size_t errlen)
{
	return pg_err(err, errlen, "the store's schema is newer than this perfguide writes: not adding to it");
}

int pg_store_same_run(struct pg_store *s, struct pg_rrun *held, const struct pg_rrun *r, char *err, size_t errlen)
{
	int found = s->ops->load_run(s, r->id, held, err, errlen);
	if (found <= 0) {
		if (found == 0)
			pg_err(err, errlen, "run %s vanished from the store", r->id);
		return -1;
	}
	char what[300];
	int same = pg_rrun_same(held, r, what, sizeof(what));
	if (!same)
		pg_err(err, errlen, "run %s is already in the store with other content (%s): a run id names one run",
		       r->id, what);
	pg_rrun_free(held);
	return same;
}

int pg_store_runs_of_board(struct pg_store *s, const char *board, char ***ids, int *n, char *err, size_t errlen)
{
	struct pg_run_summary *all;
	int nall;
	*ids = NULL;
	*n = 0;
	if (s->ops->list_runs(s, &all, &nall, err, errlen) < 0)
		return -1;
	*ids = calloc((size_t)nall + 1, sizeof(char *));
	for (int i = 0; *ids && i < nall; i++)
		if (strcmp(all[i].board, board) == 0)
			(*ids)[(*n)++] = strdup(all[i].id);
	pg_run_summaries_free(all, nall);
	return 0;
}

/* The default path's directory into dir; -1 when there is no place. */
static int default_dir(char *dir, size_t len)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	if (xdg && xdg[0] == '/')
		snprintf(dir, len, "%s/perfguide", xdg);
	else if (home && home[0])
		snprintf(dir, len, "%s/.local/share/perfguide", home);
	else
		return -1;
	return 0;
}

int pg_store_default_file(char *buf, size_t len)
{
	char dir[448];
	if (default_dir(dir, sizeof(dir)) < 0)
		return -1;
	snprintf(buf, len, "%s/results.db", dir);
	return 0;
}

/* Creates the directories of the default path as needed. */
int pg_store_default_path(char *buf, size_t len)
{
	char dir[448];
	if (default_dir(dir, sizeof(dir)) < 0)
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
