/* SPDX-License-Identifier: MIT */
/*
 * The BYTEmark (nbench) workloads: shared pieces. Each workload is its own
 * file (nbench_<name>.c); one iteration is the unit the reference counts in
 * its "iterations per second" for that test, with the sizes the reference
 * grows until a pass lasts long enough fixed here, so the same parameters
 * always do the same work.
 */
#ifndef PG_CPU_NBENCH_H
#define PG_CPU_NBENCH_H

#include <stdint.h>

/*
 * The reference's generator: a second-order linear congruential sequence,
 * x(n) = (254754 x(n-1) + 529562 x(n-2)) mod 999563, from 13 and 117. The
 * reference computes it in 32-bit signed arithmetic that overflows; here it
 * wraps explicitly, which gives the same numbers without undefined
 * behaviour.
 */
struct nb_rand {
	int32_t w0, w1;
};

static inline void nb_rand_init(struct nb_rand *r)
{
	r->w0 = 13;
	r->w1 = 117;
}

static inline int32_t nb_rand_next(struct nb_rand *r)
{
	uint32_t t = (uint32_t)r->w0 * 254754u + (uint32_t)r->w1 * 529562u;
	int32_t v = (int32_t)t % 999563;
	r->w1 = r->w0;
	r->w0 = v;
	return v;
}

/*
 * The reference restarts its generator before filling each workload's data
 * with a call that also returns the sequence's first number, which it
 * throws away: its data starts at the second number. The same here, so
 * that the data, and with it the work (how far a sort's elements move, how
 * long the bit runs are, how many rounds the assignment takes), is the
 * reference's.
 */
static inline void nb_rand_restart(struct nb_rand *r)
{
	nb_rand_init(r);
	(void)nb_rand_next(r);
}

#endif
