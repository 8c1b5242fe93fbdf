/*
 * STREAM's four kernels on arrays of doubles, counted as STREAM counts them:
 * every byte read and every byte written, once per pass (copy and scale 16
 * bytes per element, add and triad 24). MB = 10^6 bytes.
 *
 * The arrays are at least four times the last-level cache, as STREAM's rules
 * ask, so no pass is served from cache. With threads=N each copy owns 1/N of
 * each array and first touches it in its own thread, as STREAM's OpenMP
 * initialisation does.
 *
 * Each kernel here writes the same values on every pass (copy: c = a, scale:
 * b = 3c, add: c = a + b, triad: a = b + 3c with fixed inputs), so the answer
 * after any number of passes is known and is checked element by element,
 * with STREAM's tolerance. A wrong answer is an error, not a number.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "core/params.h"
#include "core/sysinfo.h"
#include "mem.h"

#define SCALAR 3.0
#define CHUNK 1024		/* elements the kernels' inner loop does: see stream_step */
#define EPSILON 1e-13		/* STREAM's bound on the relative error, doubles */
/* When sysfs does not say how large the last-level cache is. */
#define FALLBACK_LLC (8u << 20)

enum kernel { COPY, SCALE, ADD, TRIAD };

struct stream_kernel {
	enum kernel k;
	const char *name;
	int arrays_touched;	/* 2 or 3: bytes per element / 8 */
};

struct stream_state {
	double *a, *b, *c;
	size_t n;		/* elements per array in this copy */
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

static int stream_check(const struct pg_args *a, char *err, size_t len)
{
	int64_t size = pg_arg_int(a, "size"), threads = pg_arg_int(a, "threads");
	int64_t least = (int64_t)(CHUNK * sizeof(double)) * (threads > 0 ? threads : 1);
	if (size != 0 && size < least) {
		snprintf(err, len, "size must be at least %lld KiB (%d KiB a thread)",
			 (long long)(least / 1024), (int)(CHUNK * sizeof(double) / 1024));
		return -1;
	}
	return 0;
}

static int stream_setup(struct pg_ctx *ctx)
{
	struct stream_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
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
	s->a = pg_mem_alloc(s->n * sizeof(double));
	s->b = pg_mem_alloc(s->n * sizeof(double));
	s->c = pg_mem_alloc(s->n * sizeof(double));
	if (!s->a || !s->b || !s->c)
		return pg_error(ctx, "cannot allocate 3 arrays of %zu bytes", s->n * sizeof(double));
	for (size_t j = 0; j < s->n; j++) {
		s->a[j] = 1.0;
		s->b[j] = 2.0;
		s->c[j] = 0.5;
	}
	if (ctx->copy == 0) {
		char sz[32];
		pg_format_size((int64_t)(total * sizeof(double)), sz, sizeof(sz));
		pg_note(ctx, "arrays of %zu doubles (%s each); STREAM reports its best rate: "
			"compare it with max", total, sz);
	}
	return PG_OK;
}

static void stream_teardown(struct pg_ctx *ctx)
{
	struct stream_state *s = ctx->priv;
	if (!s)
		return;
	free(s->a);
	free(s->b);
	free(s->c);
	free(s);
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

static inline void scale_chunk(double *restrict b, const double *restrict c)
{
	for (size_t j = 0; j < CHUNK; j++)
		b[j] = SCALAR * c[j];
}

static inline void add_chunk(double *restrict c, const double *restrict a,
			     const double *restrict b)
{
	for (size_t j = 0; j < CHUNK; j++)
		c[j] = a[j] + b[j];
}

static inline void triad_chunk(double *restrict a, const double *restrict b,
			       const double *restrict c)
{
	for (size_t j = 0; j < CHUNK; j++)
		a[j] = b[j] + SCALAR * c[j];
}

static int stream_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	const struct stream_kernel *k = ctx->bench->data;
	struct stream_state *s = ctx->priv;
	double *a = s->a, *b = s->b, *c = s->c;
	size_t n = s->n;

	for (uint64_t it = 0; it < iters; it++) {
		switch (k->k) {
		case COPY:
			copy_all(c, a, n);
			break;
		case SCALE:
			for (size_t j = 0; j < n; j += CHUNK)
				scale_chunk(b + j, c + j);
			break;
		case ADD:
			for (size_t j = 0; j < n; j += CHUNK)
				add_chunk(c + j, a + j, b + j);
			break;
		case TRIAD:
			for (size_t j = 0; j < n; j += CHUNK)
				triad_chunk(a + j, b + j, c + j);
			break;
		}
		__asm__ volatile("" : : : "memory");
	}
	counts[0] = (double)iters * (double)n * (double)(k->arrays_touched * sizeof(double));
	return PG_OK;
}

static int check_array(struct pg_ctx *ctx, const char *name, const double *v, size_t n, double want)
{
	for (size_t j = 0; j < n; j++)
		if (fabs(v[j] - want) / fabs(want) > EPSILON)
			return pg_error(ctx, "%s: %s[%zu] is %.17g, expected %.17g", ctx->bench->id, name,
					j, v[j], want);
	return PG_OK;
}

static int stream_verify(struct pg_ctx *ctx)
{
	const struct stream_kernel *k = ctx->bench->data;
	struct stream_state *s = ctx->priv;
	switch (k->k) {
	case COPY:
		return check_array(ctx, "c", s->c, s->n, 1.0);
	case SCALE:
		return check_array(ctx, "b", s->b, s->n, SCALAR * 0.5);
	case ADD:
		return check_array(ctx, "c", s->c, s->n, 1.0 + 2.0);
	case TRIAD:
		return check_array(ctx, "a", s->a, s->n, 2.0 + SCALAR * 0.5);
	}
	return PG_OK;
}

/* The seed's Stream table names its rows copy, scale, add, triad. */
static void stream_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
			 char *buf, size_t len)
{
	const struct stream_kernel *k = b->data;
	(void)a;
	(void)metric;
	snprintf(buf, len, "%s", k->name);
}

static const struct pg_param stream_params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "auto", .choices = "auto", .min = 8192,
	  .mem_factor = 3,
	  .help = "bytes per array (three arrays); auto: 4x the last-level cache" },
	{ .name = "threads", .type = PG_P_INT, .def = "1", .min = 1, .max = 1024,
	  .help = "threads sharing the arrays, each with its own part" },
	{ 0 },
};

static const struct pg_metric stream_metrics[] = {
	{ "bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ 0 },
};

#define STREAM_BENCH(var, kc, nm, arrays)                                         \
	static const struct stream_kernel var##_kernel = { kc, nm, arrays };      \
	const struct pg_bench pg_mem_stream_##var = {                             \
		.id = "mem.stream." nm,                                           \
		.section = &pg_mem_sec_stream,                                    \
		.title = "STREAM " nm,                                            \
		.params = stream_params, .metrics = stream_metrics,               \
		.copies_param = "threads", .data = &var##_kernel,                 \
		.check = stream_check, .setup = stream_setup,                     \
		.step = stream_step,                                              \
		.verify = stream_verify, .teardown = stream_teardown,             \
		.label = stream_label,                                            \
	}

STREAM_BENCH(copy, COPY, "copy", 2);
STREAM_BENCH(scale, SCALE, "scale", 2);
STREAM_BENCH(add, ADD, "add", 3);
STREAM_BENCH(triad, TRIAD, "triad", 3);
