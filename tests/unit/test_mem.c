/* SPDX-License-Identifier: MIT */
/* Which memory results the host's other tenants decide (bench/mem/mem.c,
 * core/sysinfo.c): a working set past the inner caches and within a
 * last-level cache that a virtual or emulated machine shares with work it
 * cannot see. Machines made up here, so the answer does not depend on the
 * machine the test runs on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bench/mem/mem.h"
#include "core/sysinfo.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)

/* This project's KVM guest: L1d 48 KiB and L2 1 MiB a core, L3 32 MiB. */
static struct pg_cache_info epyc[] = {
	{ 1, "Data", 48 * KIB, 64, "0", 2 },
	{ 1, "Instruction", 32 * KIB, 64, "0", 2 },
	{ 2, "Unified", 1 * MIB, 64, "0", 2 },
	{ 3, "Unified", 32 * MIB, 64, "0-1", 1 },
};
/* A board whose last level is the cluster's L2. */
static struct pg_cache_info board[] = {
	{ 1, "Data", 32 * KIB, 64, "0", 4 },
	{ 1, "Instruction", 64 * KIB, 64, "0", 4 },	/* larger, and not data */
	{ 2, "Unified", 512 * KIB, 64, "0-3", 1 },
};

static void machine(struct pg_machine *m, const char *virt, struct pg_cache_info *c, int n)
{
	memset(m, 0, sizeof(*m));
	strcpy(m->virt, virt);
	m->cache = c;
	m->ncache = n;
}

static void test_inner_and_last_level(void **state)
{
	(void)state;
	struct pg_machine m;
	machine(&m, "kvm", epyc, 4);
	assert_int_equal(pg_machine_llc(&m), 32 * MIB);
	assert_int_equal(pg_machine_inner_cache(&m), 1 * MIB);
	machine(&m, "none", board, 3);
	assert_int_equal(pg_machine_llc(&m), 512 * KIB);
	assert_int_equal(pg_machine_inner_cache(&m), 32 * KIB);
	machine(&m, "kvm", board + 2, 1);	/* one level only: nothing inner */
	assert_int_equal(pg_machine_inner_cache(&m), 0);
}

static void test_virtual_machine_working_sets(void **state)
{
	(void)state;
	struct pg_machine m;
	machine(&m, "kvm", epyc, 4);
	assert_int_equal(pg_machine_llc_shared(&m), 1);
	assert_false(pg_mem_tenants_decide(&m, 256 * KIB));	/* the core's own L2 */
	assert_false(pg_mem_tenants_decide(&m, 1 * MIB));
	assert_true(pg_mem_tenants_decide(&m, 1 * MIB + 4096));
	assert_true(pg_mem_tenants_decide(&m, 4 * MIB));	/* mem.lat.rand 4m */
	assert_true(pg_mem_tenants_decide(&m, 32 * MIB));	/* mem.bw.bcopy 16m: two buffers */
	assert_false(pg_mem_tenants_decide(&m, 128 * MIB));	/* memory: STREAM's 4x the LLC */
	machine(&m, "qemu-user", epyc, 4);
	assert_true(pg_mem_tenants_decide(&m, 4 * MIB));
}

static void test_own_cache_is_gated(void **state)
{
	(void)state;
	struct pg_machine m;
	machine(&m, "none", epyc, 4);	/* the same caches, no hypervisor */
	assert_int_equal(pg_machine_llc_shared(&m), 0);
	assert_false(pg_mem_tenants_decide(&m, 4 * MIB));
	machine(&m, "container", epyc, 4);	/* the host's own processes: others_pct sees them */
	assert_false(pg_mem_tenants_decide(&m, 4 * MIB));
	machine(&m, "", epyc, 4);	/* not known */
	assert_false(pg_mem_tenants_decide(&m, 4 * MIB));
	machine(&m, "kvm", NULL, 0);	/* sysfs says nothing of caches */
	assert_false(pg_mem_tenants_decide(&m, 4 * MIB));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inner_and_last_level),
		cmocka_unit_test(test_virtual_machine_working_sets),
		cmocka_unit_test(test_own_cache_is_gated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
