/*
 * What changed between two runs. A change is a verdict only when it is
 * larger than the threshold and the samples differ significantly (two-sided
 * Mann-Whitney U test, p < 0.05); the direction comes from the metric's
 * higher-is-better.
 */
#ifndef PG_COMPARE_H
#define PG_COMPARE_H

#include <jansson.h>
#include <stdio.h>

#include "rundata.h"

enum pg_verdict { PG_SAME, PG_IMPROVED, PG_REGRESSED };

struct pg_cmp_row {
	const struct pg_record *base, *new;
	double change_pct;
	double p;		/* Mann-Whitney two-sided p */
	enum pg_verdict verdict;
};

#define PG_CMP_ALPHA 0.05

/* Two-sided p-value of the Mann-Whitney U test: exact for small samples
 * without ties, else the normal approximation with tie and continuity
 * correction. 1 when either sample is empty. */
double pg_mann_whitney(const double *a, int na, const double *b, int nb);

/* Every key with an ok result in both runs, in BASE's order; caller frees. */
int pg_compare(const struct pg_rrun *base, const struct pg_rrun *new, double threshold_pct,
	       struct pg_cmp_row **rows, int *n);

const char *pg_verdict_name(enum pg_verdict v);

/* What compare found, for printing. */
struct pg_verdicts {
	const struct pg_rrun *base, *new;
	double threshold;
	const struct pg_cmp_row *rows;
	int n, nreg, nimp;
};

/* A Markdown table (names escaped for it, no control characters: it goes
 * to a terminal), or JSON (compare_out.c). */
void pg_compare_write_md(FILE *out, const struct pg_verdicts *v);
void pg_compare_write_json(FILE *out, const struct pg_verdicts *v);
/* Their parts, for compare across a fleet: one row as JSON; the row's name (the seed's label, or bench, parameters and metric) and unit,
 * escaped for Markdown; " | base | new | change | p". */
json_t *pg_compare_row_json(const struct pg_cmp_row *r);
void pg_compare_write_name(FILE *out, const struct pg_record *x);
void pg_compare_write_figures(FILE *out, const struct pg_cmp_row *r);

#endif
