/* SPDX-License-Identifier: MIT */
/* The runner and checks behind mini-cmocka/cmocka.h (see there why). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmocka.h"

enum { MC_PASS, MC_FAIL, MC_SKIP };

static jmp_buf mc_leave;

void pg_mc_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "[  ERROR   ] ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n[   LINE   ] --- %s:%d\n", file, line);
	va_end(ap);
	longjmp(mc_leave, MC_FAIL);
}

void pg_mc_skip(const char *file, int line)
{
	fprintf(stderr, "[   SKIP   ] --- %s:%d\n", file, line);
	longjmp(mc_leave, MC_SKIP);
}

void print_message(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void pg_mc_int(uintmax_t a, uintmax_t b, int equal, const char *what, const char *file, int line)
{
	if ((a == b) != equal)
		pg_mc_fail(file, line, "%s: %#jx (%jd) against %#jx (%jd)", what, a, (intmax_t)a, b, (intmax_t)b);
}

/* Equal, or within eps of each other (eps 0: the same value). */
void pg_mc_float(double a, double b, double eps, const char *what, const char *file, int line)
{
	if (!(a == b || fabs(a - b) <= eps))
		pg_mc_fail(file, line, "%s: %.17g against %.17g (epsilon %g)", what, a, b, eps);
}

void pg_mc_str(const char *a, const char *b, const char *what, const char *file, int line)
{
	if (!a || !b || strcmp(a, b) != 0)
		pg_mc_fail(file, line, "%s: \"%s\" against \"%s\"", what, a ? a : "(null)", b ? b : "(null)");
}

void pg_mc_mem(const void *a, const void *b, size_t n, int equal, const char *what, const char *file,
	       int line)
{
	if ((memcmp(a, b, n) == 0) != equal)
		pg_mc_fail(file, line, "%s: %zu bytes %s", what, n, equal ? "differ" : "are the same");
}

/* One test with its fixtures: MC_PASS, MC_FAIL or MC_SKIP. */
static int mc_run_one(const struct CMUnitTest *t, void *group_state)
{
	void *state = t->initial_state ? t->initial_state : group_state;
	switch (setjmp(mc_leave)) {
	case MC_PASS:
		break;
	case MC_SKIP:
		return MC_SKIP;
	default:
		return MC_FAIL;
	}
	if (t->setup_func && t->setup_func(&state) != 0) {
		fprintf(stderr, "[  ERROR   ] %s: its setup failed\n", t->name);
		return MC_FAIL;
	}
	t->test_func(&state);
	if (t->teardown_func && t->teardown_func(&state) != 0) {
		fprintf(stderr, "[  ERROR   ] %s: its teardown failed\n", t->name);
		return MC_FAIL;
	}
	return MC_PASS;
}

int pg_mc_run_group(const char *name, const struct CMUnitTest *tests, size_t n,
		    pg_mc_fixture_fn setup, pg_mc_fixture_fn teardown)
{
	static const char *const word[] = { "       OK ", "  FAILED  ", " SKIPPED  " };
	void *state = NULL;
	int failed = 0;
	printf("[==========] %s: running %zu test(s).\n", name, n);
	if (setup && setup(&state) != 0) {
		printf("[  FAILED  ] %s: the group's setup failed\n", name);
		return (int)n;
	}
	for (size_t i = 0; i < n; i++) {
		printf("[ RUN      ] %s\n", tests[i].name);
		fflush(stdout);
		int rc = mc_run_one(&tests[i], state);
		failed += rc == MC_FAIL;
		printf("[%s] %s\n", word[rc], tests[i].name);
	}
	if (teardown && teardown(&state) != 0)
		failed++;
	printf("[==========] %s: %zu test(s) run, %d failed.\n", name, n, failed);
	return failed;
}
