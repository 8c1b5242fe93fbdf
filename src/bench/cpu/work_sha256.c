/* SPDX-License-Identifier: MIT */
/*
 * cpu.work.sha256: SHA-256 (FIPS 180-4) of a 16 KB buffer. One iteration
 * hashes the whole buffer: 256 compression rounds of 64 steps of 32-bit
 * rotations, additions and logic.
 *
 * The project's rule is not to hand-write a hash that a library does well;
 * here the hash is not a tool but the CPU workload being measured (as the
 * sha workload of embedded CPU suites is), so perfguide carries its own
 * plain C kernel, which no library call would let it time or keep the same
 * across machines. It is checked in setup against FIPS 180-4's published
 * examples ("abc", one block, and the 448-bit two-block message), and
 * every step's last digest must equal the buffer's digest from setup.
 */
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "work.h"

#define BUF 16384

struct sha_work {
	uint8_t buf[BUF];
	uint8_t digest[32], want[32];
};

static const uint32_t k256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}

static void compress(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
			      k256[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		hh = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += hh;
}

void pg_work_sha256(const void *data, size_t len, uint8_t out[32])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const uint8_t *p = data;
	size_t left = len;
	for (; left >= 64; left -= 64, p += 64)
		compress(h, p);
	/* the tail, a 1 bit, zeros, and the length in bits: one or two blocks */
	uint8_t last[128] = { 0 };
	memcpy(last, p, left);
	last[left] = 0x80;
	size_t n = left < 56 ? 64 : 128;
	uint64_t bits = (uint64_t)len * 8;
	for (int i = 0; i < 8; i++)
		last[n - 1 - i] = (uint8_t)(bits >> (8 * i));
	compress(h, last);
	if (n == 128)
		compress(h, last + 64);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 4; j++)
			out[4 * i + j] = (uint8_t)(h[i] >> (24 - 8 * j));
}

static int known(const char *msg, const char *hex, char *why, size_t len)
{
	uint8_t d[32];
	char got[65];
	pg_work_sha256(msg, strlen(msg), d);
	for (int i = 0; i < 32; i++)
		snprintf(got + 2 * i, 3, "%02x", d[i]);
	if (strcmp(got, hex) == 0)
		return 0;
	snprintf(why, len, "SHA-256(\"%.10s...\") is %.16s..., should be %.16s...", msg, got, hex);
	return -1;
}

static uint32_t sha_run(void *p)
{
	struct sha_work *s = p;
	pg_work_sha256(s->buf, sizeof(s->buf), s->digest);
	return (uint32_t)s->digest[0] << 24 | (uint32_t)s->digest[1] << 16 | s->digest[2] << 8 |
	       s->digest[3];
}

static int sha_init(void *p, char *why, size_t len)
{
	struct sha_work *s = p;
	/* FIPS 180-4's examples (NIST's "SHA256.pdf" and "SHA2_Additional") */
	if (known("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		  why, len) != 0 ||
	    known("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", why, len) != 0 ||
	    known("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		  why, len) != 0)
		return -1;
	uint32_t r = 99;
	for (size_t i = 0; i < sizeof(s->buf); i++)
		s->buf[i] = (uint8_t)(pg_work_rand(&r) >> 11);
	pg_work_sha256(s->buf, sizeof(s->buf), s->want);
	return 0;
}

static int sha_check(void *p, uint32_t sum, char *why, size_t len)
{
	struct sha_work *s = p;
	(void)sum;
	if (memcmp(s->digest, s->want, 32) == 0)
		return 0;
	snprintf(why, len, "the buffer's digest changed between iterations");
	return -1;
}

static const struct pg_work sha_work = {
	.state_size = sizeof(struct sha_work),
	.init = sha_init, .run = sha_run, .check = sha_check,
};

const struct pg_bench pg_cpu_work_sha256 =
	PG_WORK_BENCH("cpu.work.sha256", "SHA-256 of a 16 KB buffer", &sha_work);
