/* SPDX-License-Identifier: MIT */
/*
 * CPU load over a measured window: system-wide busy share of all CPUs from
 * /proc/stat (what netperf -c reports) and this process's own CPU time.
 */
#ifndef PG_CPULOAD_H
#define PG_CPULOAD_H

struct pg_cpu_mark {
	unsigned long long busy, total;	/* jiffies, all CPUs; total 0: no /proc/stat */
	double user_s, sys_s;		/* getrusage(RUSAGE_SELF) */
};

struct pg_cpu_load {
	int have_busy;
	double busy_pct;	/* 0..100 */
	double self_user_s, self_sys_s;
	/* This process's share of all the CPUs over the same window (its user
	 * and system time over the CPUs' time), 0..100, with have_busy: what
	 * busy_pct would be were nothing else running. */
	double self_pct;
	/* The network peer's busy share over the same samples (time-weighted
	 * mean of what each step reported). */
	int have_remote;
	double remote_busy_pct;
};

void pg_cpu_mark(struct pg_cpu_mark *m);
void pg_cpu_load(const struct pg_cpu_mark *start, const struct pg_cpu_mark *end,
		 struct pg_cpu_load *out);
/* System-wide busy CPU seconds (all CPUs) between two marks; 0 without
 * /proc/stat. What netperf's service demand divides by the bytes moved. */
double pg_cpu_busy_seconds(const struct pg_cpu_mark *start, const struct pg_cpu_mark *end);
/* Parse the aggregate "cpu" line of /proc/stat; 0 on success. */
int pg_cpu_parse_stat(const char *line, unsigned long long *busy, unsigned long long *total);

#endif
