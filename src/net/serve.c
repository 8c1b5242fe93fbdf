/* SPDX-License-Identifier: MIT */
/*
 * `perfguide serve`: the server (serve_int.h lists the other parts). Every
 * limit is checked before anything is allocated for a client; a session
 * slot is taken only once the client is authenticated (session.c); data
 * goes only to the control client's address (test.c, dp_*.c), and
 * everything the peer sends draws on one rate budget (--max-rate, here).
 *
 * pg_serve prepares the server (options, key, listening socket, signals),
 * then runs the accept loop in the caller's thread; each control connection
 * gets a place (--max-conns, --max-conns-per-addr) and a detached thread.
 */
#include "net/serve.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/text.h"
#include "core/timer.h"
#include "net/auth.h"
#include "net/proto.h"
#include "net/serve_int.h"
#include "core/err.h"

#define RATE_BURST 0.05		/* --max-rate: seconds of unused budget a sender may catch up */

/* The one server of this process: see struct server for its lifetime. */
static struct server the_server;

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

void pg_serve_addr_str(const struct sockaddr_storage *a, char *buf, size_t len)
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

void pg_serve_log(const struct pg_serve_opts *o, const char *who, const char *fmt, ...)
{
	if (!o->verbose)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* what a client sent may be in msg: escaped. The line is made whole
	 * first and written at once under stderr's lock: sessions are threads,
	 * and piece by piece their lines interleaved. */
	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);
	if (!m)
		return;
	fprintf(m, "perfguide serve: %s: ", who);
	pg_term_puts(m, msg);
	fputc('\n', m);
	if (fclose(m) == 0) {
		flockfile(stderr);
		fwrite(line, 1, len, stderr);
		fflush(stderr);
		funlockfile(stderr);
	}
	free(line);
}

int pg_serve_same_ip(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
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

/* --max-rate: everything the peer sends, in all its tests together, draws
 * on one budget (a token bucket). The n bytes just sent take n * 8 / rate
 * seconds of it, and the sender waits until that is due; budget unused
 * (idle, or a sender late) is kept for RATE_BURST at most. */
void pg_serve_throttle(struct test *t, uint64_t n)
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
		pg_sleep_s(wait);
	}
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

static int listen_on(const struct pg_serve_opts *o, struct sockaddr_storage *a, char *err, size_t errlen)
{
	char port[16];
	snprintf(port, sizeof(port), "%d", o->port);
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	int gr = getaddrinfo(o->bind, port, &hints, &ai);
	if (gr != 0)
		return pg_err(err, errlen, "bad --bind address '%s': %s", o->bind, gai_strerror(gr));
	int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int one = 1;
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, SOMAXCONN) < 0) {
		pg_err(err, errlen, "cannot listen on %s port %d: %s", o->bind, o->port, strerror(errno));
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

/* The options with their defaults resolved (the caps depend on the key),
 * and the bounds pg_serve_opts cannot express. */
static int resolve_options(struct server *s, const struct pg_serve_opts *opts, char *err,
			   size_t errlen)
{
	struct pg_serve_opts *o = &s->opts;
	*o = *opts;
	s->o = o;
	if (o->max_rate < 0)
		o->max_rate = o->psk_file ? 0 : PG_SERVE_OPEN_RATE;
	if (o->max_time < 0)
		o->max_time = o->psk_file ? PG_SERVE_KEYED_TIME : PG_SERVE_OPEN_TIME;
	if (o->max_streams > SERVE_MAX_STREAMS)
		return pg_err(err, errlen, "--max-streams is at most %d", SERVE_MAX_STREAMS);
	if (o->max_conns < 1 || o->max_conns_per_addr < 1)
		return pg_err(err, errlen, "--max-conns and --max-conns-per-addr are at least 1");
	return 0;
}

static int load_key(struct server *s, char *err, size_t errlen)
{
	const char *path = s->o->psk_file;
	int loose = 0;
	if (!path)
		return 0;
	s->key = malloc(sizeof(*s->key));
	if (!s->key || pg_net_load_key(path, s->key, &loose, err, errlen) < 0) {
		free(s->key);
		s->key = NULL;
		return -1;
	}
	if (loose)
		fprintf(stderr, "perfguide serve: warning: key file %s can be read by others "
			"(chmod 600 %s)\n", path, path);
	return 0;
}

/* Anyone who reaches a port beyond loopback can use a peer without a key. */
static void warn_open(const struct pg_serve_opts *o, const struct sockaddr_storage *a,
		      const char *name)
{
	if (is_loopback(a) || o->psk_file)
		return;
	char cap[64] = "no rate cap";
	if (o->max_rate > 0)
		snprintf(cap, sizeof(cap), "at most %g Mbit/s sent", o->max_rate);
	fprintf(stderr, "perfguide serve: warning: listening on %s without --psk-file: anyone "
		"who reaches this port can run network tests against this machine (%s, "
		"%g s a test)\n", name, cap, o->max_time);
}

/* The places of the control connections, and SIGTERM and SIGINT written
 * to a pipe the accept loop polls. */
static int prepare_loop(struct server *s, char *err, size_t errlen)
{
	pthread_mutex_init(&s->mu, NULL);
	pthread_mutex_init(&s->rate_mu, NULL);
	s->conn = calloc((size_t)s->o->max_conns, sizeof(*s->conn));
	int sp[2];
	if (!s->conn || pipe2(sp, O_CLOEXEC | O_NONBLOCK) < 0) {
		if (s->conn)
			pg_err(err, errlen, "pipe: %s", strerror(errno));
		else
			pg_err(err, errlen, "out of memory");
		free(s->conn);
		s->conn = NULL;
		return -1;
	}
	s->sig_r = sp[0];
	sig_fd = sp[1];
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	s->parent = getppid();
	return 0;
}

/* Everything before the first connection is accepted, ending with
 * "listening on ADDR:PORT" on stdout. On failure what it opened is closed
 * again. */
static int prepare(struct server *s, const struct pg_serve_opts *opts, char *err, size_t errlen)
{
	if (resolve_options(s, opts, err, errlen) < 0)
		return -1;
	signal(SIGPIPE, SIG_IGN);
	if (load_key(s, err, errlen) < 0)
		return -1;
	struct sockaddr_storage a;
	char name[80];
	s->lfd = listen_on(s->o, &a, err, errlen);
	if (s->lfd >= 0) {
		pg_serve_addr_str(&a, name, sizeof(name));
		warn_open(s->o, &a, name);
	}
	if (s->lfd < 0 || prepare_loop(s, err, errlen) < 0) {
		if (s->lfd >= 0)
			close(s->lfd);
		free(s->key);
		s->key = NULL;
		return -1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("listening on %s\n", name);
	fflush(stdout);
	return 0;
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
	pg_serve_log(o, who, "closed at once: %s", why);
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
			same += pg_serve_same_ip(&s->conn[i]->peer, from);
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

/* Takes or clears a place under the lock; -1 with why set when none. */
static int set_place(struct server *s, struct conn *c, int take, char *why, size_t len)
{
	pthread_mutex_lock(&s->mu);
	if (take) {
		c->place = find_place(s, &c->peer, why, len);
		if (c->place >= 0)
			s->conn[c->place] = c;
	} else {
		s->conn[c->place] = NULL;
	}
	pthread_mutex_unlock(&s->mu);
	return take ? c->place : 0;
}

/* A connection just accepted: a place and a session thread, or BUSY. */
static void admit(struct server *s, int cfd, const struct sockaddr_storage *from,
		  const pthread_attr_t *attr)
{
	char who[80], why[160];
	pg_serve_addr_str(from, who, sizeof(who));
	struct conn *c = calloc(1, sizeof(*c));
	if (!c) {
		refuse(s->o, cfd, who, "out of memory");
		return;
	}
	c->s = s;
	c->fd = cfd;
	c->peer = *from;
	c->since = pg_now();
	snprintf(c->name, sizeof(c->name), "%s", who);
	if (set_place(s, c, 1, why, sizeof(why)) < 0) {
		free(c);
		refuse(s->o, cfd, who, why);
		return;
	}
	pthread_t th;
	if (pthread_create(&th, attr, pg_serve_session, c) == 0)
		return;
	set_place(s, c, 0, NULL, 0);
	free(c);
	refuse(s->o, cfd, who, "cannot start a thread");
}

/* Until SIGTERM or SIGINT (or the parent's end with --exit-with-parent). */
static void accept_loop(struct server *s)
{
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (;;) {
		struct pollfd p[2] = { { .fd = s->lfd, .events = POLLIN },
				       { .fd = s->sig_r, .events = POLLIN } };
		int r = poll(p, 2, 500);
		if ((r < 0 && errno != EINTR) || p[1].revents)
			break;
		if (s->o->exit_with_parent && getppid() != s->parent)
			break;
		if (r <= 0 || !p[0].revents)
			continue;
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		int cfd = accept4(s->lfd, (struct sockaddr *)&from, &fl, SOCK_CLOEXEC);
		if (cfd >= 0)
			admit(s, cfd, &from, &attr);
		else if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
			pg_sleep_s(0.01);
	}
	pthread_attr_destroy(&attr);
}

int pg_serve(const struct pg_serve_opts *opts, char *err, size_t errlen)
{
	struct server *s = &the_server;
	if (prepare(s, opts, err, errlen) < 0)
		return -1;
	accept_loop(s);
	close(s->lfd);
	/* Sessions still running end with the process. */
	return 0;
}
