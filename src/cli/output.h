/* SPDX-License-Identifier: MIT */
/*
 * Where a command's output file goes (report -o, history -o): a regular
 * file (or a new name) is written to a new file of ours in its directory
 * (core/newfile.h: O_TMPFILE or a random name made O_EXCL|O_NOFOLLOW, never
 * a name someone could plant a link at, nothing left if the command is
 * killed), named over it once complete, so a failed write leaves no half
 * file; standard
 * output ("-"), a character device (/dev/null, a serial console) or a FIFO
 * is written through, never replaced; nothing else is replaced, as root
 * neither (output.c).
 */
#ifndef PG_CLI_OUTPUT_H
#define PG_CLI_OUTPUT_H

#include <limits.h>
#include <stdio.h>

#include "core/newfile.h"

struct pg_output {
	FILE *f;
	int replace;			/* 0: written through */
	int dirfd;			/* replaced: the target's directory */
	struct pg_newfile nf;
	char target[PATH_MAX];		/* replaced: path, or where its link leads */
};

/* -1 when out is ready, else the exit status, the reason said as
 * "perfguide: CMD: ...". */
int pg_output_open(const char *cmd, const char *path, struct pg_output *out);
/* The complete file in place (wrc: 0 when everything was written): 0,
 * -1 writing failed (errno says why), -2 the target became something
 * else than a regular file meanwhile (said; not replaced). */
int pg_output_close(const char *cmd, struct pg_output *out, int wrc, const char *path);

#endif
