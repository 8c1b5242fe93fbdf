/* SPDX-License-Identifier: MIT */
/*
 * The audio group without a sound card: the loop's signal is found again
 * frame for frame and every kind of damage is counted exactly; the rate
 * fit gives the rate from coarse driver positions and across xruns; the
 * throughput is counted in the seed's bits; parameters are checked before
 * anything opens; and a device that is not there is a skip naming it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/audio/audio.h"
#include "core/params.h"
#include "core/registry.h"
#include "bench_args.h"

#define N 4096

static uint8_t *frames_of(enum audio_fmt fmt, unsigned ch, size_t n)
{
	uint8_t *b = calloc(n, (size_t)audio_formats[fmt].bytes * ch);
	assert_non_null(b);
	return b;
}

static size_t fbytes(enum audio_fmt fmt, unsigned ch)
{
	return (size_t)audio_formats[fmt].bytes * ch;
}

static void signal_round_trip(void **state)
{
	(void)state;
	const unsigned chans[] = { 1, 2, 3, 8 };
	for (int f = AUDIO_S8; f <= AUDIO_S32_LE; f++)
		for (size_t i = 0; i < sizeof(chans) / sizeof(chans[0]); i++) {
			unsigned ch = chans[i];
			uint8_t *b = frames_of((enum audio_fmt)f, ch, N);
			audio_sig_fill(b, 0, N, (enum audio_fmt)f, ch);
			struct audio_sig_check c;
			audio_sig_check_init(&c, (enum audio_fmt)f, ch);
			/* In pieces, as periods are read. */
			for (size_t off = 0; off < N; off += 1000) {
				size_t n = N - off < 1000 ? N - off : 1000;
				audio_sig_check(&c, b + off * fbytes((enum audio_fmt)f, ch), n, 0, NULL, NULL);
			}
			assert_true(c.started);
			assert_int_equal(c.errors, 0);
			assert_int_equal(c.frames, N);
			assert_int_equal(c.expect, N);
			free(b);
		}
}

static void samples_are_never_silence(void **state)
{
	(void)state;
	/* S16: the top bit set on every sample; S24_LE: sign-extended into
	 * the fourth byte, as a driver expects. */
	int16_t s16[2 * 64];
	audio_sig_fill(s16, 0, 64, AUDIO_S16_LE, 2);
	for (int i = 0; i < 128; i++)
		assert_true(s16[i] < 0);
	assert_int_equal((uint16_t)s16[0], 0x8000);	/* frame 0, channel 0 */
	assert_int_equal((uint16_t)s16[2 * 5], 0x8005);	/* frame 5 */
	uint8_t s24[4 * 8];
	audio_sig_fill(s24, 3, 8, AUDIO_S24_LE, 1);
	for (int i = 0; i < 8; i++) {
		assert_int_equal(s24[4 * i + 3], 0xff);
		assert_true(s24[4 * i + 2] & 0x80);
	}
	assert_int_equal(s24[0], 3);
}

/* Silence before the signal is the loop's start, not an error; the check
 * begins at the first signal frame. */
static void silence_then_signal(void **state)
{
	(void)state;
	uint8_t *b = frames_of(AUDIO_S16_LE, 2, 1100);
	audio_sig_fill(b + 100 * 4, 0, 1000, AUDIO_S16_LE, 2);
	struct audio_sig_check c;
	audio_sig_check_init(&c, AUDIO_S16_LE, 2);
	audio_sig_check(&c, b, 50, 0, NULL, NULL);
	assert_false(c.started);
	audio_sig_check(&c, b + 50 * 4, 1050, 0, NULL, NULL);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.frames, 1000);
	free(b);
}

/* Frames lost (a capture overrun), a silent gap (a playback underrun),
 * a wrong sample and a repeated frame: each counted, and the check goes
 * on in step with the signal after each. */
static void damage_is_counted(void **state)
{
	(void)state;
	const size_t fb = 4;
	uint8_t *b = frames_of(AUDIO_S16_LE, 2, 2000);
	struct audio_sig_check c;

	/* 0..499, then 600..999: 100 lost. */
	audio_sig_fill(b, 0, 500, AUDIO_S16_LE, 2);
	audio_sig_fill(b + 500 * fb, 600, 400, AUDIO_S16_LE, 2);
	audio_sig_check_init(&c, AUDIO_S16_LE, 2);
	audio_sig_check(&c, b, 900, 0, NULL, NULL);
	assert_int_equal(c.errors, 100);
	assert_int_equal(c.frames, 900);
	assert_int_equal(c.expect, 1000);

	/* 0..499, 50 silent frames, 500..999. */
	memset(b, 0, 2000 * fb);
	audio_sig_fill(b, 0, 500, AUDIO_S16_LE, 2);
	audio_sig_fill(b + 550 * fb, 500, 500, AUDIO_S16_LE, 2);
	audio_sig_check_init(&c, AUDIO_S16_LE, 2);
	audio_sig_check(&c, b, 1050, 0, NULL, NULL);
	assert_int_equal(c.errors, 50);
	assert_int_equal(c.frames, 1000);

	/* One sample with its top bit cleared: that frame is wrong. */
	audio_sig_fill(b, 0, 1000, AUDIO_S16_LE, 2);
	b[300 * fb + 1] &= 0x7f;
	audio_sig_check_init(&c, AUDIO_S16_LE, 2);
	audio_sig_check(&c, b, 1000, 0, NULL, NULL);
	assert_int_equal(c.errors, 1);
	assert_int_equal(c.frames, 999);
	assert_int_equal(c.expect, 1000);

	/* Frame 299 again after 299. */
	audio_sig_fill(b, 0, 300, AUDIO_S16_LE, 2);
	audio_sig_fill(b + 300 * fb, 299, 701, AUDIO_S16_LE, 2);
	audio_sig_check_init(&c, AUDIO_S16_LE, 2);
	audio_sig_check(&c, b, 1001, 0, NULL, NULL);
	assert_int_equal(c.errors, 1);
	assert_int_equal(c.frames, 1000);

	/* The capture came in late: frames 0..9 never seen. */
	audio_sig_fill(b, 10, 100, AUDIO_S16_LE, 2);
	audio_sig_check_init(&c, AUDIO_S16_LE, 2);
	audio_sig_check(&c, b, 100, 0, NULL, NULL);
	assert_int_equal(c.errors, 10);
	free(b);
}

/* Mono S8 carries 7 bits of the index: the check follows it through many
 * wraps, and a loss shorter than half a wrap is counted exactly. */
static void narrow_index_wraps(void **state)
{
	(void)state;
	uint8_t *b = frames_of(AUDIO_S8, 1, 10000);
	audio_sig_fill(b, 0, 5000, AUDIO_S8, 1);
	audio_sig_fill(b + 5000, 5030, 4970, AUDIO_S8, 1);
	struct audio_sig_check c;
	audio_sig_check_init(&c, AUDIO_S8, 1);
	audio_sig_check(&c, b, 9970, 0, NULL, NULL);
	assert_int_equal(c.errors, 30);
	assert_int_equal(c.expect, 10000);
	/* What follows the signal's end is silence: a gap, counted. */
	audio_sig_check(&c, b + 9970, 30, 0, NULL, NULL);
	assert_int_equal(c.errors, 60);
	free(b);
}

/* Beyond 48 bits of index, channels carry a hash of it, which is checked. */
static void hash_channels_are_checked(void **state)
{
	(void)state;
	const unsigned ch = 8;	/* 8 x 7 bits: channel 7 is a hash */
	uint8_t *b = frames_of(AUDIO_S8, ch, 100);
	audio_sig_fill(b, 0, 100, AUDIO_S8, ch);
	b[40 * ch + 7] ^= 0x01;
	struct audio_sig_check c;
	audio_sig_check_init(&c, AUDIO_S8, ch);
	audio_sig_check(&c, b, 100, 0, NULL, NULL);
	assert_int_equal(c.errors, 1);
	assert_int_equal(c.frames, 99);
	free(b);
}

struct marks {
	int n;
	uint64_t index[16];
	size_t offset[16];
};

static void on_mark(void *arg, uint64_t index, size_t offset)
{
	struct marks *m = arg;
	if (m->n < 16) {
		m->index[m->n] = index;
		m->offset[m->n] = offset;
	}
	m->n++;
}

/* Every period's first frame is reported where it was found, which is what
 * the loop's latency is read from. */
static void marks_are_where_frames_are(void **state)
{
	(void)state;
	uint8_t *b = frames_of(AUDIO_S16_LE, 2, 400);
	audio_sig_fill(b + 37 * 4, 0, 363, AUDIO_S16_LE, 2);
	struct audio_sig_check c;
	struct marks m = { 0 };
	audio_sig_check_init(&c, AUDIO_S16_LE, 2);
	audio_sig_check(&c, b, 400, 64, on_mark, &m);
	assert_int_equal(m.n, 6);	/* 0, 64, ..., 320 */
	for (int i = 0; i < 6; i++) {
		assert_int_equal(m.index[i], 64 * (uint64_t)i);
		assert_int_equal(m.offset[i], 37 + 64 * (size_t)i);
	}
	free(b);
}

/* A driver whose position moves in 192-frame steps (snd-aloop at 48 kHz
 * and HZ=250), read every 5 ms for 2 s: the fit is within 0.01% where
 * the first and last points alone could be 0.2% off. */
static void rate_from_coarse_positions(void **state)
{
	(void)state;
	struct audio_fit f;
	audio_fit_init(&f);
	assert_true(audio_fit_rate(&f) == 0);
	for (int i = 0; i <= 400; i++) {
		double t = 100.0 + i * 0.005 + (i % 7) * 1e-4;
		double pos = 192.0 * (double)(int64_t)(48000.0 * (t - 100.0) / 192.0);
		audio_fit_add(&f, t, pos);
	}
	double r = audio_fit_rate(&f);
	assert_true(r > 48000 * (1 - 1e-4) && r < 48000 * (1 + 1e-4));
}

/* Two stretches with an xrun between: positions start again from 0, and
 * the rate is still the device's. One point alone, or points at one time,
 * give no rate. */
static void rate_across_xruns(void **state)
{
	(void)state;
	struct audio_fit f;
	audio_fit_init(&f);
	for (int i = 0; i < 100; i++)
		audio_fit_add(&f, 5.0 + i * 0.01, 1000 + 441.0 * i);
	audio_fit_break(&f);
	for (int i = 0; i < 50; i++)
		audio_fit_add(&f, 7.3 + i * 0.01, 441.0 * i);
	double r = audio_fit_rate(&f);
	assert_true(r > 44099.99 && r < 44100.01);

	audio_fit_init(&f);
	audio_fit_add(&f, 1.0, 10);
	assert_true(audio_fit_rate(&f) == 0);
	audio_fit_add(&f, 1.0, 20);
	assert_true(audio_fit_rate(&f) == 0);
	audio_fit_break(&f);
	audio_fit_add(&f, 2.0, 0);
	assert_true(audio_fit_rate(&f) == 0);
}

/* The seed's throughput: frames times channels times the format's bits in
 * memory (S24_LE moves 32), per second. */
static void throughput_in_bits(void **state)
{
	(void)state;
	struct audio_cfg cfg = { .channels = 2, .fmt = AUDIO_S16_LE, .rate = 48000 };
	assert_true(audio_bits_per_s(48000, 1.0, &cfg) == 1536000.0);
	assert_true(audio_bits_per_s(11025, 0.5, &cfg) == 705600.0);
	cfg.fmt = AUDIO_S24_LE;
	assert_int_equal(audio_frame_bits(&cfg), 64);
	cfg.channels = 1;
	cfg.fmt = AUDIO_S8;
	assert_int_equal(audio_frame_bits(&cfg), 8);
	assert_true(audio_bits_per_s(100, 0, &cfg) == 0);
	assert_int_equal(audio_format_find("S32_LE"), AUDIO_S32_LE);
	assert_int_equal(audio_format_find("U8"), -1);
}

/* What pg_sweep says for these overrides: NULL when they are accepted. */
static const char *sweep_error(const char *id, const char *o1, const char *o2, const char *o3)
{
	static char err[256];
	const struct pg_bench *b = pg_registry_find(id);
	assert_non_null(b);
	const char *o[] = { o1, o2, o3 };
	struct pg_override ov[3];
	int nov = 0;
	for (int i = 0; i < 3; i++)
		if (o[i] && pg_override_parse(o[i], &ov[nov++], err, sizeof(err)) < 0)
			return err;
	struct pg_args *all = NULL;
	int n = 0;
	int rc = pg_sweep(b, PG_SUITE_NONE, ov, nov, 0, &all, &n, err, sizeof(err));
	free(all);
	return rc < 0 ? err : NULL;
}

static void parameters_are_checked(void **state)
{
	(void)state;
	const char *e;
	assert_null(sweep_error("audio.playback", NULL, NULL, NULL));
	assert_null(sweep_error("audio.loop", NULL, NULL, NULL));
	assert_null(sweep_error("audio.capture", "period=256", "buffer=512", NULL));
	assert_non_null(e = sweep_error("audio.playback", "period=256", "buffer=300", NULL));
	assert_non_null(strstr(e, "two periods"));
	assert_non_null(e = sweep_error("audio.capture", "period=16", "buffer=64k", NULL));
	assert_non_null(strstr(e, "1024 periods"));
	assert_non_null(e = sweep_error("audio.playback", "stall=600", "time=1", NULL));
	assert_non_null(strstr(e, "half of time"));
	assert_null(sweep_error("audio.playback", "stall=500", "time=1", NULL));
	assert_non_null(e = sweep_error("audio.loop", "device=hw:Loopback,1,0", NULL, NULL));
	assert_non_null(strstr(e, "two ends"));
	assert_non_null(e = sweep_error("audio.playback", "format=U8", NULL, NULL));
	assert_non_null(e = sweep_error("audio.playback", "device=", NULL, NULL));
}

/* A device name is one value, commas and all; the rate still sweeps. */
static void device_names_keep_their_commas(void **state)
{
	(void)state;
	const struct pg_bench *b = pg_registry_find("audio.loop");
	struct pg_override ov[2];
	char err[256];
	assert_int_equal(pg_override_parse("capture=hw:CARD=Loopback,DEV=1,SUBDEV=3", &ov[0], err,
					   sizeof(err)), 0);
	assert_int_equal(pg_override_parse("rate=8000,96000", &ov[1], err, sizeof(err)), 0);
	struct pg_args *all = NULL;
	int n = 0;
	assert_int_equal(pg_sweep(b, PG_SUITE_NONE, ov, 2, 0, &all, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_string_equal(pg_arg_str(&all[0], "capture"), "hw:CARD=Loopback,DEV=1,SUBDEV=3");
	assert_string_equal(pg_arg_str(&all[1], "device"), "hw:Loopback,0,0");
	assert_int_equal(pg_arg_int(&all[1], "rate"), 96000);
	free(all);
}

/* No such device (or no alsa-lib): a skip with a reason naming it, before
 * anything is measured. */
static void a_missing_device_is_a_skip(void **state)
{
	(void)state;
	const struct pg_bench *b = pg_registry_find("audio.playback");
	struct pg_args a = bench_args(b, "device=hw:NoSuchCard,0", NULL);
	struct pg_ctx ctx = { .bench = b, .args = &a };
	assert_int_equal(b->setup(&ctx), PG_SKIP);
#ifdef PG_HAVE_ALSA
	assert_non_null(strstr(ctx.msg, "'hw:NoSuchCard,0'"));
#else
	assert_non_null(strstr(ctx.msg, "built without alsa-lib"));
#endif
	b->teardown(&ctx);
	assert_null(ctx.priv);

	b = pg_registry_find("audio.loop");
	a = bench_args(b, "capture=hw:NoSuchCard,1", NULL);
	ctx = (struct pg_ctx){ .bench = b, .args = &a };
	assert_int_equal(b->setup(&ctx), PG_SKIP);
#ifdef PG_HAVE_ALSA
	assert_non_null(strstr(ctx.msg, "'hw:NoSuchCard,1'"));
#endif
	b->teardown(&ctx);
}

/* The guide's table and the seed's label. */
static void section_and_label(void **state)
{
	(void)state;
	const struct pg_bench *b = pg_registry_find("audio.capture");
	assert_non_null(b->section);
	assert_string_equal(b->section->rows_by, "rate");
	assert_int_equal(b->section->cpu_load, 1);
	assert_ptr_equal(pg_registry_find("audio.playback")->section, b->section);
	char buf[64] = "";
	struct pg_args a = bench_args(b, NULL);
	b->label(b, &a, "throughput", buf, sizeof(buf));
	assert_string_equal(buf, "Throughput (bits/sec)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(signal_round_trip),
		cmocka_unit_test(samples_are_never_silence),
		cmocka_unit_test(silence_then_signal),
		cmocka_unit_test(damage_is_counted),
		cmocka_unit_test(narrow_index_wraps),
		cmocka_unit_test(hash_channels_are_checked),
		cmocka_unit_test(marks_are_where_frames_are),
		cmocka_unit_test(rate_from_coarse_positions),
		cmocka_unit_test(rate_across_xruns),
		cmocka_unit_test(throughput_in_bits),
		cmocka_unit_test(parameters_are_checked),
		cmocka_unit_test(device_names_keep_their_commas),
		cmocka_unit_test(a_missing_device_is_a_skip),
		cmocka_unit_test(section_and_label),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
