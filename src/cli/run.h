/* SPDX-License-Identifier: MIT */
/*
 * perfguide run, in parts: the options (run_options.c), the plan of what
 * runs with which parameters (run_plan.c), and the sinks every result goes
 * to (run_sinks.c: the console and the summary; run_sink_file.c: the
 * results file; run_sink_store.c: the store). run.c runs the plan through
 * the sinks. A new way to report results (a LAVA test case per result) is a
 * new sink; the whole run's time (--budget) is a field of the config that
 * run.c's loop shares out.
 */
#ifndef PG_CLI_RUN_H
#define PG_CLI_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/params.h"
#include "core/results.h"
#include "core/runner.h"
#include "pg_build.h"
#include "core/err.h"

#define RUN_MAX_OVERRIDES 16
#define RUN_MAX_CPUS 256
#define RUN_MAX_LABELS 16
#define RUN_RESULTS_DIR "perfguide-results"
#define RUN_NO_BUDGET (-1.0)	/* --budget none */

struct run_config {
	enum pg_suite suite;
	int runs;		/* 0: the noise-aware runner, with: */
	int min_runs, max_runs;
	double ci_target, max_time;
	double budget;		/* the whole run's seconds (--budget); 0: none */
	double min_time;
	uint64_t iters;
	const char *board, *out, *db;
	int json, no_db;
	int lava;		/* --lava: every result is also a LAVA test case */
	const char *labels[RUN_MAX_LABELS];	/* --label KEY=VALUE */
	int nlabels;
	int cpus[RUN_MAX_CPUS];
	int ncpus;
	struct pg_override ov[RUN_MAX_OVERRIDES];
	int nov;
	const char *const *selectors;
	int nselectors;
	double wait_quiet;	/* --wait-quiet: seconds before each benchmark; 0: none */
	int dry_run;		/* --dry-run: print the plan and its floors, run nothing */
	int processes;		/* --processes: fresh processes per result (core/procs.h) */
	int max_processes;	/* --max-processes: in all, while they disagree */
};

/* Parses argv into c. Returns -1 to go on, else the exit status to end
 * with (--help: 0; bad input: 2, the message printed). */
int run_parse_options(int argc, char **argv, struct run_config *c);

struct run_item {
	const struct pg_bench *bench;
	struct pg_args args;
	double floor;		/* seconds no share of the budget can shorten (pg_result_floor) */
	/* A benchmark named by its id that cannot run here at any of its
	 * settings (memory): reported skipped with this reason, not run. */
	char skip[PG_MSG_LEN];
};

/* What a selected benchmark did with a -p: took it, or kept its own. */
struct run_take {
	const struct pg_bench *bench;
	int ov;			/* index into run_config.ov */
	struct pg_take t;
};

struct run_plan {
	struct run_item *items;
	int n;
	struct run_take *takes;
	int ntakes;
	double floors;		/* the items' floors' sum */
	/* The guide's sections of what runs, one per title. */
	const struct pg_section *sections[64];
	int nsections;
};

/* Every benchmark the selectors name, with every parameter combination,
 * all checked before anything runs; fills in the suite's defaults. Returns
 * 0, or -1 with err set (bad input). */
int run_make_plan(struct run_config *c, struct run_plan *p, char *err, size_t len);
void run_plan_free(struct run_plan *p);
/* Before the run: when the floors alone exceed --budget, one line on
 * stderr saying by how much and which benchmarks take most of them (the
 * run goes on, each result at its floor). */
void run_plan_check_budget(const struct run_config *c, const struct run_plan *p);
/* After the plan is made (run_params.c): a -p that no selected benchmark
 * takes is bad input (-1 with err set), as is one that some take while
 * another's choices refuse it as a typo; a scoped one whose scope selects
 * none of the selected benchmarks is noted on stderr. */
int run_check_overrides(const struct run_config *c, const struct run_plan *p, char *err, size_t len);
/* What became of each -p: which benchmarks kept their own values and why
 * (all: and which took it), a line each on out. */
void run_print_takes(FILE *out, const struct run_config *c, const struct run_plan *p, int all);
/* --dry-run: which benchmark takes which -p, a line per item with its
 * floor, and their sum against the budget, on stdout. */
void run_plan_print(const struct run_config *c, const struct run_plan *p);
/* "14m31s", "42.0s" */
void run_format_seconds(double s, char *buf, size_t len);
/* "90", "90s", "15m", "1h30m": seconds, or -1 (run --budget, ab --budget). */
double run_parse_duration(const char *s);

/* --wait-quiet (run_quiet.c): before a benchmark, wait a while for other
 * processes that hold the CPUs. */
struct run_quiet {
	struct pg_env *env;
	double max_s;
	int look;		/* look at the machine before the next benchmark */
	int gave_up;		/* a wait ran out: none until a result is quiet */
};

void run_quiet_init(struct run_quiet *q, struct pg_env *env, double max_s);
void run_quiet_wait(struct run_quiet *q);
/* Before a disturbed result or process is measured again (pg_run_opts'
 * before_retake): waits, at most --wait-quiet, while a busy look at the
 * machine sees what would disturb it; the seconds it took. */
double run_quiet_retake(void *q, unsigned why);
/* What a result saw decides whether to look again before the next. */
void run_quiet_after(struct run_quiet *q, const struct pg_result *r);

/* --wait-quiet's default, and PERFGUIDE_WAIT_QUIET that sets another. */
#define RUN_WAIT_QUIET_DEFAULT 10.0

/* --- sinks: where each result goes --- */

struct run_sink_ops {
	/* The run record: everything known before the first benchmark. */
	void (*begin)(void *self, const struct pg_run_info *ri);
	/* Before item i of n starts; seconds_left is a guess. */
	void (*before)(void *self, const struct run_item *item, int i, int n, double seconds_left);
	void (*result)(void *self, const struct pg_result *r);
	void (*end)(void *self, int interrupted);
	/* Frees it; -1 when what it kept is incomplete (a results file that
	 * could not be written), which fails the run. */
	int (*close)(void *self);
};

#define RUN_MAX_SINKS 8

struct run_sinks {
	const struct run_sink_ops *ops[RUN_MAX_SINKS];
	void *self[RUN_MAX_SINKS];
	int n;
	char path[512];		/* the results file, once chosen */
	char raw_dir[520];	/* beside it, other programs' raw output */
};

int run_sinks_add(struct run_sinks *s, const struct run_sink_ops *ops, void *self);
void run_sinks_begin(struct run_sinks *s, const struct pg_run_info *ri);
void run_sinks_before(struct run_sinks *s, const struct run_item *item, int i, int n, double left);
void run_sinks_result(struct run_sinks *s, const struct pg_result *r);
void run_sinks_end(struct run_sinks *s, int interrupted);
/* Closes them all, in order; -1 when one failed. */
int run_sinks_close(struct run_sinks *s);

/* The table lines and the progress line. */
int run_sink_console(struct run_sinks *s, const struct run_config *c);
/* Counts ok, noisy, skipped and failed results, and ends the run with a
 * line of them and one per failure, and with a budget (seconds; 0: none)
 * the time the run took against it. *failed says whether one failed. */
int run_sink_summary(struct run_sinks *s, int *failed, double budget);

/* --lava: a LAVA test case per result, a test set per group. */
int run_sink_lava(struct run_sinks *s, const struct run_config *c);
/* The case's name (lava/README.md): the benchmark id, each recorded
 * parameter not at its default as _NAME-VALUE, the metric unless it is the
 * benchmark's first (metric: its index); in LAVA's alphabet [A-Za-z0-9._-],
 * at most 100 characters, never a hash. */
void run_lava_case_name(const struct pg_bench *b, const struct pg_args *a, int metric, char *buf, size_t len);
/* The lines around the results file run --lava puts into the log, base64:
 * "perfguide-results-begin NAME SIZE base64", then "perfguide-results-end
 * complete" (import --from-lava-log reads them: src/cli/lava_log.c). */
#define PG_LAVA_LOG_BEGIN "perfguide-results-begin"
#define PG_LAVA_LOG_END "perfguide-results-end"

/*
 * The results file (and --json on stdout), and the store that follows it.
 * run_results_path chooses the file (--out, or perfguide-results/<run id>.jsonl);
 * the store is opened next, before the file is, so that it follows the file
 * from its current end; then the file. Each returns 0, or -1 with err set
 * (bad input: nothing has run). Built without the library a sink needs, the
 * stub below says so for an option that asks for it, and otherwise adds
 * nothing.
 */
#ifdef PG_HAVE_JANSSON
int run_results_path(struct run_sinks *s, const struct run_config *c, const char *run_id, char *err, size_t len);
int run_sink_file(struct run_sinks *s, const struct run_config *c, char *err, size_t len);
#else
#include <stdio.h>
static inline int run_results_path(struct run_sinks *s, const struct run_config *c, const char *run_id, char *err,
				   size_t len)
{
	(void)s;
	(void)run_id;
	if (c->out || c->json) {
		return pg_err(err, len,
			      "--out and --json need a build with jansson (install libjansson-dev and rebuild)");
	}
	return 0;
}
static inline int run_sink_file(struct run_sinks *s, const struct run_config *c, char *err, size_t len)
{
	(void)s;
	(void)c;
	(void)err;
	(void)len;
	fprintf(stderr, "perfguide: built without jansson: results are shown but no results file is written\n");
	return 0;
}
#endif

#ifdef PG_HAVE_STORE
int run_sink_store(struct run_sinks *s, const struct run_config *c, char *err, size_t len);
#else
#include <stdio.h>
static inline int run_sink_store(struct run_sinks *s, const struct run_config *c, char *err, size_t len)
{
	(void)s;
	if (c->db) {
		return pg_err(err, len,
			      "--db needs a build with jansson and SQLite (install libsqlite3-dev and rebuild)");
	}
	return 0;
}
#endif

#endif
