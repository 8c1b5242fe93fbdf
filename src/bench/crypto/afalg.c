/* SPDX-License-Identifier: MIT */
/*
 * The kernel backend: the Linux kernel crypto API through AF_ALG sockets,
 * the path by which user space reaches crypto accelerators (TI's SA2UL,
 * NXP's CAAM, ...). It needs no library: <linux/if_alg.h> and sockets.
 *
 * A transform socket is bound to the algorithm (or to one driver by its
 * name), keyed, and accepted into an operation socket. Every buffer is then
 * one request: the data goes in with send() (the kernel copies it) or, with
 * path=splice, with vmsplice() into a pipe and splice() into the socket (the
 * kernel maps the user pages: zero-copy), and the answer comes back with
 * read(). A cipher's direction and IV are given once with a control message;
 * the kernel carries the chaining IV from request to request, as EVP does.
 * A hash or HMAC is a whole digest per buffer; an AEAD a whole
 * encryption with its tag (or a decryption that checks it) per buffer.
 *
 * The driver that served is read from /proc/crypto after binding, when the
 * kernel has instantiated it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/if_alg.h>

#include "crypto.h"
#include "core/err.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

struct kalg {
	const struct crypto_alg *alg;
	int encrypt, splice;
	int tfm, op;		/* transform and operation sockets */
	int pipe[2];
	uint8_t iv[CRYPTO_MAX_IV];
	uint8_t *in, *out;	/* AEAD decryption: ciphertext and tag; splice/AEAD output */
	size_t in_len, out_len;
	char driver[160];
};

static const char *alg_type(const struct crypto_alg *a)
{
	switch (a->kind) {
	case CK_CIPHER: return "skcipher";
	case CK_AEAD: return "aead";
	case CK_HASH:
	case CK_MAC: break;
	}
	return "hash";
}

/* The module and kernel option that give AF_ALG this type. */
static const char *type_module(const struct crypto_alg *a)
{
	switch (a->kind) {
	case CK_CIPHER: return "algif_skcipher (CONFIG_CRYPTO_USER_API_SKCIPHER)";
	case CK_AEAD: return "algif_aead (CONFIG_CRYPTO_USER_API_AEAD)";
	case CK_HASH:
	case CK_MAC: break;
	}
	return "algif_hash (CONFIG_CRYPTO_USER_API_HASH)";
}

static void kalg_close(void *x)
{
	struct kalg *s = x;
	if (!s)
		return;
	if (s->op >= 0)
		close(s->op);
	if (s->tfm >= 0)
		close(s->tfm);
	if (s->pipe[0] >= 0)
		close(s->pipe[0]);
	if (s->pipe[1] >= 0)
		close(s->pipe[1]);
	free(s->in);
	free(s->out);
	free(s);
}

/* One field of a /proc/crypto entry ("name : value"), or NULL. */
static const char *field(const char *entry, const char *end, const char *key, char *val, size_t len)
{
	size_t kl = strlen(key);
	for (const char *p = entry; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		if ((size_t)(le - p) > kl && strncmp(p, key, kl) == 0 && (p[kl] == ' ' || p[kl] == ':')) {
			const char *c = memchr(p, ':', (size_t)(le - p));
			if (c) {
				c++;
				while (c < le && *c == ' ')
					c++;
				size_t n = (size_t)(le - c);
				if (n >= len)
					n = len - 1;
				memcpy(val, c, n);
				val[n] = '\0';
				return val;
			}
		}
		p = le + 1;
	}
	return NULL;
}

int crypto_proc_driver(const char *text, const char *name, const char *driver, char *out, size_t len)
{
	long best = -1;
	const char *p = text;
	while (*p) {
		const char *end = strstr(p, "\n\n");
		end = end ? end + 1 : p + strlen(p);
		char n[128], d[128], pri[32], mod[64], internal[16];
		if (field(p, end, "name", n, sizeof(n)) && field(p, end, "driver", d, sizeof(d)) &&
		    field(p, end, "priority", pri, sizeof(pri))) {
			int is_internal = field(p, end, "internal", internal, sizeof(internal)) &&
					  strcmp(internal, "yes") == 0;
			long prio = strtol(pri, NULL, 10);
			int match = driver ? strcmp(d, driver) == 0 : strcmp(n, name) == 0 && !is_internal;
			if (match && prio > best) {
				best = prio;
				if (!field(p, end, "module", mod, sizeof(mod)))
					snprintf(mod, sizeof(mod), "?");
				snprintf(out, len, "%s (module %s, priority %ld)", d, mod, prio);
			}
		}
		p = end;
		while (*p == '\n')
			p++;
	}
	return best >= 0 ? 0 : -1;
}

static void served_by(struct kalg *s, const char *driver)
{
	snprintf(s->driver, sizeof(s->driver), "driver unknown (no /proc/crypto)");
	FILE *f = fopen("/proc/crypto", "r");
	if (!f)
		return;
	size_t cap = 1 << 16, n = 0;
	char *text = malloc(cap);
	while (text) {
		size_t r = fread(text + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
		if (n + 1 == cap) {
			char *t = realloc(text, cap * 2);
			if (!t)
				break;
			text = t;
			cap *= 2;
		}
	}
	fclose(f);
	if (!text)
		return;
	text[n] = '\0';
	if (crypto_proc_driver(text, s->alg->kernel, driver, s->driver, sizeof(s->driver)) < 0)
		snprintf(s->driver, sizeof(s->driver), "driver of %s not in /proc/crypto",
			 driver ? driver : s->alg->kernel);
	free(text);
}

/* Sends the direction, IV and associated-data length; MSG_MORE when the
 * data follows in another call. */
static int send_control(struct kalg *s, int encrypt, const uint8_t *iv, size_t aad_len,
			const void *data, size_t len, int flags)
{
	union {
		char buf[CMSG_SPACE(sizeof(uint32_t)) * 2 +
			 CMSG_SPACE(sizeof(struct af_alg_iv) + CRYPTO_MAX_IV)];
		struct cmsghdr align;
	} u;
	memset(&u, 0, sizeof(u));
	struct iovec iov = { (void *)data, len };
	struct msghdr msg = { .msg_control = u.buf, .msg_iov = &iov, .msg_iovlen = len ? 1 : 0 };
	unsigned ivl = s->alg->iv_len;
	msg.msg_controllen = CMSG_SPACE(sizeof(uint32_t)) +
			     (ivl ? CMSG_SPACE(sizeof(struct af_alg_iv) + ivl) : 0) +
			     (s->alg->kind == CK_AEAD ? CMSG_SPACE(sizeof(uint32_t)) : 0);

	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	uint32_t v = encrypt ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	memcpy(CMSG_DATA(c), &v, sizeof(v));
	if (ivl) {
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_IV;
		c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + ivl);
		struct af_alg_iv *ai = (struct af_alg_iv *)(void *)CMSG_DATA(c);
		ai->ivlen = ivl;
		memcpy(ai->iv, iv, ivl);
	}
	if (s->alg->kind == CK_AEAD) {
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
		c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
		v = (uint32_t)aad_len;
		memcpy(CMSG_DATA(c), &v, sizeof(v));
	}
	return sendmsg(s->op, &msg, flags) == (ssize_t)len ? 0 : -1;
}

/* Puts len bytes of buf into the operation socket by the chosen path. With
 * splice, MORE tells the kernel that data beyond what the pipe holds follows. */
static int afalg_put(struct kalg *s, const uint8_t *buf, size_t len)
{
	if (!s->splice)
		return send(s->op, buf, len, 0) == (ssize_t)len ? 0 : -1;
	size_t done = 0;
	while (done < len) {
		struct iovec iov = { (void *)(buf + done), len - done };
		ssize_t n = vmsplice(s->pipe[1], &iov, 1, SPLICE_F_GIFT);
		if (n <= 0)
			return -1;
		size_t inpipe = (size_t)n;
		while (inpipe) {
			ssize_t m = splice(s->pipe[0], NULL, s->op, NULL, inpipe,
					   done + inpipe < len ? SPLICE_F_MORE : 0);
			if (m <= 0)
				return -1;
			inpipe -= (size_t)m;
			done += (size_t)m;
		}
	}
	return 0;
}

static int get(struct kalg *s, uint8_t *buf, size_t len)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = read(s->op, buf + got, len - got);
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

static int kalg_open(struct pg_ctx *ctx, const struct crypto_op *op, void **xp)
{
	const struct crypto_alg *alg = op->alg;
	struct kalg *s = calloc(1, sizeof(*s));
	*xp = s;
	if (!s)
		return pg_error(ctx, "out of memory");
	s->alg = alg;
	s->encrypt = op->encrypt;
	s->splice = op->splice;
	s->tfm = s->op = s->pipe[0] = s->pipe[1] = -1;
	if (alg->iv_len)
		memcpy(s->iv, op->iv, alg->iv_len);

	s->tfm = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s->tfm < 0) {
		if (errno == EAFNOSUPPORT)
			return pg_skip(ctx, "the kernel has no AF_ALG: load af_alg and %s", type_module(alg));
		return pg_skip(ctx, "cannot open an AF_ALG socket: %s", strerror(errno));
	}
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "%s", alg_type(alg));
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s", op->driver ? op->driver : alg->kernel);
	if (bind(s->tfm, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = errno;
		if (e == ENOENT && op->driver)
			return pg_skip(ctx, "the kernel has no driver %s for %s (see /proc/crypto; "
				       "AF_ALG's %s needs %s)", op->driver, alg->kernel, alg_type(alg),
				       type_module(alg));
		if (e == ENOENT)
			return pg_skip(ctx, "the kernel has no %s %s for AF_ALG: load %s and the "
				       "module that provides %s", alg_type(alg), alg->kernel,
				       type_module(alg), alg->kernel);
		return pg_skip(ctx, "the kernel refused AF_ALG %s %s: %s", alg_type(alg),
			       op->driver ? op->driver : alg->kernel, strerror(e));
	}
	if (op->key_len && setsockopt(s->tfm, SOL_ALG, ALG_SET_KEY, op->key, (socklen_t)op->key_len) < 0)
		return pg_error(ctx, "kernel %s refused a %zu-byte key: %s", alg->kernel, op->key_len,
				strerror(errno));
	if (alg->kind == CK_AEAD &&
	    setsockopt(s->tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, (socklen_t)alg->out_len) < 0)
		return pg_error(ctx, "kernel %s refused a %u-byte tag: %s", alg->kernel, alg->out_len,
				strerror(errno));
	s->op = accept4(s->tfm, NULL, NULL, SOCK_CLOEXEC);
	if (s->op < 0)
		return pg_error(ctx, "AF_ALG accept for %s: %s", alg->kernel, strerror(errno));
	if (s->splice && pipe2(s->pipe, O_CLOEXEC) < 0)
		return pg_error(ctx, "pipe: %s", strerror(errno));
	served_by(s, op->driver);
	return PG_OK;
}

static int io_error(struct pg_ctx *ctx, struct kalg *s, const char *what)
{
	return pg_error(ctx, "kernel %s (%s): %s: %s", s->alg->kernel, s->driver, what, strerror(errno));
}

/* A page-aligned buffer, so that splice maps whole pages. */
static uint8_t *page_buf(size_t len)
{
	void *p = NULL;
	long page = sysconf(_SC_PAGESIZE);
	if (posix_memalign(&p, page > 0 ? (size_t)page : 4096, len ? len : 1) != 0)
		return NULL;
	memset(p, 0, len ? len : 1);
	return p;
}

static int kalg_once(struct pg_ctx *ctx, void *x, int encrypt, const uint8_t *iv,
		     const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
		     uint8_t *out, uint8_t *tag)
{
	struct kalg *s = x;
	const struct crypto_alg *alg = s->alg;
	size_t tl = alg->kind == CK_AEAD ? alg->out_len : 0;
	/* What goes in: aad || in (|| tag when decrypting); what comes out:
	 * aad || out (|| tag when encrypting). */
	size_t in_len = aad_len + len + (encrypt ? 0 : tl);
	size_t out_len = alg->kind == CK_HASH || alg->kind == CK_MAC ? alg->out_len
				: aad_len + len + (encrypt ? tl : 0);
	uint8_t *ib = page_buf(in_len), *ob = page_buf(out_len);
	int rc = PG_OK;
	if (!ib || !ob) {
		rc = pg_error(ctx, "out of memory");
		goto out;
	}
	if (aad_len)
		memcpy(ib, aad, aad_len);
	memcpy(ib + aad_len, in, len);
	if (!encrypt && tl)
		memcpy(ib + aad_len + len, tag, tl);

	int sent;
	if (alg->kind == CK_HASH || alg->kind == CK_MAC)
		sent = afalg_put(s, ib, in_len);
	else if (s->splice)
		sent = send_control(s, encrypt, iv, aad_len, NULL, 0, MSG_MORE) < 0 ? -1 : afalg_put(s, ib, in_len);
	else
		sent = send_control(s, encrypt, iv, aad_len, ib, in_len, 0);
	if (sent < 0) {
		rc = io_error(ctx, s, "sending a known-answer vector");
		goto out;
	}
	if (get(s, ob, out_len) < 0) {
		if (errno == EBADMSG)
			rc = pg_error(ctx, "kernel %s (%s): the tag does not verify", alg->kernel, s->driver);
		else
			rc = io_error(ctx, s, "reading a known-answer result");
		goto out;
	}
	if (alg->kind == CK_HASH || alg->kind == CK_MAC) {
		memcpy(out, ob, out_len);
	} else {
		memcpy(out, ob + aad_len, len);
		if (encrypt && tl)
			memcpy(tag, ob + aad_len + len, tl);
	}
out:
	free(ib);
	free(ob);
	return rc;
}

static int kalg_ready(struct pg_ctx *ctx, void *x, uint8_t *buf, size_t len)
{
	struct kalg *s = x;
	const struct crypto_alg *alg = s->alg;
	memset(buf, 0, len);
	if (alg->kind == CK_HASH || alg->kind == CK_MAC)
		return PG_OK;
	size_t tl = alg->kind == CK_AEAD ? alg->out_len : 0;
	s->out_len = len + (s->encrypt ? tl : 0);
	if (s->splice || alg->kind == CK_AEAD) {
		if (!(s->out = page_buf(s->out_len)))
			return pg_error(ctx, "out of memory");
	}
	if (alg->kind == CK_AEAD && !s->encrypt) {
		/* Each decryption checks its tag: decrypt a real ciphertext. */
		s->in_len = len + tl;
		if (!(s->in = page_buf(s->in_len)))
			return pg_error(ctx, "out of memory");
		uint8_t t[CRYPTO_MAX_OUT];
		if (kalg_once(ctx, s, 1, s->iv, NULL, 0, buf, len, s->in, t) != PG_OK)
			return PG_ERROR;
		memcpy(s->in + len, t, tl);
	}
	/* Direction and IV once, for every request that follows. */
	if (send_control(s, s->encrypt, s->iv, 0, NULL, 0, MSG_MORE) < 0)
		return io_error(ctx, s, "setting up the operation");
	return PG_OK;
}

/* The timed loop: per buffer, one request in and its answer out. */
static int kalg_loop(void *x, uint8_t *buf, size_t len, uint64_t iters, char *err, size_t errlen)
{
	struct kalg *s = x;
	const struct crypto_alg *alg = s->alg;
	uint8_t md[CRYPTO_MAX_OUT];
	const char *what = "send";

	if (alg->kind == CK_HASH || alg->kind == CK_MAC) {
		for (uint64_t i = 0; i < iters; i++) {
			if (afalg_put(s, buf, len) < 0)
				goto fail;
			if (read(s->op, md, alg->out_len) != (ssize_t)alg->out_len) {
				what = "read";
				goto fail;
			}
		}
		return 0;
	}
	const uint8_t *in = s->in ? s->in : buf;
	size_t in_len = s->in ? s->in_len : len;
	uint8_t *out = s->out ? s->out : buf;
	for (uint64_t i = 0; i < iters; i++) {
		if (afalg_put(s, in, in_len) < 0)
			goto fail;
		if (get(s, out, s->out_len) < 0) {
			what = "read";
			goto fail;
		}
	}
	return 0;
fail:
	return pg_err(err, errlen, "kernel %s (%s): %s of a %zu-byte buffer failed: %s", alg->kernel,
		      s->driver, what, len, strerror(errno));
}

static void kalg_describe(void *x, char *buf, size_t len)
{
	struct kalg *s = x;
	snprintf(buf, len, "%s", s->driver);
}

const struct crypto_backend crypto_kernel = {
	.name = "kernel", .open = kalg_open, .once = kalg_once, .ready = kalg_ready,
	.loop = kalg_loop, .describe = kalg_describe, .close = kalg_close,
};
