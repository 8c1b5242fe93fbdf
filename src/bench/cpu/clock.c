/* SPDX-License-Identifier: MIT */
/*
 * The CPU's clock, for figures per MHz (DMIPS/MHz).
 *
 * cpufreq's maximum for the policy the benchmark runs on, when the governor
 * holds the clock there (performance, or a policy whose min equals its max).
 * Otherwise, and where there is no cpufreq at all (virtual machines, some
 * boards), the clock is measured: a chain of dependent integer adds runs one
 * add per cycle on every core perfguide targets, so adds per second is the
 * clock the core really ran at.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sysinfo.h"
#include "core/timer.h"
#include "cpu.h"

#define ADDS_PER_LOOP 64
#define MIN_CHAIN_S 0.01	/* each timed chain lasts at least this long */
#define TRIALS 10

/* The empty asm makes x live in a register after each add, so the compiler
 * can neither fold the adds together nor run them side by side. */
#define A1 x += y; __asm__("" : "+r"(x));
#define A8 A1 A1 A1 A1 A1 A1 A1 A1

static double chain_seconds(uint64_t loops)
{
	uint64_t x = 0, y = 1;
	__asm__ volatile("" : "+r"(y));
	double t0 = pg_now();
	for (uint64_t i = 0; i < loops; i++) {
		A8 A8 A8 A8 A8 A8 A8 A8
	}
	double t = pg_now() - t0;
	pg_consume(x);
	return t;
}

double pg_cpu_measure_mhz(void)
{
	uint64_t loops = 1 << 12;
	double t;
	/* Grow the chain until it lasts long enough; this also wakes the core
	 * from an idle clock. */
	while ((t = chain_seconds(loops)) < MIN_CHAIN_S && loops < (UINT64_C(1) << 40))
		loops *= 2;
	double best = t;
	for (int i = 0; i < TRIALS; i++) {
		t = chain_seconds(loops);
		if (t < best)
			best = t;
	}
	return (double)loops * ADDS_PER_LOOP / best / 1e6;
}

static long read_khz(int cpu, const char *file)
{
	char path[128], buf[64];
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/%s", cpu, file);
	if (pg_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	return strtol(buf, NULL, 10);
}

double pg_cpu_clock_mhz(int cpu, char *how, size_t len)
{
	char path[128], gov[64] = "";
	if (cpu < 0)
		cpu = 0;
	long max = read_khz(cpu, "scaling_max_freq");
	long min = read_khz(cpu, "scaling_min_freq");
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
	pg_read_file(path, gov, sizeof(gov));
	if (max > 0 && (strcmp(gov, "performance") == 0 || min == max)) {
		snprintf(how, len, "clock %.0f MHz: cpufreq maximum of cpu%d's policy (governor %s)",
			 max / 1e3, cpu, gov[0] ? gov : "unknown");
		return max / 1e3;
	}
	double mhz = pg_cpu_measure_mhz();
	if (max > 0)
		snprintf(how, len, "clock %.0f MHz: measured on cpu%d (dependent-add chain), governor "
			 "%s does not hold the cpufreq maximum of %.0f MHz", mhz, cpu,
			 gov[0] ? gov : "unknown", max / 1e3);
	else
		snprintf(how, len, "clock %.0f MHz: measured on cpu%d (dependent-add chain), no cpufreq",
			 mhz, cpu);
	return mhz;
}
