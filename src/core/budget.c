/* SPDX-License-Identifier: MIT */
/*
 * The run's budget (--budget), shared out by the runner: what each result
 * cannot go below (its floor) is known before the run, so the results at
 * the end keep theirs however long the ones before them took, and only the
 * time beyond every floor is shared (runner.h, struct pg_budget).
 */
#include <string.h>

#include "runner.h"
#include "timer.h"

/* A whole-number parameter's value in *v, when the arguments have it. */
static int int_arg(const struct pg_args *a, const char *name, double *v)
{
	for (int i = 0; i < a->n; i++)
		if (a->v[i].param && a->v[i].param->type == PG_P_INT && strcmp(a->v[i].param->name, name) == 0) {
			*v = (double)a->v[i].num;
			return 1;
		}
	return 0;
}

/* A trial's or a fact's sample when the benchmark has no floor hook: its
 * `time`, with the `ramp` (fio's ramp_time) and `warmup` before it that
 * are not counted but take as long. 0 without `time`: unknown. */
static double trial_sample(const struct pg_args *a)
{
	double t = 0, ramp = 0, warmup = 0;
	if (!int_arg(a, "time", &t))
		return 0;
	int_arg(a, "ramp", &ramp);
	int_arg(a, "warmup", &warmup);
	return t + ramp + warmup;
}

double pg_result_floor(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o,
		       int *flexible)
{
	int samples = b->once ? pg_once_samples(b, a, o) : o->runs > 0 ? o->runs : PG_FLOOR_RUNS;
	double setup = 0, sample = 0;
	if (b->floor) {
		b->floor(a, &setup, &sample);
	} else if (b->trial || b->once) {
		sample = trial_sample(a);
	} else if (o->iters == 0) {
		/* calibrated: the step that reaches min_time is not a sample */
		setup = o->min_time;
		sample = o->min_time;
	}
	double floor = setup + samples * sample;
	*flexible = o->runs == 0 && !b->once && !(o->max_time > 0 && floor >= o->max_time);
	return floor;
}

static double run_clock(const struct pg_run_opts *o)
{
	return o->clock ? o->clock() : pg_now();
}

void pg_budget_init(struct pg_budget *b, double seconds, const struct pg_run_opts *o)
{
	memset(b, 0, sizeof(*b));
	b->deadline = run_clock(o) + seconds;
}

void pg_budget_add(struct pg_budget *b, const struct pg_bench *bench, const struct pg_args *a,
		   const struct pg_run_opts *o)
{
	int flexible;
	b->floors += pg_result_floor(bench, a, o, &flexible);
	b->left++;
	b->flexible += flexible;
}

/* The share: the floor, and for a flexible result an equal part of the
 * time beyond the floors of all still to run (this one's included). A
 * result the budget was not told of (left 0) is the last: the rest. */
double pg_budget_take(struct pg_budget *b, const struct pg_bench *bench, const struct pg_args *a,
		      const struct pg_run_opts *o, double now)
{
	int flexible;
	double floor = pg_result_floor(bench, a, o, &flexible);
	if (b->left > 0) {
		b->left--;
		b->floors = b->left > 0 && b->floors > floor ? b->floors - floor : 0;
		if (flexible && b->flexible > 0)
			b->flexible--;
	}
	if (!flexible)
		return floor;
	double beyond = b->deadline - now - b->floors - floor;
	return floor + (beyond > 0 ? beyond / (b->flexible + 1) : 0);
}
