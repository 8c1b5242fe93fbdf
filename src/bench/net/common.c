/* SPDX-License-Identifier: MIT */
/* The network group's shared parts: the peer session, data sockets,
 * latency percentiles. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net.h"
#include "core/err.h"

#define OPEN_TIMEOUT_S 5.0

int net_open(struct pg_ctx *ctx, struct net_session *s)
{
	const char *peer = pg_arg_str(ctx->args, "peer");
	char err[PG_MSG_LEN - 32], addr[64];
	memset(s, 0, sizeof(*s));
	if (strcmp(peer, "local") == 0) {
		if (pg_peer_spawn_local(addr, sizeof(addr), &s->local_pid, err, sizeof(err)) < 0)
			return pg_error(ctx, "could not start a peer on loopback: %s", err);
	} else {
		snprintf(addr, sizeof(addr), "%s", peer);
	}
	snprintf(s->where, sizeof(s->where), "%s", addr);
	const char *psk = pg_arg_str(ctx->args, "psk_file");
	if (strcmp(psk, "none") == 0)
		psk = NULL;
	/* A peer that cannot be reached is an error, also one named with
	 * --peer: a CI gating on the exit status must not pass a run that
	 * measured nothing because the lab's peer was down. */
	if (pg_peer_open(addr, psk, OPEN_TIMEOUT_S, &s->peer, err, sizeof(err)) < 0) {
		int local = s->local_pid > 0;
		net_close(s);
		if (local)
			return pg_error(ctx, "the peer started on loopback: %s", err);
		return pg_error(ctx, "%s", err);
	}
	return PG_OK;
}

void net_close(struct net_session *s)
{
	pg_peer_close(s->peer);
	s->peer = NULL;
	if (s->local_pid > 0)
		pg_peer_stop_local(s->local_pid);
	s->local_pid = 0;
}

int net_start(struct pg_ctx *ctx, struct net_session *s, const struct pg_net_test *t)
{
	char err[PG_MSG_LEN - 32];
	int port = 0;
	if (pg_peer_start(s->peer, t, &port, err, sizeof(err)) < 0)
		return pg_error(ctx, "%s", err);
	s->started = 1;
	socklen_t len = 0;
	const struct sockaddr *sa = pg_peer_addr(s->peer, &len);
	if (!sa || len > sizeof(s->data))
		return pg_error(ctx, "peer %s: no address for the data sockets", s->where);
	memcpy(&s->data, sa, len);
	s->data_len = len;
	if (s->data.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&s->data)->sin6_port = htons((uint16_t)port);
	else
		((struct sockaddr_in *)&s->data)->sin_port = htons((uint16_t)port);
	return PG_OK;
}

int net_stop(struct pg_ctx *ctx, struct net_session *s, struct pg_net_report *r)
{
	char err[PG_MSG_LEN - 32];
	memset(r, 0, sizeof(*r));
	s->started = 0;
	if (pg_peer_stop(s->peer, r, err, sizeof(err)) < 0)
		return pg_error(ctx, "%s", err);
	if (r->have_busy)
		ctx->remote_busy_pct = r->busy_pct;
	/* A peer that others reach caps what it sends (serve --max-rate); a
	 * result near its cap may be the cap, not the link. */
	double cap = pg_peer_max_rate(s->peer);
	if (cap > 0 && r->seconds > 0 && (double)r->bytes_tx * 8e-6 / r->seconds >= 0.9 * cap)
		pg_note(ctx, "the peer sends at most %g Mbit/s (its --max-rate): this may be that "
			"cap, not the link", cap);
	return PG_OK;
}

static int set_window(int fd, uint64_t window)
{
	if (!window)
		return 0;
	int w = window > (1u << 30) ? 1 << 30 : (int)window;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof(w)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof(w)) < 0)
		return -1;
	return 0;
}

int net_tcp_data(struct pg_ctx *ctx, struct net_session *s, char role,
		 uint64_t window, const char *cc, int *out)
{
	int rc = PG_ERROR;
	*out = -1;
	int fd = socket(s->data.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return pg_error(ctx, "socket: %s", strerror(errno));
	/* Buffers and congestion control are chosen before the handshake,
	 * when the window scale is agreed. */
	if (set_window(fd, window) < 0) {
		pg_error(ctx, "window %llu: %s", (unsigned long long)window, strerror(errno));
		goto fail;
	}
	if (cc && cc[0] && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, (socklen_t)strlen(cc)) < 0) {
		if (errno == ENOENT)
			rc = pg_skip(ctx, "congestion control '%s' is not available here "
				     "(see /proc/sys/net/ipv4/tcp_available_congestion_control)", cc);
		else
			pg_error(ctx, "congestion control '%s': %s", cc, strerror(errno));
		goto fail;
	}
	if (connect(fd, (struct sockaddr *)&s->data, s->data_len) < 0) {
		pg_error(ctx, "peer %s: data connection: %s", s->where, strerror(errno));
		goto fail;
	}
	int one = 1;
	if (role == PG_NET_ROLE_ECHO)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (send(fd, &role, 1, MSG_NOSIGNAL) != 1) {
		pg_error(ctx, "peer %s: data connection: %s", s->where, strerror(errno));
		goto fail;
	}
	*out = fd;
	return PG_OK;
fail:
	close(fd);
	return rc;
}

int net_udp_data(struct pg_ctx *ctx, struct net_session *s, uint64_t window)
{
	int fd = socket(s->data.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		pg_error(ctx, "socket: %s", strerror(errno));
		return -1;
	}
	if (set_window(fd, window) < 0) {
		pg_error(ctx, "window %llu: %s", (unsigned long long)window, strerror(errno));
		close(fd);
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&s->data, s->data_len) < 0) {
		pg_error(ctx, "peer %s: udp data socket: %s", s->where, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

void net_test_init(struct pg_net_test *t, enum pg_net_kind_id kind, const struct pg_args *a)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->kind, sizeof(t->kind), "%s", pg_net_kinds[kind].name);
	t->time = (double)pg_arg_int(a, "time");
	t->msg = (uint64_t)pg_arg_int(a, "msg");
	t->window = (uint64_t)pg_arg_int(a, "window");
	t->size = (uint64_t)pg_arg_int(a, "size");
	int64_t streams = pg_arg_int(a, "streams");
	t->streams = streams > 0 ? (int)streams : 1;
	snprintf(t->cc, sizeof(t->cc), "%s", net_cc(a));
}

void net_udp_test_init(struct pg_net_test *t, enum pg_net_kind_id kind, int64_t size,
		       uint64_t window, double time)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->kind, sizeof(t->kind), "%s", pg_net_kinds[kind].name);
	t->time = time;
	t->size = (uint64_t)size;
	t->msg = (uint64_t)size;
	t->window = window;
	t->streams = 1;
}

int net_abandon(struct pg_ctx *ctx, struct net_session *s)
{
	struct pg_net_report r;
	char m[PG_MSG_LEN];
	memcpy(m, ctx->msg, sizeof(m));
	net_stop(ctx, s, &r);
	memcpy(ctx->msg, m, sizeof(m));
	return PG_ERROR;
}

int net_udp_dir_check(const struct pg_args *a, char *err, size_t errlen)
{
	if (NET_DIR_IN(a) && pg_arg_int(a, "size") < 8)
		return pg_err(err, errlen, "size: dir=in needs at least 8 bytes per datagram (its sequence number)");
	return 0;
}

const char *net_cc(const struct pg_args *a)
{
	const char *cc = pg_arg_str(a, "cc");
	return strcmp(cc, "default") == 0 ? "" : cc;
}

int net_frame_size(int64_t payload)
{
	return (int)payload + NET_FRAME_OVERHEAD;
}

int net_lat_add(struct net_lat *l, double seconds)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 65536;
		uint32_t *v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	double ns = seconds * 1e9;
	l->sorted = 0;
	l->v[l->n++] = ns <= 0 ? 0 : ns >= 4e9 ? 4000000000u : (uint32_t)(ns + 0.5);
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

double net_lat_quantile(struct net_lat *l, double q)
{
	if (!l->n)
		return 0;
	if (!l->sorted)
		qsort(l->v, l->n, sizeof(*l->v), cmp_u32);
	l->sorted = 1;
	/* Nearest rank: the smallest value with at least q of them at or below. */
	double r = q * (double)l->n;
	size_t k = (size_t)r;
	if ((double)k < r)
		k++;
	if (k < 1)
		k = 1;
	if (k > l->n)
		k = l->n;
	return l->v[k - 1] / 1e3;
}

void net_lat_free(struct net_lat *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

double net_pps(double mbit, int64_t size)
{
	return size > 0 ? mbit * 1e6 / 8.0 / (double)size : 0;
}

int net_rate_parse(const char *s, double *mbit)
{
	if (strcmp(s, "max") == 0) {
		*mbit = 0;
		return 0;
	}
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 1e6)
		return -1;
	*mbit = v;
	return 0;
}
