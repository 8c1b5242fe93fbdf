/* SPDX-License-Identifier: MIT */
/*
 * Which rows of a section make line plots, and the plots' data. A section
 * that declares plot_x gets a plot per (benchmark, metric, other parameters)
 * of its values against plot_x, a line per value of plot_series (per board
 * too, when there are several) or per board. Elsewhere rows that differ only
 * in one integer parameter, at three or more values, are a sweep: a line per
 * board, log-scaled where the values go by powers of two.
 */
#ifndef PG_PLOTS_H
#define PG_PLOTS_H

#include "guide.h"
#include "svg.h"

/* The plots of section s, of rows not yet used; used[r - first] is set
 * for each row r they draw (first: the section's first row,
 * pg_section_first). */
int pg_section_plots(const struct pg_guide *g, int s, char *used, struct pg_plot **out, int *n);
void pg_plots_free(struct pg_plot *p, int n);

#endif
