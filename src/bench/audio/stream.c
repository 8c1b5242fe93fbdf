/* SPDX-License-Identifier: MIT */
/*
 * Playback and capture on one ALSA device, as aplay and arecord stream:
 * interleaved frames a period at a time, for `time` seconds per sample.
 *
 * What is counted comes from the driver, not from the application's own
 * clock: every few milliseconds the stream's status gives the device's
 * position in frames and the CLOCK_MONOTONIC time it was read at. The rate
 * the device runs at is the slope of those positions over time; the
 * throughput is the frames it moved (played, or captured and delivered)
 * from its start to the sample's end, in bits per second as the seed
 * prints it. An under- or overrun is counted, the stream prepared and
 * started again, and the sample goes on: the time the device stood still
 * stays in the throughput's time, so xruns show there too, never hidden.
 *
 * `stall` makes the application stop transferring for a while once per
 * sample, halfway, as a program that falls behind would: longer than the
 * buffer lasts, it must cost exactly one xrun.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "audio.h"
#include "core/timer.h"

struct stream_state {
	struct audio_cfg cfg;
	struct audio_pcm *pcm;
	unsigned long period, buffer;
	size_t frame_bytes, nper;	/* the data buffer: nper periods */
	uint8_t *data;
};

static int audio_stream_setup(struct pg_ctx *ctx)
{
	struct stream_state *st = calloc(1, sizeof(*st));
	if (!st)
		return pg_error(ctx, "out of memory");
	ctx->priv = st;
	int capture = ctx->bench->data != NULL;
	audio_cfg_from_args(&st->cfg, ctx->args, "device", capture);
	int rc = audio_pcm_open(ctx, &st->cfg, &st->pcm);
	if (rc != PG_OK)
		return rc;
	audio_pcm_geometry(st->pcm, &st->period, &st->buffer);
	st->frame_bytes = audio_frame_bits(&st->cfg) / 8;
	st->nper = st->buffer / st->period;
	st->data = malloc(st->nper * st->period * st->frame_bytes);
	if (!st->data)
		return pg_error(ctx, "out of memory for a %lu-frame buffer", st->buffer);
	/* What is played is the loop's signal: any data would do, but this
	 * is never silence, which a driver could treat differently. */
	audio_sig_fill(st->data, 0, st->nper * st->period, st->cfg.fmt, st->cfg.channels);
	char what[PG_MSG_LEN - 32];
	audio_pcm_describe(st->pcm, what, sizeof(what));
	pg_note(ctx, "%s", what);
	return PG_OK;
}

static int audio_stream_prepare(struct pg_ctx *ctx, uint64_t iters)
{
	struct stream_state *st = ctx->priv;
	(void)iters;
	int err = audio_pcm_reset(st->pcm);
	if (err < 0)
		return pg_error(ctx, "ALSA device '%s': cannot prepare: %s", st->cfg.device,
				audio_strerror(err));
	return PG_OK;
}

/* What one sample counts as it goes. */
struct tally {
	struct audio_fit fit;
	uint64_t moved;		/* frames moved by the stretches that ended */
	uint64_t xruns;
	double start;		/* the first stretch's start; < 0: not yet */
};

/* Takes a status point: the fit's, and the first start. */
static int point(struct stream_state *st, struct tally *t, struct audio_status *s)
{
	int err = audio_pcm_status(st->pcm, s);
	if (err < 0)
		return err;
	if (s->running) {
		audio_fit_add(&t->fit, s->t, (double)s->pos);
		if (t->start < 0)
			t->start = s->trigger;
	}
	return 0;
}

/* An under- or overrun: counted; the frames moved up to it kept (playback
 * played all it was given; capture delivered what was read, the rest is
 * lost); the stream set going again. */
static int xrun(struct pg_ctx *ctx, struct stream_state *st, struct tally *t)
{
	struct audio_status s;
	int err = audio_pcm_status(st->pcm, &s);
	if (err >= 0) {
		t->moved += s.appl;
		t->xruns++;
		audio_fit_break(&t->fit);
		err = audio_pcm_reset(st->pcm);
	}
	if (err >= 0 && st->cfg.capture)
		err = audio_pcm_start(st->pcm);
	if (err < 0)
		return pg_error(ctx, "ALSA device '%s': cannot recover from an xrun: %s", st->cfg.device,
				audio_strerror(err));
	return PG_OK;
}

/* One sample's loop: where it is in the data buffer, when the device last
 * moved data and when the next position is taken. */
struct cursor {
	size_t slot;
	double moved_at, next_point;
	double stuck;		/* a device that moves nothing for this long has stopped */
};

/* A period moved if the device has room for one (or has one captured), an
 * xrun recovered, or a wait for the device. PG_OK, or the error. */
static int move_period(struct pg_ctx *ctx, struct stream_state *st, struct tally *t,
		       struct cursor *c, double now)
{
	const char *dev = st->cfg.device;
	long n = audio_pcm_avail(st->pcm);
	if (n >= 0 && (unsigned long)n >= st->period)
		n = audio_pcm_transfer(st->pcm, st->data + c->slot * st->period * st->frame_bytes,
				       st->period);
	else if (n >= 0)
		n = -EAGAIN;
	if (n == -EPIPE)
		return xrun(ctx, st, t);
	if (n == -EAGAIN) {
		if (now - c->moved_at > c->stuck)
			return pg_error(ctx, "ALSA device '%s' moved no data for %.1f s: its clock "
					"or interrupt stopped", dev, now - c->moved_at);
		int err = audio_pcm_wait(&st->pcm, 1, 50);
		if (err < 0)
			return pg_error(ctx, "ALSA device '%s': poll: %s", dev, audio_strerror(err));
		return PG_OK;
	}
	if (n < 0)
		return pg_error(ctx, "ALSA device '%s': %s failed: %s", dev,
				st->cfg.capture ? "read" : "write", audio_strerror((int)n));
	c->moved_at = now;
	c->slot = (c->slot + 1) % st->nper;
	/* A position every 5 ms is plenty for the fit, and the first as soon
	 * as the device runs. */
	if (now >= c->next_point || t->start < 0) {
		struct audio_status s;
		int err = point(st, t, &s);
		if (err < 0)
			return pg_error(ctx, "ALSA device '%s': status: %s", dev, audio_strerror(err));
		c->next_point = now + 0.005;
	}
	return PG_OK;
}

/* The sample's figures: the frames moved over the time from the first
 * start, the rate the positions fit, the xruns. */
static int sample_end(struct pg_ctx *ctx, struct stream_state *st, struct tally *t, double time,
		      double *counts)
{
	const char *dev = st->cfg.device;
	struct audio_status s;
	int err = point(st, t, &s);
	if (err < 0)
		return pg_error(ctx, "ALSA device '%s': status: %s", dev, audio_strerror(err));
	/* A stream standing still at the end (in an xrun, or prepared again
	 * after one) stood still until now, and that time counts. */
	double end = s.running ? s.t : pg_now();
	if (s.xrun)
		t->xruns++;
	t->moved += s.xrun ? s.appl : s.pos;
	audio_pcm_reset(st->pcm);
	double rate = audio_fit_rate(&t->fit);
	if (t->start < 0 || !(rate > 0) || !(end > t->start))
		return pg_error(ctx, "ALSA device '%s' never ran in %.0f s (%llu xruns)", dev, time,
				(unsigned long long)t->xruns);
	counts[0] = audio_bits_per_s(t->moved, end - t->start, &st->cfg);
	counts[1] = rate;
	counts[2] = (double)t->xruns;
	return PG_OK;
}

static int audio_stream_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct stream_state *st = ctx->priv;
	(void)iters;
	double time = (double)pg_arg_int(ctx->args, "time");
	int64_t stall = pg_arg_int(ctx->args, "stall");
	struct tally t = { .start = -1 };
	audio_fit_init(&t.fit);
	int err = st->cfg.capture ? audio_pcm_start(st->pcm) : 0;
	if (err < 0)
		return pg_error(ctx, "ALSA device '%s': cannot start capture: %s", st->cfg.device,
				audio_strerror(err));
	double t0 = pg_now(), deadline = t0 + time, stall_at = stall ? t0 + time / 2 : INFINITY;
	struct cursor c = { .moved_at = t0, .next_point = t0,
			    .stuck = fmax(2.0, 4.0 * (double)st->buffer / st->cfg.rate) };
	for (;;) {
		double now = pg_now();
		if (now >= deadline)
			break;
		if (now >= stall_at) {
			pg_sleep_s((double)stall / 1000);
			stall_at = INFINITY;
			c.moved_at = pg_now();
			continue;
		}
		int rc = move_period(ctx, st, &t, &c, now);
		if (rc != PG_OK)
			return rc;
	}
	return sample_end(ctx, st, &t, time, counts);
}

static void audio_stream_teardown(struct pg_ctx *ctx)
{
	struct stream_state *st = ctx->priv;
	if (!st)
		return;
	audio_pcm_close(st->pcm);
	free(st->data);
	free(st);
	ctx->priv = NULL;
}

static const struct pg_param stream_params[] = {
	{ .name = "device", .type = PG_P_STR, .whole = 1, .def = "default",
	  .help = "ALSA PCM device (aplay -D): default, hw:0,0, hw:Dummy,0" },
	AUDIO_FORMAT_PARAMS,
	{ .name = "stall", .type = PG_P_INT, .def = "0", .min = 0, .max = 1800000,
	  .help = "ms the application stops transferring, once a sample, halfway (a program "
		  "falling behind: how xruns are counted); 0: never" },
	{ 0 },
};

static const struct pg_metric stream_metrics[] = {
	{ "throughput", "bits/s", PG_VALUE, 1, 1, 0 },
	{ "rate", "Hz", PG_VALUE, 1, 1, 0 },
	{ "xruns", "count", PG_VALUE, 1, 0, 0 },
	{ 0 },
};

static const int capture_dir = 1;

#define STREAM_BENCH									\
	.section = &audio_section, .params = stream_params, .metrics = stream_metrics,	\
	.trial = 1, .check = audio_check, .setup = audio_stream_setup, .prepare = audio_stream_prepare,	\
	.step = audio_stream_step, .teardown = audio_stream_teardown, .label = audio_label

const struct pg_bench pg_audio_playback = {
	.id = "audio.playback", .title = "ALSA playback (aplay)", STREAM_BENCH,
};
const struct pg_bench pg_audio_capture = {
	.id = "audio.capture", .title = "ALSA capture (arecord)", .data = &capture_dir, STREAM_BENCH,
};
