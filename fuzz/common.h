/* SPDX-License-Identifier: MIT */
/* Shared by the fuzz targets (common.c). */
#ifndef PG_FUZZ_COMMON_H
#define PG_FUZZ_COMMON_H

#include <stddef.h>

#include "runs/rundata.h"

struct pg_writer;

/* Aborts when what writer fmt wrote is not valid UTF-8, json that does not
 * parse, md with a raw '<' or rst with a directive of the input's. */
void fuzz_check_text(const char *fmt, const char *s, size_t n);
/* The guide of runs in format wr, malloc'd; NULL when building failed. */
char *fuzz_guide_text(const struct pg_rrun *const *runs, int n, const struct pg_writer *wr, int baseline,
		      size_t *len);
/* The guide in every format, each checked. */
void fuzz_every_format(const struct pg_rrun *const *runs, int n, int baseline);
/* A directory of this process's own in $TMPDIR (else /tmp), made at the
 * first call and removed at exit (its files are the caller's to remove):
 * no fixed name in a shared directory, whatever TMPDIR says. */
const char *fuzz_tmpdir(void);
/* compare base new, in md and json, checked. */
void fuzz_compare(const struct pg_rrun *base, const struct pg_rrun *new);

#endif
