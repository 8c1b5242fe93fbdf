/* SPDX-License-Identifier: MIT */
/*
 * One test's lifecycle on the peer (serve_int.h): START read, every value
 * in its range and within the peer's limits before a socket is opened for
 * it; its data socket on the control connection's local address, and the
 * thread of its kind's data plane; STOP: the window ends, what is still in
 * flight is counted, the threads are joined and the REPORT's figures taken.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/timer.h"
#include "net/proto.h"
#include "net/serve_int.h"
#include "core/err.h"

#define MAX_WINDOW (1ULL << 30)
#define MAX_UDP 65507
#define DEFAULT_MSG 65536
#define MAX_RATE_BPS 1e12	/* rate= above 1 Tbit/s is a mistake */

void pg_serve_count(_Atomic uint64_t *c, uint64_t n)
{
	atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

/* The window begins with the first data, not with READY. */
void pg_serve_mark_first(struct test *t)
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

/* START's values, each in its range; *streams as asked. */
static int read_start(const struct pg_net_frame *f, struct test *t, uint64_t *streams, char *err,
		      size_t errlen)
{
	const char *kind = pg_net_get(f, "test");
	t->kind = pg_net_kind_find(kind);
	if (!t->kind)
		return pg_err(err, errlen, "unknown test '%.32s'", kind ? kind : "");
	if (pg_net_get_double(f, "time", 0, 0, 1e9, &t->time, err, errlen) < 0 ||
	    pg_net_get_u64(f, "msg", 0, 0, UINT64_MAX, &t->msg, err, errlen) < 0 ||
	    pg_net_get_u64(f, "window", 0, 0, MAX_WINDOW, &t->window, err, errlen) < 0 ||
	    pg_net_get_u64(f, "size", 0, 0, UINT64_MAX, &t->size, err, errlen) < 0 ||
	    pg_net_get_u64(f, "streams", 0, 0, UINT64_MAX, streams, err, errlen) < 0 ||
	    pg_net_get_u64(f, "rate", 0, 0, (uint64_t)MAX_RATE_BPS, &t->rate, err, errlen) < 0)
		return -1;
	return 0;
}

/* The peer's limits (--max-time, --max-msg, --max-streams); a source's
 * rate capped at --max-rate. */
static int check_limits(const struct pg_serve_opts *o, struct test *t, uint64_t streams, char *err,
			size_t errlen)
{
	int udp = t->kind->udp;
	uint64_t maxsize = udp && o->max_msg > MAX_UDP ? MAX_UDP : o->max_msg;
	if (t->time > o->max_time)
		return pg_err(err, errlen, "time=%g s is over this peer's limit of %g s (--max-time)",
			      t->time, o->max_time);
	if (t->msg > o->max_msg || t->size > maxsize)
		return pg_err(err, errlen, "%s=%" PRIu64 " is over this peer's limit of %" PRIu64 " bytes%s",
			      t->msg > o->max_msg ? "msg" : "size", t->msg > o->max_msg ? t->msg : t->size,
			      t->msg > o->max_msg ? o->max_msg : maxsize,
			      t->size > MAX_UDP && udp ? " (a UDP datagram)" : " (--max-msg)");
	if (t->kind->source && t->size < SERVE_SEQ_BYTES)
		return pg_err(err, errlen, "size=%" PRIu64 " is too small for %s (at least %d bytes: "
			      "the sequence number)", t->size, t->kind->name, SERVE_SEQ_BYTES);
	/* --max-rate caps what this peer sends, here as in every test. */
	if (t->kind->source && o->max_rate > 0 && (t->rate == 0 || (double)t->rate > o->max_rate * 1e6))
		t->rate = (uint64_t)(o->max_rate * 1e6);
	if (streams > (uint64_t)o->max_streams)
		return pg_err(err, errlen, "streams=%" PRIu64 " is over this peer's limit of %d (--max-streams)",
			      streams, o->max_streams);
	return 0;
}

/* cc=, a name of [a-z0-9_-] (it goes to setsockopt); none on UDP. */
static int read_cc(const struct pg_net_frame *f, struct test *t, char *err, size_t errlen)
{
	const char *cc = pg_net_get(f, "cc");
	if (cc && (strlen(cc) >= sizeof(t->cc) ||
		   strspn(cc, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(cc))) {
		return pg_err(err, errlen, "bad congestion control name '%.32s'", cc);
	}
	snprintf(t->cc, sizeof(t->cc), "%s", cc && !t->kind->udp ? cc : "");
	return 0;
}

/* Reads and checks a START against the limits. 0, or -1 with err set. */
static int parse_start(const struct pg_serve_opts *o, const struct pg_net_frame *f, struct test *t,
		       char *err, size_t errlen)
{
	uint64_t streams;
	if (read_start(f, t, &streams, err, errlen) < 0 || check_limits(o, t, streams, err, errlen) < 0 ||
	    read_cc(f, t, err, errlen) < 0)
		return -1;
	if (t->time == 0)
		t->time = o->max_time;
	if (t->msg == 0)
		t->msg = o->max_msg < DEFAULT_MSG ? o->max_msg : DEFAULT_MSG;
	/* rr: the request's bytes, source: the datagram's (at least 8 by now);
	 * a counting kind does not read it */
	if (t->size == 0)
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

static int socket_error(char *err, size_t errlen)
{
	return pg_err(err, errlen, "data socket: %s", strerror(errno));
}

/* A congestion control the peer's kernel refuses: what to change there. */
static int cc_refused(const struct test *t, char *err, size_t errlen)
{
	if (errno == EPERM)
		pg_err(err, errlen,
		       "congestion control '%s' is not allowed on the peer "
		       "(net.ipv4.tcp_allowed_congestion_control)",
		       t->cc);
	else
		pg_err(err, errlen,
		       "congestion control '%s' is not available on the peer "
		       "(net.ipv4.tcp_available_congestion_control): %s",
		       t->cc, strerror(errno));
	return -1;
}

/* The data socket on the control connection's local address, any port:
 * listening (TCP) or bound (UDP). */
static int open_data_socket(struct test *t, int cfd, char *err, size_t errlen)
{
	struct sockaddr_storage local;
	socklen_t ll = sizeof(local);
	if (getsockname(cfd, (struct sockaddr *)&local, &ll) < 0)
		return socket_error(err, errlen);
	if (local.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&local)->sin6_port = 0;
	else
		((struct sockaddr_in *)&local)->sin_port = 0;
	t->fd = socket(local.ss_family, (t->kind->udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
	if (t->fd < 0 || set_buffers(t->fd, t->window) < 0)
		return socket_error(err, errlen);
	if (t->kind->plane->prepare)
		t->kind->plane->prepare(t);
	if (t->cc[0] && setsockopt(t->fd, IPPROTO_TCP, TCP_CONGESTION, t->cc, (socklen_t)strlen(t->cc)) < 0)
		return cc_refused(t, err, errlen);
	if (bind(t->fd, (struct sockaddr *)&local, ll) < 0)
		return socket_error(err, errlen);
	if (t->kind->udp) {
		struct timeval tv = { 0, (suseconds_t)(SERVE_DRAIN_QUIET * 1e6) };
		setsockopt(t->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	} else if (listen(t->fd, 128) < 0 || fcntl(t->fd, F_SETFL, O_NONBLOCK) < 0) {
		return socket_error(err, errlen);
	}
	return 0;
}

/* The stop pipe, the clock, and the kind's data plane in its thread. */
static int start_plane(struct test *t, char *err, size_t errlen)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return socket_error(err, errlen);
	t->stop_r = p[0];
	t->stop_w = p[1];
	t->start = pg_now();
	t->deadline = t->start + t->time;
	if (pthread_create(&t->th, NULL, t->kind->plane->run, t) != 0)
		return pg_err(err, errlen, "cannot start a thread");
	return 0;
}

struct test *pg_serve_test_start(struct server *s, int cfd, const struct sockaddr_storage *client,
				 const struct pg_net_frame *f, char *err, size_t errlen)
{
	struct test *t = calloc(1, sizeof(*t));
	if (!t) {
		pg_err(err, errlen, "out of memory");
		return NULL;
	}
	t->o = s->o;
	t->s = s;
	t->fd = t->stop_r = t->stop_w = -1;
	pthread_mutex_init(&t->mu, NULL);
	t->client = *client;
	if (parse_start(s->o, f, t, err, errlen) < 0 || open_data_socket(t, cfd, err, errlen) < 0 ||
	    start_plane(t, err, errlen) < 0) {
		pg_serve_test_free(t);
		return NULL;
	}
	return t;
}

int pg_serve_test_port(const struct test *t)
{
	struct sockaddr_storage a;
	socklen_t al = sizeof(a);
	if (getsockname(t->fd, (struct sockaddr *)&a, &al) < 0)
		return 0;
	return ntohs(a.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&a)->sin6_port
					     : ((struct sockaddr_in *)&a)->sin_port);
}

/* Tells the plane's thread to stop and waits for it. */
static void stop_plane(struct test *t, double stop)
{
	t->stop_time = stop;
	atomic_store(&t->stopping, 1);
	if (write(t->stop_w, "x", 1) < 0) {
		/* a full pipe is already readable */
	}
	pthread_join(t->th, NULL);
}

/* Sinks still reading; *waiting: of them, those with bytes in their socket
 * (not quiet: on a loaded machine their thread may not have run yet). */
static int sinks_live(struct test *t, int *waiting)
{
	int live = 0;
	*waiting = 0;
	for (int i = 0; i < t->ndc; i++) {
		if (t->dc[i]->role != PG_NET_ROLE_SINK || atomic_load(&t->dc[i]->done))
			continue;
		live++;
		int q = 0;
		*waiting += ioctl(t->dc[i]->fd, FIONREAD, &q) == 0 && q > 0;
	}
	return live;
}

/* Sinks count until the client closed them or SERVE_DRAIN_QUIET passed
 * without a byte, so a client that closes before STOP gets an exact count;
 * one still sending is cut off after SERVE_DRAIN_MAX. */
static void drain_sinks(struct test *t, double stop)
{
	uint64_t last = atomic_load(&t->bytes_rx);
	double quiet = pg_now();
	while (pg_now() - stop < SERVE_DRAIN_MAX) {
		int waiting;
		if (!sinks_live(t, &waiting))
			break;
		pg_sleep_s(0.002);
		uint64_t now_rx = atomic_load(&t->bytes_rx);
		if (now_rx != last || waiting) {
			last = now_rx;
			quiet = pg_now();
		} else if (pg_now() - quiet >= SERVE_DRAIN_QUIET) {
			break;
		}
	}
}

static void end_dconns(struct test *t)
{
	for (int i = 0; i < t->ndc; i++)
		shutdown(t->dc[i]->fd, SHUT_RDWR);
	for (int i = 0; i < t->ndc; i++) {
		pthread_join(t->dc[i]->th, NULL);
		close(t->dc[i]->fd);
		free(t->dc[i]);
	}
	t->ndc = 0;
}

static void fill_report(struct test *t, double stop, const struct pg_cpu_mark *m1,
			struct pg_net_report *r)
{
	memset(r, 0, sizeof(*r));
	r->bytes_rx = atomic_load(&t->bytes_rx);
	r->bytes_tx = atomic_load(&t->bytes_tx);
	r->packets_rx = atomic_load(&t->pkts_rx);
	r->packets_tx = atomic_load(&t->pkts_tx);
	if (atomic_load(&t->have_first)) {
		struct pg_cpu_load l;
		pg_cpu_load(&t->m0, m1, &l);
		r->seconds = stop > t->first ? stop - t->first : 0;
		r->have_busy = l.have_busy;
		r->busy_pct = l.busy_pct;
		/* RUSAGE_SELF sums the threads and may step back a little */
		r->user_s = l.self_user_s > 0 ? l.self_user_s : 0;
		r->sys_s = l.self_sys_s > 0 ? l.self_sys_s : 0;
	}
	r->send_s = t->send_s;
}

void pg_serve_test_end(struct test *t, struct pg_net_report *r)
{
	struct pg_cpu_mark m1;
	double stop = pg_now();
	pg_cpu_mark(&m1);
	stop_plane(t, stop);
	drain_sinks(t, stop);
	end_dconns(t);
	fill_report(t, stop, &m1, r);
}

void pg_serve_test_free(struct test *t)
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
