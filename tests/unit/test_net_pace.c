/* SPDX-License-Identifier: MIT */
/* The net group's pacing, rate parsing and latency percentiles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "bench/net/net.h"

static void schedule_is_absolute(void **state)
{
	(void)state;
	struct net_pace p;
	net_pace_init(&p, 1000, 1.0, 100.0);
	assert_int_equal(p.total, 1000);
	assert_int_equal(p.quantum, 1);
	assert_int_equal(net_pace_due(&p, 99.9), 0);
	/* packet 0 at t0, packet 10 at t0 + 10 ms: 11 due at 10.5 ms */
	assert_int_equal(net_pace_due(&p, 100.0), 1);
	assert_int_equal(net_pace_due(&p, 100.0105), 11);
	p.sent = 11;
	assert_int_equal(net_pace_due(&p, 100.0105), 0);
	assert_float_equal(net_pace_next(&p), 100.011, 1e-9);
	/* a late wake-up is made up in one batch, at most max_batch */
	assert_int_equal(net_pace_due(&p, 100.5), 64);
	/* never more than the trial's total */
	p.sent = 990;
	assert_int_equal(net_pace_due(&p, 200.0), 10);
}

static void high_rates_send_in_quanta(void **state)
{
	(void)state;
	struct net_pace p;
	net_pace_init(&p, 1e6, 2.0, 0);
	assert_int_equal(p.total, 2000000);
	assert_int_equal(p.quantum, 64);	/* 1 ms of the schedule, at most 64 */
	net_pace_init(&p, 20000, 2.0, 0);
	assert_int_equal(p.quantum, 20);
	net_pace_init(&p, 999, 2.0, 0);
	assert_int_equal(p.quantum, 1);
	net_pace_init(&p, 0, 2.0, 0);	/* unlimited */
	assert_int_equal(p.total, 0);
	assert_int_equal(net_pace_due(&p, 0), p.max_batch);
}

struct counter {
	struct net_pace *p;
	uint64_t early;		/* packets handed out before their time */
	uint64_t n;
};

static int count_send(void *arg, unsigned n)
{
	struct counter *c = arg;
	double now = pg_now();
	for (unsigned i = 0; i < n; i++) {
		uint64_t idx = c->p->sent + i;
		if (now < c->p->t0 + (double)idx / c->p->pps)
			c->early++;
	}
	c->n += n;
	return (int)n;
}

/* A known answer, whatever the machine's load: the schedule sends exactly
 * rate x time packets, none before its time. */
static void run_sends_exactly_the_schedule(void **state)
{
	(void)state;
	struct net_pace p;
	struct counter c = { .p = &p };
	double t0 = pg_now();
	net_pace_init(&p, 20000, 0.25, t0);
	double last = net_pace_run(&p, t0 + 10, count_send, &c);
	assert_int_equal(p.sent, 5000);
	assert_int_equal(c.n, 5000);
	assert_int_equal(c.early, 0);
	assert_true(last >= t0 + 4999.0 / 20000);
}

static void rates(void **state)
{
	(void)state;
	double m;
	assert_int_equal(net_rate_parse("max", &m), 0);
	assert_float_equal(m, 0, 0);
	assert_int_equal(net_rate_parse("95.5", &m), 0);
	assert_float_equal(m, 95.5, 1e-12);
	assert_int_equal(net_rate_parse("0", &m), -1);
	assert_int_equal(net_rate_parse("-3", &m), -1);
	assert_int_equal(net_rate_parse("10x", &m), -1);
	assert_int_equal(net_rate_parse("", &m), -1);
	/* 1472-byte payloads at 953.856 Mbit/s are 81 kpps, the seed's row */
	assert_float_equal(net_pps(953.856, 1472), 81000, 1e-6);
	assert_int_equal(net_frame_size(18), 64);
	assert_int_equal(net_frame_size(1472), 1518);
}

static void percentiles(void **state)
{
	(void)state;
	struct net_lat l = { 0 };
	/* 1..100 us in reverse */
	for (int i = 100; i >= 1; i--)
		assert_int_equal(net_lat_add(&l, i * 1e-6), 0);
	assert_float_equal(net_lat_quantile(&l, 0.5), 50, 1e-9);
	assert_float_equal(net_lat_quantile(&l, 0.9), 90, 1e-9);
	assert_float_equal(net_lat_quantile(&l, 0.99), 99, 1e-9);
	assert_float_equal(net_lat_quantile(&l, 1.0), 100, 1e-9);
	net_lat_add(&l, 1.0);
	assert_float_equal(net_lat_quantile(&l, 1.0), 1e6, 1e-9);
	assert_float_equal(net_lat_quantile(&l, 0.5), 51, 1e-9);
	net_lat_free(&l);
	assert_float_equal(net_lat_quantile(&l, 0.5), 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(schedule_is_absolute),
		cmocka_unit_test(high_rates_send_in_quanta),
		cmocka_unit_test(run_sends_exactly_the_schedule),
		cmocka_unit_test(rates),
		cmocka_unit_test(percentiles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
