/* SPDX-License-Identifier: MIT */
/*
 * The ext group: benchmarks that run an external suite the user has
 * installed (CoreMark-PRO, MultiBench, glmark2) and turn its output into
 * perfguide results. perfguide never downloads, builds or ships these
 * suites: a suite that is not there is a skip that says how to get it.
 *
 * Every run of the suite's program is checked line by line: a line that is
 * missing or not what the suite prints is an error naming the line
 * expected, never a zero. Each program's output is kept, as it printed it,
 * beside the results file (pg_run_opts.raw_dir), and the result's note
 * names that file, the suite's version and the command line.
 */
#ifndef PG_EXT_H
#define PG_EXT_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/bench.h"

/* ---- running another program (spawn.c) ---- */

/* What a program printed on one of its outputs, NUL-terminated. */
struct ext_text {
	char *s;
	size_t len, cap;
	int truncated;		/* more than EXT_OUT_MAX bytes: the rest dropped */
};

struct ext_proc {
	/* stdout, what the suites report on and the parsers read, and stderr
	 * apart, so that a driver's warning cannot split a report line. */
	struct ext_text out, err;
	int status;		/* waitpid's status */
	int timed_out;		/* killed after the timeout */
	int interrupted;	/* killed because the run was interrupted */
	double seconds;		/* wall time */
};

#define EXT_OUT_MAX (4 << 20)

/*
 * Runs argv (argv[0] a path, no shell) with stdin from /dev/null and its
 * stdout and stderr captured apart, in directory dir (NULL: the current one), allowed
 * on cpus[0..ncpus) (none: any), in a process group of its own that is
 * killed after timeout_s seconds or when the run is interrupted, and that
 * dies with perfguide. Returns 0 when the program ran (whatever its exit
 * status), -1 with err set when it could not be started.
 */
int ext_run(char *const argv[], const char *dir, const int *cpus, int ncpus,
	    double timeout_s, struct ext_proc *p, char *err, size_t errlen);
void ext_proc_free(struct ext_proc *p);

/* 1 when the program exited 0, not killed and not cut short. */
int ext_proc_ok(const struct ext_proc *p);

/* How it ended, for a message: "exit status 1", "killed by signal 11",
 * "timed out after 600 s". */
void ext_proc_describe(const struct ext_proc *p, double timeout_s, char *buf, size_t len);

/* The last non-empty line a failing program printed: on stderr if it
 * printed anything there, else on stdout; at most len-1 characters. */
void ext_last_line(const struct ext_proc *p, char *buf, size_t len);

/* An executable: a name holding '/' as given, else the first on PATH.
 * Returns 0 with its path in out, or -1. */
int ext_which(const char *name, char *out, size_t len);

/* The command line as a shell would show it, arguments quoted as needed. */
void ext_format_argv(char *const argv[], char *buf, size_t len);

/* The next line of text at *pos into line (cut to len-1 characters, without
 * its newline, carriage return and trailing spaces), *pos moved past it.
 * Returns 0 at the end of the text. */
int ext_next_line(const char **pos, char *line, size_t len);

static inline int ext_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- the raw output kept beside the results file (spawn.c) ---- */

struct ext_raw {
	FILE *f;
	char name[128];		/* "<run>.raw/<bench>-<n>.txt", relative to the results dir */
};

/* Opens a new raw-output file for this result: <raw_dir>/<bench id>-<n>.txt
 * with the first n not yet taken. Without a raw_dir (no results file) or
 * when it cannot be written, f stays NULL and name says why. */
void ext_raw_open(struct pg_ctx *ctx, struct ext_raw *raw);
/* Adds one program run: "$ command", what it printed, how it ended. */
void ext_raw_add(struct ext_raw *raw, char *const argv[], const struct ext_proc *p,
		 double timeout_s);
void ext_raw_close(struct ext_raw *raw);

/* ---- EEMBC's MITH harness: CoreMark-PRO and MultiBench (mith.c) ---- */

/* What one run of a MITH workload printed. */
struct ext_mith_run {
	char workload[64];
	unsigned long uid;
	long contexts;
	long workers;		/* -1: no workers line (none asked for) */
	long iterations;
	double seconds;		/* time(secs) */
	double rate;		/* iterations / seconds, as the suite's results parser computes */
	long errors;		/* ERRORS and item fails lines, summed */
};

/*
 * Checks one run's output (the workload's stdout and stderr) and fills r.
 * The workload must be the one asked for and its report complete, from
 * "-- Workload:NAME=UID" to "-- Done:NAME=UID", with contexts, iterations,
 * time(secs) and workloads/sec; the rate must agree with the suite's own
 * workloads/sec. Returns 0, or -1 with err naming the line expected or the
 * line that is wrong.
 */
int ext_mith_parse(const char *text, const char *workload, struct ext_mith_run *r,
		   char *err, size_t errlen);

/* A mark: factor x the geometric mean of each workload's rate x its scale
 * (EEMBC's cert_mark.pl). NAN when a rate is missing or not positive. */
struct ext_mark_term {
	const char *workload;
	double scale;
};
double ext_mark(const struct ext_mark_term *terms, int n, double factor, const double *rates);

/* A MITH suite: its workloads, how the multi-core run is asked for, its mark. */
struct ext_mith_workload {
	const char *name;
	/* The multi-core run gives -wN (one context, N workers: MultiBench's
	 * "workers" workloads) instead of -cN (N contexts). */
	int by_workers;
	/* The items one iteration runs (CoreMark-PRO's cjpeg-rose7-preset: 7
	 * images; its other workloads: 1). MITH hands items to contexts, and
	 * each workload's main raises -i until iterations x items is at least
	 * the contexts, so that every context gets one: -i1 -c2 runs (and
	 * logs) 2 iterations of core but 1 of cjpeg-rose7-preset. 0: not
	 * known (MultiBench, whose sources were not seen). */
	int items;
};

/* The iterations MITH runs when given -iASKED and -cCONTEXTS: ASKED, raised
 * to the fewest whose items cover the contexts. With items 0 (not known),
 * the most it can be raised to: ASKED or CONTEXTS, the larger. */
long ext_mith_iterations(long asked, long contexts, int items);

struct ext_mith_suite {
	const char *name;		/* "CoreMark-PRO" */
	const char *how_to_get;		/* said when it is not found */
	/* path=auto: /usr/local/lib/<install> or /opt/<install>, where it is
	 * installed for everyone, taken only when no one but root can write
	 * there (never the current directory: what happens to lie there
	 * would run, as root too). */
	const char *install;		/* "coremark-pro" */
	const struct ext_mith_workload *workloads;
	int nworkloads;
	/* The metric whose figure the seed guide prints under the workload's
	 * name ("single" for CoreMark-PRO): the one that gets the label. */
	const char *label_metric;
	const char *mark_name;		/* workload= value of the mark row; NULL: none */
	const struct ext_mark_term *mark;
	int nmark;
	double mark_factor;
};

/* The parameters both MITH suites take after workload. */
#define EXT_MITH_PARAMS \
	{ .name = "path", .type = PG_P_STR, .def = "auto", \
	  .help = "the suite's build: a directory with the workloads' .exe files, or a built " \
		  "tree (builds/TARGET/TOOLCHAIN/bin); auto: /usr/local/lib/SUITE or /opt/SUITE " \
		  "(coremark-pro, multibench) when only root can write there, never the current " \
		  "directory" }, \
	{ .name = "contexts", .type = PG_P_INT, .def = "0", .min = 0, .max = 1024, \
	  .help = "contexts (MultiBench's workers workloads: workers) of the multi-core run; " \
		  "0: one per CPU (--cpu's, else online)" }, \
	{ .name = "iterations", .type = PG_P_INT, .def = "0", .min = 0, .max = 1000000000, \
	  .help = "iterations of every timed run (-iN; below the contexts, MITH runs enough for " \
		  "every context to get work, and the note says what it ran); 0: the workload's " \
		  "own, raised so that a run lasts at least 1 s (the run rules) or --min-time" }, \
	{ .name = "timeout", .type = PG_P_INT, .def = "600", .min = 1, .max = 86400, \
	  .help = "seconds one run of a workload may take before it is killed" }

/* pg_bench.data of a MITH benchmark. */
struct ext_mith_variant {
	const struct ext_mith_suite *suite;
	int mark;		/* the suite's mark, from all the workloads it needs */
};

/* The MITH benchmarks' shared code (both suites run the same way). */
int ext_mith_setup(struct pg_ctx *ctx);
int ext_mith_step(struct pg_ctx *ctx, uint64_t iters, double *counts);
void ext_mith_teardown(struct pg_ctx *ctx);
void ext_mith_label(const struct pg_bench *b, const struct pg_args *args,
		    const char *metric, char *buf, size_t len);
extern const struct pg_metric ext_mith_metrics[];

/* ---- glmark2 (glmark2.c) ---- */

#define EXT_GLMARK2_MAX_SCENES 64

struct ext_glmark2_scene {
	char spec[128];		/* "[build] use-vbo=true" as printed */
	int fps;		/* 0 when unsupported or failed */
	double frame_ms;
	int status;		/* 0 ran, 1 unsupported, 2 set-up failed */
};

struct ext_glmark2_run {
	char version[32];
	char renderer[128];
	char gl_version[96];
	int nscenes;		/* scenes reported, whatever their status */
	int nran;		/* of those, how many ran (they make the score) */
	struct ext_glmark2_scene scene[EXT_GLMARK2_MAX_SCENES];
	unsigned score;
};

/*
 * Checks glmark2's output and fills r: the banner with its version, the
 * GL_RENDERER and GL_VERSION lines, one result line per scene, and the
 * score, which must be what glmark2 computes from the scenes that ran (the
 * mean of their whole frames per second). Returns 0, or -1 with err naming
 * the line expected or the line that is wrong.
 */
int ext_glmark2_parse(const char *text, struct ext_glmark2_run *r, char *err, size_t errlen);

/* CoreMark-PRO's workloads and score (coremark_pro.c). */
extern const struct ext_mith_suite ext_coremark_pro;

/* The group's benchmarks. */
extern const struct pg_bench pg_ext_coremark_pro;
extern const struct pg_bench pg_ext_coremark_pro_mark;
extern const struct pg_bench pg_ext_multibench;
extern const struct pg_bench pg_ext_glmark2;

#endif
