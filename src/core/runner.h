/* SPDX-License-Identifier: MIT */
/*
 * The runner: runs one benchmark with one set of parameters and owns all of
 * its timing: warm-up, calibration of the iteration count, the samples, the
 * copies running at once, the CPU-load window and the statistics.
 */
#ifndef PG_RUNNER_H
#define PG_RUNNER_H

#include <signal.h>
#include <stdint.h>

#include "bench.h"
#include "cpuload.h"
#include "env.h"
#include "stats.h"

/*
 * Time shared by the results of a whole run (--budget; core/budget.c). Every
 * result has a floor, what no share can shorten (pg_result_floor): its
 * least samples, and a trial's fixed length. The floors of the results
 * still to run are kept back; a result that a longer share can lengthen
 * (flexible) gets its floor and an equal part of what is left beyond them
 * all, so one that needed less leaves more to the others and those at the
 * end still have their floors; any other gets its floor.
 */
struct pg_budget {
	double deadline;	/* on the runner's clock */
	int left;		/* results still to run, the next one included */
	int flexible;		/* of them, those a longer share can lengthen */
	double floors;		/* their floors' sum, seconds */
};

/* Why a result has as many samples as it has. */
enum pg_stop {
	PG_STOP_RUNS,		/* --runs: a fixed number */
	PG_STOP_INTERVAL,	/* the median's interval reached the target */
	PG_STOP_MAX_RUNS,	/* as many as max_runs allows */
	PG_STOP_TIME,		/* the result's time cap */
	PG_STOP_BUDGET,		/* its share of the run's budget */
	PG_STOP_ONCE,		/* a fact of the machine: one sample */
};

const char *pg_stop_name(enum pg_stop s);

/* A result takes at least this many samples whatever its time. */
#define PG_FLOOR_RUNS 3

struct pg_run_opts {
	/* > 0: exactly this many samples per result. 0: noise-aware: at
	 * least min_runs (at least PG_FLOOR_RUNS), then more while the
	 * median's 95% interval is wider than +/- ci_target of the median,
	 * at most max_runs, and none that would take the result past
	 * max_time seconds (setup and calibration included) or past its share
	 * of the budget. */
	int runs;
	int min_runs, max_runs;
	double ci_target;
	double max_time;	/* 0: no cap */
	struct pg_budget *budget;	/* NULL: none */
	double min_time;	/* seconds each sample lasts at least */
	/* > 0: every sample is this many iterations, with no calibration (one
	 * step of one iteration warms up first), so that a run does the same
	 * work on any machine: for counting instructions under a simulator. */
	uint64_t iters;
	const int *cpus;	/* copy i runs on cpus[i % ncpus]; NULL: not pinned */
	int ncpus;
	/* The clock samples are timed with; NULL: pg_now (CLOCK_MONOTONIC).
	 * Tests give a virtual clock so timing is exact. */
	double (*clock)(void);
	/* Where a benchmark that runs another program (the ext group) keeps
	 * that program's raw output: a directory beside the results file,
	 * made when first needed. NULL: no results file, nothing is kept. */
	const char *raw_dir;
	/* What the machine does during each sample (core/env.h); NULL: not
	 * observed. The noise-aware runner takes a disturbed sample again
	 * while the result has time (at most PG_MAX_RETAKES times as many as
	 * it needs); --runs N keeps its N. env_base is the run's first mark,
	 * whose cpufreq caps a later cap is held against. */
	struct pg_env *env;
	const struct pg_env_mark *env_base;
	/* > 1: this is one of that many processes measuring the result one
	 * after the other (core/procs.h). The noise-aware runner then stops
	 * once this process's samples are within ci_target and the processes'
	 * samples together are enough for a 95% interval: a process's own
	 * samples need not be. */
	int procs;
	/* The samples (first metric) of the processes measured before this
	 * one, the last of those asked for: nprior in all, prior_n[i] of
	 * process i's, prior_procs of them; NULL: none. Such a process stops
	 * when the result's samples together are within ci_target, not its
	 * own, and may take the samples the result's max_runs leaves it
	 * (core/procs.c says why); at its floor, processes that disagree
	 * stop it, as samples would not decide then. */
	const double *prior;
	const int *prior_n;
	int nprior, prior_procs;
	/* run --max-processes: while a result's processes disagree (the
	 * bimodal rule, core/procs.h), more are run, one at a time, up to this
	 * many in all; at most the asked number when below it. */
	int max_procs;
	/* Called before a disturbed result or process is measured again
	 * (core/procs.c), with its reasons (PG_ENV_*): the run waits there,
	 * bounded, for the machine to be quiet (run --wait-quiet), and says
	 * how many seconds, which the result's time does not count. NULL: no
	 * wait. */
	double (*before_retake)(void *arg, unsigned why);
	void *retake_arg;
};

/* run --processes: at most this many processes per result. */
#define PG_MAX_PROCS 64

/* The most disturbed samples a result takes again, over the samples it
 * needs (--runs, or the suite's least). */
#define PG_MAX_RETAKES 2
/* Disturbed samples in a row that the noise-aware runner takes again;
 * the next one is kept (and counted as disturbed): a disturbance that
 * lasts this long lasts past a retake. Beside one busy loop on a 2-CPU
 * machine every sample is disturbed, and taking each again until the
 * result's time ran out made the quick suite take 180 s instead of 90. */
#define PG_DISTURBED_IN_ROW 3

struct pg_result {
	const struct pg_bench *bench;
	const struct pg_args *args;
	enum pg_status status;
	char reason[PG_MSG_LEN];	/* skipped or error: why */
	char note[PG_MSG_LEN];		/* what the benchmark wants recorded */
	int copies;
	int nmetrics;
	int nsamples;
	uint64_t iters;			/* iterations per sample, per copy */
	double *elapsed;		/* seconds of each sample */
	double *values[PG_MAX_METRICS];	/* each metric's value per sample */
	struct pg_stats stats[PG_MAX_METRICS];
	enum pg_stop stop;
	double cap;			/* seconds the result could take; 0: no cap */
	struct pg_cpu_load cpu;
	/* Every latency the samples recorded (PG_HIST_* metrics); NULL when
	 * the benchmark records none. */
	struct pg_hist *hist;
	double started, finished;	/* CLOCK_REALTIME seconds */
	/* What the machine did during the kept samples, when observed
	 * (pg_run_opts.env): env.why says what disturbed the result. */
	int have_env;
	struct pg_env_seen env;
	int disturbed;
	/* Measured in several fresh processes (core/procs.h): how many, and
	 * how many samples each gave, in order (elapsed and values[m] hold
	 * them one process after the other); 0: in this process only. Per
	 * metric, whether the processes disagree beyond their noise. */
	int nprocs;
	int proc_n[PG_MAX_PROCS];
	int proc_bimodal[PG_MAX_METRICS];
	/* The siblings' figures the samples measured too (pg_bench.siblings,
	 * in its order; 0: none): each one's value and seconds per sample. */
	int nsib;
	double *sib_values[PG_MAX_SIBLINGS], *sib_elapsed[PG_MAX_SIBLINGS];
};

/* Set from a signal handler, to the signal's number: the runner stops at
 * the next sample boundary. */
extern volatile sig_atomic_t pg_interrupted;

/* Starts a budget of `seconds` from now, with no result yet. */
void pg_budget_init(struct pg_budget *b, double seconds, const struct pg_run_opts *o);
/* Adds a result still to run, with its floor (pg_result_floor). */
void pg_budget_add(struct pg_budget *b, const struct pg_bench *bench, const struct pg_args *a,
		   const struct pg_run_opts *o);
/* Takes that result off the budget as it starts, at `now` on the runner's
 * clock, and returns its share in seconds. */
double pg_budget_take(struct pg_budget *b, const struct pg_bench *bench, const struct pg_args *a,
		      const struct pg_run_opts *o, double now);

/* A .once benchmark's samples: its samples_param's value, or --runs N when
 * given; one without a samples_param. */
int pg_once_samples(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o);

/* The least seconds a result takes whatever its share of a budget: its
 * least samples (a .once benchmark's pg_once_samples, else --runs N, else
 * PG_FLOOR_RUNS) of the least a sample lasts (the benchmark's floor hook,
 * a trial's time and ramp, else --min-time, calibration's last step
 * included), and the setup the benchmark says is part of it. *flexible:
 * whether a longer share can lengthen it (not --runs, not one sample, not
 * a floor already at the result's time cap). */
double pg_result_floor(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o,
		       int *flexible);

/* The time a result starting at t0 (on the run's clock) may take: the
 * cap, or its share of what the budget has left, whichever is less (0: no
 * cap); *by_budget set when the budget decided. Counts the result off the
 * budget. */
double pg_result_time(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o, double t0,
		      int *by_budget);

/* Fills r; returns r->status. An interrupted run ends in PG_ERROR with
 * pg_interrupted set. */
int pg_run_bench(const struct pg_bench *b, const struct pg_args *a,
		 const struct pg_run_opts *o, struct pg_result *r);
void pg_result_free(struct pg_result *r);
/* Room for one more sample in r's per-sample arrays (*cap of them now):
 * -1 when out of memory. */
int pg_result_grow(struct pg_result *r, int *cap);

/* Value of metric m from one sample's elapsed time and summed counts. */
double pg_metric_value(const struct pg_metric *m, double elapsed, double count, int copies);

/* Value of a PG_RATIO metric from its count and the primary metric's. */
double pg_ratio_value(const struct pg_metric *m, double count, double primary);

int pg_metric_count(const struct pg_bench *b);

#endif
