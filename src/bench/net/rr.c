/* SPDX-License-Identifier: MIT */
/*
 * Request/response, netperf's TCP_RR, TCP_CRR and UDP_RR: one transaction
 * is a `size`-byte request and the peer's `size`-byte answer, one at a time,
 * for `time` seconds. TCP_CRR also opens and closes a connection for each
 * transaction (connect, request, response, the peer's close). Reports
 * transactions per second and each transaction's round trip as
 * percentiles (nearest rank) and the maximum, in microseconds.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net.h"

/* A UDP answer not back in this time is counted lost. */
#define UDP_WAIT_S 0.2

struct rr_state {
	struct net_session s;
	int fd;
	size_t size;
	char *req, *resp;
	struct net_lat lat;
};

static int read_full(int fd, char *buf, size_t len)
{
	while (len) {
		ssize_t n = recv(fd, buf, len, 0);
		if (n > 0) {
			buf += n;
			len -= (size_t)n;
		} else if (n == 0) {
			errno = EPIPE;
			return -1;
		} else if (errno != EINTR) {
			return -1;
		}
	}
	return 0;
}

static int write_full(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n > 0) {
			buf += n;
			len -= (size_t)n;
		} else if (n < 0 && errno != EINTR) {
			return -1;
		}
	}
	return 0;
}

static int rr_setup(struct pg_ctx *ctx)
{
	struct rr_state *st = calloc(1, sizeof(*st));
	if (!st)
		return pg_error(ctx, "out of memory");
	ctx->priv = st;
	st->fd = -1;
	st->size = (size_t)pg_arg_int(ctx->args, "size");
	/* The role byte of a TCP_CRR connection goes out with its request. */
	st->req = calloc(1, st->size + 1);
	st->resp = calloc(1, st->size + 1);
	if (!st->req || !st->resp)
		return pg_error(ctx, "out of memory");
	st->req[0] = PG_NET_ROLE_ECHO;
	memset(st->req + 1, 'q', st->size);
	return net_open(ctx, &st->s);
}

static int rr_prepare(struct pg_ctx *ctx, uint64_t iters)
{
	struct rr_state *st = ctx->priv;
	(void)iters;
	if (st->fd >= 0)
		close(st->fd);
	st->fd = -1;
	st->lat.n = 0;
	const struct pg_net_kind *k = ctx->bench->data;
	struct pg_net_test t;
	net_test_init(&t, k->id, ctx->args);
	t.time += 3;
	int rc = net_start(ctx, &st->s, &t);
	if (rc != PG_OK)
		return rc;
	if (k->id == PG_NET_TCP_RR)
		return net_tcp_data(ctx, &st->s, PG_NET_ROLE_ECHO, 0, NULL, &st->fd);
	if (k->id == PG_NET_UDP_RR) {
		st->fd = net_udp_data(ctx, &st->s, 0);
		if (st->fd < 0)
			return PG_ERROR;
		struct timeval tv = { .tv_usec = (long)(UDP_WAIT_S * 1e6) };
		setsockopt(st->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	return PG_OK;
}

/* One TCP_CRR transaction: connect, role byte and request, response, the
 * peer's close. */
static int crr_once(struct rr_state *st)
{
	int fd = socket(st->s.data.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int one = 1, rc = -1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	char eof;
	if (connect(fd, (struct sockaddr *)&st->s.data, st->s.data_len) == 0 &&
	    write_full(fd, st->req, st->size + 1) == 0 &&
	    read_full(fd, st->resp, st->size) == 0 &&
	    recv(fd, &eof, 1, 0) == 0)
		rc = 0;
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

static int rr_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct rr_state *st = ctx->priv;
	const struct pg_net_kind *k = ctx->bench->data;
	(void)iters;
	int udp = k->id == PG_NET_UDP_RR, crr = k->id == PG_NET_TCP_CRR;
	double deadline = pg_now() + (double)pg_arg_int(ctx->args, "time");
	uint64_t done = 0, lost = 0, seq = 0;
	int err = 0;
	while (!err) {
		double t0 = pg_now();
		if (t0 >= deadline)
			break;
		if (crr) {
			if (crr_once(st) < 0)
				err = errno ? errno : EPIPE;
		} else if (!udp) {
			if (write_full(st->fd, st->req + 1, st->size) < 0 ||
			    read_full(st->fd, st->resp, st->size) < 0)
				err = errno;
		} else {
			/* A sequence number tells a late answer from the one awaited. */
			seq++;
			if (st->size >= sizeof(seq))
				memcpy(st->req + 1, &seq, sizeof(seq));
			if (send(st->fd, st->req + 1, st->size, 0) < 0) {
				err = errno;
				break;
			}
			for (;;) {
				ssize_t n = recv(st->fd, st->resp, st->size, 0);
				if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
					lost++;
					break;
				}
				if (n < 0 && errno == EINTR)
					continue;
				if (n < 0) {
					err = errno;
					break;
				}
				if (st->size < sizeof(seq) || memcmp(st->resp, &seq, sizeof(seq)) == 0)
					break;
			}
			if (pg_now() - t0 >= UDP_WAIT_S)
				continue;
		}
		if (err)
			break;
		if (net_lat_add(&st->lat, pg_now() - t0) < 0)
			return pg_error(ctx, "out of memory for latencies");
		done++;
	}
	if (st->fd >= 0)
		close(st->fd);
	st->fd = -1;
	struct pg_net_report r;
	int rc = net_stop(ctx, &st->s, &r);
	if (err)
		return pg_error(ctx, "peer %s: transaction failed: %s", st->s.where, strerror(err));
	if (rc != PG_OK)
		return rc;
	if (!done)
		return pg_error(ctx, "no transaction completed (%llu answers lost)",
				(unsigned long long)lost);
	if (lost)
		pg_note(ctx, "%llu of %llu requests had no answer within %.0f ms (not counted)",
			(unsigned long long)lost, (unsigned long long)(lost + done), UDP_WAIT_S * 1e3);
	counts[0] = (double)done;
	counts[1] = net_lat_quantile(&st->lat, 0.50);
	counts[2] = net_lat_quantile(&st->lat, 0.90);
	counts[3] = net_lat_quantile(&st->lat, 0.99);
	counts[4] = net_lat_quantile(&st->lat, 1.0);
	return PG_OK;
}

static void rr_teardown(struct pg_ctx *ctx)
{
	struct rr_state *st = ctx->priv;
	if (!st)
		return;
	if (st->fd >= 0)
		close(st->fd);
	net_close(&st->s);
	net_lat_free(&st->lat);
	free(st->req);
	free(st->resp);
	free(st);
	ctx->priv = NULL;
}

static const struct pg_param rr_params[] = {
	NET_PEER_PARAMS,
	{ .name = "time", .type = PG_P_INT, .def = "10", .min = 1, .max = 3600,
	  .help = "seconds each sample lasts (netperf -l)", .standard = "3", .full = "10" },
	{ .name = "size", .type = PG_P_SIZE, .def = "1", .min = 1, .max = 65507,
	  .help = "request and response bytes (netperf -r)" },
	{ 0 },
};
static const struct pg_metric rr_metrics[] = {
	{ "transactions", "trans/s", PG_RATE, 1, 1, 0 },
	{ "p50", "us", PG_VALUE, 1, 0, 0 },
	{ "p90", "us", PG_VALUE, 1, 0, 0 },
	{ "p99", "us", PG_VALUE, 1, 0, 0 },
	{ "max", "us", PG_VALUE, 1, 0, 0 },
	{ 0 },
};

#define RR_BENCH(kind)									\
	.params = rr_params, .metrics = rr_metrics, .trial = 1, .data = &pg_net_kinds[kind], \
	.min_suite = PG_IN_STANDARD, .setup = rr_setup, .prepare = rr_prepare,		\
	.step = rr_step, .teardown = rr_teardown

const struct pg_bench pg_net_tcp_rr = {
	.id = "net.tcp.rr", .title = "TCP request/response (netperf TCP_RR)", RR_BENCH(PG_NET_TCP_RR),
	.section = &pg_net_sec_ethernet,
};
const struct pg_bench pg_net_tcp_crr = {
	.id = "net.tcp.crr", .title = "TCP connect/request/response/close (netperf TCP_CRR)",
	.section = &pg_net_sec_ethernet,
	RR_BENCH(PG_NET_TCP_CRR),
};
const struct pg_bench pg_net_udp_rr = {
	.id = "net.udp.rr", .title = "UDP request/response (netperf UDP_RR)", RR_BENCH(PG_NET_UDP_RR),
	.section = &pg_net_sec_ethernet,
};
