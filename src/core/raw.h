/* SPDX-License-Identifier: MIT */
/*
 * The raw output a benchmark keeps beside the results file
 * (pg_run_opts.raw_dir): an external program's output, a search's trials.
 */
#ifndef PG_RAW_H
#define PG_RAW_H

#include <stddef.h>
#include <stdio.h>

#include "bench.h"

/* Opens a new file <raw_dir>/<bench id>-<n>.<ext>, the first n not yet
 * taken, and puts its name relative to the results' directory
 * ("<run>.raw/<bench>-<n>.txt") in name. Without a raw_dir (no results
 * file) or when it cannot be written, returns NULL and name says why. */
FILE *pg_raw_open(struct pg_ctx *ctx, const char *ext, char *name, size_t len);

#endif
