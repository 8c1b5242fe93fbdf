/* SPDX-License-Identifier: MIT */
/*
 * One PCM stream through alsa-lib: the only file of the group that calls it.
 *
 * The device is configured the way aplay -D DEV -f FMT -r RATE -c CH
 * --period-size P --buffer-size B configures it (interleaved read/write
 * access, playback starting once the buffer is full, a wake-up per period),
 * except that nothing is changed behind the caller's back: alsa-lib's
 * resampling is off, and a rate, format or channel count the device does
 * not take is a skip saying what it takes, where aplay would play at the
 * nearest rate and print a warning. Timestamps are CLOCK_MONOTONIC, the
 * clock the rest of perfguide measures with, and every status read has the
 * driver's own position and the time it was read at.
 *
 * Without alsa-lib, opening says why nothing can be opened.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pg_build.h"
#include "audio.h"

#ifdef PG_HAVE_ALSA
#include <pthread.h>

#include <alsa/asoundlib.h>

struct audio_pcm {
	snd_pcm_t *pcm;
	snd_pcm_status_t *status;
	char device[64];
	int capture;
	snd_pcm_uframes_t period, buffer;
	uint64_t appl;		/* frames transferred since the last reset */
};

/* alsa-lib prints its errors on stderr unless told otherwise; a benchmark
 * never prints, and every error comes back as a code here anyway. */
static void quiet(const char *file, int line, const char *function, int err, const char *fmt, ...)
{
	(void)file;
	(void)line;
	(void)function;
	(void)err;
	(void)fmt;
}

static pthread_once_t quiet_once = PTHREAD_ONCE_INIT;

static void make_quiet(void)
{
	snd_lib_error_set_handler(quiet);
}

static snd_pcm_format_t alsa_format(enum audio_fmt f)
{
	switch (f) {
	case AUDIO_S8: return SND_PCM_FORMAT_S8;
	case AUDIO_S16_LE: return SND_PCM_FORMAT_S16_LE;
	case AUDIO_S24_LE: return SND_PCM_FORMAT_S24_LE;
	case AUDIO_S32_LE: return SND_PCM_FORMAT_S32_LE;
	}
	return SND_PCM_FORMAT_UNKNOWN;
}

static double seconds(const snd_htimestamp_t *ts)
{
	return (double)ts->tv_sec + (double)ts->tv_nsec * 1e-9;
}

/* What a user can do about a device that does not open. */
static const char *open_hint(const char *device, int err)
{
	if (err == -EBUSY)
		return "another program is using it";
	if (strstr(device, "Loopback"))
		return "load the loopback driver: modprobe snd-aloop";
	if (strstr(device, "Dummy"))
		return "load the dummy driver: modprobe snd-dummy";
	FILE *f = fopen("/proc/asound/cards", "r");
	if (!f)
		return "no sound driver is loaded: no /proc/asound/cards";
	char line[128] = "";
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	if (strstr(line, "no soundcards"))
		return "this system has no sound card";
	return "see aplay -L and /proc/asound/cards for the devices here";
}

static void close_pcm(struct audio_pcm *p)
{
	if (p->pcm)
		snd_pcm_close(p->pcm);
	if (p->status)
		snd_pcm_status_free(p->status);
	free(p);
}

/* Sets up the hardware side; PG_OK or a skip saying what the device lacks. */
static int set_hw(struct pg_ctx *ctx, struct audio_pcm *p, const struct audio_cfg *cfg,
		  snd_pcm_hw_params_t *hw)
{
	snd_pcm_t *pcm = p->pcm;
	const char *dev = cfg->device, *dir = cfg->capture ? "capture" : "playback";
	int err = snd_pcm_hw_params_any(pcm, hw);
	if (err < 0)
		return pg_skip(ctx, "ALSA device '%s' (%s) gives no configuration: %s", dev, dir,
			       snd_strerror(err));
	snd_pcm_hw_params_set_rate_resample(pcm, hw, 0);
	if (snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED) < 0)
		return pg_skip(ctx, "ALSA device '%s' (%s) does not take interleaved read/write access",
			       dev, dir);
	if (snd_pcm_hw_params_set_format(pcm, hw, alsa_format(cfg->fmt)) < 0)
		return pg_skip(ctx, "ALSA device '%s' (%s) does not take format %s", dev, dir,
			       audio_formats[cfg->fmt].name);
	if (snd_pcm_hw_params_set_channels(pcm, hw, cfg->channels) < 0) {
		unsigned lo = 0, hi = 0;
		snd_pcm_hw_params_get_channels_min(hw, &lo);
		snd_pcm_hw_params_get_channels_max(hw, &hi);
		return pg_skip(ctx, "ALSA device '%s' (%s) does not take %u channel(s): it takes %u to %u",
			       dev, dir, cfg->channels, lo, hi);
	}
	if (snd_pcm_hw_params_set_rate(pcm, hw, cfg->rate, 0) < 0) {
		unsigned lo = 0, hi = 0;
		int d = 0;
		snd_pcm_hw_params_get_rate_min(hw, &lo, &d);
		snd_pcm_hw_params_get_rate_max(hw, &hi, &d);
		return pg_skip(ctx, "ALSA device '%s' (%s) does not run at %u Hz (its rates: %u to %u Hz, "
			       "not all of them perhaps); a plughw: device would resample, which is not "
			       "the driver's rate", dev, dir, cfg->rate, lo, hi);
	}
	snd_pcm_uframes_t period = cfg->period;
	int d = 0;
	if (snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &d) < 0)
		return pg_skip(ctx, "ALSA device '%s' (%s) takes no period near %lu frames", dev, dir,
			       cfg->period);
	snd_pcm_uframes_t buffer = cfg->buffer ? cfg->buffer : 16 * period;
	if (snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer) < 0)
		return pg_skip(ctx, "ALSA device '%s' (%s) takes no buffer near %lu frames", dev, dir,
			       (unsigned long)buffer);
	err = snd_pcm_hw_params(pcm, hw);
	if (err < 0)
		return pg_skip(ctx, "ALSA device '%s' (%s) refuses %u Hz, %u channel(s), %s, period %lu, "
			       "buffer %lu: %s", dev, dir, cfg->rate, cfg->channels,
			       audio_formats[cfg->fmt].name, (unsigned long)period, (unsigned long)buffer,
			       snd_strerror(err));
	snd_pcm_hw_params_get_period_size(hw, &p->period, &d);
	snd_pcm_hw_params_get_buffer_size(hw, &p->buffer);
	if (p->buffer < 2 * p->period)
		return pg_skip(ctx, "ALSA device '%s' (%s) took a buffer of %lu frames for periods of %lu: "
			       "fewer than two periods", dev, dir, (unsigned long)p->buffer,
			       (unsigned long)p->period);
	return PG_OK;
}

static int set_sw(struct pg_ctx *ctx, struct audio_pcm *p, snd_pcm_sw_params_t *sw)
{
	snd_pcm_t *pcm = p->pcm;
	snd_pcm_uframes_t boundary = 0;
	int err = snd_pcm_sw_params_current(pcm, sw);
	if (err >= 0)
		err = snd_pcm_sw_params_get_boundary(sw, &boundary);
	if (err >= 0)
		err = snd_pcm_sw_params_set_avail_min(pcm, sw, p->period);
	/* Playback starts when the buffer's whole periods are written
	 * (aplay's default: the buffer full); capture only when the
	 * benchmark starts it, so that it knows when. */
	if (err >= 0)
		err = snd_pcm_sw_params_set_start_threshold(pcm, sw, p->capture ? boundary
						    : p->buffer / p->period * p->period);
	if (err >= 0)
		err = snd_pcm_sw_params_set_stop_threshold(pcm, sw, p->buffer);
	if (err >= 0)
		err = snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE);
	if (err >= 0)
		err = snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC);
	if (err >= 0)
		err = snd_pcm_sw_params(pcm, sw);
	if (err < 0)
		return pg_skip(ctx, "ALSA device '%s' refuses the software parameters "
			       "(monotonic timestamps, thresholds): %s", p->device, snd_strerror(err));
	return PG_OK;
}

int audio_pcm_open(struct pg_ctx *ctx, const struct audio_cfg *cfg, struct audio_pcm **out)
{
	*out = NULL;
	pthread_once(&quiet_once, make_quiet);
	struct audio_pcm *p = calloc(1, sizeof(*p));
	if (!p || snd_pcm_status_malloc(&p->status) < 0) {
		free(p);
		return pg_error(ctx, "out of memory");
	}
	snprintf(p->device, sizeof(p->device), "%s", cfg->device);
	p->capture = cfg->capture;
	int err = snd_pcm_open(&p->pcm, cfg->device,
			       cfg->capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK,
			       SND_PCM_NONBLOCK);
	if (err < 0) {
		p->pcm = NULL;
		close_pcm(p);
		return pg_skip(ctx, "cannot open ALSA device '%s' for %s: %s (%s)", cfg->device,
			       cfg->capture ? "capture" : "playback", snd_strerror(err),
			       open_hint(cfg->device, err));
	}
	snd_pcm_hw_params_t *hw = NULL;
	snd_pcm_sw_params_t *sw = NULL;
	int rc = PG_ERROR;
	if (snd_pcm_hw_params_malloc(&hw) < 0 || snd_pcm_sw_params_malloc(&sw) < 0)
		rc = pg_error(ctx, "out of memory");
	else if ((rc = set_hw(ctx, p, cfg, hw)) == PG_OK)
		rc = set_sw(ctx, p, sw);
	snd_pcm_hw_params_free(hw);
	snd_pcm_sw_params_free(sw);
	if (rc == PG_OK && (err = snd_pcm_prepare(p->pcm)) < 0)
		rc = pg_error(ctx, "ALSA device '%s': cannot prepare: %s", cfg->device, snd_strerror(err));
	if (rc != PG_OK) {
		close_pcm(p);
		return rc;
	}
	*out = p;
	return PG_OK;
}

void audio_pcm_close(struct audio_pcm *p)
{
	if (!p)
		return;
	snd_pcm_drop(p->pcm);
	close_pcm(p);
}

void audio_pcm_geometry(const struct audio_pcm *p, unsigned long *period, unsigned long *buffer)
{
	*period = p->period;
	*buffer = p->buffer;
}

void audio_pcm_describe(const struct audio_pcm *p, char *buf, size_t len)
{
	snd_pcm_info_t *info = NULL;
	const char *name = "";
	if (snd_pcm_info_malloc(&info) == 0 && snd_pcm_info(p->pcm, info) == 0)
		name = snd_pcm_info_get_name(info);
	snprintf(buf, len, "%s%s%s%s (%s): period %lu, buffer %lu frames; alsa-lib %s", p->device,
		 name[0] ? " \"" : "", name, name[0] ? "\"" : "", snd_pcm_type_name(snd_pcm_type(p->pcm)),
		 (unsigned long)p->period, (unsigned long)p->buffer, snd_asoundlib_version());
	if (info)
		snd_pcm_info_free(info);
}

int audio_pcm_reset(struct audio_pcm *p)
{
	snd_pcm_drop(p->pcm);
	p->appl = 0;
	return snd_pcm_prepare(p->pcm);
}

int audio_pcm_start(struct audio_pcm *p)
{
	return snd_pcm_start(p->pcm);
}

long audio_pcm_avail(struct audio_pcm *p)
{
	snd_pcm_sframes_t n = snd_pcm_avail_update(p->pcm);
	if (n >= 0 && snd_pcm_state(p->pcm) == SND_PCM_STATE_XRUN)
		return -EPIPE;
	return (long)n;
}

long audio_pcm_transfer(struct audio_pcm *p, void *buf, unsigned long frames)
{
	snd_pcm_sframes_t n = p->capture ? snd_pcm_readi(p->pcm, buf, frames)
					 : snd_pcm_writei(p->pcm, buf, frames);
	if (n > 0)
		p->appl += (uint64_t)n;
	return (long)n;
}

int audio_pcm_wait(struct audio_pcm *const *p, int n, int timeout_ms)
{
	struct pollfd fds[16];
	int nfds = 0;
	for (int i = 0; i < n; i++) {
		int c = snd_pcm_poll_descriptors_count(p[i]->pcm);
		if (c <= 0 || nfds + c > 16)
			return -EINVAL;
		c = snd_pcm_poll_descriptors(p[i]->pcm, fds + nfds, (unsigned)c);
		if (c < 0)
			return c;
		nfds += c;
	}
	if (poll(fds, (nfds_t)nfds, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	return 0;
}

int audio_pcm_status(struct audio_pcm *p, struct audio_status *st)
{
	int err = snd_pcm_status(p->pcm, p->status);
	if (err < 0)
		return err;
	snd_pcm_state_t s = snd_pcm_status_get_state(p->status);
	snd_htimestamp_t ts, trig;
	snd_pcm_status_get_htstamp(p->status, &ts);
	snd_pcm_status_get_trigger_htstamp(p->status, &trig);
	uint64_t avail = snd_pcm_status_get_avail(p->status);
	st->running = s == SND_PCM_STATE_RUNNING || s == SND_PCM_STATE_DRAINING;
	st->xrun = s == SND_PCM_STATE_XRUN;
	st->t = seconds(&ts);
	st->trigger = seconds(&trig);
	st->appl = p->appl;
	/* Playback: what was written less what still waits in the buffer;
	 * capture: what was read plus what waits to be read. */
	if (p->capture)
		st->pos = p->appl + avail;
	else
		st->pos = avail >= p->buffer ? p->appl : p->appl - (p->buffer - avail);
	return 0;
}

int audio_pcm_running(struct audio_pcm *p)
{
	return snd_pcm_state(p->pcm) == SND_PCM_STATE_RUNNING;
}

const char *audio_strerror(int err)
{
	return snd_strerror(err);
}

#else /* no alsa-lib */

struct audio_pcm {
	int unused;
};

int audio_pcm_open(struct pg_ctx *ctx, const struct audio_cfg *cfg, struct audio_pcm **out)
{
	(void)cfg;
	*out = NULL;
#ifdef PG_ALSA_STATIC_UNAVAILABLE
	return pg_skip(ctx, "built without alsa-lib: a static build cannot link it (Debian ships no "
		       "libasound.a); the audio group is in the dynamic builds: the Debian package, the "
		       "Yocto or Buildroot recipe with alsa, or a build without -DPG_STATIC=ON "
		       "(docs/install.md)");
#else
	return pg_skip(ctx, "built without alsa-lib: install libasound2-dev" PG_DEB_ARCH_SUFFIX " and rebuild");
#endif
}

void audio_pcm_close(struct audio_pcm *p)
{
	(void)p;
}

void audio_pcm_geometry(const struct audio_pcm *p, unsigned long *period, unsigned long *buffer)
{
	(void)p;
	*period = *buffer = 0;
}

void audio_pcm_describe(const struct audio_pcm *p, char *buf, size_t len)
{
	(void)p;
	snprintf(buf, len, "no alsa-lib");
}

int audio_pcm_reset(struct audio_pcm *p)
{
	(void)p;
	return -ENOSYS;
}

int audio_pcm_start(struct audio_pcm *p)
{
	(void)p;
	return -ENOSYS;
}

long audio_pcm_avail(struct audio_pcm *p)
{
	(void)p;
	return -ENOSYS;
}

long audio_pcm_transfer(struct audio_pcm *p, void *buf, unsigned long frames)
{
	(void)p;
	(void)buf;
	(void)frames;
	return -ENOSYS;
}

int audio_pcm_wait(struct audio_pcm *const *p, int n, int timeout_ms)
{
	(void)p;
	(void)n;
	(void)timeout_ms;
	return -ENOSYS;
}

int audio_pcm_status(struct audio_pcm *p, struct audio_status *st)
{
	(void)p;
	(void)st;
	return -ENOSYS;
}

int audio_pcm_running(struct audio_pcm *p)
{
	(void)p;
	return 0;
}

const char *audio_strerror(int err)
{
	return strerror(-err);
}

#endif
