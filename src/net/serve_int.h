/* SPDX-License-Identifier: MIT */
/*
 * What the parts of `perfguide serve` share; nothing outside src/net/
 * includes this. The peer is built as fio's engines and iperf3's protocols
 * are, one job per file:
 *
 *   serve.c     the server: its options resolved, the key, the listening
 *               socket and the accept loop, the places of the control
 *               connections, the rate budget all tests draw on, the log
 *   session.c   one control connection: a frame in, the handler of its type
 *   test.c      one test's lifecycle: START read and checked against the
 *               limits, its data socket and thread; STOP, what is still in
 *               flight counted, the REPORT's figures
 *   dp_tcp.c    the data plane of the TCP kinds (kinds.c says which kind
 *   dp_udp.c    runs which plane), and of the UDP kinds
 *
 * Threads: the accept loop runs in pg_serve's caller; each control
 * connection has a detached thread (session.c); a running test has one
 * thread (its plane's run) and, for TCP, one per data connection. A test
 * belongs to its session: only that session's thread starts, ends and frees
 * it.
 */
#ifndef PG_NET_SERVE_INT_H
#define PG_NET_SERVE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "core/cpuload.h"
#include "net/kinds.h"
#include "net/peer.h"
#include "net/serve.h"

struct pg_net_frame;
struct pg_net_key;

#define SERVE_MAX_DCONN 256	/* data connections per test, hard cap */
#define SERVE_MAX_STREAMS (SERVE_MAX_DCONN / 2)
#define SERVE_DRAIN_QUIET 0.02	/* after STOP: this long without new bytes ends the count */
#define SERVE_DRAIN_MAX 1.0	/* and a client still sending is cut off after this */
#define SERVE_SEQ_BYTES 8	/* udp_source: the sequence number each datagram begins with */

struct conn;

/*
 * The server: one per process. pg_serve fills it before it accepts anything
 * and never frees it: the detached session threads use it until the
 * process ends (pg_serve's caller exits when it returns), so it lives in
 * static storage and pg_serve is called once per process.
 */
struct server {
	struct pg_serve_opts opts;	/* the caller's, defaults resolved */
	const struct pg_serve_opts *o;	/* &opts */
	struct pg_net_key *key;		/* NULL: no authentication */
	int lfd;			/* the listening socket */
	int sig_r;			/* readable once SIGTERM or SIGINT came */
	pid_t parent;			/* --exit-with-parent: the process to outlive not */
	pthread_mutex_t mu;		/* sessions and conn */
	int sessions;			/* slots taken (--max-tests) */
	struct conn **conn;		/* o->max_conns places, NULL: free */
	pthread_mutex_t rate_mu;
	double rate_next;		/* --max-rate: when the budget spent so far is due */
};

/* A control connection, from the accept loop to the end of its thread. */
struct conn {
	struct server *s;
	int fd;
	int place;			/* in s->conn */
	double since;			/* when it was accepted */
	struct sockaddr_storage peer;
	char name[80];			/* "ADDR:PORT", for the log */
};

struct test;

/* A TCP data connection and its thread. */
struct dconn {
	struct test *t;
	int fd;
	int role;			/* enum pg_net_role */
	pthread_t th;
	atomic_int done;		/* its thread has finished */
};

/* One test, from START to STOP (test.c). */
struct test {
	const struct pg_serve_opts *o;
	struct server *s;
	const struct pg_net_kind *kind;
	double time;
	uint64_t msg, window, size;
	uint64_t rate;			/* a source: payload bits/s, 0: unpaced */
	double send_s;			/* udp_source: its t0 to its last send */
	int streams;
	char cc[16];
	int fd;				/* listening TCP socket or the UDP socket */
	int stop_r, stop_w;		/* readable once the test is stopping */
	atomic_int stopping;
	double stop_time;
	struct sockaddr_storage client;	/* the only address data goes to or comes from */
	double start, deadline;
	pthread_t th;			/* the plane's run */
	pthread_mutex_t mu;		/* dc and ndc, and the first-data mark */
	int ndc;
	struct dconn *dc[SERVE_MAX_DCONN];
	_Atomic uint64_t bytes_rx, bytes_tx, pkts_rx, pkts_tx;
	atomic_int have_first;
	double first;
	struct pg_cpu_mark m0;
};

/* What the peer does on a kind's data sockets (kinds.c names one per kind). */
struct pg_net_plane {
	/* The test's thread, from READY until STOP: accepts the data
	 * connections, or receives or sends the datagrams. */
	void *(*run)(void *test);
	/* Options on the data socket before it is bound; NULL: none. */
	void (*prepare)(struct test *t);
};

extern const struct pg_net_plane pg_dp_tcp;	/* each connection's role byte says */
extern const struct pg_net_plane pg_dp_tcp_crr;	/* one transaction per connection */
extern const struct pg_net_plane pg_dp_udp_count; /* count the client's datagrams */
extern const struct pg_net_plane pg_dp_udp_echo;	/* count them and send each back */
extern const struct pg_net_plane pg_dp_udp_source; /* send paced, numbered datagrams */

/* session.c: a control connection's thread; frees c. */
void *pg_serve_session(void *c);

/* serve.c */
/* One line on stderr under -v; what a client sent may be in it: escaped. */
void pg_serve_log(const struct pg_serve_opts *o, const char *who, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* --max-rate: the n bytes t just sent draw on the server's budget; waits
 * until they are due (or the test stops). */
void pg_serve_throttle(struct test *t, uint64_t n);
int pg_serve_same_ip(const struct sockaddr_storage *a, const struct sockaddr_storage *b);
void pg_serve_addr_str(const struct sockaddr_storage *a, char *buf, size_t len);

/* test.c */
/* START: the test f asks for, checked against the limits, its data socket
 * on cfd's local address and its thread running. NULL with err set. */
struct test *pg_serve_test_start(struct server *s, int cfd, const struct sockaddr_storage *client,
				 const struct pg_net_frame *f, char *err, size_t errlen);
/* The data port READY names. */
int pg_serve_test_port(const struct test *t);
/* STOP: the window ends now; what is still in flight is counted, the
 * threads joined, r filled. */
void pg_serve_test_end(struct test *t, struct pg_net_report *r);
void pg_serve_test_free(struct test *t);
/* For the data planes: counts n into c; marks the first data (the
 * window's start). */
void pg_serve_count(_Atomic uint64_t *c, uint64_t n);
void pg_serve_mark_first(struct test *t);

#endif
