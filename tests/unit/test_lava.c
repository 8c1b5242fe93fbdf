/* run --lava's case names: the benchmark id, its recorded parameters (sizes
 * as -p takes them, named choices by name) and the metric, in LAVA's
 * alphabet, at most 100 characters, the same for the same input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli/run.h"

static const struct pg_param params[] = {
	{ .name = "size", .type = PG_P_SIZE, .choices = "auto" },
	{ .name = "threads", .type = PG_P_INT },
	{ .name = "dir", .type = PG_P_STR },
	{ .name = "psk_file", .type = PG_P_STR, .not_recorded = 1 },
	{ 0 },
};
static const struct pg_bench bench = { .id = "mem.bw.fcp", .params = params };

static void set(struct pg_args *a, int i, const char *text, int64_t num)
{
	a->v[i].param = &params[i];
	a->v[i].num = num;
	snprintf(a->v[i].text, sizeof(a->v[i].text), "%s", text);
	if (a->n <= i)
		a->n = i + 1;
}

static void names(void **state)
{
	(void)state;
	struct pg_args a = { 0 };
	char name[128], again[128];
	set(&a, 0, "8388608", 8 << 20);
	set(&a, 1, "1", 1);
	set(&a, 2, "/mnt/sd card", 0);
	set(&a, 3, "/etc/key", 0);
	run_lava_case_name(&bench, &a, "bandwidth", name, sizeof(name));
	assert_string_equal(name, "mem.bw.fcp_size-8m_threads-1_dir-_mnt_sd_card_bandwidth");
	set(&a, 0, "auto", 0);	/* a named choice, by name */
	run_lava_case_name(&bench, &a, "bandwidth", name, sizeof(name));
	assert_string_equal(name, "mem.bw.fcp_size-auto_threads-1_dir-_mnt_sd_card_bandwidth");

	/* Too long for LAVA: its start, then a hash of the whole name. */
	set(&a, 2, "/a/very/long/directory/name/that/goes/on/and/on/until/it/is/far/too/long/for/lava/one", 0);
	run_lava_case_name(&bench, &a, "bandwidth", name, sizeof(name));
	assert_int_equal(strlen(name), 100);
	assert_memory_equal(name, "mem.bw.fcp_size-auto_threads-1_dir-_a_very_long", 47);
	assert_true(name[91] == '-');
	run_lava_case_name(&bench, &a, "bandwidth", again, sizeof(again));
	assert_string_equal(name, again);
	set(&a, 2, "/a/very/long/directory/name/that/goes/on/and/on/until/it/is/far/too/long/for/lava/two", 0);
	run_lava_case_name(&bench, &a, "bandwidth", again, sizeof(again));
	assert_int_equal(strlen(again), 100);
	assert_string_not_equal(name, again);
	for (const char *p = name; *p; p++)
		assert_non_null(strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-", *p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
