/* SPDX-License-Identifier: MIT */
/*
 * The audio group's table, and what its benchmarks share: the formats, the
 * parameter check, the guide's sections and labels.
 *
 * The seed guide's "ALSA SoC Audio Driver" table has a row per sample rate
 * (8000 to 96000 Hz, S16_LE, 2 channels, period 64, interleaved read/write)
 * with the throughput in bits/s and the CPU load of playback and capture.
 * TI's scripts time aplay and arecord; here the driver's own positions give
 * the rate the device actually runs at, and under- and overruns are counted
 * (docs/methodology-audio.md).
 */
#include <stdio.h>
#include <string.h>

#include "audio.h"
#include "core/err.h"

const struct pg_bench *const pg_group_audio[] = {
	&pg_audio_playback,
	&pg_audio_capture,
	&pg_audio_loop,
	NULL,
};

const struct audio_format audio_formats[] = {
	[AUDIO_S8] = { "S8", 1, 8 },
	[AUDIO_S16_LE] = { "S16_LE", 2, 16 },
	[AUDIO_S24_LE] = { "S24_LE", 4, 24 },
	[AUDIO_S32_LE] = { "S32_LE", 4, 32 },
};

int audio_format_find(const char *name)
{
	for (int i = 0; i < (int)(sizeof(audio_formats) / sizeof(audio_formats[0])); i++)
		if (strcmp(audio_formats[i].name, name) == 0)
			return i;
	return -1;
}

const struct pg_section audio_section = {
	.title = "ALSA SoC Audio Driver",
	.intro = "Access type RW_INTERLEAVED. Throughput is what the device moved by its driver's "
		 "own positions, per second of the system's monotonic clock; CPU load is the whole "
		 "system's while it ran.",
	.order = 140,
	.cpu_load = 1,
	.rows_by = "rate",
};

const struct pg_section audio_loop_section = {
	.title = "ALSA loopback",
	.intro = "A known signal played into one end of a loopback device and captured from the "
		 "other: every frame checked, and the time from writing a frame to its capture.",
	.order = 141,
	.cpu_load = 1,
	.rows_by = "rate",
};

void audio_cfg_from_args(struct audio_cfg *cfg, const struct pg_args *a, const char *device_param,
			 int capture)
{
	int fmt = audio_format_find(pg_arg_str(a, "format"));
	*cfg = (struct audio_cfg){
		.device = pg_arg_str(a, device_param),
		.capture = capture,
		.rate = (unsigned)pg_arg_int(a, "rate"),
		.channels = (unsigned)pg_arg_int(a, "channels"),
		.fmt = fmt < 0 ? AUDIO_S16_LE : (enum audio_fmt)fmt,
		.period = (unsigned long)pg_arg_int(a, "period"),
		.buffer = (unsigned long)pg_arg_int(a, "buffer"),
	};
}

unsigned audio_frame_bits(const struct audio_cfg *cfg)
{
	return cfg->channels * 8u * (unsigned)audio_formats[cfg->fmt].bytes;
}

double audio_bits_per_s(uint64_t frames, double seconds, const struct audio_cfg *cfg)
{
	return seconds > 0 ? (double)frames * audio_frame_bits(cfg) / seconds : 0;
}

int audio_check(const struct pg_args *a, char *err, size_t errlen)
{
	int64_t period = pg_arg_int(a, "period"), buffer = pg_arg_int(a, "buffer");
	if (buffer && buffer < 2 * period)
		return pg_err(err, errlen, "buffer: %lld frames is fewer than two periods of %lld",
			      (long long)buffer, (long long)period);
	if (buffer > 1024 * period)
		return pg_err(err, errlen, "buffer: at most 1024 periods (%lld frames)", (long long)(1024 * period));
	/* Absent parameters read as 0 and "": each check is for the benchmarks
	 * that have the parameter. */
	int64_t stall = pg_arg_int(a, "stall"), time = pg_arg_int(a, "time");
	if (stall * 2 > time * 1000)
		return pg_err(err, errlen, "stall: %lld ms is more than half of time (%lld s)", (long long)stall,
			      (long long)time);
	const char *dev = pg_arg_str(a, "device"), *cap = pg_arg_str(a, "capture");
	if (!dev[0])
		return pg_err(err, errlen, "device: give an ALSA device (default, hw:0,0; aplay -L lists them)");
	if (cap[0] && strcmp(cap, dev) == 0)
		return pg_err(err, errlen, "capture: the loop plays into device and records from capture: "
			      "give the two ends of the loopback (hw:Loopback,0,0 and hw:Loopback,1,0)");
	return 0;
}

void audio_label(const struct pg_bench *b, const struct pg_args *a, const char *metric, char *buf,
		 size_t len)
{
	(void)b;
	(void)a;
	if (strcmp(metric, "throughput") == 0)
		snprintf(buf, len, "Throughput (bits/sec)");
}
