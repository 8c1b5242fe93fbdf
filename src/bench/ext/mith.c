/* SPDX-License-Identifier: MIT */
/*
 * EEMBC's Multi-Instance Test Harness (MITH), which CoreMark-PRO and
 * MultiBench are both built on: each workload is one program,
 * <workload>.exe, that runs its iterations on -cN contexts (or -wN workers)
 * and reports, among other lines,
 *
 *   -- Workload:core=490760323
 *   -- core:contexts=2
 *   -- core:iterations=2
 *   -- core:time(secs)=   1.716
 *   -- core:workloads/sec=  1.1655
 *   -- Done:core=490760323
 *
 * The figure is iterations / time(secs), as the suite's own results parser
 * (util/perl/results_parser.pl) computes it; the suite's certification
 * (make certify-all) runs every workload once with -c1 -w1 ("single") and
 * once at the chosen concurrency ("best"), after one run with -v1 that
 * checks the workload's output. perfguide does the same:
 *
 *   setup   the -v1 run (no errors allowed), then one run of each kind at
 *           the workload's own iteration count; a kind whose run lasted
 *           under 1 s (the run rules' 1000 ticks of a 1 ms timer) gets
 *           its iteration count raised so that every timed run lasts at
 *           least 1 s, or --min-time when that is longer;
 *   step    one sample: the single run and the multi run; metrics single,
 *           multi (iter/s) and scaling (multi / single).
 *
 * A mark (CoreMark-PRO's score) runs all its workloads in each sample and
 * computes the mark from that sample's rates, as util/perl/cert_mark.pl
 * does from the medians: factor x geomean(rate x scale).
 */
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/runner.h"
#include "ext.h"
#include "core/err.h"

/* Run rule 1: a workload runs for at least 1000 ticks of its timer, whose
 * Linux port ticks every millisecond. */
#define MITH_MIN_RUN_S 1.0
#define MITH_MAX_ITERATIONS 1000000000L

/* ---- parsing one run's output ---- */

/* A whole number, spaces around it allowed (MITH pads with %8g). */
static int parse_long(const char *s, long *out)
{
	char *end;
	while (*s == ' ')
		s++;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s)
		return -1;
	while (*end == ' ')
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static int parse_double(const char *s, double *out)
{
	char *end;
	while (*s == ' ')
		s++;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s)
		return -1;
	while (*end == ' ')
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

/* Keys of the workload's own lines, in the order MITH prints them. */
enum { K_CONTEXTS, K_WORKERS, K_ITERATIONS, K_SECS, K_WPS, K_N };
static const char *const key_name[K_N] = {
	"contexts", "workers", "iterations", "time(secs)", "workloads/sec",
};
static const char *const key_form[K_N] = { "N", "N", "N", "SECONDS", "RATE" };

/* One run's output being read: the three kinds of line MITH prints (the
 * workload's brackets, error counts, the workload's figures) each have
 * their function; every one returns 0, or -1 with err set. */
struct mith_parse {
	const char *workload;
	size_t wl;
	struct ext_mith_run *r;
	int started, done, seen[K_N];
	double wps;		/* workloads/sec as printed */
	char *err;
	size_t errlen;
};

/* "-- Workload:NAME=UID" opens the workload's report, "-- Done:NAME=UID"
 * closes it; s is the line after "-- ". */
static int bracket_line(struct mith_parse *ps, const char *line, const char *s)
{
	int is_done = ext_starts(s, "Done:");
	const char *what = is_done ? "Done" : "Workload";
	const char *name = s + (is_done ? 5 : 9);
	const char *eq = strchr(name, '=');
	long uid;
	if (!eq || parse_long(eq + 1, &uid) < 0 || uid < 0) {
		snprintf(ps->err, ps->errlen, "'%.120s' is not '-- %s:NAME=UID'", line, what);
		return -1;
	}
	if ((size_t)(eq - name) != ps->wl || strncmp(name, ps->workload, ps->wl) != 0) {
		snprintf(ps->err, ps->errlen, "'%.120s' is of another workload: expected "
			 "'-- %s:%s=UID'", line, what, ps->workload);
		return -1;
	}
	if (!is_done && ps->started) {
		snprintf(ps->err, ps->errlen, "a second '-- Workload:%s=UID' line", ps->workload);
		return -1;
	}
	if (!is_done) {
		ps->started = 1;
		ps->r->uid = (unsigned long)uid;
		return 0;
	}
	if (!ps->started) {
		snprintf(ps->err, ps->errlen, "'-- Done:%s' came before '-- Workload:%s=UID'",
			 ps->workload, ps->workload);
		return -1;
	}
	if ((unsigned long)uid != ps->r->uid) {
		snprintf(ps->err, ps->errlen, "'%.120s' does not end workload %lu", line, ps->r->uid);
		return -1;
	}
	ps->done = 1;
	return 0;
}

/* "ITEM:fails=N" (an item's verification, under the item's own name) or
 * "WORKLOAD:ERRORS=N": added to r->errors. */
static int error_count(struct mith_parse *ps, const char *line, const char *val, const char *form)
{
	long f;
	if (parse_long(val, &f) < 0 || f < 0) {
		snprintf(ps->err, ps->errlen, "'%.120s' is not '-- %s=N'", line, form);
		return -1;
	}
	ps->r->errors += f;
	return 0;
}

/* The workload's figure k. The first one is the workload's: with -v1 an
 * item of the same name (core) prints its own time(secs) later. */
static int figure(struct mith_parse *ps, const char *line, int k, const char *val)
{
	struct ext_mith_run *r = ps->r;
	if (ps->seen[k])
		return 0;
	ps->seen[k] = 1;
	long v = 0;
	int bad = 0;
	if (k == K_SECS)
		bad = parse_double(val, &r->seconds) < 0 || r->seconds < 0;
	else if (k == K_WPS)	/* "inf" when the run was shorter than the clock */
		bad = parse_double(val, &ps->wps) < 0 || ps->wps < 0;
	else
		bad = parse_long(val, &v) < 0 || v < (k == K_ITERATIONS ? 1 : 0);
	if (k == K_CONTEXTS)
		r->contexts = v;
	else if (k == K_WORKERS)
		r->workers = v;
	else if (k == K_ITERATIONS)
		r->iterations = v;
	if (bad) {
		snprintf(ps->err, ps->errlen, "'%.120s' is not '-- %s:%s=%s'", line, ps->workload,
			 key_name[k], key_form[k]);
		return -1;
	}
	return 0;
}

/* "NAME:KEY=VALUE" inside the workload's report; s is the line after "-- ". */
static int item_line(struct mith_parse *ps, const char *line, const char *s)
{
	const char *colon = strchr(s, ':');
	const char *eq = colon ? strchr(colon, '=') : NULL;
	if (!eq)
		return 0;
	const char *key = colon + 1, *val = eq + 1;
	size_t kl = (size_t)(eq - key);
	if (kl == 5 && strncmp(key, "fails", 5) == 0)
		return error_count(ps, line, val, "ITEM:fails");
	if ((size_t)(colon - s) != ps->wl || strncmp(s, ps->workload, ps->wl) != 0)
		return 0;
	if (kl == 6 && strncmp(key, "ERRORS", 6) == 0) {
		char form[96];
		snprintf(form, sizeof(form), "%s:ERRORS", ps->workload);
		return error_count(ps, line, val, form);
	}
	for (int k = 0; k < K_N; k++)
		if (kl == strlen(key_name[k]) && strncmp(key, key_name[k], kl) == 0)
			return figure(ps, line, k, val);
	return 0;
}

static int parse_line(struct mith_parse *ps, const char *line)
{
	if (ext_starts(line, "-  ERROR:") || ext_starts(line, "-  FATAL:")) {
		snprintf(ps->err, ps->errlen, "the workload said '%.160s'", line);
		return -1;
	}
	if (!ext_starts(line, "-- "))
		return 0;
	const char *s = line + 3;
	if (ext_starts(s, "Workload:") || ext_starts(s, "Done:"))
		return bracket_line(ps, line, s);
	return ps->started ? item_line(ps, line, s) : 0;
}

/* After the last line: the report whole, without errors, and its rate. */
static int parse_end(struct mith_parse *ps)
{
	struct ext_mith_run *r = ps->r;
	const char *w = ps->workload;
	if (!ps->started) {
		snprintf(ps->err, ps->errlen, "no '-- Workload:%s=UID' line: not the output of MITH "
			 "workload %s", w, w);
		return -1;
	}
	for (int k = 0; k < K_N; k++) {
		if (k == K_WORKERS || ps->seen[k])
			continue;
		snprintf(ps->err, ps->errlen, "no '-- %s:%s=%s' line (output cut short or changed)",
			 w, key_name[k], key_form[k]);
		return -1;
	}
	if (!ps->done) {
		snprintf(ps->err, ps->errlen, "no '-- Done:%s=%lu' line: the output is cut short", w,
			 r->uid);
		return -1;
	}
	if (r->errors > 0) {
		snprintf(ps->err, ps->errlen, "the workload reported %ld error%s (its ERRORS or fails "
			 "lines)", r->errors, r->errors == 1 ? "" : "s");
		return -1;
	}
	return 0;
}

/* The rate, iterations / time(secs), which workloads/sec must agree with. */
static int parse_rate(struct mith_parse *ps)
{
	struct ext_mith_run *r = ps->r;
	if (!(r->seconds > 0) || isinf(ps->wps)) {
		snprintf(ps->err, ps->errlen, "'-- %s:time(secs)=0': the run was shorter than the "
			 "suite's clock; give more iterations", ps->workload);
		return -1;
	}
	r->rate = (double)r->iterations / r->seconds;
	/* workloads/sec is printed to 6 significant digits. */
	if (fabs(r->rate - ps->wps) > 1e-3 * r->rate) {
		snprintf(ps->err, ps->errlen, "'-- %s:workloads/sec=%g' is not iterations / "
			 "time(secs) = %g", ps->workload, ps->wps, r->rate);
		return -1;
	}
	return 0;
}

int ext_mith_parse(const char *text, const char *workload, struct ext_mith_run *r,
		   char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->workers = -1;
	if (strlen(workload) >= sizeof(r->workload))
		return pg_err(err, errlen, "workload name too long");
	snprintf(r->workload, sizeof(r->workload), "%s", workload);
	struct mith_parse ps = { .workload = workload, .wl = strlen(workload), .r = r, .err = err,
				 .errlen = errlen };
	char line[512];
	for (const char *p = text; !ps.done && ext_next_line(&p, line, sizeof(line));)
		if (parse_line(&ps, line) < 0)
			return -1;
	return parse_end(&ps) < 0 || parse_rate(&ps) < 0 ? -1 : 0;
}

long ext_mith_iterations(long asked, long contexts, int items)
{
	/* The workloads' mains: while (contexts > iterations * items) iterations++. */
	long need = items > 0 ? (contexts + items - 1) / items : contexts;
	return asked > need ? asked : need;
}

double ext_mark(const struct ext_mark_term *terms, int n, double factor, const double *rates)
{
	if (n <= 0)
		return NAN;
	double logsum = 0;
	for (int i = 0; i < n; i++) {
		if (!(rates[i] > 0) || !isfinite(rates[i]))
			return NAN;
		logsum += log(rates[i] * terms[i].scale);
	}
	return factor * exp(logsum / n);
}

/* ---- the benchmark ---- */

enum { SINGLE, MULTI, NKINDS };

struct mith_workload_state {
	const struct ext_mith_workload *w;
	char exe[4200];
	long iterations[NKINDS];	/* -iN given; 0: the workload's own count */
	long own_iterations[NKINDS];	/* what it ran without -i */
	long ran[NKINDS];		/* what the last timed run logged */
	unsigned long uid;
};

struct mith_state {
	const struct ext_mith_suite *suite;
	char dir[PATH_MAX];
	int contexts;			/* the multi run's -c (or -w) */
	double timeout_s;
	double min_run_s;
	long fixed_iterations;		/* iterations=K; 0: the runs' own, raised */
	struct ext_raw raw;
	int n;
	struct mith_workload_state *ws;
	double *rates[NKINDS];		/* this sample's, per workload */
	char cmd[2][160];		/* the two command lines, for the note */
};

const struct pg_metric ext_mith_metrics[] = {
	{ "single", "iter/s", PG_VALUE, 1, 1, 0 },
	{ "multi", "iter/s", PG_VALUE, 1, 1, 0 },
	{ "scaling", "x", PG_VALUE, 1, 1, 0 },
	{ 0 },
};

static const struct ext_mith_variant *variant(const struct pg_bench *b)
{
	return b->data;
}

static int has_exe(const char *dir, const char *name)
{
	char p[4400];
	snprintf(p, sizeof(p), "%s/%s.exe", dir, name);
	return access(p, X_OK) == 0;
}

/* 1 when only root can change what is at path: it and every directory
 * above it owned by root, and writable by no group or other user. */
static int root_only(const char *path)
{
	char p[PATH_MAX];
	if (!realpath(path, p))
		return 0;
	for (;;) {
		struct stat st;
		if (lstat(p, &st) < 0 || st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))
			return 0;
		char *slash = strrchr(p, '/');
		if (!slash || slash == p)
			break;
		*slash = '\0';
	}
	struct stat st;
	return lstat("/", &st) == 0 && st.st_uid == 0 && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* path=auto: the suite where it is installed for everyone, or NULL. */
static const char *installed(const struct ext_mith_suite *su, char *buf, size_t len)
{
	static const char *const places[] = { "/usr/local/lib/%s", "/opt/%s" };
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		struct stat st;
		snprintf(buf, len, places[i], su->install);
		if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode) && root_only(buf))
			return buf;
	}
	return NULL;
}

/* The directory holding <workload>.exe: path itself, path/bin, or the one
 * build of a built tree, path/builds/<target>/<toolchain>/bin. */
static int find_dir(struct pg_ctx *ctx, struct mith_state *s, const char *path, const char *probe)
{
	const struct ext_mith_suite *su = s->suite;
	char here[PATH_MAX];
	int automatic = strcmp(path, "auto") == 0;
	if (automatic && !(path = installed(su, here, sizeof(here))))
		return pg_skip(ctx, "%s not found in /usr/local/lib/%s or /opt/%s, where path=auto looks (only when "
			       "no one but root can write there; never the current directory) (%s)", su->name,
			       su->install, su->install, su->how_to_get);
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return pg_skip(ctx, "%s not found: no directory %s (%s)", su->name, path,
			       su->how_to_get);
	char cand[4200];
	snprintf(cand, sizeof(cand), "%s", path);
	if (has_exe(cand, probe))
		goto found;
	snprintf(cand, sizeof(cand), "%s/bin", path);
	if (has_exe(cand, probe))
		goto found;
	char pattern[4200];
	snprintf(pattern, sizeof(pattern), "%s/builds/*/*/bin/%s.exe", path, probe);
	glob_t g;
	int gr = glob(pattern, 0, NULL, &g);
	if (gr == 0 && g.gl_pathc > 1) {
		pg_skip(ctx, "%s: %zu builds under %s/builds: give path=%s/builds/TARGET/TOOLCHAIN/bin",
			su->name, g.gl_pathc, path, path);
		globfree(&g);
		return PG_SKIP;
	}
	if (gr == 0 && g.gl_pathc == 1) {
		snprintf(cand, sizeof(cand), "%s", g.gl_pathv[0]);
		*strrchr(cand, '/') = '\0';
		globfree(&g);
		goto found;
	}
	if (gr == 0)
		globfree(&g);
	return pg_skip(ctx, "%s not found: no %s.exe in %s, %s/bin or a build under %s/builds (%s)",
		       su->name, probe, path, path, path, su->how_to_get);
found:
	/* Absolute: the programs run in their own directory, as the suite's
	 * makefiles run them. */
	if (!realpath(cand, s->dir))
		return pg_error(ctx, "%s: %s", cand, strerror(errno));
	for (int i = -1; automatic && i < su->nworkloads; i++) {
		char exe[PATH_MAX + 80];
		snprintf(exe, sizeof(exe), "%s%s%s%s", s->dir, i < 0 ? "" : "/", i < 0 ? "" : su->workloads[i].name,
			 i < 0 ? "" : ".exe");
		if ((i < 0 || access(exe, F_OK) == 0) && !root_only(exe))
			return pg_skip(ctx, "%s: %s can be changed by others than root: path=auto does not run it; "
				       "give -p path=%s to", su->name, exe, s->dir);
	}
	return PG_OK;
}

/* argv for one run: exe -vV -cC [-wW] [-iI]. */
struct argv_buf {
	char *argv[8];
	char arg[5][32];
};

static void make_argv(struct argv_buf *a, struct mith_workload_state *w, int verify, int kind,
		      int contexts)
{
	int n = 0, k = 0;
	a->argv[n++] = w->exe;
	snprintf(a->arg[k], sizeof(a->arg[k]), "-v%d", verify);
	a->argv[n++] = a->arg[k++];
	if (kind == MULTI && w->w->by_workers) {
		snprintf(a->arg[k], sizeof(a->arg[k]), "-c1");
		a->argv[n++] = a->arg[k++];
		snprintf(a->arg[k], sizeof(a->arg[k]), "-w%d", contexts);
		a->argv[n++] = a->arg[k++];
	} else if (kind == MULTI) {
		snprintf(a->arg[k], sizeof(a->arg[k]), "-c%d", contexts);
		a->argv[n++] = a->arg[k++];
	} else {
		/* What the suite's certification gives its single runs. */
		snprintf(a->arg[k], sizeof(a->arg[k]), "-c1");
		a->argv[n++] = a->arg[k++];
		snprintf(a->arg[k], sizeof(a->arg[k]), "-w1");
		a->argv[n++] = a->arg[k++];
	}
	if (!verify && w->iterations[kind] > 0) {
		snprintf(a->arg[k], sizeof(a->arg[k]), "-i%ld", w->iterations[kind]);
		a->argv[n++] = a->arg[k++];
	}
	a->argv[n] = NULL;
}

/* The iterations a run must log: the count it was given, which MITH raises
 * below the contexts (ext_mith_iterations), or the count the same run logged
 * without -i. lo..hi: a range where the workload's items are not known. */
static void want_iterations(const struct mith_workload_state *w, int kind, long contexts,
			    long *lo, long *hi)
{
	if (w->iterations[kind] > 0) {
		*hi = ext_mith_iterations(w->iterations[kind], contexts, w->w->items);
		*lo = w->w->items > 0 ? *hi : w->iterations[kind];
	} else {
		*lo = *hi = w->own_iterations[kind];
	}
}

/* What a run logged against what it was asked: its contexts, workers,
 * iterations and the workload's uid. */
static int check_run(struct pg_ctx *ctx, struct mith_state *s, struct mith_workload_state *w,
		     int verify, int kind, const struct ext_mith_run *out, const char *what)
{
	const char *su = s->suite->name, *name = w->w->name;
	long want_c = kind == MULTI && !w->w->by_workers ? s->contexts : 1;
	/* -w is given to the single run and to the workers' multi run;
	 * without it MITH prints no workers line. */
	long want_w = kind == SINGLE ? 1 : w->w->by_workers ? s->contexts : -1;
	long lo = 0, hi = 0;
	if (!verify)
		want_iterations(w, kind, want_c, &lo, &hi);
	char want_i[64];
	if (lo == hi)
		snprintf(want_i, sizeof(want_i), "%ld", lo);
	else
		snprintf(want_i, sizeof(want_i), "N' with N from %ld to %ld", lo, hi);
	int st = PG_OK;
	if (out->contexts != want_c)
		st = pg_error(ctx, "%s %s: ran on %ld contexts, not the %ld asked for ('-- %s:contexts=%ld' "
			      "expected); raw output: %s", su, what, out->contexts, want_c, name, want_c,
			      s->raw.name);
	else if (out->workers != want_w)
		st = pg_error(ctx, "%s %s: %s '-- %s:workers=%ld' line; raw output: %s", su, what,
			      want_w < 0 ? "an unasked-for" : "no", name, want_w < 0 ? out->workers : want_w,
			      s->raw.name);
	else if (hi && (out->iterations < lo || out->iterations > hi))
		st = pg_error(ctx, "%s %s: '-- %s:iterations=%s' expected%s, got %ld; raw output: %s", su,
			      what, name, want_i, hi > w->iterations[kind] && w->iterations[kind] ?
			      " (MITH raises -i until every context has work)" : "", out->iterations,
			      s->raw.name);
	else if (w->uid && out->uid != w->uid)
		st = pg_error(ctx, "%s %s: workload uid %lu, earlier %lu; raw output: %s", su, what, out->uid,
			      w->uid, s->raw.name);
	w->uid = out->uid;
	if (st == PG_OK && !verify)
		w->ran[kind] = out->iterations;
	return st;
}

/* One run of one workload, checked: what it printed must be a complete
 * report of the concurrency and iterations asked for. */
static int run_one(struct pg_ctx *ctx, struct mith_state *s, struct mith_workload_state *w,
		   int verify, int kind, struct ext_mith_run *out)
{
	struct argv_buf a;
	make_argv(&a, w, verify, kind, s->contexts);
	const int *cpus = ctx->run ? ctx->run->cpus : NULL;
	int ncpus = ctx->run ? ctx->run->ncpus : 0;
	struct ext_proc p;
	char err[200], how[128], what[96];
	snprintf(what, sizeof(what), "%s.exe%s%s", w->w->name, verify ? " -v1" : "",
		 kind == MULTI ? " (multi)" : "");
	if (ext_run(a.argv, s->dir, cpus, ncpus, s->timeout_s, &p, err, sizeof(err)) < 0)
		return pg_error(ctx, "%s: cannot run %s: %s", s->suite->name, what, err);
	ext_raw_add(&s->raw, a.argv, &p, s->timeout_s);
	int st = PG_OK;
	if (p.interrupted) {
		st = pg_error(ctx, "interrupted");
	} else if (!ext_proc_ok(&p)) {
		char last[96];
		ext_proc_describe(&p, s->timeout_s, how, sizeof(how));
		ext_last_line(&p, last, sizeof(last));
		st = pg_error(ctx, "%s %s: %s ('%s'); raw output: %s", s->suite->name, what, how,
			      last, s->raw.name);
	} else if (ext_mith_parse(p.out.s, w->w->name, out, err, sizeof(err)) < 0) {
		st = pg_error(ctx, "%s %s: %s; raw output: %s", s->suite->name, what, err,
			      s->raw.name);
	} else {
		st = check_run(ctx, s, w, verify, kind, out, what);
	}
	ext_proc_free(&p);
	return st;
}

/* The -v1 run, then one run of each kind at the workload's own iteration
 * count, which sets the count of the timed runs. */
static int prepare_workload(struct pg_ctx *ctx, struct mith_state *s, struct mith_workload_state *w,
			    long iterations)
{
	struct ext_mith_run r;
	int st = run_one(ctx, s, w, 1, SINGLE, &r);
	if (st != PG_OK)
		return st;
	for (int k = 0; k < NKINDS; k++) {
		if (iterations > 0) {
			w->iterations[k] = iterations;
			continue;
		}
		st = run_one(ctx, s, w, 0, k, &r);
		if (st != PG_OK)
			return st;
		w->own_iterations[k] = r.iterations;
		if (r.seconds >= s->min_run_s)
			continue;
		double want = ceil((double)r.iterations * s->min_run_s * 1.1 / r.seconds);
		w->iterations[k] = want > MITH_MAX_ITERATIONS ? MITH_MAX_ITERATIONS : (long)want;
	}
	return PG_OK;
}

/* What MITH ran where it raised -i (below the contexts, to give every
 * context an iteration): "; MITH ran 2 iterations on 2 contexts" (a mark:
 * in how many workloads), or "". */
static void raised_note(const struct mith_state *s, int mark, char *buf, size_t len)
{
	int nraised = 0;
	long most = 0;
	for (int i = 0; i < s->n; i++)
		if (s->ws[i].ran[MULTI] > s->ws[i].iterations[MULTI]) {
			nraised++;
			most = s->ws[i].ran[MULTI] > most ? s->ws[i].ran[MULTI] : most;
		}
	buf[0] = '\0';
	if (nraised && !mark)
		snprintf(buf, len, "; MITH ran %ld iterations on %d contexts", most, s->contexts);
	else if (nraised)
		snprintf(buf, len, "; MITH ran up to %ld iterations on %d contexts in %d of %d", most,
			 s->contexts, nraised, s->n);
}

/* The note: the raw file first (a long board name must not cut it off), the
 * suite (it prints no version: the workload's uid is what its results files
 * identify it by), the commands, and what MITH ran where it was not -i. */
static void mith_note(struct pg_ctx *ctx, struct mith_state *s, int mark)
{
	struct argv_buf a[NKINDS];
	for (int k = 0; k < NKINDS; k++) {
		make_argv(&a[k], &s->ws[0], 0, k, s->contexts);
		ext_format_argv(a[k].argv + 1, s->cmd[k], sizeof(s->cmd[k]));
	}
	char ran[128], rule[48];
	raised_note(s, mark, ran, sizeof(ran));
	if (s->fixed_iterations)
		snprintf(rule, sizeof(rule), "every run -i%ld", s->fixed_iterations);
	else
		snprintf(rule, sizeof(rule), "every run >= %.3g s", s->min_run_s);
	if (mark)
		pg_note(ctx, "raw output: %s; %s of %d workloads, each -v1 verified, then e.g. "
			"%s.exe %s / %s, %s%s, in %.60s", s->raw.name, s->suite->name, s->n,
			s->ws[0].w->name, s->cmd[SINGLE], s->cmd[MULTI], rule, ran, s->dir);
	else
		pg_note(ctx, "raw output: %s; %s workload uid %lu (the suite prints no version), -v1 "
			"verified: %s.exe %s / %s%s in %.60s", s->raw.name, s->suite->name, s->ws[0].uid,
			s->ws[0].w->name, s->cmd[SINGLE], s->cmd[MULTI], ran, s->dir);
}

int ext_mith_setup(struct pg_ctx *ctx)
{
	const struct ext_mith_variant *v = variant(ctx->bench);
	struct mith_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->suite = v->suite;
	s->timeout_s = (double)pg_arg_int(ctx->args, "timeout");
	s->min_run_s = MITH_MIN_RUN_S;
	if (ctx->run && ctx->run->min_time > s->min_run_s)
		s->min_run_s = ctx->run->min_time;
	long c = (long)pg_arg_int(ctx->args, "contexts");
	if (c == 0)
		c = ctx->run && ctx->run->ncpus > 0 ? ctx->run->ncpus : sysconf(_SC_NPROCESSORS_ONLN);
	s->contexts = c > 0 ? (int)c : 1;

	const char *wname = pg_arg_str(ctx->args, "workload");
	int st = find_dir(ctx, s, pg_arg_str(ctx->args, "path"),
			  v->mark ? s->suite->mark[0].workload : wname);
	if (st != PG_OK)
		return st;

	s->n = v->mark ? s->suite->nmark : 1;
	s->ws = calloc((size_t)s->n, sizeof(*s->ws));
	for (int k = 0; k < NKINDS; k++)
		s->rates[k] = calloc((size_t)s->n, sizeof(double));
	if (!s->ws || !s->rates[SINGLE] || !s->rates[MULTI])
		return pg_error(ctx, "out of memory");
	for (int i = 0; i < s->n; i++) {
		const char *name = v->mark ? s->suite->mark[i].workload : wname;
		for (int j = 0; j < s->suite->nworkloads; j++)
			if (strcmp(s->suite->workloads[j].name, name) == 0)
				s->ws[i].w = &s->suite->workloads[j];
		if (!s->ws[i].w)
			return pg_error(ctx, "%s has no workload %s", s->suite->name, name);
		snprintf(s->ws[i].exe, sizeof(s->ws[i].exe), "%s/%s.exe", s->dir, name);
		if (access(s->ws[i].exe, X_OK) != 0)
			return pg_skip(ctx, "%s: no %s.exe in %s: build all of the suite's workloads "
				       "(%s)", s->suite->name, name, s->dir, s->suite->how_to_get);
	}

	ext_raw_open(ctx, &s->raw);
	s->fixed_iterations = (long)pg_arg_int(ctx->args, "iterations");
	for (int i = 0; i < s->n; i++) {
		st = prepare_workload(ctx, s, &s->ws[i], s->fixed_iterations);
		if (st != PG_OK)
			return st;
	}

	mith_note(ctx, s, v->mark);
	return PG_OK;
}

int ext_mith_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	(void)iters;
	const struct ext_mith_variant *v = variant(ctx->bench);
	struct mith_state *s = ctx->priv;
	for (int i = 0; i < s->n; i++)
		for (int k = 0; k < NKINDS; k++) {
			struct ext_mith_run r;
			int st = run_one(ctx, s, &s->ws[i], 0, k, &r);
			if (st != PG_OK)
				return st;
			s->rates[k][i] = r.rate;
		}
	if (v->mark) {
		counts[0] = ext_mark(s->suite->mark, s->n, s->suite->mark_factor, s->rates[SINGLE]);
		counts[1] = ext_mark(s->suite->mark, s->n, s->suite->mark_factor, s->rates[MULTI]);
		if (!isfinite(counts[0]) || !isfinite(counts[1]))
			return pg_error(ctx, "%s: a workload gave no rate", s->suite->mark_name);
	} else {
		counts[0] = s->rates[SINGLE][0];
		counts[1] = s->rates[MULTI][0];
	}
	counts[2] = counts[1] / counts[0];
	mith_note(ctx, s, v->mark);
	return PG_OK;
}

void ext_mith_teardown(struct pg_ctx *ctx)
{
	struct mith_state *s = ctx->priv;
	if (!s)
		return;
	ext_raw_close(&s->raw);
	free(s->ws);
	free(s->rates[SINGLE]);
	free(s->rates[MULTI]);
	free(s);
}

void ext_mith_label(const struct pg_bench *b, const struct pg_args *args,
		    const char *metric, char *buf, size_t len)
{
	const struct ext_mith_variant *v = variant(b);
	buf[0] = '\0';
	if (strcmp(metric, v->suite->label_metric) != 0)
		return;
	const char *w = pg_arg_str(args, "workload");
	size_t i = 0;
	for (; w && w[i] && i + 1 < len; i++)
		buf[i] = (char)tolower((unsigned char)w[i]);
	buf[i] = '\0';
}
