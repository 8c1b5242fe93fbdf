/* SPDX-License-Identifier: MIT */
/* run --lava's case names: the benchmark id, its recorded parameters that
 * are not at their defaults (sizes as -p takes them, named choices by name),
 * the metric unless it is the first, in LAVA's alphabet, at most 100
 * characters, never a hash, the same for the same input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli/run.h"

static const struct pg_param params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "8m", .choices = "auto" },
	{ .name = "threads", .type = PG_P_INT, .def = "1" },
	{ .name = "dir", .type = PG_P_STR, .def = "." },
	{ .name = "psk_file", .type = PG_P_STR, .def = "none", .not_recorded = 1 },
	{ 0 },
};
static const struct pg_metric metrics[] = {
	{ .name = "bandwidth", .unit = "MB/s", .higher_is_better = 1 },
	{ .name = "latency", .unit = "us" },
	{ 0 },
};
static const struct pg_bench bench = { .id = "mem.bw.fcp", .params = params, .metrics = metrics };

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
	/* every parameter at its default: the id alone */
	set(&a, 0, "8m", 8 << 20);
	set(&a, 1, "1", 1);
	set(&a, 2, ".", 0);
	set(&a, 3, "/etc/key", 0);
	run_lava_case_name(&bench, &a, 0, name, sizeof(name));
	assert_string_equal(name, "mem.bw.fcp");
	/* a metric after the first is named */
	run_lava_case_name(&bench, &a, 1, name, sizeof(name));
	assert_string_equal(name, "mem.bw.fcp_latency");
	/* the parameters that are not at their defaults, sizes as -p takes
	 * them; a value's other characters are '.', never the '_' between parts */
	set(&a, 0, "65536", 64 << 10);
	set(&a, 2, "/mnt/sd card", 0);
	run_lava_case_name(&bench, &a, 0, name, sizeof(name));
	assert_string_equal(name, "mem.bw.fcp_size-64k_dir-.mnt.sd.card");
	set(&a, 0, "auto", 0);	/* a named choice, by name */
	set(&a, 1, "4", 4);
	run_lava_case_name(&bench, &a, 1, name, sizeof(name));
	assert_string_equal(name, "mem.bw.fcp_size-auto_threads-4_dir-.mnt.sd.card_latency");

	/* Too long for LAVA: cut at 100, no hash; the same every time. */
	set(&a, 2, "/a/very/long/directory/name/that/goes/on/and/on/until/it/is/far/too/long/for/lava/one", 0);
	run_lava_case_name(&bench, &a, 0, name, sizeof(name));
	assert_int_equal(strlen(name), 100);
	assert_memory_equal(name, "mem.bw.fcp_size-auto_threads-4_dir-.a.very.long", 47);
	run_lava_case_name(&bench, &a, 0, again, sizeof(again));
	assert_string_equal(name, again);
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
