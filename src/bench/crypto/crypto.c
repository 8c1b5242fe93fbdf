/* SPDX-License-Identifier: MIT */
/*
 * The crypto group's table and the benchmark every algorithm shares.
 *
 * One operation is one buffer of `size` bytes, as `openssl speed` and the
 * ODP crypto speed test count: a cipher's update of that many bytes, or a
 * whole digest of them. Throughput counts input bytes, in 1000-byte units
 * (openssl speed's "1000s of bytes per second") and in MB/s. The process's
 * CPU time over the step, from getrusage, gives the CPU load as `time -v`
 * prints it and ODP's "rusg self" per operation; each thread's own CPU time
 * gives ODP's "rusg thrd". Elapsed minus CPU time is time spent waiting for
 * hardware (see docs/methodology-crypto.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "crypto.h"
#include "core/err.h"

const struct crypto_alg crypto_algs[] = {
	/* name, kind, OpenSSL, kernel, key, iv, block, out, seed */
	{ "aes-128-cbc", CK_CIPHER, "AES-128-CBC", "cbc(aes)", 16, 16, 16, 0, 1 },
	{ "aes-192-cbc", CK_CIPHER, "AES-192-CBC", "cbc(aes)", 24, 16, 16, 0, 1 },
	{ "aes-256-cbc", CK_CIPHER, "AES-256-CBC", "cbc(aes)", 32, 16, 16, 0, 1 },
	{ "aes-128-ecb", CK_CIPHER, "AES-128-ECB", "ecb(aes)", 16, 0, 16, 0, 1 },
	{ "aes-192-ecb", CK_CIPHER, "AES-192-ECB", "ecb(aes)", 24, 0, 16, 0, 1 },
	{ "aes-256-ecb", CK_CIPHER, "AES-256-ECB", "ecb(aes)", 32, 0, 16, 0, 1 },
	{ "des3", CK_CIPHER, "DES-EDE3-CBC", "cbc(des3_ede)", 24, 8, 8, 0, 1 },
	{ "sha1", CK_HASH, "SHA1", "sha1", 0, 0, 1, 20, 1 },
	{ "sha256", CK_HASH, "SHA256", "sha256", 0, 0, 1, 32, 1 },
	{ "sha512", CK_HASH, "SHA512", "sha512", 0, 0, 1, 64, 1 },
	{ "aes-128-gcm", CK_AEAD, "AES-128-GCM", "gcm(aes)", 16, 12, 1, 16, 0 },
	{ "aes-256-gcm", CK_AEAD, "AES-256-GCM", "gcm(aes)", 32, 12, 1, 16, 0 },
	{ "aes-128-ctr", CK_CIPHER, "AES-128-CTR", "ctr(aes)", 16, 16, 1, 0, 0 },
	{ "chacha20-poly1305", CK_AEAD, "ChaCha20-Poly1305", "rfc7539(chacha20,poly1305)",
	  32, 12, 1, 16, 0 },
	{ "hmac-sha256", CK_MAC, "SHA256", "hmac(sha256)", 32, 0, 1, 32, 0 },
	{ NULL, CK_CIPHER, NULL, NULL, 0, 0, 0, 0, 0 },
};

const struct crypto_alg *crypto_alg_find(const char *name)
{
	for (const struct crypto_alg *a = crypto_algs; a->name; a++)
		if (strcmp(a->name, name) == 0)
			return a;
	return NULL;
}

struct crypto_state {
	const struct crypto_backend *be;
	void *x;
	uint8_t *buf;
	size_t size;
};

static int use_kernel(const struct pg_args *a)
{
	return strcmp(pg_arg_str(a, "backend"), "kernel") == 0;
}

static int crypto_check(const struct pg_args *a, char *err, size_t errlen)
{
	const char *driver = pg_arg_str(a, "driver");
	if (!use_kernel(a) && (strcmp(pg_arg_str(a, "path"), "sendmsg") != 0 ||
			       strcmp(driver, "auto") != 0)) {
		return pg_err(err, errlen, "path and driver choose how the kernel does the work: "
			      "give them with backend=kernel");
	}
	if (strlen(driver) >= 64)
		return pg_err(err, errlen, "driver: a kernel driver name is under 64 characters");
	return 0;
}

static int block_check(const struct pg_args *a, unsigned block, const char *name, char *err, size_t errlen)
{
	int64_t size = pg_arg_int(a, "size");
	if (size % block != 0)
		return pg_err(err, errlen, "size: %s works on whole %u-byte blocks; give a multiple of %u",
			      name, block, block);
	return crypto_check(a, err, errlen);
}

/* The benchmark's key and IV: fixed, so runs are alike. */
static const uint8_t bench_key[CRYPTO_MAX_KEY] = {
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
};
static const uint8_t bench_iv[CRYPTO_MAX_IV] = {
	0x0f, 0x0e, 0x0d, 0x0c, 0x0b, 0x0a, 0x09, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0x00,
};

static int crypto_setup(struct pg_ctx *ctx)
{
	const struct crypto_alg *alg = ctx->bench->data;
	const struct pg_args *a = ctx->args;
	struct crypto_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->be = use_kernel(a) ? &crypto_kernel : &crypto_openssl;
	s->size = (size_t)pg_arg_int(a, "size");
	const char *driver = strcmp(pg_arg_str(a, "driver"), "auto") == 0 ? NULL : pg_arg_str(a, "driver");
	int splice = strcmp(pg_arg_str(a, "path"), "splice") == 0;
	const char *op = alg->kind == CK_HASH || alg->kind == CK_MAC ? "encrypt" : pg_arg_str(a, "op");
	int encrypt = strcmp(op, "encrypt") == 0;

	/* Known answers first: nothing is timed that computes wrongly. */
	const struct crypto_kat *kats;
	int nkat = crypto_kats_for(alg->name, &kats), passed = 0;
	int rc = crypto_kat_run(ctx, s->be, alg, driver, splice, kats, nkat, &passed);
	if (rc != PG_OK)
		return rc;

	struct crypto_op o = { .alg = alg, .encrypt = encrypt, .key = bench_key,
			       .key_len = alg->key_len, .iv = bench_iv, .driver = driver,
			       .splice = splice };
	if ((rc = s->be->open(ctx, &o, &s->x)) != PG_OK)
		return rc;
	/* Room for a tag behind the data; page-aligned for splice. */
	long page = sysconf(_SC_PAGESIZE);
	void *p = NULL;
	if (posix_memalign(&p, page > 0 ? (size_t)page : 4096, s->size + 64) != 0)
		return pg_error(ctx, "out of memory");
	s->buf = p;
	if ((rc = s->be->ready(ctx, s->x, s->buf, s->size)) != PG_OK)
		return rc;
	char who[200];
	s->be->describe(s->x, who, sizeof(who));
	pg_note(ctx, "%s%s; known answers: %d vector%s passed", who,
		use_kernel(a) ? (splice ? ", vmsplice/splice" : ", sendmsg") : "",
		passed, passed == 1 ? "" : "s");
	return PG_OK;
}

static int crypto_prepare(struct pg_ctx *ctx, uint64_t iters)
{
	struct crypto_state *s = ctx->priv;
	(void)iters;
	if (s->be->rewind && s->be->rewind(s->x) < 0)
		return pg_error(ctx, "%s: cannot reset the IV", s->be->name);
	return PG_OK;
}

static double cpu_seconds(int who)
{
	struct rusage ru;
	if (getrusage(who, &ru) < 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

enum { M_KBPS, M_MBPS, M_LOAD, M_ELAPSED, M_SELF, M_THREAD };

static int crypto_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct crypto_state *s = ctx->priv;
	char err[PG_MSG_LEN];
	/* The whole process's CPU time once (copy 0), each thread's its own. */
	double p0 = ctx->copy == 0 ? cpu_seconds(RUSAGE_SELF) : 0;
	double t0 = cpu_seconds(RUSAGE_THREAD);
	int rc = s->be->loop(s->x, s->buf, s->size, iters, err, sizeof(err));
	double t1 = cpu_seconds(RUSAGE_THREAD);
	double p1 = ctx->copy == 0 ? cpu_seconds(RUSAGE_SELF) : 0;
	if (rc < 0)
		return pg_error(ctx, "%s", err);
	double bytes = (double)s->size * (double)iters;
	counts[M_KBPS] = counts[M_MBPS] = bytes;
	counts[M_LOAD] = p1 - p0;
	counts[M_ELAPSED] = (double)iters;
	/* Per operation through the primary count (bytes): CPU seconds times
	 * the buffer size over bytes is CPU seconds per buffer. */
	counts[M_SELF] = (p1 - p0) * (double)s->size;
	counts[M_THREAD] = (t1 - t0) * (double)s->size;
	return PG_OK;
}

static void crypto_teardown(struct pg_ctx *ctx)
{
	struct crypto_state *s = ctx->priv;
	if (!s)
		return;
	if (s->be)
		s->be->close(s->x);
	free(s->buf);
	free(s);
}

/*
 * The seed's rows ("aes-128-cbc 16") are openssl speed's figures: the
 * openssl backend encrypting in one thread. Other runs have no seed row.
 */
static void crypto_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
			 char *buf, size_t len)
{
	const struct crypto_alg *alg = b->data;
	buf[0] = '\0';
	if (use_kernel(a) || pg_arg_int(a, "threads") != 1 ||
	    ((alg->kind == CK_CIPHER || alg->kind == CK_AEAD) && strcmp(pg_arg_str(a, "op"), "encrypt") != 0))
		return;
	long long size = (long long)pg_arg_int(a, "size");
	if (strcmp(metric, "throughput") == 0)
		snprintf(buf, len, "%s %lld", alg->name, size);
	else if (strcmp(metric, "cpu_load") == 0)
		snprintf(buf, len, "%s %lld CPU Load", alg->name, size);
}

#define SIZE_PARAM                                                                       \
	{ .name = "size", .type = PG_P_SIZE, .def = "16k", .min = 1, .max = 1 << 20,     \
	  .help = "bytes per buffer: one operation", .quick = "16,1k,16k",              \
	  .standard = "16,64,256,1k,8k,16k", .full = "16,64,256,1k,8k,16k", .mem_factor = 2 }
#define COMMON_PARAMS                                                                    \
	{ .name = "backend", .type = PG_P_STR, .def = "openssl", .choices = "openssl,kernel", \
	  .help = "openssl: libcrypto's EVP, as openssl speed -evp; kernel: AF_ALG",     \
	  .quick = "openssl,kernel", .standard = "openssl,kernel", .full = "openssl,kernel" }

static const struct pg_param cipher_params[] = {
	COMMON_PARAMS,
	{ .name = "op", .type = PG_P_STR, .def = "encrypt", .choices = "encrypt,decrypt",
	  .help = "encrypt or decrypt each buffer", .full = "encrypt,decrypt" },
	{ .name = "threads", .type = PG_P_INT, .def = "1", .min = 1, .max = 1024,
	  .help = "workers at once, each with its own context (openssl speed -multi); throughputs add up" },
	{ .name = "path", .type = PG_P_STR, .def = "sendmsg", .choices = "sendmsg,splice",
	  .help = "kernel: the data copied with sendmsg, or zero-copy with vmsplice and splice" },
	{ .name = "driver", .type = PG_P_STR, .def = "auto",
	  .help = "kernel: bind this driver (see /proc/crypto), e.g. cbc-aes-sa2ul; auto: the kernel's choice" },
	SIZE_PARAM,
	{ 0 },
};

static const struct pg_param hash_params[] = {
	COMMON_PARAMS,
	{ .name = "threads", .type = PG_P_INT, .def = "1", .min = 1, .max = 1024,
	  .help = "workers at once, each with its own context (openssl speed -multi); throughputs add up" },
	{ .name = "path", .type = PG_P_STR, .def = "sendmsg", .choices = "sendmsg,splice",
	  .help = "kernel: the data copied with sendmsg, or zero-copy with vmsplice and splice" },
	{ .name = "driver", .type = PG_P_STR, .def = "auto",
	  .help = "kernel: bind this driver (see /proc/crypto), e.g. sha256-ce; auto: the kernel's choice" },
	SIZE_PARAM,
	{ 0 },
};

static const struct pg_metric crypto_metrics[] = {
	[M_KBPS] = { "throughput", "KBytes/Sec", PG_RATE, 1e-3, 1, 0 },
	[M_MBPS] = { "bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	[M_LOAD] = { "cpu_load", "%", PG_RATE, 100, 0, 0 },
	[M_ELAPSED] = { "elapsed_per_op", "us", PG_TIME_PER, 1e6, 0, 0 },
	[M_SELF] = { "process_cpu_per_op", "us", PG_RATIO, 1e6, 0, 0 },
	[M_THREAD] = { "thread_cpu_per_op", "us", PG_RATIO, 1e6, 0, 0 },
	{ 0 },
};

static int check_aes(const struct pg_args *a, char *err, size_t errlen)
{
	return block_check(a, 16, "AES in ECB or CBC mode", err, errlen);
}

static int check_des(const struct pg_args *a, char *err, size_t errlen)
{
	return block_check(a, 8, "TDES in CBC mode", err, errlen);
}

/*
 * One line per algorithm; idx is its row in crypto_algs. The quick suite
 * keeps to seven of the seed's ten (the 192-bit keys and AES-256 in ECB sit
 * between rows it has); standard runs all ten and the newer five.
 */
#define BENCH(var, idx, id_, what, prm, chk, suite)                                     \
	const struct pg_bench pg_crypto_##var = {                                       \
		.id = "crypto." id_, .title = what, .params = prm,                      \
		.section = &pg_crypto_sec_crypto,                                       \
		.metrics = crypto_metrics, .copies_param = "threads",                  \
		.min_suite = suite, .data = &crypto_algs[idx], .check = chk,           \
		.setup = crypto_setup, .prepare = crypto_prepare, .step = crypto_step, \
		.teardown = crypto_teardown, .label = crypto_label,                    \
	}

BENCH(aes128cbc, 0, "aes-128-cbc", "AES-128-CBC (openssl speed -evp aes-128-cbc)", cipher_params, check_aes, PG_IN_ALL);
BENCH(aes192cbc, 1, "aes-192-cbc", "AES-192-CBC (openssl speed -evp aes-192-cbc)", cipher_params, check_aes, PG_IN_STANDARD);
BENCH(aes256cbc, 2, "aes-256-cbc", "AES-256-CBC (openssl speed -evp aes-256-cbc)", cipher_params, check_aes, PG_IN_ALL);
BENCH(aes128ecb, 3, "aes-128-ecb", "AES-128-ECB (openssl speed -evp aes-128-ecb)", cipher_params, check_aes, PG_IN_ALL);
BENCH(aes192ecb, 4, "aes-192-ecb", "AES-192-ECB (openssl speed -evp aes-192-ecb)", cipher_params, check_aes, PG_IN_STANDARD);
BENCH(aes256ecb, 5, "aes-256-ecb", "AES-256-ECB (openssl speed -evp aes-256-ecb)", cipher_params, check_aes, PG_IN_STANDARD);
BENCH(des3, 6, "des3", "Triple DES, DES-EDE3-CBC (openssl speed -evp des3)", cipher_params, check_des, PG_IN_ALL);
BENCH(sha1, 7, "sha1", "SHA-1 (openssl speed -evp sha1)", hash_params, crypto_check, PG_IN_ALL);
BENCH(sha256, 8, "sha256", "SHA-256 (openssl speed -evp sha256)", hash_params, crypto_check, PG_IN_ALL);
BENCH(sha512, 9, "sha512", "SHA-512 (openssl speed -evp sha512)", hash_params, crypto_check, PG_IN_ALL);
BENCH(aes128gcm, 10, "aes-128-gcm", "AES-128-GCM (openssl speed -evp aes-128-gcm)", cipher_params, crypto_check, PG_IN_STANDARD);
BENCH(aes256gcm, 11, "aes-256-gcm", "AES-256-GCM (openssl speed -evp aes-256-gcm)", cipher_params, crypto_check, PG_IN_STANDARD);
BENCH(aes128ctr, 12, "aes-128-ctr", "AES-128-CTR (openssl speed -evp aes-128-ctr)", cipher_params, crypto_check, PG_IN_STANDARD);
BENCH(chacha, 13, "chacha20-poly1305", "ChaCha20-Poly1305 (openssl speed -evp chacha20-poly1305)", cipher_params, crypto_check, PG_IN_STANDARD);
BENCH(hmacsha256, 14, "hmac-sha256", "HMAC-SHA-256 (openssl speed -hmac sha256)", hash_params, crypto_check, PG_IN_STANDARD);

/* The seed's OpenSSL table: algorithm x buffer size, the throughput in
 * KBytes/Sec and the CPU load; per-operation times and the MB/s figure
 * stay in the csv and json (report --all-metrics shows them). */
const struct pg_section pg_crypto_sec_crypto = {
	.title = "Crypto", .order = 120, .cpu_load = 1,
	.intro = "Cipher and digest throughput as openssl speed -evp counts it: input bytes, "
		 "KBytes/Sec in units of 1000 bytes. Through {backend}, {threads} thread(s) at once. "
		 "CPU (process) is perfguide's own CPU time over the time measured (what time -v "
		 "prints as Percent of CPU); CPU load (system) is the whole system's busy share.",
	/* the sizes in bytes, as the seed prints them: 1024, 16384 */
	.rows_by = "size", .rows_title = "Buffer Size (in bytes)", .rows_shown = "{#size}", .rows_bench = "Algorithm",
	.metrics = "throughput,cpu_load", .metric_titles = "cpu_load=CPU (process)",
	.plot_x = "size",
};

const struct pg_bench *const pg_group_crypto[] = {
	&pg_crypto_aes128cbc, &pg_crypto_aes192cbc, &pg_crypto_aes256cbc,
	&pg_crypto_aes128ecb, &pg_crypto_aes192ecb, &pg_crypto_aes256ecb,
	&pg_crypto_des3, &pg_crypto_sha1, &pg_crypto_sha256, &pg_crypto_sha512,
	&pg_crypto_aes128gcm, &pg_crypto_aes256gcm, &pg_crypto_aes128ctr,
	&pg_crypto_chacha, &pg_crypto_hmacsha256,
	NULL,
};
