/* SPDX-License-Identifier: MIT */
/*
 * cpu.work.nnet: inference of a small fully connected neural network in
 * 8-bit fixed point, as a microcontroller or DSP runs one: 128 inputs, two
 * hidden layers of 64 and 32 neurons with ReLU, 10 outputs; int8 weights
 * and activations, int32 accumulators, each layer's sums scaled back to
 * int8 by a shift with rounding and saturation. One iteration classifies
 * 32 input vectors (the index of the largest output). Multiply-accumulate
 * loops over small arrays.
 *
 * Checked: setup runs every vector through the same network computed
 * another way (weights walked column by column, 64-bit sums) and keeps the
 * CRC of all outputs; every step's last iteration must give that CRC.
 */
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "work.h"

#define NIN 128
#define NH1 64
#define NH2 32
#define NOUT 10
#define NVEC 32
#define SHIFT 7

struct nnet_work {
	int8_t x[NVEC][NIN];
	int8_t w1[NH1][NIN], w2[NH2][NH1], w3[NOUT][NH2];
	int32_t b1[NH1], b2[NH2], b3[NOUT];
	int8_t out[NVEC][NOUT];
	uint8_t cls[NVEC];
	uint32_t want;
};

static int8_t requant(int32_t acc, int relu)
{
	int32_t v = (acc + (1 << (SHIFT - 1))) >> SHIFT;
	if (relu && v < 0)
		v = 0;
	return (int8_t)(v > 127 ? 127 : v < -128 ? -128 : v);
}

static void layer(const int8_t *in, int nin, const int8_t *w, const int32_t *bias, int nout,
		  int8_t *out, int relu)
{
	for (int o = 0; o < nout; o++) {
		int32_t acc = bias[o];
		const int8_t *row = w + o * nin;
		for (int i = 0; i < nin; i++)
			acc += row[i] * in[i];
		out[o] = requant(acc, relu);
	}
}

static uint32_t nnet_run(void *p)
{
	struct nnet_work *s = p;
	for (int v = 0; v < NVEC; v++) {
		int8_t h1[NH1], h2[NH2];
		layer(s->x[v], NIN, &s->w1[0][0], s->b1, NH1, h1, 1);
		layer(h1, NH1, &s->w2[0][0], s->b2, NH2, h2, 1);
		layer(h2, NH2, &s->w3[0][0], s->b3, NOUT, s->out[v], 0);
		int best = 0;
		for (int k = 1; k < NOUT; k++)
			if (s->out[v][k] > s->out[v][best])
				best = k;
		s->cls[v] = (uint8_t)best;
	}
	return pg_work_crc32(pg_work_crc32(0, s->out, sizeof(s->out)), s->cls, sizeof(s->cls));
}

/* The same layer, weights walked column by column into 64-bit sums. */
static void layer_cols(const int8_t *in, int nin, const int8_t *w, const int32_t *bias, int nout,
		       int8_t *out, int relu)
{
	int64_t acc[NH1];
	for (int o = 0; o < nout; o++)
		acc[o] = bias[o];
	for (int i = 0; i < nin; i++)
		for (int o = 0; o < nout; o++)
			acc[o] += (int64_t)w[o * nin + i] * in[i];
	for (int o = 0; o < nout; o++)
		out[o] = requant((int32_t)acc[o], relu);
}

static int nnet_init(void *p, char *why, size_t len)
{
	(void)why;
	(void)len;
	struct nnet_work *s = p;
	uint32_t r = 31337;
	/* weights spread so that about half the hidden neurons fire */
	for (int o = 0; o < NH1; o++) {
		for (int i = 0; i < NIN; i++)
			s->w1[o][i] = (int8_t)((int)(pg_work_rand(&r) % 41) - 20);
		s->b1[o] = (int32_t)(pg_work_rand(&r) % 2001) - 1000;
	}
	for (int o = 0; o < NH2; o++) {
		for (int i = 0; i < NH1; i++)
			s->w2[o][i] = (int8_t)((int)(pg_work_rand(&r) % 61) - 30);
		s->b2[o] = (int32_t)(pg_work_rand(&r) % 2001) - 1000;
	}
	for (int o = 0; o < NOUT; o++) {
		for (int i = 0; i < NH2; i++)
			s->w3[o][i] = (int8_t)((int)(pg_work_rand(&r) % 81) - 40);
		s->b3[o] = 0;
	}
	for (int v = 0; v < NVEC; v++)
		for (int i = 0; i < NIN; i++)
			s->x[v][i] = (int8_t)(pg_work_rand(&r) % 128);
	int8_t out[NVEC][NOUT];
	uint8_t cls[NVEC];
	for (int v = 0; v < NVEC; v++) {
		int8_t h1[NH1], h2[NH2];
		layer_cols(s->x[v], NIN, &s->w1[0][0], s->b1, NH1, h1, 1);
		layer_cols(h1, NH1, &s->w2[0][0], s->b2, NH2, h2, 1);
		layer_cols(h2, NH2, &s->w3[0][0], s->b3, NOUT, out[v], 0);
		int best = 0;
		for (int k = 1; k < NOUT; k++)
			if (out[v][k] > out[v][best])
				best = k;
		cls[v] = (uint8_t)best;
	}
	s->want = pg_work_crc32(pg_work_crc32(0, out, sizeof(out)), cls, sizeof(cls));
	return 0;
}

static int nnet_check(void *p, uint32_t sum, char *why, size_t len)
{
	return pg_work_crc_is(sum, ((struct nnet_work *)p)->want, why, len);
}

static const struct pg_work nnet_work = {
	.state_size = sizeof(struct nnet_work),
	.init = nnet_init, .run = nnet_run, .check = nnet_check,
};

const struct pg_bench pg_cpu_work_nnet =
	PG_WORK_BENCH("cpu.work.nnet", "8-bit fixed-point neural network inference (128-64-32-10)",
		      &nnet_work);
