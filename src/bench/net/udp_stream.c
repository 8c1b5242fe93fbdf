/* SPDX-License-Identifier: MIT */
/*
 * UDP throughput, netperf's UDP_STREAM: `size`-byte datagrams at an offered
 * `rate` for `time` seconds, or as fast as this side can send (rate=max,
 * the seed's "possible loss" table). The peer counts what arrives.
 *
 * Rates are Mbit/s of UDP payload, as netperf counts them: the seed's 1472-
 * byte rows (1518-byte frames) at 81 kpps read 956 Mbit/s, 1472 x 8 x 81000.
 * Offered is what this side actually sent over the trial's time (a paced
 * trial always sends its whole schedule, rate x time; if the sender ran
 * late, over the longer time it took); received
 * is what the peer counted over the same time; loss is the share of the
 * datagrams sent that the peer did not count. dir=in turns it round: the
 * peer sends, this side counts (udp_in.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net.h"
#include "core/err.h"

#define MAX_BATCH 64
/* After the last datagram, time for those still queued on the way (a
 * shaped link's queue, the peer's socket buffer) to be counted. */
#define DRAIN_S 0.05

struct sender {
	int fd;
	struct mmsghdr *msgs;
	int err;
};

static int send_batch(void *arg, unsigned n)
{
	struct sender *sd = arg;
	int k = sendmmsg(sd->fd, sd->msgs, n, 0);
	if (k >= 0)
		return k;
	/* A full queue (ENOBUFS) or an ICMP error from an earlier datagram
	 * is a datagram not sent, not the end of the trial. */
	if (errno == EINTR || errno == EAGAIN || errno == ENOBUFS || errno == ECONNREFUSED)
		return 0;
	sd->err = errno;
	return -1;
}

int net_udp_trial(struct pg_ctx *ctx, struct net_session *s, int64_t size, double mbit,
		  double seconds, uint64_t window, struct net_udp_result *out)
{
	memset(out, 0, sizeof(*out));
	out->remote_busy = -1;
	struct pg_net_test t;
	net_udp_test_init(&t, PG_NET_UDP_STREAM, size, window, seconds + DRAIN_S + 2);
	int rc = net_start(ctx, s, &t);
	if (rc != PG_OK)
		return rc;
	int fd = net_udp_data(ctx, s, window);
	if (fd < 0)
		return net_abandon(ctx, s);
	char *buf = calloc(1, (size_t)size);
	struct mmsghdr msgs[MAX_BATCH];
	struct iovec iov = { .iov_base = buf, .iov_len = (size_t)size };
	memset(msgs, 0, sizeof(msgs));
	for (int i = 0; i < MAX_BATCH; i++) {
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	/* The kernel's default timer slack (50 us) would blur the schedule. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

	struct net_pace p;
	struct sender sd = { .fd = fd, .msgs = msgs };
	double t0 = pg_now();
	net_pace_init(&p, net_pps(mbit, size), seconds, t0);
	/* A sender a little late at the end still sends the last datagrams,
	 * and its offered rate shows the lateness. */
	double last = buf ? net_pace_run(&p, net_pace_end(&p, seconds), send_batch, &sd) : t0;
	int err = sd.err;
	double send_s = p.pps > 0 ? fmax(seconds, last - t0) : last - t0;
	if (buf && !err)
		net_pace_wait(pg_now() + DRAIN_S);
	free(buf);
	struct pg_net_report r;
	rc = net_stop(ctx, s, &r);
	close(fd);
	if (!buf)
		return pg_error(ctx, "out of memory");
	if (err)
		return pg_error(ctx, "peer %s: sending: %s", s->where, strerror(err));
	if (rc != PG_OK)
		return rc;
	out->sent = p.sent;
	/* A datagram counted twice or from an earlier trial is not a gain. */
	out->received = r.packets_rx < p.sent ? r.packets_rx : p.sent;
	out->send_s = send_s > 0 ? send_s : 1e-9;
	out->offered_mbit = (double)out->sent * (double)size * 8e-6 / out->send_s;
	out->received_mbit = (double)out->received * (double)size * 8e-6 / out->send_s;
	out->received_kpps = (double)out->received / out->send_s / 1e3;
	out->loss_pct = out->sent ? 100.0 * (double)(out->sent - out->received) / (double)out->sent : 0;
	out->remote_busy = r.have_busy ? r.busy_pct : -1;
	if (!out->sent)
		return pg_error(ctx, "no datagram could be sent in %.3g s", seconds);
	return PG_OK;
}

struct udp_state {
	struct net_session s;
	double mbit;
};

static int udp_setup(struct pg_ctx *ctx)
{
	struct udp_state *st = calloc(1, sizeof(*st));
	if (!st)
		return pg_error(ctx, "out of memory");
	ctx->priv = st;
	net_rate_parse(pg_arg_str(ctx->args, "rate"), &st->mbit);
	int rc = net_open(ctx, &st->s);
	if (rc == PG_OK && NET_DIR_IN(ctx->args))
		rc = net_udp_in_supported(ctx, &st->s);
	return rc;
}

static int udp_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct udp_state *st = ctx->priv;
	struct net_udp_result r;
	(void)iters;
	int rc = net_udp_run(ctx, &st->s, NET_DIR_IN(ctx->args), pg_arg_int(ctx->args, "size"),
			     st->mbit, (double)pg_arg_int(ctx->args, "time"),
			     (uint64_t)pg_arg_int(ctx->args, "window"), &r);
	if (rc != PG_OK)
		return rc;
	if (r.reordered)
		pg_note(ctx, "%llu of %llu datagrams arrived after a later one",
			(unsigned long long)r.reordered, (unsigned long long)r.received);
	counts[0] = r.received_mbit;
	counts[1] = r.offered_mbit;
	counts[2] = r.received_kpps;
	counts[3] = r.loss_pct;
	counts[4] = (double)r.sent / r.send_s / 1e3;
	counts[5] = (double)r.sent;
	return PG_OK;
}

static void udp_teardown(struct pg_ctx *ctx)
{
	struct udp_state *st = ctx->priv;
	if (!st)
		return;
	net_close(&st->s);
	free(st);
	ctx->priv = NULL;
}

/* The rate parameter's form: Mbit/s or max (not an audio rate's Hz by
 * -p rate=...: 48000 would do as either, 48k as neither). */
static int rate_form(const char *s, char *err, size_t errlen)
{
	double mbit;
	return net_rate_parse(s, &mbit) < 0 ? pg_err(err, errlen, "give Mbit/s above 0 (up to 1000000) or max") : 0;
}

static int udp_check(const struct pg_args *a, char *err, size_t errlen)
{
	return net_udp_dir_check(a, err, errlen);
}

/* The seed's row: "UDP Throughput possible loss" (no rate limit) at a frame
 * size; a paced run has no seed row. The seed's rows are egress (netperf
 * on the board sends); ingress says so in its label. */
static void udp_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		      char *buf, size_t len)
{
	(void)b;
	if (strcmp(pg_arg_str(a, "rate"), "max") != 0)
		return;
	int frame = net_frame_size(pg_arg_int(a, "size"));
	const char *col = strcmp(metric, "throughput") == 0 ? "THROUGHPUT"
			: strcmp(metric, "kpps") == 0 ? "Packets Per Second"
			: strcmp(metric, "loss") == 0 ? "Packet Loss" : NULL;
	if (col)
		snprintf(buf, len, "UDP Throughput possible loss, %s%d-byte frames: %s",
			 NET_DIR_IN(a) ? "ingress, " : "", frame, col);
}

static const struct pg_param udp_params[] = {
	NET_PEER_PARAMS,
	{ .name = "time", .type = PG_P_INT, .def = "10", .min = 1, .max = 3600,
	  .help = "seconds each sample sends for (netperf -l)", .standard = "3", .full = "10" },
	{ .name = "size", .type = PG_P_SIZE, .def = "1472", .min = 1, .max = 65507,
	  .help = "UDP payload bytes per datagram (18..1472: 64- to 1518-byte Ethernet frames)",
	  .standard = "18,82,210,978,1472" },
	{ .name = "rate", .type = PG_P_STR, .def = "max", .form = rate_form,
	  .help = "offered Mbit/s of payload, paced finely, or max: as fast as this side sends" },
	{ .name = "window", .type = PG_P_SIZE, .def = "auto", .choices = "auto", .max = 1 << 30,
	  .help = "socket buffers on both ends; auto: the system's" },
	NET_DIR_PARAM,
	{ 0 },
};
static const struct pg_metric udp_metrics[] = {
	{ "throughput", "Mbit/s", PG_VALUE, 1, 1, 0 },
	{ "offered", "Mbit/s", PG_VALUE, 1, 1, 0 },
	{ "kpps", "kpps", PG_VALUE, 1, 1, 0 },
	{ "loss", "%", PG_VALUE, 1, 0, 0 },
	{ "offered_kpps", "kpps", PG_VALUE, 1, 1, 0 },
	{ "datagrams", "sent", PG_VALUE, 1, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_net_udp_stream = {
	.id = "net.udp.stream", .title = "UDP throughput, offered and received (netperf UDP_STREAM)",
	.section = &pg_net_sec_ethernet,
	.params = udp_params, .metrics = udp_metrics, .trial = 1, .min_suite = PG_IN_STANDARD,
	.check = udp_check, .setup = udp_setup, .step = udp_step, .teardown = udp_teardown,
	.label = udp_label,
};
