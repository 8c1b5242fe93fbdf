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
#include "stats.h"

struct pg_run_opts {
	int runs;		/* samples per result */
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
};

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
	struct pg_cpu_load cpu;
	/* Every latency the samples recorded (PG_HIST_* metrics); NULL when
	 * the benchmark records none. */
	struct pg_hist *hist;
	double started, finished;	/* CLOCK_REALTIME seconds */
};

/* Set from a signal handler: the runner stops at the next sample boundary. */
extern volatile sig_atomic_t pg_interrupted;

/* Fills r; returns r->status. An interrupted run ends in PG_ERROR with
 * pg_interrupted set. */
int pg_run_bench(const struct pg_bench *b, const struct pg_args *a,
		 const struct pg_run_opts *o, struct pg_result *r);
void pg_result_free(struct pg_result *r);

/* Value of metric m from one sample's elapsed time and summed counts. */
double pg_metric_value(const struct pg_metric *m, double elapsed, double count, int copies);

/* Value of a PG_RATIO metric from its count and the primary metric's. */
double pg_ratio_value(const struct pg_metric *m, double count, double primary);

int pg_metric_count(const struct pg_bench *b);

#endif
