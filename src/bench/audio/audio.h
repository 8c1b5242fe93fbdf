/* SPDX-License-Identifier: MIT */
/*
 * The audio group: what its benchmark files share.
 *
 * Everything that touches alsa-lib is in pcm.c, behind the small interface
 * below; without alsa-lib that file opens nothing and says why, and the
 * rest of the group (the signal, the rate fit, the benchmarks) builds and
 * is tested all the same.
 */
#ifndef PG_BENCH_AUDIO_H
#define PG_BENCH_AUDIO_H

#include <stddef.h>
#include <stdint.h>

#include "core/bench.h"

/* --- sample formats (the ones TI's scripts sweep) --- */

enum audio_fmt { AUDIO_S8, AUDIO_S16_LE, AUDIO_S24_LE, AUDIO_S32_LE };

struct audio_format {
	const char *name;	/* ALSA's name: "S16_LE" */
	int bytes;		/* per sample in memory */
	int bits;		/* significant bits (S24_LE: 24 in 4 bytes) */
};

extern const struct audio_format audio_formats[];
/* The format called name, or -1. */
int audio_format_find(const char *name);

/* --- the known signal of audio.loop (signal.c) ---
 *
 * Every sample has its top bit set, so a signal frame is never silence;
 * the other bits carry the frame's index (channel 0 its lowest bits,
 * channel 1 the next...) and, on channels beyond those the index needs, a
 * hash of it. Any frame so tells where it belongs: a check finds lost,
 * repeated, wrong and silent frames, and where in the capture each
 * played frame arrived. */

void audio_sig_fill(void *buf, uint64_t first, size_t frames, enum audio_fmt fmt,
		    unsigned channels);

/* Called for each frame whose index is a multiple of the mark, with its
 * offset in the buffer being checked. */
typedef void (*audio_mark_fn)(void *arg, uint64_t index, size_t offset);

struct audio_sig_check {
	enum audio_fmt fmt;
	unsigned channels;
	int started;		/* a signal frame has come */
	uint64_t expect;	/* index of the next frame */
	uint64_t frames;	/* signal frames captured intact, in order */
	/* Frames of the signal lost (skipped over), wrong (corrupt, or
	 * repeated), or silent once the signal has started. */
	uint64_t errors;
};

void audio_sig_check_init(struct audio_sig_check *c, enum audio_fmt fmt, unsigned channels);
void audio_sig_check(struct audio_sig_check *c, const void *buf, size_t frames,
		     uint64_t mark, audio_mark_fn fn, void *arg);

/* --- the rate a device runs at, from its own positions (fit.c) ---
 *
 * Points (t, position) read from the driver while the stream runs; the
 * rate is the least-squares slope of position over time, pooled over the
 * stretches between xruns (each has its own start). Many points make the
 * slope exact however coarse the driver's position steps are. */

struct audio_fit {
	double t0, p0;		/* the open stretch's first point */
	double n, st, sp, stt, stp;	/* its sums, relative to that point */
	double sxx, sxy;	/* closed stretches, pooled */
};

void audio_fit_init(struct audio_fit *f);
void audio_fit_add(struct audio_fit *f, double t, double pos);
/* The stream stopped (an xrun): the next point starts a new stretch. */
void audio_fit_break(struct audio_fit *f);
/* Frames per second; 0 when the points do not span any time. */
double audio_fit_rate(const struct audio_fit *f);

/* --- one PCM stream through alsa-lib (pcm.c) --- */

struct audio_cfg {
	const char *device;	/* "default", "hw:0,0" */
	int capture;		/* the direction: 0 playback, 1 capture */
	unsigned rate, channels;
	enum audio_fmt fmt;
	unsigned long period;	/* frames */
	unsigned long buffer;	/* frames; 0: 16 periods */
};

struct audio_pcm;

/* Opens and configures the device exactly as asked (no resampling): a
 * device that is missing, busy, or cannot take these parameters is a skip
 * naming it. The stream is prepared, not started. */
int audio_pcm_open(struct pg_ctx *ctx, const struct audio_cfg *cfg, struct audio_pcm **out);
void audio_pcm_close(struct audio_pcm *p);
/* What the device took: frames per period and in the buffer, and a line
 * describing it for the result's note. */
void audio_pcm_geometry(const struct audio_pcm *p, unsigned long *period, unsigned long *buffer);
void audio_pcm_describe(const struct audio_pcm *p, char *buf, size_t len);

/* Stops the stream, drops what is queued and prepares it again: a new
 * stretch, with its count of frames transferred back at 0. 0 or -errno. */
int audio_pcm_reset(struct audio_pcm *p);
int audio_pcm_start(struct audio_pcm *p);
/* Frames that can be transferred now; -EPIPE on an xrun, or -errno. */
long audio_pcm_avail(struct audio_pcm *p);
/* Writes (playback) or reads (capture) up to frames, without blocking:
 * the count moved, -EAGAIN, -EPIPE on an xrun, or -errno. */
long audio_pcm_transfer(struct audio_pcm *p, void *buf, unsigned long frames);
/* Waits until one of the streams has a period to transfer or is in an
 * xrun, or timeout_ms pass. 0, or -errno. */
int audio_pcm_wait(struct audio_pcm *const *p, int n, int timeout_ms);

struct audio_status {
	int running;		/* the device is moving data */
	int xrun;		/* it stopped on an under- or overrun */
	double t;		/* when the position was read (CLOCK_MONOTONIC s) */
	double trigger;		/* when the stream started (CLOCK_MONOTONIC s) */
	/* Frames the device has played or captured since the last reset. */
	uint64_t pos;
	uint64_t appl;		/* frames the application transferred since */
};
int audio_pcm_status(struct audio_pcm *p, struct audio_status *st);
/* The device is moving data (a cheap look, no system call). */
int audio_pcm_running(struct audio_pcm *p);
const char *audio_strerror(int err);

/* --- shared by the benchmark files (audio.c) --- */

/* The stream's parameters after its device(s), as aplay takes them. */
#define AUDIO_FORMAT_PARAMS								\
	{ .name = "rate", .type = PG_P_INT, .def = "48000", .min = 1000, .max = 768000,	\
	  .help = "sample rate in Hz (aplay -r); the device must run at it: no resampling",	\
	  .standard = "8000,11025,16000,22050,24000,32000,44100,48000,88200,96000" },	\
	{ .name = "channels", .type = PG_P_INT, .def = "2", .min = 1, .max = 32,	\
	  .help = "channels per frame (aplay -c)" },					\
	{ .name = "format", .type = PG_P_STR, .def = "S16_LE",				\
	  .choices = "S8,S16_LE,S24_LE,S32_LE", .help = "sample format (aplay -f)" },	\
	{ .name = "period", .type = PG_P_INT, .def = "64", .min = 16, .max = 1 << 20,	\
	  .help = "frames per period: the application wakes up once a period "		\
		  "(aplay --period-size; the seed's 64)" },				\
	{ .name = "buffer", .type = PG_P_SIZE, .def = "auto", .choices = "auto",	\
	  .max = 1 << 24,								\
	  .help = "frames in the ring buffer (aplay --buffer-size); auto: 16 periods" },	\
	{ .name = "time", .type = PG_P_INT, .def = "2", .min = 1, .max = 3600,		\
	  .help = "seconds each sample streams for", .quick = "1" }


/* The configuration the benchmark's parameters ask for. */
void audio_cfg_from_args(struct audio_cfg *cfg, const struct pg_args *a, const char *device_param,
			 int capture);
/* Bits one frame moves: channels times the format's bits in memory. */
unsigned audio_frame_bits(const struct audio_cfg *cfg);
/* Throughput as the seed prints it, bits per second, from the frames the
 * device moved in a time. */
double audio_bits_per_s(uint64_t frames, double seconds, const struct audio_cfg *cfg);
int audio_check(const struct pg_args *a, char *err, size_t errlen);
void audio_label(const struct pg_bench *b, const struct pg_args *a, const char *metric, char *buf,
		 size_t len);
extern const struct pg_section audio_section, audio_loop_section;

extern const struct pg_bench pg_audio_playback, pg_audio_capture, pg_audio_loop;

#endif
