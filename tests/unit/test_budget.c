/* SPDX-License-Identifier: MIT */
/* The run's budget (core/budget.c) on a virtual clock: the floors of the
 * results still to run are kept back, flexible results share the rest. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/params.h"
#include "core/registry.h"
#include "core/runner.h"
#include "bench_args.h"

static double virtual_now;
static double virtual_clock(void)
{
	return virtual_now;
}

/* A CPU-like benchmark: each iteration takes 20 virtual microseconds, 10%
 * longer in every other step when noisy (never within 2%: it samples until
 * its time is up), exactly when quiet (6 samples agree at once). */
static int steps;
static int cpu_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	int noisy = strcmp(pg_arg_str(ctx->args, "mode"), "noisy") == 0;
	virtual_now += 20e-6 * (double)iters * (noisy && steps++ % 2 ? 1.1 : 1.0);
	counts[0] = (double)iters;
	return PG_OK;
}

static const struct pg_param cpu_params[] = {
	{ .name = "mode", .type = PG_P_STR, .def = "noisy", .choices = "noisy,quiet", .help = "h" },
	{ 0 },
};
static const struct pg_metric rate[] = {
	{ "rate", "op/s", PG_RATE, 1, 1, 0 },
	{ 0 },
};
static const struct pg_bench cpu_like = {
	.id = "test.cpu", .title = "cpu", .params = cpu_params, .metrics = rate, .step = cpu_step,
};

/* A storage-like trial: each sample is `ramp` then `time` virtual seconds,
 * whatever its share; its floor is three of them. */
static int trial_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	(void)iters;
	double t = (double)pg_arg_int(ctx->args, "time");
	virtual_now += (double)pg_arg_int(ctx->args, "ramp") + t;
	ctx->counted_s = t;
	counts[0] = 1000;
	return PG_OK;
}

static const struct pg_param trial_params[] = {
	{ .name = "time", .type = PG_P_INT, .def = "5", .min = 1, .max = 100, .help = "h" },
	{ .name = "ramp", .type = PG_P_INT, .def = "1", .min = 0, .max = 100, .help = "h" },
	{ 0 },
};
static const struct pg_bench trial = {
	.id = "test.trial", .title = "trial", .params = trial_params, .metrics = rate, .trial = 1,
	.step = trial_step,
};

/* The standard suite's settings, with samples of 10 ms and a 10 s cap. */
static struct pg_run_opts opts(void)
{
	return (struct pg_run_opts){ .min_runs = 6, .max_runs = 1000, .ci_target = 0.02, .min_time = 0.01,
				     .max_time = 10, .clock = virtual_clock };
}

static int reset(void **state)
{
	(void)state;
	virtual_now = 1000;
	steps = 0;
	return 0;
}

/* What a result cannot go below, from its arguments and the run's options. */
static void floors_come_from_time_ramp_and_samples(void **state)
{
	(void)state;
	struct pg_run_opts o = opts();
	struct pg_args t = bench_args(&trial, "time=5", "ramp=1", NULL), c = bench_args(&cpu_like, NULL);
	int flexible;
	/* three trials of ramp + time; more than the 10 s cap: all floor */
	assert_float_equal(pg_result_floor(&trial, &t, &o, &flexible), 18, 1e-12);
	assert_false(flexible);
	/* calibration's last step and three samples of min_time */
	assert_float_equal(pg_result_floor(&cpu_like, &c, &o, &flexible), 0.04, 1e-12);
	assert_true(flexible);
	o.runs = 5;	/* --runs: its samples, and no share lengthens it */
	assert_float_equal(pg_result_floor(&trial, &t, &o, &flexible), 30, 1e-12);
	assert_false(flexible);
	assert_float_equal(pg_result_floor(&cpu_like, &c, &o, &flexible), 0.06, 1e-12);
	assert_false(flexible);
	o = opts();
	o.iters = 100;	/* --iterations: a sample of unknown length */
	assert_float_equal(pg_result_floor(&cpu_like, &c, &o, &flexible), 0, 0);

	/* The zero-loss search: its first trial and one of each phase's
	 * duration (0.2 s growing to 5 s over 3 phases), then the final one;
	 * as many searches as its parameter says, or --runs. */
	o = opts();
	const struct pg_bench *zl = pg_registry_find("net.udp.zeroloss");
	if (zl) {
		struct pg_args z = bench_args(zl, "time=5", "searches=5", NULL);
		double want = 0.2 + 5;
		for (int k = 0; k < 3; k++)
			want += 0.2 * pow(25, k / 3.0);
		assert_float_equal(pg_result_floor(zl, &z, &o, &flexible), 5 * want, 1e-9);
		assert_false(flexible);
		o.runs = 1;
		assert_float_equal(pg_result_floor(zl, &z, &o, &flexible), want, 1e-9);
	}
}

/* Four noisy CPU-like results, then two trials of 18 s that nothing can
 * shorten, in 60 s: the first four share what the trials leave (6 s each,
 * where an equal share of the whole would have been 10 s and left the
 * trials 20 s short), and the run ends within its budget. */
static void floors_of_the_results_at_the_end_are_kept(void **state)
{
	(void)state;
	struct pg_run_opts o = opts();
	struct pg_budget budget;
	struct pg_args c = bench_args(&cpu_like, NULL), t = bench_args(&trial, NULL);
	pg_budget_init(&budget, 60, &o);
	for (int i = 0; i < 4; i++)
		pg_budget_add(&budget, &cpu_like, &c, &o);
	pg_budget_add(&budget, &trial, &t, &o);
	pg_budget_add(&budget, &trial, &t, &o);
	assert_int_equal(budget.left, 6);
	assert_int_equal(budget.flexible, 4);
	assert_float_equal(budget.floors, 4 * 0.04 + 2 * 18, 1e-9);
	o.budget = &budget;
	double t0 = virtual_now;
	struct pg_result r;
	for (int i = 0; i < 4; i++) {
		double at = virtual_now, left = 60 - (at - t0);
		assert_int_equal(pg_run_bench(&cpu_like, &c, &o, &r), PG_OK);
		/* its floor and a quarter, a third... of what is beyond every floor */
		double floors_after = (3 - i) * 0.04 + 36;
		assert_float_equal(r.cap, 0.04 + (left - floors_after - 0.04) / (4 - i), 1e-9);
		assert_true(r.cap < 10);
		assert_int_equal(r.stop, PG_STOP_BUDGET);
		assert_true(virtual_now - at <= r.cap + 1e-9);
		pg_result_free(&r);
	}
	for (int i = 0; i < 2; i++) {
		assert_int_equal(pg_run_bench(&trial, &t, &o, &r), PG_OK);
		assert_int_equal(r.nsamples, PG_FLOOR_RUNS);
		pg_result_free(&r);
	}
	assert_int_equal(budget.left, 0);
	assert_true(virtual_now - t0 <= 60 + 1e-9);
	assert_true(virtual_now - t0 > 59);	/* and the flexible ones used it */
}

/* A result that needed less than its share leaves the rest to the
 * flexible results after it, never to those at their floor. */
static void what_one_leaves_goes_to_the_flexible_ones(void **state)
{
	(void)state;
	struct pg_run_opts o = opts();
	struct pg_budget budget;
	struct pg_args quiet = bench_args(&cpu_like, "mode=quiet", NULL), c = bench_args(&cpu_like, NULL),
		       t = bench_args(&trial, NULL);
	pg_budget_init(&budget, 25, &o);
	pg_budget_add(&budget, &cpu_like, &quiet, &o);
	pg_budget_add(&budget, &cpu_like, &c, &o);
	pg_budget_add(&budget, &trial, &t, &o);
	o.budget = &budget;
	double t0 = virtual_now;
	struct pg_result r;
	assert_int_equal(pg_run_bench(&cpu_like, &quiet, &o, &r), PG_OK);
	assert_int_equal(r.stop, PG_STOP_INTERVAL);
	assert_float_equal(r.cap, 0.04 + (25 - 18 - 0.08) / 2, 1e-9);
	pg_result_free(&r);
	double used = virtual_now - t0;
	assert_true(used < 0.2);
	assert_int_equal(pg_run_bench(&cpu_like, &c, &o, &r), PG_OK);
	assert_float_equal(r.cap, 25 - used - 18, 1e-9);	/* all but the trial's floor */
	pg_result_free(&r);
	assert_int_equal(pg_run_bench(&trial, &t, &o, &r), PG_OK);
	assert_float_equal(r.cap, 10, 0);	/* the trial's own cap: its floor is beyond it */
	assert_int_equal(r.stop, PG_STOP_TIME);
	assert_int_equal(r.nsamples, PG_FLOOR_RUNS);
	pg_result_free(&r);
	assert_true(virtual_now - t0 <= 25 + 1e-9);
}

/* When the floors alone exceed the budget, every result runs at its floor:
 * the run ends as soon as it can, past the budget by what the floors
 * exceed it. */
static void floors_beyond_the_budget_run_at_their_floor(void **state)
{
	(void)state;
	struct pg_run_opts o = opts();
	struct pg_budget budget;
	struct pg_args c = bench_args(&cpu_like, NULL), t = bench_args(&trial, NULL);
	pg_budget_init(&budget, 10, &o);
	pg_budget_add(&budget, &cpu_like, &c, &o);
	pg_budget_add(&budget, &trial, &t, &o);
	o.budget = &budget;
	double t0 = virtual_now;
	struct pg_result r;
	assert_int_equal(pg_run_bench(&cpu_like, &c, &o, &r), PG_OK);
	assert_float_equal(r.cap, 0.04, 1e-12);
	assert_int_equal(r.nsamples, PG_FLOOR_RUNS);
	assert_int_equal(r.stop, PG_STOP_BUDGET);
	pg_result_free(&r);
	assert_int_equal(pg_run_bench(&trial, &t, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, PG_FLOOR_RUNS);
	pg_result_free(&r);
	assert_true(virtual_now - t0 < 18.1);
	/* A result the budget was not told of takes what is left, or its floor. */
	assert_float_equal(pg_budget_take(&budget, &cpu_like, &c, &o, virtual_now), 0.04, 1e-12);
	assert_float_equal(pg_budget_take(&budget, &cpu_like, &c, &o, t0), 10, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(floors_come_from_time_ramp_and_samples, reset),
		cmocka_unit_test_setup(floors_of_the_results_at_the_end_are_kept, reset),
		cmocka_unit_test_setup(what_one_leaves_goes_to_the_flexible_ones, reset),
		cmocka_unit_test_setup(floors_beyond_the_budget_run_at_their_floor, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
