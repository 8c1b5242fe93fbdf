/* SPDX-License-Identifier: MIT */
/* cpu.work.*: each workload counts one iteration per run and checks its
 * answer; a wrong answer is an error. No timing is checked here. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/cpu/cpu.h"
#include "bench_args.h"

static void start(struct pg_ctx *ctx, const struct pg_bench *b, struct pg_args *a)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->bench = b;
	ctx->args = a;
	ctx->copies = 1;
	assert_int_equal(b->setup(ctx), PG_OK);
}

static void test_each_workload(void **state)
{
	(void)state;
	const struct pg_bench *all[] = {
		&pg_cpu_work_listmat, &pg_cpu_work_state, &pg_cpu_work_dct,
		&pg_cpu_work_sha256, &pg_cpu_work_lz, &pg_cpu_work_parse,
		&pg_cpu_work_fft, &pg_cpu_work_nnet, &pg_cpu_work_linalg,
	};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		struct pg_args a = bench_args(all[i], NULL);
		struct pg_ctx ctx;
		start(&ctx, all[i], &a);
		double c[PG_MAX_METRICS] = { 0 };
		assert_int_equal(all[i]->step(&ctx, 3, c), PG_OK);
		assert_true(c[0] == 3.0);
		/* a second step does the same work and is still right */
		assert_int_equal(all[i]->step(&ctx, 1, c), PG_OK);
		all[i]->teardown(&ctx);
	}
}

static void test_wrong_answer_is_an_error(void **state)
{
	(void)state;
	/* The parser's text starts its state; change a digit after the first
	 * '=' and its sum no longer matches what the generator wrote. */
	const struct pg_bench *b = &pg_cpu_work_parse;
	struct pg_args a = bench_args(b, NULL);
	struct pg_ctx ctx;
	start(&ctx, b, &a);
	char *t = ctx.priv, *p = strchr(t, '=');
	assert_non_null(p);
	while (*p < '0' || *p > '9')
		p++;
	*p = *p == '9' ? '8' : (char)(*p + 1);
	double c[PG_MAX_METRICS] = { 0 };
	assert_int_equal(b->step(&ctx, 1, c), PG_ERROR);
	assert_non_null(strstr(ctx.msg, "wrong result"));
	b->teardown(&ctx);
}

static void test_sha256_vectors(void **state)
{
	(void)state;
	static const struct {
		const char *msg, *hex;
	} v[] = {
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "The quick brown fox jumps over the lazy dog",
		  "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint8_t d[32];
		char hex[65];
		pg_work_sha256(v[i].msg, strlen(v[i].msg), d);
		for (int k = 0; k < 32; k++)
			snprintf(hex + 2 * k, 3, "%02x", d[k]);
		assert_string_equal(hex, v[i].hex);
	}
	/* 55 and 56 bytes: the padding fits in one block, then needs two */
	char m[57];
	memset(m, 'a', sizeof(m));
	uint8_t d55[32], d56[32];
	pg_work_sha256(m, 55, d55);
	pg_work_sha256(m, 56, d56);
	assert_memory_not_equal(d55, d56, 32);
}

static void test_geomean(void **state)
{
	(void)state;
	double v[] = { 2, 8, 4 };
	assert_true(fabs(pg_work_geomean(v, 3) - 4.0) < 1e-12);
	v[1] = 0;
	assert_true(isnan(pg_work_geomean(v, 3)));
}

/* A composite's se of its figure's log: its parts' added in quadrature
 * with their weights, Welch-Satterthwaite's degrees of freedom; none when
 * a weighted part has none. */
static void test_composite_se(void **state)
{
	(void)state;
	const struct pg_cpu_other o[3] = {
		{ .median = 10, .se = 0.01, .n = 5 }, { .median = 20, .se = 0.02, .n = 3 }, { .median = 1, .se = -1, .n = 1 },
	};
	double df;
	/* cpu.scaling: log many - log one */
	assert_float_equal(pg_cpu_log_se(o, (const double[]){ 1, 1, 0 }, 3, &df), sqrt(0.0005), 1e-12);
	assert_float_equal(df, 0.0005 * 0.0005 / (1e-8 / 4 + 1.6e-7 / 2), 1e-9);
	/* a geometric mean of two: the se of their mean log */
	assert_float_equal(pg_cpu_log_se(o, (const double[]){ 0.5, 0.5, 0 }, 3, &df), sqrt(0.0005) / 2, 1e-12);
	assert_float_equal(pg_cpu_log_se(o, (const double[]){ 1, 1, 1 }, 3, &df), -1, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_workload),
		cmocka_unit_test(test_wrong_answer_is_an_error),
		cmocka_unit_test(test_sha256_vectors),
		cmocka_unit_test(test_geomean),
		cmocka_unit_test(test_composite_se),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
