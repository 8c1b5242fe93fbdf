#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(odd_count),
		cmocka_unit_test(even_count_median_is_midpoint),
		cmocka_unit_test(one_sample_has_no_spread),
		cmocka_unit_test(zero_samples_and_zero_mean),
		cmocka_unit_test(input_is_not_reordered),
		cmocka_unit_test(noisy_threshold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
