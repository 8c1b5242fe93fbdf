/* SPDX-License-Identifier: MIT */
/*
 * The data plane of the UDP kinds (kinds.c says which kind runs which), on
 * the test's one UDP socket; datagrams from any address but the client's
 * are ignored. pg_dp_udp_count counts the client's datagrams (udp_stream),
 * pg_dp_udp_echo counts them and sends each back to its sender (udp_rr),
 * pg_dp_udp_source sends size-byte datagrams, each beginning with its
 * sequence number, by the schedule peer.h describes (udp_source).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>

#include "core/timer.h"
#include "net/pace.h"
#include "net/serve_int.h"

#define VLEN 32			/* datagrams per recvmmsg */
#define SLOT 65536		/* bytes for each */
#define SOURCE_BATCH 64		/* udp_source: datagrams per sendmmsg at most */
/* udp_source: ICMP errors (port unreachable) after which it stops. One can
 * be a client closing at the end of its trial; more mean nobody at that
 * address wants the datagrams. */
#define ICMP_REFUSALS 3

/* The peer is the tester: a UDP stream it counts is not to be limited by
 * its own socket buffer (a few hundred small datagrams by default, which a
 * receiving thread kept off the CPU for a millisecond overflows). With no
 * window asked, it receives into the largest buffer its system allows
 * (the kernel caps the request at net.core.rmem_max). */
#define SINK_RCVBUF (16 << 20)
static void count_prepare(struct test *t)
{
	int w = SINK_RCVBUF;
	if (!t->window)
		setsockopt(t->fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof(w));
}

struct batch {
	struct mmsghdr mm[VLEN];
	struct iovec iov[VLEN];
	struct sockaddr_storage from[VLEN];
};

static void batch_reset(struct batch *b, uint8_t *buf)
{
	memset(b->mm, 0, sizeof(b->mm));
	for (int i = 0; i < VLEN; i++) {
		b->iov[i].iov_base = buf + (size_t)i * SLOT;
		b->iov[i].iov_len = SLOT;
		b->mm[i].msg_hdr.msg_iov = &b->iov[i];
		b->mm[i].msg_hdr.msg_iovlen = 1;
		b->mm[i].msg_hdr.msg_name = &b->from[i];
		b->mm[i].msg_hdr.msg_namelen = sizeof(b->from[i]);
	}
}

/* The n datagrams received: the client's are counted, and echoed. */
static void take_batch(struct test *t, struct batch *b, int n, int echo)
{
	for (int i = 0; i < n; i++) {
		if (!pg_serve_same_ip(&b->from[i], &t->client))
			continue;
		pg_serve_mark_first(t);
		pg_serve_count(&t->bytes_rx, b->mm[i].msg_len);
		pg_serve_count(&t->pkts_rx, 1);
		if (!echo)
			continue;
		ssize_t s = sendto(t->fd, b->iov[i].iov_base, b->mm[i].msg_len, 0,
				   (struct sockaddr *)&b->from[i], b->mm[i].msg_hdr.msg_namelen);
		if (s > 0) {
			pg_serve_count(&t->bytes_tx, (uint64_t)s);
			pg_serve_count(&t->pkts_tx, 1);
			pg_serve_throttle(t, (uint64_t)s);
		}
	}
}

/* Receives until STOP and then until SERVE_DRAIN_QUIET without a datagram
 * (the socket's SO_RCVTIMEO), at most SERVE_DRAIN_MAX after it. */
static void *receive_loop(struct test *t, int echo)
{
	uint8_t *buf = malloc(VLEN * SLOT);
	struct batch b;
	while (buf) {
		batch_reset(&b, buf);
		int n = recvmmsg(t->fd, b.mm, VLEN, MSG_WAITFORONE, NULL);
		int stopping = atomic_load(&t->stopping);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				break;
			if (stopping && pg_now() - t->stop_time >= SERVE_DRAIN_QUIET)
				break;
			continue;
		}
		if (stopping && pg_now() - t->stop_time >= SERVE_DRAIN_MAX)
			break;
		take_batch(t, &b, n, echo);
	}
	free(buf);
	return NULL;
}

static void *count_main(void *arg)
{
	return receive_loop(arg, 0);
}

static void *echo_main(void *arg)
{
	return receive_loop(arg, 1);
}

/* udp_source: datagrams `size` bytes long, each beginning with its sequence
 * number, sent by the shared schedule (pace.h). */
struct source {
	struct test *t;
	struct net_pace p;
	uint8_t *buf;
	struct mmsghdr mm[SOURCE_BATCH];
	struct iovec iov[SOURCE_BATCH];
	double last;
	int failed;
	int refused;		/* ICMP errors so far */
};

static int source_send(void *arg, unsigned n)
{
	struct source *so = arg;
	struct test *t = so->t;
	if (atomic_load(&t->stopping))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		uint64_t seq = so->p.sent + i;
		uint8_t *d = so->buf + (size_t)i * t->size;
		for (int b = 0; b < SERVE_SEQ_BYTES; b++)
			d[b] = (uint8_t)(seq >> (8 * (SERVE_SEQ_BYTES - 1 - b)));
	}
	int k = sendmmsg(t->fd, so->mm, n, 0);
	if (k > 0) {
		pg_serve_count(&t->pkts_tx, (uint64_t)k);
		pg_serve_count(&t->bytes_tx, (uint64_t)k * t->size);
		so->last = pg_now();
		pg_serve_throttle(t, (uint64_t)k * t->size);
		return k;
	}
	/* An ICMP error for an earlier datagram (the socket is connected, so
	 * the kernel reports it here): the client's port is closed. */
	if (k < 0 && errno == ECONNREFUSED && ++so->refused >= ICMP_REFUSALS) {
		so->failed = 1;
		return -1;
	}
	/* A full queue, or a first refusal: that datagram is not sent, the
	 * schedule goes on. */
	if (k == 0 || errno == EINTR || errno == EAGAIN || errno == ENOBUFS || errno == ECONNREFUSED)
		return 0;
	so->failed = 1;
	return -1;
}

/* The client's first datagram says where to send (NAT included): the
 * socket is connected to its sender. 0, or -1 when the test ended first. */
static int find_client(struct test *t, struct sockaddr_storage *from)
{
	socklen_t fl;
	for (;;) {
		if (atomic_load(&t->stopping) || pg_now() >= t->deadline)
			return -1;
		uint8_t b[64];
		fl = sizeof(*from);
		ssize_t n = recvfrom(t->fd, b, sizeof(b), 0, (struct sockaddr *)from, &fl);
		if (n >= 0 && pg_serve_same_ip(from, &t->client))
			break;
	}
	return connect(t->fd, (struct sockaddr *)from, fl) < 0 ? -1 : 0;
}

static struct source *source_new(struct test *t)
{
	struct source *so = calloc(1, sizeof(*so));
	if (so)
		so->buf = calloc(SOURCE_BATCH, t->size);
	if (!so || !so->buf) {
		free(so);
		return NULL;
	}
	so->t = t;
	for (int i = 0; i < SOURCE_BATCH; i++) {
		so->iov[i].iov_base = so->buf + (size_t)i * t->size;
		so->iov[i].iov_len = t->size;
		so->mm[i].msg_hdr.msg_iov = &so->iov[i];
		so->mm[i].msg_hdr.msg_iovlen = 1;
	}
	return so;
}

/* Sends the whole schedule from now, t0, until its end, STOP, or the
 * client refusing it. */
static void source_run(struct source *so)
{
	struct test *t = so->t;
	struct net_pace *p = &so->p;
	pg_serve_mark_first(t);
	double t0 = pg_now();
	net_pace_init(p, net_pace_pps(t->rate, t->size), t->time, t0);
	so->last = t0;
	double end = net_pace_end(p, t->time);
	/* In slices, so that STOP ends a slow schedule without waiting for
	 * its next datagram. */
	while (!atomic_load(&t->stopping) && !so->failed && pg_now() < end &&
	       !(p->total && p->sent >= p->total))
		net_pace_run(p, fmin(end, pg_now() + 0.05), source_send, so);
	t->send_s = so->last - t0;
}

static void *source_main(void *arg)
{
	struct test *t = arg;
	/* The kernel's default timer slack (50 us) would blur the schedule. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	struct sockaddr_storage from;
	struct source *so = find_client(t, &from) == 0 ? source_new(t) : NULL;
	if (!so)
		return NULL;
	source_run(so);
	if (so->refused >= ICMP_REFUSALS) {
		char who[80];
		pg_serve_addr_str(&from, who, sizeof(who));
		pg_serve_log(t->o, who, "%s stopped: the client refused %d datagrams (ICMP port "
			     "unreachable)", t->kind->name, so->refused);
	}
	free(so->buf);
	free(so);
	return NULL;
}

const struct pg_net_plane pg_dp_udp_count = { .run = count_main, .prepare = count_prepare };
const struct pg_net_plane pg_dp_udp_echo = { .run = echo_main };
const struct pg_net_plane pg_dp_udp_source = { .run = source_main };
