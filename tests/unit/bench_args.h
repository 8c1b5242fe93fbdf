/* SPDX-License-Identifier: MIT */
/* For unit tests that drive one benchmark by hand: the arguments it runs
 * with when the command line says nothing, or only the -p NAME=VALUE
 * overrides given (NULL ends the list). Include after <cmocka.h>. */
#ifndef PG_TEST_BENCH_ARGS_H
#define PG_TEST_BENCH_ARGS_H

#include <stdarg.h>
#include <stdlib.h>

#include "core/params.h"

static inline struct pg_args bench_args(const struct pg_bench *b, ...)
{
	struct pg_override ov[4];
	int nov = 0;
	char err[256];
	va_list ap;
	va_start(ap, b);
	for (const char *o; (o = va_arg(ap, const char *)) != NULL;) {
		assert_true(nov < 4);
		assert_int_equal(pg_override_parse(o, &ov[nov++], err, sizeof(err)), 0);
	}
	va_end(ap);
	struct pg_args *all = NULL;
	int n = 0;
	assert_int_equal(pg_sweep(b, PG_SUITE_NONE, ov, nov, 0, &all, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	struct pg_args a = all[0];
	free(all);
	return a;
}

#endif
