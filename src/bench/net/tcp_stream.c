/* SPDX-License-Identifier: MIT */
/*
 * TCP bulk throughput, netperf's TCP_STREAM (this side sends), TCP_MAERTS
 * (the peer sends) and both at once (the seed runs the two netperf tests
 * side by side for its "TCP Bidirectional Throughput").
 *
 * prepare (untimed) sends START and opens the data connections. The step
 * is the data phase: msg-byte writes (or reads) for `time` seconds on every
 * connection, each in its own thread; then this side closes them, and STOP
 * brings the peer's report once it has read everything up to the close. What counts is bytes received: by the peer for what this
 * side sent (its REPORT), by this side for what the peer sent.
 *
 * Service demand is CPU microseconds per KB (1024 bytes) received, as
 * netperf prints it: local from the system-wide busy time in /proc/stat
 * over the step, remote from the peer process's own CPU time.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/cpuload.h"
#include "net.h"
#include "core/err.h"

#define MAX_STREAMS 64

struct stream_kind {
	enum pg_net_kind_id kind;
	int send, recv;		/* this side sends / receives */
};

struct conn {
	int fd;
	int sending;
	double deadline;
	char *buf;
	size_t msg;
	uint64_t bytes;		/* received, for the receiving connections */
	int err;
	pthread_t thread;
};

struct stream_state {
	struct net_session s;
	struct conn c[2 * MAX_STREAMS];
	int nconn;
	char *buf;
	size_t msg;
};

static void *conn_run(void *arg)
{
	struct conn *c = arg;
	/* A timeout, so a stalled peer cannot hold the step past its time. */
	struct timeval tv = { .tv_sec = 1 };
	setsockopt(c->fd, SOL_SOCKET, c->sending ? SO_SNDTIMEO : SO_RCVTIMEO, &tv, sizeof(tv));
	while (pg_now() < c->deadline) {
		ssize_t n = c->sending ? send(c->fd, c->buf, c->msg, MSG_NOSIGNAL)
				       : recv(c->fd, c->buf, c->msg, 0);
		if (n > 0) {
			if (!c->sending)
				c->bytes += (uint64_t)n;
			continue;
		}
		if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
			continue;
		c->err = n < 0 ? errno : EPIPE;
		break;
	}
	return NULL;
}

static void close_conns(struct stream_state *st)
{
	for (int i = 0; i < st->nconn; i++)
		if (st->c[i].fd >= 0)
			close(st->c[i].fd);
	st->nconn = 0;
}

static int tcp_stream_setup(struct pg_ctx *ctx)
{
	struct stream_state *st = calloc(1, sizeof(*st));
	if (!st)
		return pg_error(ctx, "out of memory");
	ctx->priv = st;
	st->msg = (size_t)pg_arg_int(ctx->args, "msg");
	/* One buffer per connection, so threads do not share cache lines. */
	size_t bytes = st->msg * 2 * (size_t)pg_arg_int(ctx->args, "streams");
	st->buf = malloc(bytes);
	if (!st->buf)
		return pg_error(ctx, "out of memory for %zu-byte messages", st->msg);
	memset(st->buf, 'p', bytes);
	/* A congestion control this kernel lacks is a skip, found before any
	 * peer is asked (the peer would refuse it as an error). */
	const char *cc = net_cc(ctx->args);
	if (cc[0]) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int bad = fd >= 0 && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, (socklen_t)strlen(cc)) < 0 ?
			  errno : 0;
		if (fd >= 0)
			close(fd);
		if (bad == ENOENT)
			return pg_skip(ctx, "congestion control '%s' is not available here "
				       "(see /proc/sys/net/ipv4/tcp_available_congestion_control)", cc);
		if (bad)
			return pg_error(ctx, "congestion control '%s': %s", cc, strerror(bad));
	}
	return net_open(ctx, &st->s);
}

static int tcp_stream_prepare(struct pg_ctx *ctx, uint64_t iters)
{
	struct stream_state *st = ctx->priv;
	const struct stream_kind *k = ctx->bench->data;
	(void)iters;
	close_conns(st);
	struct pg_net_test t;
	net_test_init(&t, k->kind, ctx->args);
	/* The peer's own end of the test comes after ours, never before. */
	t.time += 2;
	int rc = net_start(ctx, &st->s, &t);
	if (rc != PG_OK)
		return rc;
	uint64_t window = (uint64_t)pg_arg_int(ctx->args, "window");
	const char *cc = net_cc(ctx->args);
	for (int dir = 0; dir < 2; dir++) {
		int sending = dir == 0;
		if (sending ? !k->send : !k->recv)
			continue;
		for (int i = 0; i < t.streams; i++) {
			struct conn *c = &st->c[st->nconn];
			memset(c, 0, sizeof(*c));
			c->fd = -1;
			st->nconn++;
			rc = net_tcp_data(ctx, &st->s, sending ? PG_NET_ROLE_SINK : PG_NET_ROLE_SOURCE,
					  window, cc, &c->fd);
			if (rc != PG_OK)
				return rc;
			c->sending = sending;
			c->msg = st->msg;
			c->buf = st->buf + (size_t)(st->nconn - 1) * st->msg;
		}
	}
	return PG_OK;
}

static int tcp_stream_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct stream_state *st = ctx->priv;
	const struct stream_kind *k = ctx->bench->data;
	(void)iters;
	struct pg_cpu_mark m0, m1;
	pg_cpu_mark(&m0);
	double deadline = pg_now() + (double)pg_arg_int(ctx->args, "time");
	int started = 0;
	for (int i = 0; i < st->nconn; i++)
		st->c[i].deadline = deadline;
	/* Connection 0 runs in this thread, the others each in their own. */
	for (int i = 1; i < st->nconn; i++, started++)
		if (pthread_create(&st->c[i].thread, NULL, conn_run, &st->c[i]) != 0)
			break;
	if (started == st->nconn - 1)
		conn_run(&st->c[0]);
	for (int i = 1; i <= started; i++)
		pthread_join(st->c[i].thread, NULL);
	if (started != st->nconn - 1) {
		close_conns(st);
		return pg_error(ctx, "could not start a thread per connection");
	}
	uint64_t received = 0;
	for (int i = 0; i < st->nconn; i++) {
		struct conn *c = &st->c[i];
		if (c->err) {
			int e = c->err;
			close_conns(st);
			return pg_error(ctx, "peer %s: data connection lost: %s", st->s.where, strerror(e));
		}
		received += c->bytes;
	}
	/* Closing ends what this side sent with a FIN after the last byte (the
	 * peer counts until it sees it, so what was in flight is counted) and
	 * stops the peer's writes to this side. */
	close_conns(st);
	struct pg_net_report r;
	int rc = net_stop(ctx, &st->s, &r);
	if (rc != PG_OK)
		return rc;
	pg_cpu_mark(&m1);
	uint64_t sent = k->send ? r.bytes_rx : 0;
	int m = 0;
	counts[m++] = (double)(sent + received);
	if (k->send && k->recv) {
		counts[m++] = (double)sent;
		counts[m++] = (double)received;
	}
	counts[m++] = pg_cpu_busy_seconds(&m0, &m1);
	counts[m++] = r.user_s + r.sys_s;
	if (sent + received == 0)
		return pg_error(ctx, "no data arrived in %lld s", (long long)pg_arg_int(ctx->args, "time"));
	return PG_OK;
}

static void tcp_stream_teardown(struct pg_ctx *ctx)
{
	struct stream_state *st = ctx->priv;
	if (!st)
		return;
	close_conns(st);
	net_close(&st->s);
	free(st->buf);
	free(st);
	ctx->priv = NULL;
}

static int tcp_stream_check(const struct pg_args *a, char *err, size_t errlen)
{
	if (pg_arg_int(a, "streams") > MAX_STREAMS)
		return pg_err(err, errlen, "streams: at most %d", MAX_STREAMS);
	return 0;
}

/* The seed's row for the sum; each way named as a part of that test, not
 * as another ("TCP bidirectional throughput (...) tx" read as a second
 * bidirectional row beside the first). */
static void bidir_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
			char *buf, size_t len)
{
	(void)b;
	(void)a;
	if (strcmp(metric, "throughput") == 0)
		snprintf(buf, len, "TCP Bidirectional Throughput");
	else if (strcmp(metric, "tx") == 0)
		snprintf(buf, len, "TCP Bidirectional Throughput: this side sends");
	else if (strcmp(metric, "rx") == 0)
		snprintf(buf, len, "TCP Bidirectional Throughput: the peer sends");
}

#define STREAM_PARAMS(quick_time)							\
	NET_PEER_PARAMS,									\
	{ .name = "time", .type = PG_P_INT, .def = "10", .min = 1, .max = 3600,	\
	  .help = "seconds each sample sends for (netperf -l)",				\
	  .quick = quick_time, .standard = "3", .full = "10" },			\
	{ .name = "msg", .type = PG_P_SIZE, .def = "64k", .min = 1, .max = 16 << 20,	\
	  .help = "bytes per send call (netperf -m, nttcp -l)" },			\
	{ .name = "window", .type = PG_P_SIZE, .def = "auto", .choices = "auto",	\
	  .max = 1 << 30,								\
	  .help = "socket buffers on both ends (iperf -w); auto: the system's tuning",	\
	  .full = "auto,8k,16k,32k,64k,128k,256k" },					\
	{ .name = "streams", .type = PG_P_INT, .def = "1", .min = 1, .max = MAX_STREAMS,	\
	  .help = "parallel connections each way" },					\
	{ .name = "cc", .type = PG_P_STR, .def = "default",				\
	  .help = "TCP congestion control (cubic, bbr, reno...), default: the system's" },	\
	{ 0 }

static const struct pg_param quick_params[] = { STREAM_PARAMS("1") };
static const struct pg_param stream_params[] = { STREAM_PARAMS(NULL) };

static const struct pg_metric one_way[] = {
	{ "throughput", "Mbit/s", PG_RATE, 8e-6, 1, 0 },
	{ "sd_local", "us/KB", PG_RATIO, 1.024e9, 0, 0 },
	{ "sd_remote", "us/KB", PG_RATIO, 1.024e9, 0, 0 },
	{ 0 },
};
static const struct pg_metric both_ways[] = {
	{ "throughput", "Mbit/s", PG_RATE, 8e-6, 1, 0 },
	{ "tx", "Mbit/s", PG_RATE, 8e-6, 1, 0 },
	{ "rx", "Mbit/s", PG_RATE, 8e-6, 1, 0 },
	{ "sd_local", "us/KB", PG_RATIO, 1.024e9, 0, 0 },
	{ "sd_remote", "us/KB", PG_RATIO, 1.024e9, 0, 0 },
	{ 0 },
};

static const struct stream_kind k_stream = { PG_NET_TCP_STREAM, 1, 0 };
static const struct stream_kind k_maerts = { PG_NET_TCP_MAERTS, 0, 1 };
static const struct stream_kind k_bidir = { PG_NET_TCP_BIDIR, 1, 1 };

#define STREAM_BENCH(kname, ttl, prm, met)						\
	.title = ttl, .params = prm, .metrics = met, .trial = 1, .data = &kname,	\
	.check = tcp_stream_check, .setup = tcp_stream_setup, .prepare = tcp_stream_prepare,	\
	.step = tcp_stream_step, .teardown = tcp_stream_teardown

const struct pg_bench pg_net_tcp_stream = {
	.id = "net.tcp.stream", .min_suite = PG_IN_STANDARD,
	.section = &pg_net_sec_ethernet,
	STREAM_BENCH(k_stream, "TCP throughput, this side sends (netperf TCP_STREAM)",
		     stream_params, one_way),
};
const struct pg_bench pg_net_tcp_maerts = {
	.id = "net.tcp.maerts", .min_suite = PG_IN_STANDARD,
	.section = &pg_net_sec_ethernet,
	STREAM_BENCH(k_maerts, "TCP throughput, the peer sends (netperf TCP_MAERTS)",
		     stream_params, one_way),
};
const struct pg_bench pg_net_tcp_bidir = {
	.id = "net.tcp.bidir", .label = bidir_label,
	.section = &pg_net_sec_ethernet,
	STREAM_BENCH(k_bidir, "TCP bidirectional throughput (TCP_STREAM and TCP_MAERTS at once)",
		     quick_params, both_ways),
};
