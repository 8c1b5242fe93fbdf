/* SPDX-License-Identifier: MIT */
#include "net/proto.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/timer.h"
#include "core/err.h"

static const char *const names[] = {
	[PG_NET_HELLO] = "HELLO", [PG_NET_WELCOME] = "WELCOME", [PG_NET_AUTH] = "AUTH",
	[PG_NET_AUTH_OK] = "AUTH_OK", [PG_NET_START] = "START", [PG_NET_READY] = "READY",
	[PG_NET_STOP] = "STOP", [PG_NET_REPORT] = "REPORT", [PG_NET_BUSY] = "BUSY",
	[PG_NET_ERROR] = "ERROR", [PG_NET_BYE] = "BYE",
};

const char *pg_net_msg_name(int type)
{
	if (type >= PG_NET_HELLO && type <= PG_NET_BYE)
		return names[type];
	return "unknown";
}

int pg_net_check_header(const uint8_t *buf, size_t n, size_t *bodylen, char *err, size_t errlen)
{
	if (n < 4)
		return 1;
	uint32_t flen = (uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 |
			(uint32_t)buf[2] << 8 | buf[3];
	if (flen > PG_NET_MAX_FRAME)
		return pg_err(err, errlen, "frame of %" PRIu32 " bytes (at most %d)", flen, PG_NET_MAX_FRAME);
	if (flen < 2)
		return pg_err(err, errlen, "frame of %" PRIu32 " bytes (at least 2)", flen);
	if (n < 5)
		return 1;
	if (buf[4] != PG_NET_VERSION)
		return pg_err(err, errlen, "protocol version %u (this side speaks %d)", buf[4], PG_NET_VERSION);
	if (n < 6)
		return 1;
	if (buf[5] < PG_NET_HELLO || buf[5] > PG_NET_BYE)
		return pg_err(err, errlen, "unknown message type %u", buf[5]);
	*bodylen = flen - 2;
	return 0;
}

static int key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

int pg_net_parse_body(struct pg_net_frame *f, int type, const uint8_t *body, size_t bodylen,
		      char *err, size_t errlen)
{
	f->type = type;
	f->nkeys = 0;
	if (bodylen >= sizeof(f->body))
		return pg_err(err, errlen, "body of %zu bytes", bodylen);
	memcpy(f->body, body, bodylen);
	f->body[bodylen] = '\0';
	if (bodylen && f->body[bodylen - 1] != '\n')
		return pg_err(err, errlen, "body does not end with a newline");
	char *p = f->body, *end = f->body + bodylen;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));	/* found: body ends with '\n' */
		char *eq = memchr(p, '=', (size_t)(nl - p));
		if (!eq || eq == p || eq - p > PG_NET_MAX_KEY)
			return pg_err(err, errlen, "line %d is not key=value", f->nkeys + 1);
		for (char *c = p; c < eq; c++)
			if (!key_char(*c))
				return pg_err(err, errlen, "line %d: key is not [a-z0-9_]", f->nkeys + 1);
		for (char *c = eq + 1; c < nl; c++)
			if (*c < 0x20 || *c > 0x7e)
				return pg_err(err, errlen, "line %d: value is not printable ASCII", f->nkeys + 1);
		if (f->nkeys == PG_NET_MAX_KEYS)
			return pg_err(err, errlen, "more than %d lines", PG_NET_MAX_KEYS);
		*eq = '\0';
		*nl = '\0';
		for (int i = 0; i < f->nkeys; i++)
			if (strcmp(f->key[i], p) == 0)
				return pg_err(err, errlen, "key '%s' given twice", p);
		f->key[f->nkeys] = p;
		f->val[f->nkeys] = eq + 1;
		f->nkeys++;
		p = nl + 1;
	}
	return 0;
}

int pg_net_decode(const uint8_t *buf, size_t n, struct pg_net_frame *f, size_t *used,
		  char *err, size_t errlen)
{
	size_t bodylen = 0;
	int r = pg_net_check_header(buf, n, &bodylen, err, errlen);
	if (r)
		return r < 0 ? -1 : 0;
	if (n - PG_NET_HDR < bodylen)
		return 0;
	if (pg_net_parse_body(f, buf[5], buf + PG_NET_HDR, bodylen, err, errlen) < 0)
		return -1;
	*used = PG_NET_HDR + bodylen;
	return 1;
}

void pg_net_out_begin(struct pg_net_out *o, int type)
{
	o->overflow = 0;
	o->buf[4] = PG_NET_VERSION;
	o->buf[5] = (uint8_t)type;
	o->len = PG_NET_HDR;
}

void pg_net_out_add(struct pg_net_out *o, const char *key, const char *fmt, ...)
{
	char val[PG_NET_MAX_FRAME];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	size_t klen = strlen(key);
	if (n < 0 || (size_t)n >= sizeof(val) || klen == 0 || klen > PG_NET_MAX_KEY) {
		o->overflow = 1;
		return;
	}
	for (size_t i = 0; i < klen; i++)
		if (!key_char(key[i]))
			o->overflow = 1;
	for (int i = 0; i < n; i++)
		if (val[i] < 0x20 || val[i] > 0x7e)
			o->overflow = 1;
	size_t need = klen + 1 + (size_t)n + 1;
	if (o->overflow || o->len + need > sizeof(o->buf)) {
		o->overflow = 1;
		return;
	}
	char *p = (char *)o->buf + o->len;
	memcpy(p, key, klen);
	p[klen] = '=';
	memcpy(p + klen + 1, val, (size_t)n);
	p[klen + 1 + (size_t)n] = '\n';
	o->len += need;
}

int pg_net_out_end(struct pg_net_out *o)
{
	if (o->overflow)
		return -1;
	uint32_t flen = (uint32_t)(o->len - 4);
	o->buf[0] = (uint8_t)(flen >> 24);
	o->buf[1] = (uint8_t)(flen >> 16);
	o->buf[2] = (uint8_t)(flen >> 8);
	o->buf[3] = (uint8_t)flen;
	return 0;
}

const char *pg_net_get(const struct pg_net_frame *f, const char *key)
{
	for (int i = 0; i < f->nkeys; i++)
		if (strcmp(f->key[i], key) == 0)
			return f->val[i];
	return NULL;
}

int pg_net_get_u64(const struct pg_net_frame *f, const char *key, uint64_t def, uint64_t min,
		   uint64_t max, uint64_t *v, char *err, size_t errlen)
{
	const char *s = pg_net_get(f, key);
	if (!s) {
		*v = def;
		return 1;
	}
	if (*s < '0' || *s > '9' || strlen(s) > 20)
		return pg_err(err, errlen, "%s=%.32s is not a whole number", key, s);
	errno = 0;
	char *end;
	unsigned long long x = strtoull(s, &end, 10);
	if (*end || errno)
		return pg_err(err, errlen, "%s=%.32s is not a whole number", key, s);
	if (x < min || x > max)
		return pg_err(err, errlen, "%s=%llu is out of range %" PRIu64 "..%" PRIu64, key, x, min, max);
	*v = x;
	return 0;
}

int pg_net_get_double(const struct pg_net_frame *f, const char *key, double def, double min,
		      double max, double *v, char *err, size_t errlen)
{
	const char *s = pg_net_get(f, key);
	if (!s) {
		*v = def;
		return 1;
	}
	errno = 0;
	char *end;
	double x = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(x))
		return pg_err(err, errlen, "%s=%.32s is not a number", key, s);
	if (x < min || x > max)
		return pg_err(err, errlen, "%s=%g is out of range %g..%g", key, x, min, max);
	*v = x;
	return 0;
}

/* Milliseconds left until deadline, for poll(). */
static int ms_left(double deadline)
{
	double left = deadline - pg_now();
	if (left <= 0)
		return 0;
	return left > 1e6 ? 1000000000 : (int)(left * 1000.0) + 1;
}

int pg_net_send(int fd, const struct pg_net_out *o, double timeout_s, char *err, size_t errlen)
{
	size_t off = 0;
	while (off < o->len) {
		ssize_t n = send(fd, o->buf + off, o->len - off, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return pg_err(err, errlen, "sending %s: %s", pg_net_msg_name(o->buf[5]), strerror(errno));
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		int r = poll(&p, 1, (int)(timeout_s * 1000.0) + 1);
		if (r == 0)
			return pg_err(err, errlen, "sending %s: timed out", pg_net_msg_name(o->buf[5]));
	}
	return 0;
}

/* Reads exactly n bytes by deadline. 0, or -1 with err set. */
static int read_by(int fd, uint8_t *buf, size_t n, double deadline, const char *what,
		   char *err, size_t errlen)
{
	size_t off = 0;
	while (off < n) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, ms_left(deadline));
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			return pg_err(err, errlen, "timed out waiting for %s", what);
		ssize_t got = recv(fd, buf + off, n - off, MSG_DONTWAIT);
		if (got == 0)
			return pg_err(err, errlen, "connection closed%s%s", off ? " in the middle of " : "",
				      off ? what : "");
		if (got < 0) {
			if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
				continue;
			return pg_err(err, errlen, "connection lost: %s", strerror(errno));
		}
		off += (size_t)got;
	}
	return 0;
}

/* The first byte by first_by, the rest within read_s of it, all by all_by. */
static int recv_frame(int fd, struct pg_net_frame *f, double first_by, double read_s, double all_by,
		      int *bad, char *err, size_t errlen)
{
	uint8_t hdr[PG_NET_HDR];
	uint8_t body[PG_NET_MAX_FRAME];
	size_t bodylen = 0;
	*bad = 0;
	/* The idle wait covers the first byte only; the rest of the frame
	 * must follow within read_s, so half a frame cannot hold a thread. */
	if (read_by(fd, hdr, 1, first_by, "a message", err, errlen) < 0)
		return -1;
	double deadline = pg_now() + read_s;
	if (deadline > all_by)
		deadline = all_by;
	if (read_by(fd, hdr + 1, PG_NET_HDR - 1, deadline, "the rest of a message", err, errlen) < 0)
		return -1;
	if (pg_net_check_header(hdr, PG_NET_HDR, &bodylen, err, errlen) != 0) {
		*bad = 1;
		return -1;
	}
	if (read_by(fd, body, bodylen, deadline, "the rest of a message", err, errlen) < 0)
		return -1;
	if (pg_net_parse_body(f, hdr[5], body, bodylen, err, errlen) < 0) {
		*bad = 1;
		return -1;
	}
	return 0;
}

int pg_net_recv(int fd, struct pg_net_frame *f, double idle_s, double read_s, int *bad,
		char *err, size_t errlen)
{
	return recv_frame(fd, f, pg_now() + idle_s, read_s, INFINITY, bad, err, errlen);
}

int pg_net_recv_by(int fd, struct pg_net_frame *f, double deadline, double read_s, int *bad,
		   char *err, size_t errlen)
{
	return recv_frame(fd, f, deadline, read_s, deadline, bad, err, errlen);
}

void pg_net_hex(const uint8_t *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}
