/* SPDX-License-Identifier: MIT */
/*
 * The openssl backend: libcrypto's EVP interface, used the way
 * `openssl speed -evp ALG` (OpenSSL 3) uses it, so the two agree:
 *
 * - a cipher's context is set up once, padding off, and every buffer is one
 *   EVP_EncryptUpdate (or DecryptUpdate) in place, the chaining carried on
 *   from buffer to buffer; ChaCha20-Poly1305 likewise;
 * - GCM is a whole message per buffer, as speed does for its AE modes
 *   (OpenSSL 3.0.19 and later): IV length, key and IV set, one update,
 *   final (decryption: the tag set first and checked by final);
 * - a digest is one EVP_Digest per buffer (a whole hash: init, update,
 *   final) with the algorithm fetched once;
 * - HMAC is EVP_MAC_init, update and final per buffer (speed -hmac).
 *
 * Algorithms are fetched from the default library context, so whatever
 * provider the system's OpenSSL configuration selects is what is measured;
 * the result names it.
 */
#include <stdlib.h>
#include <string.h>

#include "pg_build.h"
#include "crypto.h"
#include "core/err.h"

#ifdef PG_HAVE_CRYPTO
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#endif

#if defined(PG_HAVE_CRYPTO) && OPENSSL_VERSION_NUMBER >= 0x30000000L
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/provider.h>

struct ossl {
	const struct crypto_alg *alg;
	int encrypt;
	uint8_t key[CRYPTO_MAX_KEY], iv[CRYPTO_MAX_IV];
	size_t key_len;
	EVP_CIPHER *cipher;
	EVP_CIPHER_CTX *c;
	EVP_MD *md;
	EVP_MAC *mac;
	EVP_MAC_CTX *mc;
	const OSSL_PROVIDER *prov;
	int whole;		/* an AE mode: a whole message per buffer */
	uint8_t tag[CRYPTO_MAX_OUT];
	uint8_t *ct, *pt;	/* whole-message decryption: its input and output */
};

static void ossl_close(void *x)
{
	struct ossl *s = x;
	if (!s)
		return;
	EVP_CIPHER_CTX_free(s->c);
	EVP_CIPHER_free(s->cipher);
	EVP_MD_free(s->md);
	EVP_MAC_CTX_free(s->mc);
	EVP_MAC_free(s->mac);
	free(s->ct);
	free(s->pt);
	free(s);
}

static int missing(struct pg_ctx *ctx, const char *what)
{
	return pg_skip(ctx, "%s has no %s (is it disabled in the OpenSSL configuration?)",
		       OpenSSL_version(OPENSSL_VERSION), what);
}

static int ossl_open(struct pg_ctx *ctx, const struct crypto_op *op, void **xp)
{
	const struct crypto_alg *alg = op->alg;
	struct ossl *s = calloc(1, sizeof(*s));
	*xp = s;
	if (!s || op->key_len > sizeof(s->key))
		return pg_error(ctx, "out of memory");
	s->alg = alg;
	s->encrypt = op->encrypt;
	memcpy(s->key, op->key, op->key_len);
	s->key_len = op->key_len;
	if (alg->iv_len)
		memcpy(s->iv, op->iv, alg->iv_len);

	switch (alg->kind) {
	case CK_CIPHER:
	case CK_AEAD:
		if (!(s->cipher = EVP_CIPHER_fetch(NULL, alg->evp, NULL)))
			return missing(ctx, alg->evp);
		if (!(s->c = EVP_CIPHER_CTX_new()) ||
		    EVP_CipherInit_ex(s->c, s->cipher, NULL, s->key, alg->iv_len ? s->iv : NULL,
				      op->encrypt) != 1)
			return pg_error(ctx, "openssl: cannot set up %s", alg->evp);
		EVP_CIPHER_CTX_set_padding(s->c, 0);
		s->prov = EVP_CIPHER_get0_provider(s->cipher);
		switch (EVP_CIPHER_get_mode(s->cipher)) {
		case EVP_CIPH_GCM_MODE:
		case EVP_CIPH_CCM_MODE:
		case EVP_CIPH_OCB_MODE:
			s->whole = 1;
			break;
		}
		break;
	case CK_HASH:
		if (!(s->md = EVP_MD_fetch(NULL, alg->evp, NULL)))
			return missing(ctx, alg->evp);
		s->prov = EVP_MD_get0_provider(s->md);
		break;
	case CK_MAC: {
		if (!(s->mac = EVP_MAC_fetch(NULL, "HMAC", NULL)))
			return missing(ctx, "HMAC");
		OSSL_PARAM params[] = {
			OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)alg->evp, 0),
			OSSL_PARAM_construct_end(),
		};
		if (!(s->mc = EVP_MAC_CTX_new(s->mac)) ||
		    EVP_MAC_init(s->mc, s->key, s->key_len, params) != 1)
			return pg_error(ctx, "openssl: cannot set up HMAC with %s", alg->evp);
		s->prov = EVP_MAC_get0_provider(s->mac);
		break;
	}
	}
	return PG_OK;
}

static int ossl_once(struct pg_ctx *ctx, void *x, int encrypt, const uint8_t *iv,
		     const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
		     uint8_t *out, uint8_t *tag)
{
	struct ossl *s = x;
	const struct crypto_alg *alg = s->alg;
	int outl = 0, fl = 0;
	size_t ml = 0;

	switch (alg->kind) {
	case CK_HASH:
		if (EVP_Digest(in, len, out, NULL, s->md, NULL) != 1)
			return pg_error(ctx, "openssl: %s failed", alg->evp);
		return PG_OK;
	case CK_MAC:
		if (EVP_MAC_init(s->mc, NULL, 0, NULL) != 1 || EVP_MAC_update(s->mc, in, len) != 1 ||
		    EVP_MAC_final(s->mc, out, &ml, CRYPTO_MAX_OUT) != 1)
			return pg_error(ctx, "openssl: HMAC-%s failed", alg->evp);
		return PG_OK;
	case CK_CIPHER:
	case CK_AEAD:
		break;
	}
	/* The key again: a direction change needs the other key schedule. */
	if (EVP_CipherInit_ex(s->c, NULL, NULL, s->key, alg->iv_len ? iv : NULL, encrypt) != 1)
		return pg_error(ctx, "openssl: cannot set up %s", alg->evp);
	if (aad_len && EVP_CipherUpdate(s->c, NULL, &outl, aad, (int)aad_len) != 1)
		return pg_error(ctx, "openssl: %s refused the additional data", alg->evp);
	if (EVP_CipherUpdate(s->c, out, &outl, in, (int)len) != 1)
		return pg_error(ctx, "openssl: %s failed", alg->evp);
	if (alg->kind == CK_AEAD && !encrypt &&
	    EVP_CIPHER_CTX_ctrl(s->c, EVP_CTRL_AEAD_SET_TAG, (int)alg->out_len, tag) != 1)
		return pg_error(ctx, "openssl: %s refused the tag", alg->evp);
	if (EVP_CipherFinal_ex(s->c, out + outl, &fl) != 1)
		return pg_error(ctx, "openssl: %s %s failed%s", alg->evp, encrypt ? "encryption" : "decryption",
				alg->kind == CK_AEAD && !encrypt ? ": the tag does not verify" : "");
	if (alg->kind == CK_AEAD && encrypt &&
	    EVP_CIPHER_CTX_ctrl(s->c, EVP_CTRL_AEAD_GET_TAG, (int)alg->out_len, tag) != 1)
		return pg_error(ctx, "openssl: %s gave no tag", alg->evp);
	/* Back to the timed direction. */
	if (EVP_CipherInit_ex(s->c, NULL, NULL, s->key, alg->iv_len ? s->iv : NULL, s->encrypt) != 1)
		return pg_error(ctx, "openssl: cannot set up %s", alg->evp);
	return PG_OK;
}

static int ossl_ready(struct pg_ctx *ctx, void *x, uint8_t *buf, size_t len)
{
	struct ossl *s = x;
	/* openssl speed's buffers are zeros. */
	memset(buf, 0, len);
	if (!s->whole || s->encrypt)
		return PG_OK;
	/* Each decryption checks its tag: decrypt a real ciphertext. */
	if (!(s->ct = malloc(len + 64)) || !(s->pt = malloc(len + 64)))
		return pg_error(ctx, "out of memory");
	return ossl_once(ctx, s, 1, s->iv, NULL, 0, buf, len, s->ct, s->tag);
}

static int ossl_rewind(void *x)
{
	struct ossl *s = x;
	/* A long run must not exhaust GCM's or CTR's counter for one IV. */
	if (s->c && EVP_CipherInit_ex(s->c, NULL, NULL, NULL, s->alg->iv_len ? s->iv : NULL, -1) != 1)
		return -1;
	return 0;
}

/* The timed loops: one library call per buffer and nothing else. */
static int ossl_loop(void *x, uint8_t *buf, size_t len, uint64_t iters, char *err, size_t errlen)
{
	struct ossl *s = x;
	int n = (int)len, outl;
	unsigned char md[EVP_MAX_MD_SIZE];
	size_t ml;

	int ivl = (int)s->alg->iv_len, tl = (int)s->alg->out_len;

	switch (s->alg->kind) {
	case CK_CIPHER:
	case CK_AEAD:
		if (s->whole && s->encrypt) {
			for (uint64_t i = 0; i < iters; i++)
				if (EVP_CIPHER_CTX_ctrl(s->c, EVP_CTRL_AEAD_SET_IVLEN, ivl, NULL) != 1 ||
				    EVP_CipherInit_ex(s->c, NULL, NULL, s->key, s->iv, -1) != 1 ||
				    EVP_EncryptUpdate(s->c, buf, &outl, buf, n) != 1 ||
				    EVP_EncryptFinal_ex(s->c, buf + outl, &outl) != 1)
					goto fail;
		} else if (s->whole) {
			for (uint64_t i = 0; i < iters; i++)
				if (EVP_CIPHER_CTX_ctrl(s->c, EVP_CTRL_AEAD_SET_IVLEN, ivl, NULL) != 1 ||
				    EVP_CipherInit_ex(s->c, NULL, NULL, s->key, s->iv, -1) != 1 ||
				    EVP_CIPHER_CTX_ctrl(s->c, EVP_CTRL_AEAD_SET_TAG, tl, s->tag) != 1 ||
				    EVP_DecryptUpdate(s->c, s->pt, &outl, s->ct, n) != 1 ||
				    EVP_DecryptFinal_ex(s->c, s->pt + outl, &outl) != 1)
					goto fail;
		} else if (s->encrypt) {
			for (uint64_t i = 0; i < iters; i++)
				if (EVP_EncryptUpdate(s->c, buf, &outl, buf, n) != 1)
					goto fail;
		} else {
			for (uint64_t i = 0; i < iters; i++)
				if (EVP_DecryptUpdate(s->c, buf, &outl, buf, n) != 1)
					goto fail;
		}
		break;
	case CK_HASH:
		for (uint64_t i = 0; i < iters; i++)
			if (EVP_Digest(buf, len, md, NULL, s->md, NULL) != 1)
				goto fail;
		break;
	case CK_MAC:
		for (uint64_t i = 0; i < iters; i++)
			if (EVP_MAC_init(s->mc, NULL, 0, NULL) != 1 || EVP_MAC_update(s->mc, buf, len) != 1 ||
			    EVP_MAC_final(s->mc, md, &ml, sizeof(md)) != 1)
				goto fail;
		break;
	}
	return 0;
fail:
	return pg_err(err, errlen, "openssl: %s failed on a %zu-byte buffer", s->alg->evp, len);
}

static void ossl_describe(void *x, char *buf, size_t len)
{
	struct ossl *s = x;
	snprintf(buf, len, "provider %s (%s)", s->prov ? OSSL_PROVIDER_get0_name(s->prov) : "unknown",
		 OpenSSL_version(OPENSSL_VERSION));
}

const struct crypto_backend crypto_openssl = {
	.name = "openssl", .open = ossl_open, .once = ossl_once, .ready = ossl_ready,
	.rewind = ossl_rewind, .loop = ossl_loop, .describe = ossl_describe, .close = ossl_close,
};

#else /* no libcrypto, or one older than 3.0 */

#include <stdio.h>

static int none_open(struct pg_ctx *ctx, const struct crypto_op *op, void **xp)
{
	(void)op;
	*xp = NULL;
#ifdef PG_HAVE_CRYPTO
	return pg_skip(ctx, "built with %s: the openssl backend needs OpenSSL 3.0 or later",
		       OPENSSL_VERSION_TEXT);
#else
	return pg_skip(ctx, "built without libcrypto: install libssl-dev" PG_DEB_ARCH_SUFFIX " and rebuild");
#endif
}

static void none_describe(void *x, char *buf, size_t len)
{
	(void)x;
	snprintf(buf, len, "no libcrypto");
}

static void none_close(void *x)
{
	(void)x;
}

const struct crypto_backend crypto_openssl = {
	.name = "openssl", .open = none_open, .describe = none_describe, .close = none_close,
};

#endif
