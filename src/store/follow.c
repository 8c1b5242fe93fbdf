/* SPDX-License-Identifier: MIT */
#include "follow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/text.h"
#include "select.h"
#include "core/err.h"

struct pg_follow {
	struct pg_store *store;
	char path[1024];
	long offset;		/* of the first line not yet read */
	int lineno;
	struct pg_rrun run;
	int begun, failed;
};

struct pg_follow *pg_follow_open(const char *db, const char *path, char *err, size_t errlen)
{
	struct pg_follow *fw = calloc(1, sizeof(*fw));
	if (!fw) {
		pg_err(err, errlen, "out of memory");
		return NULL;
	}
	fw->store = pg_select_store(db, 1, err, errlen);
	if (!fw->store) {
		free(fw);
		return NULL;
	}
	snprintf(fw->path, sizeof(fw->path), "%s", path);
	fw->run.source = strdup(path);
	/* --out may name a file that already holds earlier runs. */
	struct stat sb;
	if (stat(path, &sb) == 0)
		fw->offset = (long)sb.st_size;
	return fw;
}

static void give_up(struct pg_follow *fw, const char *why)
{
	char msg[2048];
	snprintf(msg, sizeof(msg), "results store %s: %s; the results file keeps everything: add it later with "
		 "'perfguide import %s'", fw->store->path, why, fw->path);
	if (!fw->failed) {
		fputs("perfguide: ", stderr);
		pg_term_puts(stderr, msg);	/* the store's words: escaped */
		fputc('\n', stderr);
	}
	fw->failed = 1;
}

static void take_line(struct pg_follow *fw, const char *line)
{
	char err[512];
	int nres = fw->run.nres;
	int had_end = fw->run.finished != NULL;
	if (pg_rrun_add_line(&fw->run, line, err, sizeof(err)) != 0) {
		char why[600];
		snprintf(why, sizeof(why), "line %d of the results file: %s", fw->lineno, err);
		give_up(fw, why);
		return;
	}
	int rc = 0;
	if (!fw->begun && fw->run.id) {
		fw->begun = 1;
		rc = fw->store->ops->begin_run(fw->store, &fw->run, err, sizeof(err));
	} else if (fw->run.nres > nres) {
		rc = fw->store->ops->add_result(fw->store, fw->run.id, &fw->run.res[nres], err, sizeof(err));
	} else if (!had_end && fw->run.finished) {
		rc = fw->store->ops->end_run(fw->store, fw->run.id, fw->run.finished, fw->run.end_status,
					     err, sizeof(err));
	}
	if (rc < 0)
		give_up(fw, err);
}

void pg_follow_sync(struct pg_follow *fw)
{
	if (!fw || fw->failed)
		return;
	FILE *f = fopen(fw->path, "r");
	if (!f || fseek(f, fw->offset, SEEK_SET) < 0) {
		if (f)
			fclose(f);
		give_up(fw, "cannot read the results file back");
		return;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while (!fw->failed && (n = pg_read_line(f, &line, &cap, PG_LINE_MAX)) != 0) {
		if (n < 0) {
			give_up(fw, "a line of the results file is longer than its limit");
			break;
		}
		if (line[n - 1] != '\n')
			break;	/* the rest of it is still being written */
		fw->offset += (long)n;
		fw->lineno++;
		take_line(fw, line);
	}
	free(line);
	fclose(f);
}

int pg_follow_close(struct pg_follow *fw)
{
	if (!fw)
		return 0;
	if (fw->begun)	/* the rest of a run it follows; else nothing was written */
		pg_follow_sync(fw);
	int rc = fw->failed ? -1 : 0;
	pg_rrun_free(&fw->run);
	pg_store_close(fw->store);
	free(fw);
	return rc;
}
