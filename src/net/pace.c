/* SPDX-License-Identifier: MIT */
/*
 * Fine pacing of datagrams. netperf paces UDP_STREAM in bursts every 10 ms
 * (-b/-w), so a rate is a staircase of bursts. Here packet i is due at
 * t0 + i/pps on CLOCK_MONOTONIC: the sender sleeps until the next packet
 * is due (an absolute clock_nanosleep, timer slack 1 ns) and sends
 * everything due by then in one sendmmsg. A wake-up is typically tens of
 * microseconds late; the schedule is absolute, so that lateness (or a busy
 * machine's) is made up by the next batch and the rate over the trial stays
 * the one asked, unless the sender truly cannot keep up. It does not spin:
 * spinning would keep a CPU busy between packets and inflate the CPU load
 * that the seed reports beside each rate.
 *
 * Both ends use it: the benchmark sending to the peer (net.udp.stream) and
 * `perfguide serve` sending to the benchmark (udp_source, ingress).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "net/pace.h"

/* A sender waits until this much of the schedule is due (at most MAX_BATCH
 * packets) before a sendmmsg: at 100 kpps and up, 64 packets a call and a
 * wake-up every 0.64 ms rather than 3 packets every 20 us, which a loaded
 * 2-core machine could not keep up above about 100 kpps (64-byte frames
 * over loopback: the paced sender offered 14-17 of the 20-26 Mbit/s it
 * could send unpaced with 20 us, docs/methodology-net.md). netperf's -b/-w
 * bursts are 10 ms; a 1 ms burst of small datagrams is a few tens of KB,
 * well within any receive buffer. */
#define BURST_S 1e-3
#define MAX_BATCH 64

void net_pace_init(struct net_pace *p, double pps, double seconds, double t0)
{
	memset(p, 0, sizeof(*p));
	p->t0 = t0;
	p->pps = pps;
	p->max_batch = MAX_BATCH;
	p->quantum = 1;
	if (pps > 0) {
		p->total = (uint64_t)floor(pps * seconds);
		double q = floor(pps * BURST_S);
		p->quantum = q < 1 ? 1 : q > MAX_BATCH ? MAX_BATCH : (unsigned)q;
	}
}

double net_pace_pps(uint64_t bits_per_s, uint64_t size)
{
	return size > 0 ? (double)bits_per_s / 8.0 / (double)size : 0;
}

unsigned net_pace_due(const struct net_pace *p, double now)
{
	if (p->pps <= 0)
		return p->max_batch;
	if (now < p->t0)
		return 0;
	/* Packets 0..k are due when t0 + k/pps <= now. */
	double k = floor((now - p->t0) * p->pps) + 1;
	uint64_t due = k > (double)p->total ? p->total : (uint64_t)k;
	if (due <= p->sent)
		return 0;
	due -= p->sent;
	return due > p->max_batch ? p->max_batch : (unsigned)due;
}

double net_pace_next(const struct net_pace *p)
{
	if (p->pps <= 0)
		return p->t0;
	uint64_t i = p->sent + p->quantum - 1;
	if (i >= p->total)
		i = p->total ? p->total - 1 : 0;
	return p->t0 + (double)i / p->pps;
}

void net_pace_wait(double until)
{
	if (until <= pg_now())
		return;
	struct timespec ts = { .tv_sec = (time_t)until };
	ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

double net_pace_end(const struct net_pace *p, double seconds)
{
	/* A paced trial sends its whole schedule: a sender a little late at the
	 * end still sends the last datagrams; one far behind is cut off. */
	return p->pps > 0 ? p->t0 + seconds * 1.1 + 0.05 : p->t0 + seconds;
}

double net_pace_run(struct net_pace *p, double end, int (*send)(void *arg, unsigned n), void *arg)
{
	double last = p->t0;
	for (;;) {
		double now = pg_now();
		if (now >= end || (p->total && p->sent >= p->total))
			break;
		unsigned n = net_pace_due(p, now);
		/* Wait for a whole quantum unless it is the trial's tail. */
		if (n == 0 || (p->pps > 0 && n < p->quantum && p->sent + n < p->total)) {
			double next = net_pace_next(p);
			net_pace_wait(next < end ? next : end);
			continue;
		}
		int k = send(arg, n);
		if (k < 0)
			break;
		p->sent += (unsigned)k;
		if (k > 0)
			last = pg_now();
	}
	return last;
}
