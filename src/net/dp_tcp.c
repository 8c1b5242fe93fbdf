/* SPDX-License-Identifier: MIT */
/*
 * The data plane of the TCP kinds (kinds.c says which kind runs which): the
 * test's thread accepts data connections from the client's address only,
 * and each begins with its role byte (peer.h). pg_dp_tcp gives a connection
 * a thread by its role: a sink counts and discards, a source sends msg-byte
 * writes until STOP or the test's time, an echo answers size-byte requests.
 * pg_dp_tcp_crr answers one request on a connection and closes it.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/timer.h"
#include "net/serve_int.h"

#define DATA_WAIT 2.0		/* a data connection's role byte or crr request */
#define SINK_BUF (256 * 1024)

/* Waits for fd (events) or the test's stop, at most DATA_WAIT. 1: ready. */
static int data_wait(struct test *t, int fd, short events)
{
	struct pollfd p[2] = { { .fd = fd, .events = events }, { .fd = t->stop_r, .events = POLLIN } };
	double deadline = pg_now() + DATA_WAIT;
	for (;;) {
		double left = deadline - pg_now();
		if (left <= 0)
			return 0;
		int r = poll(p, 2, (int)(left * 1000.0) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		/* Data that came before STOP is taken even when this thread
		 * only wakes up after it. */
		if (r > 0 && p[0].revents)
			return 1;
		if (r <= 0 || p[1].revents)
			return 0;
	}
}

static int full_io(int fd, uint8_t *buf, size_t n, int out)
{
	size_t off = 0;
	while (off < n) {
		ssize_t r = out ? send(fd, buf + off, n - off, MSG_NOSIGNAL) : recv(fd, buf + off, n - off, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		off += (size_t)r;
	}
	return 0;
}

static void *sink_main(void *arg)
{
	struct dconn *d = arg;
	uint8_t *buf = malloc(SINK_BUF);
	while (buf) {
		ssize_t n = recv(d->fd, buf, SINK_BUF, 0);
		if (n > 0)
			pg_serve_count(&d->t->bytes_rx, (uint64_t)n);
		else if (n == 0 || errno != EINTR)
			break;
	}
	free(buf);
	atomic_store(&d->done, 1);
	return NULL;
}

static void *source_main(void *arg)
{
	struct dconn *d = arg;
	struct test *t = d->t;
	uint8_t *buf = malloc(t->msg);
	if (buf)
		memset(buf, 'p', t->msg);
	while (buf && !atomic_load(&t->stopping) && pg_now() < t->deadline) {
		ssize_t n = send(d->fd, buf, t->msg, MSG_NOSIGNAL);
		if (n > 0) {
			pg_serve_count(&t->bytes_tx, (uint64_t)n);
			pg_serve_throttle(t, (uint64_t)n);
		} else if (n == 0 || errno != EINTR) {
			break;
		}
	}
	/* the test's time is over: the client sees the end of the stream */
	shutdown(d->fd, SHUT_WR);
	free(buf);
	atomic_store(&d->done, 1);
	return NULL;
}

static void count_rr(struct test *t)
{
	pg_serve_count(&t->bytes_rx, t->size);
	pg_serve_count(&t->pkts_rx, 1);
	pg_serve_count(&t->bytes_tx, t->size);
	pg_serve_count(&t->pkts_tx, 1);
	pg_serve_throttle(t, t->size);
}

static void *echo_main(void *arg)
{
	struct dconn *d = arg;
	struct test *t = d->t;
	uint8_t *buf = malloc(t->size);
	while (buf && full_io(d->fd, buf, t->size, 0) == 0 && full_io(d->fd, buf, t->size, 1) == 0)
		count_rr(t);
	free(buf);
	atomic_store(&d->done, 1);
	return NULL;
}

/* pg_dp_tcp: a thread for the connection by its role, at most two
 * connections per stream asked. */
static void take_role(struct test *t, int c, uint8_t role)
{
	void *(*fn)(void *) = role == PG_NET_ROLE_SINK ? sink_main :
			      role == PG_NET_ROLE_SOURCE ? source_main :
			      role == PG_NET_ROLE_ECHO ? echo_main : NULL;
	struct dconn *d = fn && t->ndc < 2 * t->streams ? calloc(1, sizeof(*d)) : NULL;
	if (!d) {
		close(c);
		return;
	}
	d->t = t;
	d->fd = c;
	d->role = role;
	pthread_mutex_lock(&t->mu);
	if (pthread_create(&d->th, NULL, fn, d) == 0) {
		t->dc[t->ndc++] = d;
	} else {
		close(c);
		free(d);
	}
	pthread_mutex_unlock(&t->mu);
}

/* pg_dp_tcp_crr: one transaction, then the peer closes. */
static void take_crr(struct test *t, int c, uint8_t role)
{
	uint8_t *buf = role == PG_NET_ROLE_ECHO ? malloc(t->size) : NULL;
	size_t off = 0;
	while (buf && off < t->size && data_wait(t, c, POLLIN)) {
		ssize_t r = recv(c, buf + off, t->size - off, MSG_DONTWAIT);
		if (r <= 0 && !(r < 0 && (errno == EINTR || errno == EAGAIN)))
			break;
		if (r > 0)
			off += (size_t)r;
	}
	if (buf && off == t->size && full_io(c, buf, t->size, 1) == 0)
		count_rr(t);
	free(buf);
	close(c);
}

/* Waits for a connection or the test's stop. After STOP the connections
 * already in the accept queue are still taken (*draining): a client that
 * connected, sent and closed before STOP must find its bytes counted.
 * 1: accept one now, 0: look again, -1: give up. */
static int wait_conn(struct test *t, int *draining)
{
	if (*draining)
		return 1;
	struct pollfd p[2] = { { .fd = t->fd, .events = POLLIN }, { .fd = t->stop_r, .events = POLLIN } };
	if (poll(p, 2, -1) < 0 && errno != EINTR)
		return -1;
	*draining = p[1].revents != 0;
	return *draining || p[0].revents ? 1 : 0;
}

/* The next data connection from the client's address that said its role
 * (once draining, only a sink's, already there), or -1: the test is over. */
static int next_conn(struct test *t, int *draining, uint8_t *role)
{
	for (;;) {
		int w = wait_conn(t, draining);
		if (w < 0)
			return -1;
		if (!w)
			continue;
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		int c = accept4(t->fd, (struct sockaddr *)&from, &fl, SOCK_CLOEXEC);
		if (c < 0) {
			if (*draining && errno != EINTR)
				return -1;
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
				pg_sleep_s(0.01);
			continue;
		}
		*role = 0;
		if (pg_serve_same_ip(&from, &t->client) && (*draining || data_wait(t, c, POLLIN)) &&
		    recv(c, role, 1, MSG_DONTWAIT) == 1 && !(*draining && *role != PG_NET_ROLE_SINK))
			return c;
		close(c);
	}
}

static void *accept_loop(struct test *t, void (*take)(struct test *t, int c, uint8_t role))
{
	int draining = 0, c;
	uint8_t role;
	while ((c = next_conn(t, &draining, &role)) >= 0) {
		if (t->kind->rr) {
			int one = 1;
			setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		}
		if (t->cc[0])
			setsockopt(c, IPPROTO_TCP, TCP_CONGESTION, t->cc, (socklen_t)strlen(t->cc));
		pg_serve_mark_first(t);
		take(t, c, role);
	}
	return NULL;
}

static void *tcp_main(void *arg)
{
	return accept_loop(arg, take_role);
}

static void *tcp_crr_main(void *arg)
{
	return accept_loop(arg, take_crr);
}

const struct pg_net_plane pg_dp_tcp = { .run = tcp_main };
const struct pg_net_plane pg_dp_tcp_crr = { .run = tcp_crr_main };
