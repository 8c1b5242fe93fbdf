/* SPDX-License-Identifier: MIT */
/*
 * The two runner features the os group added: an overhead per counted unit
 * that comes off time-per metrics, an untimed prepare before every step,
 * and the suites leaving out a benchmark whose min_suite is heavier. Timed on a
 * virtual clock so the arithmetic is checked exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/params.h"
#include "core/runner.h"

/* Each iteration takes 10 us of which 4 us are overhead the benchmark
 * measured in setup; prepare takes 1 ms per iteration, which must not
 * show in any sample. */
#define ITER_S 10e-6
#define OVER_S 4e-6
#define PREP_S 1e-3

static double virtual_now;
static double virtual_clock(void)
{
	return virtual_now;
}

static uint64_t prepared, stepped;	/* iterations prepared, then run */
static int prepare_calls, prepare_out_of_order;

static int fake_setup(struct pg_ctx *ctx)
{
	ctx->overhead[1] = OVER_S;
	return PG_OK;
}

static int fake_prepare(struct pg_ctx *ctx, uint64_t iters)
{
	(void)ctx;
	if (prepared != stepped)
		prepare_out_of_order++;
	virtual_now += PREP_S * (double)iters;
	prepared += iters;
	prepare_calls++;
	return PG_OK;
}

static int fake_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	(void)ctx;
	if (prepared != stepped + iters)
		return pg_error(ctx, "step of %llu iterations was not prepared for", (unsigned long long)iters);
	virtual_now += ITER_S * (double)iters;
	stepped += iters;
	counts[0] = (double)iters;	/* rate: overhead never applies */
	counts[1] = (double)iters;	/* time per op: 4 us of 10 come off */
	return PG_OK;
}

static const struct pg_param no_params[] = { { 0 } };
static const struct pg_metric metrics[] = {
	{ "rate", "op/s", PG_RATE, 1, 1, 0 },
	{ "latency", "us", PG_TIME_PER, 1e6, 0, 0 },
	{ 0 },
};

static const struct pg_bench fake = {
	.id = "test.os", .title = "fake", .params = no_params, .metrics = metrics,
	.setup = fake_setup, .prepare = fake_prepare, .step = fake_step,
};

static void overhead_comes_off_and_prepare_is_untimed(void **state)
{
	(void)state;
	struct pg_args a = { 0 };
	struct pg_run_opts o = { .runs = 3, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, 3);
	assert_int_equal(prepare_out_of_order, 0);
	assert_true(prepare_calls >= 3 + 1);	/* every sample and calibration step */
	for (int s = 0; s < r.nsamples; s++) {
		/* the sample's time is the step's alone */
		assert_float_equal(r.elapsed[s], ITER_S * (double)r.iters, 1e-12);
		/* the rate is not touched by the overhead */
		assert_float_equal(r.values[0][s], 1 / ITER_S, 1e-6);
		/* 10 us per op less 4 us measured overhead */
		assert_float_equal(r.values[1][s], (ITER_S - OVER_S) * 1e6, 1e-9);
	}
	pg_result_free(&r);
}

static int big_overhead_setup(struct pg_ctx *ctx)
{
	ctx->overhead[1] = 2 * ITER_S;
	return PG_OK;
}

static void more_overhead_than_time_is_an_error(void **state)
{
	(void)state;
	struct pg_bench b = fake;
	b.setup = big_overhead_setup;
	struct pg_args a = { 0 };
	struct pg_run_opts o = { .runs = 3, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	prepared = stepped = 0;
	assert_int_equal(pg_run_bench(&b, &a, &o, &r), PG_ERROR);
	assert_non_null(strstr(r.reason, "too busy"));
	pg_result_free(&r);
}

static void suites_leave_out_what_is_not_theirs(void **state)
{
	(void)state;
	struct pg_bench b = fake;
	b.min_suite = PG_IN_STANDARD;
	struct pg_args *a = NULL;
	int n = -1;
	char err[200];
	assert_int_equal(pg_sweep(&b, PG_SUITE_QUICK, NULL, 0, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	free(a);
	assert_int_equal(pg_sweep(&b, PG_SUITE_STANDARD, NULL, 0, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	free(a);
	assert_int_equal(pg_sweep(&b, PG_SUITE_NONE, NULL, 0, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	free(a);
	b.min_suite = PG_IN_FULL;
	assert_int_equal(pg_sweep(&b, PG_SUITE_STANDARD, NULL, 0, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	free(a);
	assert_int_equal(pg_sweep(&b, PG_SUITE_FULL, NULL, 0, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	free(a);
	assert_int_equal(pg_sweep(&b, PG_SUITE_NONE, NULL, 0, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(overhead_comes_off_and_prepare_is_untimed),
		cmocka_unit_test(more_overhead_than_time_is_an_error),
		cmocka_unit_test(suites_leave_out_what_is_not_theirs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
