/* SPDX-License-Identifier: MIT */
/* The crypto group: its known-answer vectors are the published ones (checked
 * against libcrypto directly, not through the backend), a wrong answer is an
 * error and never a number, the kernel backend skips where the kernel has no
 * AF_ALG, /proc/crypto is read right, and a step counts what it did. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "bench/crypto/crypto.h"
#include "core/registry.h"
#include "bench_args.h"

#ifdef PG_HAVE_CRYPTO
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#endif

#ifndef AF_ALG
#define AF_ALG 38
#endif

static void test_tables(void **state)
{
	(void)state;
	uint8_t buf[256];
	/* Every algorithm has vectors, is registered, and every vector decodes. */
	for (const struct crypto_alg *a = crypto_algs; a->name; a++) {
		const struct crypto_kat *k;
		assert_true(crypto_kats_for(a->name, &k) >= 1);
		char id[64];
		snprintf(id, sizeof(id), "crypto.%s", a->name);
		const struct pg_bench *b = pg_registry_find(id);
		assert_non_null(b);
		assert_ptr_equal(b->data, a);
	}
	for (const struct crypto_kat *k = crypto_kats; k->alg; k++) {
		assert_non_null(crypto_alg_find(k->alg));
		const char *h[] = { k->key, k->iv, k->aad, k->in, k->out, k->tag };
		for (int i = 0; i < 6; i++)
			assert_true(crypto_unhex(h[i], buf, sizeof(buf)) >= 0);
	}
	assert_int_equal(crypto_unhex("0aFf", buf, sizeof(buf)), 2);
	assert_true(buf[0] == 0x0a && buf[1] == 0xff);
	assert_int_equal(crypto_unhex("abc", buf, sizeof(buf)), -1);
	assert_int_equal(crypto_unhex("zz", buf, sizeof(buf)), -1);
	assert_int_equal(crypto_unhex("0011", buf, 1), -1);
}

#ifdef PG_HAVE_CRYPTO
/* One vector through libcrypto directly, encrypting (or digesting). */
static void check_vector(const struct crypto_kat *k)
{
	const struct crypto_alg *a = crypto_alg_find(k->alg);
	uint8_t key[64], iv[16], aad[256], in[256], out[256], tag[64], got[256 + 64], gtag[64];
	int kl = crypto_unhex(k->key, key, sizeof(key)), il = crypto_unhex(k->iv, iv, sizeof(iv));
	int al = crypto_unhex(k->aad, aad, sizeof(aad)), nl = crypto_unhex(k->in, in, sizeof(in));
	int ol = crypto_unhex(k->out, out, sizeof(out)), tl = crypto_unhex(k->tag, tag, sizeof(tag));
	(void)il;
	size_t ml = 0;
	int outl = 0, fl = 0;
	switch (a->kind) {
	case CK_HASH: {
		EVP_MD *md = EVP_MD_fetch(NULL, a->evp, NULL);
		assert_non_null(md);
		assert_int_equal(EVP_Digest(in, (size_t)nl, got, NULL, md, NULL), 1);
		EVP_MD_free(md);
		break;
	}
	case CK_MAC: {
		EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
		EVP_MAC_CTX *mc = EVP_MAC_CTX_new(mac);
		OSSL_PARAM p[] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)a->evp, 0),
				   OSSL_PARAM_construct_end() };
		assert_int_equal(EVP_MAC_init(mc, key, (size_t)kl, p), 1);
		assert_int_equal(EVP_MAC_update(mc, in, (size_t)nl), 1);
		assert_int_equal(EVP_MAC_final(mc, got, &ml, sizeof(got)), 1);
		EVP_MAC_CTX_free(mc);
		EVP_MAC_free(mac);
		break;
	}
	case CK_CIPHER:
	case CK_AEAD: {
		EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, a->evp, NULL);
		EVP_CIPHER_CTX *cx = EVP_CIPHER_CTX_new();
		assert_non_null(c);
		assert_int_equal(EVP_EncryptInit_ex(cx, c, NULL, key, a->iv_len ? iv : NULL), 1);
		EVP_CIPHER_CTX_set_padding(cx, 0);
		if (al > 0)
			assert_int_equal(EVP_EncryptUpdate(cx, NULL, &outl, aad, al), 1);
		assert_int_equal(EVP_EncryptUpdate(cx, got, &outl, in, nl), 1);
		assert_int_equal(EVP_EncryptFinal_ex(cx, got + outl, &fl), 1);
		if (a->kind == CK_AEAD) {
			assert_int_equal(EVP_CIPHER_CTX_ctrl(cx, EVP_CTRL_AEAD_GET_TAG, tl, gtag), 1);
			assert_memory_equal(gtag, tag, (size_t)tl);
		}
		EVP_CIPHER_CTX_free(cx);
		EVP_CIPHER_free(c);
		break;
	}
	}
	assert_memory_equal(got, out, (size_t)ol);
}
#endif

static void test_vectors_are_right(void **state)
{
	(void)state;
#ifdef PG_HAVE_CRYPTO
	int n = 0;
	for (const struct crypto_kat *k = crypto_kats; k->alg; k++, n++)
		check_vector(k);
	assert_true(n >= 20);
#else
	skip();
#endif
}

/* Every algorithm through the openssl backend passes its vectors, both
 * directions; without libcrypto the backend skips and says what to install. */
static void test_openssl_backend(void **state)
{
	(void)state;
	for (const struct crypto_alg *a = crypto_algs; a->name; a++) {
		struct pg_ctx ctx;
		memset(&ctx, 0, sizeof(ctx));
		const struct crypto_kat *k;
		int n = crypto_kats_for(a->name, &k), passed = -1;
		int rc = crypto_kat_run(&ctx, &crypto_openssl, a, NULL, 0, k, n, &passed);
#ifdef PG_HAVE_CRYPTO
		if (rc != PG_OK)
			fail_msg("%s: %s", a->name, ctx.msg);
		assert_int_equal(passed, n);
#else
		assert_int_equal(rc, PG_SKIP);
		assert_non_null(strstr(ctx.msg, "libssl-dev"));
#endif
	}
}

/* A backend whose "cipher" copies and whose "digest" is zeros: wrong. */
static int fake_open(struct pg_ctx *ctx, const struct crypto_op *op, void **x)
{
	(void)ctx;
	*x = (void *)op->alg;
	return PG_OK;
}

static int fake_once(struct pg_ctx *ctx, void *x, int encrypt, const uint8_t *iv, const uint8_t *aad,
		     size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag)
{
	const struct crypto_alg *a = x;
	(void)ctx, (void)encrypt, (void)iv, (void)aad, (void)aad_len, (void)tag;
	if (a->kind == CK_HASH || a->kind == CK_MAC)
		memset(out, 0, a->out_len);
	else
		memcpy(out, in, len);
	return PG_OK;
}

static void fake_describe(void *x, char *buf, size_t len)
{
	(void)x;
	snprintf(buf, len, "driver fake-impl");
}

static void fake_close(void *x)
{
	(void)x;
}

static const struct crypto_backend fake = {
	.name = "fake", .open = fake_open, .once = fake_once,
	.describe = fake_describe, .close = fake_close,
};

static void test_mismatch_is_an_error(void **state)
{
	(void)state;
	struct pg_ctx ctx;
	const struct crypto_kat *k;
	for (const char *const *name = (const char *const[]){ "aes-128-cbc", "sha256", "aes-128-gcm", NULL };
	     *name; name++) {
		const struct crypto_alg *a = crypto_alg_find(*name);
		int n = crypto_kats_for(a->name, &k), passed = -1;
		memset(&ctx, 0, sizeof(ctx));
		assert_int_equal(crypto_kat_run(&ctx, &fake, a, NULL, 0, k, n, &passed), PG_ERROR);
		assert_int_equal(passed, 0);
		/* The message names backend, algorithm, implementation and vector. */
		assert_non_null(strstr(ctx.msg, "known-answer test failed"));
		assert_non_null(strstr(ctx.msg, "fake backend"));
		assert_non_null(strstr(ctx.msg, a->name));
		assert_non_null(strstr(ctx.msg, "fake-impl"));
		assert_non_null(strstr(ctx.msg, k->source));
	}

	/* A corrupted published vector fails the real backend too. */
	const struct crypto_alg *a = crypto_alg_find("aes-256-cbc");
	assert_int_equal(crypto_kats_for(a->name, &k), 1);
	struct crypto_kat bad = *k;
	char out[160];
	snprintf(out, sizeof(out), "%s", k->out);
	out[40] = out[40] == '0' ? '1' : '0';	/* byte 20: the second block */
	bad.out = out;
	int passed = -1;
	memset(&ctx, 0, sizeof(ctx));
	int rc = crypto_kat_run(&ctx, &crypto_openssl, a, NULL, 0, &bad, 1, &passed);
#ifdef PG_HAVE_CRYPTO
	assert_int_equal(rc, PG_ERROR);
	assert_non_null(strstr(ctx.msg, "openssl backend, aes-256-cbc, provider "));
	assert_non_null(strstr(ctx.msg, "ciphertext differs at byte 20"));
	/* A wrong tag is caught as well. */
	const struct crypto_kat *g;
	assert_int_equal(crypto_kats_for("aes-128-gcm", &g), 2);
	bad = g[1];
	char tag[40];
	snprintf(tag, sizeof(tag), "%s", g[1].tag);
	tag[0] = tag[0] == 'f' ? 'e' : 'f';
	bad.tag = tag;
	memset(&ctx, 0, sizeof(ctx));
	assert_int_equal(crypto_kat_run(&ctx, &crypto_openssl, crypto_alg_find("aes-128-gcm"), NULL, 0,
					&bad, 1, &passed), PG_ERROR);
	assert_non_null(strstr(ctx.msg, "tag differs at byte 0"));
#else
	assert_int_equal(rc, PG_SKIP);
#endif
	/* A vector that does not fit its algorithm is an error, not a pass. */
	bad = *k;
	bad.key = "00";
	memset(&ctx, 0, sizeof(ctx));
	assert_int_equal(crypto_kat_run(&ctx, &fake, a, NULL, 0, &bad, 1, &passed), PG_ERROR);
	assert_non_null(strstr(ctx.msg, "does not fit"));
}

/* Where the kernel has no AF_ALG (this machine), the kernel backend skips
 * and says what to load; where it has one, the vectors pass or the
 * algorithm is missing (a skip with its name). */
static void test_kernel_backend(void **state)
{
	(void)state;
	int s = socket(AF_ALG, SOCK_SEQPACKET, 0);
	int have = s >= 0;
	if (s >= 0)
		close(s);
	const char *names[] = { "aes-128-cbc", "sha256", "aes-128-gcm", "hmac-sha256" };
	const char *mods[] = { "algif_skcipher", "algif_hash", "algif_aead", "algif_hash" };
	for (int i = 0; i < 4; i++) {
		for (int splice = 0; splice < 2; splice++) {
			const struct crypto_alg *a = crypto_alg_find(names[i]);
			const struct crypto_kat *k;
			int n = crypto_kats_for(a->name, &k), passed = -1;
			struct pg_ctx ctx;
			memset(&ctx, 0, sizeof(ctx));
			int rc = crypto_kat_run(&ctx, &crypto_kernel, a, NULL, splice, k, n, &passed);
			if (!have) {
				assert_int_equal(rc, PG_SKIP);
				assert_non_null(strstr(ctx.msg, "the kernel has no AF_ALG: load af_alg and"));
				assert_non_null(strstr(ctx.msg, mods[i]));
			} else if (rc == PG_SKIP) {
				assert_non_null(strstr(ctx.msg, a->kernel));
			} else {
				if (rc != PG_OK)
					fail_msg("%s splice=%d: %s", a->name, splice, ctx.msg);
				assert_int_equal(passed, n);
			}
		}
	}
}

static void test_proc_crypto(void **state)
{
	(void)state;
	const char *text =
		"name         : cbc(aes)\n"
		"driver       : cbc(aes-generic)\n"
		"module       : kernel\n"
		"priority     : 100\n"
		"refcnt       : 1\n"
		"selftest     : passed\n"
		"internal     : no\n"
		"type         : skcipher\n"
		"\n"
		"name         : cbc(aes)\n"
		"driver       : cbc-aes-sa2ul\n"
		"module       : sa2ul\n"
		"priority     : 30000\n"
		"internal     : no\n"
		"type         : skcipher\n"
		"\n"
		"name         : cbc(aes)\n"
		"driver       : __cbc-aes-aesni\n"
		"module       : aesni_intel\n"
		"priority     : 40000\n"
		"internal     : yes\n"
		"type         : skcipher\n"
		"\n"
		"name         : sha256\n"
		"driver       : sha256-generic\n"
		"module       : kernel\n"
		"priority     : 100\n"
		"type         : shash\n";
	char out[160];
	assert_int_equal(crypto_proc_driver(text, "cbc(aes)", NULL, out, sizeof(out)), 0);
	assert_string_equal(out, "cbc-aes-sa2ul (module sa2ul, priority 30000)");
	assert_int_equal(crypto_proc_driver(text, "cbc(aes)", "cbc(aes-generic)", out, sizeof(out)), 0);
	assert_string_equal(out, "cbc(aes-generic) (module kernel, priority 100)");
	assert_int_equal(crypto_proc_driver(text, "sha256", NULL, out, sizeof(out)), 0);
	assert_string_equal(out, "sha256-generic (module kernel, priority 100)");
	assert_int_equal(crypto_proc_driver(text, "sha512", NULL, out, sizeof(out)), -1);
	assert_int_equal(crypto_proc_driver("", "sha512", NULL, out, sizeof(out)), -1);
}

/* A step counts bytes, buffers and CPU time; the labels are the seed's. */
static void test_step_and_labels(void **state)
{
	(void)state;
	const struct pg_bench *b = pg_registry_find("crypto.sha256");
	struct pg_args a = bench_args(b, "size=64", NULL);
	char label[64];
	b->label(b, &a, "throughput", label, sizeof(label));
	assert_string_equal(label, "sha256 64");
	b->label(b, &a, "cpu_load", label, sizeof(label));
	assert_string_equal(label, "sha256 64 CPU Load");
	b->label(b, &a, "bandwidth", label, sizeof(label));
	assert_string_equal(label, "");
	struct pg_args k = bench_args(b, "size=64", "backend=kernel", NULL);
	b->label(b, &k, "throughput", label, sizeof(label));
	assert_string_equal(label, "");
	const struct pg_bench *d = pg_registry_find("crypto.des3");
	struct pg_args dd = bench_args(d, "op=decrypt", NULL);
	d->label(d, &dd, "throughput", label, sizeof(label));
	assert_string_equal(label, "");

	struct pg_ctx ctx;
	memset(&ctx, 0, sizeof(ctx));
	ctx.bench = b;
	ctx.args = &a;
	ctx.copies = 1;
	int rc = b->setup(&ctx);
#ifdef PG_HAVE_CRYPTO
	assert_int_equal(rc, PG_OK);
	assert_non_null(strstr(ctx.note, "provider default"));
	assert_non_null(strstr(ctx.note, "known answers: 2 vectors passed"));
	assert_int_equal(b->prepare(&ctx, 1000), PG_OK);
	double c[PG_MAX_METRICS] = { 0 };
	assert_int_equal(b->step(&ctx, 1000, c), PG_OK);
	assert_true(c[0] == 64000.0 && c[1] == 64000.0);
	assert_true(c[3] == 1000.0);
	assert_true(c[2] >= 0 && c[4] >= 0 && c[5] >= 0);
	assert_true(c[4] == c[2] * 64);
#else
	assert_int_equal(rc, PG_SKIP);
#endif
	b->teardown(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_vectors_are_right),
		cmocka_unit_test(test_openssl_backend),
		cmocka_unit_test(test_mismatch_is_an_error),
		cmocka_unit_test(test_kernel_backend),
		cmocka_unit_test(test_proc_crypto),
		cmocka_unit_test(test_step_and_labels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
