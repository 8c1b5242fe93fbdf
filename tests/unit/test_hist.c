/* SPDX-License-Identifier: MIT */
/* The latency histogram, and the runner deriving PG_HIST_* metrics from it,
 * on values whose quantiles are known exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/hist.h"
#include "core/params.h"
#include "core/runner.h"

static void small_values_are_exact(void **state)
{
	(void)state;
	struct pg_hist h;
	pg_hist_reset(&h);
	for (uint64_t v = 1; v <= 63; v++)
		pg_hist_add(&h, v);
	assert_int_equal(h.count, 63);
	assert_int_equal(h.min, 1);
	assert_int_equal(h.max, 63);
	assert_float_equal(pg_hist_quantile(&h, 0.5), 32, 0);
	assert_float_equal(pg_hist_mean(&h), 32, 1e-12);
	assert_float_equal(pg_hist_quantile(&h, 1), 63, 0);
}

/* Every value lands in a bucket that holds it, and buckets tile the line. */
static void buckets_hold_their_values(void **state)
{
	(void)state;
	uint64_t next = 0;
	for (int i = 0; i < PG_HIST_BUCKETS; i++) {
		uint64_t lo, w;
		pg_hist_bucket_range(i, &lo, &w);
		assert_int_equal(lo, next);
		/* never wider than 1/64 of what it holds */
		assert_true(w == 1 || w * PG_HIST_SUB <= lo);
		assert_int_equal(pg_hist_index(lo), i);
		assert_int_equal(pg_hist_index(lo + w - 1), i);
		next = lo + w;
	}
	/* beyond the range: the last bucket */
	assert_int_equal(pg_hist_index(UINT64_MAX), PG_HIST_BUCKETS - 1);
}


/* A histogram of low (once), n values of mid, and high (once). */
static void three_values(struct pg_hist *h, uint64_t low, uint64_t mid, int n, uint64_t high)
{
	pg_hist_reset(h);
	pg_hist_add(h, low);
	for (int i = 0; i < n; i++)
		pg_hist_add(h, mid);
	pg_hist_add(h, high);
}

/* Percentiles read as fio reads its clat histogram, digit for digit: the
 * rank where the count so far reaches pct / 100 x count (pct 99.9: a hair
 * over 0.999, so of 2000 values the 1999th, not the 1998th) and a bucket
 * wider than one value read as the middle of its range (4.8 ms lands in
 * [4784128, 4849664): fio 3.33 prints 4816896 for it). */
static void percentiles_are_fios(void **state)
{
	(void)state;
	struct pg_hist *h = calloc(1, sizeof(*h));
	/* 1998 values of 1000 (the first 1 ns below them), then 5000, 9000. */
	three_values(h, 999, 1000, 1997, 5000);
	pg_hist_add(h, 9000);
	/* 1000 is a bucket of width 8 starting there: fio's value 1004. */
	assert_float_equal(pg_hist_quantile(h, 0.5), 1004, 0);
	assert_float_equal(pg_hist_quantile(h, 0.99), 1004, 0);
	/* The 1999th: 5000, in [4992, 5056). */
	assert_float_equal(pg_hist_quantile(h, 0.999), 5024, 0);

	three_values(h, 1000, 4800000, 98, 9000000);
	assert_float_equal(pg_hist_quantile(h, 0.5), 4816896, 0);
	assert_float_equal(pg_hist_quantile(h, 0.99), 4816896, 0);
	/* The 100th: 9 ms, in [8912896, 9043968). */
	assert_float_equal(pg_hist_quantile(h, 0.999), 8978432, 0);

	/* The one difference from fio: never above the maximum (fio would
	 * print 4816896 here, 0.35 % over every value there is). */
	three_values(h, 4800000, 4800000, 8, 4800000);
	assert_float_equal(pg_hist_quantile(h, 0.5), 4800000, 0);
	free(h);
}

/* 1..1000000 us once each: quantile q is q * 1e6 us within 1/64. */
static void quantiles_within_a_bucket(void **state)
{
	(void)state;
	struct pg_hist *h = malloc(sizeof(*h));
	pg_hist_reset(h);
	for (uint64_t v = 1; v <= 1000000; v++)
		pg_hist_add(h, v * 1000);
	const double qs[] = { 0.5, 0.9, 0.99, 0.999 };
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		double want = qs[i] * 1e9;
		double got = pg_hist_quantile(h, qs[i]);
		assert_true(fabs(got - want) <= want / PG_HIST_SUB);
	}
	assert_float_equal(pg_hist_mean(h), 500000.5 * 1000, 1e-3);
	assert_float_equal(pg_hist_quantile(h, 1), 1e9, 0);
	free(h);
}

static void merge_is_the_union(void **state)
{
	(void)state;
	struct pg_hist *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b)), *all = calloc(1, sizeof(*all));
	for (uint64_t v = 100; v < 5000; v += 7) {
		pg_hist_add(v % 2 ? a : b, v);
		pg_hist_add(all, v);
	}
	pg_hist_merge(a, b);
	assert_memory_equal(a, all, sizeof(*a));
	struct pg_hist *empty = calloc(1, sizeof(*empty));
	pg_hist_merge(a, empty);
	assert_memory_equal(a, all, sizeof(*a));
	free(a);
	free(b);
	free(all);
	free(empty);
}

/* A benchmark whose every operation takes exactly 10 us, but one in a
 * hundred 1000 us: p50 10, p99 10, p99.9 1000, max 1000, mean 19.9. Each
 * copy records its own; the runner merges them per sample. */
static int lat_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	(void)iters;
	for (int i = 0; i < 1000; i++)
		pg_hist_add(ctx->hist, i % 100 == 99 ? 1000000 : 10000);
	counts[0] = 1000;
	return PG_OK;
}

static const struct pg_param lat_params[] = {
	{ .name = "copies", .type = PG_P_INT, .def = "1", .min = 1, .max = 8, .help = "h" },
	{ 0 },
};
static const struct pg_metric lat_metrics[] = {
	{ "ops", "ops", PG_VALUE, 1, 1, 0 },
	{ "lat_mean", "us", PG_HIST_MEAN, 1e-3, 0, 0 },
	{ "lat_p50", "us", PG_HIST_Q, 1e-3, 0, 0.5 },
	{ "lat_p99", "us", PG_HIST_Q, 1e-3, 0, 0.99 },
	{ "lat_p999", "us", PG_HIST_Q, 1e-3, 0, 0.999 },
	{ "lat_max", "us", PG_HIST_Q, 1e-3, 0, 1 },
	{ 0 },
};
static const struct pg_bench lat_bench = {
	.id = "test.lat", .title = "latency", .params = lat_params, .metrics = lat_metrics,
	.copies_param = "copies", .trial = 1, .step = lat_step,
};

static void runner_derives_latency_metrics(void **state)
{
	(void)state;
	struct pg_args a;
	char err[100];
	memset(&a, 0, sizeof(a));
	a.n = 1;
	pg_value_parse(&lat_params[0], "2", &a.v[0], err, sizeof(err));
	struct pg_run_opts o = { .runs = 3 };
	struct pg_result r;
	assert_int_equal(pg_run_bench(&lat_bench, &a, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, 3);
	assert_non_null(r.hist);
	/* 3 samples x 2 copies x 1000 */
	assert_int_equal(r.hist->count, 6000);
	assert_int_equal(r.hist->max, 1000000);
	for (int s = 0; s < 3; s++) {
		assert_float_equal(r.values[0][s], 2000, 0);
		assert_float_equal(r.values[1][s], 19.9, 1e-9);
		assert_float_equal(r.values[2][s], 10, 10.0 / PG_HIST_SUB);
		assert_float_equal(r.values[3][s], 10, 10.0 / PG_HIST_SUB);
		assert_float_equal(r.values[4][s], 1000, 1000.0 / PG_HIST_SUB);
		assert_float_equal(r.values[5][s], 1000, 0);
	}
	pg_result_free(&r);
	assert_null(r.hist);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(small_values_are_exact),
		cmocka_unit_test(buckets_hold_their_values),
		cmocka_unit_test(quantiles_within_a_bucket),
		cmocka_unit_test(percentiles_are_fios),
		cmocka_unit_test(merge_is_the_union),
		cmocka_unit_test(runner_derives_latency_metrics),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
