/* SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "core/stats.h"

static void odd_count(void **state)
{
	(void)state;
	const double s[] = { 5, 1, 4, 2, 3 };
	struct pg_stats st;
	pg_stats_compute(s, 5, &st);
	assert_int_equal(st.n, 5);
	assert_float_equal(st.median, 3, 1e-12);
	assert_float_equal(st.min, 1, 1e-12);
	assert_float_equal(st.max, 5, 1e-12);
	assert_float_equal(st.mean, 3, 1e-12);
	/* sample standard deviation of 1..5 is sqrt(2.5) */
	assert_float_equal(st.stddev, 1.5811388300841898, 1e-12);
	assert_float_equal(st.cv, 1.5811388300841898 / 3, 1e-12);
}

static void even_count_median_is_midpoint(void **state)
{
	(void)state;
	const double s[] = { 10, 40, 20, 30 };
	struct pg_stats st;
	pg_stats_compute(s, 4, &st);
	assert_float_equal(st.median, 25, 1e-12);
	assert_float_equal(st.mean, 25, 1e-12);
}

static void one_sample_has_no_spread(void **state)
{
	(void)state;
	const double s[] = { 7.5 };
	struct pg_stats st;
	pg_stats_compute(s, 1, &st);
	assert_float_equal(st.median, 7.5, 0);
	assert_float_equal(st.min, 7.5, 0);
	assert_float_equal(st.max, 7.5, 0);
	assert_float_equal(st.stddev, 0, 0);
	assert_float_equal(st.cv, 0, 0);
}

static void zero_samples_and_zero_mean(void **state)
{
	(void)state;
	struct pg_stats st;
	pg_stats_compute(NULL, 0, &st);
	assert_int_equal(st.n, 0);
	const double z[] = { 0, 0, 0 };
	pg_stats_compute(z, 3, &st);
	assert_float_equal(st.cv, 0, 0);
}

static void input_is_not_reordered(void **state)
{
	(void)state;
	double s[] = { 3, 1, 2 };
	struct pg_stats st;
	pg_stats_compute(s, 3, &st);
	assert_float_equal(s[0], 3, 0);
	assert_float_equal(s[1], 1, 0);
	assert_float_equal(s[2], 2, 0);
}

static void noisy_threshold(void **state)
{
	(void)state;
	/* mean 100, sample sd 5.77: cv above 5% */
	const double noisy[] = { 95, 100, 105, 90, 110 };
	const double quiet[] = { 99, 100, 101, 100, 100 };
	struct pg_stats st;
	pg_stats_compute(noisy, 5, &st);
	assert_true(st.cv > PG_NOISY_CV);
	pg_stats_compute(quiet, 5, &st);
	assert_true(st.cv < PG_NOISY_CV);
}

/* The order statistics of the median's 95% interval, as the tables give
 * them (e.g. Conover, Practical Nonparametric Statistics): n = 6 the range,
 * n = 10 the 2nd and 9th, n = 20 the 6th and 15th, n = 50 the 18th and 33rd. */
static void median_interval_is_the_tables_order_statistics(void **state)
{
	(void)state;
	static const struct { size_t n, l; double coverage; } t[] = {
		{ 6, 1, 1 - 2.0 / 64 }, { 10, 2, 1 - 2 * 11.0 / 1024 },
		{ 20, 6, 0.9586105346679688 }, { 50, 18, 0.9671 },
	};
	double s[50];
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		/* samples 1..n, shuffled: x(k) = k */
		for (size_t k = 0; k < t[i].n; k++)
			s[k] = (double)((k * 7) % t[i].n + 1);
		struct pg_stats st;
		pg_stats_compute(s, t[i].n, &st);
		assert_float_equal(st.ci_lo, (double)t[i].l, 0);
		assert_float_equal(st.ci_hi, (double)(t[i].n + 1 - t[i].l), 0);
		assert_float_equal(st.ci_level, t[i].coverage, 1e-4);
		assert_true(st.ci_level >= PG_CI_LEVEL);
		/* one order statistic further in would not cover 95% */
		assert_true(pg_median_coverage(t[i].n, t[i].l + 1) < PG_CI_LEVEL);
		double med = (double)(t[i].n + 1) / 2;
		assert_float_equal(st.ci_rel, (med - (double)t[i].l) / med, 1e-12);
	}
}

/* Five samples or fewer have no 95% interval: the range, at its coverage. */
static void few_samples_have_only_the_range(void **state)
{
	(void)state;
	const double s[] = { 100, 101, 99, 102, 98 };
	struct pg_stats st;
	pg_stats_compute(s, 5, &st);
	assert_float_equal(st.ci_lo, 98, 0);
	assert_float_equal(st.ci_hi, 102, 0);
	assert_float_equal(st.ci_level, 1 - 2.0 / 32, 1e-12);
	assert_true(st.ci_level < PG_CI_LEVEL);
	assert_float_equal(st.ci_rel, 0.02, 1e-12);
	pg_stats_compute(s, 1, &st);
	assert_float_equal(st.ci_level, 0, 0);
	assert_float_equal(st.ci_rel, 0, 0);
}

static void two_groups_are_bimodal(void **state)
{
	(void)state;
	/* a clock that switched between two speeds: 4 samples near 10, 6 near 12 */
	const double two[] = { 12.0, 10.0, 12.1, 10.1, 11.9, 10.05, 12.05, 9.95, 12.0, 11.95 };
	struct pg_stats st;
	pg_stats_compute(two, 10, &st);
	assert_true(st.bimodal);
	assert_int_equal(st.n_lo, 4);
	assert_float_equal(st.mode_lo, 10.025, 1e-12);
	assert_float_equal(st.mode_hi, 12.0, 1e-12);
	/* one outlier is not a mode */
	const double outlier[] = { 10, 10.1, 9.9, 10, 10.05, 9.95, 10, 15 };
	pg_stats_compute(outlier, 8, &st);
	assert_false(st.bimodal);
	/* evenly spread noise has no gap wider than its groups */
	double even[12];
	for (int i = 0; i < 12; i++)
		even[i] = 100 + i;
	pg_stats_compute(even, 12, &st);
	assert_false(st.bimodal);
	/* two groups 0.5% apart are one measurement's noise, not two modes */
	const double close[] = { 100, 100, 100.01, 100.5, 100.5, 100.51 };
	pg_stats_compute(close, 6, &st);
	assert_false(st.bimodal);
	/* and five samples are too few to tell */
	pg_stats_compute(two, 5, &st);
	assert_false(st.bimodal);
}

/* Student's t: its two-sided p and the t of a p. Tables: 2.228 is the
 * 97.5% point for 10 degrees of freedom, 12.706 for 1, 4.604 the 99.5%
 * point for 4; 1.96 the normal's (df above 1e6, or 0 for the quantile). */
static void student_t(void **state)
{
	(void)state;
	assert_float_equal(pg_student_p(2.228, 10), 0.05, 2e-4);
	assert_float_equal(pg_student_p(12.706, 1), 0.05, 2e-4);
	assert_float_equal(pg_student_p(1.96, 1e7), 0.05, 2e-4);
	assert_float_equal(pg_student_p(0, 5), 1.0, 1e-12);
	assert_float_equal(pg_student_p(-2.228, 10), 0.05, 2e-4);
	assert_true(pg_student_p(50, 3) < 1e-4);
	assert_float_equal(pg_student_q(0.05, 10), 2.228, 1e-3);
	assert_float_equal(pg_student_q(0.05, 1), 12.706, 1e-3);
	assert_float_equal(pg_student_q(0.05, 0), 1.95996, 1e-4);
	assert_float_equal(pg_student_q(0.01, 4), 4.604, 1e-3);
	assert_float_equal(pg_student_p(pg_student_q(0.2, 3.5), 3.5), 0.2, 1e-9);
}

/* A stated standard error makes one sample's interval, widened by t for
 * its degrees of freedom; more samples, or no se, keep theirs. */
static void a_stated_interval(void **state)
{
	(void)state;
	const double one[] = { 50 }, three[] = { 49, 50, 51 };
	struct pg_stats st;
	pg_stats_compute(one, 1, &st);
	assert_float_equal(st.ci_level, 0, 0);
	pg_stats_stated(&st, 0.05, 4);
	assert_float_equal(st.ci_level, PG_CI_LEVEL, 0);
	assert_float_equal(st.ci_lo, 50 * exp(-2.776 * 0.05), 1e-2);
	assert_float_equal(st.ci_hi, 50 * exp(2.776 * 0.05), 1e-2);
	assert_float_equal(st.ci_rel, expm1(2.776 * 0.05), 1e-4);
	pg_stats_compute(one, 1, &st);
	pg_stats_stated(&st, 0, 4);
	assert_float_equal(st.ci_level, 0, 0);
	pg_stats_compute(three, 3, &st);
	double lo = st.ci_lo;
	pg_stats_stated(&st, 0.05, 4);
	assert_float_equal(st.ci_lo, lo, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(odd_count),
		cmocka_unit_test(even_count_median_is_midpoint),
		cmocka_unit_test(one_sample_has_no_spread),
		cmocka_unit_test(zero_samples_and_zero_mean),
		cmocka_unit_test(input_is_not_reordered),
		cmocka_unit_test(noisy_threshold),
		cmocka_unit_test(median_interval_is_the_tables_order_statistics),
		cmocka_unit_test(few_samples_have_only_the_range),
		cmocka_unit_test(two_groups_are_bimodal),
		cmocka_unit_test(student_t),
		cmocka_unit_test(a_stated_interval),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
