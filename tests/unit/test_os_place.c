/* SPDX-License-Identifier: MIT */
/* Where the processes of an exchange run (bench/os/os.c, cpu=): the values
 * the check accepts, and the CPUs each placement picks from this thread's
 * own affinity, which the test narrows to see spread refused. */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/os/os.h"
#include "core/params.h"

/* What a run of os.pipe.lat -p cpu=VALUE says of the value: 0, or the
 * one-line error the sweep gives (it calls the benchmark's check). */
static int check(const char *cpu)
{
	char o[64], err[160] = "";
	snprintf(o, sizeof(o), "cpu=%s", cpu);
	struct pg_override ov;
	assert_int_equal(pg_override_parse(o, &ov, err, sizeof(err)), 0);
	struct pg_args *all = NULL;
	int n = 0;
	int rc = pg_sweep(&pg_os_pipe_lat, PG_SUITE_NONE, &ov, 1, 0, &all, &n, err, sizeof(err));
	free(all);
	if (rc != 0)
		assert_non_null(strstr(err, "give same, spread, any or a CPU number"));
	return rc;
}

static void test_check_takes_placements_and_numbers(void **state)
{
	(void)state;
	assert_int_equal(check("same"), 0);
	assert_int_equal(check("spread"), 0);
	assert_int_equal(check("any"), 0);
	assert_int_equal(check("3"), 0);
	assert_int_not_equal(check("bogus"), 0);
	assert_int_not_equal(check("-1"), 0);
	assert_int_not_equal(check("1x"), 0);
}

static void test_placement_follows_this_threads_cpus(void **state)
{
	(void)state;
	cpu_set_t saved;
	assert_int_equal(sched_getaffinity(0, sizeof(saved), &saved), 0);
	int first = -1, second = -1;
	for (int c = 0; c < CPU_SETSIZE && second < 0; c++)
		if (CPU_ISSET(c, &saved)) {
			if (first < 0)
				first = c;
			else
				second = c;
		}

	struct pg_ctx ctx;
	memset(&ctx, 0, sizeof(ctx));
	struct os_place p;
	assert_int_equal(os_place(&ctx, "any", &p), PG_OK);
	assert_true(p.self == -1 && p.peer == -1);
	assert_int_equal(os_place(&ctx, "same", &p), PG_OK);
	assert_true(p.self == first && p.peer == first);
	assert_int_equal(os_place(&ctx, "5", &p), PG_OK);
	assert_true(p.self == 5 && p.peer == 5);
	if (second >= 0) {
		assert_int_equal(os_place(&ctx, "spread", &p), PG_OK);
		assert_true(p.self == first && p.peer == second);
		char t[96];
		os_place_text(&p, t, sizeof(t));
		assert_non_null(strstr(t, "peer on CPU"));
	}

	/* On one CPU (as under --cpu 0 or taskset -c 0), same is that CPU and
	 * spread is skipped with what to do instead. */
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	assert_int_equal(os_place(&ctx, "same", &p), PG_OK);
	assert_int_equal(p.self, first);
	assert_int_equal(os_place(&ctx, "spread", &p), PG_SKIP);
	assert_non_null(strstr(ctx.msg, "cpu=same"));
	assert_int_equal(sched_setaffinity(0, sizeof(saved), &saved), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_takes_placements_and_numbers),
		cmocka_unit_test(test_placement_follows_this_threads_cpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
