/* SPDX-License-Identifier: MIT */
/*
 * The benchmark interface: everything a benchmark file needs, nothing more.
 *
 * A benchmark owns its kernel and what it counts. The runner owns the clock,
 * warm-up, calibration, repetitions, copies, CPU load, statistics and output.
 * A benchmark never prints, parses options or computes a median itself.
 */
#ifndef PG_BENCH_H
#define PG_BENCH_H

#include <stddef.h>
#include <stdint.h>

#define PG_MAX_PARAMS 12
#define PG_MAX_METRICS 12
/* Benchmarks whose figure one step can measure besides its own
 * (pg_bench.siblings). */
#define PG_MAX_SIBLINGS 4
#define PG_MSG_LEN 256

enum pg_ptype {
	PG_P_SIZE,	/* bytes; accepts 512, 4k, 16m, 1g (powers of 1024) */
	PG_P_INT,	/* a whole number */
	PG_P_STR,	/* one of choices, or free text when choices is NULL */
};

struct pg_param {
	const char *name;
	enum pg_ptype type;
	const char *def;	/* default value, as text */
	const char *help;
	int64_t min, max;	/* numeric bounds; max 0 means unbounded */
	/* PG_P_STR: comma-separated allowed values. PG_P_SIZE: named values
	 * ("auto") accepted besides sizes; they parse as 0. */
	const char *choices;
	/* Per-suite sweeps, comma-separated; NULL means the default only. */
	const char *quick, *standard, *full;
	/* PG_P_SIZE: the benchmark allocates this many times the value (per
	 * copy), so it must fit in what the machine has free; 0: not memory. */
	int mem_factor;
	/* An input, not a condition of the measurement (the path of a key
	 * file): the benchmark gets it, the results, their key and the console
	 * do not. */
	int not_recorded;
	/* PG_P_STR: the value is taken whole, commas and all (ALSA's device
	 * names: hw:0,0), so it is never a sweep. */
	int whole;
	/* PG_P_STR: the form a value must have (800x600, a rate in Mbit/s):
	 * 0, or -1 with err saying what is wanted. A value of another form is
	 * refused as a whole number parameter refuses "4k": an unscoped -p
	 * among several benchmarks then goes only where it fits. NULL: any. */
	int (*form)(const char *value, char *err, size_t errlen);
};

struct pg_value {
	const struct pg_param *param;
	int64_t num;		/* PG_P_SIZE and PG_P_INT */
	char text[256];		/* as given (PG_P_STR: the value; a path fits) */
	int given;		/* the user's (-p), not the default or the suite's */
};

struct pg_args {
	int n;
	struct pg_value v[PG_MAX_PARAMS];
};

int64_t pg_arg_int(const struct pg_args *a, const char *name);
const char *pg_arg_str(const struct pg_args *a, const char *name);
/* Whether the user gave the parameter (-p), not its default or a suite. */
int pg_arg_given(const struct pg_args *a, const char *name);

/* How a metric turns (elapsed seconds, count) into its value. */
enum pg_metric_kind {
	PG_RATE,	/* count / seconds * scale: MB/s, ops/s */
	PG_TIME_PER,	/* seconds / count * scale: ns per load, us per call */
	PG_VALUE,	/* count itself: a search result, a fact of the machine */
	PG_RATIO,	/* count / the primary metric's count * scale: CPU us per op */
	/* From the latencies the step recorded in ctx->hist (ns), times scale
	 * (1e-3 for us): their mean, or the quantile q (0.5, 0.99; 1 is the
	 * maximum). The metric's count slot is unused. */
	PG_HIST_MEAN,
	PG_HIST_Q,
};

struct pg_metric {
	const char *name;	/* "bandwidth", "latency" */
	const char *unit;	/* "MB/s", "ns" */
	enum pg_metric_kind kind;
	double scale;
	int higher_is_better;
	double q;		/* PG_HIST_Q: the quantile */
};

struct pg_bench;
struct pg_run_opts;
struct pg_hist;

/* One copy of a running benchmark. priv is the benchmark's own state. */
struct pg_ctx {
	const struct pg_bench *bench;
	const struct pg_args *args;
	void *priv;
	int copy;		/* 0 .. copies-1 */
	int copies;
	char msg[PG_MSG_LEN];	/* why a setup skipped or a step failed */
	char note[PG_MSG_LEN];	/* a fact the result should carry (copy 0) */
	/* Seconds of each counted unit of metric m that are not the operation
	 * itself (lat_ctx's token passing, a loop's own cost): measured by the
	 * benchmark in setup, as its reference tool does, and subtracted by
	 * the runner from PG_TIME_PER metrics. 0: nothing to subtract. */
	double overhead[PG_MAX_METRICS];
	/* The far end's system-wide busy percent over the last step, when the
	 * step measured it (a network peer); negative: not measured. Copy 0's
	 * figure is the result's cpu.remote_busy_pct. */
	double remote_busy_pct;
	/* Set in setup when the figure depends on what ran on this machine
	 * before it, not on the build (PG_HISTORY_*, core/env.h): the record
	 * says so and compare does not gate it. */
	unsigned history;
	/* The run's options (samples, minimum time, CPUs, clock): a benchmark
	 * made of others runs them through pg_run_bench with these, so the
	 * runner times them as it times everything. */
	const struct pg_run_opts *run;
	/* Where the step records each operation's latency (pg_hist_add, in
	 * ns; core/hist.h) when the benchmark has PG_HIST_* metrics; the
	 * runner clears it before every timed step. NULL otherwise. */
	struct pg_hist *hist;
	/* A .trial step whose counts cover only part of it (a ramp it did not
	 * count, fio's ramp_time) sets the seconds they cover; the runner
	 * divides by them instead of the step's wall time. Cleared before
	 * every step; 0: the step's time. */
	double counted_s;
	/* A step that measured its siblings' figures too (pg_bench.siblings)
	 * sets how many (in that list's order) and each one's counts and the
	 * seconds they took. Cleared before every step; 0: none this time. */
	int nsib;
	double sib_counts[PG_MAX_SIBLINGS], sib_s[PG_MAX_SIBLINGS];
	/* A .once benchmark whose one figure is derived from other results
	 * (a ratio or a geometric mean of their medians) knows how well it is
	 * known: pg_state_se. Cleared before every step; 0: not stated. */
	double log_se[PG_MAX_METRICS], log_se_df[PG_MAX_METRICS];
};

enum pg_status { PG_OK = 0, PG_SKIP = 1, PG_ERROR = 2 };

/* Set ctx->msg and return the status, for "return pg_skip(ctx, ...)". */
int pg_skip(struct pg_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int pg_error(struct pg_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pg_note(struct pg_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* States the standard error of the log of metric m's figure (se > 0) and
 * the degrees of freedom it has (df: from the samples it came from; 0:
 * known exactly), for a result of one sample: the runner makes its 95%
 * interval of it (the figure times exp(+/- t se)), and compare tests the
 * result with it where one sample alone could not be tested. */
void pg_state_se(struct pg_ctx *ctx, int m, double se, double df);

/* Keeps a computed value alive so the compiler cannot drop the work. */
static inline void pg_consume(uint64_t v)
{
	__asm__ volatile("" : : "r"(v) : "memory");
}

/* Values of pg_bench.min_suite; the same numbers as enum pg_suite. */
enum { PG_IN_ALL = 0, PG_IN_STANDARD = 2, PG_IN_FULL = 3 };

/*
 * A table of the guide. The group that owns a benchmark declares the section
 * it belongs in; results carry it, and the report knows sections only from
 * what results carry, never from benchmark ids. Sections with the same title
 * are one table (the memory and OS groups both fill "LMBench").
 */
struct pg_section {
	const char *title;	/* the table's heading: "Storage" */
	/* A sentence under the heading; NULL: none. It says only what the
	 * results record: {name} is replaced by the value the section's
	 * results had for the parameter name (or the key name=value of their
	 * note, which says what was used where a parameter leaves a choice:
	 * engine=psync), each board's where they differ; {name?yes|no} by
	 * yes where the value is not 0, else no (guide/intro.c). */
	const char *intro;
	int order;		/* place in the guide, lowest first (the seed's order) */
	/* CPU-load columns beside the values: the seeds print them only where
	 * the load is part of the answer (network, storage, crypto, messaging). */
	int cpu_load;
	/* Row layout. NULL: a row per (bench, params, metric). A parameter's
	 * name: a row per value of that parameter, and per board a column per
	 * (bench, metric), as the seed's storage tables (rows: buffer size;
	 * columns: write and read throughput, each with its CPU load). */
	const char *rows_by;
	/* The heading of the rows_by column: "Buffer size (bytes)"; NULL: the
	 * parameter's name. */
	const char *rows_title;
	/* A line plot of the section: x is this parameter's values, one line
	 * per value of plot_series (NULL: one line per board). NULL: no plot
	 * beyond the bar charts that compare boards. */
	const char *plot_x;
	const char *plot_series;
	/* The metrics its tables and plots show, comma-separated ("bandwidth":
	 * the seed's storage tables give throughput, not the latencies beside
	 * it); the others stay in the results, the store and the report's csv
	 * and json. NULL: every metric. */
	const char *metrics;
	/* With rows_by: rows are (benchmark, rows_by value), the first column
	 * headed by this names the benchmark (its id less the section's
	 * common prefix: "aes-128-cbc"), and a column per (metric, other
	 * parameters) holds every benchmark's figures: the seed's OpenSSL
	 * table, algorithm x buffer size. NULL: rows are the values alone. */
	const char *rows_bench;
	/* How the tables name metrics whose names would read wrong there,
	 * "metric=Title" comma-separated ("cpu_load=CPU (process)": the
	 * process's share, not the system's CPU load beside it). */
	const char *metric_titles;
	/* With rows_by: how a row's value is shown, a template as the intro's
	 * ({size}: as parameters print, 4k; {#size}: the number, 4096;
	 * {size+46}: the number plus 46), and with several templates joined
	 * by '|' a leading column each, headed by rows_title's '|'-separated
	 * parts: the seed's UDP table's "Frame Size(bytes)" and its "UDP
	 * Datagram Size(bytes)". NULL: the value as parameters print. */
	const char *rows_shown;
	/* With rows_by: the benchmarks (ids, comma-separated) whose rows the
	 * pivot takes; the section's other rows are a table of a row per
	 * result before them (Ethernet: the UDP tables by frame size, the TCP
	 * rows as they are). NULL: every benchmark. */
	const char *rows_of;
	/* With rows_by: a table per value of this template, filled from each
	 * figure's result (its note's key=value, else its parameter, {title}
	 * the benchmark's title; {^name} upper case; {name=v?yes|no}); its
	 * parts, separated by "; ", are the table's name (the first) and its
	 * configuration: the seed's storage tables, one per medium
	 * ("{^medium} {^fs}; {engine}; queue depth {depth}"). A table's
	 * heading is its name and the parts that tell it from the section's
	 * other tables; its intro, all of them. NULL: one table. */
	const char *tables;
	/* Parameters that say where the benchmark ran, not what it measured
	 * (storage's path), comma-separated: the tables, their columns and
	 * charts never name them (the medium stands for them); a table's
	 * intro says them. */
	const char *place;
};

struct pg_bench {
	const char *id;		/* "mem.bw.fcp" */
	const char *title;	/* what the guide prints */
	/* The guide's table for this benchmark's results; NULL: the report's
	 * last section ("Other benchmarks"). */
	const struct pg_section *section;
	const struct pg_param *params;	/* terminated by a NULL name */
	const struct pg_metric *metrics;	/* primary first, NULL name ends */
	/* Name of the parameter that runs N copies at once, one per thread,
	 * the counts summed; NULL when the benchmark runs one copy. */
	const char *copies_param;
	/* Facts of the machine: one sample, no warm-up or calibration. */
	int once;
	/* A .once benchmark whose every sample is a measurement of its own (a
	 * zero-loss search, from nothing it found before): the name of the
	 * parameter that says how many (--runs N: N); NULL: one. */
	const char *samples_param;
	/* Each sample is one trial whose length the benchmark's own parameters
	 * fix (a network test's `time`): one step of one iteration per sample,
	 * --runs samples, no calibration and no warm-up step. */
	int trial;
	/* The ids of benchmarks whose primary figure (a metric of the same
	 * kind as this one's first) every step may measure as well, NULL at
	 * the end; the list may name this benchmark itself, which is left
	 * out. STREAM's rotation times copy, scale, add and triad in every
	 * pass: the run takes the other three from the passes of the first
	 * one it measures (core/result.c) instead of running them again.
	 * NULL: none. */
	const char *const *siblings;
	/* The standard deviation of a run's log figure between runs of one
	 * build that the samples of one run do not show, where it is known to
	 * be larger than a process's (compare allows it for each run with one
	 * run a side, gate/gate.h); 0: PG_GATE_PROCESS_SD. */
	double run_sd;
	/* The lightest suite that runs it (PG_IN_*): a benchmark slow to
	 * prepare, or close to another one, stays out of the quick suite (or
	 * also of standard); it always runs when named without --suite. */
	int min_suite;
	const void *data;	/* per-variant constants for shared code */

	/* Checks a combination of parameters before anything runs (a size
	 * smaller than the stride); returns 0, or -1 with err set. */
	int (*check)(const struct pg_args *args, char *err, size_t len);
	/* Called in the copy's own thread, so memory is first touched there. */
	int (*setup)(struct pg_ctx *ctx);
	/* Untimed, before every timed step, with that step's iteration count:
	 * makes what the step consumes (files to delete, pages to fault) and
	 * clears what the last step left. NULL: nothing to prepare. */
	int (*prepare)(struct pg_ctx *ctx, uint64_t iters);
	/* The timed part: do `iters` units of work and add what was counted to
	 * counts[], one slot per metric. */
	int (*step)(struct pg_ctx *ctx, uint64_t iters, double *counts);
	/* After the samples: check the answer; an error here voids the result. */
	int (*verify)(struct pg_ctx *ctx);
	/* Called whenever setup was, even when it skipped or failed: frees
	 * whatever ctx->priv holds. */
	void (*teardown)(struct pg_ctx *ctx);
	/* What no share of the run's budget can shorten, known before the run
	 * (core/budget.c): *setup_s, seconds of setup that are part of the
	 * measurement (a search's shorter trials), and *sample_s, the least
	 * seconds of one sample (a trial's fixed length), from the arguments.
	 * NULL: a .trial or .once benchmark's sample lasts its `time`
	 * parameter, plus `ramp` and `warmup` where it has them (else 0); any
	 * other is calibrated to --min-time. */
	void (*floor)(const struct pg_args *args, double *setup_s, double *sample_s);
	/* The seed guide's row name for this result, if it has one. */
	void (*label)(const struct pg_bench *b, const struct pg_args *args,
		      const char *metric, char *buf, size_t len);
};

#endif
