/* SPDX-License-Identifier: MIT */
/*
 * The results file: JSON Lines, one "run" record, a "result" record per
 * metric of every benchmark run, an "end" record. Each benchmark's records
 * are flushed as it finishes, so a crash keeps everything finished before it.
 * Needs jansson; without it this module is not built (PG_HAVE_JANSSON).
 */
#ifndef PG_RESULTS_H
#define PG_RESULTS_H

#include <stdio.h>

#include "params.h"
#include "runner.h"
#include "sysinfo.h"

struct pg_run_info {
	char id[160];
	const char *board;
	double started;		/* CLOCK_REALTIME seconds */
	const struct pg_machine *machine;
	enum pg_suite suite;
	int runs;		/* 0: the noise-aware runner, with: */
	int min_runs, max_runs;
	double ci_target, max_time;
	double budget;		/* seconds; 0: none */
	double min_time;
	uint64_t iters;		/* fixed iterations per sample; 0: calibrated */
	int processes;		/* run --processes */
	int max_processes;	/* run --max-processes */
	const char *const *selectors;
	int nselectors;
	const struct pg_override *overrides;
	int noverrides;
	const int *cpus;
	int ncpus;
	/* The guide's sections of what runs, one per title: the report reads
	 * each table's order, intro and layout from here. */
	const struct pg_section *const *sections;
	int nsections;
	/* --label KEY=VALUE, each checked ("release=09.02"): what a fleet's
	 * runs are selected by (compare --release). */
	const char *const *labels;
	int nlabels;
};

#define PG_RESULTS_MAX_SINKS 2

struct pg_results {
	FILE *sink[PG_RESULTS_MAX_SINKS];	/* the file, and stdout with --json */
	int nsinks;
	int failed;		/* a write failed; reported once */
	const char *path;
};

void pg_results_run(struct pg_results *w, const struct pg_run_info *ri);
void pg_results_result(struct pg_results *w, const struct pg_result *r);
void pg_results_end(struct pg_results *w, int interrupted);

/* The parameters of a result as its record has them (canonical JSON: the
 * recorded ones, sorted); the caller frees. */
char *pg_params_json_text(const struct pg_args *a);

/* The machine object of the run record as indented JSON; the caller frees. */
char *pg_machine_json_text(const struct pg_machine *m);

#endif
