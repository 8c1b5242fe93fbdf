/* SPDX-License-Identifier: MIT */
#include "timer.h"

#include <errno.h>
#include <stdio.h>

void pg_sleep_s(double s)
{
	if (!(s > 0))
		return;
	time_t whole = (time_t)s;
	struct timespec ts = { .tv_sec = whole, .tv_nsec = (long)((s - (double)whole) * 1e9) };
	if (ts.tv_nsec > 999999999L)
		ts.tv_nsec = 999999999L;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

double pg_wall_time(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void pg_iso_time(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;
	gmtime_r(&s, &tm);
	int ms = (int)((t - (double)s) * 1000);
	if (ms > 999)
		ms = 999;
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
}
