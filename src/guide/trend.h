/* SPDX-License-Identifier: MIT */
/*
 * A board's history (history/history.h) as the guide draws it: the charts'
 * data (trend.c) that svg_trend.c draws, for `perfguide history`'s svg and
 * html (history_html.c) and `report --trend` (charts.c).
 */
#ifndef PG_GUIDE_TREND_H
#define PG_GUIDE_TREND_H

#include "history/history.h"
#include "svg.h"

struct pg_hist_chart {
	struct pg_trend t;
	double *buf;		/* each line's figures and levels */
	int *changes;		/* each line's change points */
	int nchanges;
	char **tips;		/* each run's tooltip */
};

/* The chart of h's rows rows[0..n): one row in its unit, with its
 * segments' levels; several, each against its median, those with a change
 * point in colour. what (NULL: none) says which rows in the title ("LMBench").
 * 0, or -1 when out of memory. */
int pg_history_chart(const struct pg_history *h, const int *rows, int n, const char *what, struct pg_hist_chart *c);
void pg_history_chart_free(struct pg_hist_chart *c);

/* Every chart of h: several rows' chart, then one per row with a change
 * point (one row: its chart alone); in one SVG document, or each an SVG
 * element of its own when separate (html). 0, or -1 when out of memory. */
int pg_history_svg(const struct pg_history *h, FILE *out, int separate);

/* `perfguide history --format html`: the tables and the charts in one
 * page (history_html.c). 0, or -1 when out of memory. */
int pg_history_html(const struct pg_history *h, FILE *out);

#endif
