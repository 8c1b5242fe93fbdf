/*
 * `perfguide serve`: one thread per control connection (capped in all and
 * per source address), and per test one thread that accepts data
 * connections (or receives datagrams) plus one thread per data connection.
 * Every limit is checked before anything is allocated for a client; a
 * session slot is taken only once the client is authenticated; data goes
 * only to the control client's address, and everything the peer sends
 * draws on one rate budget (--max-rate).
 */
#include "net/serve.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/cpuload.h"
#include "core/text.h"
#include "core/timer.h"
#include "net/auth.h"
#include "net/pace.h"
#include "net/proto.h"
#include "pg_build.h"

#define MAX_DCONN 256		/* data connections per test, hard cap */
#define HARD_MAX_STREAMS (MAX_DCONN / 2)
#define MAX_WINDOW (1ULL << 30)
#define MAX_UDP 65507
#define DEFAULT_MSG 65536
#define DRAIN_QUIET 0.02	/* after STOP: this long without new bytes ends the count */
#define DRAIN_MAX 1.0		/* and a client still sending is cut off after this */
#define DATA_WAIT 2.0		/* a data connection's role byte or crr request */
#define SINK_BUF (256 * 1024)
#define SOURCE_BATCH 64		/* udp_source: datagrams per sendmmsg at most */
#define SEQ_BYTES 8		/* udp_source: the sequence number each datagram begins with */
#define MAX_RATE_BPS 1e12	/* udp_source: rate= above 1 Tbit/s is a mistake */
#define RATE_BURST 0.05		/* --max-rate: seconds of unused budget a sender may catch up */
/* udp_source: ICMP errors (port unreachable) after which it stops. One can
 * be a client closing at the end of its trial; more mean nobody at that
 * address wants the datagrams. */
#define ICMP_REFUSALS 3

enum kind { K_TCP_STREAM, K_TCP_MAERTS, K_TCP_BIDIR, K_TCP_RR, K_TCP_CRR, K_UDP_RR, K_UDP_STREAM,
	    K_UDP_SOURCE };
static const char *const kinds[] = { "tcp_stream", "tcp_maerts", "tcp_bidir", "tcp_rr",
				     "tcp_crr", "udp_rr", "udp_stream", "udp_source" };

struct conn;

struct server {
	const struct pg_serve_opts *o;
	struct pg_net_key *key;		/* NULL: no authentication */
	pthread_mutex_t mu;
	int sessions;
	struct conn **conn;		/* o->max_conns places, NULL: free */
	pthread_mutex_t rate_mu;
	double rate_next;		/* --max-rate: when the budget spent so far is due */
};

struct test;

struct dconn {
	struct test *t;
	int fd;
	int role;
	pthread_t th;
	atomic_int done;
};

struct test {
	const struct pg_serve_opts *o;
	struct server *s;
	int kind, udp;
	double time;
	uint64_t msg, window, size;
	uint64_t rate;		/* udp_source: payload bits/s, 0: unpaced */
	double send_s;		/* udp_source: its t0 to its last send */
	int streams;
	char cc[16];
	int fd;			/* listening TCP socket or the UDP socket */
	int stop_r, stop_w;	/* readable once the test is stopping */
	atomic_int stopping;
	double stop_time;
	struct sockaddr_storage client;
	double start, deadline;
	pthread_t th;
	pthread_mutex_t mu;
	int ndc;
	struct dconn *dc[MAX_DCONN];
	_Atomic uint64_t bytes_rx, bytes_tx, pkts_rx, pkts_tx;
	atomic_int have_first;
	double first;
	struct pg_cpu_mark m0;
};

static volatile sig_atomic_t sig_fd = -1;

static void on_signal(int sig)
{
	(void)sig;
	int saved = errno;
	if (sig_fd >= 0 && write(sig_fd, "x", 1) < 0) {
		/* nothing to do: the loop also wakes every half second */
	}
	errno = saved;
}

static void addr_str(const struct sockaddr_storage *a, char *buf, size_t len)
{
	char host[NI_MAXHOST], port[NI_MAXSERV];
	socklen_t al = a->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
						 : sizeof(struct sockaddr_in);
	if (getnameinfo((const struct sockaddr *)a, al, host, sizeof(host), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		snprintf(buf, len, "?");
		return;
	}
	snprintf(buf, len, a->ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, port);
}

static void vlog(const struct pg_serve_opts *o, const char *who, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void vlog(const struct pg_serve_opts *o, const char *who, const char *fmt, ...)
{
	if (!o->verbose)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* what a client sent may be in msg: escaped */
	fprintf(stderr, "perfguide serve: %s: ", who);
	pg_term_puts(stderr, msg);
	fputc('\n', stderr);
}

static int same_ip(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return 0;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			      &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr)) == 0;
	return 0;
}

static void add(_Atomic uint64_t *c, uint64_t n)
{
	atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

/* The window begins with the first data, not with READY. */
static void mark_first(struct test *t)
{
	if (atomic_load(&t->have_first))
		return;
	pthread_mutex_lock(&t->mu);
	if (!atomic_load(&t->have_first)) {
		pg_cpu_mark(&t->m0);
		t->first = pg_now();
		atomic_store(&t->have_first, 1);
	}
	pthread_mutex_unlock(&t->mu);
}

/* --max-rate: everything the peer sends, in all its tests together, draws
 * on one budget (a token bucket). The n bytes just sent take n * 8 / rate
 * seconds of it, and the sender waits until that is due; budget unused
 * (idle, or a sender late) is kept for RATE_BURST at most. */
static void throttle(struct test *t, uint64_t n)
{
	double rate = t->o->max_rate * 1e6;
	if (rate <= 0)
		return;
	struct server *s = t->s;
	pthread_mutex_lock(&s->rate_mu);
	double now = pg_now();
	if (s->rate_next < now - RATE_BURST)
		s->rate_next = now - RATE_BURST;
	s->rate_next += (double)n * 8.0 / rate;
	double due = s->rate_next;
	pthread_mutex_unlock(&s->rate_mu);
	for (;;) {
		double wait = due - pg_now();
		if (wait <= 0 || atomic_load(&t->stopping))
			return;
		if (wait > 0.05)
			wait = 0.05;
		struct timespec ts = { 0, (long)(wait * 1e9) };
		nanosleep(&ts, NULL);
	}
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

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
			add(&d->t->bytes_rx, (uint64_t)n);
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
			add(&t->bytes_tx, (uint64_t)n);
			throttle(t, (uint64_t)n);
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
	add(&t->bytes_rx, t->size);
	add(&t->pkts_rx, 1);
	add(&t->bytes_tx, t->size);
	add(&t->pkts_tx, 1);
	throttle(t, t->size);
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

/* tcp_crr: one transaction, then the peer closes. */
static void crr_one(struct test *t, int fd)
{
	uint8_t *buf = malloc(t->size);
	size_t off = 0;
	while (buf && off < t->size && data_wait(t, fd, POLLIN)) {
		ssize_t r = recv(fd, buf + off, t->size - off, MSG_DONTWAIT);
		if (r <= 0 && !(r < 0 && (errno == EINTR || errno == EAGAIN)))
			break;
		if (r > 0)
			off += (size_t)r;
	}
	if (buf && off == t->size && full_io(fd, buf, t->size, 1) == 0)
		count_rr(t);
	free(buf);
}

static void data_sockopts(struct test *t, int fd)
{
	if (t->kind == K_TCP_RR || t->kind == K_TCP_CRR) {
		int one = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	}
	if (t->cc[0])
		setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, t->cc, (socklen_t)strlen(t->cc));
}

static void *acceptor_main(void *arg)
{
	struct test *t = arg;
	int cap = 2 * t->streams;
	/* After STOP, connections already in the accept queue are still
	 * taken: a client that connected, sent and closed before STOP must
	 * find its bytes counted. */
	int draining = 0;
	for (;;) {
		if (!draining) {
			struct pollfd p[2] = { { .fd = t->fd, .events = POLLIN },
					       { .fd = t->stop_r, .events = POLLIN } };
			if (poll(p, 2, -1) < 0 && errno != EINTR)
				break;
			draining = p[1].revents != 0;
			if (!draining && !p[0].revents)
				continue;
		}
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		int c = accept4(t->fd, (struct sockaddr *)&from, &fl, SOCK_CLOEXEC);
		if (c < 0) {
			if (draining && errno != EINTR)
				break;
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
				sleep_ms(10);
			continue;
		}
		uint8_t role = 0;
		if (!same_ip(&from, &t->client) || !(draining || data_wait(t, c, POLLIN)) ||
		    recv(c, &role, 1, MSG_DONTWAIT) != 1 || (draining && role != PG_NET_ROLE_SINK)) {
			close(c);
			continue;
		}
		data_sockopts(t, c);
		mark_first(t);
		if (t->kind == K_TCP_CRR) {
			if (role == PG_NET_ROLE_ECHO)
				crr_one(t, c);
			close(c);
			continue;
		}
		void *(*fn)(void *) = role == PG_NET_ROLE_SINK ? sink_main :
				      role == PG_NET_ROLE_SOURCE ? source_main :
				      role == PG_NET_ROLE_ECHO ? echo_main : NULL;
		struct dconn *d = fn && t->ndc < cap ? calloc(1, sizeof(*d)) : NULL;
		if (!d) {
			close(c);
			continue;
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
	return NULL;
}

static void *udp_main(void *arg)
{
	struct test *t = arg;
	enum { VLEN = 32 };
	size_t slot = 65536;
	uint8_t *buf = malloc(VLEN * slot);
	struct mmsghdr mm[VLEN];
	struct iovec iov[VLEN];
	struct sockaddr_storage from[VLEN];
	while (buf) {
		memset(mm, 0, sizeof(mm));
		for (int i = 0; i < VLEN; i++) {
			iov[i].iov_base = buf + (size_t)i * slot;
			iov[i].iov_len = slot;
			mm[i].msg_hdr.msg_iov = &iov[i];
			mm[i].msg_hdr.msg_iovlen = 1;
			mm[i].msg_hdr.msg_name = &from[i];
			mm[i].msg_hdr.msg_namelen = sizeof(from[i]);
		}
		int n = recvmmsg(t->fd, mm, VLEN, MSG_WAITFORONE, NULL);
		int stopping = atomic_load(&t->stopping);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				break;
			/* SO_RCVTIMEO: DRAIN_QUIET without a datagram */
			if (stopping && pg_now() - t->stop_time >= DRAIN_QUIET)
				break;
			continue;
		}
		if (stopping && pg_now() - t->stop_time >= DRAIN_MAX)
			break;
		for (int i = 0; i < n; i++) {
			if (!same_ip(&from[i], &t->client))
				continue;
			mark_first(t);
			add(&t->bytes_rx, mm[i].msg_len);
			add(&t->pkts_rx, 1);
			if (t->kind != K_UDP_RR)
				continue;
			ssize_t s = sendto(t->fd, iov[i].iov_base, mm[i].msg_len, 0,
					   (struct sockaddr *)&from[i], mm[i].msg_hdr.msg_namelen);
			if (s > 0) {
				add(&t->bytes_tx, (uint64_t)s);
				add(&t->pkts_tx, 1);
				throttle(t, (uint64_t)s);
			}
		}
	}
	free(buf);
	return NULL;
}

/* udp_source: datagrams `size` bytes long, each beginning with its sequence
 * number, sent by the shared schedule (pace.h). */
struct source {
	struct test *t;
	struct net_pace *p;
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
		uint64_t seq = so->p->sent + i;
		uint8_t *d = so->buf + (size_t)i * t->size;
		for (int b = 0; b < SEQ_BYTES; b++)
			d[b] = (uint8_t)(seq >> (8 * (SEQ_BYTES - 1 - b)));
	}
	int k = sendmmsg(t->fd, so->mm, n, 0);
	if (k > 0) {
		add(&t->pkts_tx, (uint64_t)k);
		add(&t->bytes_tx, (uint64_t)k * t->size);
		so->last = pg_now();
		throttle(t, (uint64_t)k * t->size);
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

static void *source_udp_main(void *arg)
{
	struct test *t = arg;
	/* The kernel's default timer slack (50 us) would blur the schedule. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	/* The client's first datagram says where to send (NAT included). */
	struct sockaddr_storage from;
	socklen_t fl;
	for (;;) {
		if (atomic_load(&t->stopping) || pg_now() >= t->deadline)
			return NULL;
		uint8_t b[64];
		fl = sizeof(from);
		ssize_t n = recvfrom(t->fd, b, sizeof(b), 0, (struct sockaddr *)&from, &fl);
		if (n >= 0 && same_ip(&from, &t->client))
			break;
	}
	if (connect(t->fd, (struct sockaddr *)&from, fl) < 0)
		return NULL;
	struct source *so = calloc(1, sizeof(*so));
	struct net_pace p;
	if (so)
		so->buf = calloc(SOURCE_BATCH, t->size);
	if (!so || !so->buf) {
		free(so);
		return NULL;
	}
	so->t = t;
	so->p = &p;
	for (int i = 0; i < SOURCE_BATCH; i++) {
		so->iov[i].iov_base = so->buf + (size_t)i * t->size;
		so->iov[i].iov_len = t->size;
		so->mm[i].msg_hdr.msg_iov = &so->iov[i];
		so->mm[i].msg_hdr.msg_iovlen = 1;
	}
	mark_first(t);
	double t0 = pg_now();
	net_pace_init(&p, net_pace_pps(t->rate, t->size), t->time, t0);
	so->last = t0;
	double end = net_pace_end(&p, t->time);
	/* In slices, so that STOP ends a slow schedule without waiting for
	 * its next datagram. */
	while (!atomic_load(&t->stopping) && !so->failed && pg_now() < end &&
	       !(p.total && p.sent >= p.total))
		net_pace_run(&p, fmin(end, pg_now() + 0.05), source_send, so);
	t->send_s = so->last - t0;
	if (so->refused >= ICMP_REFUSALS) {
		char who[80];
		addr_str(&from, who, sizeof(who));
		vlog(t->o, who, "udp_source stopped: the client refused %d datagrams (ICMP port "
		     "unreachable)", so->refused);
	}
	free(so->buf);
	free(so);
	return NULL;
}

/* Reads and checks a START against the limits. 0, or -1 with err set. */
static int parse_start(const struct pg_serve_opts *o, const struct pg_net_frame *f, struct test *t,
		       char *err, size_t len)
{
	const char *kind = pg_net_get(f, "test");
	t->kind = -1;
	for (int i = 0; kind && i < (int)(sizeof(kinds) / sizeof(kinds[0])); i++)
		if (strcmp(kind, kinds[i]) == 0)
			t->kind = i;
	if (t->kind < 0) {
		snprintf(err, len, "unknown test '%.32s'", kind ? kind : "");
		return -1;
	}
	t->udp = t->kind == K_UDP_RR || t->kind == K_UDP_STREAM || t->kind == K_UDP_SOURCE;
	uint64_t streams, maxsize = t->udp && o->max_msg > MAX_UDP ? MAX_UDP : o->max_msg;
	if (pg_net_get_double(f, "time", 0, 0, 1e9, &t->time, err, len) < 0 ||
	    pg_net_get_u64(f, "msg", 0, 0, UINT64_MAX, &t->msg, err, len) < 0 ||
	    pg_net_get_u64(f, "window", 0, 0, MAX_WINDOW, &t->window, err, len) < 0 ||
	    pg_net_get_u64(f, "size", 0, 0, UINT64_MAX, &t->size, err, len) < 0 ||
	    pg_net_get_u64(f, "streams", 0, 0, UINT64_MAX, &streams, err, len) < 0 ||
	    pg_net_get_u64(f, "rate", 0, 0, (uint64_t)MAX_RATE_BPS, &t->rate, err, len) < 0)
		return -1;
	if (t->time > o->max_time) {
		snprintf(err, len, "time=%g s is over this peer's limit of %g s (--max-time)",
			 t->time, o->max_time);
		return -1;
	}
	if (t->msg > o->max_msg || t->size > maxsize) {
		snprintf(err, len, "%s=%" PRIu64 " is over this peer's limit of %" PRIu64 " bytes%s",
			 t->msg > o->max_msg ? "msg" : "size", t->msg > o->max_msg ? t->msg : t->size,
			 t->msg > o->max_msg ? o->max_msg : maxsize,
			 t->size > MAX_UDP && t->udp ? " (a UDP datagram)" : " (--max-msg)");
		return -1;
	}
	if (t->kind == K_UDP_SOURCE && t->size < SEQ_BYTES) {
		snprintf(err, len, "size=%" PRIu64 " is too small for udp_source (at least %d bytes: "
			 "the sequence number)", t->size, SEQ_BYTES);
		return -1;
	}
	/* --max-rate caps what this peer sends, here as in every test. */
	if (t->kind == K_UDP_SOURCE && o->max_rate > 0 &&
	    (t->rate == 0 || (double)t->rate > o->max_rate * 1e6))
		t->rate = (uint64_t)(o->max_rate * 1e6);
	if (streams > (uint64_t)o->max_streams) {
		snprintf(err, len, "streams=%" PRIu64 " is over this peer's limit of %d (--max-streams)",
			 streams, o->max_streams);
		return -1;
	}
	const char *cc = pg_net_get(f, "cc");
	if (cc && (strlen(cc) >= sizeof(t->cc) || strspn(cc, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(cc))) {
		snprintf(err, len, "bad congestion control name '%.32s'", cc);
		return -1;
	}
	snprintf(t->cc, sizeof(t->cc), "%s", cc ? cc : "");
	if (t->udp)
		t->cc[0] = '\0';
	if (t->time == 0)
		t->time = o->max_time;
	if (t->msg == 0)
		t->msg = o->max_msg < DEFAULT_MSG ? o->max_msg : DEFAULT_MSG;
	if (t->size == 0 && t->kind != K_UDP_STREAM)
		t->size = 1;
	t->streams = streams ? (int)streams : 1;
	return 0;
}

static int set_buffers(int fd, uint64_t window)
{
	if (!window)
		return 0;
	int w = (int)window;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof(w)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof(w)) < 0)
		return -1;
	return 0;
}

/* The peer is the tester: a UDP stream it counts is not to be limited by
 * its own socket buffer (a few hundred small datagrams by default, which a
 * receiving thread kept off the CPU for a millisecond overflows). With no
 * window asked, it receives into the largest buffer its system allows
 * (the kernel caps the request at net.core.rmem_max). */
#define SINK_RCVBUF (16 << 20)
static void sink_rcvbuf(struct test *t)
{
	int w = SINK_RCVBUF;
	if (t->kind == K_UDP_STREAM && !t->window)
		setsockopt(t->fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof(w));
}

static void test_free(struct test *t)
{
	if (t->fd >= 0)
		close(t->fd);
	if (t->stop_r >= 0)
		close(t->stop_r);
	if (t->stop_w >= 0)
		close(t->stop_w);
	pthread_mutex_destroy(&t->mu);
	free(t);
}

/* Sets up the data socket on the control connection's local address and its
 * thread. Returns the test, or NULL with err set. */
static struct test *test_start(struct server *s, int cfd,
			       const struct sockaddr_storage *client, const struct pg_net_frame *f,
			       char *err, size_t len)
{
	const struct pg_serve_opts *o = s->o;
	struct test *t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	t->o = o;
	t->s = s;
	t->fd = t->stop_r = t->stop_w = -1;
	pthread_mutex_init(&t->mu, NULL);
	t->client = *client;
	if (parse_start(o, f, t, err, len) < 0)
		goto fail;
	struct sockaddr_storage local;
	socklen_t ll = sizeof(local);
	if (getsockname(cfd, (struct sockaddr *)&local, &ll) < 0)
		goto fail_errno;
	if (local.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&local)->sin6_port = 0;
	else
		((struct sockaddr_in *)&local)->sin_port = 0;
	t->fd = socket(local.ss_family, (t->udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
	if (t->fd < 0 || set_buffers(t->fd, t->window) < 0)
		goto fail_errno;
	sink_rcvbuf(t);
	if (t->cc[0] && setsockopt(t->fd, IPPROTO_TCP, TCP_CONGESTION, t->cc, (socklen_t)strlen(t->cc)) < 0) {
		if (errno == EPERM)
			snprintf(err, len, "congestion control '%s' is not allowed on the peer "
				 "(net.ipv4.tcp_allowed_congestion_control)", t->cc);
		else
			snprintf(err, len, "congestion control '%s' is not available on the peer "
				 "(net.ipv4.tcp_available_congestion_control): %s", t->cc, strerror(errno));
		goto fail;
	}
	if (bind(t->fd, (struct sockaddr *)&local, ll) < 0)
		goto fail_errno;
	if (t->udp) {
		struct timeval tv = { 0, (suseconds_t)(DRAIN_QUIET * 1e6) };
		setsockopt(t->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	} else if (listen(t->fd, 128) < 0 || fcntl(t->fd, F_SETFL, O_NONBLOCK) < 0) {
		goto fail_errno;
	}
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		goto fail_errno;
	t->stop_r = p[0];
	t->stop_w = p[1];
	t->start = pg_now();
	t->deadline = t->start + t->time;
	void *(*fn)(void *) = t->kind == K_UDP_SOURCE ? source_udp_main :
			      t->udp ? udp_main : acceptor_main;
	if (pthread_create(&t->th, NULL, fn, t) != 0) {
		snprintf(err, len, "cannot start a thread");
		goto fail;
	}
	return t;
fail_errno:
	snprintf(err, len, "data socket: %s", strerror(errno));
fail:
	test_free(t);
	return NULL;
}

/* STOP: the window ends now; what is still in flight is counted after. */
static void test_end(struct test *t, struct pg_net_report *r)
{
	struct pg_cpu_mark m1;
	double stop = pg_now();
	pg_cpu_mark(&m1);
	t->stop_time = stop;
	atomic_store(&t->stopping, 1);
	if (write(t->stop_w, "x", 1) < 0) {
		/* a full pipe is already readable */
	}
	pthread_join(t->th, NULL);
	/* Sinks count until the client closed them or DRAIN_QUIET passed
	 * without a byte, so a client that closes before STOP gets an exact
	 * count. */
	uint64_t last = atomic_load(&t->bytes_rx);
	double quiet = pg_now();
	while (pg_now() - stop < DRAIN_MAX) {
		int live = 0, waiting = 0;
		for (int i = 0; i < t->ndc; i++) {
			if (t->dc[i]->role != PG_NET_ROLE_SINK || atomic_load(&t->dc[i]->done))
				continue;
			live++;
			/* Bytes already in a sink's socket are not quiet: on a
			 * loaded machine its thread may not have run yet. */
			int q = 0;
			waiting += ioctl(t->dc[i]->fd, FIONREAD, &q) == 0 && q > 0;
		}
		if (!live)
			break;
		sleep_ms(2);
		uint64_t now_rx = atomic_load(&t->bytes_rx);
		if (now_rx != last || waiting) {
			last = now_rx;
			quiet = pg_now();
		} else if (pg_now() - quiet >= DRAIN_QUIET) {
			break;
		}
	}
	for (int i = 0; i < t->ndc; i++)
		shutdown(t->dc[i]->fd, SHUT_RDWR);
	for (int i = 0; i < t->ndc; i++) {
		pthread_join(t->dc[i]->th, NULL);
		close(t->dc[i]->fd);
		free(t->dc[i]);
	}
	t->ndc = 0;
	memset(r, 0, sizeof(*r));
	r->bytes_rx = atomic_load(&t->bytes_rx);
	r->bytes_tx = atomic_load(&t->bytes_tx);
	r->packets_rx = atomic_load(&t->pkts_rx);
	r->packets_tx = atomic_load(&t->pkts_tx);
	if (atomic_load(&t->have_first)) {
		struct pg_cpu_load l;
		pg_cpu_load(&t->m0, &m1, &l);
		r->seconds = stop > t->first ? stop - t->first : 0;
		r->have_busy = l.have_busy;
		r->busy_pct = l.busy_pct;
		/* RUSAGE_SELF sums the threads and may step back a little */
		r->user_s = l.self_user_s > 0 ? l.self_user_s : 0;
		r->sys_s = l.self_sys_s > 0 ? l.self_sys_s : 0;
	}
	r->send_s = t->send_s;
}

struct conn {
	struct server *s;
	int fd;
	int place;		/* in s->conn */
	double since;		/* when it was accepted */
	struct sockaddr_storage peer;
	char name[80];
};

static int send_frame(struct conn *c, struct pg_net_out *o)
{
	char e[200];
	if (pg_net_out_end(o) < 0 || pg_net_send(c->fd, o, c->s->o->read_timeout, e, sizeof(e)) < 0) {
		vlog(c->s->o, c->name, "dropped: %s", e);
		return -1;
	}
	return 0;
}

static void finish(struct conn *c, int type, const char *why)
{
	struct pg_net_out o;
	pg_net_out_begin(&o, type);
	pg_net_out_add(&o, "reason", "%s", why);
	send_frame(c, &o);
	vlog(c->s->o, c->name, "%s: %s", type == PG_NET_BUSY ? "busy" : "refused", why);
}

/* A session slot (--max-tests), once the client is who it must be. 0, or -1
 * after a BUSY. */
static int take_slot(struct conn *c, int *slot)
{
	struct server *s = c->s;
	pthread_mutex_lock(&s->mu);
	*slot = s->sessions < s->o->max_tests;
	s->sessions += *slot;
	pthread_mutex_unlock(&s->mu);
	if (*slot)
		return 0;
	char why[100];
	snprintf(why, sizeof(why), "%d sessions running (--max-tests %d)", s->o->max_tests,
		 s->o->max_tests);
	finish(c, PG_NET_BUSY, why);
	return -1;
}

static void *conn_main(void *arg)
{
	struct conn *c = arg;
	struct server *s = c->s;
	const struct pg_serve_opts *o = s->o;
	struct pg_net_frame *f = malloc(sizeof(*f));
	struct pg_net_out out;
	struct test *t = NULL;
	uint8_t nonce[PG_NET_NONCE];
	char err[300], hex[2 * PG_NET_NONCE + 1];
	enum { HELLO, AUTH, READY } state = HELLO;
	int slot = 0;
	char tests[160] = "";
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		snprintf(tests + strlen(tests), sizeof(tests) - strlen(tests), "%s%s", i ? "," : "",
			 kinds[i]);

	int one = 1;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	while (f) {
		/* Before its session a connection has --idle-timeout in all,
		 * however it spends it. In a session, a running test holds the
		 * connection for its time, then the session timeout applies
		 * again. */
		int bad, r;
		if (state != READY) {
			r = pg_net_recv_by(c->fd, f, c->since + o->idle_timeout, o->read_timeout, &bad,
					   err, sizeof(err));
		} else {
			double idle = o->session_timeout;
			if (t)
				idle += fmax(0, t->deadline - pg_now());
			r = pg_net_recv(c->fd, f, idle, o->read_timeout, &bad, err, sizeof(err));
		}
		if (r < 0) {
			if (bad)
				finish(c, PG_NET_ERROR, err);
			else
				vlog(o, c->name, "dropped: %s", err);
			break;
		}
		if (f->type == PG_NET_BYE)
			break;
		if (f->type == PG_NET_HELLO && state == HELLO) {
			/* Without a key, HELLO is all a client has to say; with
			 * one, the slot waits for the proof. */
			if (!s->key && take_slot(c, &slot) < 0)
				break;
			pg_net_out_begin(&out, PG_NET_WELCOME);
			if (s->key) {
				if (pg_net_nonce(nonce) < 0) {
					finish(c, PG_NET_ERROR, "no random numbers for a nonce");
					break;
				}
				pg_net_hex(nonce, sizeof(nonce), hex);
				pg_net_out_add(&out, "auth", "hmac-sha256");
				pg_net_out_add(&out, "nonce", "%s", hex);
			} else {
				pg_net_out_add(&out, "auth", "none");
			}
			pg_net_out_add(&out, "max_time", "%g", o->max_time);
			pg_net_out_add(&out, "max_msg", "%" PRIu64, o->max_msg);
			pg_net_out_add(&out, "max_streams", "%d", o->max_streams);
			pg_net_out_add(&out, "max_rate", "%g", o->max_rate);
			pg_net_out_add(&out, "version", "%s", PG_VERSION);
			pg_net_out_add(&out, "tests", "%s", tests);
			if (send_frame(c, &out) < 0)
				break;
			state = s->key ? AUTH : READY;
			vlog(o, c->name, "session (%s)", s->key ? "awaiting the key" : "no key");
		} else if (f->type == PG_NET_AUTH && state == AUTH) {
			const char *mac = pg_net_get(f, "mac");
			if (!mac || !pg_net_mac_ok(s->key, nonce, sizeof(nonce), mac)) {
				finish(c, PG_NET_ERROR, "wrong key");
				break;
			}
			if (take_slot(c, &slot) < 0)
				break;
			pg_net_out_begin(&out, PG_NET_AUTH_OK);
			if (send_frame(c, &out) < 0)
				break;
			state = READY;
		} else if (f->type == PG_NET_START && state == READY && !t) {
			t = test_start(s, c->fd, &c->peer, f, err, sizeof(err));
			if (!t) {
				/* a refused test leaves the session open */
				pg_net_out_begin(&out, PG_NET_ERROR);
				pg_net_out_add(&out, "reason", "%s", err);
				vlog(o, c->name, "test refused: %s", err);
				if (send_frame(c, &out) < 0)
					break;
				continue;
			}
			struct sockaddr_storage a;
			socklen_t al = sizeof(a);
			getsockname(t->fd, (struct sockaddr *)&a, &al);
			int port = ntohs(a.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&a)->sin6_port
								 : ((struct sockaddr_in *)&a)->sin_port);
			pg_net_out_begin(&out, PG_NET_READY);
			pg_net_out_add(&out, "port", "%d", port);
			pg_net_out_add(&out, "time", "%g", t->time);
			if (t->kind == K_UDP_SOURCE)
				pg_net_out_add(&out, "rate", "%" PRIu64, t->rate);
			vlog(o, c->name, "%s on port %d", kinds[t->kind], port);
			if (send_frame(c, &out) < 0)
				break;
		} else if (f->type == PG_NET_STOP && t) {
			struct pg_net_report r;
			test_end(t, &r);
			test_free(t);
			t = NULL;
			pg_net_out_begin(&out, PG_NET_REPORT);
			pg_net_out_add(&out, "bytes_rx", "%" PRIu64, r.bytes_rx);
			pg_net_out_add(&out, "bytes_tx", "%" PRIu64, r.bytes_tx);
			pg_net_out_add(&out, "packets_rx", "%" PRIu64, r.packets_rx);
			pg_net_out_add(&out, "packets_tx", "%" PRIu64, r.packets_tx);
			pg_net_out_add(&out, "seconds", "%.9f", r.seconds);
			if (r.have_busy)
				pg_net_out_add(&out, "busy_pct", "%.4f", r.busy_pct);
			pg_net_out_add(&out, "user_s", "%.6f", r.user_s);
			pg_net_out_add(&out, "sys_s", "%.6f", r.sys_s);
			if (r.send_s > 0)
				pg_net_out_add(&out, "send_s", "%.9f", r.send_s);
			vlog(o, c->name, "report bytes_rx=%" PRIu64 " bytes_tx=%" PRIu64, r.bytes_rx, r.bytes_tx);
			if (send_frame(c, &out) < 0)
				break;
		} else {
			snprintf(err, sizeof(err), "unexpected %s%s", pg_net_msg_name(f->type),
				 state == AUTH ? " before the key" : state == HELLO ? " before HELLO" : "");
			finish(c, PG_NET_ERROR, err);
			break;
		}
	}
	if (t) {
		struct pg_net_report r;
		test_end(t, &r);
		test_free(t);
		vlog(o, c->name, "test ended without STOP");
	}
	close(c->fd);
	pthread_mutex_lock(&s->mu);
	s->conn[c->place] = NULL;
	s->sessions -= slot;
	pthread_mutex_unlock(&s->mu);
	free(f);
	free(c);
	return NULL;
}

static int is_loopback(const struct sockaddr_storage *a)
{
	if (a->ss_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)a)->sin_addr.s_addr) >> 24) == 127;
	if (a->ss_family == AF_INET6)
		return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)a)->sin6_addr);
	return 0;
}

void pg_serve_defaults(struct pg_serve_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->bind = "0.0.0.0";
	o->port = PG_NET_PORT;
	o->max_time = -1;
	o->max_rate = -1;
	o->max_msg = 1 << 20;
	o->max_streams = 16;
	o->max_tests = 4;
	o->max_conns = 64;
	o->max_conns_per_addr = 8;
	o->idle_timeout = 3;
	o->session_timeout = 120;
	o->read_timeout = 5;
}

static int listen_on(const struct pg_serve_opts *o, struct sockaddr_storage *a, char *err, size_t len)
{
	char port[16];
	snprintf(port, sizeof(port), "%d", o->port);
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	int gr = getaddrinfo(o->bind, port, &hints, &ai);
	if (gr != 0) {
		snprintf(err, len, "bad --bind address '%s': %s", o->bind, gai_strerror(gr));
		return -1;
	}
	int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int one = 1;
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, SOMAXCONN) < 0) {
		snprintf(err, len, "cannot listen on %s port %d: %s", o->bind, o->port, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	socklen_t al = sizeof(*a);
	getsockname(fd, (struct sockaddr *)a, &al);
	return fd;
}

/* Answers a connection refused at once with BUSY saying why (its socket
 * buffer is empty: this cannot block), then closes it. */
static void refuse(const struct pg_serve_opts *o, int fd, const char *who, const char *why)
{
	struct pg_net_out out;
	char e[100];
	pg_net_out_begin(&out, PG_NET_BUSY);
	pg_net_out_add(&out, "reason", "%s", why);
	if (pg_net_out_end(&out) == 0)
		pg_net_send(fd, &out, 0, e, sizeof(e));
	vlog(o, who, "closed at once: %s", why);
	close(fd);
}

/* A place for a new control connection from `from`: its index, or -1 with
 * why set (--max-conns, --max-conns-per-addr). Called with s->mu held. */
static int find_place(struct server *s, const struct sockaddr_storage *from, char *why, size_t len)
{
	int place = -1, same = 0;
	for (int i = 0; i < s->o->max_conns; i++) {
		if (!s->conn[i])
			place = place < 0 ? i : place;
		else
			same += same_ip(&s->conn[i]->peer, from);
	}
	if (same >= s->o->max_conns_per_addr) {
		char host[NI_MAXHOST] = "?";
		socklen_t al = from->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
							    : sizeof(struct sockaddr_in);
		getnameinfo((const struct sockaddr *)from, al, host, sizeof(host), NULL, 0,
			    NI_NUMERICHOST);
		snprintf(why, len, "%d control connections from %s (--max-conns-per-addr)", same, host);
		return -1;
	}
	if (place < 0)
		snprintf(why, len, "%d control connections open (--max-conns)", s->o->max_conns);
	return place;
}

int pg_serve(const struct pg_serve_opts *opts, char *err, size_t len)
{
	/* Detached session threads use them until the process ends. */
	static struct server s;
	static struct pg_serve_opts eff;
	eff = *opts;
	if (eff.max_rate < 0)
		eff.max_rate = eff.psk_file ? 0 : PG_SERVE_OPEN_RATE;
	if (eff.max_time < 0)
		eff.max_time = eff.psk_file ? PG_SERVE_KEYED_TIME : PG_SERVE_OPEN_TIME;
	const struct pg_serve_opts *o = &eff;
	s.o = o;
	signal(SIGPIPE, SIG_IGN);
	if (o->max_streams > HARD_MAX_STREAMS) {
		snprintf(err, len, "--max-streams is at most %d", HARD_MAX_STREAMS);
		return -1;
	}
	if (o->max_conns < 1 || o->max_conns_per_addr < 1) {
		snprintf(err, len, "--max-conns and --max-conns-per-addr are at least 1");
		return -1;
	}
	if (o->psk_file) {
		int loose = 0;
		s.key = malloc(sizeof(*s.key));
		if (!s.key || pg_net_load_key(o->psk_file, s.key, &loose, err, len) < 0) {
			free(s.key);
			return -1;
		}
		if (loose)
			fprintf(stderr, "perfguide serve: warning: key file %s can be read by others "
				"(chmod 600 %s)\n", o->psk_file, o->psk_file);
	}
	struct sockaddr_storage a;
	int lfd = listen_on(o, &a, err, len);
	if (lfd < 0) {
		free(s.key);
		return -1;
	}
	char name[80];
	addr_str(&a, name, sizeof(name));
	if (!is_loopback(&a) && !o->psk_file) {
		char cap[64] = "no rate cap";
		if (o->max_rate > 0)
			snprintf(cap, sizeof(cap), "at most %g Mbit/s sent", o->max_rate);
		fprintf(stderr, "perfguide serve: warning: listening on %s without --psk-file: anyone "
			"who reaches this port can run network tests against this machine (%s, "
			"%g s a test)\n", name, cap, o->max_time);
	}
	pthread_mutex_init(&s.mu, NULL);
	pthread_mutex_init(&s.rate_mu, NULL);
	s.conn = calloc((size_t)o->max_conns, sizeof(*s.conn));
	int sp[2];
	if (!s.conn || pipe2(sp, O_CLOEXEC | O_NONBLOCK) < 0) {
		if (s.conn)
			snprintf(err, len, "pipe: %s", strerror(errno));
		else
			snprintf(err, len, "out of memory");
		free(s.conn);
		s.conn = NULL;
		close(lfd);
		free(s.key);
		return -1;
	}
	sig_fd = sp[1];
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	pid_t parent = getppid();
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("listening on %s\n", name);
	fflush(stdout);

	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (;;) {
		struct pollfd p[2] = { { .fd = lfd, .events = POLLIN }, { .fd = sp[0], .events = POLLIN } };
		int r = poll(p, 2, 500);
		if (r < 0 && errno != EINTR)
			break;
		if (p[1].revents)
			break;
		if (o->exit_with_parent && getppid() != parent)
			break;
		if (r <= 0 || !p[0].revents)
			continue;
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		int cfd = accept4(lfd, (struct sockaddr *)&from, &fl, SOCK_CLOEXEC);
		if (cfd < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
				sleep_ms(10);
			continue;
		}
		char who[80], why[160];
		addr_str(&from, who, sizeof(who));
		struct conn *c = calloc(1, sizeof(*c));
		if (!c) {
			refuse(o, cfd, who, "out of memory");
			continue;
		}
		c->s = &s;
		c->fd = cfd;
		c->peer = from;
		c->since = pg_now();
		snprintf(c->name, sizeof(c->name), "%s", who);
		pthread_mutex_lock(&s.mu);
		c->place = find_place(&s, &from, why, sizeof(why));
		if (c->place >= 0)
			s.conn[c->place] = c;
		pthread_mutex_unlock(&s.mu);
		if (c->place < 0) {
			free(c);
			refuse(o, cfd, who, why);
			continue;
		}
		pthread_t th;
		if (pthread_create(&th, &attr, conn_main, c) == 0)
			continue;
		pthread_mutex_lock(&s.mu);
		s.conn[c->place] = NULL;
		pthread_mutex_unlock(&s.mu);
		free(c);
		refuse(o, cfd, who, "cannot start a thread");
	}
	pthread_attr_destroy(&attr);
	close(lfd);
	/* Sessions still running end with the process. */
	return 0;
}
