/* SPDX-License-Identifier: MIT */
/* What the machine did during a sample, and whether it is virtual or
 * emulated, read from fake /proc and /sys trees. */
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

#include "core/env.h"
#include "core/sysinfo.h"
#include "fake_root.h"

static int make_root(void **state)
{
	(void)state;
	fake_root_make("env");
	return 0;
}

static int remove_root(void **state)
{
	(void)state;
	fake_root_remove();
	return 0;
}

#define POL "/sys/devices/system/cpu/cpufreq/policy0/"
#define COOL "/sys/class/thermal/cooling_device"

/* A two-CPU board: one cpufreq policy, a CPU cooling device and a fan, a
 * thermal zone, a cgroup v2 tree with a quota at two levels. */
static void board(void)
{
	PUTS("/proc/stat", "cpu  1000 0 500 8000 0 0 0 100 0 0\ncpu0 500 0 250 4000 0 0 0 50 0 0\n");
	PUTS(POL "scaling_cur_freq", "1200000\n");
	PUTS(POL "scaling_max_freq", "1800000\n");
	PUTS(COOL "0/type", "thermal-cpufreq-0\n");
	PUTS(COOL "0/cur_state", "0\n");
	PUTS(COOL "0/stats/time_in_state_ms", "state0 100\nstate1 0\nstate2 0\n");
	PUTS(COOL "1/type", "Fan\n");
	PUTS(COOL "1/cur_state", "3\n");
	PUTS("/sys/class/thermal/thermal_zone0/temp", "45000\n");
	PUTS("/sys/class/thermal/thermal_zone0/type", "cpu-thermal\n");
	PUTS("/proc/self/cgroup", "0::/a/b\n");
	PUTS("/sys/fs/cgroup/a/b/cpu.stat", "usage_usec 5\nnr_periods 3\nnr_throttled 2\nthrottled_usec 9\n");
	PUTS("/sys/fs/cgroup/a/cpu.stat", "usage_usec 9\nnr_periods 3\nnr_throttled 1\n");
}

static void finds_what_is_there(void **state)
{
	(void)state;
	board();
	struct pg_env e;
	pg_env_open(&e);
	assert_int_equal(e.npolicy, 1);
	assert_int_equal(e.ncool, 1);	/* the fan is no throttle */
	assert_int_equal(e.cool[0], 0);
	assert_int_equal(e.cool_stats[0], 1);
	assert_int_equal(e.nzone, 1);
	assert_int_equal(e.ncg, 2);
	assert_string_equal(e.cg[0], "/sys/fs/cgroup/a/b/cpu.stat");
	struct pg_env_mark m;
	pg_env_mark(&e, &m);
	assert_true(m.have_stat && m.have_freq && m.have_cool && m.have_temp && m.have_cg);
	assert_float_equal(m.busy_s, 1500.0 / e.hz, 1e-9);
	assert_float_equal(m.steal_s, 100.0 / e.hz, 1e-9);
	assert_int_equal(m.freq_lo, 1200000);
	assert_int_equal(m.cap[0], 1800000);
	assert_int_equal(m.cool_active, 0);
	assert_int_equal(m.temp_mc, 45000);
	assert_int_equal(m.cg_throttled, 3);	/* summed up the tree */
}

/* Others took a third of the CPUs, the cooling device throttled, the cap
 * fell and the quota throttled: every reason, in JSON and in words. */
static void a_disturbed_sample(void **state)
{
	(void)state;
	board();
	struct pg_env e;
	pg_env_open(&e);
	struct pg_env_mark base, a, b;
	pg_env_mark(&e, &base);
	a = base;
	PUTS("/proc/stat", "cpu  1150 0 550 8100 0 0 0 100 0 0\n");
	PUTS(COOL "0/stats/time_in_state_ms", "state0 100\nstate1 50\nstate2 0\n");
	PUTS(POL "scaling_max_freq", "1200000\n");
	PUTS("/sys/fs/cgroup/a/b/cpu.stat", "nr_throttled 5\n");
	pg_env_mark(&e, &b);
	/* 1.5 s on two CPUs (300 ticks); 200 busy, 100 of them this process */
	b.t = a.t + 1.5;
	b.self_s = a.self_s + 100.0 / e.hz;
	struct pg_env_seen s, r = { 0 };
	pg_env_diff(&e, &a, &b, &base, &s);
	assert_true(s.have_cpu);
	assert_float_equal(s.others_max, 1.0 / 3, 1e-9);
	assert_int_equal(s.why, PG_ENV_OTHERS | PG_ENV_THERMAL | PG_ENV_CGROUP);
	assert_int_equal(s.cap_lo, 1200000);
	assert_int_equal(s.cg_throttled, 3);	/* 2 + 1 to 5 + 1 */
	pg_env_add(&r, &s);
	r.dropped = 2;
	assert_true(pg_env_judge(&r));
	char json[1024], why[512], brief[64];
	pg_env_json(&r, json, sizeof(json));
	assert_non_null(strstr(json, "\"others_pct\":33.33"));
	assert_non_null(strstr(json, "\"freq_cap_khz\":1200000,\"freq_cap_start_khz\":1800000"));
	assert_non_null(strstr(json, "\"cgroup_throttled\":3"));
	assert_non_null(strstr(json, "\"dropped_samples\":2"));
	assert_non_null(strstr(json, "\"temp_max_mc\":45000"));
	pg_env_why(&r, why, sizeof(why));
	assert_non_null(strstr(why, "other processes used 33% of the CPUs"));
	assert_non_null(strstr(why, "the CPU frequency cap fell from 1800 to 1200 MHz"));
	assert_non_null(strstr(why, "the cgroup's CPU quota throttled it 3 times"));
	pg_env_short(&r, brief, sizeof(brief));
	assert_string_equal(brief, "others 33%, thermal, cgroup quota");
}

/* A few ticks of others are what /proc/stat's resolution leaves open: not
 * disturbed; steal beyond it is. */
static void quiet_and_steal(void **state)
{
	(void)state;
	board();
	struct pg_env e;
	pg_env_open(&e);
	struct pg_env_mark a, b;
	pg_env_mark(&e, &a);
	/* 0.1 s on two CPUs: 20 ticks, 12 busy, 10 of them ours, 2 stolen... */
	PUTS("/proc/stat", "cpu  1008 0 504 8008 0 0 0 100 0 0\n");
	pg_env_mark(&e, &b);
	b.t = a.t + 0.1;
	b.self_s = a.self_s + 10.0 / e.hz;
	struct pg_env_seen s;
	pg_env_diff(&e, &a, &b, NULL, &s);
	assert_int_equal(s.why, 0);
	PUTS("/proc/stat", "cpu  1008 0 504 8000 0 0 0 108 0 0\n");
	pg_env_mark(&e, &b);
	b.t = a.t + 0.1;
	b.self_s = a.self_s + 12.0 / e.hz;
	pg_env_diff(&e, &a, &b, NULL, &s);
	assert_int_equal(s.why, PG_ENV_STEAL);
	/* a sample too short for a tick is watched and saw nothing: summed
	 * with the stolen one, the result is still judged (steal 8 of 20) */
	struct pg_env_seen none, r = { 0 };
	struct pg_env_mark c = a;
	c.t = a.t + 0.001;
	pg_env_diff(&e, &a, &c, NULL, &none);
	assert_true(none.have_cpu);
	assert_int_equal(none.why, 0);
	assert_float_equal(none.total_s, 0, 0);
	pg_env_add(&r, &none);
	pg_env_add(&r, &s);
	assert_true(r.have_cpu);
	assert_true(pg_env_judge(&r));
	assert_int_equal(r.why & PG_ENV_STEAL, PG_ENV_STEAL);
	/* a fake tree without /proc/stat: nothing said, nothing disturbed */
	PUTS("/proc/stat", "");
	pg_env_mark(&e, &b);
	pg_env_diff(&e, &a, &b, NULL, &s);
	assert_false(s.have_cpu);
	assert_int_equal(s.why & (PG_ENV_OTHERS | PG_ENV_STEAL), 0);
}

/* The speed probe: a result whose probe ran below PG_ENV_SLOW_SHARE of
 * the run's start is disturbed and says so; none without a start. */
static void speed_probe(void **state)
{
	(void)state;
	struct pg_env e;
	memset(&e, 0, sizeof(e));
	struct pg_env_seen r = { 0 };
	assert_float_equal(pg_env_probe(&e, &r), 0, 0);	/* not probed at the start */
	assert_float_equal(r.speed, 0, 0);
	pg_env_probe_start(&e);
	assert_true(e.probe_ref > 0);
	double ref = e.probe_ref;
	/* a start 10x faster than now: the CPU at a tenth of its speed */
	e.probe_ref = 10 * ref;
	double share = pg_env_probe(&e, &r);
	assert_true(share > 0 && share < PG_ENV_SLOW_SHARE);
	assert_float_equal(r.speed, share, 0);
	/* a later, faster probe does not hide the slow one */
	e.probe_ref = ref / 10;
	assert_true(pg_env_probe(&e, &r) > 1);
	assert_float_equal(r.speed, share, 0);
	r.n = 2;
	assert_true(pg_env_judge(&r));
	assert_int_equal(r.why, PG_ENV_SLOW);
	char json[512], why[512], brief[64];
	pg_env_json(&r, json, sizeof(json));
	assert_non_null(strstr(json, "\"speed_pct\":"));
	pg_env_why(&r, why, sizeof(why));
	assert_non_null(strstr(why, "of its speed at the run's start"));
	pg_env_short(&r, brief, sizeof(brief));
	assert_non_null(strstr(brief, "slow "));
	/* merged: the slowest of two */
	struct pg_env_seen m = { 0 }, fast = { .speed = 0.97 };
	pg_env_add(&m, &fast);
	pg_env_add(&m, &r);
	assert_float_equal(m.speed, share, 0);
	assert_false(pg_env_judge(&fast));
	pg_env_close(&e);
}

/* The cache probe: made where sysfs gives the last-level cache's size, a
 * walk over a quarter of it; the result keeps the slowest walk for
 * compare, and is not disturbed by it; none without a size. */
static void cache_probe(void **state)
{
	(void)state;
	struct pg_env e;
	memset(&e, 0, sizeof(e));
	pg_env_probe_start(&e);		/* no cache in the fake tree: no probe */
	assert_null(e.cache_walk);
	struct pg_env_seen r = { 0 };
	assert_float_equal(pg_env_cache_probe(&e, &r), 0, 0);
	PUT("/sys/devices/system/cpu/cpu0/cache/index0/size", "32K\n");
	PUT("/sys/devices/system/cpu/cpu0/cache/index3/size", "4096K\n");
	pg_env_probe_start(&e);
	assert_non_null(e.cache_walk);
	assert_int_equal(e.cache_loads, (1u << 20) / 64);	/* a quarter of 4 MiB, a load a line */
	/* a load from any level takes more than a tenth of a nanosecond, and
	 * less than a millisecond: the walk was done, not optimised away */
	assert_true(e.cache_ref_ns > 0.1 && e.cache_ref_ns < 1e6);
	double a = pg_env_cache_probe(&e, &r), b = pg_env_cache_probe(&e, &r);
	assert_true(a > 0.1 && b > 0.1);
	assert_float_equal(r.cache_ns, a > b ? a : b, 0);
	r.n = 1;
	e.cache_ref_ns /= 100;	/* a start far faster than now: still not disturbed */
	pg_env_cache_probe(&e, &r);
	assert_false(pg_env_judge(&r));
	char json[512];
	pg_env_json(&r, json, sizeof(json));
	assert_non_null(strstr(json, "\"cache_ns\":"));
	pg_env_close(&e);
	assert_null(e.cache_walk);
	/* the later tests' board has no cache sizes */
	char path[400];
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu0/cache/index0/size", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu0/cache/index3/size", root);
	unlink(path);
}

/* The CPU time of this process's descendants (a peer it forked) is its
 * own, not another process's. */
static void descendants_count_as_self(void **state)
{
	(void)state;
	board();
	char path[64], line[256];
	int me = (int)getpid();
	snprintf(path, sizeof(path), "/proc/%d/stat", me + 100000);
	snprintf(line, sizeof(line), "%d (peer (x)) S %d 1 1 0 -1 0 0 0 0 0 30 20 5 5 20 0\n", me + 100000, me);
	PUTS(path, line);
	snprintf(path, sizeof(path), "/proc/%d/stat", me + 100001);
	snprintf(line, sizeof(line), "%d (grandchild) R %d 1 1 0 -1 0 0 0 0 0 10 0 0 0 20 0\n", me + 100001, me + 100000);
	PUTS(path, line);
	PUTS("/proc/1/stat", "1 (init) S 0 1 1 0 -1 0 0 0 0 0 5000 5000 0 0 20 0\n");
	struct pg_env e;
	pg_env_open(&e);
	struct pg_env_mark m;
	pg_env_mark(&e, &m);
	assert_int_equal(m.ndesc, 2);
	struct pg_env_mark m2;
	snprintf(path, sizeof(path), "/proc/%d/stat", me + 100001);
	snprintf(line, sizeof(line), "%d (grandchild) R %d 1 1 0 -1 0 0 0 0 0 60 0 0 0 20 0\n", me + 100001, me + 100000);
	PUTS(path, line);
	pg_env_mark(&e, &m2);
	/* 50 more ticks in the grandchild, and a little of this process's own */
	assert_true(m2.self_s - m.self_s >= 50.0 / e.hz);
	assert_true(m2.self_s - m.self_s < 50.0 / e.hz + 0.5);
}

/* Virtual, emulated, in a container; the thermal zones at the start. */
static void virt_and_identity(void **state)
{
	(void)state;
	board();
	struct pg_machine m;
	pg_machine_read(&m);
	assert_string_equal(m.virt, "none");
	assert_false(m.emulated);
	assert_int_equal(m.nthermal, 1);
	assert_string_equal(m.thermal[0].type, "cpu-thermal");
	assert_int_equal(m.thermal[0].temp_mc, 45000);
	pg_machine_free(&m);

	PUTS(POL "cpuinfo_max_freq", "2000000\n");
	PUTS(POL "cpuinfo_min_freq", "400000\n");
	PUTS("/sys/class/dmi/id/sys_vendor", "QEMU\n");
	PUTS("/.dockerenv", "");
	pg_machine_read(&m);
	assert_string_equal(m.virt, "qemu");
	assert_string_equal(m.container, "docker");
	assert_int_equal(m.policy[0].cpuinfo_max_khz, 2000000);
	assert_int_equal(m.policy[0].cpuinfo_min_khz, 400000);
	pg_machine_free(&m);

	PUTS("/sys/hypervisor/type", "xen\n");
	pg_machine_read(&m);
	assert_string_equal(m.virt, "xen");
	pg_machine_free(&m);

	/* /proc/cpuinfo of another architecture than this binary's: qemu-user */
	int x86 = strcmp(pg_binary_arch(), "x86_64") == 0 || strcmp(pg_binary_arch(), "i686") == 0;
	PUTS("/proc/cpuinfo", x86 ? "processor\t: 0\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n"
				   "CPU architecture: 8\nCPU part\t: 0xd03\n"
				 : "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu vme lm\n");
	pg_machine_read(&m);
	assert_string_equal(m.virt, "qemu-user");
	assert_true(m.emulated);
	assert_string_equal(m.kernel_arch, x86 ? "aarch64" : "x86_64");
	pg_machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_what_is_there),
		cmocka_unit_test(a_disturbed_sample),
		cmocka_unit_test(quiet_and_steal),
		cmocka_unit_test(speed_probe),
		cmocka_unit_test(cache_probe),
		cmocka_unit_test(descendants_count_as_self),
		cmocka_unit_test(virt_and_identity),
	};
	return cmocka_run_group_tests(tests, make_root, remove_root);
}
