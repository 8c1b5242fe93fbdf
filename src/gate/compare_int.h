/* SPDX-License-Identifier: MIT */
/* Between compare.c (the rows) and compare_judge.c (their tests and
 * verdicts): not for use outside src/gate. */
#ifndef PG_COMPARE_INT_H
#define PG_COMPARE_INT_H

#include "compare.h"

/* Sets a row's verdict and why. */
void pg_cmp_set(struct pg_cmp_row *r, enum pg_verdict v, const char *why);

/* Tests a row on its runs b[0..nb) and n[0..nn) (undisturbed, ok): each
 * side's replicates (one run a side: its processes; several runs on a
 * side: the runs), the benchmark's allowance, the board's noise profile
 * from o. -1 out of memory. */
int pg_cmp_test_row(struct pg_cmp_row *r, const struct pg_record **b, int nb, const struct pg_record **n, int nn,
		    const struct pg_cmp_opts *o);

/* Benjamini-Hochberg over the gated rows that were tested, then each
 * row's verdict (gate/verdict.h's rule). -1 out of memory. */
int pg_cmp_verdicts(struct pg_comparison *c, const struct pg_cmp_opts *o);

/* A run's figure of a result as one replicate beside other runs: the
 * geometric mean of its processes' medians (its median when it ran in
 * one); its log's standard error; its samples. */
void pg_cmp_run_level(const struct pg_record *x, double *med, double *se, int *cnt);

#endif
