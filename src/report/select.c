#include "select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct pg_store *pg_select_store(const char *db, int create, char *err, size_t len)
{
	char path[512];
	if (!db)
		db = pg_store_env();
	if (!db) {
		if (pg_store_default_path(path, sizeof(path)) < 0) {
			snprintf(err, len, "no place for the results store: set XDG_DATA_HOME or HOME, or give --db");
			return NULL;
		}
		db = path;
	}
	return pg_store_open(db, create, err, len);
}

int pg_select_run(const char *spec, const char *db, struct pg_store **store, struct pg_rrun *r,
		  char *err, size_t len)
{
	struct stat sb;
	if (stat(spec, &sb) == 0 && S_ISREG(sb.st_mode))
		return pg_rrun_read_file(spec, r, err, len);
	if (!*store && !(*store = pg_select_store(db, 0, err, len)))
		return -1;
	int found = (*store)->ops->load_run(*store, spec, r, err, len);
	if (found != 0)
		return found < 0 ? -1 : 0;

	struct pg_run_summary *runs;
	int n;
	if ((*store)->ops->list_runs(*store, &runs, &n, err, len) < 0)
		return -1;
	const char *id = NULL;
	for (int i = 0; i < n; i++)	/* oldest first: the last match is the latest */
		if (strcmp(spec, "latest") == 0 || strcmp(runs[i].board, spec) == 0)
			id = runs[i].id;
	char idbuf[160];
	if (id)
		snprintf(idbuf, sizeof(idbuf), "%s", id);
	free(runs);
	if (!id) {
		if (strchr(spec, '/') || strstr(spec, ".jsonl"))
			snprintf(err, len, "%s: no such results file", spec);
		else
			snprintf(err, len, "'%s' is neither a run id nor a board in the store %s (see 'perfguide runs')",
				 spec, (*store)->path);
		return -1;
	}
	found = (*store)->ops->load_run(*store, idbuf, r, err, len);
	return found == 1 ? 0 : -1;
}
