/* SPDX-License-Identifier: MIT */
/*
 * cpu.nbench.idea: BYTEmark's IDEA test: a 4000-byte buffer of random bytes
 * encrypted with the IDEA block cipher (8 rounds, 52 16-bit subkeys, ECB)
 * and decrypted again. One iteration is one encryption and decryption of
 * the buffer, the reference's "loop", the unit of its iterations per second.
 *
 * Checked: the cipher against the published test vector in setup, and
 * after every step that the decrypted buffer equals the plaintext and the
 * ciphertext does not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "bench/cpu/cpu.h"
#include "nbench.h"

#define IDEAARRAYSIZE 4000
#define ROUNDS 8
#define KEYLEN (6 * ROUNDS + 4)

struct idea_state {
	uint16_t ek[KEYLEN], dk[KEYLEN];
	uint8_t *plain, *crypt, *back;
};

/* Multiplication modulo 2^16 + 1, where 0 stands for 2^16. */
static inline uint16_t mul(uint16_t a, uint16_t b)
{
	if (a == 0)
		return (uint16_t)(1 - b);
	if (b == 0)
		return (uint16_t)(1 - a);
	uint32_t p = (uint32_t)a * b;
	uint16_t lo = (uint16_t)p, hi = (uint16_t)(p >> 16);
	return (uint16_t)(lo - hi + (lo < hi));
}

/* Multiplicative inverse modulo 2^16 + 1 (extended Euclid). */
static uint16_t mul_inv(uint16_t x)
{
	if (x <= 1)
		return x;
	int32_t r0 = 0x10001, r1 = x, s0 = 0, s1 = 1;
	while (r1 != 0) {
		int32_t q = r0 / r1, t;
		t = r0 - q * r1; r0 = r1; r1 = t;
		t = s0 - q * s1; s0 = s1; s1 = t;
	}
	if (s0 < 0)
		s0 += 0x10001;
	return (uint16_t)s0;
}

/* Encryption subkeys: the 128-bit key, rotated left 25 bits per 8 keys. */
static void key_schedule(const uint16_t key[8], uint16_t ek[KEYLEN])
{
	uint8_t k[16];
	for (int i = 0; i < 8; i++) {
		k[2 * i] = (uint8_t)(key[i] >> 8);
		k[2 * i + 1] = (uint8_t)key[i];
	}
	for (int n = 0; n < KEYLEN; n++) {
		int bit = (n / 8) * 25 + (n % 8) * 16;	/* first bit of subkey n */
		uint32_t v = 0;
		for (int b = 0; b < 16; b++) {
			int pos = (bit + b) % 128;
			v = (v << 1) | ((k[pos / 8] >> (7 - pos % 8)) & 1);
		}
		ek[n] = (uint16_t)v;
	}
}

/* Decryption subkeys: the encryption ones reversed, inverted and negated. */
static void invert_keys(const uint16_t ek[KEYLEN], uint16_t dk[KEYLEN])
{
	for (int r = 0; r <= ROUNDS; r++) {
		const uint16_t *e = &ek[6 * (ROUNDS - r)];
		uint16_t *d = &dk[6 * r];
		int outer = r == 0 || r == ROUNDS;
		d[0] = mul_inv(e[0]);
		d[1] = (uint16_t)-e[outer ? 1 : 2];
		d[2] = (uint16_t)-e[outer ? 2 : 1];
		d[3] = mul_inv(e[3]);
		if (r < ROUNDS) {
			d[4] = ek[6 * (ROUNDS - r - 1) + 4];
			d[5] = ek[6 * (ROUNDS - r - 1) + 5];
		}
	}
}

static void idea_block(const uint8_t *in, uint8_t *out, const uint16_t *z)
{
	uint16_t x1, x2, x3, x4;
	memcpy(&x1, in, 2);
	memcpy(&x2, in + 2, 2);
	memcpy(&x3, in + 4, 2);
	memcpy(&x4, in + 6, 2);
	for (int r = 0; r < ROUNDS; r++, z += 6) {
		x1 = mul(x1, z[0]);
		x2 = (uint16_t)(x2 + z[1]);
		x3 = (uint16_t)(x3 + z[2]);
		x4 = mul(x4, z[3]);
		uint16_t t2 = mul((uint16_t)(x1 ^ x3), z[4]);
		uint16_t t1 = mul((uint16_t)(t2 + (x2 ^ x4)), z[5]);
		t2 = (uint16_t)(t1 + t2);
		x1 ^= t1;
		x4 ^= t2;
		uint16_t t = (uint16_t)(x2 ^ t2);
		x2 = (uint16_t)(x3 ^ t1);
		x3 = t;
	}
	uint16_t y1 = mul(x1, z[0]), y2 = (uint16_t)(x3 + z[1]), y3 = (uint16_t)(x2 + z[2]),
		 y4 = mul(x4, z[3]);
	memcpy(out, &y1, 2);
	memcpy(out + 2, &y2, 2);
	memcpy(out + 4, &y3, 2);
	memcpy(out + 6, &y4, 2);
}

/* The published test vector (Lai's thesis): key 1..8, plaintext 0..3. */
int pg_nbench_idea_selftest(void)
{
	const uint16_t key[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const uint16_t pt[4] = { 0, 1, 2, 3 }, want[4] = { 0x11fb, 0xed2b, 0x0198, 0x6de5 };
	uint16_t ek[KEYLEN], dk[KEYLEN], ct[4], back[4];
	key_schedule(key, ek);
	invert_keys(ek, dk);
	idea_block((const uint8_t *)pt, (uint8_t *)ct, ek);
	idea_block((const uint8_t *)ct, (uint8_t *)back, dk);
	return memcmp(ct, want, sizeof(ct)) == 0 && memcmp(back, pt, sizeof(pt)) == 0 ? 0 : -1;
}

static int idea_setup(struct pg_ctx *ctx)
{
	struct idea_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	if (pg_nbench_idea_selftest() != 0)
		return pg_error(ctx, "idea: the cipher fails the published test vector");
	s->plain = malloc(IDEAARRAYSIZE);
	s->crypt = malloc(IDEAARRAYSIZE);
	s->back = malloc(IDEAARRAYSIZE);
	if (!s->plain || !s->crypt || !s->back)
		return pg_error(ctx, "out of memory");
	struct nb_rand r;
	nb_rand_restart(&r);
	uint16_t key[8];
	for (int i = 0; i < 8; i++)
		key[i] = (uint16_t)(abs(nb_rand_next(&r) % 60000));
	key_schedule(key, s->ek);
	invert_keys(s->ek, s->dk);
	for (int i = 0; i < IDEAARRAYSIZE; i++)
		s->plain[i] = (uint8_t)(abs(nb_rand_next(&r) % 255));
	return PG_OK;
}

static void idea_teardown(struct pg_ctx *ctx)
{
	struct idea_state *s = ctx->priv;
	if (!s)
		return;
	free(s->plain);
	free(s->crypt);
	free(s->back);
	free(s);
}

static int idea_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct idea_state *s = ctx->priv;
	memset(s->back, 0, IDEAARRAYSIZE);
	for (uint64_t it = 0; it < iters; it++) {
		for (int j = 0; j < IDEAARRAYSIZE; j += 8)
			idea_block(s->plain + j, s->crypt + j, s->ek);
		for (int j = 0; j < IDEAARRAYSIZE; j += 8)
			idea_block(s->crypt + j, s->back + j, s->dk);
	}
	if (memcmp(s->plain, s->back, IDEAARRAYSIZE) != 0)
		return pg_error(ctx, "idea: decrypted text differs from the plaintext");
	if (memcmp(s->plain, s->crypt, IDEAARRAYSIZE) == 0)
		return pg_error(ctx, "idea: the ciphertext equals the plaintext");
	counts[0] = (double)iters;
	return PG_OK;
}

static void idea_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		       char *buf, size_t len)
{
	(void)b;
	(void)a;
	(void)metric;
	snprintf(buf, len, "idea (Iterations)");
}

static const struct pg_param idea_params[] = {
	PG_CPU_COPIES_PARAM,
	{ 0 },
};

static const struct pg_metric idea_metrics[] = {
	{ "iterations", "iter/s", PG_RATE, 1.0, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_cpu_nbench_idea = {
	.id = "cpu.nbench.idea",
	.section = &pg_cpu_sec_nbench,
	.title = "BYTEmark IDEA encryption and decryption of 4000 bytes",
	.params = idea_params, .metrics = idea_metrics, .copies_param = "copies",
	.setup = idea_setup, .step = idea_step, .teardown = idea_teardown,
	.label = idea_label,
};
