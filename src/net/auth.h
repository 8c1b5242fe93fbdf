/* SPDX-License-Identifier: MIT */
/*
 * The pre-shared key: the peer's WELCOME carries a random nonce and the
 * client answers with HMAC-SHA256(key, nonce bytes) in hex. Needs libcrypto;
 * without it every function here fails with a line saying so.
 */
#ifndef PG_NET_AUTH_H
#define PG_NET_AUTH_H

#include <stddef.h>
#include <stdint.h>

#define PG_NET_NONCE 32
#define PG_NET_MAX_KEYLEN 1024
#define PG_NET_MAC_HEX 65	/* 64 hex digits and a NUL */

struct pg_net_key {
	size_t len;
	unsigned char key[PG_NET_MAX_KEYLEN];
};

/* Reads the key file's first line (its newline stripped). *loose is set when
 * others than the owner may read the file. 0, or -1 with err set. */
int pg_net_load_key(const char *path, struct pg_net_key *k, int *loose, char *err, size_t errlen);

/* PG_NET_NONCE random bytes (getrandom). 0 or -1. */
int pg_net_nonce(uint8_t *nonce);

/* hex of HMAC-SHA256(key, nonce) into out. 0, or -1 with err set. */
int pg_net_mac(const struct pg_net_key *k, const uint8_t *nonce, size_t n,
	       char out[PG_NET_MAC_HEX], char *err, size_t errlen);

/* 1 when hex is the right answer (compared in constant time), else 0. */
int pg_net_mac_ok(const struct pg_net_key *k, const uint8_t *nonce, size_t n, const char *hex);

/* 0 when built with libcrypto, else -1 with the reason in err. */
int pg_net_auth_available(char *err, size_t errlen);

#endif
