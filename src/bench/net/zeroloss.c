/* SPDX-License-Identifier: MIT */
/*
 * The zero-loss rate of RFC 2544 section 26.1 (the seed's "UDP Throughput
 * (0% loss)" table), found as FD.io CSIT's MLRsearch finds it
 * (draft-ietf-bmwg-mlrsearch): in one search, the no-drop rate (NDR: no
 * datagram lost) and the partial-drop rate (PDR: at most `loss` percent
 * lost), with short trials first and the full `time` only where it
 * decides.
 *
 * A trial at a rate is good for a goal when its loss ratio is at most the
 * goal's AND the sender really offered the rate (within 1%: a sender too
 * slow to offer it does not make a link lossless); otherwise it is bad. For
 * each goal, the upper bound is the lowest rate with a bad trial of any
 * duration (a longer trial would lose no less), the lower bound the
 * highest rate under it with a good trial at least as long as the phase's.
 *
 * The first trial sends as fast as this side (dir=in: the peer) can, which
 * caps every later rate. Then phases: trial durations grow geometrically
 * from the first (a 25th of `time`, 0.1 to 1 s) to `time`, about 3x a
 * phase, and each phase narrows both goals' intervals to its width (8%,
 * 4%, 2%, then the final 1%) with trials of its duration: the lower bound
 * of the last phase is measured again at the new duration (the highest
 * one, until a trial of this duration fails); with none, the search steps
 * down from the upper bound (by the width, doubling each time, never above
 * what the lossy trial got through); with both bounds, it bisects. The
 * last phase before the final one already narrows to the final width, so
 * the final phase, at the full `time`, mostly measures the lower bounds
 * once more.
 *
 * A result is `searches` such searches, each from nothing (what one found
 * bounds no other), each one sample: one search cannot say how far a
 * second would land from it, and the release gate needs that spread (FD.io
 * CSIT repeats its searches for trending the same way). The median is the
 * median search's (an odd count). A search's phases before the final one
 * are its untimed preparation, the final phase its timed step, so sample_s
 * is the full-length trials' time; the CPU load covers all the searches'
 * trials. Every trial is written to the raw-output file beside the
 * results, by search (the note names it).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/raw.h"
#include "net.h"
#include "core/err.h"

#define RESOLUTION 0.01		/* the final relative width, and the offered rate's tolerance */
#define MAX_TRIALS 48
#define PHASE_GROWTH 3.0	/* a phase's trials are about this much longer than the last's */
#define MAX_STEP 0.5		/* the external search's largest step down */

enum { NDR, PDR, GOALS };

struct zl_trial {
	double rate;		/* asked, Mbit/s (the unpaced first: what it offered) */
	double dur;		/* seconds asked */
	struct net_udp_result r;
};

struct zl_state {
	struct net_session s;
	int64_t size;
	uint64_t window;
	int in;
	double time, first_dur;
	int phases;		/* the final phase's index */
	double ratio[GOALS];	/* the goals' loss ratios: 0 and loss/100 */
	double sender_max;	/* what the unpaced first trial offered */
	int downs[GOALS];	/* steps down from the upper bound in this phase */
	struct zl_trial t[MAX_TRIALS];	/* this search's */
	int n;
	int search;		/* this search's number, from 1 */
	char trials[96];	/* each search's trials so far, "11+4+7" */
	char full[96];		/* and how many of them were of the full time */
	double sender_top;	/* the highest the first trials offered */
	FILE *raw;
	char raw_name[128];
};

static int good(const struct zl_trial *t, double ratio)
{
	const struct net_udp_result *r = &t->r;
	if (r->sent == 0 || r->offered_mbit < t->rate * (1 - RESOLUTION))
		return 0;
	return (double)(r->sent - r->received) <= ratio * (double)r->sent;
}

static double phase_dur(const struct zl_state *st, int k)
{
	return k >= st->phases ? st->time
			       : st->first_dur * pow(st->time / st->first_dur, (double)k / st->phases);
}

/* 1% at the final phase and the one before it, doubling in each earlier one. */
static double phase_width(const struct zl_state *st, int k)
{
	int up = st->phases - 1 - k;
	return RESOLUTION * (up > 0 ? ldexp(1, up) : 1);
}

/* The goal's bounds for trials of at least `dur` seconds: *hi the lowest
 * rate of a bad trial (INFINITY: none), *lo the highest good rate under it
 * (0: none); *hint the highest good rate under *hi at any duration, unless
 * a trial of this duration was already bad (then 0); *through what the
 * trial at *hi got through. */
static void bounds(const struct zl_state *st, int g, double dur, double *lo, double *hi,
		   double *hint, double *through)
{
	int bad_here = 0;
	*hi = INFINITY;
	*through = INFINITY;
	for (int i = 0; i < st->n; i++) {
		if (good(&st->t[i], st->ratio[g]))
			continue;
		bad_here |= st->t[i].dur >= dur * 0.999;
		if (st->t[i].rate < *hi) {
			*hi = st->t[i].rate;
			*through = st->t[i].r.received_mbit;
		}
	}
	*lo = *hint = 0;
	for (int i = 0; i < st->n; i++) {
		const struct zl_trial *t = &st->t[i];
		if (!good(t, st->ratio[g]) || t->rate >= *hi)
			continue;
		if (!bad_here)
			*hint = fmax(*hint, t->rate);
		if (t->dur >= dur * 0.999)
			*lo = fmax(*lo, t->rate);
	}
}

/* The next rate to try for goal g in phase k, or 0 when its interval is
 * narrow enough, or -1 when the search has gone as low as it sensibly can. */
static double next_rate(struct zl_state *st, int g, int k)
{
	double lo, hi, hint, through, w = phase_width(st, k);
	bounds(st, g, phase_dur(st, k), &lo, &hi, &hint, &through);
	if (isinf(hi))		/* nothing lost: the sender's maximum holds? */
		return lo >= st->sender_max * (1 - RESOLUTION) ? 0 : st->sender_max;
	if (lo > 0) {
		st->downs[g] = 0;
		return hi - lo <= hi * w ? 0 : (lo + hi) / 2;
	}
	if (hint > 0)		/* a shorter trial's lower bound, measured again */
		return hint;
	double step = fmin(w * ldexp(1, st->downs[g]++), MAX_STEP);
	double r = fmin(hi * (1 - step), through * (1 - w));
	return r < st->sender_max * 1e-4 ? -1 : r;
}

static void log_trial(struct zl_state *st, int k, const struct zl_trial *t)
{
	if (!st->raw)
		return;
	const struct net_udp_result *r = &t->r;
	fprintf(st->raw, "%d\t%d\t%d\t%.3f\t%.6g\t%.6g\t%llu\t%llu\t%.6g\t%s\t%s\n", st->search, st->n, k, t->dur,
		t->rate, r->offered_mbit, (unsigned long long)r->sent, (unsigned long long)r->received,
		r->loss_pct, good(t, st->ratio[NDR]) ? "good" : "bad",
		good(t, st->ratio[PDR]) ? "good" : "bad");
	fflush(st->raw);
}

/* One trial at `rate` Mbit/s (0: unpaced) for `dur` seconds, recorded. */
static int measure(struct pg_ctx *ctx, struct zl_state *st, int k, double rate, double dur)
{
	if (st->n >= MAX_TRIALS)
		return pg_error(ctx, "the search took more than %d trials without narrowing "
				"(the trials: %s)", MAX_TRIALS, st->raw_name);
	struct zl_trial *t = &st->t[st->n];
	t->dur = dur;
	int rc = net_udp_run(ctx, &st->s, st->in, st->size, rate, dur, st->window, &t->r);
	if (rc != PG_OK)
		return rc;
	t->rate = rate > 0 ? rate : t->r.offered_mbit;
	st->n++;
	log_trial(st, k, t);
	return PG_OK;
}

/* Phase k: both goals narrowed to its width with trials of its duration. */
static int run_phase(struct pg_ctx *ctx, struct zl_state *st, int k)
{
	for (int g = 0; g < GOALS; g++) {
		st->downs[g] = 0;
		for (;;) {
			double rate = next_rate(st, g, k);
			if (rate == 0)
				break;
			if (rate < 0)
				return pg_error(ctx, "datagrams were lost at every rate tried, down to "
						"%.3g Mbit/s (the trials: %s)", st->t[st->n - 1].rate,
						st->raw_name);
			int rc = measure(ctx, st, k, rate, phase_dur(st, k));
			if (rc != PG_OK)
				return rc;
		}
	}
	return PG_OK;
}

static int zl_open_raw(struct pg_ctx *ctx, struct zl_state *st)
{
	st->raw = pg_raw_open(ctx, "tsv", st->raw_name, sizeof(st->raw_name));
	if (st->raw)
		fprintf(st->raw, "# %s size=%lld time=%.0f loss=%g%%: MLRsearch trials\n"
			"search\ttrial\tphase\tseconds\tasked_mbit\toffered_mbit\tsent\treceived\tloss_pct\t"
			"ndr\tpdr\n", ctx->bench->id, (long long)st->size, st->time,
			st->ratio[PDR] * 100);
	return PG_OK;
}

/* The first trial's duration and the phases from `time`. */
static void zl_plan(struct zl_state *st)
{
	st->first_dur = fmin(1.0, fmax(0.1, st->time / 25));
	st->phases = (int)ceil(log(st->time / st->first_dur) / log(PHASE_GROWTH));
	if (st->phases < 1)
		st->phases = 1;
}

/* What no budget can shorten, all in the sample since each search is one:
 * the unpaced first trial and at least one trial of each phase's duration
 * (a phase measures the last one's lower bound again at its own), the
 * final one in the timed step. */
static void zl_floor(const struct pg_args *a, double *setup_s, double *sample_s)
{
	struct zl_state st = { .time = (double)pg_arg_int(a, "time") };
	zl_plan(&st);
	*setup_s = 0;
	*sample_s = st.first_dur + st.time;
	for (int k = 0; k < st.phases; k++)
		*sample_s += phase_dur(&st, k);
}

static int zl_setup(struct pg_ctx *ctx)
{
	struct zl_state *st = calloc(1, sizeof(*st));
	if (!st)
		return pg_error(ctx, "out of memory");
	ctx->priv = st;
	st->in = NET_DIR_IN(ctx->args);
	st->size = pg_arg_int(ctx->args, "size");
	st->window = (uint64_t)pg_arg_int(ctx->args, "window");
	st->time = (double)pg_arg_int(ctx->args, "time");
	zl_plan(st);
	st->ratio[PDR] = strtod(pg_arg_str(ctx->args, "loss"), NULL) / 100;
	int rc = net_open(ctx, &st->s);
	if (rc == PG_OK && st->in)
		rc = net_udp_in_supported(ctx, &st->s);
	if (rc != PG_OK)
		return rc;
	return zl_open_raw(ctx, st);
}

/* A search's untimed part, before its timed final phase: it starts anew
 * (what an earlier search found is not a bound of this one, so the
 * searches are independent samples), with the unpaced first trial, then
 * every phase but the final one. */
static int zl_prepare(struct pg_ctx *ctx, uint64_t iters)
{
	struct zl_state *st = ctx->priv;
	(void)iters;
	st->search++;
	st->n = 0;
	int rc = measure(ctx, st, 0, 0, st->first_dur);
	if (rc != PG_OK)
		return rc;
	st->sender_max = st->t[0].rate;
	st->sender_top = fmax(st->sender_top, st->sender_max);
	for (int k = 0; k < st->phases; k++)
		if ((rc = run_phase(ctx, st, k)) != PG_OK)
			return rc;
	return PG_OK;
}

/* The highest good rate of the full duration under the goal's upper bound,
 * and that trial. */
static const struct zl_trial *answer(const struct zl_state *st, int g)
{
	double lo, hi, hint, through;
	bounds(st, g, st->time, &lo, &hi, &hint, &through);
	for (int i = 0; i < st->n; i++)
		if (lo > 0 && st->t[i].rate == lo && st->t[i].dur >= st->time * 0.999 &&
		    good(&st->t[i], st->ratio[g]))
			return &st->t[i];
	return NULL;
}

/* The note after each search: every search's trials so far. */
static void zl_note(struct pg_ctx *ctx, struct zl_state *st, int full)
{
	size_t at = strlen(st->trials), fat = strlen(st->full);
	snprintf(st->trials + at, sizeof(st->trials) - at, "%s%d", at ? "+" : "", st->n);
	snprintf(st->full + fat, sizeof(st->full) - fat, "%s%d", fat ? "+" : "", full);
	double cap = pg_peer_max_rate(st->s.peer);
	int capped = st->in && cap > 0 && st->sender_top >= 0.9 * cap;
	pg_note(ctx, "MLRsearch, %d search%s: %s trials, %s of them %.0f s; %s offers at most "
		"%.1f Mbit/s%s; PDR at loss <= %g%%; trials in %s", st->search, st->search > 1 ? "es" : "",
		st->trials, st->full, st->time, st->in ? "the peer" : "this side", st->sender_top,
		capped ? " (its --max-rate)" : "", st->ratio[PDR] * 100, st->raw_name);
}

/* A search's final phase: its answers are this sample's values. */
static int zl_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct zl_state *st = ctx->priv;
	(void)iters;
	int first = st->n, rc = run_phase(ctx, st, st->phases);
	if (rc != PG_OK)
		return rc;
	const struct zl_trial *ndr = answer(st, NDR), *pdr = answer(st, PDR);
	if (!ndr || !pdr)
		return pg_error(ctx, "no rate held over a full %.0f s trial in search %d (the trials: %s)",
				st->time, st->search, st->raw_name);
	ctx->remote_busy_pct = ndr->r.remote_busy;
	counts[0] = ndr->rate;
	counts[1] = net_pps(ndr->rate, st->size) / 1e3;
	counts[2] = pdr->rate;
	counts[3] = net_pps(pdr->rate, st->size) / 1e3;
	zl_note(ctx, st, st->n - first);
	return PG_OK;
}

static void zl_teardown(struct pg_ctx *ctx)
{
	struct zl_state *st = ctx->priv;
	if (!st)
		return;
	net_close(&st->s);
	if (st->raw)
		fclose(st->raw);
	free(st);
	ctx->priv = NULL;
}

static int zl_check(const struct pg_args *a, char *err, size_t errlen)
{
	const char *s = pg_arg_str(a, "loss");
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno || !(v > 0 && v < 100))
		return pg_err(err, errlen, "loss: '%s' is not a percentage above 0 and below 100", s);
	if (pg_arg_int(a, "searches") % 2 == 0)
		return pg_err(err, errlen, "searches: %lld is even: the result's median would be no "
			      "search's (3, 5...)", (long long)pg_arg_int(a, "searches"));
	return net_udp_dir_check(a, err, errlen);
}

/* The seed's rows are the no-drop rate: its Mbit/s and its packets. */
static void zl_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		     char *buf, size_t len)
{
	(void)b;
	int frame = net_frame_size(pg_arg_int(a, "size"));
	const char *col = strcmp(metric, "ndr") == 0 ? "THROUGHPUT"
			: strcmp(metric, "ndr_kpps") == 0 ? "Packets Per Second" : NULL;
	if (col)
		snprintf(buf, len, "UDP Throughput 0%% loss, %s%d-byte frames: %s",
			 NET_DIR_IN(a) ? "ingress, " : "", frame, col);
}

static const struct pg_param zl_params[] = {
	NET_PEER_PARAMS,
	{ .name = "time", .type = PG_P_INT, .def = "10", .min = 1, .max = 3600,
	  .help = "seconds of the final trials (the search's first are a 25th, 0.1 to 1 s)",
	  /* quick: 1 s, as net.tcp.bidir's samples there; each search's
	   * phases scale with it (1.9 s a search at the least, not 3.1) */
	  .quick = "1", .standard = "2", .full = "60" },
	{ .name = "size", .type = PG_P_SIZE, .def = "1472", .min = 1, .max = 65507,
	  .help = "UDP payload bytes per datagram (18..1472: 64- to 1518-byte Ethernet frames)",
	  .standard = "18,82,210,978,1472" },
	{ .name = "loss", .type = PG_P_STR, .def = "0.5",
	  .help = "the partial-drop rate's goal: percent of datagrams it may lose (CSIT: 0.5)" },
	{ .name = "window", .type = PG_P_SIZE, .def = "auto", .choices = "auto", .max = 1 << 30,
	  .help = "socket buffers on both ends; auto: the system's (the peer receives into the "
		  "largest buffer its system allows)" },
	NET_DIR_PARAM,
	/* How many samples, not what is measured (as --runs): the results
	 * and their key leave it out, so a result compares with one of
	 * another count. Odd (zl_check), so the median is one search's. */
	{ .name = "searches", .type = PG_P_INT, .def = "3", .min = 1, .max = 15, .not_recorded = 1,
	  .help = "independent searches, each one sample of the result (its median the median "
		  "search's, so odd); --runs N: N of them",
	  .quick = "3", .standard = "3", .full = "3" },
	{ 0 },
};
static const struct pg_metric zl_metrics[] = {
	{ "ndr", "Mbit/s", PG_VALUE, 1, 1, 0 },
	{ "ndr_kpps", "kpps", PG_VALUE, 1, 1, 0 },
	{ "pdr", "Mbit/s", PG_VALUE, 1, 1, 0 },
	{ "pdr_kpps", "kpps", PG_VALUE, 1, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_net_udp_zeroloss = {
	.id = "net.udp.zeroloss", .title = "UDP throughput at zero loss (RFC 2544 26.1, MLRsearch)",
	.section = &pg_net_sec_ethernet,
	.params = zl_params, .metrics = zl_metrics, .once = 1, .samples_param = "searches",
	.check = zl_check, .setup = zl_setup, .prepare = zl_prepare, .step = zl_step,
	.teardown = zl_teardown, .floor = zl_floor, .label = zl_label,
};
