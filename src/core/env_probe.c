/* SPDX-License-Identifier: MIT */
/*
 * The probes of core/env.h: what no file in /proc or /sys shows, timed
 * instead. The speed probe is a fixed chain of integer steps (the CPU's
 * speed as the host gives it); the cache probe a walk over a quarter of
 * the last-level cache (whether others of the host hold it). Each is timed
 * at the run's start and again after a result's samples, and env.c judges
 * the result by the two.
 */
#include "env.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo.h"
#include "timer.h"

/* --- the speed probe --- */

/* Steps of a xorshift chain, each depending on the last: the CPU's speed
 * at plain integer work, which nothing in /proc or /sys shows on a VM
 * whose host gives it less (another tenant on the core's other thread). */
#define PROBE_STEPS 1000000

static double probe_rate(void)
{
	volatile uint64_t sink;
	uint64_t x = 88172645463325252ULL;
	double t0 = pg_now();
	for (int i = 0; i < PROBE_STEPS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	sink = x;
	(void)sink;
	double t = pg_now() - t0;
	return t > 0 ? PROBE_STEPS / t : 0;
}

/* The best of n: an interrupt or a preemption only slows one. */
static double probe_best(int n)
{
	double best = 0;
	for (int i = 0; i < n; i++)
		best = fmax(best, probe_rate());
	return best;
}

/* --- the cache probe --- */

/* The largest cache of CPU 0 in bytes (the last level), 0 when sysfs does
 * not say. */
static size_t llc_bytes(void)
{
	size_t best = 0;
	for (int i = 0; i < 16; i++) {
		char path[80], buf[32];
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (pg_read_file(path, buf, sizeof(buf)) < 0)
			continue;
		char *end;
		unsigned long long v = strtoull(buf, &end, 10);
		size_t b = *end == 'K' ? v << 10 : *end == 'M' ? v << 20 : v;
		if (b > best)
			best = b;
	}
	return best;
}

/* A chain over size bytes: 4 KiB pages in random order, their 64-byte
 * lines in random order within each page, so no prefetcher guesses the
 * next load and a TLB miss comes once a page (as mem.lat.rand walks). */
#define CACHE_LINE 64
#define CACHE_PAGE 4096
static void **cache_chain(size_t size, size_t *loads, void **base)
{
	size_t pages = size / CACHE_PAGE, per = CACHE_PAGE / CACHE_LINE, n = pages * per;
	char *buf = aligned_alloc(CACHE_PAGE, size);
	size_t *order = malloc(n * sizeof(*order));
	if (!buf || !order || n < 2) {
		free(buf);
		free(order);
		return NULL;
	}
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t *pg = order;	/* page order first, in the first pages entries */
	for (size_t i = 0; i < pages; i++)
		pg[i] = i;
	for (size_t i = pages - 1; i > 0; i--) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t j = (size_t)(x % (i + 1)), t = pg[i];
		pg[i] = pg[j], pg[j] = t;
	}
	/* then each page's lines, from the end backwards so the page order
	 * is read before it is overwritten */
	for (size_t k = pages; k-- > 0;) {
		size_t page = pg[k], *ln = order + k * per;
		for (size_t i = 0; i < per; i++)
			ln[i] = page * per + i;
		for (size_t i = per - 1; i > 0; i--) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			size_t j = (size_t)(x % (i + 1)), t = ln[i];
			ln[i] = ln[j], ln[j] = t;
		}
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(buf + order[i] * CACHE_LINE) = buf + order[(i + 1) % n] * CACHE_LINE;
	void **start = (void **)(buf + order[0] * CACHE_LINE);
	free(order);
	*loads = n;
	*base = buf;
	return start;
}

/* Walks of the cache probe, each timed. One walk to bring the chain in and
 * one timed ranged 17-190 ns a load within one quiet run here: the host's
 * other tenants take the shared cache in spells shorter than a result, and
 * one walk lands in one or not. The fastest of three is what the cache gave
 * when it was the run's; the first of them brings the chain in, as the
 * untimed walk did, so the probe costs one walk more than before (1-20 ms
 * at 10-150 ns a load of an 8 MiB chain). */
#define CACHE_WALKS 3

/* The fastest of CACHE_WALKS timed walks: ns a load. */
static double cache_walk_ns(const struct pg_env *e)
{
	void **p = e->cache_walk;
	double best = 0;
	for (int w = 0; w < CACHE_WALKS; w++) {
		double t0 = pg_now();
		for (size_t i = 0; i < e->cache_loads; i++)
			p = (void **)*p;
		double t = pg_now() - t0;
		best = w == 0 ? t : fmin(best, t);
	}
	void *volatile sink = p;
	(void)sink;
	return best * 1e9 / (double)e->cache_loads;
}

void pg_env_probe_start(struct pg_env *e)
{
	e->probe_ref = probe_best(5);
	size_t llc = llc_bytes(), size = llc / 4;
	if (size > (8u << 20))
		size = 8u << 20;
	if (llc < (1u << 20) || !(e->cache_walk = cache_chain(size, &e->cache_loads, &e->cache_buf)))
		return;
	e->cache_ref_ns = cache_walk_ns(e);
}

void pg_env_close(struct pg_env *e)
{
	free(e->cache_buf);
	e->cache_buf = NULL;
	e->cache_walk = NULL;
	e->cache_ref_ns = 0;
}

double pg_env_cache_probe(const struct pg_env *e, struct pg_env_seen *s)
{
	if (!e->cache_walk || !(e->cache_ref_ns > 0))
		return 0;
	double ns = cache_walk_ns(e);
	s->cache_ns = fmax(s->cache_ns, ns);
	s->cache_ref_ns = e->cache_ref_ns;
	return ns;
}

double pg_env_probe(const struct pg_env *e, struct pg_env_seen *s)
{
	if (!(e->probe_ref > 0))
		return 0;
	double share = probe_best(2) / e->probe_ref;
	if (share > 0 && (s->speed == 0 || share < s->speed))
		s->speed = share;
	return share;
}

void pg_env_look_busy(struct pg_env *e, double secs, struct pg_env_seen *s)
{
	struct pg_env_mark a, b;
	double best = 0, t0;
	memset(s, 0, sizeof(*s));
	pg_env_mark(e, &a);
	t0 = pg_now();
	do
		best = fmax(best, probe_rate());
	while (pg_now() - t0 < secs);
	pg_env_mark(e, &b);
	pg_env_diff(e, &a, &b, NULL, s);
	if (e->probe_ref > 0 && best > 0) {
		s->speed = best / e->probe_ref;
		if (s->speed < PG_ENV_SLOW_SHARE)
			s->why |= PG_ENV_SLOW;
	}
}
