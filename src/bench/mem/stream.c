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
	size_t total = bytes / sizeof(double);
	s->n = total / (size_t)ctx->copies;
	if (s->n == 0)
		return pg_error(ctx, "size is too small for %d threads", ctx->copies);
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
		pg_note(ctx, "arrays of %zu doubles (%s each)", total, sz);
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

static int stream_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	const struct stream_kernel *k = ctx->bench->data;
	struct stream_state *s = ctx->priv;
	double *restrict a = s->a, *restrict b = s->b, *restrict c = s->c;
	size_t n = s->n;

	for (uint64_t it = 0; it < iters; it++) {
		switch (k->k) {
		case COPY:
			for (size_t j = 0; j < n; j++)
				c[j] = a[j];
			break;
		case SCALE:
			for (size_t j = 0; j < n; j++)
				b[j] = SCALAR * c[j];
			break;
		case ADD:
			for (size_t j = 0; j < n; j++)
				c[j] = a[j] + b[j];
			break;
		case TRIAD:
			for (size_t j = 0; j < n; j++)
				a[j] = b[j] + SCALAR * c[j];
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
	{ .name = "size", .type = PG_P_SIZE, .def = "auto", .choices = "auto", .min = 64,
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
		.setup = stream_setup, .step = stream_step,                       \
		.verify = stream_verify, .teardown = stream_teardown,             \
		.label = stream_label,                                            \
	}

STREAM_BENCH(copy, COPY, "copy", 2);
STREAM_BENCH(scale, SCALE, "scale", 2);
STREAM_BENCH(add, ADD, "add", 3);
STREAM_BENCH(triad, TRIAD, "triad", 3);
