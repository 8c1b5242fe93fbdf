/* SPDX-License-Identifier: MIT */
/*
 * The libraries built into this binary and their versions: what its headers
 * said at build time, what the library says now (the same in a static
 * binary; a dynamic one runs the machine's copy) and, where the build took
 * it from a Debian package, that package and its version (which carries
 * the distribution's security patches the upstream version does not show).
 * `perfguide info` prints them and every results file records them, so a
 * board's binary can be checked against a security advisory.
 */
#ifndef PG_CORE_LIBS_H
#define PG_CORE_LIBS_H

#include <stddef.h>

struct pg_lib {
	const char *key;	/* "openssl": the JSON key */
	const char *name;	/* "OpenSSL" */
	char built[48];		/* "3.0.17", "" when the headers state none */
	char running[48];	/* "3.0.17", "" when the library states none */
	const char *package;	/* "libssl-dev:arm64 3.0.17-1~deb12u2", or "" */
};

#define PG_LIBS_MAX 8

/* Fills libs[] with the libraries this binary has; returns how many. */
int pg_libs_read(struct pg_lib libs[PG_LIBS_MAX]);
/* "3.0.17 (built with 3.0.16; libssl-dev 3.0.16-1~deb12u1)" */
void pg_lib_describe(const struct pg_lib *l, char *buf, size_t len);

#endif
