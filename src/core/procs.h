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
 * in all; not with --runs, nor when the budget set the result's time.
 * Returns r->status. */
int pg_run_bench_procs(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o,
		       int nprocs, struct pg_result *r);

/* Processes that disagree beyond their noise: two of them whose medians
 * differ by more than PG_PROCS_BIMODAL_PCT percent and by more than
 * PG_PROCS_BIMODAL_SE standard errors of their difference (each median's
 * log standard error from its own samples, pg_log_median_se, but not below
 * what the processes' samples pooled give). samples is
 * the processes' samples one after the other, n[i] how many each. Returns
 * 1 with why set ("its 2 processes measured 61.2 and 98.7: ..."), else 0
 * (why ""). */
#define PG_PROCS_BIMODAL_PCT 5.0
#define PG_PROCS_BIMODAL_SE 4.0
int pg_procs_bimodal(const double *samples, const int *n, int nprocs, char *why, size_t len);

/* The lowest and highest of r's processes' medians of metric m. */
void pg_procs_range(const struct pg_result *r, int m, double *lo, double *hi);

/* Test only (documented in docs/methodology.md): PERFGUIDE_TEST_KILL_PROCESS=K
 * makes the K-th process of every multi-process result kill itself with
 * SIGKILL before it measures, so a test can see a dead child reported. */
#define PG_PROCS_TEST_KILL_ENV "PERFGUIDE_TEST_KILL_PROCESS"

#endif
