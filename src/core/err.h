/* SPDX-License-Identifier: MIT */
/*
 * How library code says why it failed: into the caller's buffer (err,
 * errlen bytes), never on stderr, and -1 returned. The command line prints
 * the message; a library function only writes it.
 */
#ifndef PG_ERR_H
#define PG_ERR_H

#include <stddef.h>

/* Formats the message into err (cut to errlen bytes; nothing when errlen
 * is 0) and returns -1, so that a failure is one line:
 *	return pg_err(err, errlen, "no such file: %s", path); */
int pg_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
