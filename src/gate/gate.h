/* SPDX-License-Identifier: MIT */
/*
 * The release gate's statistics (gate.c), apart from the runs and records
 * they are applied to (compare.c), so that a test can drive them with
 * data it makes up.
 *
 * The replicate that matters is the process, not the sample: two
 * processes of one build may measure differently while each one's samples
 * agree to 0.1%. So a row is judged on the log of each replicate's median,
 * a replicate being a process of a run measured in several (run
 * --processes, the record's "processes"), else the run:
 *
 *  - several replicates a side: a t-test on their log medians (the spread
 *    between them, never less than what the samples of one give): pooled
 *    degrees of freedom when the sides have as many, else Welch's;
 *  - several runs on one side, one on the other (compare --history): the one
 *    run against the others' spread, Student's t for a new observation;
 *  - one run a side: the samples' standard errors of the two medians plus,
 *    for each run, the spread between runs of the board (its noise
 *    profile, from the runs of it a store holds: gate/profile.h) where
 *    there is one, else an allowance: the benchmark's run_sd where its runs
 *    are known to vary more (core/bench.h: storage, cpu.scaling), else
 *    PG_GATE_RUN_SD on top of the processes' spread (runs measured in
 *    processes) or PG_GATE_ONE_RUN_SD (a run in one process). An allowance
 *    is a guess, not a measurement: two processes of one build can differ
 *    by more (1.6x, docs/methodology.md), so with one run of one process a
 *    side and an allowance a change below PG_GATE_GROSS is not called
 *    regressed or improved (verdicts, compare.c).
 *
 * A run of one sample (a figure derived from other results: cpu.scaling's
 * speedup) has no spread of its own; where its benchmark stated one (the
 * record's interval at a level above 0, pg_state_se), the standard error of
 * its log is that interval's half-width over the normal quantile of its
 * level (pg_gate_stated_se), and it stands for the run's samples in every
 * test. The benchmark widened the interval by Student's t for the degrees
 * of freedom of the samples it came from, so the gate takes the se as
 * known: it adds nothing to Welch-Satterthwaite's degrees of freedom (one
 * run a side, both stated: the normal). A run of one sample with no stated
 * interval cannot be tested against one run, save with a noise profile.
 *
 * The test gives the change's estimate, its standard error and degrees of
 * freedom, and p (two-sided, against no change). p-values of all rows of
 * one comparison are corrected together (Benjamini-Hochberg at PG_GATE_Q);
 * the verdict is gate/verdict.h's rule on the change's interval.
 */
#ifndef PG_GATE_H
#define PG_GATE_H

#include "core/procs.h"	/* PG_PROCS_RUN_SD */
#include "core/stats.h"	/* pg_student_p */

/* The false discovery rate across the rows of one comparison. */
#define PG_GATE_Q 0.05
/* One run a side: the standard deviation of a run's log median between
 * processes of one build that the test allows for (2%). */
#define PG_GATE_PROCESS_SD 0.02
/* One run a side measured in processes: the processes share their run's
 * machine state, so the test also allows each run this standard deviation
 * of its log figure on top of the processes' spread (5%: three runs of
 * os.sig.install back to back, each of 2-3 processes agreeing within 3%,
 * gave 0.222, 0.208 and 0.193 us). The difference of two runs then varies
 * by 7% or more, so one run a side with this allowance shows no row within
 * a 5% threshold (undecided); several runs a side, or the board's noise
 * profile, measure the runs' spread instead. The runner takes more processes while a run's
 * spread with this allowance could not be judged (core/procs.c). */
#define PG_GATE_RUN_SD PG_PROCS_RUN_SD
/* One run of one process a side, no noise profile: the standard deviation
 * allowed for each run, a process's and a run's own state together
 * (sqrt(0.02^2 + 0.05^2)), unless the benchmark's run_sd says more. */
#define PG_GATE_ONE_RUN_SD 0.0539
/* A change of this factor or more (either way) is gross. One run of one
 * process a side with an allowance calls no change below it regressed or
 * improved: two processes of one build were measured up to 1.6x apart (a
 * log standard deviation of 0.19 over six processes), which no allowance
 * of a few percent covers, and a gross change is 4 such standard
 * deviations of a difference of two (e^(4 x 0.19 x sqrt 2) = 2.9, rounded
 * up). */
#define PG_GATE_GROSS 3.0

/* One side of one row: each run's median and the standard error of its
 * log from the run's samples or its stated interval (-1: too few samples
 * to say), and each run's samples (1 with a stated interval: known). */
struct pg_gate_side {
	int n;
	const double *median;
	const double *se;
	const int *nsamples;	/* each run's samples */
	/* The runs these replicates come from: 1 when they are the processes
	 * of one run (0: as many as n). */
	int runs;
	/* One run a side: the standard deviation of a run's log figure that
	 * the test allows for each run (the benchmark's run_sd; 0: the
	 * gate's own allowance). */
	double run_sd;
	/* The board's noise profile for this row: the standard deviation of a
	 * run's log figure between its runs, from profile_runs runs (0: no
	 * profile; the same on both sides). */
	double profile_sd;
	int profile_runs;
};

/* Where a test took the spread between runs from. */
enum pg_gate_spread {
	PG_SPREAD_NONE,		/* untested */
	PG_SPREAD_RUNS,		/* the runs compared (several on a side) */
	PG_SPREAD_ALLOWANCE,	/* one run a side: an allowance (spread_sd) */
	PG_SPREAD_PROFILE,	/* one run a side: the board's runs (spread_sd, spread_runs) */
};

enum pg_gate_test { PG_TEST_NONE, PG_TEST_RUNS, PG_TEST_ONE_VS_RUNS, PG_TEST_ONE_RUN };

struct pg_gate_result {
	enum pg_gate_test test;
	double d;		/* log(NEW / BASE), from the runs' mean logs */
	/* each side's level: exp of its replicates' mean log (d is the log
	 * of their ratio); 0 untested */
	double base_level, new_level;
	double se;		/* its standard error */
	double p;		/* two-sided; 1 when untested */
	double df;
	const char *untested;	/* why no test could be made, or NULL */
	int few;		/* untested for want of samples alone */
	enum pg_gate_spread spread;
	double spread_sd;	/* a run's, allowed or from the profile */
	int spread_runs;	/* the profile's runs */
};

/* The standard error of the log of the median of n samples (from the
 * samples' robust spread on the log scale: 1.2533 s / sqrt(n), s from the
 * median absolute deviation, pg_log_median_se); -1 when n < 2 or
 * a sample is not positive. */
double pg_gate_log_median_se(const double *samples, int n);

/* The standard error of the log of a one-sample result's figure from the
 * interval its benchmark stated ([lo, hi] at coverage level, symmetric on
 * the log scale): log(hi / lo) / 2 over the normal quantile of level; -1
 * when there is none (level 0: the figure itself). */
double pg_gate_stated_se(double lo, double hi, double level);

/* Tests one row. */
void pg_gate_test(const struct pg_gate_side *base, const struct pg_gate_side *new, struct pg_gate_result *r);

/* Benjamini-Hochberg: reject[i] set for the p[i] that the procedure
 * rejects at false discovery rate q. */
void pg_gate_bh(const double *p, int n, double q, int *reject);

const char *pg_gate_test_name(enum pg_gate_test t);
/* "runs", "allowance", "board history", "none". */
const char *pg_gate_spread_name(enum pg_gate_spread s);

#endif
