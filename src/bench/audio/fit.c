/* SPDX-License-Identifier: MIT */
/*
 * The rate a device runs at, from the positions its driver reports.
 *
 * Each point is a position in frames and the CLOCK_MONOTONIC time the
 * driver read it at. A driver's position moves in steps (a period, a
 * timer tick: snd-aloop's is a jiffy, 4 ms at HZ=250), so two points alone
 * are off by up to a step; the least-squares slope over every point of a
 * run is not. A stretch ends at an xrun (the stream stopped and started
 * again from position 0): the slope is pooled over the stretches, each
 * with its own intercept.
 */
#include "audio.h"

void audio_fit_init(struct audio_fit *f)
{
	*f = (struct audio_fit){ 0 };
}

void audio_fit_add(struct audio_fit *f, double t, double pos)
{
	if (f->n == 0) {
		f->t0 = t;
		f->p0 = pos;
	}
	/* Relative to the stretch's first point: seconds and frames stay
	 * small, so the sums keep their precision. */
	double x = t - f->t0, y = pos - f->p0;
	f->n += 1;
	f->st += x;
	f->sp += y;
	f->stt += x * x;
	f->stp += x * y;
}

static void open_sums(const struct audio_fit *f, double *sxx, double *sxy)
{
	*sxx = *sxy = 0;
	if (f->n < 2)
		return;
	*sxx = f->stt - f->st * f->st / f->n;
	*sxy = f->stp - f->st * f->sp / f->n;
}

void audio_fit_break(struct audio_fit *f)
{
	double sxx, sxy;
	open_sums(f, &sxx, &sxy);
	f->sxx += sxx;
	f->sxy += sxy;
	f->n = f->st = f->sp = f->stt = f->stp = 0;
}

double audio_fit_rate(const struct audio_fit *f)
{
	double sxx, sxy;
	open_sums(f, &sxx, &sxy);
	sxx += f->sxx;
	sxy += f->sxy;
	return sxx > 0 ? sxy / sxx : 0;
}
