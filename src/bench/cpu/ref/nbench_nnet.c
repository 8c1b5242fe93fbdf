/* SPDX-License-Identifier: MIT */
/*
 * cpu.nbench.nnet: BYTEmark's neural net. A three-layer back-propagation
 * network (35 inputs: a 5 x 7 character image; 8 middle neurodes; 8
 * outputs: the character's 8-bit ASCII code) with sigmoid activations
 * (exp() at every neurode), learning rate and momentum 0.09, is taught ten
 * characters, A to J, one pattern at a time (forward pass, back pass,
 * weights adjusted), pass after pass over all ten, until every output of
 * every pattern is within 0.1 of its target. Pixels are 0.9 (lit) and 0.1.
 *
 * The reference counts "learning cycles": weights reset to the same random
 * start, then passes until learned. Its documentation gives its cycle as
 * 780 passes on its data. perfguide's patterns are its own drawing of the
 * letters and its start its own, so its cycle takes its own number of
 * passes (found in setup; the same on every cycle, since every cycle
 * starts alike); the work of a pass does not depend on the data, so each
 * cycle is counted as passes / 780 of the reference's cycles: iterations
 * per second in the reference's unit.
 *
 * Checked after every step: the last cycle learned in the same number of
 * passes as the first, and the net's outputs, rounded, are the ASCII codes
 * of all ten letters.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "bench/cpu/cpu.h"
#include "nbench.h"

#define IN 35
#define MID 8
#define OUT 8
#define NPAT 10
#define RATE 0.09
#define MOMENTUM 0.09
#define STOP 0.1
#define REF_PASSES 780.0	/* the reference's learning cycle, per its documentation */
#define MAX_PASSES 100000	/* a net that has not learned by then never will */

/* A to J, 5 x 7, as a dot-matrix display draws them. */
static const char *const glyphs[NPAT][7] = {
	{ "..#..", ".#.#.", "#...#", "#...#", "#####", "#...#", "#...#" },
	{ "####.", "#...#", "#...#", "####.", "#...#", "#...#", "####." },
	{ ".###.", "#...#", "#....", "#....", "#....", "#...#", ".###." },
	{ "####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####." },
	{ "#####", "#....", "#....", "####.", "#....", "#....", "#####" },
	{ "#####", "#....", "#....", "####.", "#....", "#....", "#...." },
	{ ".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####" },
	{ "#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#" },
	{ ".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###." },
	{ "..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.." },
};

struct nnet_state {
	double in[NPAT][IN], target[NPAT][OUT];
	double w_mid[MID][IN], w_out[OUT][MID];
	double w_mid0[MID][IN], w_out0[OUT][MID];	/* every cycle's start */
	/* The momentum term's last changes, and the changes being summed now
	 * (Caudill's design: summed, then moved over before each pattern). */
	double last_mid[MID][IN], last_out[OUT][MID];
	double sum_mid[MID][IN], sum_out[OUT][MID];
	double mid[MID], out[OUT], err_mid[MID], err_out[OUT];
	double worst[NPAT];	/* each pattern's largest output error */
	long passes;		/* of the first cycle, found in setup */
	long last_passes;
};

static double sigmoid(double x)
{
	return 1.0 / (1.0 + exp(-x));
}

static void forward(struct nnet_state *s, const double *in)
{
	for (int j = 0; j < MID; j++) {
		double sum = 0.0;
		for (int i = 0; i < IN; i++)
			sum += s->w_mid[j][i] * in[i];
		s->mid[j] = sigmoid(sum);
	}
	for (int k = 0; k < OUT; k++) {
		double sum = 0.0;
		for (int j = 0; j < MID; j++)
			sum += s->w_out[k][j] * s->mid[j];
		s->out[k] = sigmoid(sum);
	}
}

/* The changes summed since the last pattern become the momentum term. */
static void move_changes(struct nnet_state *s)
{
	memcpy(s->last_mid, s->sum_mid, sizeof(s->last_mid));
	memcpy(s->last_out, s->sum_out, sizeof(s->last_out));
	memset(s->sum_mid, 0, sizeof(s->sum_mid));
	memset(s->sum_out, 0, sizeof(s->sum_out));
}

/* Back-propagates pattern p's error and adjusts the weights. */
static void backward(struct nnet_state *s, int p)
{
	const double *in = s->in[p];
	double worst = 0.0;
	/* Output deltas are target - output: the gradient of the
	 * cross-entropy error through a sigmoid. */
	for (int k = 0; k < OUT; k++) {
		s->err_out[k] = s->target[p][k] - s->out[k];
		if (fabs(s->err_out[k]) > worst)
			worst = fabs(s->err_out[k]);
	}
	s->worst[p] = worst;
	for (int j = 0; j < MID; j++) {
		double sum = 0.0;
		for (int k = 0; k < OUT; k++)
			sum += s->w_out[k][j] * s->err_out[k];
		s->err_mid[j] = s->mid[j] * (1.0 - s->mid[j]) * sum;
	}
	for (int k = 0; k < OUT; k++)
		for (int j = 0; j < MID; j++) {
			double d = RATE * s->err_out[k] * s->mid[j] + MOMENTUM * s->last_out[k][j];
			s->w_out[k][j] += d;
			s->sum_out[k][j] += d;
		}
	for (int j = 0; j < MID; j++)
		for (int i = 0; i < IN; i++) {
			double d = RATE * s->err_mid[j] * in[i] + MOMENTUM * s->last_mid[j][i];
			s->w_mid[j][i] += d;
			s->sum_mid[j][i] += d;
		}
}

/* One learning cycle from the common start; returns the passes it took,
 * or -1 when it did not learn within MAX_PASSES. */
static long learn(struct nnet_state *s)
{
	memcpy(s->w_mid, s->w_mid0, sizeof(s->w_mid));
	memcpy(s->w_out, s->w_out0, sizeof(s->w_out));
	memset(s->sum_mid, 0, sizeof(s->sum_mid));
	memset(s->sum_out, 0, sizeof(s->sum_out));
	for (long pass = 1; pass <= MAX_PASSES; pass++) {
		for (int p = 0; p < NPAT; p++) {
			move_changes(s);
			forward(s, s->in[p]);
			backward(s, p);
		}
		double worst = 0.0;
		for (int p = 0; p < NPAT; p++)
			if (s->worst[p] > worst)
				worst = s->worst[p];
		if (worst < STOP)
			return pass;
	}
	return -1;
}

/* 0 when the net, as it stands, gives every letter's ASCII code. */
static int nnet_check(struct nnet_state *s, char *why, size_t len)
{
	for (int p = 0; p < NPAT; p++) {
		forward(s, s->in[p]);
		int code = 0;
		for (int k = 0; k < OUT; k++)
			code = code << 1 | (s->out[k] > 0.5);
		if (code != 'A' + p) {
			snprintf(why, len, "the net reads %c as 0x%02x", 'A' + p, code);
			return -1;
		}
	}
	return 0;
}

static struct nnet_state *nnet_new(void)
{
	struct nnet_state *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	for (int p = 0; p < NPAT; p++) {
		for (int r = 0; r < 7; r++)
			for (int c = 0; c < 5; c++)
				s->in[p][r * 5 + c] = glyphs[p][r][c] == '#' ? 0.9 : 0.1;
		for (int k = 0; k < OUT; k++)
			s->target[p][k] = (('A' + p) >> (OUT - 1 - k)) & 1;
	}
	/* Small random starting weights in [-0.25, 0.25) from the reference's
	 * generator, the same for every cycle. */
	struct nb_rand r;
	nb_rand_init(&r);
	for (int j = 0; j < MID; j++)
		for (int i = 0; i < IN; i++)
			s->w_mid0[j][i] = (abs(nb_rand_next(&r) % 100000) / 100000.0 - 0.5) / 2;
	for (int k = 0; k < OUT; k++)
		for (int j = 0; j < MID; j++)
			s->w_out0[k][j] = (abs(nb_rand_next(&r) % 100000) / 100000.0 - 0.5) / 2;
	return s;
}

long pg_nbench_nnet_passes(char *why, size_t len)
{
	struct nnet_state *s = nnet_new();
	if (!s) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	long n = learn(s);
	if (n < 0)
		snprintf(why, len, "the net did not learn in %d passes", MAX_PASSES);
	else if (nnet_check(s, why, len) != 0)
		n = -1;
	free(s);
	return n;
}

static int nnet_setup(struct pg_ctx *ctx)
{
	struct nnet_state *s = nnet_new();
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->passes = learn(s);
	if (s->passes < 0)
		return pg_error(ctx, "nnet: the net did not learn in %d passes", MAX_PASSES);
	char why[120];
	if (nnet_check(s, why, sizeof(why)) != 0)
		return pg_error(ctx, "nnet: %s", why);
	if (ctx->copy == 0)
		pg_note(ctx, "learns in %ld passes, counted %.4g reference cycles (780 passes)",
			s->passes, s->passes / REF_PASSES);
	return PG_OK;
}

static void nnet_teardown(struct pg_ctx *ctx)
{
	free(ctx->priv);
}

static int nnet_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct nnet_state *s = ctx->priv;
	for (uint64_t it = 0; it < iters; it++)
		s->last_passes = learn(s);
	if (s->last_passes != s->passes)
		return pg_error(ctx, "nnet: a cycle took %ld passes, the first %ld", s->last_passes,
				s->passes);
	char why[120];
	if (nnet_check(s, why, sizeof(why)) != 0)
		return pg_error(ctx, "nnet: %s", why);
	counts[0] = (double)iters * s->passes / REF_PASSES;
	return PG_OK;
}

static void nnet_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		       char *buf, size_t len)
{
	(void)b;
	(void)a;
	(void)metric;
	snprintf(buf, len, "neural_net (Iterations)");
}

static const struct pg_param nnet_params[] = {
	PG_CPU_COPIES_PARAM,
	{ 0 },
};

static const struct pg_metric nnet_metrics[] = {
	{ "iterations", "iter/s", PG_RATE, 1.0, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_cpu_nbench_nnet = {
	.id = "cpu.nbench.nnet",
	.section = &pg_cpu_sec_nbench,
	.title = "BYTEmark back-propagation neural net",
	.params = nnet_params, .metrics = nnet_metrics, .copies_param = "copies",
	.setup = nnet_setup, .step = nnet_step, .teardown = nnet_teardown,
	.label = nnet_label,
};
