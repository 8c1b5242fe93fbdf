/* SPDX-License-Identifier: MIT */
/*
 * can.rr: round trips through a peer, one frame in flight, for `time`
 * seconds: a request with `id`, and the peer's answer with id + 1, each
 * timed from the write to the answer's arrival (ctx->hist). The peer is
 *
 *   - a thread here answering on another interface: the other end of a
 *     vxcan pair, or a second controller on the same bus (peer=IF);
 *   - the kernel's CAN gateway on a vcan (peer=gw): a can-gw rule, added
 *     for the run and removed after it, sends every request back out of
 *     the interface with the answer's id, as `cangw -A -s vcan0 -d vcan0
 *     -i -e -f 77:C00007FF -m SET:I:78...` would;
 *   - another node on the bus (peer=remote) running `canfdtest IF`, whose
 *     answer adds one to the id and to every byte, as the thread here does.
 *
 * Every answer is checked: its id, its length, its bytes (the request's
 * plus what the peer adds) and that it answers this request, not an
 * earlier one. An answer not back within the wait is counted lost.
 */
#include <errno.h>
#include <linux/can/raw.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "can.h"
#include "core/hist.h"
#include "core/timer.h"

enum rr_peer { RR_THREAD, RR_GW, RR_REMOTE };

struct rr {
	struct can_link link, peer;
	enum rr_peer how;
	struct can_spec sp;
	canid_t resp;
	int inc;
	int s, ps;
	int gw_added;
	double wait_s;		/* an answer not back in this time is lost */
	uint32_t seq;

	pthread_t thread;	/* the responder, for RR_THREAD */
	int running;
	atomic_int stop;
	char why[160];
	atomic_int failed;

	uint64_t done_all, lost_all, late_all;
};

/* What canfdtest does on the device under test: every frame back with id
 * + 1 and every byte + 1. */
static void *responder(void *arg)
{
	struct rr *st = arg;
	struct canfd_frame f;
	while (!atomic_load(&st->stop)) {
		ssize_t n = read(st->ps, &f, sizeof(f));
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				continue;
			snprintf(st->why, sizeof(st->why), "the responder on %s: %s", st->peer.name,
				 strerror(errno));
			atomic_store(&st->failed, 1);
			return NULL;
		}
		f.can_id = st->resp;
		for (unsigned i = 0; i < f.len && i < CANFD_MAX_DLEN; i++)
			f.data[i]++;
		while (write(st->ps, &f, (size_t)n) < 0) {
			if (errno != ENOBUFS && errno != EINTR) {
				snprintf(st->why, sizeof(st->why), "the responder on %s: %s",
					 st->peer.name, strerror(errno));
				atomic_store(&st->failed, 1);
				return NULL;
			}
			pg_sleep_s(50e-6);
		}
	}
	return NULL;
}

static int rr_setup(struct pg_ctx *ctx)
{
	struct rr *st = calloc(1, sizeof(*st));
	if (!st)
		return pg_error(ctx, "out of memory");
	ctx->priv = st;
	st->s = st->ps = -1;
	int rc = can_resolve(ctx, &st->link);
	if (rc != PG_OK)
		return rc;
	can_spec_init(&st->sp, ctx->args, &st->link);
	st->resp = can_resp_id(st->sp.id);

	const char *peer = pg_arg_str(ctx->args, "peer");
	if (strcmp(peer, "auto") == 0) {
		if (strcmp(st->link.kind, "vxcan") == 0 && st->link.peer && !st->link.peer_elsewhere) {
			st->how = RR_THREAD;
			rc = can_link_by_index(st->link.peer, &st->peer);
			if (rc < 0)
				return pg_error(ctx, "rtnetlink: the other end of %s: %s", st->link.name,
						strerror(-rc));
			if ((rc = can_resolve_name(ctx, st->peer.name, &st->peer)) != PG_OK)
				return rc;
		} else if (strcmp(st->link.kind, "vcan") == 0) {
			st->how = RR_GW;
		} else {
			return pg_skip(ctx, "can.rr on %s needs a peer: -p peer=IF (a second interface "
				       "on the same bus, answered here), -p peer=remote (a node running "
				       "canfdtest %s) or -p peer=gw (the kernel's can-gw)",
				       st->link.name, st->link.name);
		}
	} else if (strcmp(peer, "gw") == 0) {
		st->how = RR_GW;
	} else if (strcmp(peer, "remote") == 0) {
		st->how = RR_REMOTE;
	} else {
		st->how = RR_THREAD;
		if ((rc = can_resolve_name(ctx, peer, &st->peer)) != PG_OK)
			return rc;
		if (st->peer.ifindex == st->link.ifindex)
			return pg_error(ctx, "peer %s is the interface itself: name a second interface "
					"on the bus, or use peer=gw", peer);
	}
	st->inc = st->how == RR_GW ? 0 : 1;

	if (st->how == RR_GW) {
		/* A rule left by a run that was killed would answer twice. */
		can_gw_rule(0, st->link.ifindex, st->sp.id, st->resp, st->sp.fd);
		rc = can_gw_rule(1, st->link.ifindex, st->sp.id, st->resp, st->sp.fd);
		if (rc == -EPERM || rc == -EACCES)
			return pg_skip(ctx, "adding the can-gw rule that answers on %s needs "
				       "CAP_NET_ADMIN (run as root, or name a peer)", st->link.name);
		if (rc == -EPROTONOSUPPORT || rc == -EAFNOSUPPORT || rc == -EOPNOTSUPP)
			return pg_skip(ctx, "the kernel has no CAN gateway to answer on %s (module "
				       "can-gw)", st->link.name);
		if (rc < 0)
			return pg_error(ctx, "adding the can-gw rule on %s: %s", st->link.name,
					strerror(-rc));
		st->gw_added = 1;
	}
	if ((st->s = can_socket(ctx, st->link.ifindex, st->sp.fd, &st->resp)) < 0)
		return PG_ERROR;
	if (st->how == RR_THREAD) {
		if ((st->ps = can_socket(ctx, st->peer.ifindex, st->sp.fd, &st->sp.id)) < 0)
			return PG_ERROR;
		struct timeval tv = { .tv_usec = 20000 };
		setsockopt(st->ps, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		if (pthread_create(&st->thread, NULL, responder, st) != 0)
			return pg_error(ctx, "cannot start the responder thread");
		st->running = 1;
	}
	/* Two frames each way at the bitrate, and time for a busy peer (a
	 * canfdtest descheduled on a loaded machine answers after 200 ms). */
	st->wait_s = 1.0 + 4 * st->sp.frame_s;
	return PG_OK;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static const char *peer_name(const struct rr *st, char *buf, size_t len)
{
	switch (st->how) {
	case RR_GW:
		snprintf(buf, len, "the kernel's can-gw rule on %s", st->link.name);
		break;
	case RR_REMOTE:
		snprintf(buf, len, "a remote node on %s's bus", st->link.name);
		break;
	case RR_THREAD:
		snprintf(buf, len, "a thread on %s", st->peer.name);
		break;
	}
	return buf;
}

/* One round trip: 1 answered (its time in *ns), 0 lost, -1 error. */
static int round_trip(struct pg_ctx *ctx, struct rr *st, uint64_t *ns, uint64_t *late)
{
	struct canfd_frame f, r;
	can_fill(&f, st->sp.id, st->sp.len, st->sp.flags, st->seq);
	uint64_t t0 = now_ns();
	while (write(st->s, &f, st->sp.mtu) < 0) {
		if (errno != ENOBUFS && errno != EINTR) {
			pg_error(ctx, "writing to %s: %s", st->link.name, strerror(errno));
			return -1;
		}
		pg_sleep_s(50e-6);
	}
	uint64_t until = t0 + (uint64_t)(st->wait_s * 1e9);
	for (;;) {
		uint64_t t = now_ns();
		if (t >= until)
			return 0;
		struct pollfd p = { .fd = st->s, .events = POLLIN };
		int n = poll(&p, 1, (int)((until - t) / 1000000) + 1);
		if (n < 0 && errno != EINTR) {
			pg_error(ctx, "poll: %s", strerror(errno));
			return -1;
		}
		if (n <= 0)
			continue;
		ssize_t got = read(st->s, &r, sizeof(r));
		uint64_t t1 = now_ns();
		if (got < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			pg_error(ctx, "reading from %s: %s", st->link.name, strerror(errno));
			return -1;
		}
		char why[160];
		int c = can_check(&r, st->resp, st->sp.len, st->seq, st->inc, why, sizeof(why));
		if (c == 2) {		/* the answer to a request already counted lost */
			(*late)++;
			continue;
		}
		if (c == 1) {
			char who[96];
			pg_error(ctx, "the answer from %s: %s", peer_name(st, who, sizeof(who)), why);
			return -1;
		}
		*ns = t1 - t0;
		return 1;
	}
}

static int rr_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct rr *st = ctx->priv;
	(void)iters;
	double deadline = pg_now() + (double)pg_arg_int(ctx->args, "time");
	uint64_t done = 0, lost = 0, late = 0;
	while (pg_now() < deadline) {
		uint64_t ns;
		int r = round_trip(ctx, st, &ns, &late);
		if (r < 0)
			return PG_ERROR;
		if (atomic_load(&st->failed))
			return pg_error(ctx, "%s", st->why);
		st->seq++;
		if (r == 0) {
			lost++;
			if (!done && lost >= 3)
				break;
			continue;
		}
		pg_hist_add(ctx->hist, ns);
		done++;
	}
	char who[96];
	peer_name(st, who, sizeof(who));
	if (!done)
		return pg_error(ctx, "no answer from %s within %.0f ms (%llu requests)%s", who,
				st->wait_s * 1e3, (unsigned long long)lost,
				st->how == RR_REMOTE ? ": is canfdtest running there?" : "");
	st->done_all += done;
	st->lost_all += lost;
	st->late_all += late;
	counts[0] = (double)done;
	counts[4] = (double)lost;
	char drv[64];
	can_driver(&st->link, drv, sizeof(drv));
	pg_note(ctx, "%s (%s) answered by %s: %llu round trips%s, %llu lost, %llu late answers",
		st->link.name, drv, who, (unsigned long long)st->done_all,
		st->inc ? " (id + 1, bytes + 1)" : " (id + 1)", (unsigned long long)st->lost_all,
		(unsigned long long)st->late_all);
	return PG_OK;
}

static void rr_teardown(struct pg_ctx *ctx)
{
	struct rr *st = ctx->priv;
	if (!st)
		return;
	if (st->running) {
		atomic_store(&st->stop, 1);
		pthread_join(st->thread, NULL);
	}
	if (st->gw_added)
		can_gw_rule(0, st->link.ifindex, st->sp.id, st->resp, st->sp.fd);
	if (st->s >= 0)
		close(st->s);
	if (st->ps >= 0)
		close(st->ps);
	free(st);
	ctx->priv = NULL;
}

static const struct pg_param rr_params[] = {
	CAN_IF_PARAM,
	{ .name = "peer", .type = PG_P_STR, .def = "auto",
	  .help = "who answers: auto (the other end of a vxcan pair; on a vcan, gw), gw (the "
		  "kernel's can-gw), remote (a node running canfdtest), or an interface on the bus" },
	CAN_ID_PARAM,
	CAN_SIZE_PARAM,
	CAN_FD_PARAM,
	CAN_TIME_PARAM,
	{ 0 },
};

static const struct pg_metric rr_metrics[] = {
	{ "transactions", "trans/s", PG_RATE, 1, 1, 0 },
	{ "lat_p50", "us", PG_HIST_Q, 1e-3, 0, 0.50 },
	{ "lat_p99", "us", PG_HIST_Q, 1e-3, 0, 0.99 },
	{ "lat_max", "us", PG_HIST_Q, 1e-3, 0, 1 },
	{ "lost", "frames", PG_VALUE, 1, 0, 0 },
	{ 0 },
};

const struct pg_bench pg_can_rr = {
	.id = "can.rr", .title = "CAN round trip through a peer (canfdtest)",
	.section = &can_section, .params = rr_params, .metrics = rr_metrics, .trial = 1,
	.min_suite = PG_IN_STANDARD, .check = can_check_args, .setup = rr_setup,
	.step = rr_step, .teardown = rr_teardown,
};
