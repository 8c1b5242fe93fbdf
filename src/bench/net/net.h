/* SPDX-License-Identifier: MIT */
/*
 * The network group: what its benchmark files share. Every benchmark talks
 * to a peer running `perfguide serve` (src/net/peer.h), started on loopback
 * when the `peer` parameter is "local".
 */
#ifndef PG_BENCH_NET_H
#define PG_BENCH_NET_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "core/bench.h"
#include "core/timer.h"
#include "net/kinds.h"
#include "net/pace.h"
#include "net/peer.h"

/* One benchmark copy's control session with its peer. */
struct net_session {
	struct pg_peer *peer;
	pid_t local_pid;		/* a peer started on loopback, or 0 */
	struct sockaddr_storage data;	/* the peer's address, port of the last READY */
	socklen_t data_len;
	int started;			/* a START is waiting for its STOP */
	char where[64];			/* "127.0.0.1:12867", for messages */
};

/* Opens the session the `peer` parameter names ("local": a peer of our own
 * on loopback). PG_OK, or a skip/error with the reason in ctx->msg. */
int net_open(struct pg_ctx *ctx, struct net_session *s);
void net_close(struct net_session *s);

/* START with t; the data port is remembered in s->data. */
int net_start(struct pg_ctx *ctx, struct net_session *s, const struct pg_net_test *t);
/* STOP: the report, and the peer's busy share handed to the runner. */
int net_stop(struct pg_ctx *ctx, struct net_session *s, struct pg_net_report *r);

/* A TCP connection to the data port that starts with the role byte; window
 * sets both socket buffers when not 0, cc the congestion control when not
 * empty. PG_OK with *fd set, or a skip/error with ctx->msg set. */
int net_tcp_data(struct pg_ctx *ctx, struct net_session *s, char role,
		 uint64_t window, const char *cc, int *fd);
/* A UDP socket connected to the data port, or -1 with ctx->msg set. */
int net_udp_data(struct pg_ctx *ctx, struct net_session *s, uint64_t window);

/* The test fields every benchmark fills the same way. */
void net_test_init(struct pg_net_test *t, enum pg_net_kind_id kind, const struct pg_args *a);

/* The START of a UDP trial: `size`-byte datagrams, one socket. */
void net_udp_test_init(struct pg_net_test *t, enum pg_net_kind_id kind, int64_t size,
		       uint64_t window, double time);

/* Ends a started test after an error this side set in ctx: the peer is
 * stopped, the error kept. Returns PG_ERROR. */
int net_abandon(struct pg_ctx *ctx, struct net_session *s);

/* "cc" parameter as the socket option wants it: "" for the system's. */
const char *net_cc(const struct pg_args *a);

/* Ethernet frame bytes of a UDP/IPv4 datagram with `payload` bytes: the
 * seed's "Frame Size" column (18 -> 64, 1472 -> 1518). */
int net_frame_size(int64_t payload);
/* The bytes a frame has besides the datagram: UDP 8, IPv4 20, the
 * Ethernet header 14 and FCS 4; as text for the guide's template. */
#define NET_FRAME_OVERHEAD 46
#define NET_STR_(x) #x
#define NET_STR(x) NET_STR_(x)

/* Latencies of one trial, in nanoseconds. */
struct net_lat {
	uint32_t *v;
	size_t n, cap;
	int sorted;
};
int net_lat_add(struct net_lat *l, double seconds);
/* The q-quantile (0 < q <= 1, nearest rank) in microseconds; sorts l->v. */
double net_lat_quantile(struct net_lat *l, double q);
void net_lat_free(struct net_lat *l);

/* Mbit/s (payload bits) to packets per second for datagrams of `size`. */
double net_pps(double mbit, int64_t size);

/* Parses the `rate` parameter: "max" gives 0, otherwise Mbit/s > 0.
 * Returns 0 or -1. */
int net_rate_parse(const char *s, double *mbit);

/* One UDP stream trial: sends `size`-byte datagrams at `mbit` (0: as fast
 * as possible) for `seconds`, then asks the peer what arrived. */
struct net_udp_result {
	uint64_t sent, received;
	double send_s;			/* first send to last */
	double offered_mbit, received_mbit, received_kpps, loss_pct;
	double remote_busy;		/* negative: not measured */
	uint64_t reordered;		/* ingress: arrived after a later one */
};
int net_udp_trial(struct pg_ctx *ctx, struct net_session *s, int64_t size, double mbit,
		  double seconds, uint64_t window, struct net_udp_result *out);

/* The same trial the other way (udp_in.c): the peer sends `size`-byte
 * datagrams at `mbit` (0: as fast as it can) for `seconds`, this side
 * counts what arrives; sent is the peer's count, send_s its sending time. */
int net_udp_in_trial(struct pg_ctx *ctx, struct net_session *s, int64_t size, double mbit,
		     double seconds, uint64_t window, struct net_udp_result *out);
/* PG_OK when the peer can send (udp_source), else a skip naming its version. */
int net_udp_in_supported(struct pg_ctx *ctx, struct net_session *s);
/* net_udp_in_trial when `in`, else net_udp_trial. */
int net_udp_run(struct pg_ctx *ctx, struct net_session *s, int in, int64_t size, double mbit,
		double seconds, uint64_t window, struct net_udp_result *out);

/* The `dir` parameter of the UDP throughput benchmarks. */
#define NET_DIR_PARAM								\
	{ .name = "dir", .type = PG_P_STR, .def = "out", .choices = "out,in", .full = "out,in", \
	  .help = "out: this side sends, the peer counts (egress); in: the peer sends, this side " \
		  "counts (ingress, iperf3 -u -R)" }
#define NET_DIR_IN(args) (strcmp(pg_arg_str((args), "dir"), "in") == 0)
/* The UDP throughput benchmarks' check of dir against size. */
int net_udp_dir_check(const struct pg_args *a, char *err, size_t errlen);

/* The parameters every net benchmark has: the peer, and the key it may ask
 * for, whose path stays out of the results. */
#define NET_PEER_PARAMS							\
	{ .name = "peer", .type = PG_P_STR, .def = "local",		\
	  .help = "HOST[:PORT] running `perfguide serve` (--peer), or local: one started on loopback" }, \
	{ .name = "psk_file", .type = PG_P_STR, .def = "none", .not_recorded = 1,	\
	  .help = "the file of the key the peer asks for (--psk-file), none: no key; not recorded" }

extern const struct pg_bench pg_net_tcp_stream, pg_net_tcp_maerts, pg_net_tcp_bidir;
extern const struct pg_bench pg_net_tcp_rr, pg_net_tcp_crr, pg_net_udp_rr;
extern const struct pg_bench pg_net_udp_stream, pg_net_udp_zeroloss;

extern const struct pg_section pg_net_sec_ethernet;

#endif
