/* SPDX-License-Identifier: MIT */
/*
 * The test kinds the peer runs, in one table read by both ends: the net
 * benchmarks take a kind's name for START and its transport from here, and
 * `perfguide serve` takes from the same line what its data plane does. A
 * wire name is spelled here and nowhere else in src/. A new kind is a line
 * here and, when no data plane fits, one function in dp_tcp.c or dp_udp.c
 * (the data plane of each kind is described in peer.h).
 */
#ifndef PG_NET_KINDS_H
#define PG_NET_KINDS_H

enum pg_net_kind_id {
	PG_NET_TCP_STREAM,	/* the client sends, the peer counts */
	PG_NET_TCP_MAERTS,	/* the peer sends */
	PG_NET_TCP_BIDIR,	/* both at once */
	PG_NET_TCP_RR,		/* request/response on one connection */
	PG_NET_TCP_CRR,		/* request/response, a connection each */
	PG_NET_UDP_RR,		/* request/response in datagrams */
	PG_NET_UDP_STREAM,	/* the client sends datagrams, the peer counts */
	PG_NET_UDP_SOURCE,	/* the peer sends paced, numbered datagrams */
	PG_NET_KINDS
};

/* The peer's data plane for a kind (src/net/serve_int.h): opaque here. */
struct pg_net_plane;

struct pg_net_kind {
	enum pg_net_kind_id id;
	const char *name;	/* START's test=, WELCOME's tests= */
	int udp;		/* data sockets: 0 TCP, 1 UDP */
	int rr;			/* request/response: the peer answers each request
				 * (TCP_NODELAY on its data sockets) */
	int source;		/* the peer sends datagrams of its own: paced by START's
				 * rate (capped by --max-rate), each numbered */
	int v1;			/* every peer runs it, also one too old to list its
				 * kinds in WELCOME */
	const struct pg_net_plane *plane;	/* what the peer does with the data */
};

extern const struct pg_net_kind pg_net_kinds[PG_NET_KINDS];

/* The kind of that wire name, or NULL. */
const struct pg_net_kind *pg_net_kind_find(const char *name);

#endif
