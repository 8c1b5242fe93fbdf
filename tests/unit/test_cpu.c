/* SPDX-License-Identifier: MIT */
/* The CPU group's workloads: what they count, and that a wrong answer is
 * caught. No timing is checked here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/cpu/cpu.h"
#include "bench/cpu/ref/dhry.h"
#include "core/registry.h"
#include "bench_args.h"

static void start(struct pg_ctx *ctx, const struct pg_bench *b, const struct pg_args *a)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->bench = b;
	ctx->args = a;
	ctx->copies = 1;
	assert_int_equal(b->setup(ctx), PG_OK);
}

static void test_registered(void **state)
{
	(void)state;
	assert_ptr_equal(pg_registry_find("cpu.dhrystone"), &pg_cpu_dhrystone);
	assert_ptr_equal(pg_registry_find("cpu.whetstone"), &pg_cpu_whetstone);
	assert_ptr_equal(pg_registry_find("cpu.linpack"), &pg_cpu_linpack);
}

static void test_dhrystone_counts_and_checks(void **state)
{
	(void)state;
	const struct pg_bench *b = &pg_cpu_dhrystone;
	struct pg_args a = bench_args(b, NULL);
	struct pg_ctx ctx;
	start(&ctx, b, &a);
	assert_non_null(strstr(ctx.note, "MHz"));

	double c[PG_MAX_METRICS] = { 0 };
	assert_int_equal(b->step(&ctx, 1000, c), PG_OK);
	assert_true(c[0] == 1000.0 && c[1] == 1000.0);
	double mhz = c[3];
	assert_true(mhz > 1.0 && mhz < 100000.0);
	assert_true(c[2] > 1000.0 / mhz * 0.999999 && c[2] < 1000.0 / mhz * 1.000001);
	/* Proc_8 adds one to Arr_2_Glob[8][7] per pass; the step resets it. */
	assert_int_equal(dhry_arr_2_glob[8][7], 1010);
	assert_int_equal(b->verify(&ctx), PG_OK);

	/* A second step goes on from where the first stopped, still right. */
	assert_int_equal(b->step(&ctx, 7, c), PG_OK);
	assert_int_equal(b->verify(&ctx), PG_OK);

	/* Any global that a wrong program would leave differently is caught. */
	dhry_int_glob = 6;
	assert_int_equal(b->verify(&ctx), PG_ERROR);
	assert_non_null(strstr(ctx.msg, "Int_Glob"));
	dhry_int_glob = 5;
	dhry_next_ptr_glob->var.v1.int_comp = 19;
	assert_int_equal(b->verify(&ctx), PG_ERROR);
	dhry_next_ptr_glob->var.v1.int_comp = 18;
	assert_int_equal(b->verify(&ctx), PG_OK);
	b->teardown(&ctx);
}

static void test_clock_measured(void **state)
{
	(void)state;
	double mhz = pg_cpu_measure_mhz();
	/* Any core this runs on is between 10 MHz and 10 GHz. */
	assert_true(mhz > 10 && mhz < 10000);
}

static void test_whetstone_counts_and_checks(void **state)
{
	(void)state;
	const struct pg_bench *b = &pg_cpu_whetstone;
	struct pg_args a = bench_args(b, NULL);
	struct pg_ctx ctx;
	start(&ctx, b, &a);
	double c[PG_MAX_METRICS] = { 0 };
	assert_int_equal(b->step(&ctx, 3, c), PG_OK);
	assert_true(c[0] == 3.0);	/* one million Whetstone instructions each */

	const double t = 0.499975;
	struct whet_result good = {
		.e2 = { -0.06834, -0.46263, -0.72971, -1.12398 },
		.e3 = { -0.055, -0.447, -0.711, -1.103 },
		.x7 = 0.49040, .y7 = 0.49040, .z8 = (t * 2 + t * (t * 2 + 1)) / 2,
		.e9 = { 3, 2, 3, 0 }, .x11 = 0.83, .j4 = 1, .j6 = 1, .k6 = 2, .l6 = 3,
	};
	char why[160];
	assert_int_equal(pg_whetstone_check(&good, why, sizeof(why)), 0);
	struct whet_result bad = good;
	bad.j4 = 0;
	assert_int_equal(pg_whetstone_check(&bad, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "module 4"));
	bad = good;
	bad.z8 += 1e-9;
	assert_int_equal(pg_whetstone_check(&bad, why, sizeof(why)), -1);
	bad = good;
	bad.e9[1] = 3;
	assert_int_equal(pg_whetstone_check(&bad, why, sizeof(why)), -1);
	bad = good;
	bad.x7 = 0.0 / 0.0;
	assert_int_equal(pg_whetstone_check(&bad, why, sizeof(why)), -1);
	b->teardown(&ctx);
}

static void test_linpack_counts(void **state)
{
	(void)state;
	const struct pg_bench *b = &pg_cpu_linpack;
	const char *variants[] = { "blas=unrolled", "blas=rolled" };
	for (int v = 0; v < 2; v++) {
		struct pg_args a = bench_args(b, variants[v], NULL);
		struct pg_ctx ctx;
		start(&ctx, b, &a);
		double c[PG_MAX_METRICS] = { 0 };
		assert_int_equal(b->step(&ctx, 2, c), PG_OK);
		/* 2n^3/3 + 2n^2 per solve, n = 100 */
		double ops = 2.0 * 1e6 / 3.0 + 2.0 * 1e4;
		assert_true(c[0] > 2 * ops * 0.999999 && c[0] < 2 * ops * 1.000001);
		assert_int_equal(b->verify(&ctx), PG_OK);
		/* both solves done, the step's last one checked */
		assert_non_null(strstr(ctx.note, "2 solves, each step's last checked (1 checked)"));
		b->teardown(&ctx);
	}
}

static void test_linpack_residual_catches_wrong_answer(void **state)
{
	(void)state;
	/* A 3 x 3 system in an array of leading dimension 4; x = 1 solves it. */
	double a[4 * 3] = { 2, 1, 0, 0, 1, 3, 1, 0, 0, 1, 4, 0 };
	double b[3] = { 3, 5, 5 };
	double x[3] = { 1, 1, 1 }, r3[3];
	double r = pg_linpack_residual(a, 4, 3, b, x, 4.0, r3);
	assert_true(r >= 0 && r < 1);
	x[1] = 1.0 + 1e-9;
	assert_true(pg_linpack_residual(a, 4, 3, b, x, 4.0, r3) > 16);
}

static void test_nbench_numsort(void **state)
{
	(void)state;
	const struct pg_bench *b = &pg_cpu_nbench_numsort;
	struct pg_args a = bench_args(b, NULL);
	struct pg_ctx ctx;
	start(&ctx, b, &a);
	double c[PG_MAX_METRICS] = { 0 };
	assert_int_equal(b->step(&ctx, 3, c), PG_OK);
	assert_true(c[0] == 3.0);	/* one array sorted per iteration */
	b->teardown(&ctx);

	long v[] = { 1, 2, 2, 5, 9 };
	unsigned long sum = 19, xr = 1 ^ 2 ^ 2 ^ 5 ^ 9;
	assert_int_equal(pg_nbench_numsort_check(v, 5, sum, xr), 0);
	v[3] = 10;	/* still sorted, but not the values that went in */
	assert_int_equal(pg_nbench_numsort_check(v, 5, sum, xr), -1);
	long w[] = { 1, 2, 5, 2, 9 };	/* the same values, out of order */
	assert_int_equal(pg_nbench_numsort_check(w, 5, sum, xr), -1);
}

static void test_nbench_fourier(void **state)
{
	(void)state;
	const struct pg_bench *b = &pg_cpu_nbench_fourier;
	struct pg_args a = bench_args(b, NULL);
	struct pg_ctx ctx;
	start(&ctx, b, &a);
	double c[PG_MAX_METRICS] = { 0 };
	assert_int_equal(b->step(&ctx, 2, c), PG_OK);
	assert_true(c[0] == 2 * 199.0);	/* 2n - 1 coefficients per pass, n = 100 */
	assert_int_equal(b->verify(&ctx), PG_OK);
	b->teardown(&ctx);

	/* (x + 1)^x on [0, 2]: A0 is half its integral, about 1.786. */
	double ca[10] = { 0 }, cb[10] = { 0 };
	char why[160];
	assert_int_equal(pg_nbench_fourier_check(ca, cb, 1, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "A[0]"));
}

static void test_nbench_idea_and_lu(void **state)
{
	(void)state;
	assert_int_equal(pg_nbench_idea_selftest(), 0);
	const struct pg_bench *benches[] = { &pg_cpu_nbench_idea, &pg_cpu_nbench_lu };
	for (int i = 0; i < 2; i++) {
		const struct pg_bench *b = benches[i];
		struct pg_args a = bench_args(b, NULL);
		struct pg_ctx ctx;
		start(&ctx, b, &a);
		double c[PG_MAX_METRICS] = { 0 };
		assert_int_equal(b->step(&ctx, 3, c), PG_OK);
		assert_true(c[0] == 3.0);	/* one buffer / one system per iteration */
		b->teardown(&ctx);
	}
	/* bitfield: counts the bits touched, and a flipped bit is caught */
	const struct pg_bench *b = &pg_cpu_nbench_bitfield;
	struct pg_args a = bench_args(b, NULL);
	struct pg_ctx ctx;
	start(&ctx, b, &a);
	double c1[PG_MAX_METRICS] = { 0 }, c2[PG_MAX_METRICS] = { 0 };
	assert_int_equal(b->step(&ctx, 1, c1), PG_OK);
	assert_int_equal(b->step(&ctx, 2, c2), PG_OK);
	assert_true(c1[0] > 1000 && c2[0] == 2 * c1[0]);
	b->teardown(&ctx);
	unsigned long long m1[32768], m2[32768];
	memset(m1, 0x55, sizeof(m1));
	memcpy(m2, m1, sizeof(m1));
	assert_int_equal(pg_nbench_bitfield_check(m1, m2), 0);
	m2[1000] ^= 1ULL << 17;
	assert_int_equal(pg_nbench_bitfield_check(m1, m2), -1);

	/* huffman: one pass per iteration; a changed byte is caught */
	b = &pg_cpu_nbench_huffman;
	a = bench_args(b, NULL);
	start(&ctx, b, &a);
	assert_int_equal(b->step(&ctx, 2, c1), PG_OK);
	assert_true(c1[0] == 2.0);
	b->teardown(&ctx);
	char t1[] = "abracadabra", t2[] = "abracadabra";
	assert_int_equal(pg_nbench_huffman_check(t1, t2, 11, 23), 0);
	t2[4] = 'x';
	assert_int_equal(pg_nbench_huffman_check(t1, t2, 11, 23), -1);
	assert_int_equal(pg_nbench_huffman_check(t1, t1, 11, 88), -1);	/* did not compress */

	/* strsort: one array per iteration; order and contents checked */
	b = &pg_cpu_nbench_strsort;
	a = bench_args(b, NULL);
	start(&ctx, b, &a);
	assert_int_equal(b->step(&ctx, 1, c1), PG_OK);
	assert_true(c1[0] == 1.0);
	b->teardown(&ctx);
	/* "\2ab" < "\3abc": lengths first (the reference compares the length byte) */
	unsigned char str[] = { 2, 'a', 'b', 3, 'a', 'b', 'c' };
	unsigned long off[] = { 0, 3 };
	unsigned long sum = 2 + 'a' + 'b' + 3 + 'a' + 'b' + 'c';
	assert_int_equal(pg_nbench_strsort_check(off, str, 2, sum), 0);
	assert_int_equal(pg_nbench_strsort_check(off, str, 2, sum + 1), -1);
	unsigned char rev[] = { 3, 'a', 'b', 'c', 2, 'a', 'b' };
	unsigned long roff[] = { 0, 4 };
	assert_int_equal(pg_nbench_strsort_check(roff, rev, 2, sum), -1);

	/* assign: one matrix per iteration; an assignment must be a permutation on zeros */
	long t[3 * 3] = { 0, 5, 0, 2, 0, 1, 0, 3, 4 };
	short mk[3 * 3] = { 0, 0, 1, 0, 1, 0, 1, 0, 0 };
	assert_int_equal(pg_nbench_assign_check(t, mk, 3), 0);
	mk[2] = 0;
	mk[0] = 1;	/* rows fine, but column 0 twice */
	assert_int_equal(pg_nbench_assign_check(t, mk, 3), -1);
	mk[0] = 0;
	mk[1] = 1;	/* on a non-zero cost */
	assert_int_equal(pg_nbench_assign_check(t, mk, 3), -1);

	double x[4] = { 1.0, 1.25, 1.5, 1.75 };
	assert_int_equal(pg_nbench_lu_check(x, 4), 0);
	x[2] += 1e-6;
	assert_int_equal(pg_nbench_lu_check(x, 4), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registered),
		cmocka_unit_test(test_dhrystone_counts_and_checks),
		cmocka_unit_test(test_clock_measured),
		cmocka_unit_test(test_whetstone_counts_and_checks),
		cmocka_unit_test(test_linpack_counts),
		cmocka_unit_test(test_linpack_residual_catches_wrong_answer),
		cmocka_unit_test(test_nbench_numsort),
		cmocka_unit_test(test_nbench_fourier),
		cmocka_unit_test(test_nbench_idea_and_lu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
