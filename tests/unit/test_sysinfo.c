/* SPDX-License-Identifier: MIT */
/* Machine identity read from a fake board's /proc and /sys, and from none. */
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

#include "core/cpuload.h"
#include "core/sysinfo.h"
#include "fake_root.h"


static const char cpuinfo[] =
	"processor\t: 0\nBogoMIPS\t: 400.00\nCPU implementer\t: 0x41\nCPU architecture: 8\n"
	"CPU variant\t: 0x0\nCPU part\t: 0xd03\nCPU revision\t: 4\n\n"
	"processor\t: 1\nCPU implementer\t: 0x41\nCPU architecture: 8\n"
	"CPU variant\t: 0x1\nCPU part\t: 0xd08\nCPU revision\t: 2\n\n";

static int make_board(void **state)
{
	(void)state;
	fake_root_make("sysinfo");
	PUT("/proc/cpuinfo", cpuinfo);
	/* device-tree strings keep their NULs */
	PUT("/proc/device-tree/model", "Texas Instruments AM625 SK\0");
	PUT("/proc/device-tree/compatible", "ti,am625-sk\0ti,am625\0");
	PUT("/proc/meminfo", "MemTotal:        2000000 kB\nMemFree:  100 kB\nMemAvailable:    1500000 kB\n");
	PUT("/proc/cmdline", "console=ttyS2,115200n8 root=/dev/mmcblk1p2\n");
	PUT("/sys/devices/system/cpu/cpufreq/policy0/related_cpus", "0 1\n");
	PUT("/sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "performance\n");
	PUT("/sys/devices/system/cpu/cpufreq/policy0/scaling_min_freq", "200000\n");
	PUT("/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq", "1400000\n");
	PUT("/sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", "1400000\n");
	for (int cpu = 0; cpu < 2; cpu++) {
		char p[128], v[16];
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cache/index0/size", cpu);
		put(p, "32K\n", 4);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cache/index0/level", cpu);
		put(p, "1\n", 2);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cache/index0/type", cpu);
		put(p, "Data\n", 5);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cache/index0/shared_cpu_list", cpu);
		snprintf(v, sizeof(v), "%d\n", cpu);
		put(p, v, strlen(v));
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cache/index1/size", cpu);
		put(p, "512K\n", 5);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cache/index1/level", cpu);
		put(p, "2\n", 2);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cache/index1/type", cpu);
		put(p, "Unified\n", 8);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cache/index1/shared_cpu_list", cpu);
		put(p, "0-1\n", 4);
	}
	pg_sysinfo_set_root(root);
	return 0;
}

static int remove_board(void **state)
{
	(void)state;
	fake_root_remove();
	return 0;
}

static void reads_an_arm_board(void **state)
{
	(void)state;
	struct pg_machine m;
	pg_machine_read(&m);
	assert_string_equal(m.board, "Texas Instruments AM625 SK");
	assert_string_equal(m.board_source, "device-tree");
	assert_string_equal(m.dt_compatible, "ti,am625-sk,ti,am625");
	assert_int_equal(m.ncpu, 2);
	assert_string_equal(m.cpu[0].part, "0xd03");
	assert_string_equal(m.cpu[0].model, "ARM Cortex-A53 r0p4");
	assert_string_equal(m.cpu[1].model, "ARM Cortex-A72 r1p2");
	assert_int_equal(m.npolicy, 1);
	assert_string_equal(m.policy[0].governor, "performance");
	assert_int_equal(m.policy[0].max_khz, 1400000);
	assert_string_equal(m.policy[0].cpus, "0 1");
	assert_int_equal(m.mem_total, 2000000LL * 1024);
	assert_int_equal(m.mem_available, 1500000LL * 1024);
	assert_string_equal(m.cmdline, "console=ttyS2,115200n8 root=/dev/mmcblk1p2");
	/* L1 twice (one per core), the shared L2 once */
	if (m.cpus_configured >= 2) {
		assert_int_equal(m.ncache, 2);
		assert_int_equal(m.cache[0].level, 1);
		assert_int_equal(m.cache[0].count, 2);
		assert_int_equal(m.cache[0].size, 32 * 1024);
		assert_int_equal(m.cache[1].count, 1);
		assert_int_equal(pg_machine_llc(&m), 512 * 1024);
	}
	pg_machine_free(&m);
}

static void an_empty_machine_is_not_an_error(void **state)
{
	(void)state;
	pg_sysinfo_set_root("/nonexistent-perfguide-root");
	struct pg_machine m;
	pg_machine_read(&m);
	assert_string_equal(m.board_source, "hostname");
	assert_true(strlen(m.board) > 0);
	assert_int_equal(m.ncpu, 0);
	assert_int_equal(m.npolicy, 0);
	assert_int_equal(m.ncache, 0);
	assert_int_equal(m.mem_total, 0);
	assert_int_equal(pg_machine_llc(&m), 0);
	assert_true(strlen(m.compiler) > 0);
	pg_machine_free(&m);
	pg_sysinfo_set_root(root);
}

static void proc_stat_busy_share(void **state)
{
	(void)state;
	unsigned long long busy, total;
	assert_int_equal(pg_cpu_parse_stat("cpu  100 5 50 800 40 3 2 0 0 0\n", &busy, &total), 0);
	assert_int_equal(total, 1000);
	assert_int_equal(busy, 160);	/* all but idle and iowait */
	assert_int_equal(pg_cpu_parse_stat("cpu0 1 2 3 4\n", &busy, &total), -1);
	assert_int_equal(pg_cpu_parse_stat("intr 5\n", &busy, &total), -1);

	struct pg_cpu_mark a = { .busy = 100, .total = 1000, .user_s = 1.0, .sys_s = 0.5 };
	struct pg_cpu_mark b = { .busy = 175, .total = 1100, .user_s = 1.25, .sys_s = 0.5 };
	struct pg_cpu_load l;
	pg_cpu_load(&a, &b, &l);
	assert_true(l.have_busy);
	assert_float_equal(l.busy_pct, 75, 1e-9);
	assert_float_equal(l.self_user_s, 0.25, 1e-9);
	/* this process's share: 0.25 s of the 100 ticks' CPU time (all CPUs) */
	long hz = sysconf(_SC_CLK_TCK);
	assert_float_equal(l.self_pct, 100 * 0.25 / (100.0 / (double)(hz > 0 ? hz : 100)), 1e-9);
	struct pg_cpu_mark none = { 0 };
	pg_cpu_load(&none, &none, &l);
	assert_false(l.have_busy);
}

/* x86's /proc/cpuinfo says each CPU's clock ("cpu MHz"): the machine table
 * shows it where there is no cpufreq; ARM's says none. */
static void reads_cpu_mhz(void **state)
{
	(void)state;
	struct pg_machine m;
	pg_machine_read(&m);
	assert_true(m.cpu[0].mhz == 0);
	pg_machine_free(&m);
	PUT("/proc/cpuinfo", "processor\t: 0\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 2596.142\n\n"
			     "processor\t: 1\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 1400.000\n\n");
	pg_machine_read(&m);
	assert_int_equal(m.ncpu, 2);
	assert_float_equal(m.cpu[0].mhz, 2596.142, 1e-9);
	assert_float_equal(m.cpu[1].mhz, 1400, 1e-9);
	pg_machine_free(&m);
	PUT("/proc/cpuinfo", cpuinfo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_an_arm_board),
		cmocka_unit_test(an_empty_machine_is_not_an_error),
		cmocka_unit_test(proc_stat_busy_share),
		cmocka_unit_test(reads_cpu_mhz),
	};
	return cmocka_run_group_tests(tests, make_board, remove_board);
}
