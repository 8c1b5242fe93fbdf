/* SPDX-License-Identifier: MIT */
#ifndef PG_RESULT_H
#define PG_RESULT_H
/*
 * A result's per-sample arrays (runner.h, struct pg_result): grown and
 * freed, and the figures of the benchmark's siblings (pg_bench.siblings)
 * that its samples measured too: kept per sample, sent by a process
 * measuring and read back by the parent, merged across processes, and made
 * the siblings' own results.
 */
#include <stdio.h>

#include "runner.h"

/* Sample s's sibling figures from n of them: each one's counts over all
 * copies (sum) and the longest copy's seconds (el), valued as the primary
 * metric. A sample with none, or not as many as the first, ends them for
 * the result (r->nsib 0). */
void pg_sib_sample(struct pg_result *r, int s, int n, const double *sum, const double *el);
/* The child protocol's line for sample s ("sib N el v ..."), when r has
 * sibling figures. */
void pg_sib_send(FILE *f, const struct pg_result *r, int s);
/* That line's text after "sib", into the last sample read: -1 when it is
 * not one. */
int pg_sib_parse(char *s, struct pg_result *c);
/* Process k's sibling figures appended to r's (n: r's samples after the
 * merge), when every process so far measured as many; -1 out of memory. */
int pg_sib_merge(struct pg_result *r, const struct pg_result *c, int k, int n);

/* The result of benchmark sb with args sa that r's samples measured too
 * (sibling j of r->bench): the same processes, samples, conditions and
 * stop, the sibling's figure and seconds per sample, and the statistics
 * over them. -1 (out zeroed) when r has no such figure or sb has more than
 * one metric. */
int pg_result_sibling(const struct pg_result *r, int j, const struct pg_bench *sb, const struct pg_args *sa,
		      struct pg_result *out);

#endif
