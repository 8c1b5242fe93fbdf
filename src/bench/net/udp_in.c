/* SPDX-License-Identifier: MIT */
/*
 * UDP ingress: the peer sends (START test=udp_source, see peer.h), this side
 * receives and counts, as netperf UDP_STREAM run from the tester against
 * the board (the seed's "UDP ingress") or iperf3 -u -R. The peer paces
 * with the same absolute schedule this side uses for egress (net/pace.h)
 * and numbers its datagrams, so loss is what the peer says it sent minus
 * what arrived here, and a datagram older than one already seen counts as
 * reordered.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net.h"

#define VLEN 64
/* After the schedule's end, this long without a datagram ends the count:
 * what is still queued on the way (a shaped link, a socket buffer) is in. */
#define QUIET_S 0.05
/* The first datagram tells the peer where to send; resent in case the
 * path drops it. */
#define HELLO_EVERY_S 0.1

int net_udp_in_supported(struct pg_ctx *ctx, struct net_session *s)
{
	if (pg_peer_has_test(s->peer, pg_net_kinds[PG_NET_UDP_SOURCE].name))
		return PG_OK;
	const char *v = pg_peer_version(s->peer);
	return pg_skip(ctx, "the peer at %s (%s%s) does not send UDP: update perfguide there",
		       s->where, v[0] ? "perfguide " : "an older perfguide that gives no version",
		       v);
}

struct counter {
	int fd;
	int64_t size;
	uint8_t *buf;
	struct mmsghdr mm[VLEN];
	struct iovec iov[VLEN];
	uint64_t got, next, reordered;
};

/* Counts what is queued, without waiting: returns how many datagrams were
 * read, 0 when none, -1 with errno set on a real error. */
static int count_some(struct counter *c)
{
	int n = recvmmsg(c->fd, c->mm, VLEN, MSG_DONTWAIT, NULL);
	if (n < 0)
		/* ECONNREFUSED: an ICMP error for a hello sent before the peer
		 * was ready */
		return errno == EINTR || errno == EAGAIN || errno == ECONNREFUSED ? 0 : -1;
	for (int i = 0; i < n; i++) {
		if (c->mm[i].msg_len != (unsigned)c->size)
			continue;
		const uint8_t *d = c->iov[i].iov_base;
		uint64_t seq = 0;
		for (int b = 0; b < 8; b++)
			seq = seq << 8 | d[b];
		c->got++;
		if (seq < c->next)
			c->reordered++;
		else
			c->next = seq + 1;
	}
	return n;
}

/* The socket the peer's datagrams come to, and VLEN buffers of `size`.
 * PG_OK, or the started test abandoned with the error set. */
static int counter_open(struct pg_ctx *ctx, struct net_session *s, int64_t size, uint64_t window,
			struct counter *c)
{
	memset(c, 0, sizeof(*c));
	c->size = size;
	c->fd = net_udp_data(ctx, s, window);
	c->buf = c->fd >= 0 ? malloc((size_t)VLEN * (size_t)size) : NULL;
	if (!c->buf) {
		if (c->fd >= 0)
			pg_error(ctx, "out of memory");
		net_abandon(ctx, s);
		if (c->fd >= 0)
			close(c->fd);
		return PG_ERROR;
	}
	for (int i = 0; i < VLEN; i++) {
		c->iov[i].iov_base = c->buf + (size_t)i * (size_t)size;
		c->iov[i].iov_len = (size_t)size;
		c->mm[i].msg_hdr.msg_iov = &c->iov[i];
		c->mm[i].msg_hdr.msg_iovlen = 1;
	}
	return PG_OK;
}

/* Counts until the peer's whole schedule p is in, or the time is up and
 * the socket is quiet. Returns 0, or the errno of a failed read. */
static int receive(struct counter *c, const struct net_pace *p, double seconds)
{
	double give_up = net_pace_end(p, seconds) + QUIET_S;
	double nominal = p->t0 + seconds, hello = 0;
	for (;;) {
		double now = pg_now();
		if (now >= give_up || (p->total && c->got >= p->total))
			break;
		if (!c->got && now - hello >= HELLO_EVERY_S) {
			uint8_t h[8] = { 0 };
			send(c->fd, h, sizeof(h), 0);
			hello = now;
		}
		struct pollfd pf = { .fd = c->fd, .events = POLLIN };
		int wait_ms = (int)((c->got ? QUIET_S : HELLO_EVERY_S) * 1000);
		int pr = poll(&pf, 1, wait_ms);
		if (pr == 0) {
			/* Quiet is the kernel's word (nothing came while we
			 * waited), not our clock's: a reader kept off the CPU
			 * finds its datagrams still queued. */
			if (pg_now() >= nominal)
				break;
			continue;
		}
		if (pr < 0 || count_some(c) >= 0)
			continue;
		return errno;
	}
	/* What is queued already arrived. */
	while (count_some(c) > 0)
		;
	return 0;
}

/* The figures of a trial from what arrived here and what the peer says it
 * sent. */
static void in_result(const struct counter *c, const struct pg_net_report *r, double seconds,
		      const struct net_pace *p, struct net_udp_result *out)
{
	out->sent = r->packets_tx;
	/* A datagram counted twice is not a gain. */
	out->received = c->got < r->packets_tx ? c->got : r->packets_tx;
	out->reordered = c->reordered;
	double send_s = r->send_s > 0 ? r->send_s : seconds;
	if (p->pps > 0)
		send_s = fmax(seconds, send_s);
	out->send_s = send_s > 0 ? send_s : 1e-9;
	out->offered_mbit = (double)out->sent * (double)c->size * 8e-6 / out->send_s;
	out->received_mbit = (double)out->received * (double)c->size * 8e-6 / out->send_s;
	out->received_kpps = (double)out->received / out->send_s / 1e3;
	out->loss_pct = 100.0 * (double)(out->sent - out->received) / (double)out->sent;
	out->remote_busy = r->have_busy ? r->busy_pct : -1;
}

int net_udp_in_trial(struct pg_ctx *ctx, struct net_session *s, int64_t size, double mbit,
		     double seconds, uint64_t window, struct net_udp_result *out)
{
	memset(out, 0, sizeof(*out));
	out->remote_busy = -1;
	struct pg_net_test t;
	net_udp_test_init(&t, PG_NET_UDP_SOURCE, size, window, seconds);
	t.rate = (uint64_t)llround(mbit * 1e6);
	int rc = net_start(ctx, s, &t);
	struct counter c;
	if (rc != PG_OK || (rc = counter_open(ctx, s, size, window, &c)) != PG_OK)
		return rc;
	/* The peer's schedule, to know when all of it is in and when to give
	 * up: the same computation the peer makes from START's rate. */
	struct net_pace p;
	net_pace_init(&p, net_pace_pps(t.rate, t.size), seconds, pg_now());
	int err = receive(&c, &p, seconds);
	free(c.buf);
	struct pg_net_report r;
	rc = net_stop(ctx, s, &r);
	close(c.fd);
	if (err)
		return pg_error(ctx, "peer %s: receiving: %s", s->where, strerror(err));
	if (rc != PG_OK)
		return rc;
	if (!r.packets_tx)
		return pg_error(ctx, "the peer at %s sent no datagram in %.3g s (does UDP from it "
				"reach this side? a firewall?)", s->where, seconds);
	in_result(&c, &r, seconds, &p, out);
	return PG_OK;
}

int net_udp_run(struct pg_ctx *ctx, struct net_session *s, int in, int64_t size, double mbit,
		double seconds, uint64_t window, struct net_udp_result *out)
{
	return (in ? net_udp_in_trial : net_udp_trial)(ctx, s, size, mbit, seconds, window, out);
}
