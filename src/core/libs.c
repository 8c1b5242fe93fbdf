/* SPDX-License-Identifier: MIT */
/* The versions of the libraries built in (libs.h says why). */
#include <stdio.h>
#include <string.h>

#include "core/libs.h"
#include "pg_build.h"
#ifdef PG_HAVE_CRYPTO
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#endif
#ifdef PG_HAVE_STORE
#include <sqlite3.h>
#endif
#ifdef PG_HAVE_JANSSON
#include <jansson.h>
#endif
#ifdef PG_HAVE_LIBURING
#include <liburing.h>
#endif
#ifdef PG_HAVE_ALSA
#include <alsa/asoundlib.h>
#endif

#ifdef PG_HAVE_CRYPTO
/* "OpenSSL 3.0.17 1 Jul 2025" -> "3.0.17": OpenSSL's text, old and new. */
static void second_word(const char *text, char *out, size_t len)
{
	const char *s = strchr(text, ' ');
	s = s ? s + 1 : text;
	snprintf(out, len, "%.*s", (int)strcspn(s, " "), s);
}
#endif

#if defined(PG_HAVE_CRYPTO) || defined(PG_HAVE_STORE) || defined(PG_HAVE_JANSSON) || \
	defined(PG_HAVE_LIBURING) || defined(PG_HAVE_LIBAIO) || defined(PG_HAVE_ALSA)
static struct pg_lib *add(struct pg_lib *libs, int *n, const char *key, const char *name, const char *package)
{
	struct pg_lib *l = &libs[(*n)++];
	memset(l, 0, sizeof(*l));
	l->key = key;
	l->name = name;
	l->package = package;
	return l;
}
#endif

static void read_crypto_store(struct pg_lib *libs, int *n)
{
	(void)libs;
	(void)n;
#ifdef PG_HAVE_CRYPTO
	struct pg_lib *ssl = add(libs, n, "openssl", "OpenSSL", PG_PKG_CRYPTO);
	second_word(OPENSSL_VERSION_TEXT, ssl->built, sizeof(ssl->built));
	second_word(OpenSSL_version(OPENSSL_VERSION), ssl->running, sizeof(ssl->running));
#endif
#ifdef PG_HAVE_STORE
	struct pg_lib *sq = add(libs, n, "sqlite", "SQLite", PG_PKG_SQLITE3);
	snprintf(sq->built, sizeof(sq->built), "%s", SQLITE_VERSION);
	snprintf(sq->running, sizeof(sq->running), "%s", sqlite3_libversion());
#endif
#ifdef PG_HAVE_JANSSON
	struct pg_lib *js = add(libs, n, "jansson", "jansson", PG_PKG_JANSSON);
	snprintf(js->built, sizeof(js->built), "%s", JANSSON_VERSION);
#if JANSSON_VERSION_HEX >= 0x020d00
	snprintf(js->running, sizeof(js->running), "%s", jansson_version_str());
#endif
#endif
}

/* liburing states its version from 2.4 on (Debian 12 has 2.3); libaio never. */
static void read_io_sound(struct pg_lib *libs, int *n)
{
	(void)libs;
	(void)n;
#ifdef PG_HAVE_LIBURING
	struct pg_lib *ur = add(libs, n, "liburing", "liburing", PG_PKG_LIBURING);
#ifdef IO_URING_VERSION_MAJOR
	snprintf(ur->built, sizeof(ur->built), "%d.%d", IO_URING_VERSION_MAJOR, IO_URING_VERSION_MINOR);
	snprintf(ur->running, sizeof(ur->running), "%d.%d", io_uring_major_version(), io_uring_minor_version());
#else
	(void)ur;
#endif
#endif
#ifdef PG_HAVE_LIBAIO
	add(libs, n, "libaio", "libaio", PG_PKG_LIBAIO);
#endif
#ifdef PG_HAVE_ALSA
	struct pg_lib *al = add(libs, n, "alsa", "alsa-lib", PG_PKG_ALSA);
	snprintf(al->built, sizeof(al->built), "%s", SND_LIB_VERSION_STR);
	snprintf(al->running, sizeof(al->running), "%s", snd_asoundlib_version());
#endif
}

int pg_libs_read(struct pg_lib libs[PG_LIBS_MAX])
{
	int n = 0;
	read_crypto_store(libs, &n);
	read_io_sound(libs, &n);
	return n;
}

void pg_lib_describe(const struct pg_lib *l, char *buf, size_t len)
{
	const char *ver = l->running[0] ? l->running : l->built;
	int at = snprintf(buf, len, "%s", ver[0] ? ver : "(states no version)");
	if (at < 0 || (size_t)at >= len)
		return;
	if (l->running[0] && l->built[0] && strcmp(l->running, l->built) != 0)
		at += snprintf(buf + at, len - (size_t)at, " (built with %s)", l->built);
	else if (!l->running[0] && l->built[0])
		at += snprintf(buf + at, len - (size_t)at, " (its headers'; the library states none)");
	if (l->package[0] && at >= 0 && (size_t)at < len)
		snprintf(buf + at, len - (size_t)at, ", from %s", l->package);
}
