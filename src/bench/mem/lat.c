/* SPDX-License-Identifier: MIT */
/*
 * Memory read latency: a chain of dependent loads, each load's address the
 * value of the one before, so no two loads overlap. One operation is one
 * load; the result is nanoseconds per load.
 *
 * mem.lat.rd is LMBench's lat_mem_rd: the chain steps through the buffer
 * `stride` bytes at a time, in order, and wraps, with lat_mem_rd's 100 loads
 * in the loop body. The body's length matters: a prefetcher that tracks each
 * load instruction sees that instruction step 100 strides at a time (12.5 KiB
 * at stride 128, a new page every time), which it does not follow; with 32
 * loads a body (4 KiB steps) a Zen core's prefetcher did follow it and read
 * near-L1 latency at every size. `unroll` chooses the body's length.
 *
 * mem.lat.rand visits the pages of the buffer in random order and the lines
 * of each page in random order, so no prefetcher can guess the next address,
 * while each page's lines are visited together so TLB misses stay rare: what
 * is left is the latency of the cache level (or DRAM) the buffer falls in.
 * With pages=huge the buffer sits in huge pages and "page" means huge page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/bench.h"
#include "core/params.h"
#include "core/sysinfo.h"
#include "mem.h"
#include "core/err.h"

/* One iteration of step() follows this many links: a whole number of loop
 * bodies for every `unroll` allowed. */
#define LOADS_PER_ITER 1600
#define LMBENCH_UNROLL 100	/* lat_mem_rd's loads per loop body */
#define HUGE_PAGE (2u << 20)

struct lat_state {
	char *buf;		/* where the chain lives */
	void *map;		/* the mapping holding buf, NULL when malloc'd */
	size_t map_len;
	void **pos;		/* where the chase stopped, so the next step goes on */
	int unroll;		/* loads per loop body */
};

static int lat_check(const struct pg_args *a, char *err, size_t errlen)
{
	int64_t size = pg_arg_int(a, "size"), stride = pg_arg_int(a, "stride");
	if (stride < (int64_t)sizeof(void *) || stride % (int64_t)sizeof(void *))
		return pg_err(err, errlen, "stride must be a multiple of %zu bytes", sizeof(void *));
	if (size < stride)
		return pg_err(err, errlen, "size must be at least one stride (%lld bytes)", (long long)stride);
	int64_t u = pg_arg_int(a, "unroll");	/* 0: mem.lat.rand, which has none */
	if (u != 0) {
		if (u != 1 && u != 32 && u != LMBENCH_UNROLL)
			return pg_err(err, errlen, "unroll must be 1, 32 or 100 loads per loop body");
	}
	return 0;
}

/* xorshift64*: the same chain on every run, so results are comparable. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

static void shuffle(size_t *v, size_t n, uint64_t *seed)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(next_rand(seed) % i);
		size_t t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* Link offsets[0] -> offsets[1] -> ... -> offsets[0]. */
static void link_chain(char *buf, const size_t *off, size_t n)
{
	for (size_t i = 0; i < n; i++)
		*(void **)(buf + off[i]) = buf + off[(i + 1) % n];
}

static int build_sequential(struct pg_ctx *ctx, struct lat_state *s, size_t size, size_t stride)
{
	size_t n = size / stride;
	size_t *off = malloc(n * sizeof(*off));
	if (!off)
		return pg_error(ctx, "out of memory");
	for (size_t i = 0; i < n; i++)
		off[i] = i * stride;
	link_chain(s->buf, off, n);
	free(off);
	return PG_OK;
}

static int build_random(struct pg_ctx *ctx, struct lat_state *s, size_t size, size_t stride,
			size_t page)
{
	if (page > size)
		page = size;
	size_t per_page = page / stride, pages = size / page;
	size_t n = per_page * pages;
	size_t *off = malloc(n * sizeof(*off));
	size_t *pg = malloc(pages * sizeof(*pg));
	size_t *ln = malloc(per_page * sizeof(*ln));
	if (!off || !pg || !ln) {
		free(off);
		free(pg);
		free(ln);
		return pg_error(ctx, "out of memory");
	}
	uint64_t seed = UINT64_C(0x9e3779b97f4a7c15);
	for (size_t i = 0; i < pages; i++)
		pg[i] = i;
	shuffle(pg, pages, &seed);
	size_t k = 0;
	for (size_t p = 0; p < pages; p++) {
		for (size_t i = 0; i < per_page; i++)
			ln[i] = i;
		shuffle(ln, per_page, &seed);
		for (size_t i = 0; i < per_page; i++)
			off[k++] = pg[p] * page + ln[i] * stride;
	}
	link_chain(s->buf, off, n);
	free(off);
	free(pg);
	free(ln);
	return PG_OK;
}

static long anon_huge_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	if (!f)
		return -1;
	char line[256];
	long kb = -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * Huge pages where the system gives them: reserved ones (MAP_HUGETLB) first,
 * then transparent huge pages. Says which in the result's note, and skips
 * with what to do when there are none.
 */
static int alloc_huge(struct pg_ctx *ctx, struct lat_state *s, size_t size)
{
	size_t len = (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p != MAP_FAILED) {
		s->buf = s->map = p;
		s->map_len = len;
		memset(p, 0, len);
		pg_note(ctx, "reserved huge pages (MAP_HUGETLB, 2 MiB)");
		return PG_OK;
	}
	char thp[128] = "";
	pg_read_file("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof(thp));
	if (!strstr(thp, "[always]") && !strstr(thp, "[madvise]"))
		return pg_skip(ctx, "no huge pages: reserve some (echo 128 > /proc/sys/vm/nr_hugepages) "
			       "or enable transparent huge pages");
	/* Over-allocate so a 2 MiB-aligned region fits inside. */
	size_t map_len = len + HUGE_PAGE;
	char *raw = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return pg_error(ctx, "cannot map %zu bytes", map_len);
	char *aligned = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	madvise(aligned, len, MADV_HUGEPAGE);
	long before = anon_huge_kb();
	memset(aligned, 0, len);
	long after = anon_huge_kb();
	s->buf = aligned;
	s->map = raw;
	s->map_len = map_len;
	if (before >= 0 && after >= 0) {
		long got = after - before;
		if (got <= 0)
			return pg_skip(ctx, "transparent huge pages are enabled but none were given "
				       "(memory fragmented?): reserve some in /proc/sys/vm/nr_hugepages");
		pg_note(ctx, "transparent huge pages: %ld of %zu KiB", got, len / 1024);
	} else {
		pg_note(ctx, "transparent huge pages (madvise; share not measurable here)");
	}
	return PG_OK;
}

static int lat_setup(struct pg_ctx *ctx)
{
	const int *random = ctx->bench->data;
	size_t size = (size_t)pg_arg_int(ctx->args, "size");
	size_t stride = (size_t)pg_arg_int(ctx->args, "stride");
	int huge = *random && strcmp(pg_arg_str(ctx->args, "pages"), "huge") == 0;
	struct lat_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	if (huge) {
		int rc = alloc_huge(ctx, s, size);
		if (rc != PG_OK)
			return rc;
	} else {
		s->buf = pg_mem_alloc(size);
		if (!s->buf)
			return pg_error(ctx, "cannot allocate %zu bytes", size);
		memset(s->buf, 0, size);
	}
	int rc;
	if (*random)
		rc = build_random(ctx, s, size, stride, huge ? HUGE_PAGE : (size_t)sysconf(_SC_PAGESIZE));
	else
		rc = build_sequential(ctx, s, size, stride);
	s->pos = (void **)s->buf;
	s->unroll = *random ? LMBENCH_UNROLL : (int)pg_arg_int(ctx->args, "unroll");
	if (!*random && ctx->copy == 0)
		pg_note(ctx, "%d loads per loop body; lat_mem_rd reports the minimum of its "
			"repetitions: compare it with min", s->unroll);
	pg_mem_mark_tenants(ctx, (uint64_t)size * (uint64_t)ctx->copies);
	return rc;
}

static void lat_teardown(struct pg_ctx *ctx)
{
	struct lat_state *s = ctx->priv;
	if (!s)
		return;
	if (s->map)
		munmap(s->map, s->map_len);
	else
		free(s->buf);
	free(s);
}

/* The chase, `n` loads per loop body: each body is its own function so the
 * compiler keeps the loads as written, one instruction each. */
#define L1 p = (void **)*p;
#define L4 L1 L1 L1 L1
#define L16 L4 L4 L4 L4
#define L32 L16 L16
#define L100 L32 L32 L32 L4
static void **chase_1(void **p, uint64_t bodies)
{
	for (uint64_t k = 0; k < bodies; k++) {
		L1
	}
	return p;
}

static void **chase_32(void **p, uint64_t bodies)
{
	for (uint64_t k = 0; k < bodies; k++) {
		L32
	}
	return p;
}

static void **chase_100(void **p, uint64_t bodies)
{
	for (uint64_t k = 0; k < bodies; k++) {
		L100
	}
	return p;
}
#undef L100
#undef L32
#undef L16
#undef L4
#undef L1

static int lat_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct lat_state *s = ctx->priv;
	uint64_t bodies = iters * (LOADS_PER_ITER / (uint64_t)s->unroll);
	void **p = s->pos;
	switch (s->unroll) {
	case 1: p = chase_1(p, bodies); break;
	case 32: p = chase_32(p, bodies); break;
	default: p = chase_100(p, bodies); break;
	}
	s->pos = p;
	pg_consume((uint64_t)(uintptr_t)p);
	counts[0] = (double)iters * LOADS_PER_ITER;
	return PG_OK;
}

/* lat_mem_rd prints sizes in MB (2^20 bytes); the seed's rows are that
 * number times 1000, truncated: 32k -> sz31k, 512k -> sz500k, 1m -> sz1000k.
 * Below 1k the name says the same to a tenth: 512 bytes is sz0.5k. (The
 * seed's smallest row, "sz50", is lat_mem_rd's first size, 512 bytes: a
 * name that says 50 of a size of 512 is not this row's.) */
static void lat_rd_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
			 char *buf, size_t len)
{
	(void)b;
	(void)metric;
	int64_t size = pg_arg_int(a, "size"), stride = pg_arg_int(a, "stride");
	long k = (long)((double)size / 1048576.0 * 1000.0);
	if (pg_arg_int(a, "unroll") != LMBENCH_UNROLL)
		buf[0] = '\0';	/* not lat_mem_rd's loop: not its row */
	else if (k >= 1)
		snprintf(buf, len, "lat_mem_rd-stride%lld-sz%ldk", (long long)stride, k);
	else
		snprintf(buf, len, "lat_mem_rd-stride%lld-sz%.1fk", (long long)stride,
			 (double)size / 1048576.0 * 1000.0);
}

static const struct pg_param rd_params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "16m", .min = 64, .mem_factor = 1,
	  .help = "bytes the chain spans: a size within a cache level shows that level",
	  .quick = "512,32k,256k,1m,16m",
	  .standard = "512,32k,64k,128k,256k,512k,1m,2m,4m,8m,16m,32m,64m",
	  .full = "512,1k,2k,4k,8k,16k,32k,64k,128k,256k,512k,1m,2m,4m,8m,16m,32m,64m,128m,256m" },
	{ .name = "stride", .type = PG_P_SIZE, .def = "128", .min = 8,
	  .help = "bytes between consecutive loads (the seed uses 128)" },
	{ .name = "unroll", .type = PG_P_INT, .def = "100", .min = 1, .max = 100,
	  .help = "loads per loop body: 100 as lat_mem_rd; 32 or 1 let a per-instruction "
		  "stride prefetcher follow the chain" },
	{ 0 },
};

static const struct pg_param rand_params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "256m", .min = 64, .mem_factor = 1,
	  .help = "bytes the chain spans; the sweep goes from L1 to beyond 4x the last-level cache",
	  .quick = "16k,256k,4m,128m",
	  .standard = "16k,32k,64k,128k,256k,512k,1m,2m,4m,8m,16m,32m,64m,128m,256m",
	  .full = "16k,32k,64k,128k,256k,512k,1m,2m,4m,8m,16m,32m,64m,128m,256m,512m,1g" },
	{ .name = "stride", .type = PG_P_SIZE, .def = "64", .min = 8,
	  .help = "bytes per visited line (one cache line)" },
	{ .name = "pages", .type = PG_P_STR, .def = "normal", .choices = "normal,huge",
	  .help = "normal pages, or huge pages where the system allows them",
	  .standard = "normal,huge" },
	{ 0 },
};

static const struct pg_metric lat_metrics[] = {
	{ "latency", "ns", PG_TIME_PER, 1e9, 0, 0 },
	{ 0 },
};

static const int sequential = 0, randomised = 1;

const struct pg_bench pg_mem_lat_rd = {
	.id = "mem.lat.rd",
	.section = &pg_mem_sec_lmbench,
	.title = "Memory read latency, strided chase (lat_mem_rd)",
	.params = rd_params, .metrics = lat_metrics, .data = &sequential,
	.check = lat_check, .setup = lat_setup, .step = lat_step,
	.teardown = lat_teardown, .label = lat_rd_label,
};

const struct pg_bench pg_mem_lat_rand = {
	.id = "mem.lat.rand",
	.section = &pg_mem_sec_lmbench,
	.title = "Memory read latency, random chase",
	.params = rand_params, .metrics = lat_metrics, .data = &randomised,
	.check = lat_check, .setup = lat_setup, .step = lat_step,
	.teardown = lat_teardown,
};
