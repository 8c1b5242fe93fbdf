/* SPDX-License-Identifier: MIT */
/*
 * cpu.work.fft: a radix-2 complex FFT of 4096 points in double precision,
 * iterative (bit-reversal permutation, then log2 N passes of butterflies
 * with twiddle factors from a table made in setup). One iteration copies
 * the input in and transforms it. Floating-point multiply-adds with
 * strided memory access.
 *
 * Checked on every step: the input is three complex exponentials at known
 * bins with known amplitudes plus a constant; the spectrum must hold
 * exactly those (each within 1e-9 of N times its amplitude) and nothing
 * else (every other bin below 1e-9 N). Setup also checks the transform
 * against a direct DFT at a few bins.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "work.h"

#define LOGN 12
#define N (1 << LOGN)
#define PI 3.14159265358979323846

static const struct {
	int bin;
	double re, im;
} tones[] = { { 0, 0.5, 0.0 }, { 17, 1.0, 0.0 }, { 400, 0.25, -0.75 }, { 3000, -2.0, 0.5 } };
#define NTONES (sizeof(tones) / sizeof(tones[0]))

struct fft_work {
	double re0[N], im0[N];	/* the input */
	double re[N], im[N];
	double wr[N / 2], wi[N / 2];	/* exp(-2 pi i k / N) */
	uint16_t rev[N];
};

static void fft(struct fft_work *s)
{
	double *re = s->re, *im = s->im;
	for (int i = 0; i < N; i++) {
		int j = s->rev[i];
		if (j > i) {
			double t = re[i];
			re[i] = re[j];
			re[j] = t;
			t = im[i];
			im[i] = im[j];
			im[j] = t;
		}
	}
	for (int half = 1, step = N / 2; half < N; half *= 2, step /= 2)
		for (int start = 0; start < N; start += 2 * half)
			for (int k = 0; k < half; k++) {
				int a = start + k, b = a + half;
				double wr = s->wr[k * step], wi = s->wi[k * step];
				double tr = re[b] * wr - im[b] * wi;
				double ti = re[b] * wi + im[b] * wr;
				re[b] = re[a] - tr;
				im[b] = im[a] - ti;
				re[a] += tr;
				im[a] += ti;
			}
}

static uint32_t fft_run(void *p)
{
	struct fft_work *s = p;
	memcpy(s->re, s->re0, sizeof(s->re));
	memcpy(s->im, s->im0, sizeof(s->im));
	fft(s);
	return 0;
}

static int fft_check(void *p, uint32_t sum, char *why, size_t len)
{
	struct fft_work *s = p;
	(void)sum;
	for (int k = 0; k < N; k++) {
		double wr = 0, wi = 0;
		for (size_t t = 0; t < NTONES; t++)
			if (tones[t].bin == k) {
				wr = N * tones[t].re;
				wi = N * tones[t].im;
			}
		if (!(fabs(s->re[k] - wr) <= 1e-9 * N && fabs(s->im[k] - wi) <= 1e-9 * N)) {
			snprintf(why, len, "bin %d is %.6g%+.6gi, should be %.6g%+.6gi", k, s->re[k],
				 s->im[k], wr, wi);
			return -1;
		}
	}
	return 0;
}

static int fft_init(void *p, char *why, size_t len)
{
	struct fft_work *s = p;
	for (int i = 0; i < N; i++) {
		int r = 0;
		for (int b = 0; b < LOGN; b++)
			r |= ((i >> b) & 1) << (LOGN - 1 - b);
		s->rev[i] = (uint16_t)r;
	}
	for (int k = 0; k < N / 2; k++) {
		s->wr[k] = cos(2 * PI * k / N);
		s->wi[k] = -sin(2 * PI * k / N);
	}
	for (int n = 0; n < N; n++) {
		double complex x = 0;
		for (size_t t = 0; t < NTONES; t++)
			x += (tones[t].re + I * tones[t].im) * cexp(2 * PI * I * tones[t].bin * n / N);
		s->re0[n] = creal(x);
		s->im0[n] = cimag(x);
	}
	fft_run(s);
	/* a direct DFT at a few bins, tones and not */
	static const int bins[] = { 0, 1, 17, 400, 401, 2048, 3000, N - 1 };
	for (size_t b = 0; b < sizeof(bins) / sizeof(bins[0]); b++) {
		int k = bins[b];
		double complex X = 0;
		for (int n = 0; n < N; n++)
			X += (s->re0[n] + I * s->im0[n]) * cexp(-2 * PI * I * ((double)k * n / N));
		if (cabs(X - (s->re[k] + I * s->im[k])) > 1e-8 * N) {
			snprintf(why, len, "bin %d: FFT %.6g%+.6gi, direct DFT %.6g%+.6gi", k, s->re[k],
				 s->im[k], creal(X), cimag(X));
			return -1;
		}
	}
	return 0;
}

static const struct pg_work fft_work = {
	.state_size = sizeof(struct fft_work),
	.init = fft_init, .run = fft_run, .check = fft_check,
};

const struct pg_bench pg_cpu_work_fft =
	PG_WORK_BENCH("cpu.work.fft", "Radix-2 complex FFT of 4096 points (double)", &fft_work);
