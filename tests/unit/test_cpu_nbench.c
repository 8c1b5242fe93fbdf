/* SPDX-License-Identifier: MIT */
/* BYTEmark's floating-point emulation and neural net: what they count and
 * that their answers are right. No timing is checked here. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/cpu/cpu.h"
#include "bench_args.h"

static void run_steps(const struct pg_bench *b, uint64_t iters, double *c)
{
	struct pg_args a = bench_args(b, NULL);
	struct pg_ctx ctx;
	memset(&ctx, 0, sizeof(ctx));
	ctx.bench = b;
	ctx.args = &a;
	ctx.copies = 1;
	assert_int_equal(b->setup(&ctx), PG_OK);
	assert_int_equal(b->step(&ctx, iters, c), PG_OK);
	if (b->verify)
		assert_int_equal(b->verify(&ctx), PG_OK);
	b->teardown(&ctx);
}

static void test_fpemu(void **state)
{
	(void)state;
	/* Exact results where a 61-bit mantissa holds them. */
	assert_true(pg_nbench_fpemu_op('+', 7, -3) == 4.0);
	assert_true(pg_nbench_fpemu_op('-', 2, 5) == -3.0);
	assert_true(pg_nbench_fpemu_op('-', 5, 5) == 0.0);
	assert_true(pg_nbench_fpemu_op('*', -3, 50000) == -150000.0);
	assert_true(pg_nbench_fpemu_op('/', 7, 2) == 3.5);
	assert_true(pg_nbench_fpemu_op('/', -1, 1024) == -1.0 / 1024);
	assert_true(fabs(pg_nbench_fpemu_op('/', 1, 3) - 1.0 / 3) < 1e-16);
	assert_true(isinf(pg_nbench_fpemu_op('/', 1, 0)));

	/* The reference's data (its documentation lists element 2 as
	 * -1.1160 + -4.5159 = -5.6320), and every result of a pass agrees
	 * with the FPU. Its printout truncates to four decimals. */
	double a2, b2;
	char why[200];
	assert_int_equal(pg_nbench_fpemu_selftest(&a2, &b2, why, sizeof(why)), 0);
	assert_true(a2 <= -1.1160 && a2 > -1.1161 && b2 <= -4.5159 && b2 > -4.5160);

	double c[PG_MAX_METRICS] = { 0 };
	run_steps(&pg_cpu_nbench_fpemu, 2, c);
	assert_true(c[0] == 2.0);	/* one pass over the arrays per iteration */
}

static void test_nnet(void **state)
{
	(void)state;
	char why[120];
	long passes = pg_nbench_nnet_passes(why, sizeof(why));
	assert_true(passes > 10 && passes < 100000);
	assert_int_equal(pg_nbench_nnet_passes(why, sizeof(why)), passes);	/* deterministic */
	double c[PG_MAX_METRICS] = { 0 };
	run_steps(&pg_cpu_nbench_nnet, 2, c);
	/* counted in the reference's learning cycles of 780 passes */
	assert_true(fabs(c[0] - 2.0 * passes / 780.0) < 1e-12);
}

static void test_index(void **state)
{
	(void)state;
	/* table order: numsort strsort bitfield fpemu fourier assign idea huffman nnet lu */
	double base[10] = { 118.73, 14.459, 27910000, 9.0314, 1565.5, 1.0132, 220.21, 112.93,
			    1.4799, 26.732 };
	double r[10];
	for (int i = 0; i < 10; i++)
		r[i] = base[i];
	for (int k = 0; k < 3; k++)
		assert_true(fabs(pg_nbench_index_of(k, r) - 1.0) < 1e-12);
	/* memory: strsort, bitfield, assign; 8x one of three is 2x the index */
	r[2] = 8 * base[2];
	assert_true(fabs(pg_nbench_index_of(0, r) - 2.0) < 1e-12);
	assert_true(fabs(pg_nbench_index_of(1, r) - 1.0) < 1e-12);
	/* integer: numsort, fpemu, idea, huffman */
	r[6] = 16 * base[6];
	assert_true(fabs(pg_nbench_index_of(1, r) - 2.0) < 1e-12);
	/* floating point: fourier, nnet, lu; a missing rate gives no index */
	r[8] = 0;
	assert_true(isnan(pg_nbench_index_of(2, r)));
	assert_true(fabs(pg_nbench_index_of(0, r) - 2.0) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fpemu),
		cmocka_unit_test(test_nnet),
		cmocka_unit_test(test_index),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
