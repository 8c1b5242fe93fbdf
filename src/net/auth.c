#include "net/auth.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "net/proto.h"
#include "pg_build.h"

#ifdef PG_HAVE_CRYPTO
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif

int pg_net_auth_available(char *err, size_t len)
{
#ifdef PG_HAVE_CRYPTO
	(void)err;
	(void)len;
	return 0;
#else
	snprintf(err, len, "built without libcrypto: --psk-file needs libssl-dev" PG_DEB_ARCH_SUFFIX " at build time");
	return -1;
#endif
}

int pg_net_load_key(const char *path, struct pg_net_key *k, int *loose, char *err, size_t len)
{
	if (pg_net_auth_available(err, len) < 0)
		return -1;
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, len, "cannot read key file %s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	*loose = fstat(fileno(f), &st) == 0 && (st.st_mode & 077);
	char line[PG_NET_MAX_KEYLEN + 2];
	int ok = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	size_t n = ok ? strcspn(line, "\r\n") : 0;
	if (ok && n == strlen(line) && n > PG_NET_MAX_KEYLEN) {
		snprintf(err, len, "key file %s: the key is longer than %d bytes", path, PG_NET_MAX_KEYLEN);
		return -1;
	}
	if (n == 0) {
		snprintf(err, len, "key file %s: the first line (the key) is empty", path);
		return -1;
	}
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
	       char out[PG_NET_MAC_HEX], char *err, size_t len)
{
#ifdef PG_HAVE_CRYPTO
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int mlen = 0;
	if (!HMAC(EVP_sha256(), k->key, (int)k->len, nonce, n, mac, &mlen) || mlen != 32) {
		snprintf(err, len, "HMAC-SHA256 failed");
		return -1;
	}
	pg_net_hex(mac, mlen, out);
	return 0;
#else
	(void)k;
	(void)nonce;
	(void)n;
	out[0] = '\0';
	return pg_net_auth_available(err, len);
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
