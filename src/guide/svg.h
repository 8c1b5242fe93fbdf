/* SPDX-License-Identifier: MIT */
/*
 * The guide's charts as inline SVG: a line plot of values against a
 * parameter, and horizontal bars. They know nothing of results: plots.c
 * makes their data from the guide.
 */
#ifndef PG_SVG_H
#define PG_SVG_H

#include <stdio.h>

#include "core/escape.h"

struct pg_series {
	char name[160];		/* the legend's text */
	int color, dash;	/* palette index; 0: solid, else a dash pattern */
	int n;			/* 0: no point: neither drawn nor in the legend */
	double *x, *y;		/* n points, x ascending */
	double *lo, *hi;	/* each point's min and max (an error bar); NULL: none */
};

struct pg_plot {
	char title[400];
	char xlabel[64];	/* the parameter */
	char ylabel[200];	/* "metric (unit)" */
	const char *note;	/* "higher is better"; NULL: none */
	int logx;		/* every x a power of two (sizes) */
	int nx;
	double *xs;		/* the distinct x values, ascending */
	char (*xticks)[48];	/* and how each prints ("4k") */
	int ns;
	struct pg_series *s;
};

void pg_plot_free(struct pg_plot *p);

/* Whether the plot has a point to draw. */
int pg_plot_has_points(const struct pg_plot *p);
/* Whether every point of it is one figure: a line that says nothing. */
int pg_plot_constant(const struct pg_plot *p);

void pg_svg_lines(FILE *out, const struct pg_plot *p);

/* A bar per label from 0; a value that is NAN draws missing[i] instead.
 * ref, when not NAN, draws a line at that value (1 for ratios). */
struct pg_bars {
	const char *title;
	const char *axis;		/* what the values are: "metric (unit)" */
	int n;
	const char *const *labels;
	const double *v;
	const char *const *missing;
	const int *color;		/* palette index per bar */
	const double *lo, *hi;		/* each bar's min and max (an error bar); NULL: none */
	const char *note;		/* "higher is better"; NULL: none */
	double ref;
	int label_width;		/* pixels for the labels */
};

void pg_svg_bars(FILE *out, const struct pg_bars *b);

/* A figure run by run (history, report --trend): x is the run's number
 * (1 to nruns), a line per row, the runs where a row's new level starts
 * marked (svg_trend.c). */
struct pg_trend_line {
	char name[240];		/* the legend's text */
	const double *y;	/* per run; NAN: no figure */
	const double *level;	/* per run, the level of its segment (drawn as steps); NULL: none */
	const int *changes;	/* runs (indices) where a new level starts */
	int nchanges;
	int highlight;		/* in colour, named, its points with tips; else a grey line */
};

struct pg_trend {
	char title[400];
	char ylabel[200];
	const char *note;	/* "higher is better"; NULL: none */
	char other[120];	/* the legend's text for the grey lines; "": none */
	int nruns;
	const char *const *tips;	/* per run: its id, date and labels (a point's tooltip) */
	int nlines;
	struct pg_trend_line *lines;
};

/* The chart's size, and the chart; at y >= 0 it is nested in another SVG
 * (several charts in one file) at that offset. */
void pg_svg_trend_size(const struct pg_trend *t, int *w, int *h);
void pg_svg_trend(FILE *out, const struct pg_trend *t, int y);

#endif
