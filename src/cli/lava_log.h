/* SPDX-License-Identifier: MIT */
/* The results files `run --lava` put into a LAVA job's log (lava_log.c). */
#ifndef PG_CLI_LAVA_LOG_H
#define PG_CLI_LAVA_LOG_H

#include <limits.h>
#include <stddef.h>

struct pg_lava_file {
	char name[256];		/* the results file's name on the board */
	char path[PATH_MAX];	/* where it is now: a temporary file */
};

/* Every results file in the log, each decoded into a temporary file;
 * returns how many (at least one), or -1 with err set and nothing left
 * behind. pg_lava_files_free removes the files. */
int pg_lava_log_extract(const char *log, struct pg_lava_file **files, char *err, size_t errlen);
void pg_lava_files_free(struct pg_lava_file *files, int n);

#endif
