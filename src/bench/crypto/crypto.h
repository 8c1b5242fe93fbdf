/* SPDX-License-Identifier: MIT */
/*
 * The crypto group: `openssl speed -evp ALG` and the ODP crypto speed test
 * in one harness, through two backends: libcrypto's EVP interface and the
 * kernel crypto API (AF_ALG sockets, the path to hardware accelerators).
 */
#ifndef PG_BENCH_CRYPTO_H
#define PG_BENCH_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#include "core/bench.h"

enum crypto_kind {
	CK_CIPHER,	/* block or stream cipher: in -> out, same length */
	CK_AEAD,	/* cipher with a tag: in -> out and tag */
	CK_HASH,	/* a digest of each buffer */
	CK_MAC,		/* a keyed digest of each buffer */
};

#define CRYPTO_MAX_KEY 64
#define CRYPTO_MAX_IV 16
#define CRYPTO_MAX_OUT 64	/* digest or tag */

struct crypto_alg {
	const char *name;	/* "aes-128-cbc": the id's tail, the seed's row */
	enum crypto_kind kind;
	const char *evp;	/* OpenSSL's name; a MAC's digest */
	const char *kernel;	/* the kernel's algorithm name: "cbc(aes)" */
	unsigned key_len, iv_len;
	unsigned block;		/* buffer sizes are a multiple of this */
	unsigned out_len;	/* digest or tag bytes */
	int seed;		/* a row of the TI guide (the quick suite runs most) */
};

/* What one transform does. */
struct crypto_op {
	const struct crypto_alg *alg;
	int encrypt;
	const uint8_t *key;	/* alg->key_len bytes (a MAC's: key_len) */
	size_t key_len;
	const uint8_t *iv;	/* alg->iv_len bytes */
	const char *driver;	/* kernel: bind this implementation; NULL: the kernel's choice */
	int splice;		/* kernel: vmsplice/splice the data instead of copying it */
};

/*
 * A backend. Errors and skips go to ctx->msg through pg_error / pg_skip; the
 * functions return PG_OK, PG_SKIP or PG_ERROR.
 */
struct crypto_backend {
	const char *name;
	int (*open)(struct pg_ctx *ctx, const struct crypto_op *op, void **x);
	/*
	 * One whole message, for the known-answer tests, from the transform's
	 * key and the given iv: a cipher turns in into out; an AEAD also takes
	 * aad, and writes the tag when encrypting or checks it when decrypting
	 * (a tag that does not verify is PG_ERROR); a hash or MAC writes the
	 * digest of in to out.
	 */
	int (*once)(struct pg_ctx *ctx, void *x, int encrypt, const uint8_t *iv,
		    const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
		    uint8_t *out, uint8_t *tag);
	/* Untimed, once before the timed loops over buffers of len bytes. */
	int (*ready)(struct pg_ctx *ctx, void *x, uint8_t *buf, size_t len);
	/* Untimed, before every timed loop: puts the IV back. May be NULL. */
	int (*rewind)(void *x);
	/* The timed part: iters buffers of len bytes, one call each, as the
	 * reference tool does. Returns 0, or -1 with why in err. */
	int (*loop)(void *x, uint8_t *buf, size_t len, uint64_t iters, char *err, size_t errlen);
	/* Who served it: the provider or the kernel driver, for the note. */
	void (*describe)(void *x, char *buf, size_t len);
	void (*close)(void *x);
};

extern const struct crypto_backend crypto_openssl, crypto_kernel;

/* A published test vector; hex strings, NULL for what it does not have. */
struct crypto_kat {
	const char *alg;
	const char *source;	/* "NIST SP 800-38A F.2.1" */
	const char *key, *iv, *aad, *in, *out, *tag;
};

extern const struct crypto_kat crypto_kats[];

/* Bytes of hex string s into out (at most max); -1 when s is not hex. */
int crypto_unhex(const char *s, uint8_t *out, size_t max);

/*
 * Runs every vector in kats[0..n) for alg through the backend, in both
 * directions for ciphers; driver and splice as the timed transform will
 * use them. PG_OK, the backend's skip, or PG_ERROR naming the backend,
 * algorithm, implementation and vector. *passed counts the vectors.
 */
int crypto_kat_run(struct pg_ctx *ctx, const struct crypto_backend *be,
		   const struct crypto_alg *alg, const char *driver, int splice,
		   const struct crypto_kat *kats, int n, int *passed);

/* The number of vectors for alg in crypto_kats, and the first one. */
int crypto_kats_for(const char *alg, const struct crypto_kat **first);

const struct crypto_alg *crypto_alg_find(const char *name);
extern const struct crypto_alg crypto_algs[];

/*
 * /proc/crypto as text: the driver that serves `name` (the entry with the
 * highest priority, not internal), or the entry whose driver is `driver`
 * when given. Writes "driver (module M, priority P)" to out; -1: none.
 */
int crypto_proc_driver(const char *text, const char *name, const char *driver,
		       char *out, size_t len);

extern const struct pg_bench pg_crypto_aes128cbc, pg_crypto_aes192cbc, pg_crypto_aes256cbc,
	pg_crypto_aes128ecb, pg_crypto_aes192ecb, pg_crypto_aes256ecb, pg_crypto_des3,
	pg_crypto_sha1, pg_crypto_sha256, pg_crypto_sha512, pg_crypto_aes128gcm,
	pg_crypto_aes256gcm, pg_crypto_aes128ctr, pg_crypto_chacha, pg_crypto_hmacsha256;

extern const struct pg_section pg_crypto_sec_crypto;

#endif
