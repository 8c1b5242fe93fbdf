/* SPDX-License-Identifier: MIT */
/* What history's writers share (history_out.c, guide/history_html.c). */
#ifndef PG_HISTORY_OUT_H
#define PG_HISTORY_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "history.h"

/* A figure as the tables print it ("-": none). */
void pg_hist_fig(double v, char *buf, size_t len);
/* The method and its parameters, in a sentence's words. */
void pg_hist_method(const struct pg_history *h, char *buf, size_t len);
/* "30 runs, 3 rows, 1 change point" */
void pg_hist_about(const struct pg_history *h, char *buf, size_t len);
/* "worse" or "better": the change by the row's direction. */
const char *pg_hist_way(const struct pg_hist_row *r, const struct pg_hist_change *c);
/* Run run's figure of r, between bold0 and bold1 where a new level
 * starts, with (d) disturbed and (n) noisy. */
void pg_hist_cell(const struct pg_hist_row *r, int run, char *buf, size_t len, const char *bold0, const char *bold1);
/* Rows with one change point or more. */
int pg_hist_rows_changed(const struct pg_history *h);

#endif
