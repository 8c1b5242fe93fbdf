/* SPDX-License-Identifier: MIT */
#include "result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "procs.h"
#include "stats.h"

/* Room for one more sample in every per-sample array. */
int pg_result_grow(struct pg_result *r, int *cap)
{
	if (r->nsamples < *cap)
		return 0;
	int n = *cap ? 2 * *cap : 16;
	double *e = realloc(r->elapsed, (size_t)n * sizeof(double));
	if (!e)
		return -1;
	r->elapsed = e;
	for (int m = 0; m < r->nmetrics; m++) {
		double *v = realloc(r->values[m], (size_t)n * sizeof(double));
		if (!v)
			return -1;
		r->values[m] = v;
	}
	for (int j = 0; r->bench && r->bench->siblings && j < PG_MAX_SIBLINGS; j++) {
		double *v = realloc(r->sib_values[j], (size_t)n * sizeof(double));
		if (!v)
			return -1;
		r->sib_values[j] = v;
		if (!(v = realloc(r->sib_elapsed[j], (size_t)n * sizeof(double))))
			return -1;
		r->sib_elapsed[j] = v;
	}
	*cap = n;
	return 0;
}

void pg_result_free(struct pg_result *r)
{
	free(r->hist);
	r->hist = NULL;
	free(r->elapsed);
	r->elapsed = NULL;
	for (int m = 0; m < PG_MAX_METRICS; m++) {
		free(r->values[m]);
		r->values[m] = NULL;
	}
	for (int j = 0; j < PG_MAX_SIBLINGS; j++) {
		free(r->sib_values[j]);
		free(r->sib_elapsed[j]);
		r->sib_values[j] = r->sib_elapsed[j] = NULL;
	}
	r->nsib = 0;
}

void pg_sib_sample(struct pg_result *r, int s, int n, const double *sum, const double *el)
{
	if (n <= 0 || n > PG_MAX_SIBLINGS || (s > 0 && n != r->nsib)) {
		r->nsib = 0;
		return;
	}
	for (int j = 0; j < n; j++) {
		r->sib_elapsed[j][s] = el[j];
		double t = el[j] > 0 ? el[j] : 1e-9;
		r->sib_values[j][s] = pg_metric_value(&r->bench->metrics[0], t, sum[j], r->copies);
	}
	r->nsib = n;
}

void pg_sib_send(FILE *f, const struct pg_result *r, int s)
{
	if (!r->nsib)
		return;
	fprintf(f, "sib %d", r->nsib);
	for (int j = 0; j < r->nsib; j++)
		fprintf(f, " %a %a", r->sib_elapsed[j][s], r->sib_values[j][s]);
	fputc('\n', f);
}

/* The siblings' figures of the sample just read (pg_bench.siblings). */
int pg_sib_parse(char *s, struct pg_result *c)
{
	char *end;
	long n = strtol(s, &end, 10);
	int at = c->nsamples - 1;
	if (end == s || n < 1 || n > PG_MAX_SIBLINGS || !c->bench->siblings || at < 0 || !c->sib_values[0] ||
	    (at > 0 && n != c->nsib))
		return -1;
	for (int j = 0; j < n; j++) {
		s = end;
		c->sib_elapsed[j][at] = strtod(s, &end);
		if (end == s)
			return -1;
		s = end;
		c->sib_values[j][at] = strtod(s, &end);
		if (end == s)
			return -1;
	}
	c->nsib = (int)n;
	return 0;
}

int pg_sib_merge(struct pg_result *r, const struct pg_result *c, int k, int n)
{
	if (k > 0 && c->nsib != r->nsib)
		r->nsib = 0;
	else if (k == 0)
		r->nsib = c->nsib;
	for (int j = 0; j < r->nsib; j++) {
		double *v = realloc(r->sib_values[j], (size_t)n * sizeof(double));
		if (!v)
			return -1;
		r->sib_values[j] = v;
		memcpy(v + r->nsamples, c->sib_values[j], (size_t)c->nsamples * sizeof(double));
		if (!(v = realloc(r->sib_elapsed[j], (size_t)n * sizeof(double))))
			return -1;
		r->sib_elapsed[j] = v;
		memcpy(v + r->nsamples, c->sib_elapsed[j], (size_t)c->nsamples * sizeof(double));
	}
	return 0;
}

int pg_result_sibling(const struct pg_result *r, int j, const struct pg_bench *sb, const struct pg_args *sa,
		      struct pg_result *out)
{
	memset(out, 0, sizeof(*out));
	if (r->status != PG_OK || j < 0 || j >= r->nsib || r->nsamples < 1 || pg_metric_count(sb) != 1)
		return -1;
	size_t bytes = (size_t)r->nsamples * sizeof(double);
	out->elapsed = malloc(bytes);
	out->values[0] = malloc(bytes);
	if (!out->elapsed || !out->values[0]) {
		pg_result_free(out);
		return -1;
	}
	memcpy(out->elapsed, r->sib_elapsed[j], bytes);
	memcpy(out->values[0], r->sib_values[j], bytes);
	out->bench = sb;
	out->args = sa;
	out->status = PG_OK;
	out->nmetrics = 1;
	out->nsamples = r->nsamples;
	out->copies = r->copies;
	out->iters = r->iters;
	out->stop = r->stop;
	out->cap = r->cap;
	out->cpu = r->cpu;
	out->started = r->started;
	out->finished = r->finished;
	out->have_env = r->have_env;
	out->env = r->env;
	out->disturbed = r->disturbed;
	out->nprocs = r->nprocs;
	memcpy(out->proc_n, r->proc_n, sizeof(out->proc_n));
	snprintf(out->note, sizeof(out->note), "%.*s%smeasured in the passes of %s", PG_MSG_LEN - 80, r->note,
		 r->note[0] ? "; " : "", r->bench->id);
	if (out->nprocs > 0)
		pg_procs_finish(out);
	else
		pg_stats_compute(out->values[0], (size_t)out->nsamples, &out->stats[0]);
	return 0;
}
