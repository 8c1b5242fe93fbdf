/* SPDX-License-Identifier: MIT */
/*
 * One result measured in several fresh processes (run --processes N).
 *
 * A process's speed is a draw: crypto.sha1 measured 87.7k to 140k KB/s in
 * six processes, each with a CV of 0.1% inside, and cpu.nbench.assign runs
 * at one of two speeds per process (issue 29). The samples of one process
 * cannot say how far the next process will be; the processes can. So the
 * runner forks N children one after the other; each runs the ordinary
 * measurement (pg_run_bench) with 1/N of the result's time and samples,
 * sends what it measured back over a pipe and exits. fork() without exec is
 * enough: a child gets its own physical pages (the first touch of every
 * buffer is its own) and the scheduler places it afresh, which is what
 * differs between processes; it also keeps the parent's benchmark table,
 * parameters and options without passing them. The parent has no benchmark
 * thread when it forks (the copies of a result are joined before the next).
 *
 * Only the groups whose figure is CPU work in perfguide's own process are
 * measured so (cpu, mem, os, crypto, net); the others measure I/O, a
 * device or another program, and run in this process as before (storage,
 * audio, CAN and messaging once more when they come back disturbed).
 */
#ifndef PG_PROCS_H
#define PG_PROCS_H

#include <stddef.h>

#include "runner.h"

/* --processes's default, and --max-processes's: the processes a result
 * takes in all while they disagree. */
#define PG_PROCS_DEFAULT 2
#define PG_PROCS_MAX_DEFAULT 6

/* Whether a benchmark's results are measured in several processes when
 * asked: a CPU-work group (STREAM's kernels included), and not a fact of
 * the machine (once). */
int pg_procs_apply(const struct pg_bench *b);

/* pg_run_bench in nprocs fresh processes one after the other, merged into
 * r: every process's samples in order (r->proc_n says how many each), the
 * statistics over all, the env merged, an error when a process failed or
 * died (with its reason or signal). nprocs <= 1, or a benchmark
 * pg_procs_apply refuses: pg_run_bench in this process. While the processes
 * disagree on the first metric (pg_procs_bimodal), one more process at a
 * time, each with the time of one of the first nprocs, up to o->max_procs
 * in all; likewise while they spread too wide (pg_procs_spread_wide); not
 * with --runs, nor when the budget set the result's time.
 * Returns r->status. */
int pg_run_bench_procs(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o,
		       int nprocs, struct pg_result *r);

/* A result measured with another's samples (pg_result_sibling) taken on:
 * more processes while its own figures disagree or spread too wide, as
 * pg_run_bench_procs would after its first nprocs; the result's time is
 * counted off the budget. Returns r->status. */
int pg_run_bench_procs_more(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o,
			    int nprocs, struct pg_result *r);

/* The statistics over every process's samples in r, whether the processes
 * disagree (per metric), and whether they were disturbed. */
void pg_procs_finish(struct pg_result *r);


/* Processes that disagree beyond their noise: two of them whose medians
 * differ by more than PG_PROCS_BIMODAL_PCT percent and by more than
 * PG_PROCS_BIMODAL_SE standard errors of their difference (each median's
 * log standard error from its own samples, pg_log_median_se, but not below
 * what the processes' samples pooled give). samples is
 * the processes' samples one after the other, n[i] how many each. Returns
 * 1 with why set ("its 2 processes measured 61.2 and 98.7: ..."), else 0
 * (why ""). */
/* The standard deviation of one run's log figure that compare allows
 * besides its processes' spread (PG_GATE_RUN_SD, gate/gate.h, says
 * why 5%); the runner takes more processes while a run of its spread
 * could not be judged with it (procs.c). */
#define PG_PROCS_RUN_SD 0.05
#define PG_PROCS_BIMODAL_PCT 5.0
#define PG_PROCS_BIMODAL_SE 4.0
int pg_procs_bimodal(const double *samples, const int *n, int nprocs, char *why, size_t len);

/* Processes whose medians spread too wide for compare to judge a run like
 * this one against another: its test of processes a side (the t of their
 * log medians, each run allowed PG_PROCS_RUN_SD besides, 2n - 2 degrees of
 * freedom) would not rule a change of 3x out at 5% with half of the way to
 * it taken by the difference itself. The bimodal rule does not call such a
 * spread a disagreement when each process's own samples are noisy:
 * cpu.dhrystone's two processes at 47.8 and 28.4 million a second left its
 * A/A row "inconclusive" where a third would have let it be judged. The
 * runner then takes another process (pg_run_bench_procs). samples and n as
 * for pg_procs_bimodal. */
int pg_procs_spread_wide(const double *samples, const int *n, int nprocs);

/* Whether the last of a result's processes asked for (o->prior: the
 * samples of those before it) has sampled enough, its own n samples in
 * own, and why (*why): the result's samples together are within
 * o->ci_target (PG_STOP_INTERVAL); or, at its floor of samples
 * (floor_runs), it and those before disagree or spread too wide
 * (PG_STOP_MAX_RUNS): more processes will decide then, not more samples.
 * 0 without o->prior or below the floor. The runner (enough) asks this
 * instead of whether the process's own samples are within the target, so
 * that a result whose processes agree takes samples, not processes, until
 * its target or its max_runs (pg_run_bench_procs). */
int pg_procs_last_enough(const double *own, int n, const struct pg_run_opts *o, int floor_runs, enum pg_stop *why);

/* The lowest and highest of r's processes' medians of metric m. */
void pg_procs_range(const struct pg_result *r, int m, double *lo, double *hi);

/* Test only (documented in docs/methodology.md): PERFGUIDE_TEST_KILL_PROCESS=K
 * makes the K-th process started for every multi-process result (set-aside
 * ones counted) kill itself with
 * SIGKILL before it measures, so a test can see a dead child reported. */
#define PG_PROCS_TEST_KILL_ENV "PERFGUIDE_TEST_KILL_PROCESS"

#endif
