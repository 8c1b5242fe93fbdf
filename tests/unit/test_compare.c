/* Mann-Whitney U and the compare verdicts on synthetic samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/compare.h"

static void mw_exact_small_samples(void **state)
{
	(void)state;
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	/* Complete separation of 5 and 5: 2 of C(10,5) = 252 orderings. */
	assert_float_equal(pg_mann_whitney(a, 5, b, 5), 2.0 / 252, 1e-12);
	assert_float_equal(pg_mann_whitney(b, 5, a, 5), 2.0 / 252, 1e-12);
	/* 2 and 2 can never be significant: 2 of 6. */
	assert_float_equal(pg_mann_whitney(a, 2, b, 2), 2.0 / 6, 1e-12);
	/* Interleaved samples: U = 12 of 25, p near 1. */
	double c[] = { 1, 3, 5, 7, 9 }, d[] = { 2, 4, 6, 8, 10 };
	assert_true(pg_mann_whitney(c, 5, d, 5) > 0.5);
	/* U = 1 (one pair out of order): P(U <= 1) = 2/252, two-sided 4/252. */
	double e[] = { 1, 2, 3, 4, 6 }, f[] = { 5, 7, 8, 9, 10 };
	assert_float_equal(pg_mann_whitney(e, 5, f, 5), 4.0 / 252, 1e-12);
}

static void mw_ties_and_large(void **state)
{
	(void)state;
	double same[8] = { 3, 3, 3, 3, 3, 3, 3, 3 };
	assert_float_equal(pg_mann_whitney(same, 4, same + 4, 4), 1.0, 0);
	double a[30], b[30];
	for (int i = 0; i < 30; i++) {
		a[i] = i;
		b[i] = i + 100;
	}
	assert_true(pg_mann_whitney(a, 30, b, 30) < 1e-9);
	assert_true(pg_mann_whitney(a, 30, a, 30) > 0.9);
	assert_float_equal(pg_mann_whitney(a, 0, b, 3), 1.0, 0);
}

static struct pg_record res(const char *bench, double *s, int n, double median, int higher)
{
	struct pg_record x = { 0 };
	x.bench = (char *)bench;
	x.params = (char *)"{\"size\":1}";
	x.metric = (char *)"m";
	x.unit = (char *)"MB/s";
	x.higher = higher;
	x.samples = s;
	x.nsamples = n;
	x.median = median;
	return x;
}

static void verdicts(void **state)
{
	(void)state;
	double base[] = { 100, 101, 99, 100.5, 99.5, 100.2, 99.8 };
	double slow[] = { 90, 91, 89, 90.5, 89.5, 90.2, 89.8 };
	double wide1[] = { 60, 140, 70, 130, 100, 90, 110 };
	double wide2[] = { 65, 135, 75, 125, 100, 95, 105 };
	struct pg_record b[3] = { res("x", base, 7, 100, 1), res("w", wide1, 7, 100, 1), res("l", base, 7, 100, 0) };
	struct pg_record n[3] = { res("x", slow, 7, 90, 1), res("w", wide2, 7, 100, 1), res("l", slow, 7, 90, 0) };
	struct pg_rrun rb = { .id = (char *)"b", .res = b, .nres = 3 };
	struct pg_rrun rn = { .id = (char *)"n", .res = n, .nres = 3 };
	struct pg_cmp_row *rows;
	int cnt;
	assert_int_equal(pg_compare(&rb, &rn, 5, &rows, &cnt), 0);
	assert_int_equal(cnt, 3);
	assert_int_equal(rows[0].verdict, PG_REGRESSED);
	assert_float_equal(rows[0].change_pct, -10, 1e-9);
	assert_int_equal(rows[1].verdict, PG_SAME);
	assert_int_equal(rows[2].verdict, PG_IMPROVED);	/* lower is better */
	free(rows);
	/* Above the significance but under a 15% threshold: within noise. */
	assert_int_equal(pg_compare(&rb, &rn, 15, &rows, &cnt), 0);
	assert_int_equal(rows[0].verdict, PG_SAME);
	free(rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mw_exact_small_samples),
		cmocka_unit_test(mw_ties_and_large),
		cmocka_unit_test(verdicts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
