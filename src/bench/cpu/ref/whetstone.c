/* SPDX-License-Identifier: MIT */
/*
 * cpu.whetstone: the Whetstone benchmark of Curnow and Wichmann (1976), in
 * double precision, as the C translation of the netlib Fortran
 * (whetstoned, version 1.2) runs it: modules 1 to 11 with the loop counts
 * 0, 12, 14, 345, -, 210, 32, 899, 616, 0, 93 times LOOP. With LOOP = 10 one
 * pass of all modules is one million Whetstone instructions; one iteration
 * here is one pass with LOOP = 10 by default, as the Fortran original
 * repeats its major loop, and MWIPS = passes x LOOP / 10 / seconds.
 *
 * netlib's C version instead runs one pass with a large LOOP (100000 or
 * more). That is not the same work: module 7's X and Y shrink by 2T =
 * 0.99995 per iteration, so after millions of iterations sin, cos and atan
 * run on tiny arguments, where libm takes its fast paths. -p loop=100000
 * does the reference's work, for comparing with it. The reference prints
 * the same figure as "MIPS" (KIPS = 100 x LOOP x II / seconds, over 1000),
 * timed with time() in whole seconds: that is why published figures come
 * out as round numbers like 10000.0 and 5000.0. Here the monotonic clock
 * times every sample.
 *
 * The modules' results are checked after each step: the integer modules
 * end in known states, the procedure-call module in a known value, and the
 * floating-point ones must stay finite and in range.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "bench/cpu/cpu.h"


/* The Fortran COMMON block; per thread so copies do not share it. */
static _Thread_local double t, t1, t2, e1[5];
static _Thread_local int j, k, l;

/*
 * The procedures have external linkage, as in the reference, so that the
 * compiler weighs inlining them as it does there: a static function with
 * one caller is always inlined, an external one only when small (GCC keeps
 * the reference's PA a call and inlines P0 and P3).
 */
void pg_whet_pa(double e[]);
void pg_whet_p0(void);
void pg_whet_p3(double x, double y, double *z);

void pg_whet_pa(double e[])
{
	j = 0;
	do {
		e[1] = (e[1] + e[2] + e[3] - e[4]) * t;
		e[2] = (e[1] + e[2] - e[3] + e[4]) * t;
		e[3] = (e[1] - e[2] + e[3] + e[4]) * t;
		e[4] = (-e[1] + e[2] + e[3] + e[4]) / t2;
		j += 1;
	} while (j < 6);
}

void pg_whet_p0(void)
{
	e1[j] = e1[k];
	e1[k] = e1[l];
	e1[l] = e1[j];
}

void pg_whet_p3(double x, double y, double *z)
{
	double xx = x, yy = y;
	xx = t * (xx + yy);
	yy = t * (xx + yy);
	*z = (xx + yy) / t2;
}

static void whetstone_pass(long LOOP, struct whet_result *r)
{
	long n1 = 0, n2 = 12 * LOOP, n3 = 14 * LOOP, n4 = 345 * LOOP, n6 = 210 * LOOP,
	     n7 = 32 * LOOP, n8 = 899 * LOOP, n9 = 616 * LOOP, n10 = 0, n11 = 93 * LOOP;
	double x1, x2, x3, x4, x, y, z;
	long i;

	t = 0.499975;
	t1 = 0.50025;
	t2 = 2.0;

	/* Module 1: simple identifiers (weight 0 in this version) */
	x1 = 1.0;
	x2 = x3 = x4 = -1.0;
	for (i = 1; i <= n1; i++) {
		x1 = (x1 + x2 + x3 - x4) * t;
		x2 = (x1 + x2 - x3 + x4) * t;
		x3 = (x1 - x2 + x3 + x4) * t;
		x4 = (-x1 + x2 + x3 + x4) * t;
	}
	r->x1[0] = x1;

	/* Module 2: array elements */
	e1[1] = 1.0;
	e1[2] = e1[3] = e1[4] = -1.0;
	for (i = 1; i <= n2; i++) {
		e1[1] = (e1[1] + e1[2] + e1[3] - e1[4]) * t;
		e1[2] = (e1[1] + e1[2] - e1[3] + e1[4]) * t;
		e1[3] = (e1[1] - e1[2] + e1[3] + e1[4]) * t;
		e1[4] = (-e1[1] + e1[2] + e1[3] + e1[4]) * t;
	}
	memcpy(r->e2, &e1[1], sizeof(r->e2));

	/* Module 3: array as parameter */
	for (i = 1; i <= n3; i++)
		pg_whet_pa(e1);
	memcpy(r->e3, &e1[1], sizeof(r->e3));

	/* Module 4: conditional jumps */
	j = 1;
	for (i = 1; i <= n4; i++) {
		j = j == 1 ? 2 : 3;
		j = j > 2 ? 0 : 1;
		j = j < 1 ? 1 : 0;
	}
	r->j4 = j;

	/* Module 6: integer arithmetic */
	j = 1;
	k = 2;
	l = 3;
	for (i = 1; i <= n6; i++) {
		j = j * (k - j) * (l - k);
		k = l * k - (l - j) * k;
		l = (l - k) * (k + j);
		e1[l - 1] = j + k + l;
		e1[k - 1] = j * k * l;
	}
	r->j6 = j;
	r->k6 = k;
	r->l6 = l;

	/* Module 7: trigonometric functions */
	x = 0.5;
	y = 0.5;
	for (i = 1; i <= n7; i++) {
		x = t * atan(t2 * sin(x) * cos(x) / (cos(x + y) + cos(x - y) - 1.0));
		y = t * atan(t2 * sin(y) * cos(y) / (cos(x + y) + cos(x - y) - 1.0));
	}
	r->x7 = x;
	r->y7 = y;

	/* Module 8: procedure calls */
	x = y = z = 1.0;
	for (i = 1; i <= n8; i++)
		pg_whet_p3(x, y, &z);
	r->z8 = z;

	/* Module 9: array references */
	j = 1;
	k = 2;
	l = 3;
	e1[1] = 1.0;
	e1[2] = 2.0;
	e1[3] = 3.0;
	for (i = 1; i <= n9; i++)
		pg_whet_p0();
	memcpy(r->e9, &e1[1], sizeof(r->e9));

	/* Module 10: integer arithmetic (weight 0 in this version) */
	j = 2;
	k = 3;
	for (i = 1; i <= n10; i++) {
		j = j + k;
		k = j + k;
		j = k - j;
		k = k - j - j;
	}

	/* Module 11: standard functions */
	x = 0.75;
	for (i = 1; i <= n11; i++)
		x = sqrt(exp(log(x) / t1));
	r->x11 = x;
}

struct whet_state {
	struct whet_result r;
	long loop;
};

static int whet_setup(struct pg_ctx *ctx)
{
	struct whet_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->loop = (long)pg_arg_int(ctx->args, "loop");
	return PG_OK;
}

static void whet_teardown(struct pg_ctx *ctx)
{
	free(ctx->priv);
}

/* What one pass must leave behind, whatever the machine. */
int pg_whetstone_check(const struct whet_result *r, char *why, size_t len)
{
	const double tt = 0.499975, want_z = (tt * 2.0 + tt * (tt * 2.0 + 1.0)) / 2.0;
	if (r->j4 != 1)
		snprintf(why, len, "module 4 ends with J = %d, should be 1", r->j4);
	else if (r->j6 != 1 || r->k6 != 2 || r->l6 != 3)
		snprintf(why, len, "module 6 ends with J, K, L = %d, %d, %d, should be 1, 2, 3",
			 r->j6, r->k6, r->l6);
	else if (r->e9[0] != 3.0 || r->e9[1] != 2.0 || r->e9[2] != 3.0)
		snprintf(why, len, "module 9 ends with E1 = %g, %g, %g, should be 3, 2, 3",
			 r->e9[0], r->e9[1], r->e9[2]);
	else if (fabs(r->z8 - want_z) > 1e-12)
		snprintf(why, len, "module 8 ends with Z = %.17g, should be %.17g", r->z8, want_z);
	else if (!isfinite(r->x7) || !isfinite(r->y7) || fabs(r->x7) > 1 || fabs(r->y7) > 1)
		snprintf(why, len, "module 7 ends with X, Y = %g, %g", r->x7, r->y7);
	else if (!(r->x11 > 0.0 && r->x11 <= 1.0))
		snprintf(why, len, "module 11 ends with X = %g, should be in (0, 1]", r->x11);
	else {
		for (int i = 0; i < 4; i++)
			if (!isfinite(r->e2[i]) || !isfinite(r->e3[i]) || fabs(r->e2[i]) > 2 ||
			    fabs(r->e3[i]) > 2) {
				snprintf(why, len, "modules 2 and 3 end with E1[%d] = %g, %g", i + 1,
					 r->e2[i], r->e3[i]);
				return -1;
			}
		return 0;
	}
	return -1;
}

static int whet_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct whet_state *s = ctx->priv;
	for (uint64_t it = 0; it < iters; it++)
		whetstone_pass(s->loop, &s->r);
	char why[160];
	if (pg_whetstone_check(&s->r, why, sizeof(why)) != 0)
		return pg_error(ctx, "whetstone: %s", why);
	/* LOOP = 10 is one million Whetstone instructions */
	counts[0] = (double)iters * (double)s->loop / 10.0;
	return PG_OK;
}

static void whet_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		       char *buf, size_t len)
{
	(void)b;
	(void)a;
	(void)metric;
	snprintf(buf, len, "whetstone (MIPS)");
}

static const struct pg_param whet_params[] = {
	{ .name = "loop", .type = PG_P_INT, .def = "10", .min = 2, .max = 10000000,
	  .help = "the reference's LOOP per iteration: 10 is one million Whetstone instructions, "
		  "the original design; netlib's C version runs one pass of 100000 or more" },
	PG_CPU_COPIES_PARAM,
	{ 0 },
};

static const struct pg_metric whet_metrics[] = {
	{ "mwips", "MWIPS", PG_RATE, 1.0, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_cpu_whetstone = {
	.id = "cpu.whetstone",
	.section = &pg_cpu_sec_whetstone,
	.title = "Whetstone, double precision",
	.params = whet_params, .metrics = whet_metrics, .copies_param = "copies",
	.setup = whet_setup, .step = whet_step, .teardown = whet_teardown,
	.label = whet_label,
};
