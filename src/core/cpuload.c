/* SPDX-License-Identifier: MIT */
#include "cpuload.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

double pg_cpu_busy_seconds(const struct pg_cpu_mark *a, const struct pg_cpu_mark *b)
{
	if (!a->total || b->busy < a->busy)
		return 0;
	long hz = sysconf(_SC_CLK_TCK);
	return (double)(b->busy - a->busy) / (double)(hz > 0 ? hz : 100);
}

int pg_cpu_parse_stat(const char *line, unsigned long long *busy, unsigned long long *total)
{
	/* user nice system idle iowait irq softirq steal; guest time is
	 * already inside user and nice, so it is not added again. */
	unsigned long long v[8] = { 0 };
	if (strncmp(line, "cpu ", 4) != 0)
		return -1;
	int n = sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu",
		       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (n < 4)
		return -1;
	unsigned long long t = 0;
	for (int i = 0; i < 8; i++)
		t += v[i];
	*total = t;
	*busy = t - v[3] - v[4];
	return 0;
}

void pg_cpu_mark(struct pg_cpu_mark *m)
{
	memset(m, 0, sizeof(*m));
	FILE *f = fopen("/proc/stat", "r");
	if (f) {
		char line[512];
		if (fgets(line, sizeof(line), f) &&
		    pg_cpu_parse_stat(line, &m->busy, &m->total) < 0)
			m->total = 0;
		fclose(f);
	}
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		m->user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
		m->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	}
}

void pg_cpu_load(const struct pg_cpu_mark *a, const struct pg_cpu_mark *b,
		 struct pg_cpu_load *out)
{
	memset(out, 0, sizeof(*out));
	out->self_user_s = b->user_s - a->user_s;
	out->self_sys_s = b->sys_s - a->sys_s;
	if (a->total && b->total > a->total) {
		long hz = sysconf(_SC_CLK_TCK);
		double cpu_s = (double)(b->total - a->total) / (double)(hz > 0 ? hz : 100);
		out->have_busy = 1;
		out->busy_pct = 100.0 * (double)(b->busy - a->busy) / (double)(b->total - a->total);
		out->self_pct = 100.0 * (out->self_user_s + out->self_sys_s) / cpu_s;
		if (out->self_pct > 100)	/* the two clocks' ticks apart */
			out->self_pct = 100;
	}
}
