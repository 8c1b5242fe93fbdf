/* SPDX-License-Identifier: MIT */
/*
 * Core names and clusters read from fake /proc and /sys trees of real
 * boards. The trees are written here from the kernel's documented formats
 * (Documentation/ABI/stable/sysfs-devices-system-cpu, the cpufreq and
 * device-tree bindings, arm64's /proc/cpuinfo) and the boards' public
 * data sheets (their cores, clock domains and device-tree names); no file
 * is copied from a board.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/cpu_names.h"
#include "core/sysinfo.h"

static char root[256];

static void put(const char *path, const char *data, size_t len)
{
	char full[512], dir[512];
	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(dir, sizeof(dir), "%s", full);
	for (char *p = dir + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
	FILE *f = fopen(full, "w");
	assert_non_null(f);
	fwrite(data, 1, len, f);
	fclose(f);
}

static void putf(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(const char *path, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put(path, buf, strlen(buf));
}

/* One board: its cores (arm64 /proc/cpuinfo, one block per CPU), the device
 * tree's model and compatible (NUL-separated, as the kernel shows them),
 * cpufreq policies and the topology directory of each CPU. */
struct core_spec {
	int first, last;		/* CPUs first..last have this core */
	const char *part, *variant, *revision;
};
struct policy_spec {
	int first;			/* policyN, N its first CPU */
	const char *related;		/* "0 1 2 3", as cpufreq prints it */
	long min_khz, max_khz;
};
struct board {
	const char *model, *compat;
	size_t compat_len;
	struct core_spec cores[3];
	struct policy_spec policies[3];
	/* per CPU: physical_package_id and cluster_id; -2 leaves the file out */
	int package[8], cluster[8];
};

static void write_board(const struct board *b)
{
	char cpuinfo[4096];
	size_t at = 0;
	for (const struct core_spec *c = b->cores; c->part; c++)
		for (int cpu = c->first; cpu <= c->last; cpu++)
			at += (size_t)snprintf(cpuinfo + at, sizeof(cpuinfo) - at,
					       "processor\t: %d\nBogoMIPS\t: 48.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\n"
					       "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: %s\n"
					       "CPU part\t: %s\nCPU revision\t: %s\n\n",
					       cpu, c->variant, c->part, c->revision);
	put("/proc/cpuinfo", cpuinfo, at);
	putf("/proc/device-tree/model", "%s%c", b->model, 0);
	put("/proc/device-tree/compatible", b->compat, b->compat_len);
	for (const struct policy_spec *p = b->policies; p->related; p++) {
		char dir[96], f[160];
		snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpufreq/policy%d", p->first);
		snprintf(f, sizeof(f), "%s/related_cpus", dir);
		putf(f, "%s \n", p->related);
		snprintf(f, sizeof(f), "%s/scaling_governor", dir);
		putf(f, "schedutil\n");
		snprintf(f, sizeof(f), "%s/scaling_min_freq", dir);
		putf(f, "%ld\n", p->min_khz);
		snprintf(f, sizeof(f), "%s/scaling_max_freq", dir);
		putf(f, "%ld\n", p->max_khz);
	}
	for (const struct core_spec *c = b->cores; c->part; c++)
		for (int cpu = c->first; cpu <= c->last; cpu++) {
			char f[128];
			if (b->package[cpu] != -2) {
				snprintf(f, sizeof(f), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
				putf(f, "%d\n", b->package[cpu]);
			}
			if (b->cluster[cpu] != -2) {
				snprintf(f, sizeof(f), "/sys/devices/system/cpu/cpu%d/topology/cluster_id", cpu);
				putf(f, "%d\n", b->cluster[cpu]);
			}
		}
}

/* Reads the board from a fresh fake root. */
static void read_board(const struct board *b, struct pg_machine *m)
{
	snprintf(root, sizeof(root), "/tmp/pg-cpu-names-XXXXXX");
	assert_non_null(mkdtemp(root));
	write_board(b);
	pg_sysinfo_set_root(root);
	pg_machine_read(m);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	pg_sysinfo_set_root(NULL);
}

#define COMPAT(lit) lit, sizeof(lit) - 1

/* TI AM62x starter kit: four Cortex-A53 in one cluster, one clock. */
static void am62x_four_a53_one_cluster(void **state)
{
	(void)state;
	static const struct board am62x = {
		"Texas Instruments AM625 SK", COMPAT("ti,am625-sk\0ti,am625\0"),
		{ { 0, 3, "0xd03", "0x0", "4" } },
		{ { 0, "0 1 2 3", 200000, 1400000 } },
		{ 0, 0, 0, 0 }, { 0, 0, 0, 0 },
	};
	struct pg_machine m;
	read_board(&am62x, &m);
	assert_string_equal(m.board, "Texas Instruments AM625 SK");
	assert_string_equal(m.dt_compatible, "ti,am625-sk,ti,am625");
	assert_int_equal(m.ncpu, 4);
	for (int i = 0; i < 4; i++) {
		assert_string_equal(m.cpu[i].core, "Cortex-A53");
		assert_string_equal(m.cpu[i].model, "ARM Cortex-A53 r0p4");
		assert_int_equal(m.cpu[i].cluster, 0);
	}
	assert_int_equal(m.ncluster, 1);
	assert_int_equal(m.npolicy, 1);
	assert_int_equal(m.policy[0].max_khz, 1400000);
	pg_machine_free(&m);
}

/* TI J721E (TDA4VM) starter kit: two Cortex-A72. */
static void j721e_two_a72(void **state)
{
	(void)state;
	static const struct board j721e = {
		"Texas Instruments J721E SK", COMPAT("ti,j721e-sk\0ti,j721e\0"),
		{ { 0, 1, "0xd08", "0x0", "3" } },
		{ { 0, "0 1", 200000, 2000000 } },
		{ 0, 0 }, { 0, 0 },
	};
	struct pg_machine m;
	read_board(&j721e, &m);
	assert_int_equal(m.ncpu, 2);
	assert_string_equal(m.cpu[0].core, "Cortex-A72");
	assert_string_equal(m.cpu[1].model, "ARM Cortex-A72 r0p3");
	assert_int_equal(m.cpu[1].cluster, 0);
	assert_int_equal(m.ncluster, 1);
	pg_machine_free(&m);
}

/* Rockchip RK3399 (big.LITTLE): four Cortex-A53 and two Cortex-A72, a
 * clock each (policy0, policy4). Three kernels' views of it must give the
 * same two clusters: a current one (package 0, cluster_id 0 and 1), an old
 * arm64 one (the cluster shown as the package, no cluster_id) and one
 * with no topology at all (the policies and cores alone). */
static void rk3399_big_little(void **state)
{
	(void)state;
	static const struct board views[] = {
		{ "Pine64 RockPro64 v2.1", COMPAT("pine64,rockpro64-v2.1\0pine64,rockpro64\0rockchip,rk3399\0"),
		  { { 0, 3, "0xd03", "0x0", "4" }, { 4, 5, "0xd08", "0x0", "2" } },
		  { { 0, "0 1 2 3", 408000, 1416000 }, { 4, "4 5", 408000, 1800000 } },
		  { 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 1, 1 } },
		{ "Pine64 RockPro64 v2.1", COMPAT("pine64,rockpro64-v2.1\0rockchip,rk3399\0"),
		  { { 0, 3, "0xd03", "0x0", "4" }, { 4, 5, "0xd08", "0x0", "2" } },
		  { { 0, "0 1 2 3", 408000, 1416000 }, { 4, "4 5", 408000, 1800000 } },
		  { 0, 0, 0, 0, 1, 1 }, { -2, -2, -2, -2, -2, -2 } },
		{ "Pine64 RockPro64 v2.1", COMPAT("rockchip,rk3399\0"),
		  { { 0, 3, "0xd03", "0x0", "4" }, { 4, 5, "0xd08", "0x0", "2" } },
		  { { 0, "0 1 2 3", 408000, 1416000 }, { 4, "4 5", 408000, 1800000 } },
		  { -2, -2, -2, -2, -2, -2 }, { -2, -2, -2, -2, -2, -2 } },
	};
	for (size_t v = 0; v < sizeof(views) / sizeof(views[0]); v++) {
		struct pg_machine m;
		read_board(&views[v], &m);
		assert_int_equal(m.ncpu, 6);
		assert_int_equal(m.ncluster, 2);
		for (int i = 0; i < 6; i++) {
			assert_string_equal(m.cpu[i].core, i < 4 ? "Cortex-A53" : "Cortex-A72");
			assert_int_equal(m.cpu[i].cluster, i < 4 ? 0 : 1);
		}
		assert_int_equal(m.npolicy, 2);
		assert_string_equal(m.policy[1].name, "policy4");
		pg_machine_free(&m);
	}
}

/* Raspberry Pi 4: four Cortex-A72 on one clock; a kernel that shows no
 * cluster_id (the file absent) still gives one cluster. */
static void rpi4_four_a72(void **state)
{
	(void)state;
	static const struct board rpi4 = {
		"Raspberry Pi 4 Model B Rev 1.4", COMPAT("raspberrypi,4-model-b\0brcm,bcm2711\0"),
		{ { 0, 3, "0xd08", "0x0", "3" } },
		{ { 0, "0 1 2 3", 600000, 1500000 } },
		{ 0, 0, 0, 0 }, { -2, -2, -2, -2 },
	};
	struct pg_machine m;
	read_board(&rpi4, &m);
	assert_string_equal(m.board, "Raspberry Pi 4 Model B Rev 1.4");
	assert_int_equal(m.ncluster, 1);
	assert_string_equal(m.cpu[3].core, "Cortex-A72");
	assert_int_equal(m.cpu[3].cluster, 0);
	pg_machine_free(&m);
}

/* A machine that shows cores but nothing to group them by is given no
 * clusters rather than made-up ones. An x86 /proc/cpuinfo has no part. */
static void no_topology_no_clusters(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/pg-cpu-names-XXXXXX");
	assert_non_null(mkdtemp(root));
	static const char x86[] = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Some CPU\n\n"
				  "processor\t: 1\nvendor_id\t: GenuineIntel\nmodel name\t: Some CPU\n\n";
	put("/proc/cpuinfo", x86, sizeof(x86) - 1);
	pg_sysinfo_set_root(root);
	struct pg_machine m;
	pg_machine_read(&m);
	assert_int_equal(m.ncpu, 2);
	assert_string_equal(m.cpu[0].core, "");
	assert_int_equal(m.cpu[0].cluster, -1);
	assert_int_equal(m.ncluster, 0);
	pg_machine_free(&m);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	pg_sysinfo_set_root(NULL);
}

/* A 32-bit ARM kernel's /proc/cpuinfo (an i.MX6 Quad: four Cortex-A9):
 * "model name" says only "ARMv7 Processor", the part says the core. */
static void armv7_cpuinfo(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/pg-cpu-names-XXXXXX");
	assert_non_null(mkdtemp(root));
	char info[2048];
	size_t at = 0;
	for (int cpu = 0; cpu < 4; cpu++)
		at += (size_t)snprintf(info + at, sizeof(info) - at,
				       "processor\t: %d\nmodel name\t: ARMv7 Processor rev 10 (v7l)\n"
				       "BogoMIPS\t: 6.00\nFeatures\t: half thumb fastmult vfp edsp neon vfpv3 tls\n"
				       "CPU implementer\t: 0x41\nCPU architecture: 7\nCPU variant\t: 0x2\n"
				       "CPU part\t: 0xc09\nCPU revision\t: 10\n\n", cpu);
	at += (size_t)snprintf(info + at, sizeof(info) - at,
			       "Hardware\t: Freescale i.MX6 Quad/DualLite (Device Tree)\nRevision\t: 0000\n");
	put("/proc/cpuinfo", info, at);
	for (int cpu = 0; cpu < 4; cpu++) {
		char f[128];
		snprintf(f, sizeof(f), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		putf(f, "0\n");
	}
	pg_sysinfo_set_root(root);
	struct pg_machine m;
	pg_machine_read(&m);
	assert_int_equal(m.ncpu, 4);
	assert_string_equal(m.cpu[2].core, "Cortex-A9");
	assert_string_equal(m.cpu[2].model, "ARM Cortex-A9 r2p10");
	assert_int_equal(m.ncluster, 1);
	pg_machine_free(&m);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	pg_sysinfo_set_root(NULL);
}

/* The MIDR table: Arm's cores, another implementer's, and numbers that
 * are not in it stay unnamed. */
static void midr_parts(void **state)
{
	(void)state;
	assert_string_equal(pg_arm_core(0x41, 0xd03), "Cortex-A53");
	assert_string_equal(pg_arm_core(0x41, 0xd05), "Cortex-A55");
	assert_string_equal(pg_arm_core(0x41, 0xd0b), "Cortex-A76");
	assert_string_equal(pg_arm_core(0x41, 0xd0c), "Neoverse-N1");
	assert_string_equal(pg_arm_core(0x41, 0xc09), "Cortex-A9");
	assert_string_equal(pg_arm_core(0x51, 0x805), "Kryo-4XX-Silver");
	assert_string_equal(pg_arm_implementer(0x41), "ARM");
	assert_null(pg_arm_core(0x41, 0xfff));
	assert_null(pg_arm_core(0x99, 0xd03));
	assert_null(pg_arm_implementer(0x99));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(am62x_four_a53_one_cluster),
		cmocka_unit_test(j721e_two_a72),
		cmocka_unit_test(rk3399_big_little),
		cmocka_unit_test(rpi4_four_a72),
		cmocka_unit_test(no_topology_no_clusters),
		cmocka_unit_test(armv7_cpuinfo),
		cmocka_unit_test(midr_parts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
