/* SPDX-License-Identifier: MIT */
/*
 * STREAM's four kernels on arrays of doubles, counted as STREAM counts them:
 * every byte read and every byte written, once per pass (copy and scale 16
 * bytes per element, add and triad 24). MB = 10^6 bytes.
 *
 * By default (order=rotate) each pass runs copy, scale, add and triad in
 * turn, as STREAM's timing loop does, and the benchmark's own kernel is
 * timed alone within it: one sample is that kernel's time in one pass, so
 * the result's max is STREAM's "Best Rate" and its median and min come from
 * the same kind of passes. STREAM's first pass is not counted; here it runs
 * in setup. order=alone runs only this kernel in every pass (the figure
 * perfguide gave before: a kernel repeated over the same arrays reads up to
 * 1.6x more on some machines, docs/methodology.md).
 *
 * The arrays are at least four times the last-level cache, as STREAM's rules
 * ask, so no pass is served from cache. With threads=N each copy owns 1/N of
 * each array and first touches it in its own thread, as STREAM's OpenMP
 * initialisation does.
 *
 * The arrays start as STREAM's (a = 1, b = 2, c = 0, then a = 2a) and the
 * same operations are done on three scalars for every pass, so after the
 * samples all three arrays are checked element by element against them
 * with STREAM's tolerance, as its checkSTREAMresults does. A wrong answer is
 * an error, not a number.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "core/params.h"
#include "core/sysinfo.h"
#include "core/timer.h"
#include "mem.h"
#include "core/err.h"

#define SCALAR 3.0
#define CHUNK 1024		/* elements the kernels' inner loop does: see run_kernel */
#define CHUNK_ALIGN 64		/* every chunk starts on a cache line: see stream_alloc */
#define EPSILON 1e-13		/* STREAM's bound on the relative error, doubles */
/* When sysfs does not say how large the last-level cache is. */
#define FALLBACK_LLC (8u << 20)
/* A rotated pass multiplies a by 15: the arrays start again (untimed) after
 * this many passes, long before a double overflows (15^64 is 2e75). */
#define PASSES_BEFORE_RESET 64

enum kernel { COPY, SCALE, ADD, TRIAD };

struct stream_kernel {
	enum kernel k;
	const char *name;
};

struct stream_state {
	double *block;		/* the three arrays, c, b, a in address order */
	double *a, *b, *c;
	size_t n;		/* elements per array in this copy */
	int rotate;		/* order=rotate: all four kernels every pass */
	double ea, eb, ec;	/* what every element of a, b and c holds now */
	int passes;		/* since the arrays were last set */
};

/* Bytes per array for size=auto: 4 x LLC, or the fallback. */
static size_t auto_array_bytes(void)
{
	struct pg_machine m;
	pg_machine_read(&m);
	int64_t llc = pg_machine_llc(&m);
	pg_machine_free(&m);
	return 4 * (size_t)(llc > 0 ? llc : FALLBACK_LLC);
}

static int stream_check(const struct pg_args *a, char *err, size_t errlen)
{
	int64_t size = pg_arg_int(a, "size"), threads = pg_arg_int(a, "threads");
	int64_t least = (int64_t)(CHUNK * sizeof(double)) * (threads > 0 ? threads : 1);
	if (size != 0 && size < least)
		return pg_err(err, errlen, "size must be at least %lld KiB (%d KiB a thread)",
			      (long long)(least / 1024), (int)(CHUNK * sizeof(double) / 1024));
	return 0;
}

/*
 * The kernels as GCC compiles STREAM's: STREAM's arrays are static, of a size
 * fixed at build time, so GCC knows each loop's trip count and vectorises it
 * (-O2: packed SSE2 on x86-64, one vector a loop iteration, no scalar tail),
 * and turns copy into a memcpy call. Over heap arrays of a run-time length
 * the same loops stayed scalar (GCC's -O2 cost model counts a scalar tail it
 * cannot rule out) and read 0.73-0.88x STREAM's rates. So each kernel walks
 * its arrays in chunks of a fixed CHUNK elements, the chunk's loop taking
 * restrict-qualified pointers: that loop is STREAM's loop, and the arrays are
 * a whole number of chunks. Copy is one loop over the whole array, kept out
 * of line where its restrict qualifiers hold, which the compiler makes the
 * same single memcpy as STREAM's (a large memcpy may use non-temporal stores,
 * so its length matters).
 */
__attribute__((noinline)) static void copy_all(double *restrict c, const double *restrict a, size_t n)
{
	for (size_t j = 0; j < n; j++)
		c[j] = a[j];
}

#define ALIGNED(p) __builtin_assume_aligned((p), CHUNK_ALIGN)

static inline void scale_chunk(double *restrict b, const double *restrict c)
{
	double *restrict bb = ALIGNED(b);
	const double *restrict cc = ALIGNED(c);
	for (size_t j = 0; j < CHUNK; j++)
		bb[j] = SCALAR * cc[j];
}

static inline void add_chunk(double *restrict c, const double *restrict a,
			     const double *restrict b)
{
	double *restrict cc = ALIGNED(c);
	const double *restrict aa = ALIGNED(a), *restrict bb = ALIGNED(b);
	for (size_t j = 0; j < CHUNK; j++)
		cc[j] = aa[j] + bb[j];
}

static inline void triad_chunk(double *restrict a, const double *restrict b,
			       const double *restrict c)
{
	double *restrict aa = ALIGNED(a);
	const double *restrict bb = ALIGNED(b), *restrict cc = ALIGNED(c);
	for (size_t j = 0; j < CHUNK; j++)
		aa[j] = bb[j] + SCALAR * cc[j];
}

/* One kernel over the arrays, and the same operation on the expected values. */
static void run_kernel(struct stream_state *s, enum kernel k)
{
	double *a = s->a, *b = s->b, *c = s->c;
	size_t n = s->n;
	switch (k) {
	case COPY:
		copy_all(c, a, n);
		s->ec = s->ea;
		break;
	case SCALE:
		for (size_t j = 0; j < n; j += CHUNK)
			scale_chunk(b + j, c + j);
		s->eb = SCALAR * s->ec;
		break;
	case ADD:
		for (size_t j = 0; j < n; j += CHUNK)
			add_chunk(c + j, a + j, b + j);
		s->ec = s->ea + s->eb;
		break;
	case TRIAD:
		for (size_t j = 0; j < n; j += CHUNK)
			triad_chunk(a + j, b + j, c + j);
		s->ea = s->eb + SCALAR * s->ec;
		break;
	}
	__asm__ volatile("" : : : "memory");
}

/* One pass: the four kernels in STREAM's order (or `own` alone); returns the
 * seconds `own` took, and adds each kernel's to took[] when given. */
static double run_pass(struct stream_state *s, enum kernel own, double *took)
{
	double spent = 0;
	for (int k = COPY; k <= TRIAD; k++) {
		if (k != (int)own && !s->rotate)
			continue;
		double t0 = pg_now();
		run_kernel(s, (enum kernel)k);
		double t = pg_now() - t0;
		if (took)
			took[k] += t;
		if (k == (int)own)
			spent = t;
	}
	s->passes++;
	return spent;
}

/* STREAM's start: a = 1, b = 2, c = 0, then a = 2a (its timer test). */
static void stream_init(struct stream_state *s)
{
	for (size_t j = 0; j < s->n; j++) {
		s->a[j] = 2.0 * 1.0;
		s->b[j] = 2.0;
		s->c[j] = 0.0;
	}
	s->ea = 2.0;
	s->eb = 2.0;
	s->ec = 0.0;
	s->passes = 0;
}

/*
 * The three arrays as STREAM's static ones lie: one block, c, b and a in
 * address order, each starting where the last ends (STREAM's default OFFSET
 * of 0), so every store and load of a kernel is the same distance from the
 * others as in STREAM. Three allocations of their own are three mappings,
 * a page or two apart beyond the arrays' length, in the order of the calls.
 */
static int stream_alloc(struct stream_state *s)
{
	s->block = pg_mem_alloc(3 * s->n * sizeof(double));
	if (!s->block)
		return 0;
	s->c = s->block;
	s->b = s->c + s->n;
	s->a = s->b + s->n;
	return 1;
}

static int stream_setup(struct pg_ctx *ctx)
{
	const struct stream_kernel *k = ctx->bench->data;
	struct stream_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->rotate = strcmp(pg_arg_str(ctx->args, "order"), "alone") != 0;
	size_t bytes = (size_t)pg_arg_int(ctx->args, "size");
	if (bytes == 0) {
		bytes = auto_array_bytes();
		int64_t avail = pg_mem_available();
		if (avail > 0 && (int64_t)(3 * bytes) > avail)
			return pg_skip(ctx, "3 arrays of 4x the last-level cache (%zu MiB) do not fit in "
				       "the %lld MiB available: give -p size= smaller", 3 * bytes >> 20,
				       (long long)(avail >> 20));
	}
	/* Each copy's part is a whole number of the kernels' chunks. */
	size_t n = bytes / sizeof(double) / (size_t)ctx->copies / CHUNK * CHUNK;
	if (n == 0)
		return pg_error(ctx, "size is too small for %d threads: give at least %zu KiB a thread",
				ctx->copies, CHUNK * sizeof(double) / 1024);
	s->n = n;
	size_t total = n * (size_t)ctx->copies;
	if (!stream_alloc(s))
		return pg_error(ctx, "cannot allocate 3 arrays of %zu bytes", s->n * sizeof(double));
	stream_init(s);
	run_pass(s, k->k, NULL);	/* STREAM's first pass, which it does not count */
	if (ctx->copy == 0) {
		char sz[32];
		pg_format_size((int64_t)(total * sizeof(double)), sz, sizeof(sz));
		pg_note(ctx, "arrays of %zu doubles (%s each); %s; a sample is the kernel's time in one pass, "
			"STREAM's Best Rate is max", total, sz,
			s->rotate ? "copy, scale, add, triad in every pass as STREAM" :
			"this kernel alone in every pass");
	}
	pg_mem_mark_tenants(ctx, 3 * (uint64_t)total * sizeof(double));
	return PG_OK;
}

/* Untimed: the arrays start again before a rotation's values grow too large. */
static int stream_prepare(struct pg_ctx *ctx, uint64_t iters)
{
	struct stream_state *s = ctx->priv;
	(void)iters;
	if (s->rotate && s->passes >= PASSES_BEFORE_RESET) {
		stream_init(s);
		run_pass(s, ((const struct stream_kernel *)ctx->bench->data)->k, NULL);
	}
	return PG_OK;
}

static void stream_teardown(struct pg_ctx *ctx)
{
	struct stream_state *s = ctx->priv;
	if (!s)
		return;
	free(s->block);
	free(s);
}

/* Bytes a pass of each kernel reads and writes, per element. */
static const int kernel_bytes[] = { [COPY] = 16, [SCALE] = 16, [ADD] = 24, [TRIAD] = 24 };

/* A trial of `iters` passes (the runner asks for one a sample); the counted
 * time is this kernel's own within them, as STREAM times each kernel.
 * Rotated, the same passes timed the other three: the run takes their
 * figures from here (pg_bench.siblings), as STREAM prints four from one
 * run, instead of rotating through the arrays three times more. */
static int stream_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	const struct stream_kernel *k = ctx->bench->data;
	struct stream_state *s = ctx->priv;
	double spent = 0, took[TRIAD + 1] = { 0 };
	for (uint64_t it = 0; it < iters; it++)
		spent += run_pass(s, k->k, took);
	ctx->counted_s = spent > 0 ? spent : 1e-9;
	counts[0] = (double)iters * (double)s->n * kernel_bytes[k->k];
	if (s->rotate) {
		ctx->nsib = TRIAD + 1;
		for (int j = COPY; j <= TRIAD; j++) {
			ctx->sib_counts[j] = (double)iters * (double)s->n * kernel_bytes[j];
			ctx->sib_s[j] = took[j] > 0 ? took[j] : 1e-9;
		}
	}
	return PG_OK;
}

static int check_array(struct pg_ctx *ctx, const char *name, const double *v, size_t n, double want)
{
	for (size_t j = 0; j < n; j++)
		if (fabs(v[j] - want) > EPSILON * fabs(want))
			return pg_error(ctx, "%s: %s[%zu] is %.17g, expected %.17g", ctx->bench->id, name,
					j, v[j], want);
	return PG_OK;
}

/* STREAM's checkSTREAMresults: all three arrays against the values the same
 * passes give on scalars. */
static int stream_verify(struct pg_ctx *ctx)
{
	struct stream_state *s = ctx->priv;
	if (check_array(ctx, "a", s->a, s->n, s->ea) != PG_OK ||
	    check_array(ctx, "b", s->b, s->n, s->eb) != PG_OK)
		return PG_ERROR;
	return check_array(ctx, "c", s->c, s->n, s->ec);
}

/* The seed's Stream table names its rows copy, scale, add, triad. */
static void stream_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
			 char *buf, size_t len)
{
	const struct stream_kernel *k = b->data;
	(void)metric;
	if (strcmp(pg_arg_str(a, "order"), "alone") == 0) {
		buf[0] = '\0';	/* not the figure STREAM prints */
		return;
	}
	snprintf(buf, len, "%s", k->name);
}

static const struct pg_param stream_params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "auto", .choices = "auto", .min = 8192,
	  .mem_factor = 3,
	  .help = "bytes per array (three arrays); auto: 4x the last-level cache" },
	{ .name = "threads", .type = PG_P_INT, .def = "1", .min = 1, .max = 1024,
	  .help = "threads sharing the arrays, each with its own part" },
	{ .name = "order", .type = PG_P_STR, .def = "rotate", .choices = "rotate,alone",
	  .help = "rotate: copy, scale, add, triad in every pass, as STREAM; alone: this kernel only" },
	{ 0 },
};

/* In enum kernel's order: what a rotated pass measures (stream_step). */
static const char *const stream_siblings[] = {
	"mem.stream.copy", "mem.stream.scale", "mem.stream.add", "mem.stream.triad", NULL,
};

static const struct pg_metric stream_metrics[] = {
	{ "bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ 0 },
};

/* .trial: one pass a sample, timed by the benchmark (ctx->counted_s), as
 * STREAM times every kernel of every pass. */
#define STREAM_BENCH(var, kc, nm)                                                 \
	static const struct stream_kernel var##_kernel = { kc, nm };              \
	const struct pg_bench pg_mem_stream_##var = {                             \
		.id = "mem.stream." nm,                                           \
		.section = &pg_mem_sec_stream,                                    \
		.title = "STREAM " nm,                                            \
		.params = stream_params, .metrics = stream_metrics,               \
		.copies_param = "threads", .data = &var##_kernel, .trial = 1,     \
		.siblings = stream_siblings,                                      \
		.check = stream_check, .setup = stream_setup,                     \
		.prepare = stream_prepare, .step = stream_step,                   \
		.verify = stream_verify, .teardown = stream_teardown,             \
		.label = stream_label,                                            \
	}

STREAM_BENCH(copy, COPY, "copy");
STREAM_BENCH(scale, SCALE, "scale");
STREAM_BENCH(add, ADD, "add");
STREAM_BENCH(triad, TRIAD, "triad");
