/* SPDX-License-Identifier: MIT */
#include "select.h"
#include "core/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct pg_store *pg_select_store(const char *db, int create, char *err, size_t errlen)
{
	char path[512];
	if (!db)
		db = pg_store_env();
	if (!db) {
		if (pg_store_default_path(path, sizeof(path)) < 0) {
			pg_err(err, errlen, "no place for the results store: set XDG_DATA_HOME or HOME, or give --db");
			return NULL;
		}
		db = path;
	}
	return pg_store_open(db, create, err, errlen);
}

/* Anything that is not a file by its form is looked up in the store, so
 * that a file that happens to lie in the current directory never stands
 * in for a run. */
int pg_select_names_file(const char *spec)
{
	size_t n = strlen(spec);
	return strchr(spec, '/') || (n >= 6 && strcmp(spec + n - 6, ".jsonl") == 0);
}

/* The run spec names in the store (an id, "latest", a board's latest)
 * into r; 1 found, 0 not, -1 error. */
static int store_lookup(struct pg_store *s, const char *spec, struct pg_rrun *r, char *err, size_t errlen)
{
	int found = s->ops->load_run(s, spec, r, err, errlen);
	if (found != 0)
		return found;
	struct pg_run_summary *runs;
	int n;
	if (s->ops->list_runs(s, &runs, &n, err, errlen) < 0)
		return -1;
	char id[PG_RUN_ID_MAX + 1] = "";
	for (int i = 0; i < n; i++)	/* oldest first: the last match is the latest */
		if (strcmp(spec, "latest") == 0 || strcmp(runs[i].board, spec) == 0)
			snprintf(id, sizeof(id), "%s", runs[i].id);
	pg_run_summaries_free(runs, n);
	if (!id[0])
		return 0;
	found = s->ops->load_run(s, id, r, err, errlen);
	if (found == 0)
		pg_err(err, errlen, "run '%s' vanished from the store", id);
	return found == 1 ? 1 : -1;
}

int pg_select_run(const char *spec, const char *db, struct pg_store **store, struct pg_rrun *r,
		  char *err, size_t errlen)
{
	if (pg_select_names_file(spec))
		return pg_rrun_read_file(spec, r, err, errlen);
	struct stat sb;
	const char *hint = stat(spec, &sb) == 0 && S_ISREG(sb.st_mode) ? "; for the file of that name, give ./" : NULL;
	int found = -1;
	if (*store || (*store = pg_select_store(db, 0, err, errlen)))
		found = store_lookup(*store, spec, r, err, errlen);
	if (found == 1 && hint) {
		pg_rrun_free(r);
		return pg_err(err, errlen, "'%s' is both a run in the store %s and a file here: give ./%s for the file",
			      spec, (*store)->path, spec);
	}
	if (found == 0)
		pg_err(err, errlen, "'%s' is neither a run id nor a board in the store %s (see 'perfguide runs')", spec,
		       (*store)->path);
	if (found <= 0 && hint) {
		size_t at = strlen(err);
		snprintf(err + at, errlen - at, "%s%s", hint, spec);
	}
	return found == 1 ? 0 : -1;
}
