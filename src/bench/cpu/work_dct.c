/* SPDX-License-Identifier: MIT */
/*
 * cpu.work.dct: the transform at the heart of a JPEG encoder. A 128 x 128
 * 8-bit greyscale image (a smooth gradient with texture) is cut into 256
 * blocks of 8 x 8; each is level-shifted, transformed by a separable
 * two-dimensional DCT-II in fixed point (cosines in Q13, rows then
 * columns, rounding between passes) and quantised with the JPEG standard's
 * example luminance table (ITU T.81 Annex K, quality 50), then read out in
 * zigzag order. One iteration is the whole image. Integer multiply-adds,
 * shifts and divisions.
 *
 * Checked: setup transforms every block again in double precision and the
 * fixed-point coefficients must be within 1 of those before quantisation;
 * the CRC of the quantised, zigzagged coefficients it saw then must be
 * what every step's last iteration gives.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "work.h"

#define W 128
#define H 128
#define Q 13
#define PI 3.14159265358979323846

static const uint8_t quant[64] = {	/* ITU T.81 Table K.1, row by row */
	16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
	14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
	18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
	49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
};

struct dct_work {
	uint8_t img[H][W];
	int32_t cosq[8][8];	/* c(u)/2 cos((2x+1)u pi/16) in Q13 */
	int16_t out[(W / 8) * (H / 8)][64];
	uint8_t zigzag[64];
	uint32_t want;
};

/* The 8 x 8 DCT of one block in fixed point, before quantisation. */
static void fdct_block(const struct dct_work *s, int bx, int by, int32_t coef[8][8])
{
	int32_t tmp[8][8];
	for (int y = 0; y < 8; y++)	/* rows */
		for (int u = 0; u < 8; u++) {
			int32_t sum = 0;
			for (int x = 0; x < 8; x++)
				sum += s->cosq[u][x] * (s->img[by + y][bx + x] - 128);
			tmp[y][u] = (sum + (1 << (Q - 4))) >> (Q - 3);	/* keep 3 extra bits */
		}
	for (int u = 0; u < 8; u++)	/* columns */
		for (int v = 0; v < 8; v++) {
			int32_t sum = 0;
			for (int y = 0; y < 8; y++)
				sum += s->cosq[v][y] * tmp[y][u];
			coef[v][u] = (sum + (1 << (Q + 2))) >> (Q + 3);
		}
}

static uint32_t dct_run(void *p)
{
	struct dct_work *s = p;
	int b = 0;
	for (int by = 0; by < H; by += 8)
		for (int bx = 0; bx < W; bx += 8, b++) {
			int32_t coef[8][8];
			fdct_block(s, bx, by, coef);
			for (int i = 0; i < 64; i++) {
				int k = s->zigzag[i];
				int32_t c = coef[k / 8][k % 8], q = quant[k];
				/* round half away from zero, as JPEG encoders do */
				s->out[b][i] = (int16_t)(c >= 0 ? (c + q / 2) / q : -((-c + q / 2) / q));
			}
		}
	return pg_work_crc32(0, s->out, sizeof(s->out));
}

static int dct_init(void *p, char *why, size_t len)
{
	struct dct_work *s = p;
	uint32_t r = 7;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int v = (x + 2 * y) / 3 + 40 + (int)(pg_work_rand(&r) % 24) +
				(((x / 8 + y / 8) % 3) ? 0 : 30 * ((x + y) % 2));
			s->img[y][x] = (uint8_t)(v > 255 ? 255 : v);
		}
	for (int u = 0; u < 8; u++)
		for (int x = 0; x < 8; x++) {
			double c = (u == 0 ? sqrt(0.5) : 1.0) / 2 * cos((2 * x + 1) * u * PI / 16);
			s->cosq[u][x] = (int32_t)lrint(c * (1 << Q));
		}
	/* zigzag: walk the anti-diagonals, alternating direction */
	int i = 0;
	for (int d = 0; d < 15; d++)
		for (int j = 0; j <= d; j++) {
			int row = d % 2 ? j : d - j, col = d - row;
			if (row < 8 && col < 8)
				s->zigzag[i++] = (uint8_t)(row * 8 + col);
		}
	/* every block against the transform in double precision */
	for (int by = 0; by < H; by += 8)
		for (int bx = 0; bx < W; bx += 8) {
			int32_t coef[8][8];
			fdct_block(s, bx, by, coef);
			for (int v = 0; v < 8; v++)
				for (int u = 0; u < 8; u++) {
					double sum = 0;
					for (int y = 0; y < 8; y++)
						for (int x = 0; x < 8; x++)
							sum += (s->img[by + y][bx + x] - 128) *
							       cos((2 * x + 1) * u * PI / 16) *
							       cos((2 * y + 1) * v * PI / 16);
					sum *= (u ? 1 : sqrt(0.5)) * (v ? 1 : sqrt(0.5)) / 4;
					if (fabs(coef[v][u] - sum) > 1.0) {
						snprintf(why, len, "block (%d, %d) coefficient (%d, %d) is %d, "
							 "should be %.2f", bx, by, u, v, coef[v][u], sum);
						return -1;
					}
				}
		}
	s->want = dct_run(s);
	return 0;
}

static int dct_check(void *p, uint32_t sum, char *why, size_t len)
{
	return pg_work_crc_is(sum, ((struct dct_work *)p)->want, why, len);
}

static const struct pg_work dct_work = {
	.state_size = sizeof(struct dct_work),
	.init = dct_init, .run = dct_run, .check = dct_check,
};

const struct pg_bench pg_cpu_work_dct =
	PG_WORK_BENCH("cpu.work.dct", "JPEG-like 8x8 DCT and quantisation of a 128x128 image",
		      &dct_work);
