/* SPDX-License-Identifier: MIT */
/*
 * Pacing of datagrams, shared by the net benchmarks (this side sends) and
 * `perfguide serve` (the peer sends, udp_source): packet i of a trial is due
 * at t0 + i / pps, an absolute schedule, so a late wake-up is made up by the
 * next batch instead of slowing the whole trial. pps 0 sends as fast as
 * possible.
 */
#ifndef PG_NET_PACE_H
#define PG_NET_PACE_H

#include <stdint.h>

#include "core/timer.h"

struct net_pace {
	double t0, pps;
	uint64_t sent;		/* packets sent so far */
	uint64_t total;		/* packets in the trial (0: until the time is up) */
	unsigned quantum;	/* wait until this many are due before a send */
	unsigned max_batch;	/* at most this many per sendmmsg */
};
void net_pace_init(struct net_pace *p, double pps, double seconds, double t0);
/* Packets per second for a rate in payload bits/s (START's rate) and
 * datagrams of `size` bytes: the peer and the receiver both compute the
 * schedule from the same integers. */
double net_pace_pps(uint64_t bits_per_s, uint64_t size);
/* How many packets are due at `now` and not yet sent, at most max_batch. */
unsigned net_pace_due(const struct net_pace *p, double now);
/* When the next `quantum` packets are due (absolute seconds). */
double net_pace_next(const struct net_pace *p);
/* Sleeps until the absolute CLOCK_MONOTONIC time `until`. */
void net_pace_wait(double until);
/* When a trial of `seconds` gives up: a paced one sends its whole schedule
 * unless it falls more than a tenth behind; an unpaced one stops on time. */
double net_pace_end(const struct net_pace *p, double seconds);
/* Sends by the schedule until `end` or until all `total` are sent: calls
 * send(arg, n) with the n packets due (it returns how many went, or -1 to
 * stop). Returns the time the last send returned, or p->t0 if none. */
double net_pace_run(struct net_pace *p, double end, int (*send)(void *arg, unsigned n), void *arg);

#endif
