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
	assert_int_equal(pg_override_parse("size", &ov, err, sizeof(err)), -1);
	assert_int_equal(pg_override_parse("=8m", &ov, err, sizeof(err)), -1);
	assert_int_equal(pg_override_parse("size=", &ov, err, sizeof(err)), -1);
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
		cmocka_unit_test(suite_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
