/* SPDX-License-Identifier: MIT */
/* The clocks: CLOCK_MONOTONIC for every measurement, wall time for records. */
#ifndef PG_TIMER_H
#define PG_TIMER_H

#include <stddef.h>
#include <time.h>

static inline double pg_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Sleeps s seconds, all of them: a signal handled meanwhile does not end
 * the sleep (a caller polling a flag the handler sets sees it after). */
void pg_sleep_s(double s);

/* CLOCK_REALTIME in seconds. */
double pg_wall_time(void);

/* ISO 8601 UTC with milliseconds: 2026-11-30T21:09:10.123Z */
void pg_iso_time(double t, char *buf, size_t len);

#endif
