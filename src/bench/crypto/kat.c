/* SPDX-License-Identifier: MIT */
/*
 * Known-answer tests: every backend and algorithm must give the published
 * answers before anything of it is timed, so a figure always belongs to an
 * implementation that computes the right thing.
 *
 * The vectors are the standards' own examples: NIST SP 800-38A appendix F
 * (AES ECB, CBC, CTR), NIST SP 800-67 Rev. 1 appendix B (three-key TDEA),
 * the FIPS 180-4 examples published by NIST (SHA-1, SHA-256, SHA-512),
 * RFC 4231 (HMAC-SHA-256), McGrew and Viega's GCM test cases, and RFC 8439
 * section 2.8.2 (ChaCha20-Poly1305).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto.h"

/* SP 800-38A's four plaintext blocks, shared by ECB, CBC and CTR. */
#define SP800_38A_P                                                            \
	"6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51" \
	"30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710"
#define AES128_KEY "2b7e151628aed2a6abf7158809cf4f3c"
#define AES192_KEY "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"
#define AES256_KEY "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"
#define SP800_38A_IV "000102030405060708090a0b0c0d0e0f"

/* GCM test cases 3/4 and 15/16 share their key, IV and plaintext. */
#define GCM_K128 "feffe9928665731c6d6a8f9467308308"
#define GCM_IV "cafebabefacedbaddecaf888"
#define GCM_P60                                                                \
	"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"   \
	"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
#define GCM_AAD "feedfacedeadbeeffeedfacedeadbeefabaddad2"

/* RFC 8439 2.8.2: "Ladies and Gentlemen of the class of '99: ..." */
#define RFC8439_P                                                              \
	"4c616469657320616e642047656e746c656d656e206f662074686520636c617373" \
	"206f66202739393a204966204920636f756c64206f6666657220796f75206f6e6c" \
	"79206f6e652074697020666f7220746865206675747572652c2073756e73637265" \
	"656e20776f756c642062652069742e"
#define RFC8439_C                                                              \
	"d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"   \
	"3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"   \
	"92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"   \
	"3ff4def08e4b7a9de576d26586cec64b6116"

const struct crypto_kat crypto_kats[] = {
	{ "aes-128-ecb", "NIST SP 800-38A F.1.1", .key = AES128_KEY, .in = SP800_38A_P,
	  .out = "3ad77bb40d7a3660a89ecaf32466ef97" "f5d3d58503b9699de785895a96fdbaaf"
		 "43b1cd7f598ece23881b00e3ed030688" "7b0c785e27e8ad3f8223207104725dd4" },
	{ "aes-192-ecb", "NIST SP 800-38A F.1.3", .key = AES192_KEY, .in = SP800_38A_P,
	  .out = "bd334f1d6e45f25ff712a214571fa5cc" "974104846d0ad3ad7734ecb3ecee4eef"
		 "ef7afd2270e2e60adce0ba2face6444e" "9a4b41ba738d6c72fb16691603c18e0e" },
	{ "aes-256-ecb", "NIST SP 800-38A F.1.5", .key = AES256_KEY, .in = SP800_38A_P,
	  .out = "f3eed1bdb5d2a03c064b5a7e3db181f8" "591ccb10d410ed26dc5ba74a31362870"
		 "b6ed21b99ca6f4f9f153e7b1beafed1d" "23304b7a39f9f3ff067d8d8f9e24ecc7" },
	{ "aes-128-cbc", "NIST SP 800-38A F.2.1", .key = AES128_KEY, .iv = SP800_38A_IV,
	  .in = SP800_38A_P,
	  .out = "7649abac8119b246cee98e9b12e9197d" "5086cb9b507219ee95db113a917678b2"
		 "73bed6b8e3c1743b7116e69e22229516" "3ff1caa1681fac09120eca307586e1a7" },
	{ "aes-192-cbc", "NIST SP 800-38A F.2.3", .key = AES192_KEY, .iv = SP800_38A_IV,
	  .in = SP800_38A_P,
	  .out = "4f021db243bc633d7178183a9fa071e8" "b4d9ada9ad7dedf4e5e738763f69145a"
		 "571b242012fb7ae07fa9baac3df102e0" "08b0e27988598881d920a9e64f5615cd" },
	{ "aes-256-cbc", "NIST SP 800-38A F.2.5", .key = AES256_KEY, .iv = SP800_38A_IV,
	  .in = SP800_38A_P,
	  .out = "f58c4c04d6e5f1ba779eabfb5f7bfbd6" "9cfc4e967edb808d679f777bc6702c7d"
		 "39f23369a9d9bacfa530e26304231461" "b2eb05e2c39be9fcda6c19078c6a9d1b" },
	{ "aes-128-ctr", "NIST SP 800-38A F.5.1", .key = AES128_KEY,
	  .iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", .in = SP800_38A_P,
	  .out = "874d6191b620e3261bef6864990db6ce" "9806f66b7970fdff8617187bb9fffdff"
		 "5ae4df3edbd5d35e5b4f09020db03eab" "1e031dda2fbe03d1792170a0f3009cee" },
	/* The appendix's example is ECB; its first block is CBC with a zero IV. */
	{ "des3", "NIST SP 800-67 Rev. 1 B.1, first block",
	  .key = "0123456789abcdef" "23456789abcdef01" "456789abcdef0123",
	  .iv = "0000000000000000", .in = "5468652071756663", .out = "a826fd8ce53b855f" },
	{ "sha1", "FIPS 180-4 example, \"abc\"", .in = "616263",
	  .out = "a9993e364706816aba3e25717850c26c9cd0d89d" },
	{ "sha1", "FIPS 180-4 example, two blocks",
	  .in = "6162636462636465636465666465666765666768666768696768696a68696a6b"
		"696a6b6c6a6b6c6d6b6c6d6e6c6d6e6f6d6e6f706e6f7071",
	  .out = "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
	{ "sha256", "FIPS 180-4 example, \"abc\"", .in = "616263",
	  .out = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "sha256", "FIPS 180-4 example, two blocks",
	  .in = "6162636462636465636465666465666765666768666768696768696a68696a6b"
		"696a6b6c6a6b6c6d6b6c6d6e6c6d6e6f6d6e6f706e6f7071",
	  .out = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "sha512", "FIPS 180-4 example, \"abc\"", .in = "616263",
	  .out = "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
		 "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
	{ "sha512", "FIPS 180-4 example, two blocks",
	  .in = "61626364656667686263646566676869636465666768696a6465666768696a6b"
		"65666768696a6b6c666768696a6b6c6d6768696a6b6c6d6e68696a6b6c6d6e6f"
		"696a6b6c6d6e6f706a6b6c6d6e6f70716b6c6d6e6f7071726c6d6e6f70717273"
		"6d6e6f70717273746e6f707172737475",
	  .out = "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
		 "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909" },
	{ "hmac-sha256", "RFC 4231 test case 1", .key = "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
	  .in = "4869205468657265",
	  .out = "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
	{ "hmac-sha256", "RFC 4231 test case 2", .key = "4a656665",
	  .in = "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
	  .out = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
	{ "aes-128-gcm", "GCM spec test case 2", .key = "00000000000000000000000000000000",
	  .iv = "000000000000000000000000", .in = "00000000000000000000000000000000",
	  .out = "0388dace60b6a392f328c2b971b2fe78", .tag = "ab6e47d42cec13bdf53a67b21257bddf" },
	{ "aes-128-gcm", "GCM spec test case 4", .key = GCM_K128, .iv = GCM_IV, .aad = GCM_AAD,
	  .in = GCM_P60,
	  .out = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
		 "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
	  .tag = "5bc94fbc3221a5db94fae95ae7121a47" },
	{ "aes-256-gcm", "GCM spec test case 14",
	  .key = "0000000000000000000000000000000000000000000000000000000000000000",
	  .iv = "000000000000000000000000", .in = "00000000000000000000000000000000",
	  .out = "cea7403d4d606b6e074ec5d3baf39d18", .tag = "d0d1c8a799996bf0265b98b5d48ab919" },
	{ "aes-256-gcm", "GCM spec test case 16", .key = GCM_K128 GCM_K128, .iv = GCM_IV,
	  .aad = GCM_AAD, .in = GCM_P60,
	  .out = "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
		 "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
	  .tag = "76fc6ece0f4e1768cddf8853bb2d551b" },
	{ "chacha20-poly1305", "RFC 8439 2.8.2",
	  .key = "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
	  .iv = "070000004041424344454647", .aad = "50515253c0c1c2c3c4c5c6c7",
	  .in = RFC8439_P, .out = RFC8439_C, .tag = "1ae10b594f09e26a7e902ecbd0600691" },
	{ NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL },
};

int crypto_unhex(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	if (!s)
		return 0;
	for (; s[0]; s += 2) {
		unsigned v;
		if (!s[1] || n == max || sscanf(s, "%2x", &v) != 1 ||
		    !strchr("0123456789abcdefABCDEF", s[0]) || !strchr("0123456789abcdefABCDEF", s[1]))
			return -1;
		out[n++] = (uint8_t)v;
	}
	return (int)n;
}

int crypto_kats_for(const char *alg, const struct crypto_kat **first)
{
	int n = 0;
	*first = NULL;
	for (const struct crypto_kat *k = crypto_kats; k->alg; k++) {
		if (strcmp(k->alg, alg) != 0)
			continue;
		if (!*first)
			*first = k;
		n++;
	}
	return n;
}

/* The vectors are at most a few hundred bytes. */
#define KAT_MAX 256

struct kat_data {
	uint8_t key[CRYPTO_MAX_KEY], iv[CRYPTO_MAX_IV], aad[KAT_MAX];
	uint8_t in[KAT_MAX], out[KAT_MAX], tag[CRYPTO_MAX_OUT];
	int key_len, iv_len, aad_len, in_len, out_len, tag_len;
};

static int decode(const struct crypto_kat *k, struct kat_data *d)
{
	d->key_len = crypto_unhex(k->key, d->key, sizeof(d->key));
	d->iv_len = crypto_unhex(k->iv, d->iv, sizeof(d->iv));
	d->aad_len = crypto_unhex(k->aad, d->aad, sizeof(d->aad));
	d->in_len = crypto_unhex(k->in, d->in, sizeof(d->in));
	d->out_len = crypto_unhex(k->out, d->out, sizeof(d->out));
	d->tag_len = crypto_unhex(k->tag, d->tag, sizeof(d->tag));
	return d->key_len < 0 || d->iv_len < 0 || d->aad_len < 0 || d->in_len < 0 ||
	       d->out_len < 0 || d->tag_len < 0 ? -1 : 0;
}

/* The first differing byte, for the message. */
static int first_diff(const uint8_t *a, const uint8_t *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i] != b[i])
			return i;
	return -1;
}

static int mismatch(struct pg_ctx *ctx, const struct crypto_backend *be, const struct crypto_alg *alg,
		    const char *impl, const struct crypto_kat *k, const char *what, int at)
{
	return pg_error(ctx, "known-answer test failed: %s backend, %s, %s: %s %s differs at byte %d",
			be->name, alg->name, impl, k->source, what, at);
}

static int kat_one(struct pg_ctx *ctx, const struct crypto_backend *be, const struct crypto_alg *alg,
		   const char *driver, int splice, const struct crypto_kat *k)
{
	struct kat_data d;
	uint8_t got[KAT_MAX], tag[CRYPTO_MAX_OUT];
	if (decode(k, &d) < 0)
		return pg_error(ctx, "known-answer vector %s for %s is not hex", k->source, alg->name);
	int hash = alg->kind == CK_HASH || alg->kind == CK_MAC;
	int fits = hash ? (unsigned)d.out_len == alg->out_len && (alg->kind == CK_MAC || d.key_len == 0)
			: (unsigned)d.key_len == alg->key_len && (unsigned)d.iv_len == alg->iv_len &&
			  d.out_len == d.in_len &&
			  (alg->kind != CK_AEAD || (unsigned)d.tag_len == alg->out_len);
	if (!fits)
		return pg_error(ctx, "known-answer vector %s does not fit %s", k->source, alg->name);

	struct crypto_op op = { .alg = alg, .encrypt = 1, .key = d.key, .key_len = (size_t)d.key_len,
				.iv = d.iv, .driver = driver, .splice = splice };
	void *x = NULL;
	int rc = be->open(ctx, &op, &x);
	if (rc != PG_OK) {
		be->close(x);
		return rc;
	}
	char impl[160];
	be->describe(x, impl, sizeof(impl));

	/* Encrypt (or digest) and compare. */
	memset(got, 0, sizeof(got));
	memset(tag, 0, sizeof(tag));
	rc = be->once(ctx, x, 1, d.iv, d.aad, (size_t)d.aad_len, d.in, (size_t)d.in_len, got, tag);
	if (rc != PG_OK)
		goto out;
	int at = first_diff(got, d.out, d.out_len);
	if (at >= 0) {
		rc = mismatch(ctx, be, alg, impl, k, hash ? "digest" : "ciphertext", at);
		goto out;
	}
	if (alg->kind == CK_AEAD && (at = first_diff(tag, d.tag, d.tag_len)) >= 0) {
		rc = mismatch(ctx, be, alg, impl, k, "tag", at);
		goto out;
	}
	if (hash)
		goto out;

	/* Decrypt back; an AEAD also checks the published tag. */
	memset(got, 0, sizeof(got));
	memcpy(tag, d.tag, (size_t)d.tag_len);
	rc = be->once(ctx, x, 0, d.iv, d.aad, (size_t)d.aad_len, d.out, (size_t)d.out_len, got, tag);
	if (rc != PG_OK)
		goto out;
	if ((at = first_diff(got, d.in, d.in_len)) >= 0)
		rc = mismatch(ctx, be, alg, impl, k, "decrypted plaintext", at);
out:
	be->close(x);
	return rc;
}

int crypto_kat_run(struct pg_ctx *ctx, const struct crypto_backend *be,
		   const struct crypto_alg *alg, const char *driver, int splice,
		   const struct crypto_kat *kats, int n, int *passed)
{
	*passed = 0;
	if (n == 0)
		return pg_error(ctx, "no known-answer vector for %s", alg->name);
	for (int i = 0; i < n; i++) {
		int rc = kat_one(ctx, be, alg, driver, splice, &kats[i]);
		if (rc != PG_OK)
			return rc;
		(*passed)++;
	}
	return PG_OK;
}
