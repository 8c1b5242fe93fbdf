/* SPDX-License-Identifier: MIT */
/*
 * What the machine did while a result was measured: the CPU time other
 * processes took, time the hypervisor stole, the CPU frequencies seen,
 * thermal throttling, and the cgroup's CPU quota throttling. Read at both
 * ends of every sample from /proc and /sys (under the sysinfo root, so tests
 * give a fake tree); what the machine does not expose is absent, never 0.
 *
 * A sample is disturbed when, beyond what the clock's resolution can tell
 * (PG_ENV_SLACK_TICKS), other processes or steal took more than
 * PG_ENV_SHARE of the CPUs (at most PG_ENV_MAX_CPUS CPUs' worth), when a
 * thermal cooling device throttled or the cpufreq cap fell below the run's
 * start, or when the cgroup's quota throttled. The runner takes a disturbed
 * sample again while the result has time (runner.c); a result is disturbed
 * when a sample it kept was, or when its kept samples together were, or
 * when a fixed loop timed after its first and its last sample ran below
 * PG_ENV_SLOW of its speed at the run's start (the host gave this VM less:
 * another tenant on its core's other thread, a clock cut that no file here
 * shows). docs/methodology.md has the thresholds and why.
 */
#ifndef PG_ENV_H
#define PG_ENV_H

#include <stddef.h>

/* Other processes' (or steal's) share of all CPUs above which a sample is
 * disturbed, and the most CPUs' worth that may take. */
#define PG_ENV_SHARE 0.10
#define PG_ENV_MAX_CPUS 1.0
/* /proc/stat counts in clock ticks and prints each field truncated: a
 * difference of two readings is uncertain by about this many ticks. */
#define PG_ENV_SLACK_TICKS 3
/* A result whose speed probe ran below this share of the run's start is
 * disturbed (the probe's own spread on a quiet machine is a few percent). */
#define PG_ENV_SLOW_SHARE 0.80

#define PG_ENV_MAX_POLICIES 16
#define PG_ENV_MAX_COOLING 16
#define PG_ENV_MAX_ZONES 16
#define PG_ENV_PATH 160
#define PG_ENV_MAX_DESC 64

/* Why a sample or a result was disturbed (bits). */
enum {
	PG_ENV_OTHERS = 1,	/* other processes took the CPUs */
	PG_ENV_STEAL = 2,	/* the hypervisor did */
	PG_ENV_THERMAL = 4,	/* thermal throttling */
	PG_ENV_CGROUP = 8,	/* the cgroup's CPU quota throttled it */
	PG_ENV_SLOW = 16,	/* the speed probe ran slower than at the run's start */
};

/* compare calls a row "environment differs" when its two sides' cache
 * probes (env.cache_ns) are more than this many times apart: the walk fits
 * a quarter of the last-level cache, and answers from it in ~10 ns a load
 * here, from memory in 60 to 180 (that spread alone is 3x: at 2x an A/A
 * whose two runs were both answered from memory had two rows "environment
 * differs"). A result is not judged disturbed by its probe against the
 * run's start: one start answered from the cache made all 115 results of
 * the next two minutes "disturbed". */
#define PG_ENV_CACHE_FACTOR 4.0

/* What a figure depends on besides the build (pg_ctx.history, bits). */
enum {
	PG_HISTORY_FS = 1,	/* the file system's recent deletes (ext4 without a journal) */
	/* what the host's other tenants hold of a last-level cache that a
	 * virtual machine shares with them (mem.*, core/sysinfo.h) */
	PG_HISTORY_TENANTS = 2,
};

/* Where this machine exposes each thing, found once per run. */
struct pg_env {
	int npolicy;
	char policy[PG_ENV_MAX_POLICIES][24];	/* policy0 */
	int ncool;
	int cool[PG_ENV_MAX_COOLING];		/* cooling_deviceN that throttle (not fans) */
	int cool_stats[PG_ENV_MAX_COOLING];	/* it has stats/time_in_state_ms */
	int nzone;
	int zone[PG_ENV_MAX_ZONES];		/* thermal_zoneN */
	int ncg;
	char cg[4][PG_ENV_PATH];		/* cpu.stat of the cgroup and its ancestors */
	long hz;				/* clock ticks per second */
	/* This process's descendants as last found (-1: not known), and the
	 * kernel's last pid then: they are read again only when it moved. */
	int ndesc;
	long desc[PG_ENV_MAX_DESC];
	long last_pid;
	/* The speed probe's rate at the run's start (the best of several),
	 * loop steps per second; 0: not probed. */
	double probe_ref;
	/* The cache probe: a chain of loads over a quarter of the last-level
	 * cache (pages in random order, lines in random order within each),
	 * made once at the run's start and shared by every process forked
	 * after; its ns a load then (the best of several). NULL/0: none. */
	void *cache_buf;
	void **cache_walk;	/* its first load */
	size_t cache_loads;
	double cache_ref_ns;
};

/* The machine at one instant. */
struct pg_env_mark {
	double t;		/* CLOCK_MONOTONIC seconds */
	int have_stat;
	double busy_s;		/* user + nice + system of all CPUs */
	double steal_s, total_s;	/* steal; every field (all CPUs' time) */
	double self_s;		/* this process, its reaped children and live descendants */
	int ndesc;		/* live descendants counted */
	int have_freq;
	long freq_lo, freq_hi;	/* lowest and highest scaling_cur_freq of the policies */
	long cap[PG_ENV_MAX_POLICIES];	/* each policy's scaling_max_freq; 0 unknown */
	int have_cool;
	int cool_active;	/* throttling cooling devices in a state above 0 */
	double cool_ms;		/* their time in states above 0, where they keep it */
	int have_temp;
	long temp_mc;		/* the hottest thermal zone */
	int have_cg;
	long long cg_throttled;	/* nr_throttled, summed up the cgroup tree */
};

/* What one sample, or a result's kept samples together, saw. */
struct pg_env_seen {
	int n;			/* samples */
	double wall_s;
	int have_cpu;
	double others_s, steal_s, total_s;	/* summed over the samples */
	double others_max, steal_max;		/* the largest share of one sample, 0..1 */
	double slack_s;		/* what tick resolution leaves uncertain (summed in quadrature) */
	int have_freq;
	long freq_lo, freq_hi;
	int have_temp;
	long temp_mc;		/* hottest */
	int have_cool;
	int throttled;		/* thermal: samples that throttled */
	long cap_lo, cap_base;	/* the lowest cap seen, the run's at start (when it fell) */
	int have_cg;
	long long cg_throttled;
	unsigned why;		/* PG_ENV_* of this sample; a result's: what disturbed it */
	double speed;		/* the slowest speed probe, a share of probe_ref; 0: none */
	int disturbed;		/* samples kept though disturbed */
	int dropped;		/* disturbed samples left out (taken again while there was time) */
	int dropped_procs;	/* disturbed processes left out, measured again (core/procs.c) */
	unsigned history;	/* PG_HISTORY_*: what ran before decides the figure */
	double cache_ns;	/* the cache probe after the samples, ns a load; 0: none */
	double cache_ref_ns;	/* the run's at its start */
};

/* Finds what the machine exposes (under pg_sysinfo_root()). */
void pg_env_open(struct pg_env *e);
/* Times the speed probe at the run's start (e->probe_ref), and makes and
 * times the cache probe (e->cache_ref_ns) where the last-level cache's size
 * is known. */
void pg_env_probe_start(struct pg_env *e);
/* Frees what pg_env_probe_start made. */
void pg_env_close(struct pg_env *e);
/* The cache probe now, ns a load (the larger of what s saw is kept in
 * s->cache_ns, for compare); 0 when there is none. Run it after a
 * result's samples: the walk takes the cache from what the benchmark had
 * there. */
double pg_env_cache_probe(const struct pg_env *e, struct pg_env_seen *s);
/* The speed probe now, as a share of e->probe_ref (0 when not probed);
 * the lowest seen goes into s->speed. */
double pg_env_probe(const struct pg_env *e, struct pg_env_seen *s);
/* The machine over the next secs seconds with this process busy on one
 * CPU (the speed probe, again and again): a VM's steal shows only while
 * its CPUs want to run. s->why says what would disturb a sample now
 * (PG_ENV_SLOW when the best probe ran below the limit). */
void pg_env_look_busy(struct pg_env *e, double secs, struct pg_env_seen *s);
/* Reads the machine now (and keeps what it learnt of the descendants). */
void pg_env_mark(struct pg_env *e, struct pg_env_mark *m);
/* What happened from a to b; base is the run's first mark (its cpufreq caps),
 * or NULL. Sets s->why. */
void pg_env_diff(const struct pg_env *e, const struct pg_env_mark *a, const struct pg_env_mark *b,
		 const struct pg_env_mark *base, struct pg_env_seen *s);
/* Adds a kept sample to a result's. */
void pg_env_add(struct pg_env_seen *r, const struct pg_env_seen *s);
/* A result's verdict from its kept samples: sets r->why; 1 disturbed. */
int pg_env_judge(struct pg_env_seen *r);
/* Other processes' share of the CPUs over what r saw, 0..1 (-1 unknown). */
double pg_env_others_share(const struct pg_env_seen *r);

/* The env object of a result record, as JSON text. */
void pg_env_json(const struct pg_env_seen *r, char *buf, size_t len);
/* Why in words ("other processes used 48% of the CPUs; ..."), "" when not. */
void pg_env_why(const struct pg_env_seen *r, char *buf, size_t len);
/* One word per reason for a console ("others 48%", "steal", "thermal", "cgroup"). */
void pg_env_short(const struct pg_env_seen *r, char *buf, size_t len);

#endif
