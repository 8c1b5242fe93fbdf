/* SPDX-License-Identifier: MIT */
/*
 * cpu.dhrystone: Dhrystone 2.1 (ref/dhry_1.c, ref/dhry_2.c), as the reference
 * program counts it. One iteration is one pass of the main loop, one
 * Dhrystone. Metrics: Dhrystones per second; DMIPS, that divided by 1757
 * (the VAX 11/780's score, the "1 MIPS" machine); DMIPS/MHz, DMIPS over the
 * clock the core ran at (see clock.c); and that clock.
 *
 * The reference checks nothing; here every step checks that the loop ran as
 * many times as it was asked (Arr_2_Glob[8][7] grows by one per pass) and
 * the final values of the globals and locals are checked against the values
 * Dhrystone's own output lists as "should be".
 */
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "cpu.h"
#include "ref/dhry.h"

#define VAX_DHRYSTONES 1757.0	/* Dhrystones per second of the 1 MIPS VAX 11/780 */

struct dhry_state {
	struct dhry_rec glob, next;
	struct dhry_locals loc;
	long runs;		/* passes so far, the next pass's number - 1 */
	double mhz;
	int ran;		/* a step ran, so the final values are defined */
};

static int dhry_setup(struct pg_ctx *ctx)
{
	struct dhry_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	memset(dhry_arr_1_glob, 0, sizeof(dhry_arr_1_glob));
	memset(dhry_arr_2_glob, 0, sizeof(dhry_arr_2_glob));
	dhry_int_glob = 0;
	dhry_bool_glob = 0;
	dhry_ch_1_glob = dhry_ch_2_glob = 0;
	dhry_init(&s->glob, &s->next, &s->loc);
	char how[PG_MSG_LEN];
	s->mhz = pg_cpu_clock_mhz(sched_getcpu(), how, sizeof(how));
	if (!(s->mhz > 0))
		return pg_error(ctx, "could not tell the CPU clock");
	if (ctx->copy == 0)
		pg_note(ctx, "%s", how);
	return PG_OK;
}

static void dhry_teardown(struct pg_ctx *ctx)
{
	free(ctx->priv);
}

static int dhry_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct dhry_state *s = ctx->priv;
	for (uint64_t done = 0; done < iters;) {
		/* Arr_2_Glob[8][7] counts passes in an int: check it in chunks it
		 * cannot overflow. */
		long n = iters - done > (uint64_t)(INT_MAX / 2) ? INT_MAX / 2 : (long)(iters - done);
		dhry_arr_2_glob[8][7] = 10;
		dhry_loop(s->runs + 1, n, &s->loc);
		if (dhry_arr_2_glob[8][7] != 10 + n)
			return pg_error(ctx, "Arr_2_Glob[8][7] is %d after %ld passes, should be %ld",
					dhry_arr_2_glob[8][7], n, 10 + n);
		s->runs += n;
		done += (uint64_t)n;
	}
	s->ran = 1;
	counts[0] = (double)iters;
	counts[1] = (double)iters;
	counts[2] = (double)iters / s->mhz;
	counts[3] = ctx->copy == 0 ? s->mhz : 0;
	return PG_OK;
}

#define CHECK(cond, ...) \
	do { if (!(cond)) return pg_error(ctx, "dhrystone: " __VA_ARGS__); } while (0)

/* The values Dhrystone 2.1 prints as "should be" after its loop. */
static int dhry_verify(struct pg_ctx *ctx)
{
	struct dhry_state *s = ctx->priv;
	const struct dhry_locals *l = &s->loc;
	const struct dhry_rec *g = dhry_ptr_glob, *n = dhry_next_ptr_glob;
	if (!s->ran)
		return PG_OK;
	CHECK(dhry_int_glob == 5, "Int_Glob is %d, should be 5", dhry_int_glob);
	CHECK(dhry_bool_glob == 1, "Bool_Glob is %d, should be 1", dhry_bool_glob);
	CHECK(dhry_ch_1_glob == 'A', "Ch_1_Glob is '%c', should be 'A'", dhry_ch_1_glob);
	CHECK(dhry_ch_2_glob == 'B', "Ch_2_Glob is '%c', should be 'B'", dhry_ch_2_glob);
	CHECK(dhry_arr_1_glob[8] == 7, "Arr_1_Glob[8] is %d, should be 7", dhry_arr_1_glob[8]);
	CHECK(g == &s->glob && n == &s->next, "the record pointers moved");
	CHECK(g->ptr_comp == n, "Ptr_Glob->Ptr_Comp does not point to the second record");
	CHECK(g->discr == IDENT_1 && g->var.v1.enum_comp == IDENT_3 && g->var.v1.int_comp == 17 &&
		      strcmp(g->var.v1.str_comp, "DHRYSTONE PROGRAM, SOME STRING") == 0,
	      "Ptr_Glob's record is (%d, %d, %d, \"%s\"), should be (0, 2, 17, \"DHRYSTONE "
	      "PROGRAM, SOME STRING\")", g->discr, g->var.v1.enum_comp, g->var.v1.int_comp,
	      g->var.v1.str_comp);
	CHECK(n->ptr_comp == n && n->discr == IDENT_1 && n->var.v1.enum_comp == IDENT_2 &&
		      n->var.v1.int_comp == 18 &&
		      strcmp(n->var.v1.str_comp, "DHRYSTONE PROGRAM, SOME STRING") == 0,
	      "Next_Ptr_Glob's record is (%d, %d, %d, \"%s\"), should be (0, 1, 18, \"DHRYSTONE "
	      "PROGRAM, SOME STRING\")", n->discr, n->var.v1.enum_comp, n->var.v1.int_comp,
	      n->var.v1.str_comp);
	CHECK(l->int_1 == 5 && l->int_2 == 13 && l->int_3 == 7 && l->enum_loc == IDENT_2,
	      "locals are (%d, %d, %d, %d), should be (5, 13, 7, 1)", l->int_1, l->int_2, l->int_3,
	      l->enum_loc);
	CHECK(strcmp(l->str_1, "DHRYSTONE PROGRAM, 1'ST STRING") == 0, "Str_1_Loc is \"%s\"", l->str_1);
	CHECK(strcmp(l->str_2, "DHRYSTONE PROGRAM, 2'ND STRING") == 0, "Str_2_Loc is \"%s\"", l->str_2);
	return PG_OK;
}

static void dhry_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		       char *buf, size_t len)
{
	(void)b;
	(void)a;
	if (strcmp(metric, "dhrystones") == 0)
		snprintf(buf, len, "dhrystone_per_second (DhrystoneP)");
	else if (strcmp(metric, "dmips_per_mhz") == 0)
		snprintf(buf, len, "dhrystone_per_mhz (DMIPS/MHz)");
	else if (strcmp(metric, "cpu_clock") == 0)
		snprintf(buf, len, "cpu_clock (MHz)");
	else
		buf[0] = '\0';
}

static const struct pg_param dhry_params[] = {
	PG_CPU_COPIES_PARAM,
	{ 0 },
};

static const struct pg_metric dhry_metrics[] = {
	{ "dhrystones", "Dhrystones/s", PG_RATE, 1.0, 1, 0 },
	{ "dmips", "DMIPS", PG_RATE, 1.0 / VAX_DHRYSTONES, 1, 0 },
	/* counted as passes / MHz, so the rate is DMIPS per MHz */
	{ "dmips_per_mhz", "DMIPS/MHz", PG_RATE, 1.0 / VAX_DHRYSTONES, 1, 0 },
	{ "cpu_clock", "MHz", PG_VALUE, 1.0, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_cpu_dhrystone = {
	.id = "cpu.dhrystone",
	.section = &pg_cpu_sec_dhrystone,
	.title = "Dhrystone 2.1",
	.params = dhry_params, .metrics = dhry_metrics, .copies_param = "copies",
	.setup = dhry_setup, .step = dhry_step, .verify = dhry_verify,
	.teardown = dhry_teardown, .label = dhry_label,
};
