/* SPDX-License-Identifier: MIT */
/*
 * Where a run's results go: every sink gets every record, in the order the
 * sinks were added (the results file before the store that follows it). The
 * console shows progress and a line per result; the summary counts them and
 * ends the run with what failed and why.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/console.h"
#include "core/record.h"
#include "core/text.h"
#include "core/timer.h"
#include "run.h"

int run_sinks_add(struct run_sinks *s, const struct run_sink_ops *ops, void *self)
{
	if (s->n == RUN_MAX_SINKS)
		return -1;
	s->ops[s->n] = ops;
	s->self[s->n++] = self;
	return 0;
}

void run_sinks_begin(struct run_sinks *s, const struct pg_run_info *ri)
{
	for (int i = 0; i < s->n; i++)
		if (s->ops[i]->begin)
			s->ops[i]->begin(s->self[i], ri);
}

void run_sinks_before(struct run_sinks *s, const struct run_item *item, int k, int n, double left)
{
	for (int i = 0; i < s->n; i++)
		if (s->ops[i]->before)
			s->ops[i]->before(s->self[i], item, k, n, left);
}

void run_sinks_result(struct run_sinks *s, const struct pg_result *r)
{
	for (int i = 0; i < s->n; i++)
		if (s->ops[i]->result)
			s->ops[i]->result(s->self[i], r);
}

void run_sinks_end(struct run_sinks *s, int interrupted)
{
	for (int i = 0; i < s->n; i++)
		if (s->ops[i]->end)
			s->ops[i]->end(s->self[i], interrupted);
}

int run_sinks_close(struct run_sinks *s)
{
	int rc = 0;
	for (int i = 0; i < s->n; i++)
		if (s->ops[i]->close && s->ops[i]->close(s->self[i]) < 0)
			rc = -1;
	s->n = 0;
	return rc;
}

/* --- the console --- */

static void console_before(void *self, const struct run_item *item, int i, int n, double left)
{
	char what[200], args[160];
	pg_args_format(&item->args, args, sizeof(args));
	snprintf(what, sizeof(what), "%s %s", item->bench->id, args);
	pg_console_progress(self, i, n, what, left);
}

static void console_result(void *self, const struct pg_result *r)
{
	pg_console_result(self, r);
}

static void console_end(void *self, int interrupted)
{
	(void)interrupted;
	pg_console_clear(self);
}

static int console_close(void *self)
{
	free(self);
	return 0;
}

static const struct run_sink_ops console_ops = {
	.before = console_before, .result = console_result, .end = console_end, .close = console_close,
};

int run_sink_console(struct run_sinks *s, const struct run_config *c)
{
	struct pg_console *con = malloc(sizeof(*con));
	if (!con)
		return -1;
	pg_console_init(con, c->json);
	if (run_sinks_add(s, &console_ops, con) < 0) {
		free(con);
		return -1;
	}
	return 0;
}

/* --- the summary --- */

#define MAX_FAILURES 64

struct summary {
	int ok, noisy, skipped, errors;
	int bimodal;		/* results whose processes disagree (primary metric) */
	int disturbed, by[5];	/* disturbed results; by PG_ENV_OTHERS, _STEAL, _THERMAL, _CGROUP, _SLOW */
	double others_max;	/* the largest share other processes took of a disturbed result */
	int stops[PG_STOP_ONCE + 1];	/* why the measured results' samples stopped */
	char failures[MAX_FAILURES][512];
	int *failed;
	double budget, started;	/* --budget (0: none); when the first record came */
};

static void summary_begin(void *self, const struct pg_run_info *ri)
{
	struct summary *s = self;
	(void)ri;
	s->started = pg_now();
}

static void summary_result(void *self, const struct pg_result *r)
{
	struct summary *s = self;
	if (r->status == PG_SKIP) {
		s->skipped++;
	} else if (r->status == PG_ERROR) {
		char args[160];
		pg_args_format(r->args, args, sizeof(args));
		if (s->errors < MAX_FAILURES) {
			char *f = s->failures[s->errors];
			snprintf(f, sizeof(s->failures[0]), "%s%s%s: %s", r->bench->id, args[0] ? " " : "", args, r->reason);
			pg_utf8_trim(f);
			for (; *f; f++)	/* one line each: a newline reads as a space */
				if ((unsigned char)*f < 0x20)
					*f = ' ';
		}
		s->errors++;
		*s->failed = 1;
	} else {
		if (r->nmetrics > 0 && r->stats[0].cv > PG_NOISY_CV)
			s->noisy++;	/* by its primary metric, as the console marks it */
		else
			s->ok++;
		if ((unsigned)r->stop <= PG_STOP_ONCE)
			s->stops[r->stop]++;
		s->bimodal += r->nprocs > 1 && r->nmetrics > 0 && r->proc_bimodal[0];
		if (r->disturbed) {
			s->disturbed++;
			for (int k = 0; k < 5; k++)
				s->by[k] += (r->env.why >> k) & 1;
			if (r->env.why & PG_ENV_OTHERS)
				s->others_max = fmax(s->others_max, pg_env_others_share(&r->env));
		}
	}
}

/* How many of the results the noise-aware runner sampled reached their
 * interval, and where the others stopped. */
static void summary_stops(const struct summary *s)
{
	const int *n = s->stops;
	int sampled = n[PG_STOP_INTERVAL] + n[PG_STOP_MAX_RUNS] + n[PG_STOP_TIME] + n[PG_STOP_BUDGET];
	if (sampled == 0)
		return;
	fprintf(stderr, "perfguide: %d of %d results reached their interval target", n[PG_STOP_INTERVAL], sampled);
	if (sampled > n[PG_STOP_INTERVAL])
		fprintf(stderr, "; the others stopped at their time cap (%d), the budget (%d) or the sample limit (%d)",
			n[PG_STOP_TIME], n[PG_STOP_BUDGET], n[PG_STOP_MAX_RUNS]);
	fputc('\n', stderr);
}

/* How many results the machine disturbed, by what, and what to do. */
static void summary_disturbed(const struct summary *s)
{
	if (!s->disturbed)
		return;
	char what[256] = "";
	size_t at = 0;
	if (s->by[0])
		at += (size_t)snprintf(what + at, sizeof(what) - at, ", other processes used the CPUs (%d, up to %.0f%% "
				       "of them)", s->by[0], 100 * s->others_max);
	if (s->by[1] && at < sizeof(what))
		at += (size_t)snprintf(what + at, sizeof(what) - at, ", the hypervisor stole CPU time (%d)", s->by[1]);
	if (s->by[2] && at < sizeof(what))
		at += (size_t)snprintf(what + at, sizeof(what) - at, ", thermal throttling (%d)", s->by[2]);
	if (s->by[3] && at < sizeof(what))
		at += (size_t)snprintf(what + at, sizeof(what) - at, ", the cgroup's CPU quota (%d)", s->by[3]);
	if (s->by[4] && at < sizeof(what))
		snprintf(what + at, sizeof(what) - at, ", the CPU ran slower than at the run's start (%d)", s->by[4]);
	fprintf(stderr, "perfguide: %d result%s disturbed: %s; compare will not judge them\n", s->disturbed,
		s->disturbed == 1 ? " was" : "s were", what + 2);
	fputs("perfguide: close other work (or let the run wait for it: --wait-quiet), pin the benchmarks away from "
	      "it with --cpu, or raise --budget so that disturbed samples can be taken again\n", stderr);
}

static void summary_end(void *self, int interrupted)
{
	struct summary *s = self;
	int n = s->ok + s->noisy + s->skipped + s->errors;
	fprintf(stderr, "perfguide: %s%d result%s: %d ok, %d noisy, %d skipped, %d error%s\n",
		interrupted ? "interrupted after " : "", n, n == 1 ? "" : "s", s->ok, s->noisy, s->skipped, s->errors,
		s->errors == 1 ? "" : "s");
	summary_stops(s);
	if (s->bimodal)
		fprintf(stderr, "perfguide: %d result%s measured differently in different processes (BIMODAL: each "
			"process's median is in the results file, and such a result took more processes, up to "
			"--max-processes); pinning (--cpu) shows which figure is the machine's\n", s->bimodal, s->bimodal == 1 ? " was" : "s were");
	summary_disturbed(s);
	if (s->budget > 0) {
		char took[32], budget[32], over[32];
		double t = pg_now() - s->started;
		run_format_seconds(t, took, sizeof(took));
		run_format_seconds(s->budget, budget, sizeof(budget));
		run_format_seconds(t - s->budget, over, sizeof(over));
		if (t <= s->budget)
			fprintf(stderr, "perfguide: the run took %s of its %s budget\n", took, budget);
		else
			fprintf(stderr, "perfguide: the run took %s, %s over its %s budget\n", took, over, budget);
	}
	/* one line each, escaped (core/text.h) */
	for (int i = 0; i < s->errors && i < MAX_FAILURES; i++) {
		fputs("perfguide: error: ", stderr);
		pg_term_puts(stderr, s->failures[i]);
		fputc('\n', stderr);
	}
	if (s->errors > MAX_FAILURES)
		fprintf(stderr, "perfguide: and %d more errors (see the results file)\n", s->errors - MAX_FAILURES);
}

static int summary_close(void *self)
{
	free(self);
	return 0;
}

static const struct run_sink_ops summary_ops = {
	.begin = summary_begin, .result = summary_result, .end = summary_end, .close = summary_close,
};

int run_sink_summary(struct run_sinks *s, int *failed, double budget)
{
	struct summary *sum = calloc(1, sizeof(*sum));
	if (!sum)
		return -1;
	sum->failed = failed;
	sum->budget = budget;
	if (run_sinks_add(s, &summary_ops, sum) < 0) {
		free(sum);
		return -1;
	}
	return 0;
}
