/*
 * RFC 2544 section 26.1 throughput: the highest offered rate at which the
 * peer receives every datagram, per datagram size, as the seed's "UDP
 * Throughput (0% loss)" table (there by netperf -b/-w trials by hand).
 *
 * setup searches: a first trial with no limit finds what this side can
 * offer at all, then a binary search between 0 and that with short trials
 * (a tenth of `time`, 0.5 to 2 s), to 1% of the rate. A trial passes only
 * when nothing was lost AND the sender really offered the asked rate
 * (within 1%): a sender too slow to offer the rate does not make a link
 * lossless. The one timed step is the full-length trial that confirms the
 * answer, so the result's CPU load is the load at that rate. A full trial
 * that loses datagrams steps the rate down, as RFC 2544 testers do, by a
 * step that doubles each time (2%, 4%, 8%... and never above what the lossy
 * trial got through), for at most eight confirming trials: a busy machine
 * gives a lower rate, not an error; the note says how many trials it took.
 * dir=in runs the same
 * search with the peer as the sender (udp_in.c): its first trial finds
 * what the peer can offer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net.h"

#define RESOLUTION 0.01
#define MAX_SEARCH_TRIALS 16
#define CONFIRM_TRIES 8
#define FIRST_STEP 0.02
#define MAX_STEP 0.5

struct zl_state {
	struct net_session s;
	double rate;		/* the search's answer, Mbit/s */
	double sender_max;	/* what the unlimited trial offered */
	int trials;
};

static int passes(const struct net_udp_result *r, double mbit)
{
	return r->sent > 0 && r->received == r->sent && r->offered_mbit >= mbit * (1 - RESOLUTION);
}

static int zl_setup(struct pg_ctx *ctx)
{
	struct zl_state *st = calloc(1, sizeof(*st));
	if (!st)
		return pg_error(ctx, "out of memory");
	ctx->priv = st;
	int rc = net_open(ctx, &st->s);
	int in = NET_DIR_IN(ctx->args);
	if (rc == PG_OK && in)
		rc = net_udp_in_supported(ctx, &st->s);
	if (rc != PG_OK)
		return rc;

	int64_t size = pg_arg_int(ctx->args, "size");
	uint64_t window = (uint64_t)pg_arg_int(ctx->args, "window");
	double time = (double)pg_arg_int(ctx->args, "time");
	double ts = fmin(2.0, fmax(0.5, time / 10));
	struct net_udp_result r;
	rc = net_udp_run(ctx, &st->s, in, size, 0, ts, window, &r);
	if (rc != PG_OK)
		return rc;
	st->trials = 1;
	st->sender_max = r.offered_mbit;
	double lo = 0, hi = r.offered_mbit;
	/* The first paced trial is at the sender's own maximum: a link that
	 * loses nothing there needs no search. */
	double rate = hi;
	while (st->trials < MAX_SEARCH_TRIALS) {
		rc = net_udp_run(ctx, &st->s, in, size, rate, ts, window, &r);
		if (rc != PG_OK)
			return rc;
		st->trials++;
		if (passes(&r, rate))
			lo = rate;
		else
			hi = rate;
		if (hi - lo <= hi * RESOLUTION)
			break;
		rate = (lo + hi) / 2;
	}
	if (lo <= 0)
		return pg_error(ctx, "datagrams were lost at every rate tried, down to %.3g Mbit/s", hi);
	st->rate = lo;
	return PG_OK;
}

static int zl_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct zl_state *st = ctx->priv;
	(void)iters;
	int64_t size = pg_arg_int(ctx->args, "size");
	double time = (double)pg_arg_int(ctx->args, "time");
	struct net_udp_result r;
	double rate = st->rate, last = rate, step = FIRST_STEP;
	for (int i = 0; i < CONFIRM_TRIES; i++) {
		int rc = net_udp_run(ctx, &st->s, NET_DIR_IN(ctx->args), size, rate, time,
				     (uint64_t)pg_arg_int(ctx->args, "window"), &r);
		if (rc != PG_OK)
			return rc;
		if (passes(&r, rate)) {
			ctx->remote_busy_pct = r.remote_busy;
			counts[0] = r.offered_mbit;
			counts[1] = r.received_kpps;
			double cap = pg_peer_max_rate(st->s.peer);
			int capped = NET_DIR_IN(ctx->args) && cap > 0 && st->sender_max >= 0.9 * cap;
			pg_note(ctx, "%d search trials; %s offers at most %.1f Mbit/s%s; "
				"confirmed over %.0f s at %.1f Mbit/s (search: %.1f) in %d "
				"confirming trial%s", st->trials,
				NET_DIR_IN(ctx->args) ? "the peer" : "this side", st->sender_max,
				capped ? " (its --max-rate)" : "", time, rate, st->rate, i + 1,
				i ? "s" : "");
			return PG_OK;
		}
		/* What got through a lossy full trial is what the path carries
		 * for that long: try under it, by more each time. */
		last = rate;
		rate = fmin(rate * (1 - step), r.received_mbit * 0.995);
		step = fmin(step * 2, MAX_STEP);
	}
	return pg_error(ctx, "no rate held without loss over a full %.0f s trial in %d tries (the "
			"search found %.1f Mbit/s; last %.1f Mbit/s lost %.3g%%)", time,
			CONFIRM_TRIES, st->rate, last, r.loss_pct);
}

static void zl_teardown(struct pg_ctx *ctx)
{
	struct zl_state *st = ctx->priv;
	if (!st)
		return;
	net_close(&st->s);
	free(st);
	ctx->priv = NULL;
}

static void zl_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		     char *buf, size_t len)
{
	(void)b;
	int frame = net_frame_size(pg_arg_int(a, "size"));
	const char *col = strcmp(metric, "throughput") == 0 ? "THROUGHPUT"
			: strcmp(metric, "kpps") == 0 ? "Packets Per Second" : NULL;
	if (col)
		snprintf(buf, len, "UDP Throughput 0%% loss, %s%d-byte frames: %s",
			 NET_DIR_IN(a) ? "ingress, " : "", frame, col);
}

static const struct pg_param zl_params[] = {
	NET_PEER_PARAMS,
	{ .name = "time", .type = PG_P_INT, .def = "10", .min = 1, .max = 3600,
	  .help = "seconds of the trial that confirms the rate (the search's are a tenth, 0.5 to 2 s)",
	  .quick = "2", .standard = "5", .full = "60" },
	{ .name = "size", .type = PG_P_SIZE, .def = "1472", .min = 1, .max = 65507,
	  .help = "UDP payload bytes per datagram (18..1472: 64- to 1518-byte Ethernet frames)",
	  .standard = "18,82,210,978,1472" },
	{ .name = "window", .type = PG_P_SIZE, .def = "auto", .choices = "auto", .max = 1 << 30,
	  .help = "socket buffers on both ends; auto: the system's" },
	NET_DIR_PARAM,
	{ 0 },
};
static const struct pg_metric zl_metrics[] = {
	{ "throughput", "Mbit/s", PG_VALUE, 1, 1, 0 },
	{ "kpps", "kpps", PG_VALUE, 1, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_net_udp_zeroloss = {
	.id = "net.udp.zeroloss", .title = "UDP throughput at zero loss (RFC 2544 26.1 search)",
	.section = &pg_net_sec_ethernet,
	.params = zl_params, .metrics = zl_metrics, .once = 1, .check = net_udp_dir_check,
	.setup = zl_setup, .step = zl_step, .teardown = zl_teardown, .label = zl_label,
};
