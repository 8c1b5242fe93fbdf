/* SPDX-License-Identifier: MIT */
/*
 * The known signal audio.loop plays and checks.
 *
 * Sample c of frame n is the top bit of the format set, so that no signal
 * frame is ever silence, over bits of n: channel 0 carries n's lowest
 * bits-1 bits, channel 1 the next, and so on up to 48 bits of the index;
 * channels beyond those carry a hash of (n, c), which the check compares.
 * Any frame names its own index (modulo 2^index bits: 2^30 frames for
 * stereo S16, 128 for mono S8), so the check follows the stream through
 * gaps and losses instead of giving up at the first difference, and it
 * knows where each played frame landed in the capture, which is what the
 * round-trip latency is read from.
 */
#include "audio.h"

#define INDEX_BITS_MAX 48

static int payload_bits(enum audio_fmt fmt)
{
	return audio_formats[fmt].bits - 1;
}

static uint64_t mask_of(int bits)
{
	return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

/* splitmix64's finaliser: any change of n or c changes every bit. */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= UINT64_C(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64_C(0x94d049bb133111eb);
	x ^= x >> 31;
	return x;
}

/* Bits of the index the frame carries. */
static int index_bits(enum audio_fmt fmt, unsigned channels)
{
	int b = (int)channels * payload_bits(fmt);
	return b < INDEX_BITS_MAX ? b : INDEX_BITS_MAX;
}

static uint64_t payload(uint64_t n, unsigned c, int d)
{
	int lo = (int)c * d;
	if (lo < INDEX_BITS_MAX)
		return (n >> lo) & mask_of(d) & mask_of(INDEX_BITS_MAX - lo);
	return mix(n * 1000003u + c) & mask_of(d);
}

static void sample_put(uint8_t *p, enum audio_fmt fmt, uint32_t v)
{
	int bytes = audio_formats[fmt].bytes;
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get(const uint8_t *p, enum audio_fmt fmt)
{
	int bytes = audio_formats[fmt].bytes;
	uint32_t v = 0;
	for (int i = 0; i < bytes; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

/* The sample as stored: the top bit of the format set over the payload,
 * and S24_LE's fourth byte the sign extension a driver expects. */
static uint32_t encode(uint64_t pl, enum audio_fmt fmt)
{
	int bits = audio_formats[fmt].bits;
	uint32_t v = (uint32_t)pl | (UINT32_C(1) << (bits - 1));
	if (fmt == AUDIO_S24_LE)
		v |= UINT32_C(0xff000000);
	return v;
}

void audio_sig_fill(void *buf, uint64_t first, size_t frames, enum audio_fmt fmt, unsigned channels)
{
	uint8_t *p = buf;
	int d = payload_bits(fmt), bytes = audio_formats[fmt].bytes;
	for (size_t i = 0; i < frames; i++)
		for (unsigned c = 0; c < channels; c++, p += bytes)
			sample_put(p, fmt, encode(payload(first + i, c, d), fmt));
}

void audio_sig_check_init(struct audio_sig_check *c, enum audio_fmt fmt, unsigned channels)
{
	*c = (struct audio_sig_check){ .fmt = fmt, .channels = channels };
}

enum frame_kind { F_SILENT, F_BAD, F_SIGNAL };

/* What one frame is; for a signal frame, the index bits it carries. */
static enum frame_kind read_frame(const struct audio_sig_check *c, const uint8_t *p, uint64_t *low)
{
	enum audio_fmt fmt = c->fmt;
	int bits = audio_formats[fmt].bits, bytes = audio_formats[fmt].bytes, d = bits - 1;
	uint32_t top = UINT32_C(1) << (bits - 1);
	int silent = 1, bad = 0;
	*low = 0;
	for (unsigned ch = 0; ch < c->channels; ch++, p += bytes) {
		uint32_t v = get(p, fmt);
		if (v)
			silent = 0;
		if (!(v & top) || (fmt == AUDIO_S24_LE && (v >> 24) != 0xff))
			bad = 1;
		int lo = (int)ch * d;
		if (lo < INDEX_BITS_MAX)
			*low |= ((uint64_t)v & mask_of(d) & mask_of(INDEX_BITS_MAX - lo)) << lo;
	}
	return silent ? F_SILENT : bad ? F_BAD : F_SIGNAL;
}

/* The hash channels agree with index n. */
static int hashes_match(const struct audio_sig_check *c, const uint8_t *p, uint64_t n)
{
	int d = payload_bits(c->fmt), bytes = audio_formats[c->fmt].bytes;
	for (unsigned ch = 0; ch < c->channels; ch++)
		if ((int)ch * d >= INDEX_BITS_MAX &&
		    get(p + ch * (unsigned)bytes, c->fmt) != encode(payload(n, ch, d), c->fmt))
			return 0;
	return 1;
}

void audio_sig_check(struct audio_sig_check *c, const void *buf, size_t frames, uint64_t mark,
		     audio_mark_fn fn, void *arg)
{
	const uint8_t *p = buf;
	size_t frame_bytes = (size_t)audio_formats[c->fmt].bytes * c->channels;
	int ib = index_bits(c->fmt, c->channels);
	uint64_t wrap_mask = mask_of(ib), half = UINT64_C(1) << (ib - 1);
	for (size_t i = 0; i < frames; i++, p += frame_bytes) {
		uint64_t low;
		enum frame_kind k = read_frame(c, p, &low);
		if (k == F_SILENT) {
			/* Silence before the signal is the loop's start; inside
			 * it, a gap. */
			if (c->started)
				c->errors++;
			continue;
		}
		/* The index nearest the expected one with these low bits. */
		uint64_t ahead = (low - c->expect) & wrap_mask, n = 0;
		if (ahead < half)
			n = c->expect + ahead;
		else if (c->expect >= ((wrap_mask + 1) - ahead))
			n = c->expect - ((wrap_mask + 1) - ahead);
		else
			k = F_BAD;
		if (k == F_BAD || !hashes_match(c, p, n)) {
			/* Not a frame of the signal: it took a frame's place. */
			c->errors++;
			if (c->started)
				c->expect++;
			continue;
		}
		if (n < c->expect) {
			/* A frame that came already (repeated, or old). */
			c->errors++;
			continue;
		}
		c->errors += n - c->expect;	/* frames lost before this one */
		c->expect = n + 1;
		c->started = 1;
		c->frames++;
		if (fn && mark && n % mark == 0)
			fn(arg, n, i);
	}
}
