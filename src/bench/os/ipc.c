/* SPDX-License-Identifier: MIT */
/*
 * Local communication between two processes, LMBench's lat_pipe, bw_pipe,
 * lat_unix, bw_unix, lat_tcp, bw_tcp and lat_connect. setup forks a peer
 * that teardown kills and reaps.
 *
 * Latency: one operation is one round trip of a msg=-byte message: this
 * process writes it, the peer reads it and writes it back, this process
 * reads it. Microseconds per round trip, as lat_pipe/lat_unix/lat_tcp.
 *
 * Bandwidth: each step asks the peer for iters x msg bytes and reads them
 * all; the count is the bytes actually received. The request costs one
 * small message per step, and nothing is sent ahead between steps, so
 * socket buffers that fill while the runner is idle do not inflate it.
 *
 * cpu= places the two processes (os_place): by default both on one CPU. On
 * a VM a wake-up across CPUs costs 10x one on the same CPU (lat_pipe here:
 * 4.4 us on one CPU, 26 to 54 us across), so where the scheduler put the
 * peer decided the figure, and processes of one build differed 10x;
 * cpu=any measures as lat_pipe run bare, cpu=spread across two CPUs.
 *
 * TCP runs over loopback (127.0.0.1) only. lat_connect's operation is a
 * connect() to a listening peer and a close(). The backlog is as long as
 * the system allows: when the peer falls behind and the backlog is full, a
 * SYN is dropped and retried a second later, which would be timed.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>

#include "os.h"

enum ipc_transport { T_PIPE, T_UNIX, T_TCP };
enum ipc_mode { M_LAT, M_BW, M_CONNECT };

struct ipc_kind {
	enum ipc_transport t;
	enum ipc_mode m;
	const char *label;
};

struct ipc_state {
	int rd, wr;		/* this side: read from the peer, write to it */
	int peer_rd, peer_wr;	/* the peer's ends (pipes), closed here after fork */
	int listen_fd;
	struct sockaddr_in addr;
	size_t msg;
	char *buf;
	pid_t pid;
};

static void echo_peer(void *arg)
{
	struct ipc_state *s = arg;
	for (;;) {
		if (os_read_all(s->peer_rd, s->buf, s->msg) < 0 ||
		    os_write_all(s->peer_wr, s->buf, s->msg) < 0)
			return;
	}
}

/* Reads a byte count, sends that many bytes in msg-sized writes. */
static void source_peer(void *arg)
{
	struct ipc_state *s = arg;
	uint64_t want;
	for (;;) {
		if (os_read_all(s->peer_rd, &want, sizeof(want)) < 0)
			return;
		while (want > 0) {
			size_t n = want < s->msg ? (size_t)want : s->msg;
			if (os_write_all(s->peer_wr, s->buf, n) < 0)
				return;
			want -= n;
		}
	}
}

static void accept_peer(void *arg)
{
	struct ipc_state *s = arg;
	for (;;) {
		int fd = accept(s->listen_fd, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return;
		}
		close(fd);
	}
}

static int tcp_listener(struct pg_ctx *ctx, struct ipc_state *s)
{
	s->listen_fd = socket(AF_INET, SOCK_STREAM, 0);
	if (s->listen_fd < 0)
		return pg_skip(ctx, "no TCP sockets here: %s", strerror(errno));
	int one = 1;
	setsockopt(s->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&s->addr, 0, sizeof(s->addr));
	s->addr.sin_family = AF_INET;
	s->addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof(s->addr);
	if (bind(s->listen_fd, (struct sockaddr *)&s->addr, len) != 0 ||
	    listen(s->listen_fd, SOMAXCONN) != 0 ||
	    getsockname(s->listen_fd, (struct sockaddr *)&s->addr, &len) != 0)
		return pg_skip(ctx, "cannot listen on 127.0.0.1: %s (is loopback up?)", strerror(errno));
	return PG_OK;
}

static int tcp_connect(const struct ipc_state *s)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)&s->addr, sizeof(s->addr)) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int ipc_setup(struct pg_ctx *ctx)
{
	const struct ipc_kind *k = ctx->bench->data;
	struct ipc_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->rd = s->wr = s->peer_rd = s->peer_wr = s->listen_fd = -1;
	s->msg = k->m == M_CONNECT ? 1 : (size_t)pg_arg_int(ctx->args, "msg");
	s->buf = calloc(1, s->msg);
	if (!s->buf)
		return pg_error(ctx, "out of memory");

	if (k->t == T_PIPE) {
		int a[2], b[2];
		if (pipe(a) != 0)
			return pg_skip(ctx, "cannot make a pipe: %s", strerror(errno));
		if (pipe(b) != 0) {
			close(a[0]);
			close(a[1]);
			return pg_skip(ctx, "cannot make a pipe: %s", strerror(errno));
		}
		s->wr = a[1];
		s->peer_rd = a[0];
		s->peer_wr = b[1];
		s->rd = b[0];
	} else if (k->t == T_UNIX) {
		int sv[2];
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
			return pg_skip(ctx, "no AF_UNIX sockets here: %s", strerror(errno));
		s->rd = s->wr = sv[0];
		s->peer_rd = s->peer_wr = sv[1];
	} else {
		int rc = tcp_listener(ctx, s);
		if (rc != PG_OK)
			return rc;
	}

	void (*peer)(void *) = k->m == M_LAT ? echo_peer : k->m == M_BW ? source_peer : accept_peer;
	if (k->t == T_TCP && k->m != M_CONNECT) {
		/* The peer accepts one connection and serves it. */
		s->rd = s->wr = tcp_connect(s);
		if (s->rd < 0)
			return pg_error(ctx, "cannot connect to 127.0.0.1: %s", strerror(errno));
		int fd = accept(s->listen_fd, NULL, NULL);
		if (fd < 0)
			return pg_error(ctx, "accept on 127.0.0.1 failed: %s", strerror(errno));
		s->peer_rd = s->peer_wr = fd;
		int one = 1;
		if (k->m == M_LAT) {
			setsockopt(s->rd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		}
	}
	int rc = os_spawn_peer(ctx, peer, s, &s->pid);
	if (rc != PG_OK)
		return rc;
	/* The peer's ends are the peer's alone now (an end of file then means
	 * the peer is gone). */
	if (s->peer_rd >= 0 && s->peer_rd != s->rd)
		close(s->peer_rd);
	if (s->peer_wr >= 0 && s->peer_wr != s->peer_rd && s->peer_wr != s->wr)
		close(s->peer_wr);
	s->peer_rd = s->peer_wr = -1;
	if (k->t == T_TCP) {
		char where[PG_MSG_LEN];
		snprintf(where, sizeof(where), "%s", ctx->note);
		pg_note(ctx, "%s; 127.0.0.1 port %u", where, ntohs(s->addr.sin_port));
	}
	return PG_OK;
}

static void ipc_teardown(struct pg_ctx *ctx)
{
	struct ipc_state *s = ctx->priv;
	if (!s)
		return;
	os_reap(s->pid);
	int fds[] = { s->rd, s->wr, s->peer_rd, s->peer_wr, s->listen_fd };
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (fds[i] < 0)
			continue;
		close(fds[i]);
		for (size_t j = i + 1; j < sizeof(fds) / sizeof(fds[0]); j++)
			if (fds[j] == fds[i])
				fds[j] = -1;
	}
	free(s->buf);
	free(s);
}

static int ipc_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	const struct ipc_kind *k = ctx->bench->data;
	struct ipc_state *s = ctx->priv;
	if (k->m == M_LAT) {
		for (uint64_t i = 0; i < iters; i++)
			if (os_write_all(s->wr, s->buf, s->msg) < 0 ||
			    os_read_all(s->rd, s->buf, s->msg) < 0)
				return pg_error(ctx, "the peer stopped answering");
		counts[0] = (double)iters;
	} else if (k->m == M_BW) {
		uint64_t want = iters * s->msg, got = 0;
		if (os_write_all(s->wr, &want, sizeof(want)) < 0)
			return pg_error(ctx, "the peer stopped listening");
		while (got < want) {
			size_t n = want - got < s->msg ? (size_t)(want - got) : s->msg;
			ssize_t r = read(s->rd, s->buf, n);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return pg_error(ctx, "the peer stopped sending after %llu of %llu bytes",
						(unsigned long long)got, (unsigned long long)want);
			got += (uint64_t)r;
		}
		counts[0] = (double)got;
	} else {
		for (uint64_t i = 0; i < iters; i++) {
			int fd = tcp_connect(s);
			if (fd < 0)
				return pg_error(ctx, "connect to 127.0.0.1 failed: %s", strerror(errno));
			close(fd);
		}
		counts[0] = (double)iters;
	}
	return PG_OK;
}

static void ipc_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		      char *buf, size_t len)
{
	(void)a;
	(void)metric;
	const struct ipc_kind *k = b->data;
	snprintf(buf, len, "%s", k->label);
}

static const struct pg_param lat_params[] = {
	{ .name = "msg", .type = PG_P_SIZE, .def = "1", .min = 1, .max = 1 << 20,
	  .help = "bytes sent each way per round trip" },
	{ .name = "cpu", .type = PG_P_STR, .def = "same",
	  .help = "where the two processes run: same (one CPU), spread (two CPUs), any "
		  "(the scheduler's choice, as the LMBench tool run bare) or a CPU number" },
	{ 0 },
};
static const struct pg_param bw_params[] = {
	{ .name = "msg", .type = PG_P_SIZE, .def = "64k", .min = 1, .max = 64 << 20,
	  .help = "bytes per write and per read (LMBench uses 64 KiB)" },
	{ .name = "cpu", .type = PG_P_STR, .def = "same",
	  .help = "where the two processes run: same (one CPU), spread (two CPUs), any "
		  "(the scheduler's choice, as the LMBench tool run bare) or a CPU number" },
	{ 0 },
};
static const struct pg_param connect_params[] = {
	{ .name = "cpu", .type = PG_P_STR, .def = "same",
	  .help = "where the two processes run: same (one CPU), spread (two CPUs), any "
		  "(the scheduler's choice, as the LMBench tool run bare) or a CPU number" },
	{ 0 },
};

static const struct pg_metric lat_metrics[] = {
	{ "latency", "us", PG_TIME_PER, 1e6, 0, 0 },
	{ 0 },
};
static const struct pg_metric bw_metrics[] = {
	{ "bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ 0 },
};

static const struct ipc_kind
	k_pipe_lat = { T_PIPE, M_LAT, "lat_pipe" }, k_pipe_bw = { T_PIPE, M_BW, "bw_pipe" },
	k_unix_lat = { T_UNIX, M_LAT, "lat_unix" }, k_unix_bw = { T_UNIX, M_BW, "bw_unix" },
	k_tcp_lat = { T_TCP, M_LAT, "lat_tcp" }, k_tcp_bw = { T_TCP, M_BW, "bw_tcp" },
	k_connect = { T_TCP, M_CONNECT, "lat_connect" };

#define IPC(var, idstr, what, kind, plist, mlist, suite)				\
	const struct pg_bench var = {							\
		.id = idstr, .title = what, .params = plist, .metrics = mlist,	\
		.section = &pg_os_sec_lmbench,                                  \
		.data = &kind, .setup = ipc_setup, .step = ipc_step,			\
		.teardown = ipc_teardown, .label = ipc_label, .min_suite = suite,	\
		.check = os_check_cpu,						\
	}

IPC(pg_os_pipe_lat, "os.pipe.lat", "Pipe round trip between two processes (lat_pipe)",
    k_pipe_lat, lat_params, lat_metrics, 0);
IPC(pg_os_pipe_bw, "os.pipe.bw", "Pipe bandwidth between two processes (bw_pipe)",
    k_pipe_bw, bw_params, bw_metrics, 0);
IPC(pg_os_unix_lat, "os.unix.lat", "AF_UNIX stream round trip (lat_unix)",
    k_unix_lat, lat_params, lat_metrics, PG_IN_STANDARD);
IPC(pg_os_unix_bw, "os.unix.bw", "AF_UNIX stream bandwidth (bw_unix)",
    k_unix_bw, bw_params, bw_metrics, 0);
IPC(pg_os_tcp_lat, "os.tcp.lat", "TCP round trip over loopback (lat_tcp)",
    k_tcp_lat, lat_params, lat_metrics, 0);
IPC(pg_os_tcp_bw, "os.tcp.bw", "TCP bandwidth over loopback (bw_tcp)",
    k_tcp_bw, bw_params, bw_metrics, 0);
IPC(pg_os_connect, "os.connect", "TCP connection to loopback, connect and close (lat_connect)",
    k_connect, connect_params, lat_metrics, 0);
