/* SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/params.h"

static void sizes_take_binary_suffixes(void **state)
{
	(void)state;
	int64_t v;
	char err[200];
	assert_int_equal(pg_parse_size("512", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 512);
	assert_int_equal(pg_parse_size("4k", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(pg_parse_size("16m", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 16 << 20);
	assert_int_equal(pg_parse_size("1g", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 1LL << 30);
	assert_int_equal(pg_parse_size("8M", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 8 << 20);
	assert_int_equal(pg_parse_size("4kb", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(pg_parse_size("2MiB", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 2 << 20);
}

static void bad_sizes_are_refused_with_a_reason(void **state)
{
	(void)state;
	int64_t v = 99;
	char err[200];
	const char *bad[] = { "12q", "", "k", "-1", "-4k", "+5", "1.5m", "4kk", "0", "0k",
			      "99999999999999999999", "9000000000g", "16m ", " " };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(pg_parse_size(bad[i], &v, err, sizeof(err)), -1);
		assert_true(strlen(err) > 0);
		assert_null(strchr(err, '\n'));
	}
	assert_int_equal(v, 99);
	pg_parse_size("0", &v, err, sizeof(err));
	assert_non_null(strstr(err, "greater than zero"));
	pg_parse_size("12q", &v, err, sizeof(err));
	assert_non_null(strstr(err, "12q"));
}

static void sizes_format_back(void **state)
{
	(void)state;
	char b[32];
	pg_format_size(8 << 20, b, sizeof(b));
	assert_string_equal(b, "8m");
	pg_format_size(1LL << 30, b, sizeof(b));
	assert_string_equal(b, "1g");
	pg_format_size(32768, b, sizeof(b));
	assert_string_equal(b, "32k");
	pg_format_size(1536, b, sizeof(b));
	assert_string_equal(b, "1536");
	pg_format_size(512, b, sizeof(b));
	assert_string_equal(b, "512");
}

static const struct pg_param params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "8m", .min = 512, .mem_factor = 2,
	  .help = "h", .quick = "1m,8m", .standard = "1m,2m,4m" },
	{ .name = "threads", .type = PG_P_INT, .def = "1", .min = 1, .max = 64, .help = "h" },
	{ .name = "mode", .type = PG_P_STR, .def = "a", .choices = "a,bb", .help = "h",
	  .full = "a,bb" },
	{ 0 },
};

static int check_calls;
static int check_fn(const struct pg_args *a, char *err, size_t len)
{
	check_calls++;
	if (pg_arg_int(a, "threads") == 13) {
		snprintf(err, len, "thirteen is unlucky");
		return -1;
	}
	return 0;
}

static const struct pg_bench fake = {
	.id = "t.fake", .title = "fake", .params = params, .copies_param = "threads",
	.check = check_fn,
};

static void values_are_typed_and_bounded(void **state)
{
	(void)state;
	struct pg_value v;
	char err[200];
	assert_int_equal(pg_value_parse(&params[1], "4", &v, err, sizeof(err)), 0);
	assert_int_equal(v.num, 4);
	assert_int_equal(pg_value_parse(&params[1], "0", &v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "threads"));
	assert_int_equal(pg_value_parse(&params[1], "65", &v, err, sizeof(err)), -1);
	assert_int_equal(pg_value_parse(&params[1], "4x", &v, err, sizeof(err)), -1);
	assert_int_equal(pg_value_parse(&params[0], "256", &v, err, sizeof(err)), -1);
	assert_int_equal(pg_value_parse(&params[0], "1k", &v, err, sizeof(err)), 0);
	assert_int_equal(v.num, 1024);
	assert_int_equal(pg_value_parse(&params[2], "bb", &v, err, sizeof(err)), 0);
	assert_string_equal(v.text, "bb");
	assert_int_equal(pg_value_parse(&params[2], "c", &v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "a,bb"));
}

static void override_syntax(void **state)
{
	(void)state;
	struct pg_override ov;
	char err[200];
	assert_int_equal(pg_override_parse("size=8m", &ov, err, sizeof(err)), 0);
	assert_string_equal(ov.name, "size");
	assert_string_equal(ov.values, "8m");
	assert_string_equal(ov.param, "size");
	assert_string_equal(ov.scope, "");
	assert_int_equal(pg_override_parse("size", &ov, err, sizeof(err)), -1);
	assert_int_equal(pg_override_parse("=8m", &ov, err, sizeof(err)), -1);
	assert_int_equal(pg_override_parse("size=", &ov, err, sizeof(err)), -1);
	/* the selector before the last dot says which benchmarks */
	assert_int_equal(pg_override_parse("storage.path=/mnt/emmc", &ov, err, sizeof(err)), 0);
	assert_string_equal(ov.name, "storage.path");
	assert_string_equal(ov.scope, "storage");
	assert_string_equal(ov.param, "path");
	assert_string_equal(ov.values, "/mnt/emmc");
	assert_int_equal(pg_override_parse("net.udp.*.dir=a.b=c", &ov, err, sizeof(err)), 0);
	assert_string_equal(ov.scope, "net.udp.*");
	assert_string_equal(ov.param, "dir");
	assert_string_equal(ov.values, "a.b=c");
	assert_int_equal(pg_override_parse(".size=1", &ov, err, sizeof(err)), -1);
	assert_int_equal(pg_override_parse("size.=1", &ov, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "SELECTOR.NAME"));
}

static void sweeps_follow_the_suite(void **state)
{
	(void)state;
	struct pg_args *a;
	int n;
	char err[200];
	assert_int_equal(pg_sweep(&fake, PG_SUITE_NONE, NULL, 0, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(pg_arg_int(&a[0], "size"), 8 << 20);
	assert_string_equal(pg_arg_str(&a[0], "mode"), "a");
	free(a);

	assert_int_equal(pg_sweep(&fake, PG_SUITE_QUICK, NULL, 0, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(pg_arg_int(&a[0], "size"), 1 << 20);
	assert_int_equal(pg_arg_int(&a[1], "size"), 8 << 20);
	free(a);

	/* full: mode sweeps 2 values, size falls back to the standard list */
	assert_int_equal(pg_sweep(&fake, PG_SUITE_FULL, NULL, 0, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 6);
	char text[128];
	pg_args_format(&a[5], text, sizeof(text));
	assert_string_equal(text, "size=4m threads=1 mode=bb");
	free(a);
}

static void overrides_replace_and_sweep(void **state)
{
	(void)state;
	struct pg_args *a;
	int n;
	char err[200];
	struct pg_override ov[2];
	pg_override_parse("size=4k,16m", &ov[0], err, sizeof(err));
	pg_override_parse("threads=2", &ov[1], err, sizeof(err));
	assert_int_equal(pg_sweep(&fake, PG_SUITE_STANDARD, ov, 2, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(pg_arg_int(&a[1], "size"), 16 << 20);
	assert_int_equal(pg_arg_int(&a[1], "threads"), 2);
	assert_true(ov[0].used && ov[1].used);
	free(a);

	pg_override_parse("size=12q", &ov[0], err, sizeof(err));
	assert_int_equal(pg_sweep(&fake, PG_SUITE_NONE, ov, 1, 0, &a, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t.fake"));
	assert_non_null(strstr(err, "12q"));
}

static void memory_limits(void **state)
{
	(void)state;
	struct pg_args *a;
	int n;
	char err[200];
	/* quick: 1m and 8m at factor 2; with 4 MiB free only 1m stays */
	assert_int_equal(pg_sweep(&fake, PG_SUITE_QUICK, NULL, 0, 4 << 20, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(pg_arg_int(&a[0], "size"), 1 << 20);
	free(a);

	/* a value the user gave that does not fit is an error, copies counted */
	struct pg_override ov[2];
	pg_override_parse("size=1m", &ov[0], err, sizeof(err));
	pg_override_parse("threads=4", &ov[1], err, sizeof(err));
	assert_int_equal(pg_sweep(&fake, PG_SUITE_NONE, ov, 2, 4 << 20, &a, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "memory"));
}

static void combination_check_runs_first(void **state)
{
	(void)state;
	struct pg_args *a;
	int n;
	char err[200];
	struct pg_override ov;
	check_calls = 0;
	pg_override_parse("threads=13", &ov, err, sizeof(err));
	assert_int_equal(pg_sweep(&fake, PG_SUITE_NONE, &ov, 1, 0, &a, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unlucky"));
	assert_int_equal(check_calls, 1);
}

/* Another group's benchmark with parameters of the same names and other
 * meanings: size a whole number of at most 64, mode a choice of others. */
static const struct pg_param other_params[] = {
	{ .name = "size", .type = PG_P_INT, .def = "8", .min = 0, .max = 64, .help = "h" },
	{ .name = "mode", .type = PG_P_STR, .def = "out", .choices = "out,in,splice", .help = "h" },
	{ 0 },
};
static const struct pg_bench other = { .id = "u.other", .title = "other", .params = other_params };

/* The sweep of b with the overrides, what b did with each in take;
 * the number of combinations, or -1. */
static int sweep_take(const struct pg_bench *b, struct pg_override *ov, int nov, struct pg_take *take,
		      struct pg_args **a, char *err)
{
	struct pg_sweep_opts o = { .suite = PG_SUITE_NONE, .take = take };
	int n;
	if (pg_sweep_with(b, &o, ov, nov, a, &n, err, 200) < 0)
		return -1;
	return n;
}

static void soft_overrides_go_where_they_fit(void **state)
{
	(void)state;
	struct pg_args *a;
	struct pg_take take[2];
	char err[200];
	struct pg_override ov[2];
	/* 8m: a size for t.fake, not a whole number for u.other */
	pg_override_parse("size=8m", &ov[0], err, sizeof(err));
	ov[0].soft = 1;
	assert_int_equal(sweep_take(&fake, ov, 1, take, &a, err), 1);
	assert_int_equal(pg_arg_int(&a[0], "size"), 8 << 20);
	assert_int_equal(take[0].how, PG_TAKE_YES);
	free(a);
	assert_int_equal(sweep_take(&other, ov, 1, take, &a, err), 1);
	assert_int_equal(pg_arg_int(&a[0], "size"), 8);	/* its own default */
	assert_int_equal(take[0].how, PG_TAKE_NOT);
	assert_non_null(strstr(take[0].why, "whole number"));
	free(a);
	assert_true(ov[0].known && ov[0].used && !ov[0].typo);
	assert_non_null(strstr(ov[0].refused, "u.other: size"));

	/* out of u.other's range: refused; a path is no choice of its mode */
	pg_override_parse("size=100", &ov[0], err, sizeof(err));
	pg_override_parse("mode=/mnt/sd", &ov[1], err, sizeof(err));
	ov[0].soft = ov[1].soft = 1;
	assert_int_equal(sweep_take(&other, ov, 2, take, &a, err), 1);
	free(a);
	assert_int_equal(take[0].how, PG_TAKE_NOT);
	assert_int_equal(take[1].how, PG_TAKE_NOT);
	assert_true(!ov[0].used && !ov[1].used && !ov[1].typo);

	/* not soft (a scope, or a caller of one benchmark): the old error */
	pg_override_parse("size=8m", &ov[0], err, sizeof(err));
	assert_int_equal(sweep_take(&other, ov, 1, take, &a, err), -1);
	assert_string_equal(err, "u.other: size: '8m' is not a whole number");
}

static void a_mistyped_choice_is_marked(void **state)
{
	(void)state;
	struct pg_args *a;
	struct pg_take take[1];
	char err[200];
	struct pg_override ov;
	const char *typos[] = { "ot", "Out", "splcie", "slpice", "inn" };
	const char *others[] = { "/in", "tmp", "5", "x", "encrypt", "a,bb" };
	for (size_t i = 0; i < sizeof(typos) / sizeof(typos[0]); i++) {
		char o[64];
		snprintf(o, sizeof(o), "mode=%s", typos[i]);
		pg_override_parse(o, &ov, err, sizeof(err));
		ov.soft = 1;
		assert_int_equal(sweep_take(&other, &ov, 1, take, &a, err), 1);
		free(a);
		assert_int_equal(take[0].how, PG_TAKE_NOT);
		assert_true(ov.typo);
	}
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		char o[64];
		snprintf(o, sizeof(o), "mode=%s", others[i]);
		pg_override_parse(o, &ov, err, sizeof(err));
		ov.soft = 1;
		assert_int_equal(sweep_take(&other, &ov, 1, take, &a, err), 1);
		free(a);
		assert_false(ov.typo);
	}
}

static void scoped_overrides(void **state)
{
	(void)state;
	struct pg_args *a;
	struct pg_take take[2];
	char err[200];
	struct pg_override ov[2];
	/* the scoped one wins over the unscoped one, whatever their order */
	pg_override_parse("t.fake.size=4k", &ov[0], err, sizeof(err));
	pg_override_parse("size=1m", &ov[1], err, sizeof(err));
	ov[1].soft = 1;
	assert_int_equal(sweep_take(&fake, ov, 2, take, &a, err), 1);
	assert_int_equal(pg_arg_int(&a[0], "size"), 4096);
	assert_int_equal(take[0].how, PG_TAKE_YES);
	assert_int_equal(take[1].how, PG_TAKE_NONE);
	free(a);
	/* out of its scope: u.other is not t.*, and keeps its own */
	pg_override_parse("t.size=12", &ov[0], err, sizeof(err));
	assert_int_equal(sweep_take(&other, ov, 1, take, &a, err), 1);
	assert_int_equal(pg_arg_int(&a[0], "size"), 8);
	assert_int_equal(take[0].how, PG_TAKE_NONE);
	assert_false(ov[0].known);
	free(a);
	/* in scope, a value its parameter cannot take is an error */
	pg_override_parse("u.size=8m", &ov[0], err, sizeof(err));
	assert_int_equal(sweep_take(&other, ov, 1, take, &a, err), -1);
	assert_non_null(strstr(err, "u.other: size"));
	assert_true(pg_override_for(&ov[0], &other));
	assert_false(pg_override_for(&ov[0], &fake));
}

/* A standard-suite benchmark with a quick list: left out of quick unless
 * named; the quick list larger than the default. */
static const struct pg_param big_params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "1m", .min = 512, .mem_factor = 1, .help = "h",
	  .quick = "16m,32m" },
	{ 0 },
};
static const struct pg_bench big = { .id = "t.big", .title = "big", .params = big_params,
				     .min_suite = PG_IN_STANDARD };

static void a_named_benchmark_gets_a_result(void **state)
{
	(void)state;
	struct pg_args *a;
	int n;
	char err[200];
	struct pg_override ov;
	/* left out of quick, its value still counts as one it would take */
	pg_override_parse("size=4m", &ov, err, sizeof(err));
	ov.soft = 1;
	struct pg_sweep_opts o = { .suite = PG_SUITE_QUICK, .mem_avail = 1LL << 30 };
	assert_int_equal(pg_sweep_with(&big, &o, &ov, 1, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	assert_true(ov.would && !ov.used);
	free(a);
	/* named: the quick list */
	o.named = 1;
	assert_int_equal(pg_sweep_with(&big, &o, NULL, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(pg_arg_int(&a[0], "size"), 16 << 20);
	assert_string_equal(o.skip, "");
	free(a);
	/* the quick list does not fit: its default does */
	o.mem_avail = 8 << 20;
	assert_int_equal(pg_sweep_with(&big, &o, NULL, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(pg_arg_int(&a[0], "size"), 1 << 20);
	assert_true(o.at_defaults);
	assert_string_equal(o.skip, "");
	free(a);
	/* nothing fits: the quick list's first, skipped with the reason */
	o.mem_avail = 512 << 10;
	assert_int_equal(pg_sweep_with(&big, &o, NULL, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(pg_arg_int(&a[0], "size"), 16 << 20);
	assert_string_equal(o.skip, "needs 16m of memory, 512k available");
	free(a);
	/* not named: nothing, no reason */
	o.named = 0;
	o.suite = PG_SUITE_STANDARD;
	assert_int_equal(pg_sweep_with(&big, &o, NULL, 0, &a, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	assert_string_equal(o.skip, "");
	free(a);
}

static void suite_names(void **state)
{
	(void)state;
	enum pg_suite s;
	assert_int_equal(pg_suite_parse("quick", &s), 0);
	assert_int_equal(s, PG_SUITE_QUICK);
	assert_int_equal(pg_suite_parse("standard", &s), 0);
	assert_int_equal(pg_suite_parse("full", &s), 0);
	assert_int_equal(pg_suite_parse("fast", &s), -1);
	assert_string_equal(pg_suite_name(PG_SUITE_FULL), "full");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes_take_binary_suffixes),
		cmocka_unit_test(bad_sizes_are_refused_with_a_reason),
		cmocka_unit_test(sizes_format_back),
		cmocka_unit_test(values_are_typed_and_bounded),
		cmocka_unit_test(override_syntax),
		cmocka_unit_test(sweeps_follow_the_suite),
		cmocka_unit_test(overrides_replace_and_sweep),
		cmocka_unit_test(memory_limits),
		cmocka_unit_test(combination_check_runs_first),
		cmocka_unit_test(soft_overrides_go_where_they_fit),
		cmocka_unit_test(a_mistyped_choice_is_marked),
		cmocka_unit_test(scoped_overrides),
		cmocka_unit_test(a_named_benchmark_gets_a_result),
		cmocka_unit_test(suite_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
