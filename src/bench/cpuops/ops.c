/* SPDX-License-Identifier: MIT */
/*
 * Latency of one arithmetic operation, LMBench's lat_ops: a chain of
 * operations each needing the result of the one before, so none overlap;
 * nanoseconds per operation.
 *
 * The compiler must neither fold the chain nor see the operand values:
 * after every operation the result goes through an empty asm statement
 * (OPAQUE) that, to the compiler, may change it, so every operation is
 * emitted and stays dependent, yet it costs no instruction. The operands
 * come from a volatile, so nothing is a constant at compile time. Each
 * iteration is OPS_PER_ITER operations, so the loop's own increment and
 * branch, which run beside the chain, are under 1% of it.
 *
 *   add, bit   x = x + y, x = x ^ y (unsigned, so x wraps);
 *   mul        x = x * y (integers: unsigned, y odd, so x never becomes 0);
 *              floating point: x * y then x * (1/y), so x stays normal;
 *   div        x = c / x, with c = x0 * x0 so the chain stays at x0, a
 *              number with many significant bits (no easy divisions);
 *   mod        x = c % x + k (k keeps x from 0): the add is not the
 *              operation, so its latency, measured in setup with the add
 *              chain, is subtracted, as lat_ops takes off what is not the
 *              operation.
 * Floating-point add alternates x + y and x - y (one adder, same latency)
 * so x stays near 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timer.h"
#include "cpuops.h"

#define OPS_PER_ITER 128

#define OPAQUE(v) __asm__ volatile("" : "+r"(v))
/* The same for a floating-point register; elsewhere the value goes through
 * memory, which lengthens the chain (the result's note says so). */
#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__))
#define OPAQUE_float(v) __asm__ volatile("" : "+x"(v))
#define OPAQUE_double(v) __asm__ volatile("" : "+x"(v))
#define FP_IN_REGISTERS 1
#elif defined(__aarch64__)
#define OPAQUE_float(v) __asm__ volatile("" : "+w"(v))
#define OPAQUE_double(v) __asm__ volatile("" : "+w"(v))
#define FP_IN_REGISTERS 1
#elif defined(__arm__) && defined(__ARM_FP)
#define OPAQUE_float(v) __asm__ volatile("" : "+t"(v))
#define OPAQUE_double(v) __asm__ volatile("" : "+w"(v))
#define FP_IN_REGISTERS 1
#else
#define OPAQUE_float(v) __asm__ volatile("" : "+m"(v))
#define OPAQUE_double(v) __asm__ volatile("" : "+m"(v))
#define FP_IN_REGISTERS 0
#endif

enum op { OP_ADD, OP_MUL, OP_DIV, OP_MOD, OP_BIT };
enum type { T_INT, T_INT64, T_FLOAT, T_DOUBLE };

static const char *const op_names[] = { "add", "mul", "div", "mod", "bit" };
static const char *const type_names[] = { "int", "int64", "float", "double" };

static enum op op_of(const struct pg_args *a)
{
	const char *s = pg_arg_str(a, "op");
	for (int i = 0; i < 5; i++)
		if (strcmp(s, op_names[i]) == 0)
			return (enum op)i;
	return OP_ADD;
}

/* Operands the compiler cannot know. */
static volatile int32_t v_i32_y = 0x12345679, v_i32_x0 = 46337;
static volatile int64_t v_i64_y = INT64_C(0x123456789abcdef1), v_i64_x0 = INT64_C(3037000493);
static volatile float v_f_y = 1.0009765625f, v_f_x0 = 1.2345678f;
static volatile double v_d_y = 1.0000000001, v_d_x0 = 1.2345678901234567;

#define REP8(s) s s s s s s s s
#define REP64(s) REP8(REP8(s))

/* One chain per (type, op): `iters` iterations of OPS_PER_ITER operations. */
#define INT_CHAINS(T, UT, Y, X0, NAME)							\
static uint64_t NAME##_add(uint64_t iters)						\
{											\
	UT x = (UT)X0, y = (UT)Y;							\
	for (uint64_t i = 0; i < iters; i++) {						\
		REP64(x += y; OPAQUE(x);)						\
		REP64(x += y; OPAQUE(x);)						\
	}										\
	return (uint64_t)x;								\
}											\
static uint64_t NAME##_bit(uint64_t iters)						\
{											\
	UT x = (UT)X0, y = (UT)Y;								\
	for (uint64_t i = 0; i < iters; i++) {						\
		REP64(x ^= y; OPAQUE(x);)						\
		REP64(x ^= y; OPAQUE(x);)						\
	}										\
	return (uint64_t)x;								\
}											\
static uint64_t NAME##_mul(uint64_t iters)						\
{											\
	UT x = (UT)X0, y = (UT)Y | 1;							\
	for (uint64_t i = 0; i < iters; i++) {						\
		REP64(x *= y; OPAQUE(x);)						\
		REP64(x *= y; OPAQUE(x);)						\
	}										\
	return (uint64_t)x;								\
}											\
static uint64_t NAME##_div(uint64_t iters)						\
{											\
	T x = X0, c = (T)(X0 * X0);							\
	OPAQUE(c);									\
	for (uint64_t i = 0; i < iters; i++) {						\
		REP64(x = c / x; OPAQUE(x);)						\
		REP64(x = c / x; OPAQUE(x);)						\
	}										\
	return (uint64_t)x;								\
}											\
static uint64_t NAME##_mod(uint64_t iters)						\
{											\
	T x = X0, c = Y, k = X0;							\
	OPAQUE(k);									\
	for (uint64_t i = 0; i < iters; i++) {						\
		REP64(x = c % x + k; OPAQUE(x);)					\
		REP64(x = c % x + k; OPAQUE(x);)					\
	}										\
	return (uint64_t)x;								\
}

INT_CHAINS(int32_t, uint32_t, v_i32_y, v_i32_x0, i32)
INT_CHAINS(int64_t, uint64_t, v_i64_y, v_i64_x0, i64)

#define FP_CHAINS(T, Y, X0, NAME)							\
static uint64_t NAME##_add(uint64_t iters)						\
{											\
	T x = X0, y = Y;								\
	for (uint64_t i = 0; i < iters; i++) {						\
		REP64(x += y; OPAQUE_##T(x); x -= y; OPAQUE_##T(x);)			\
	}										\
	return (uint64_t)(x * 1000);							\
}											\
static uint64_t NAME##_mul(uint64_t iters)						\
{											\
	T x = X0, y = Y, z = 1 / y;							\
	for (uint64_t i = 0; i < iters; i++) {						\
		REP64(x *= y; OPAQUE_##T(x); x *= z; OPAQUE_##T(x);)			\
	}										\
	return (uint64_t)(x * 1000);							\
}											\
static uint64_t NAME##_div(uint64_t iters)						\
{											\
	T x = X0, c = X0 * X0;								\
	for (uint64_t i = 0; i < iters; i++) {						\
		REP64(x = c / x; OPAQUE_##T(x);)						\
		REP64(x = c / x; OPAQUE_##T(x);)						\
	}										\
	return (uint64_t)(x * 1000);							\
}

FP_CHAINS(float, v_f_y, v_f_x0, f32)
FP_CHAINS(double, v_d_y, v_d_x0, f64)

typedef uint64_t (*chain_fn)(uint64_t iters);

static chain_fn chain_of(enum type t, enum op o)
{
	static const chain_fn table[4][5] = {
		{ i32_add, i32_mul, i32_div, i32_mod, i32_bit },
		{ i64_add, i64_mul, i64_div, i64_mod, i64_bit },
		{ f32_add, f32_mul, f32_div, NULL, NULL },
		{ f64_add, f64_mul, f64_div, NULL, NULL },
	};
	return table[t][o];
}

static int ops_check(const struct pg_args *a, char *err, size_t errlen)
{
	(void)a;
	(void)err;
	(void)errlen;
	return 0;
}

/* Seconds per operation of a chain, timed here only to learn what to
 * subtract (the add in the mod chain). */
static double chain_cost(chain_fn f)
{
	uint64_t n = 1;
	double best = 0;
	for (int k = 0; k < 30; k++) {
		double t0 = pg_now();
		pg_consume(f(n));
		double el = pg_now() - t0;
		if (el >= 0.01)
			break;
		n *= el < 0.0001 ? 10 : 2;
	}
	for (int r = 0; r < 3; r++) {
		double t0 = pg_now();
		pg_consume(f(n));
		double per = (pg_now() - t0) / ((double)n * OPS_PER_ITER);
		if (r == 0 || per < best)
			best = per;
	}
	return best;
}

static int ops_setup(struct pg_ctx *ctx)
{
	enum type t = *(const enum type *)ctx->bench->data;
	enum op o = op_of(ctx->args);
	if (!chain_of(t, o))
		return pg_skip(ctx, "op=%s has no %s form (LMBench has none either): use add, mul or div",
			       op_names[o], type_names[t]);
	if (!FP_IN_REGISTERS && (t == T_FLOAT || t == T_DOUBLE))
		pg_note(ctx, "no floating-point register constraint for this target: "
			"each step includes a store and a load");
	if (o == OP_MOD) {
		ctx->overhead[0] = chain_cost(chain_of(t, OP_ADD));
		pg_note(ctx, "the add of each step, %.3f ns, subtracted", ctx->overhead[0] * 1e9);
	}
	return PG_OK;
}

static int ops_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	enum type t = *(const enum type *)ctx->bench->data;
	pg_consume(chain_of(t, op_of(ctx->args))(iters));
	counts[0] = (double)iters * OPS_PER_ITER;
	return PG_OK;
}

static void ops_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		      char *buf, size_t len)
{
	(void)metric;
	enum type t = *(const enum type *)b->data;
	snprintf(buf, len, "lat_ops-%s-%s", type_names[t], pg_arg_str(a, "op"));
}

static const struct pg_param int_params[] = {
	{ .name = "op", .type = PG_P_STR, .def = "add", .choices = "add,mul,div,mod,bit",
	  .help = "the operation chained", .quick = "div", .standard = "add,mul,div,mod,bit" },
	{ 0 },
};
static const struct pg_param fp_params[] = {
	{ .name = "op", .type = PG_P_STR, .def = "add", .choices = "add,mul,div",
	  .help = "the operation chained", .quick = "mul", .standard = "add,mul,div" },
	{ 0 },
};
static const struct pg_metric ns_per_op[] = {
	{ "latency", "ns", PG_TIME_PER, 1e9, 0, 0 },
	{ 0 },
};

static const enum type k_int = T_INT, k_int64 = T_INT64, k_float = T_FLOAT, k_double = T_DOUBLE;

const struct pg_bench pg_cpu_ops_int = {
	.id = "cpu.ops.int", .title = "32-bit integer operation latency (lat_ops int)",
	.section = &pg_cpuops_sec_lmbench,
	.params = int_params, .metrics = ns_per_op, .data = &k_int, .check = ops_check,
	.setup = ops_setup, .step = ops_step, .label = ops_label,
};
const struct pg_bench pg_cpu_ops_int64 = {
	.id = "cpu.ops.int64", .title = "64-bit integer operation latency (lat_ops int64)",
	.section = &pg_cpuops_sec_lmbench,
	.params = int_params, .metrics = ns_per_op, .data = &k_int64, .check = ops_check,
	.setup = ops_setup, .step = ops_step, .label = ops_label,
};
const struct pg_bench pg_cpu_ops_float = {
	.id = "cpu.ops.float", .title = "Single-precision operation latency (lat_ops float)",
	.section = &pg_cpuops_sec_lmbench,
	.params = fp_params, .metrics = ns_per_op, .data = &k_float, .check = ops_check,
	.setup = ops_setup, .step = ops_step, .label = ops_label,
};
const struct pg_bench pg_cpu_ops_double = {
	.id = "cpu.ops.double", .title = "Double-precision operation latency (lat_ops double)",
	.section = &pg_cpuops_sec_lmbench,
	.params = fp_params, .metrics = ns_per_op, .data = &k_double, .check = ops_check,
	.setup = ops_setup, .step = ops_step, .label = ops_label,
};
