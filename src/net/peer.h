/* SPDX-License-Identifier: MIT */
/*
 * The network peer: what `perfguide serve` runs and what the net.*
 * benchmarks talk to, the way netperf talks to netserver.
 *
 * Control connection (TCP, default port PG_NET_PORT): a sequence of frames,
 *
 *     u32 length (big-endian, of what follows; at most PG_NET_MAX_FRAME)
 *     u8  protocol version (PG_NET_VERSION)
 *     u8  message type (enum pg_net_msg)
 *     body: zero or more "key=value\n" lines, printable ASCII
 *
 * A frame that is too long, of another version, of an unknown type, or with a
 * malformed body ends the connection after an ERROR frame saying why.
 *
 * A session:
 *     client HELLO                 peer WELCOME (auth=none|hmac-sha256, nonce,
 *                                  limits: max_time, max_msg, max_streams,
 *                                  max_rate) or, without a key, BUSY
 *     client AUTH mac=...          peer AUTH_OK or BUSY, or ERROR and close
 *     client START test=... ...    peer READY port=N (data sockets listen
 *                                  there, for this client's address only)
 *     ... data on the data sockets ...
 *     client STOP                  peer REPORT (what it counted, its CPU load)
 *     client START ... / BYE
 *
 * The peer takes a session slot (--max-tests) when the client is
 * authenticated: at HELLO without a key, at AUTH with one, so BUSY answers
 * the one or the other. A connection refused before that (too many
 * connections in all, or from its address) gets BUSY at once, before any
 * HELLO. HELLO (and AUTH) must come within --idle-timeout of connecting.
 *
 * Data sockets. TCP: every connection the client opens to the data port
 * begins with one role byte: PG_NET_ROLE_SINK (the client sends, the peer
 * counts and discards), PG_NET_ROLE_SOURCE (the peer sends msg-byte writes
 * until STOP or the test's time, then closes), PG_NET_ROLE_ECHO (request /
 * response of `size` bytes each way; for tcp_crr one transaction per
 * connection, then the peer closes). UDP: datagrams from the client's address
 * to the data port are counted (udp_stream) or echoed back to their sender
 * (udp_rr); anything from another address is ignored.
 *
 * udp_source (UDP ingress: the peer sends, the client counts, as iperf3 -u
 * -R): START carries rate (payload bits/s, a whole number; 0: as fast as the
 * peer can) and size (payload bytes per datagram, at least 8). The client
 * sends any datagram to the data port from the socket it will receive on;
 * the first one from the client's address (others are ignored) tells the
 * peer where to send, so it works through NAT. From its arrival, t0, the
 * peer sends size-byte datagrams paced by an absolute schedule (pace.h):
 * datagram i is due at t0 + i * size * 8 / rate, floor(rate * time / (size *
 * 8)) of them in all (a peer running late sends the rest late, until t0 +
 * 1.1 time + 50 ms); rate 0 sends for `time` seconds. Each datagram begins
 * with its sequence number, 0, 1, 2..., as a big-endian u64, so the client
 * can count lost and reordered ones. The peer stops at the end of the
 * schedule or at STOP, or after ICMP errors for 3 of its datagrams (the
 * client's port is closed). The peer caps rate at its --max-rate (READY says
 * the rate it uses) and refuses a time over --max-time, as for other tests.
 * REPORT: packets_tx and bytes_tx are what it sent, send_s the time from
 * t0 to its last send.
 *
 * WELCOME says version (the peer's perfguide version) and tests (the test
 * kinds it runs, comma-separated). A peer without them is older than
 * udp_source and knows only the seven kinds before it.
 *
 * AUTH: mac is the hex HMAC-SHA256 of the nonce's bytes (WELCOME's nonce is
 * their hex) keyed with the key file's first line, newline stripped.
 * STOP: the peer's window ends; SINK connections are still read until the
 * client closes them or 20 ms pass without a byte (at most 1 s), and UDP
 * datagrams arriving within 20 ms are counted, so a client that closes its
 * data sockets before STOP gets an exact count.
 */
#ifndef PG_NET_PEER_H
#define PG_NET_PEER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#define PG_NET_PORT 12867
#define PG_NET_VERSION 1
#define PG_NET_MAX_FRAME 4096

enum pg_net_msg {
	PG_NET_HELLO = 1,
	PG_NET_WELCOME,
	PG_NET_AUTH,
	PG_NET_AUTH_OK,
	PG_NET_START,
	PG_NET_READY,
	PG_NET_STOP,
	PG_NET_REPORT,
	PG_NET_BUSY,
	PG_NET_ERROR,
	PG_NET_BYE,
};

enum pg_net_role {
	PG_NET_ROLE_SINK = 'S',
	PG_NET_ROLE_SOURCE = 'M',
	PG_NET_ROLE_ECHO = 'E',
};

/* What a START asks for. Fields a test does not use are 0 / "". */
struct pg_net_test {
	char kind[16];		/* the kind's name in pg_net_kinds (kinds.h) */
	double time;		/* seconds the test lasts at most (the peer caps it) */
	uint64_t msg;		/* bytes per send call (the peer's, for SOURCE) */
	uint64_t window;	/* SO_SNDBUF / SO_RCVBUF on the peer's data sockets; 0: system default */
	uint64_t size;		/* request and response bytes (rr), datagram payload (udp_stream) */
	int streams;		/* data connections the client will open (each role counted) */
	char cc[16];		/* TCP congestion control for the peer's sockets; "": default */
	uint64_t rate;		/* udp_source: payload bits/s the peer sends; 0: no pacing */
};

/* What the peer counted between READY and STOP. */
struct pg_net_report {
	uint64_t bytes_rx, bytes_tx;	/* data bytes the peer received / sent */
	uint64_t packets_rx, packets_tx;	/* datagrams (udp) or transactions (rr) */
	double seconds;			/* the peer's window: first data to STOP */
	int have_busy;
	double busy_pct;		/* system-wide, /proc/stat, over that window */
	double user_s, sys_s;		/* the peer process's own CPU time in it */
	double send_s;			/* udp_source: its first send to its last; 0: none */
};

struct pg_peer;	/* a control connection, client side */

/* Connects to "HOST[:PORT]" (numeric address or a name of a local interface,
 * default port PG_NET_PORT), says HELLO and, when psk_file is not NULL or the
 * peer asks for it, authenticates. Returns 0, or -1 with err set to one line
 * a user can act on ("peer 10.0.0.2:12867 is busy", "wrong key"). */
int pg_peer_open(const char *addr, const char *psk_file, double timeout_s,
		 struct pg_peer **out, char *err, size_t errlen);

/* START: returns 0 with *data_port set, or -1 with err set (refused, limits). */
int pg_peer_start(struct pg_peer *p, const struct pg_net_test *t, int *data_port,
		  char *err, size_t errlen);

/* STOP: returns 0 with the peer's report, or -1 with err set (peer gone). */
int pg_peer_stop(struct pg_peer *p, struct pg_net_report *r, char *err, size_t errlen);

/* The peer's perfguide version from WELCOME, or "" (a peer older than the
 * key). */
const char *pg_peer_version(const struct pg_peer *p);
/* What the peer sends at most, Mbit/s in all its tests together (WELCOME's
 * max_rate: its --max-rate); 0: no cap. */
double pg_peer_max_rate(const struct pg_peer *p);
/* Whether the peer runs test kind `kind` (WELCOME's tests, or the seven
 * kinds every peer had before udp_source). */
int pg_peer_has_test(const struct pg_peer *p, const char *kind);

/* The address the control connection reached, for the data sockets. */
const struct sockaddr *pg_peer_addr(const struct pg_peer *p, socklen_t *len);

/* BYE and close; NULL is fine. */
void pg_peer_close(struct pg_peer *p);

/* Starts `perfguide serve` on 127.0.0.1 on a free port as a child process
 * (this executable, /proc/self/exe), without the caps of a peer that others
 * reach (no --max-rate, the longest --max-time), waits until it listens, and
 * writes "127.0.0.1:PORT" to addr. Returns 0, or -1 with err set. */
int pg_peer_spawn_local(char *addr, size_t addrlen, pid_t *pid, char *err, size_t errlen);
/* Stops a peer pg_peer_spawn_local started and reaps it. */
void pg_peer_stop_local(pid_t pid);

#endif
