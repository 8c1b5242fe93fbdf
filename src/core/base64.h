/* SPDX-License-Identifier: MIT */
/*
 * Base64 (RFC 4648), for carrying a results file through a text channel
 * that must not be able to read it as anything else: a LAVA job's console
 * log (run --lava writes it, import --from-lava-log reads it back), where
 * a raw results file could hold lines LAVA would take as its own signals.
 */
#ifndef PG_BASE64_H
#define PG_BASE64_H

#include <stddef.h>
#include <stdio.h>

/* Writes in's bytes as base64 lines of 76 characters; returns the bytes
 * read, or -1 on a read or write error. */
long pg_base64_encode_file(FILE *in, FILE *out);

struct pg_base64_decoder {
	unsigned bits;		/* pending bits, nbits of them */
	int nbits;
	int ended;		/* '=' seen: nothing may follow */
	int bad;		/* a character outside the alphabet */
};

/* Decodes len characters of s into out (at most len * 3 / 4 + 3 bytes);
 * white space is skipped. Returns the bytes written; d->bad is set when
 * s held anything else. */
size_t pg_base64_decode(struct pg_base64_decoder *d, const char *s, size_t len, unsigned char *out);

#endif
