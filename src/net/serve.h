/* SPDX-License-Identifier: MIT */
/* `perfguide serve`: the network peer (see peer.h for the protocol). */
#ifndef PG_NET_SERVE_H
#define PG_NET_SERVE_H

#include <stddef.h>
#include <stdint.h>

/* What a peer without --psk-file allows unless the operator says otherwise:
 * anyone who reaches its port is its client. With a key, no rate cap and
 * PG_SERVE_KEYED_TIME. */
#define PG_SERVE_OPEN_RATE 1000		/* Mbit/s the peer sends, all tests together */
#define PG_SERVE_OPEN_TIME 60		/* seconds a test may last */
#define PG_SERVE_KEYED_TIME 300

struct pg_serve_opts {
	const char *bind;	/* numeric address */
	int port;		/* 0: any free port */
	const char *psk_file;	/* NULL: no authentication */
	double max_time;	/* seconds a test may last; < 0: the default (above) */
	uint64_t max_msg;	/* bytes per send (msg) and per request (size) */
	int max_streams;	/* data connections per role and test */
	double max_rate;	/* Mbit/s the peer itself sends, in all its tests together;
				 * 0: no cap; < 0: the default (above) */
	int max_tests;		/* authenticated sessions at once; more are answered BUSY */
	int max_conns;		/* control connections at once; more are answered BUSY */
	int max_conns_per_addr;	/* of them from one source address */
	double idle_timeout;	/* from connecting to a session (HELLO, and AUTH with a key) */
	double session_timeout;	/* a session that starts no test */
	double read_timeout;	/* the rest of a frame once it began */
	int exit_with_parent;	/* the run's own peer ends with its run */
	int verbose;		/* one line on stderr per session event */
};

void pg_serve_defaults(struct pg_serve_opts *o);

/* Prepares the listening socket and prints "listening on ADDR:PORT" on
 * stdout, then serves until SIGTERM or SIGINT. Returns 0, or -1 with err set
 * when it could not start (bad address, port in use, bad key file). */
int pg_serve(const struct pg_serve_opts *o, char *err, size_t errlen);

#endif
