/* SPDX-License-Identifier: MIT */
/*
 * RPMsg to a remote core's echo firmware, through the kernel's rpmsg_char
 * interface (bus.c): each channel is an endpoint of ours, /dev/rpmsgN, in
 * its own thread (a copy of the benchmark, all started together and timed
 * over the same window by the runner).
 *
 * One message is a `size`-byte payload written to the endpoint and its
 * echo read back. msg.rpmsg.rr has one message in flight per channel (a
 * round trip, TI's rpmsg_char_benchmark and ADI's rpmsg-xmit-p);
 * msg.rpmsg.stream keeps `window` in flight per channel, by default the
 * remote's 256 transmit buffers (virtio_rpmsg_bus's) shared among the
 * channels; a remote with fewer makes the writes wait (the kernel says no
 * buffer is free). A larger window only queues echoes in the kernel: the
 * rate stays, the latency grows by the queue. Each sample exchanges `count`
 * messages per channel, or runs `time` seconds.
 *
 * Counted: messages whose echo came back and checked (a sequence number and
 * a pattern, payload.c), per second in total and per channel, and their
 * payload bytes (one way, as ADI counts); each message's latency from the
 * write to its echo's read, into the runner's histogram. An echo that does
 * not match, or none within `timeout` ms, makes the result an error.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/hist.h"
#include "core/runner.h"
#include "msg.h"
#include "core/err.h"

/* Send times of the messages in flight, by sequence number: the most one
 * channel may keep in flight. */
#define RING 1024
/* virtio_rpmsg_bus's transmit buffers (half of its 512), for all endpoints. */
#define VIRTIO_TX_BUFFERS 256
/* How long a wait lasts at most before Ctrl-C is looked at again. */
#define SLICE_MS 50

struct rp_state {
	struct msg_service svc;
	struct msg_ept ept;
	size_t size;
	int window;
	uint64_t timeout_ns;
	uint64_t seq;		/* the next message's number, across samples */
	uint8_t tx[MSG_RPMSG_MTU];
	uint8_t rx[512];	/* a whole virtio buffer: echoes may be longer */
	uint64_t sent_ns[RING];
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int unanswered(struct pg_ctx *ctx, struct rp_state *st, uint64_t sent, uint64_t recvd)
{
	if (recvd < sent)
		return pg_error(ctx, "no echo from %s (address %u on %s) within %llu ms: %llu of %llu "
				"messages unanswered (is the remote running?)", st->svc.name,
				st->svc.dst, st->svc.parent,
				(unsigned long long)(st->timeout_ns / 1000000),
				(unsigned long long)(sent - recvd), (unsigned long long)sent);
	return pg_error(ctx, "%s: no transmit buffer came free within %llu ms (the remote "
			"takes no messages)", st->ept.path,
			(unsigned long long)(st->timeout_ns / 1000000));
}

/* One exchange in progress: messages base.. sent, echoes recvd of them. */
struct xchg {
	uint64_t base, sent, recvd;
	uint64_t count, deadline;	/* count messages, or (0) until deadline */
	struct pg_hist *h;
	int moved;			/* a message or an echo went since the last look */
};

static int still_sending(const struct xchg *x, uint64_t now)
{
	return x->count ? x->sent < x->count : now < x->deadline;
}

/* Writes messages while fewer than the window are in flight. PG_OK (also
 * when no transmit buffer is free: poll's POLLOUT waits for one), or the
 * error. */
static int send_some(struct pg_ctx *ctx, struct rp_state *st, struct xchg *x)
{
	int sending = still_sending(x, now_ns());
	while (sending && x->sent - x->recvd < (uint64_t)st->window) {
		uint64_t seq = x->base + x->sent;
		msg_payload_fill(st->tx, st->size, seq);
		uint64_t t = now_ns();
		ssize_t n = write(st->ept.fd, st->tx, st->size);
		if (n == (ssize_t)st->size) {
			st->sent_ns[seq % RING] = t;
			x->sent++;
			x->moved = 1;
			sending = still_sending(x, t);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == ENOMEM))
			break;
		st->seq = x->base + x->sent;
		if (n < 0 && errno == EMSGSIZE)
			return pg_error(ctx, "%s: the bus refused a %zu-byte message (EMSGSIZE): "
					"its limit is lower", st->ept.path, st->size);
		if (n < 0)
			return pg_error(ctx, "%s: write: %s", st->ept.path, strerror(errno));
		return pg_error(ctx, "%s: wrote %zd of %zu bytes", st->ept.path, n, st->size);
	}
	return PG_OK;
}

/* Reads and checks the echoes that are there. */
static int read_echoes(struct pg_ctx *ctx, struct rp_state *st, struct xchg *x)
{
	for (;;) {
		ssize_t n = read(st->ept.fd, st->rx, sizeof(st->rx));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return PG_OK;
		st->seq = x->base + x->sent;
		if (n < 0)
			return pg_error(ctx, "%s: read: %s", st->ept.path, strerror(errno));
		uint64_t t = now_ns();
		if (x->recvd == x->sent)
			return pg_error(ctx, "%s: an echo of %zd bytes came that no message asked "
					"for", st->ept.path, n);
		char why[160];
		if (msg_payload_check(st->rx, (size_t)n, st->size, x->base + x->recvd, why,
				      sizeof(why)) < 0)
			return pg_error(ctx, "%s: %s", st->ept.path, why);
		if (x->h)
			pg_hist_add(x->h, t - st->sent_ns[(x->base + x->recvd) % RING]);
		x->recvd++;
		x->moved = 1;
	}
}

/*
 * Sends `count` messages (0: until deadline) keeping at most `window` in
 * flight, and reads and checks every echo; *done gets how many came back.
 */
static int exchange(struct pg_ctx *ctx, struct rp_state *st, uint64_t count, uint64_t deadline,
		    struct pg_hist *h, uint64_t *done)
{
	struct xchg x = { .base = st->seq, .count = count, .deadline = deadline, .h = h };
	uint64_t last = now_ns();
	*done = 0;
	for (;;) {
		if (pg_interrupted)
			return pg_error(ctx, "interrupted");
		int sending = still_sending(&x, now_ns());
		if (!sending && x.recvd == x.sent)
			break;
		x.moved = 0;
		int rc = send_some(ctx, st, &x);
		if (rc == PG_OK)
			rc = read_echoes(ctx, st, &x);
		if (rc != PG_OK)
			return rc;
		uint64_t now = now_ns();
		if (x.moved) {
			last = now;
			continue;
		}
		if (now - last >= st->timeout_ns) {
			st->seq = x.base + x.sent;
			return unanswered(ctx, st, x.sent, x.recvd);
		}
		struct pollfd p = { .fd = st->ept.fd, .events = POLLIN };
		if (still_sending(&x, now) && x.sent - x.recvd < (uint64_t)st->window)
			p.events |= POLLOUT;
		uint64_t left = (st->timeout_ns - (now - last)) / 1000000 + 1;
		poll(&p, 1, left < SLICE_MS ? (int)left : SLICE_MS);
	}
	st->seq = x.base + x.sent;
	*done = x.recvd;
	return PG_OK;
}

static int rp_check(const struct pg_args *a, char *err, size_t errlen)
{
	int64_t size = pg_arg_int(a, "size");
	if (size > MSG_RPMSG_MTU)
		return pg_err(err, errlen, "size %lld: an RPMsg message carries at most %d bytes (a 512-byte "
			      "virtio buffer less its 16-byte header)", (long long)size, MSG_RPMSG_MTU);
	return 0;
}

static int rp_setup(struct pg_ctx *ctx)
{
	struct rp_state *st = calloc(1, sizeof(*st));
	if (!st)
		return pg_error(ctx, "out of memory");
	ctx->priv = st;
	st->ept.fd = -1;
	st->size = (size_t)pg_arg_int(ctx->args, "size");
	st->window = 1;
	if (ctx->bench == &pg_msg_rpmsg_stream) {
		int64_t w = pg_arg_int(ctx->args, "window");
		st->window = w ? (int)w : VIRTIO_TX_BUFFERS / ctx->copies;
		if (st->window < 1)
			st->window = 1;
	}
	st->timeout_ns = (uint64_t)pg_arg_int(ctx->args, "timeout") * 1000000u;

	struct msg_service svc[64];
	char why[PG_MSG_LEN];
	int n = msg_find_services("", pg_arg_str(ctx->args, "remote"), svc, 64, why, sizeof(why));
	if (n == 0)
		return pg_skip(ctx, "%s", why);
	/* Several endpoints of the service (ADI's firmware announces one per
	 * channel): channel i talks to the i-th, round robin. */
	st->svc = svc[ctx->copy % n];
	int reaped = ctx->copy == 0 ? msg_ept_reap("", st->svc.ctrl) : 0;
	char name[MSG_NAME_LEN];
	snprintf(name, sizeof(name), "perfguide.%ld.%d", (long)getpid(), ctx->copy);
	int rc = msg_ept_open("", &st->svc, name, &st->ept, why, sizeof(why));
	if (rc == PG_SKIP)
		return pg_skip(ctx, "%s", why);
	if (rc != PG_OK)
		return pg_error(ctx, "%s", why);
	/* One untimed round trip: the remote answers, and the path is warm. */
	uint64_t done;
	if ((rc = exchange(ctx, st, 1, 0, NULL, &done)) != PG_OK)
		return rc;
	if (ctx->copy == 0)
		pg_note(ctx, "%s at address %u on %s%s%s; channel 0 on %s%s%s", st->svc.name,
			st->svc.dst, st->svc.parent, st->svc.rproc[0] ? " of " : "", st->svc.rproc,
			st->ept.path, n > 1 ? "; the service's endpoints taken in turn" : "",
			reaped ? "; removed endpoints a killed perfguide left" : "");
	return PG_OK;
}

static int rp_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct rp_state *st = ctx->priv;
	(void)iters;
	uint64_t count = (uint64_t)pg_arg_int(ctx->args, "count"), done;
	uint64_t deadline = count ? 0 : now_ns() + (uint64_t)pg_arg_int(ctx->args, "time") * 1000000000u;
	int rc = exchange(ctx, st, count, deadline, ctx->hist, &done);
	if (rc != PG_OK)
		return rc;
	double bytes = (double)done * (double)st->size;
	counts[0] = (double)done;
	counts[1] = bytes;
	/* Each channel's share: summed over the channels, the mean per channel. */
	counts[2] = (double)done / ctx->copies;
	counts[3] = bytes / ctx->copies;
	return PG_OK;
}

static void rp_teardown(struct pg_ctx *ctx)
{
	struct rp_state *st = ctx->priv;
	if (!st)
		return;
	msg_ept_close(&st->ept);
	free(st);
	ctx->priv = NULL;
}

#define RP_PARAMS												\
	{ .name = "remote", .type = PG_P_STR, .def = "auto",						\
	  .help = "the echo service: auto (the first known one on the bus), a remote processor "	\
		  "(index, remoteprocN or name: 5c00000.r5f), a service name (ti.ipc4.ping-pong, "	\
		  "sharc-echo, rpmsg-client-sample) or RPROC:SERVICE" },				\
	{ .name = "channels", .type = PG_P_INT, .def = "1", .min = 1, .max = 256,			\
	  .help = "endpoints, one thread each, timed together", .standard = "1,8,32" },		\
	{ .name = "size", .type = PG_P_SIZE, .def = "1", .min = 1,					\
	  .help = "payload bytes per message (at most 496)", .standard = "1,8,128,496" },		\
	{ .name = "count", .type = PG_P_INT, .def = "0", .min = 0, .max = 1000000000,		\
	  .help = "messages per channel in each sample; 0: for `time` seconds" },			\
	{ .name = "time", .type = PG_P_INT, .def = "1", .min = 1, .max = 3600,			\
	  .help = "seconds each sample lasts when count is 0" },					\
	{ .name = "timeout", .type = PG_P_INT, .def = "1000", .min = 1, .max = 600000,		\
	  .help = "ms without an echo (or a free buffer) before the remote counts as stopped" }

static const struct pg_param rr_params[] = {
	RP_PARAMS,
	{ 0 },
};

static const struct pg_param stream_params[] = {
	RP_PARAMS,
	{ .name = "window", .type = PG_P_INT, .def = "0", .min = 0, .max = RING,
	  .help = "messages in flight per channel; 0: 256 (virtio's transmit buffers) / channels" },
	{ 0 },
};

static const struct pg_metric rp_metrics[] = {
	{ "messages", "msg/s", PG_RATE, 1, 1, 0 },
	{ "bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ "messages_per_channel", "msg/s", PG_RATE, 1, 1, 0 },
	{ "bandwidth_per_channel", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ "lat_mean", "us", PG_HIST_MEAN, 1e-3, 0, 0 },
	{ "lat_p50", "us", PG_HIST_Q, 1e-3, 0, 0.50 },
	{ "lat_p99", "us", PG_HIST_Q, 1e-3, 0, 0.99 },
	{ "lat_p999", "us", PG_HIST_Q, 1e-3, 0, 0.999 },
	{ "lat_max", "us", PG_HIST_Q, 1e-3, 0, 1 },
	{ 0 },
};

/* ADI's plots: throughput against the message size, a line per channel
 * count; TI's table: round-trip latency per remote core. */
static const struct pg_section msg_section = {
	.title = "Messaging",
	.intro = "RPMsg messages to a remote core's echo firmware and back, through the "
		 "kernel's rpmsg_char interface (/dev/rpmsgN); every echo checked.",
	.order = 130,
	.cpu_load = 1,
	.plot_x = "size",
	.plot_series = "channels",
};

/* A sample of `count` messages has no known length; one of `time` does. */
static void rp_floor(const struct pg_args *a, double *setup_s, double *sample_s)
{
	*setup_s = 0;
	*sample_s = pg_arg_int(a, "count") ? 0 : (double)pg_arg_int(a, "time");
}

#define RP_BENCH								\
	.section = &msg_section, .metrics = rp_metrics,	\
	.copies_param = "channels", .trial = 1, .check = rp_check,		\
	.setup = rp_setup, .step = rp_step, .teardown = rp_teardown, .floor = rp_floor

const struct pg_bench pg_msg_rpmsg_rr = {
	.id = "msg.rpmsg.rr",
	.title = "RPMsg round trip, one message in flight per channel",
	.params = rr_params,
	RP_BENCH,
};

const struct pg_bench pg_msg_rpmsg_stream = {
	.id = "msg.rpmsg.stream",
	.title = "RPMsg stream, the remote's buffers full",
	.params = stream_params,
	RP_BENCH,
};
