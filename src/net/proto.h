/* SPDX-License-Identifier: MIT */
/*
 * The control protocol's frames (the wire format is described in peer.h):
 * encoding, decoding with every limit checked before a byte of the body is
 * trusted, and typed access to the "key=value" lines. Shared by the client
 * and `perfguide serve`; the fuzz target drives pg_net_decode.
 */
#ifndef PG_NET_PROTO_H
#define PG_NET_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "net/peer.h"

#define PG_NET_HDR 6		/* u32 length, u8 version, u8 type */
#define PG_NET_MAX_KEYS 32
#define PG_NET_MAX_KEY 31	/* [a-z0-9_], 1..31 characters */

/* A decoded frame; key[i] and val[i] point into body. */
struct pg_net_frame {
	int type;
	int nkeys;
	const char *key[PG_NET_MAX_KEYS];
	const char *val[PG_NET_MAX_KEYS];
	char body[PG_NET_MAX_FRAME];
};

/* A frame being built: begin, add lines, then send buf[0..len). */
struct pg_net_out {
	size_t len;
	int overflow;
	uint8_t buf[4 + PG_NET_MAX_FRAME];
};

const char *pg_net_msg_name(int type);

/* Checks the first n (< PG_NET_HDR is fine) header bytes: the length as soon
 * as its 4 bytes are there, then version and type. Returns 0 and sets
 * *bodylen once the header is complete and valid, 1 when more is needed, -1
 * with err set when the frame must be refused. */
int pg_net_check_header(const uint8_t *buf, size_t n, size_t *bodylen, char *err, size_t errlen);

/* Parses the body (bodylen bytes) into f->body and its lines. 0 or -1. */
int pg_net_parse_body(struct pg_net_frame *f, int type, const uint8_t *body, size_t bodylen,
		      char *err, size_t errlen);

/* Decodes one frame from the start of buf. Returns 1 with *used set when a
 * whole frame was there, 0 when more bytes are needed, -1 with err set when
 * the bytes can never be a valid frame. */
int pg_net_decode(const uint8_t *buf, size_t n, struct pg_net_frame *f, size_t *used,
		  char *err, size_t errlen);

void pg_net_out_begin(struct pg_net_out *o, int type);
/* Adds "key=value\n"; a value that would make the frame too long or that is
 * not printable marks the frame as overflowed (pg_net_out_end fails). */
void pg_net_out_add(struct pg_net_out *o, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Writes the length; 0, or -1 when the frame is invalid. */
int pg_net_out_end(struct pg_net_out *o);

/* The value of key, or NULL. */
const char *pg_net_get(const struct pg_net_frame *f, const char *key);
/* Typed values with range checks: 0 when set, 1 when absent (*v = def), -1
 * with err set when malformed or out of [min, max]. */
int pg_net_get_u64(const struct pg_net_frame *f, const char *key, uint64_t def, uint64_t min,
		   uint64_t max, uint64_t *v, char *err, size_t errlen);
int pg_net_get_double(const struct pg_net_frame *f, const char *key, double def, double min,
		      double max, double *v, char *err, size_t errlen);

/* Socket I/O. pg_net_send writes the whole frame (MSG_NOSIGNAL), giving up
 * after timeout_s without progress. pg_net_recv waits up to idle_s for a
 * frame to begin and read_s for the rest of it; returns 0, or -1 with err set
 * (timeout, connection closed, malformed frame: *bad set for the last). */
int pg_net_send(int fd, const struct pg_net_out *o, double timeout_s, char *err, size_t errlen);
int pg_net_recv(int fd, struct pg_net_frame *f, double idle_s, double read_s, int *bad,
		char *err, size_t errlen);
/* The same with one deadline (absolute, pg_now()) for the whole frame, which
 * must also follow its first byte within read_s: the peer's pre-session
 * time, which no pace of sending can stretch. */
int pg_net_recv_by(int fd, struct pg_net_frame *f, double deadline, double read_s, int *bad,
		   char *err, size_t errlen);

/* Hex of n bytes into out (2n + 1 bytes). */
void pg_net_hex(const uint8_t *in, size_t n, char *out);

#endif
