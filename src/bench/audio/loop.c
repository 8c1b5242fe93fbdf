/* SPDX-License-Identifier: MIT */
/*
 * A known signal through a loopback device (snd-aloop: what is played on
 * hw:Loopback,0,N comes out of hw:Loopback,1,N), checked frame by frame.
 *
 * Capture starts first and reads silence; then playback fills its buffer
 * with the signal of signal.c and keeps it full, a period at a time. Every
 * captured frame is checked: a frame lost, wrong, repeated, or silent once
 * the signal has begun is an error (a digital loopback moves every bit as
 * it was played, so a clean run has none). The signal's frames name their
 * own index, so a check goes on past a gap.
 *
 * Round-trip latency, for every period played while the stream runs: from
 * the moment the application's write of the period's first frame returned
 * to the moment that frame was captured, which is read from the capture's
 * position: the driver's position and its time, taken right after each
 * read, place every frame read on the monotonic clock. It is the output
 * latency (the frames queued ahead of it in the playback buffer) plus
 * whatever the device adds, the time a program that plays and records
 * through the same loop sees. Throughput and rate are the capture side's,
 * counted as audio.capture counts them; xruns are both sides'.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audio.h"
#include "core/hist.h"
#include "core/timer.h"

/* Periods written and not yet captured that the latency can follow: more
 * than both buffers together hold (audio_check allows 1024 periods). */
#define RING 4096

struct written {
	uint64_t index;		/* the period's first frame */
	double t;		/* when its write returned; NAN: before the start */
};

struct loop_state {
	struct audio_cfg out_cfg, in_cfg;
	struct audio_pcm *out, *in;
	unsigned long period, buffer, in_period, in_buffer;
	size_t frame_bytes;
	uint8_t *wbuf, *rbuf;
	struct written ring[RING];
	/* The sample under way. */
	struct pg_ctx *ctx;
	uint64_t next;		/* index of the next frame to play */
	struct audio_sig_check chk;
	double arrival0;	/* when the first frame of the last read arrived */
};

static int loop_setup(struct pg_ctx *ctx)
{
	struct loop_state *st = calloc(1, sizeof(*st));
	if (!st)
		return pg_error(ctx, "out of memory");
	ctx->priv = st;
	st->ctx = ctx;
	audio_cfg_from_args(&st->out_cfg, ctx->args, "device", 0);
	audio_cfg_from_args(&st->in_cfg, ctx->args, "capture", 1);
	/* The capture end first: snd-aloop makes the second end opened take
	 * the first one's parameters. */
	int rc = audio_pcm_open(ctx, &st->in_cfg, &st->in);
	if (rc == PG_OK)
		rc = audio_pcm_open(ctx, &st->out_cfg, &st->out);
	if (rc != PG_OK)
		return rc;
	audio_pcm_geometry(st->out, &st->period, &st->buffer);
	audio_pcm_geometry(st->in, &st->in_period, &st->in_buffer);
	st->frame_bytes = audio_frame_bits(&st->out_cfg) / 8;
	st->wbuf = malloc(st->period * st->frame_bytes);
	st->rbuf = malloc(st->in_period * st->frame_bytes);
	if (!st->wbuf || !st->rbuf)
		return pg_error(ctx, "out of memory");
	char out[PG_MSG_LEN / 2], in[PG_MSG_LEN / 2];
	audio_pcm_describe(st->out, out, sizeof(out));
	audio_pcm_describe(st->in, in, sizeof(in));
	/* alsa-lib's version is said once. */
	char *v = strstr(out, "; alsa-lib");
	if (v)
		*v = 0;
	pg_note(ctx, "%s -> %s", out, in);
	return PG_OK;
}

static int loop_prepare(struct pg_ctx *ctx, uint64_t iters)
{
	struct loop_state *st = ctx->priv;
	(void)iters;
	int err = audio_pcm_reset(st->in);
	if (err >= 0)
		err = audio_pcm_reset(st->out);
	if (err < 0)
		return pg_error(ctx, "ALSA loop %s -> %s: cannot prepare: %s", st->out_cfg.device,
				st->in_cfg.device, audio_strerror(err));
	st->next = 0;
	for (int i = 0; i < RING; i++)
		st->ring[i] = (struct written){ UINT64_MAX, NAN };
	audio_sig_check_init(&st->chk, st->out_cfg.fmt, st->out_cfg.channels);
	return PG_OK;
}

/* A period's first frame, found in the capture: its round trip. */
static void arrived(void *arg, uint64_t index, size_t offset)
{
	struct loop_state *st = arg;
	const struct written *w = &st->ring[(index / st->period) % RING];
	if (w->index != index || isnan(w->t))
		return;
	double lat = st->arrival0 + (double)offset / st->in_cfg.rate - w->t;
	pg_hist_add(st->ctx->hist, lat > 0 ? (uint64_t)(lat * 1e9) : 0);
}

struct tally {
	struct audio_fit fit;
	uint64_t moved, xruns;
	double start;
};

static int recover(struct loop_state *st, struct audio_pcm *p, struct tally *t)
{
	struct audio_status s;
	int err = audio_pcm_status(p, &s);
	if (err < 0)
		return err;
	t->xruns++;
	if (p == st->in) {
		t->moved += s.appl;
		audio_fit_break(&t->fit);
	}
	err = audio_pcm_reset(p);
	return err < 0 || p == st->out ? err : audio_pcm_start(p);
}

/* Plays a period of the signal. 1: written, 0: no room, <0: -errno. */
static long play(struct loop_state *st)
{
	long n = audio_pcm_avail(st->out);
	if (n < 0 || (unsigned long)n < st->period)
		return n < 0 ? n : 0;
	audio_sig_fill(st->wbuf, st->next, st->period, st->out_cfg.fmt, st->out_cfg.channels);
	int running = audio_pcm_running(st->out);
	n = audio_pcm_transfer(st->out, st->wbuf, st->period);
	if (n <= 0)
		return n == -EAGAIN ? 0 : n;
	if (st->next % st->period == 0)
		st->ring[(st->next / st->period) % RING] =
			(struct written){ st->next, running ? pg_now() : NAN };
	st->next += (uint64_t)n;
	return 1;
}

/* Records a period and checks it. 1: read, 0: nothing yet, <0: -errno. */
static long record(struct loop_state *st, struct tally *t)
{
	long n = audio_pcm_avail(st->in);
	if (n < 0 || (unsigned long)n < st->in_period)
		return n < 0 ? n : 0;
	n = audio_pcm_transfer(st->in, st->rbuf, st->in_period);
	if (n <= 0)
		return n == -EAGAIN ? 0 : n;
	struct audio_status s;
	int err = audio_pcm_status(st->in, &s);
	if (err < 0)
		return err;
	uint64_t first = s.appl - (uint64_t)n;
	if (s.running) {
		audio_fit_add(&t->fit, s.t, (double)s.pos);
		if (t->start < 0)
			t->start = s.trigger;
	}
	/* Frame k of the stretch was complete when the position passed it. */
	st->arrival0 = s.t - (double)(s.pos - first - 1) / st->in_cfg.rate;
	audio_sig_check(&st->chk, st->rbuf, (size_t)n, st->period, arrived, st);
	return 1;
}

static int loop_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct loop_state *st = ctx->priv;
	(void)iters;
	const char *out = st->out_cfg.device, *in = st->in_cfg.device;
	double time = (double)pg_arg_int(ctx->args, "time");
	double stuck = fmax(2.0, 4.0 * (double)(st->buffer + st->in_buffer) / st->in_cfg.rate);
	struct tally t = { .start = -1 };
	audio_fit_init(&t.fit);
	int err = audio_pcm_start(st->in);
	if (err < 0)
		return pg_error(ctx, "ALSA device '%s': cannot start capture: %s", in, audio_strerror(err));
	double t0 = pg_now(), deadline = t0 + time, moved_at = t0;
	struct audio_pcm *both[2] = { st->out, st->in };
	for (;;) {
		double now = pg_now();
		if (now >= deadline)
			break;
		long p = play(st), r = record(st, &t);
		for (int side = 0; side < 2; side++) {
			long e = side ? r : p;
			struct audio_pcm *pcm = side ? st->in : st->out;
			if (e == -EPIPE && (err = recover(st, pcm, &t)) < 0)
				return pg_error(ctx, "ALSA device '%s': cannot recover from an xrun: %s",
						side ? in : out, audio_strerror(err));
			if (e < 0 && e != -EPIPE)
				return pg_error(ctx, "ALSA device '%s': %s failed: %s", side ? in : out,
						side ? "read" : "write", audio_strerror((int)e));
		}
		if (p > 0 || r > 0) {
			moved_at = now;
			continue;
		}
		if (p < 0 || r < 0)
			continue;
		if (now - moved_at > stuck)
			return pg_error(ctx, "ALSA loop %s -> %s moved no data for %.1f s", out, in,
					now - moved_at);
		if ((err = audio_pcm_wait(both, 2, 50)) < 0)
			return pg_error(ctx, "ALSA loop %s -> %s: poll: %s", out, in, audio_strerror(err));
	}
	struct audio_status s;
	if ((err = audio_pcm_status(st->in, &s)) < 0)
		return pg_error(ctx, "ALSA device '%s': status: %s", in, audio_strerror(err));
	double end = s.running ? s.t : pg_now();
	if (s.xrun)
		t.xruns++;
	t.moved += s.xrun ? s.appl : s.pos;
	audio_pcm_reset(st->out);
	audio_pcm_reset(st->in);
	if (!st->chk.started)
		return pg_error(ctx, "nothing of the signal played into '%s' came out of '%s' in %.0f s: "
				"are they the two ends of one loopback (hw:Loopback,0,N and hw:Loopback,1,N)?",
				out, in, time);
	if (ctx->hist->count == 0)
		return pg_error(ctx, "no period played while the loop ran came back in %.0f s: "
				"give a longer time", time);
	double rate = audio_fit_rate(&t.fit);
	if (t.start < 0 || !(rate > 0) || !(end > t.start))
		return pg_error(ctx, "ALSA device '%s' never ran in %.0f s", in, time);
	counts[0] = audio_bits_per_s(t.moved, end - t.start, &st->in_cfg);
	counts[1] = rate;
	counts[2] = (double)t.xruns;
	counts[3] = (double)st->chk.errors;
	return PG_OK;
}

static void loop_teardown(struct pg_ctx *ctx)
{
	struct loop_state *st = ctx->priv;
	if (!st)
		return;
	audio_pcm_close(st->out);
	audio_pcm_close(st->in);
	free(st->wbuf);
	free(st->rbuf);
	free(st);
	ctx->priv = NULL;
}

static const struct pg_param loop_params[] = {
	{ .name = "device", .type = PG_P_STR, .whole = 1, .def = "hw:Loopback,0,0",
	  .help = "the loopback's end the signal is played into" },
	{ .name = "capture", .type = PG_P_STR, .whole = 1, .def = "hw:Loopback,1,0",
	  .help = "the other end, where it is captured" },
	AUDIO_FORMAT_PARAMS,
	{ 0 },
};

static const struct pg_metric loop_metrics[] = {
	{ "throughput", "bits/s", PG_VALUE, 1, 1, 0 },
	{ "rate", "Hz", PG_VALUE, 1, 1, 0 },
	{ "xruns", "count", PG_VALUE, 1, 0, 0 },
	{ "errors", "frames", PG_VALUE, 1, 0, 0 },
	{ "latency", "ms", PG_HIST_MEAN, 1e-6, 0, 0 },
	{ "lat_p50", "ms", PG_HIST_Q, 1e-6, 0, 0.5 },
	{ "lat_p99", "ms", PG_HIST_Q, 1e-6, 0, 0.99 },
	{ "lat_max", "ms", PG_HIST_Q, 1e-6, 0, 1 },
	{ 0 },
};

const struct pg_bench pg_audio_loop = {
	.id = "audio.loop", .title = "ALSA loopback: a known signal played and captured, checked",
	.section = &audio_loop_section, .params = loop_params, .metrics = loop_metrics,
	.trial = 1, .min_suite = PG_IN_STANDARD, .check = audio_check, .setup = loop_setup,
	.prepare = loop_prepare, .step = loop_step, .teardown = loop_teardown, .label = audio_label,
};
