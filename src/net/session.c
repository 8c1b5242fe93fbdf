/* SPDX-License-Identifier: MIT */
/*
 * One control connection of `perfguide serve` (the session of peer.h), in
 * its own thread: a frame in, the handler of its type, until BYE, an error
 * or a timeout. A frame is expected in one state only (HELLO first, AUTH
 * when a key is asked for, START with no test running, STOP with one);
 * any other ends the connection after an ERROR saying what came when.
 */
#include <inttypes.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/timer.h"
#include "net/auth.h"
#include "net/proto.h"
#include "net/serve_int.h"
#include "pg_build.h"

enum state { S_HELLO, S_AUTH, S_READY, S_TESTING, S_ANY };

struct session {
	struct conn *c;
	struct server *s;
	const struct pg_serve_opts *o;
	enum state state;
	int slot;			/* a session slot (--max-tests) is taken */
	struct test *t;			/* the running test (S_TESTING) */
	uint8_t nonce[PG_NET_NONCE];	/* WELCOME's, when a key is asked for */
	struct pg_net_frame f;		/* the frame being handled */
	struct pg_net_out out;		/* the answer being built */
	char err[300];
};

/* Ends out and sends it; -1 (logged) when the client cannot take it. */
static int send_out(struct session *ss)
{
	char e[200];
	if (pg_net_out_end(&ss->out) < 0 ||
	    pg_net_send(ss->c->fd, &ss->out, ss->o->read_timeout, e, sizeof(e)) < 0) {
		pg_serve_log(ss->o, ss->c->name, "dropped: %s", e);
		return -1;
	}
	return 0;
}

/* A last frame (BUSY or ERROR) saying why; the connection then ends. */
static int finish(struct session *ss, int type, const char *why)
{
	pg_net_out_begin(&ss->out, type);
	pg_net_out_add(&ss->out, "reason", "%s", why);
	send_out(ss);
	pg_serve_log(ss->o, ss->c->name, "%s: %s", type == PG_NET_BUSY ? "busy" : "refused", why);
	return -1;
}

/* A session slot (--max-tests), once the client is who it must be. 0, or -1
 * after a BUSY. */
static int take_slot(struct session *ss)
{
	struct server *s = ss->s;
	pthread_mutex_lock(&s->mu);
	ss->slot = s->sessions < s->o->max_tests;
	s->sessions += ss->slot;
	pthread_mutex_unlock(&s->mu);
	if (ss->slot)
		return 0;
	char why[100];
	snprintf(why, sizeof(why), "%d sessions running (--max-tests %d)", s->o->max_tests,
		 s->o->max_tests);
	return finish(ss, PG_NET_BUSY, why);
}

/* WELCOME: how to authenticate, the limits, the version and the kinds. */
static int welcome(struct session *ss)
{
	const struct pg_serve_opts *o = ss->o;
	pg_net_out_begin(&ss->out, PG_NET_WELCOME);
	if (ss->s->key) {
		char hex[2 * PG_NET_NONCE + 1];
		if (pg_net_nonce(ss->nonce) < 0)
			return finish(ss, PG_NET_ERROR, "no random numbers for a nonce");
		pg_net_hex(ss->nonce, sizeof(ss->nonce), hex);
		pg_net_out_add(&ss->out, "auth", "hmac-sha256");
		pg_net_out_add(&ss->out, "nonce", "%s", hex);
	} else {
		pg_net_out_add(&ss->out, "auth", "none");
	}
	pg_net_out_add(&ss->out, "max_time", "%g", o->max_time);
	pg_net_out_add(&ss->out, "max_msg", "%" PRIu64, o->max_msg);
	pg_net_out_add(&ss->out, "max_streams", "%d", o->max_streams);
	pg_net_out_add(&ss->out, "max_rate", "%g", o->max_rate);
	pg_net_out_add(&ss->out, "version", "%s", PG_VERSION);
	char tests[160] = "";
	for (int i = 0; i < PG_NET_KINDS; i++)
		snprintf(tests + strlen(tests), sizeof(tests) - strlen(tests), "%s%s", i ? "," : "",
			 pg_net_kinds[i].name);
	pg_net_out_add(&ss->out, "tests", "%s", tests);
	return send_out(ss);
}

static int on_hello(struct session *ss)
{
	/* Without a key, HELLO is all a client has to say; with one, the
	 * slot waits for the proof. */
	if (!ss->s->key && take_slot(ss) < 0)
		return -1;
	if (welcome(ss) < 0)
		return -1;
	ss->state = ss->s->key ? S_AUTH : S_READY;
	pg_serve_log(ss->o, ss->c->name, "session (%s)", ss->s->key ? "awaiting the key" : "no key");
	return 0;
}

static int on_auth(struct session *ss)
{
	const char *mac = pg_net_get(&ss->f, "mac");
	if (!mac || !pg_net_mac_ok(ss->s->key, ss->nonce, sizeof(ss->nonce), mac))
		return finish(ss, PG_NET_ERROR, "wrong key");
	if (take_slot(ss) < 0)
		return -1;
	pg_net_out_begin(&ss->out, PG_NET_AUTH_OK);
	if (send_out(ss) < 0)
		return -1;
	ss->state = S_READY;
	return 0;
}

/* START: READY with the data port, or an ERROR that leaves the session open. */
static int on_start(struct session *ss)
{
	struct test *t = pg_serve_test_start(ss->s, ss->c->fd, &ss->c->peer, &ss->f, ss->err,
					     sizeof(ss->err));
	if (!t) {
		pg_net_out_begin(&ss->out, PG_NET_ERROR);
		pg_net_out_add(&ss->out, "reason", "%s", ss->err);
		pg_serve_log(ss->o, ss->c->name, "test refused: %s", ss->err);
		return send_out(ss);
	}
	ss->t = t;
	ss->state = S_TESTING;
	int port = pg_serve_test_port(t);
	pg_net_out_begin(&ss->out, PG_NET_READY);
	pg_net_out_add(&ss->out, "port", "%d", port);
	pg_net_out_add(&ss->out, "time", "%g", t->time);
	if (t->kind->source)
		pg_net_out_add(&ss->out, "rate", "%" PRIu64, t->rate);
	pg_serve_log(ss->o, ss->c->name, "%s on port %d", t->kind->name, port);
	return send_out(ss);
}

/* Ends the running test; r gets what it counted. */
static void end_test(struct session *ss, struct pg_net_report *r)
{
	pg_serve_test_end(ss->t, r);
	pg_serve_test_free(ss->t);
	ss->t = NULL;
	ss->state = S_READY;
}

static int on_stop(struct session *ss)
{
	struct pg_net_report r;
	end_test(ss, &r);
	struct pg_net_out *o = &ss->out;
	pg_net_out_begin(o, PG_NET_REPORT);
	pg_net_out_add(o, "bytes_rx", "%" PRIu64, r.bytes_rx);
	pg_net_out_add(o, "bytes_tx", "%" PRIu64, r.bytes_tx);
	pg_net_out_add(o, "packets_rx", "%" PRIu64, r.packets_rx);
	pg_net_out_add(o, "packets_tx", "%" PRIu64, r.packets_tx);
	pg_net_out_add(o, "seconds", "%.9f", r.seconds);
	if (r.have_busy)
		pg_net_out_add(o, "busy_pct", "%.4f", r.busy_pct);
	pg_net_out_add(o, "user_s", "%.6f", r.user_s);
	pg_net_out_add(o, "sys_s", "%.6f", r.sys_s);
	if (r.send_s > 0)
		pg_net_out_add(o, "send_s", "%.9f", r.send_s);
	pg_serve_log(ss->o, ss->c->name, "report bytes_rx=%" PRIu64 " bytes_tx=%" PRIu64, r.bytes_rx,
		     r.bytes_tx);
	return send_out(ss);
}

static int on_bye(struct session *ss)
{
	(void)ss;
	return -1;
}

/* Each frame type a client may send, the state it is expected in and its
 * handler (0: the session goes on, -1: it ends). */
static const struct handler {
	enum state state;
	int (*fn)(struct session *ss);
} handlers[PG_NET_BYE + 1] = {
	[PG_NET_HELLO] = { S_HELLO, on_hello },
	[PG_NET_AUTH] = { S_AUTH, on_auth },
	[PG_NET_START] = { S_READY, on_start },
	[PG_NET_STOP] = { S_TESTING, on_stop },
	[PG_NET_BYE] = { S_ANY, on_bye },
};

/* Any other frame, or one in the wrong state, ends the connection. */
static int unexpected(struct session *ss)
{
	snprintf(ss->err, sizeof(ss->err), "unexpected %s%s", pg_net_msg_name(ss->f.type),
		 ss->state == S_AUTH ? " before the key" : ss->state == S_HELLO ? " before HELLO" : "");
	return finish(ss, PG_NET_ERROR, ss->err);
}

/* The next frame. Before its session a connection has --idle-timeout in
 * all, however it spends it. In a session, a running test holds the
 * connection for its time, then the session timeout applies again. 0, or
 * -1 (a malformed frame answered with ERROR, anything else logged). */
static int next_frame(struct session *ss)
{
	const struct pg_serve_opts *o = ss->o;
	int bad, r;
	if (ss->state == S_HELLO || ss->state == S_AUTH) {
		r = pg_net_recv_by(ss->c->fd, &ss->f, ss->c->since + o->idle_timeout, o->read_timeout,
				   &bad, ss->err, sizeof(ss->err));
	} else {
		double idle = o->session_timeout;
		if (ss->t)
			idle += fmax(0, ss->t->deadline - pg_now());
		r = pg_net_recv(ss->c->fd, &ss->f, idle, o->read_timeout, &bad, ss->err, sizeof(ss->err));
	}
	if (r == 0)
		return 0;
	if (bad)
		return finish(ss, PG_NET_ERROR, ss->err);
	pg_serve_log(o, ss->c->name, "dropped: %s", ss->err);
	return -1;
}

/* The connection's end: a test left running is ended, the slot and the
 * place given back. */
static void session_end(struct conn *c, struct session *ss)
{
	struct server *s = c->s;
	int slot = 0;
	if (ss && ss->t) {
		struct pg_net_report r;
		end_test(ss, &r);
		pg_serve_log(ss->o, c->name, "test ended without STOP");
	}
	if (ss)
		slot = ss->slot;
	close(c->fd);
	pthread_mutex_lock(&s->mu);
	s->conn[c->place] = NULL;
	s->sessions -= slot;
	pthread_mutex_unlock(&s->mu);
	free(ss);
	free(c);
}

void *pg_serve_session(void *arg)
{
	struct conn *c = arg;
	struct session *ss = calloc(1, sizeof(*ss));
	int one = 1;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (ss) {
		ss->c = c;
		ss->s = c->s;
		ss->o = c->s->o;
	}
	while (ss && next_frame(ss) == 0) {
		int type = ss->f.type;
		const struct handler *h = type > 0 && type <= PG_NET_BYE ? &handlers[type] : NULL;
		if (!h || !h->fn || (h->state != ss->state && h->state != S_ANY)) {
			unexpected(ss);
			break;
		}
		if (h->fn(ss) < 0)
			break;
	}
	session_end(c, ss);
	return NULL;
}
