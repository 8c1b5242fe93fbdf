/* SPDX-License-Identifier: MIT */
#include "env.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sysinfo.h"
#include "timer.h"

static void rooted(const char *path, char *full, size_t len)
{
	snprintf(full, len, "%s%s", pg_sysinfo_root(), path);
}

static long read_num(const char *path, int *ok)
{
	char b[64], *end;
	*ok = 0;
	if (pg_read_file(path, b, sizeof(b)) <= 0)
		return 0;
	long v = strtol(b, &end, 10);
	*ok = end != b;
	return v;
}

static int by_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The numbers N of a directory's entries named prefixN, sorted. */
static int numbered(const char *dir, const char *prefix, int *out, int max)
{
	char full[512];
	rooted(dir, full, sizeof(full));
	DIR *d = opendir(full);
	if (!d)
		return 0;
	size_t pl = strlen(prefix);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < max)
		if (strncmp(e->d_name, prefix, pl) == 0 && isdigit((unsigned char)e->d_name[pl]))
			out[n++] = atoi(e->d_name + pl);
	closedir(d);
	qsort(out, (size_t)n, sizeof(*out), by_int);
	return n;
}

/* Cooling devices that slow the CPUs or memory down; a fan's state is only
 * how fast it turns. */
static void find_cooling(struct pg_env *e)
{
	int all[64];
	int n = numbered("/sys/class/thermal", "cooling_device", all, 64);
	for (int i = 0; i < n && e->ncool < PG_ENV_MAX_COOLING; i++) {
		char path[PG_ENV_PATH], type[64];
		snprintf(path, sizeof(path), "/sys/class/thermal/cooling_device%d/type", all[i]);
		pg_read_file(path, type, sizeof(type));
		for (char *p = type; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		if (strstr(type, "fan"))
			continue;
		snprintf(path, sizeof(path), "/sys/class/thermal/cooling_device%d/stats/time_in_state_ms", all[i]);
		char full[512];
		rooted(path, full, sizeof(full));
		e->cool_stats[e->ncool] = access(full, R_OK) == 0;
		e->cool[e->ncool++] = all[i];
	}
}

/* Whether a v1 hierarchy's controller list ("cpu,cpuacct") has cpu. */
static int has_cpu_controller(const char *list)
{
	char b[128], *save = NULL;
	snprintf(b, sizeof(b), "%s", list);
	for (char *t = strtok_r(b, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (strcmp(t, "cpu") == 0)
			return 1;
	return 0;
}

/* The cpu.stat of this process's cgroup and of its ancestors (a quota set
 * higher up throttles it too), up to the root of the hierarchy: cgroup v2's
 * unified tree, else v1's cpu controller. */
static void find_cgroup(struct pg_env *e)
{
	static const char *const v1[] = { "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct" };
	char buf[1024], path[PG_ENV_PATH] = "", *save = NULL;
	int v2 = 0, v1cpu = 0;
	if (pg_read_file("/proc/self/cgroup", buf, sizeof(buf)) <= 0)
		return;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = *c2 = '\0';	/* hierarchy, controllers, path */
		if (strcmp(line, "0") == 0 && !c1[1] && !v1cpu) {
			v2 = 1;
			snprintf(path, sizeof(path), "%s", c2 + 1);
		} else if (has_cpu_controller(c1 + 1)) {
			v1cpu = 1;
			v2 = 0;
			snprintf(path, sizeof(path), "%s", c2 + 1);
		}
	}
	for (int m = 0; m < (v2 ? 1 : v1cpu ? 2 : 0) && !e->ncg; m++) {
		const char *mount = v2 ? "/sys/fs/cgroup" : v1[m];
		char at[PG_ENV_PATH];
		snprintf(at, sizeof(at), "%s", path);
		for (;;) {
			char stat[PG_ENV_PATH * 2];
			int n = snprintf(stat, sizeof(stat), "%s%s/cpu.stat", mount, strcmp(at, "/") == 0 ? "" : at);
			char full[512];
			rooted(stat, full, sizeof(full));
			if (e->ncg < 4 && n > 0 && n < PG_ENV_PATH && access(full, R_OK) == 0)
				memcpy(e->cg[e->ncg++], stat, (size_t)n + 1);
			char *slash = strrchr(at, '/');
			if (!slash || slash == at)
				break;
			*slash = '\0';
		}
		if (strcmp(at, "/") != 0 && e->ncg < 4) {
			char stat[PG_ENV_PATH * 2], full[512];
			int n = snprintf(stat, sizeof(stat), "%s/cpu.stat", mount);
			rooted(stat, full, sizeof(full));
			if (n > 0 && n < PG_ENV_PATH && access(full, R_OK) == 0)
				memcpy(e->cg[e->ncg++], stat, (size_t)n + 1);
		}
	}
}

void pg_env_open(struct pg_env *e)
{
	memset(e, 0, sizeof(*e));
	e->ndesc = -1;
	e->hz = sysconf(_SC_CLK_TCK);
	if (e->hz <= 0)
		e->hz = 100;
	int pol[PG_ENV_MAX_POLICIES];
	e->npolicy = numbered("/sys/devices/system/cpu/cpufreq", "policy", pol, PG_ENV_MAX_POLICIES);
	for (int i = 0; i < e->npolicy; i++)
		snprintf(e->policy[i], sizeof(e->policy[i]), "policy%d", pol[i]);
	find_cooling(e);
	int zones[PG_ENV_MAX_ZONES];
	int nz = numbered("/sys/class/thermal", "thermal_zone", zones, PG_ENV_MAX_ZONES);
	for (int i = 0; i < nz; i++) {
		char path[PG_ENV_PATH];
		int ok;
		snprintf(path, sizeof(path), "/sys/class/thermal/thermal_zone%d/temp", zones[i]);
		read_num(path, &ok);
		if (ok)
			e->zone[e->nzone++] = zones[i];
	}
	find_cgroup(e);
}

/* --- reading the machine --- */

/* The aggregate line of /proc/stat. */
static void read_stat(const struct pg_env *e, struct pg_env_mark *m)
{
	char line[512];
	unsigned long long v[8] = { 0 };
	if (pg_read_file("/proc/stat", line, sizeof(line)) <= 0 || strncmp(line, "cpu ", 4) != 0)
		return;
	int n = sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
		       &v[5], &v[6], &v[7]);
	if (n < 4)
		return;
	double hz = (double)e->hz, total = 0;
	for (int i = 0; i < 8; i++)
		total += (double)v[i];
	m->have_stat = 1;
	/* user, nice, system: what processes ran. irq and softirq are left
	 * out: the interrupts a benchmark causes (loopback network) are
	 * counted there and cannot be told from anyone else's. */
	m->busy_s = (double)(v[0] + v[1] + v[2]) / hz;
	m->steal_s = (double)v[7] / hz;
	m->total_s = total / hz;
}

/* A /proc/PID/stat line: its parent and CPU ticks (its own and its reaped
 * children's). -1 when it is not one. */
static int parse_pid_stat(const char *s, long *ppid, double *ticks)
{
	const char *p = strrchr(s, ')');
	if (!p)
		return -1;
	/* after ')': state ppid pgrp session tty tpgid flags minflt cminflt
	 * majflt cmajflt utime stime cutime cstime */
	char state;
	unsigned long long f[14];
	if (sscanf(p + 1, " %c %ld %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &state, ppid,
		   &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10], &f[11],
		   &f[12]) != 15)
		return -1;
	*ticks = (double)(f[9] + f[10] + f[11] + f[12]);
	return 0;
}

#define MAX_PROCS 8192

struct proc {
	long pid, ppid;
	double ticks;
};

static int by_pid(const void *a, const void *b)
{
	long x = ((const struct proc *)a)->pid, y = ((const struct proc *)b)->pid;
	return (x > y) - (x < y);
}

/* Every process's parent and ticks, sorted by pid. */
static int read_procs(struct proc *ps, int max)
{
	char full[512];
	rooted("/proc", full, sizeof(full));
	DIR *d = opendir(full);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < max) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		char path[64], buf[512];
		snprintf(path, sizeof(path), "/proc/%.20s/stat", e->d_name);
		if (pg_read_file(path, buf, sizeof(buf)) <= 0 || parse_pid_stat(buf, &ps[n].ppid, &ps[n].ticks) < 0)
			continue;
		ps[n++].pid = atol(e->d_name);
	}
	closedir(d);
	qsort(ps, (size_t)n, sizeof(*ps), by_pid);
	return n;
}

/* Reads every process and keeps this process's descendants in the cache
 * (all of them, or none when there are more than it holds). */
static void scan_descendants(struct pg_env *e)
{
	struct proc *ps = malloc(sizeof(*ps) * MAX_PROCS);
	char *mine = ps ? calloc(MAX_PROCS, 1) : NULL;
	e->ndesc = -1;	/* unknown: scan again next time */
	if (!mine) {
		free(ps);
		return;
	}
	int n = read_procs(ps, MAX_PROCS), found = 0;
	long self = (long)getpid();
	/* Parents before children is not the order of pids: repeat until no
	 * process joins. */
	for (int grew = 1; grew;) {
		grew = 0;
		for (int i = 0; i < n; i++) {
			if (mine[i] || ps[i].pid == self)
				continue;
			struct proc key = { .pid = ps[i].ppid };
			const struct proc *parent = bsearch(&key, ps, (size_t)n, sizeof(*ps), by_pid);
			if (ps[i].ppid == self || (parent && mine[parent - ps])) {
				mine[i] = 1;
				grew = 1;
				found++;
			}
		}
	}
	if (found <= PG_ENV_MAX_DESC) {
		e->ndesc = 0;
		for (int i = 0; i < n; i++)
			if (mine[i])
				e->desc[e->ndesc++] = ps[i].pid;
	}
	free(mine);
	free(ps);
}

/* The last pid the kernel gave out (/proc/loadavg): while it stays, no
 * process was born, and the descendants known are all there are. */
static long last_pid(void)
{
	char b[128];
	long v[1];
	if (pg_read_file("/proc/loadavg", b, sizeof(b)) <= 0 || sscanf(b, "%*s %*s %*s %*s %ld", v) != 1)
		return -1;
	return v[0];
}

/* The known descendants' ticks; -1 when one is gone or changed parent
 * (scan again). */
static double cached_ticks(const struct pg_env *e)
{
	double sum = 0;
	long self = (long)getpid();
	for (int i = 0; i < e->ndesc; i++) {
		char path[64], buf[512];
		long ppid;
		double t;
		snprintf(path, sizeof(path), "/proc/%ld/stat", e->desc[i]);
		if (pg_read_file(path, buf, sizeof(buf)) <= 0 || parse_pid_stat(buf, &ppid, &t) < 0)
			return -1;
		int known = ppid == self;
		for (int j = 0; j < e->ndesc && !known; j++)
			known = e->desc[j] == ppid;
		if (!known)
			return -1;
		sum += t;
	}
	return sum;
}

/* CPU ticks of this process's live descendants (peers it forked, programs it
 * runs): theirs is the benchmark's work, not another process's. Every
 * process is read only when one may have been born since the last look. */
static double descendants_ticks(struct pg_env *e, int *ndesc)
{
	*ndesc = 0;
	/* No children, live or unreaped: no descendants (one system call).
	 * Fake trees are always read. */
	siginfo_t si;
	if (!pg_sysinfo_root()[0] && waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD)
		return 0;
	long lp = last_pid();
	double sum = e->ndesc >= 0 && lp >= 0 && lp == e->last_pid ? cached_ticks(e) : -1;
	if (sum < 0) {
		e->last_pid = lp;
		scan_descendants(e);
		sum = e->ndesc >= 0 ? cached_ticks(e) : -1;
	}
	*ndesc = e->ndesc > 0 ? e->ndesc : 0;
	return sum > 0 ? sum : 0;
}

static double self_seconds(struct pg_env *e, int *ndesc)
{
	struct rusage s, c;
	double t = 0;
	if (getrusage(RUSAGE_SELF, &s) == 0)
		t += (double)s.ru_utime.tv_sec + (double)s.ru_utime.tv_usec * 1e-6 + (double)s.ru_stime.tv_sec +
		     (double)s.ru_stime.tv_usec * 1e-6;
	if (getrusage(RUSAGE_CHILDREN, &c) == 0)
		t += (double)c.ru_utime.tv_sec + (double)c.ru_utime.tv_usec * 1e-6 + (double)c.ru_stime.tv_sec +
		     (double)c.ru_stime.tv_usec * 1e-6;
	return t + descendants_ticks(e, ndesc) / (double)e->hz;
}

static void read_freq(const struct pg_env *e, struct pg_env_mark *m)
{
	for (int i = 0; i < e->npolicy; i++) {
		char path[PG_ENV_PATH];
		int ok;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpufreq/%s/scaling_cur_freq", e->policy[i]);
		long cur = read_num(path, &ok);
		if (ok && cur > 0) {
			m->freq_lo = m->have_freq ? (cur < m->freq_lo ? cur : m->freq_lo) : cur;
			m->freq_hi = m->have_freq ? (cur > m->freq_hi ? cur : m->freq_hi) : cur;
			m->have_freq = 1;
		}
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpufreq/%s/scaling_max_freq", e->policy[i]);
		long cap = read_num(path, &ok);
		m->cap[i] = ok && cap > 0 ? cap : 0;
	}
}

/* Time in the states above 0 from stats/time_in_state_ms ("state0 123"). */
static double time_throttled_ms(int dev)
{
	char path[PG_ENV_PATH], buf[2048];
	snprintf(path, sizeof(path), "/sys/class/thermal/cooling_device%d/stats/time_in_state_ms", dev);
	if (pg_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	double ms = 0;
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int state;
		double t;
		if (sscanf(line, "state%d %lf", &state, &t) == 2 && state > 0)
			ms += t;
	}
	return ms;
}

static void read_thermal(const struct pg_env *e, struct pg_env_mark *m)
{
	for (int i = 0; i < e->ncool; i++) {
		char path[PG_ENV_PATH];
		int ok;
		snprintf(path, sizeof(path), "/sys/class/thermal/cooling_device%d/cur_state", e->cool[i]);
		long st = read_num(path, &ok);
		if (!ok)
			continue;
		m->have_cool = 1;
		m->cool_active += st > 0;
		if (e->cool_stats[i])
			m->cool_ms += time_throttled_ms(e->cool[i]);
	}
	for (int i = 0; i < e->nzone; i++) {
		char path[PG_ENV_PATH];
		int ok;
		snprintf(path, sizeof(path), "/sys/class/thermal/thermal_zone%d/temp", e->zone[i]);
		long t = read_num(path, &ok);
		if (ok && (!m->have_temp || t > m->temp_mc)) {
			m->temp_mc = t;
			m->have_temp = 1;
		}
	}
}

static void read_cgroup(const struct pg_env *e, struct pg_env_mark *m)
{
	for (int i = 0; i < e->ncg; i++) {
		char buf[1024];
		if (pg_read_file(e->cg[i], buf, sizeof(buf)) <= 0)
			continue;
		const char *p = strstr(buf, "nr_throttled ");
		if (p && (p == buf || p[-1] == '\n')) {
			m->cg_throttled += strtoll(p + 13, NULL, 10);
			m->have_cg = 1;
		}
	}
}

void pg_env_mark(struct pg_env *e, struct pg_env_mark *m)
{
	memset(m, 0, sizeof(*m));
	m->t = pg_now();
	read_stat(e, m);
	m->self_s = self_seconds(e, &m->ndesc);
	read_freq(e, m);
	read_thermal(e, m);
	read_cgroup(e, m);
}

/* --- judging --- */

/* More than the threshold beyond what the ticks leave uncertain. */
static int over(double taken_s, double slack_s, double total_s, double wall_s)
{
	double limit = fmin(PG_ENV_SHARE * total_s, PG_ENV_MAX_CPUS * wall_s);
	return taken_s - slack_s > limit;
}

static void diff_cpu(const struct pg_env *e, const struct pg_env_mark *a, const struct pg_env_mark *b,
		     struct pg_env_seen *s)
{
	if (!a->have_stat || !b->have_stat)
		return;
	/* A sample shorter than a tick often sees none: it saw nothing, and
	 * is still watched, so that the result's sums over its samples (the
	 * ticks that fell in any of them) judge it; were it "not watched",
	 * one such sample would leave the whole result unjudged. */
	s->have_cpu = 1;
	if (b->total_s <= a->total_s)
		return;
	s->total_s = b->total_s - a->total_s;
	s->others_s = fmax(0, (b->busy_s - a->busy_s) - (b->self_s - a->self_s));
	s->steal_s = fmax(0, b->steal_s - a->steal_s);
	s->others_max = s->others_s / s->total_s;
	s->steal_max = s->steal_s / s->total_s;
	int nd = a->ndesc > b->ndesc ? a->ndesc : b->ndesc;
	s->slack_s = (double)(PG_ENV_SLACK_TICKS + nd) / (double)e->hz;
	if (over(s->others_s, s->slack_s, s->total_s, s->wall_s))
		s->why |= PG_ENV_OTHERS;
	if (over(s->steal_s, s->slack_s, s->total_s, s->wall_s))
		s->why |= PG_ENV_STEAL;
}

static void diff_thermal(const struct pg_env *e, const struct pg_env_mark *a, const struct pg_env_mark *b,
			 const struct pg_env_mark *base, struct pg_env_seen *s)
{
	if (a->have_temp && b->have_temp) {
		s->have_temp = 1;
		s->temp_mc = a->temp_mc > b->temp_mc ? a->temp_mc : b->temp_mc;
	}
	if (a->have_cool && b->have_cool) {
		s->have_cool = 1;
		if (a->cool_active || b->cool_active || b->cool_ms > a->cool_ms)
			s->throttled = 1;
	}
	/* A cap below the run's own at start: thermal (or another agent)
	 * lowered it while the run measured. A cap set before the run is the
	 * user's choice, recorded with the machine. */
	for (int i = 0; base && i < e->npolicy; i++) {
		long cap = b->cap[i], was = base->cap[i];
		if (cap > 0 && was > 0 && cap < was) {
			s->throttled = 1;
			if (!s->cap_lo || cap < s->cap_lo) {
				s->cap_lo = cap;
				s->cap_base = was;
			}
		}
	}
	if (s->throttled)
		s->why |= PG_ENV_THERMAL;
}

void pg_env_diff(const struct pg_env *e, const struct pg_env_mark *a, const struct pg_env_mark *b,
		 const struct pg_env_mark *base, struct pg_env_seen *s)
{
	memset(s, 0, sizeof(*s));
	s->n = 1;
	s->wall_s = b->t - a->t;
	diff_cpu(e, a, b, s);
	if (a->have_freq && b->have_freq) {
		s->have_freq = 1;
		s->freq_lo = a->freq_lo < b->freq_lo ? a->freq_lo : b->freq_lo;
		s->freq_hi = a->freq_hi > b->freq_hi ? a->freq_hi : b->freq_hi;
	}
	diff_thermal(e, a, b, base, s);
	if (a->have_cg && b->have_cg) {
		s->have_cg = 1;
		s->cg_throttled = b->cg_throttled > a->cg_throttled ? b->cg_throttled - a->cg_throttled : 0;
		if (s->cg_throttled)
			s->why |= PG_ENV_CGROUP;
	}
}

static long lo_of(int have, long a, long b)
{
	return !have || b < a ? b : a;
}

static long hi_of(int have, long a, long b)
{
	return !have || b > a ? b : a;
}

void pg_env_add(struct pg_env_seen *r, const struct pg_env_seen *s)
{
	int first = r->n == 0;
	r->n += s->n;
	r->wall_s += s->wall_s;
	if (s->have_cpu) {
		r->others_s += s->others_s;
		r->steal_s += s->steal_s;
		r->total_s += s->total_s;
		r->others_max = fmax(r->others_max, s->others_max);
		r->steal_max = fmax(r->steal_max, s->steal_max);
		/* independent truncations: their sum is uncertain by the root
		 * of the sum of squares */
		r->slack_s = sqrt(r->slack_s * r->slack_s + s->slack_s * s->slack_s);
		r->have_cpu = first || r->have_cpu;
	} else {
		r->have_cpu = 0;
	}
	if (s->have_freq) {
		r->freq_lo = lo_of(r->have_freq, r->freq_lo, s->freq_lo);
		r->freq_hi = hi_of(r->have_freq, r->freq_hi, s->freq_hi);
		r->have_freq = 1;
	}
	if (s->have_temp) {
		r->temp_mc = hi_of(r->have_temp, r->temp_mc, s->temp_mc);
		r->have_temp = 1;
	}
	r->have_cool |= s->have_cool;
	r->history |= s->history;
	r->cache_ns = fmax(r->cache_ns, s->cache_ns);
	if (s->cache_ref_ns > 0)
		r->cache_ref_ns = s->cache_ref_ns;
	r->throttled += s->throttled;
	if (s->cap_lo && (!r->cap_lo || s->cap_lo < r->cap_lo)) {
		r->cap_lo = s->cap_lo;
		r->cap_base = s->cap_base;
	}
	r->have_cg |= s->have_cg;
	r->cg_throttled += s->cg_throttled;
	if (s->speed > 0 && (r->speed == 0 || s->speed < r->speed))
		r->speed = s->speed;
	r->why |= s->why;
	r->disturbed += s->why != 0;
}

int pg_env_judge(struct pg_env_seen *r)
{
	if (r->speed > 0 && r->speed < PG_ENV_SLOW_SHARE)
		r->why |= PG_ENV_SLOW;
	if (r->have_cpu && r->total_s > 0) {
		if (over(r->others_s, r->slack_s, r->total_s, r->wall_s))
			r->why |= PG_ENV_OTHERS;
		if (over(r->steal_s, r->slack_s, r->total_s, r->wall_s))
			r->why |= PG_ENV_STEAL;
	}
	return r->why != 0;
}

double pg_env_others_share(const struct pg_env_seen *r)
{
	return r->have_cpu && r->total_s > 0 ? r->others_s / r->total_s : -1;
}

/* --- words and JSON --- */

#define ADD(...) \
	do { \
		size_t at_ = strlen(buf); \
		if (at_ < len) \
			snprintf(buf + at_, len - at_, __VA_ARGS__); \
	} while (0)

void pg_env_json(const struct pg_env_seen *r, char *buf, size_t len)
{
	buf[0] = '\0';
	ADD("{\"samples\":%d", r->n);
	if (r->have_cpu && r->total_s > 0) {
		ADD(",\"others_pct\":%.2f,\"others_max_pct\":%.2f", 100 * r->others_s / r->total_s, 100 * r->others_max);
		ADD(",\"steal_pct\":%.2f,\"steal_max_pct\":%.2f", 100 * r->steal_s / r->total_s, 100 * r->steal_max);
	}
	if (r->have_freq)
		ADD(",\"freq_min_khz\":%ld,\"freq_max_khz\":%ld", r->freq_lo, r->freq_hi);
	if (r->have_temp)
		ADD(",\"temp_max_mc\":%ld", r->temp_mc);
	if (r->have_cool || r->cap_lo)
		ADD(",\"throttled_samples\":%d", r->throttled);
	if (r->cap_lo)
		ADD(",\"freq_cap_khz\":%ld,\"freq_cap_start_khz\":%ld", r->cap_lo, r->cap_base);
	if (r->have_cg)
		ADD(",\"cgroup_throttled\":%lld", r->cg_throttled);
	if (r->speed > 0)
		ADD(",\"speed_pct\":%.1f", 100 * r->speed);
	if (r->cache_ns > 0)
		ADD(",\"cache_ns\":%.2f,\"cache_ref_ns\":%.2f", r->cache_ns, r->cache_ref_ns);
	if (r->history)
		ADD(",\"history\":\"%s%s%s\"",
		    r->history & PG_HISTORY_FS ? "the file system's recent deletes (ext4 without a journal)" : "",
		    (r->history & PG_HISTORY_FS) && (r->history & PG_HISTORY_TENANTS) ? "; " : "",
		    r->history & PG_HISTORY_TENANTS ? "the host's other tenants in the last-level cache "
						      "(its working set lies there, on a virtual machine)" : "");
	if (r->dropped_procs)
		ADD(",\"dropped_processes\":%d", r->dropped_procs);
	ADD(",\"disturbed_samples\":%d,\"dropped_samples\":%d}", r->disturbed, r->dropped);
}

void pg_env_why(const struct pg_env_seen *r, char *buf, size_t len)
{
	buf[0] = '\0';
	const char *sep = "";
	if (r->why & PG_ENV_OTHERS) {
		ADD("other processes used %.0f%% of the CPUs (at most %.0f%% in one sample; the limit is %.0f%%)",
		    100 * pg_env_others_share(r), 100 * r->others_max, 100 * PG_ENV_SHARE);
		sep = "; ";
	}
	if (r->why & PG_ENV_STEAL) {
		ADD("%sthe hypervisor stole %.0f%% of the CPUs' time", sep, 100 * r->steal_s / r->total_s);
		sep = "; ";
	}
	if (r->why & PG_ENV_THERMAL) {
		if (r->cap_lo)
			ADD("%sthe CPU frequency cap fell from %ld to %ld MHz", sep, r->cap_base / 1000, r->cap_lo / 1000);
		else
			ADD("%sthermal throttling in %d sample%s", sep, r->throttled, r->throttled == 1 ? "" : "s");
		sep = "; ";
	}
	if (r->why & PG_ENV_CGROUP) {
		ADD("%sthe cgroup's CPU quota throttled it %lld times", sep, r->cg_throttled);
		sep = "; ";
	}
	if (r->why & PG_ENV_SLOW) {
		ADD("%sthe CPU ran at %.0f%% of its speed at the run's start (a fixed loop timed after the samples; the "
		    "limit is %.0f%%)", sep, 100 * r->speed, 100 * PG_ENV_SLOW_SHARE);
		sep = "; ";
	}

	if (r->why && r->n)
		ADD("; of its %d samples %d were disturbed, and %d disturbed ones were dropped", r->n, r->disturbed,
		    r->dropped);
}

void pg_env_short(const struct pg_env_seen *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (r->why & PG_ENV_OTHERS)
		ADD("others %.0f%%", 100 * pg_env_others_share(r));
	if (r->why & PG_ENV_STEAL)
		ADD("%ssteal %.0f%%", buf[0] ? ", " : "", 100 * r->steal_s / r->total_s);
	if (r->why & PG_ENV_THERMAL)
		ADD("%sthermal", buf[0] ? ", " : "");
	if (r->why & PG_ENV_CGROUP)
		ADD("%scgroup quota", buf[0] ? ", " : "");
	if (r->why & PG_ENV_SLOW)
		ADD("%sslow %.0f%%", buf[0] ? ", " : "", 100 * r->speed);

}
