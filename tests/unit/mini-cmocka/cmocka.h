/* SPDX-License-Identifier: MIT */
/*
 * The part of cmocka's interface perfguide's unit tests use, for a build
 * where no cmocka library exists for the target C library (a static musl
 * build: Debian's libcmocka is built against glibc). -DPG_MINI_CMOCKA=ON
 * puts this directory first on the tests' include path; every other build
 * uses the real cmocka. Failures and skips leave the test by longjmp, as
 * cmocka's do; there is no leak checking or signal catching.
 */
#ifndef PG_MINI_CMOCKA_H
#define PG_MINI_CMOCKA_H

#include <stddef.h>
#include <stdint.h>

typedef void (*pg_mc_test_fn)(void **state);
typedef int (*pg_mc_fixture_fn)(void **state);

struct CMUnitTest {
	const char *name;
	pg_mc_test_fn test_func;
	pg_mc_fixture_fn setup_func;
	pg_mc_fixture_fn teardown_func;
	void *initial_state;
};

#define cmocka_unit_test(f) { #f, f, NULL, NULL, NULL }
#define cmocka_unit_test_setup(f, s) { #f, f, s, NULL, NULL }
#define cmocka_unit_test_setup_teardown(f, s, t) { #f, f, s, t, NULL }
#define cmocka_run_group_tests(tests, gsetup, gteardown) \
	pg_mc_run_group(#tests, tests, sizeof(tests) / sizeof((tests)[0]), gsetup, gteardown)

int pg_mc_run_group(const char *name, const struct CMUnitTest *tests, size_t n,
		    pg_mc_fixture_fn setup, pg_mc_fixture_fn teardown);
/* Leave the running test: failed (with the message already printed) or skipped. */
_Noreturn void pg_mc_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
_Noreturn void pg_mc_skip(const char *file, int line);
void print_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void pg_mc_int(uintmax_t a, uintmax_t b, int equal, const char *what, const char *file, int line);
void pg_mc_float(double a, double b, double eps, const char *what, const char *file, int line);
void pg_mc_str(const char *a, const char *b, const char *what, const char *file, int line);
void pg_mc_mem(const void *a, const void *b, size_t n, int equal, const char *what, const char *file,
	       int line);

#define PG_MC_HERE __FILE__, __LINE__
#define fail() pg_mc_fail(PG_MC_HERE, "fail()")
#define fail_msg(...) pg_mc_fail(PG_MC_HERE, __VA_ARGS__)
#define skip() pg_mc_skip(PG_MC_HERE)
#define assert_true(c) ((c) ? (void)0 : pg_mc_fail(PG_MC_HERE, "%s is not true", #c))
#define assert_false(c) ((c) ? pg_mc_fail(PG_MC_HERE, "%s is not false", #c) : (void)0)
#define assert_non_null(p) ((p) != NULL ? (void)0 : pg_mc_fail(PG_MC_HERE, "%s is NULL", #p))
#define assert_null(p) ((p) == NULL ? (void)0 : pg_mc_fail(PG_MC_HERE, "%s is not NULL", #p))
#define assert_ptr_equal(a, b) \
	((const void *)(a) == (const void *)(b) ? (void)0 : pg_mc_fail(PG_MC_HERE, "%s != %s", #a, #b))
#define assert_int_equal(a, b) pg_mc_int((uintmax_t)(a), (uintmax_t)(b), 1, #a " == " #b, PG_MC_HERE)
#define assert_int_not_equal(a, b) pg_mc_int((uintmax_t)(a), (uintmax_t)(b), 0, #a " != " #b, PG_MC_HERE)
#define assert_float_equal(a, b, eps) pg_mc_float((a), (b), (eps), #a " == " #b, PG_MC_HERE)
#define assert_string_equal(a, b) pg_mc_str((a), (b), #a " == " #b, PG_MC_HERE)
#define assert_memory_equal(a, b, n) pg_mc_mem((a), (b), (n), 1, #a " == " #b, PG_MC_HERE)
#define assert_memory_not_equal(a, b, n) pg_mc_mem((a), (b), (n), 0, #a " != " #b, PG_MC_HERE)

#endif
