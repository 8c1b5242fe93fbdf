/* SPDX-License-Identifier: MIT */
#include "net/auth.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "net/proto.h"
#include "pg_build.h"
#include "core/err.h"

#ifdef PG_HAVE_CRYPTO
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif

int pg_net_auth_available(char *err, size_t errlen)
{
#ifdef PG_HAVE_CRYPTO
	(void)err;
	(void)errlen;
	return 0;
#else
	return pg_err(err, errlen, "built without libcrypto: --psk-file needs libssl-dev" PG_DEB_ARCH_SUFFIX " at build time");
#endif
}

int pg_net_load_key(const char *path, struct pg_net_key *k, int *loose, char *err, size_t errlen)
{
	if (pg_net_auth_available(err, errlen) < 0)
		return -1;
	FILE *f = fopen(path, "r");
	if (!f)
		return pg_err(err, errlen, "cannot read key file %s: %s", path, strerror(errno));
	struct stat st;
	*loose = fstat(fileno(f), &st) == 0 && (st.st_mode & 077);
	char line[PG_NET_MAX_KEYLEN + 2];
	int ok = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	size_t n = ok ? strcspn(line, "\r\n") : 0;
	if (ok && n == strlen(line) && n > PG_NET_MAX_KEYLEN)
		return pg_err(err, errlen, "key file %s: the key is longer than %d bytes", path, PG_NET_MAX_KEYLEN);
	if (n == 0)
		return pg_err(err, errlen, "key file %s: the first line (the key) is empty", path);
	memcpy(k->key, line, n);
	k->len = n;
	memset(line, 0, sizeof(line));
	return 0;
}

int pg_net_nonce(uint8_t *nonce)
{
	size_t off = 0;
	while (off < PG_NET_NONCE) {
		ssize_t n = getrandom(nonce + off, PG_NET_NONCE - off, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		off += (size_t)n;
	}
	return 0;
}

int pg_net_mac(const struct pg_net_key *k, const uint8_t *nonce, size_t n,
	       char out[PG_NET_MAC_HEX], char *err, size_t errlen)
{
#ifdef PG_HAVE_CRYPTO
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int mlen = 0;
	if (!HMAC(EVP_sha256(), k->key, (int)k->len, nonce, n, mac, &mlen) || mlen != 32)
		return pg_err(err, errlen, "HMAC-SHA256 failed");
	pg_net_hex(mac, mlen, out);
	return 0;
#else
	(void)k;
	(void)nonce;
	(void)n;
	out[0] = '\0';
	return pg_net_auth_available(err, errlen);
#endif
}

int pg_net_mac_ok(const struct pg_net_key *k, const uint8_t *nonce, size_t n, const char *hex)
{
#ifdef PG_HAVE_CRYPTO
	char want[PG_NET_MAC_HEX], e[80];
	if (pg_net_mac(k, nonce, n, want, e, sizeof(e)) < 0 || strlen(hex) != PG_NET_MAC_HEX - 1)
		return 0;
	return CRYPTO_memcmp(want, hex, PG_NET_MAC_HEX - 1) == 0;
#else
	(void)k;
	(void)nonce;
	(void)n;
	(void)hex;
	return 0;
#endif
}
