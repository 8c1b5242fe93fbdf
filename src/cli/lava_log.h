/* SPDX-License-Identifier: MIT */
/* The results files `run --lava` put into a LAVA job's log (lava_log.c). */
#ifndef PG_CLI_LAVA_LOG_H
#define PG_CLI_LAVA_LOG_H

#include <stddef.h>
#include <stdio.h>

struct pg_lava_file {
	char name[256];		/* the results file's name on the board */
	FILE *f;		/* where it is now: a temporary file of no name, at its start */
};

/* Every results file in the log, each decoded into a temporary file of no
 * name; returns how many (at least one), or -1 with err set and nothing
 * left behind. pg_lava_files_free closes (and so removes) the files. */
int pg_lava_log_extract(const char *log, struct pg_lava_file **files, char *err, size_t errlen);
void pg_lava_files_free(struct pg_lava_file *files, int n);

#endif
