/* SPDX-License-Identifier: MIT */
/*
 * --lava: every result is also a LAVA test case, the way a LAVA test
 * definition reports one (lava/perfguide.yaml runs perfguide so). Inside a
 * LAVA job lava-test-case and lava-test-set are on PATH and are run, so that
 * LAVA also keeps their result files; elsewhere (a board's own shell under
 * some other runner) the same signal lines they print are printed here.
 *
 * A case is one record of the results file. Its name is short, readable and
 * the same in every run (LAVA's charts follow a case by its name), made by
 * rule (lava/README.md): the benchmark id, then each recorded parameter that
 * is not at its default as _NAME-VALUE, then _METRIC unless it is the
 * benchmark's first. Its measurement is the median in the metric's unit;
 * its result pass, or unknown when the figure is noisy or disturbed (LAVA
 * and a reader see that it is not a clean pass), skip for a skipped
 * benchmark, fail for a failed one. Each group (mem, os, ...) is a test set.
 *
 * At the end the results file itself goes into the job log, base64 between
 * marker lines: nothing in it can then read as a LAVA signal, and
 * `perfguide import --from-lava-log` takes it back out of the log.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base64.h"
#include "core/escape.h"
#include "core/stats.h"
#include "pg_build.h"
#include "run.h"

/* LAVA's test case names are at most 100 characters. */
#define CASE_MAX 100

struct lava_sink {
	char case_tool[PATH_MAX];	/* lava-test-case, "" when not on PATH */
	char set_tool[PATH_MAX];	/* lava-test-set */
	FILE *out;			/* where the signal lines go */
	char set[64];			/* the open test set, "" none */
	char results[512];		/* the results file, "" none */
	char (*names)[CASE_MAX + 1];	/* the case names used in this run */
	int nnames, cap;
};

/* The program's path on $PATH into buf, "" when it is not there. */
static void find_on_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	buf[0] = '\0';
	while (path && *path) {
		size_t n = strcspn(path, ":");
		if (n && (size_t)snprintf(buf, len, "%.*s/%s", (int)n, path, name) < len && access(buf, X_OK) == 0)
			return;
		path += n + (path[n] == ':');
	}
	buf[0] = '\0';
}

static int at_default(const struct pg_value *v)
{
	struct pg_value d;
	char err[128];
	if (!v->param->def || pg_value_parse(v->param, v->param->def, &d, err, sizeof(err)) < 0)
		return 0;
	if (v->param->type == PG_P_STR || pg_value_is_named(v) || pg_value_is_named(&d))
		return strcmp(v->text, d.text) == 0;
	return v->num == d.num;
}

/* os.pipe.lat; mem.bw.rd_size-64k; cpu.dhrystone_dmips;
 * storage.read_bs-64k_depth-1_iops. At most CASE_MAX characters: a longer
 * one is cut there (the sink makes cut names unique in the run). */
void run_lava_case_name(const struct pg_bench *b, const struct pg_args *a, int metric, char *buf, size_t len)
{
	char name[1024], val[280];
	size_t at = (size_t)snprintf(name, sizeof(name), "%s", b->id);
	for (int i = 0; a && i < a->n && at < sizeof(name); i++) {
		const struct pg_value *v = &a->v[i];
		if (v->param->not_recorded || at_default(v))
			continue;
		if (v->param->type == PG_P_STR || pg_value_is_named(v))
			snprintf(val, sizeof(val), "%s", v->text);
		else if (v->param->type == PG_P_SIZE)
			pg_format_size(v->num, val, sizeof(val));
		else
			snprintf(val, sizeof(val), "%lld", (long long)v->num);
		pg_lava_word(val, PG_LAVA_NAME_CHARS, '.');
		at += (size_t)snprintf(name + at, sizeof(name) - at, "_%s-%s", v->param->name, val);
	}
	if (metric > 0 && at < sizeof(name))
		snprintf(name + at, sizeof(name) - at, "_%s", b->metrics[metric].name);
	pg_lava_word(name, PG_LAVA_NAME_CHARS, '_');
	name[CASE_MAX] = '\0';
	snprintf(buf, len, "%s", name);
}

/* The name once in this run: a second record whose name was cut to the
 * same characters ends in .2 (then .3...), in the order the run makes them. */
static void unique_name(struct lava_sink *ls, char *name)
{
	char base[CASE_MAX + 1];
	snprintf(base, sizeof(base), "%s", name);
	for (int k = 2;; k++) {
		int seen = 0;
		for (int i = 0; i < ls->nnames && !seen; i++)
			seen = strcmp(ls->names[i], name) == 0;
		if (!seen)
			break;
		char sfx[16];
		int sl = snprintf(sfx, sizeof(sfx), ".%d", k);
		snprintf(name, CASE_MAX + 1, "%.*s%s", CASE_MAX - sl, base, sfx);
	}
	if (ls->nnames == ls->cap) {
		int cap = ls->cap ? 2 * ls->cap : 64;
		void *p = realloc(ls->names, (size_t)cap * sizeof(*ls->names));
		if (!p)
			return;	/* names stay right; only later repeats go unnoticed */
		ls->names = p;
		ls->cap = cap;
	}
	snprintf(ls->names[ls->nnames++], CASE_MAX + 1, "%s", name);
}

/* Runs a LAVA helper with its arguments; its output is the console's. */
static void run_tool(struct lava_sink *ls, const char *tool, char *const argv[])
{
	fflush(ls->out);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		execv(tool, argv);
		_exit(127);
	}
	int st;
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fprintf(stderr, "perfguide: --lava: %s %s did not report\n", tool, argv[1]);
}

static void set_signal(struct lava_sink *ls, const char *group)
{
	if (ls->set_tool[0]) {
		char *argv[] = { ls->set_tool, group ? "start" : "stop", (char *)group, NULL };
		run_tool(ls, ls->set_tool, argv);
	} else if (group) {
		fprintf(ls->out, "<LAVA_SIGNAL_TESTSET START %s>\n", group);
	} else {
		fprintf(ls->out, "<LAVA_SIGNAL_TESTSET STOP>\n");
	}
	fflush(ls->out);
}

/* A unit as one word of LAVA's alphabet: "MB/s" stays, "x y" is "x_y". */
static void unit_word(const char *unit, char *buf, size_t len)
{
	snprintf(buf, len, "%s", unit && unit[0] ? unit : "none");
	pg_lava_word(buf, PG_LAVA_NAME_CHARS "_/%", '_');
}

/* pass, or unknown for a figure not clean enough to pass: noisy (the
 * console's NOISY: its samples' CV above PG_NOISY_CV), disturbed (the
 * machine was busy with something else, or throttled, while it was
 * measured: the results file's disturbed_why) or bimodal (its processes
 * disagree beyond their noise: the results file's bimodal_why); skip;
 * fail. */
static const char *case_result(const struct pg_result *r, int m)
{
	if (r->status == PG_SKIP)
		return "skip";
	if (r->status != PG_OK)
		return "fail";
	return r->stats[m].cv > PG_NOISY_CV || r->disturbed || (r->nprocs > 1 && r->proc_bimodal[m]) ? "unknown"
											       : "pass";
}

static void report_case(struct lava_sink *ls, const struct pg_result *r, int m)
{
	const struct pg_metric *metric = &r->bench->metrics[m];
	char name[CASE_MAX + 1], value[40], unit[64];
	run_lava_case_name(r->bench, r->args, m, name, sizeof(name));
	unique_name(ls, name);
	const char *res = case_result(r, m);
	int measured = r->status == PG_OK;
	snprintf(value, sizeof(value), "%.10g", measured ? r->stats[m].median : 0.0);
	unit_word(metric->unit, unit, sizeof(unit));
	if (ls->case_tool[0]) {
		char *argv[] = { ls->case_tool, name, "--result", (char *)res, "--measurement", value, "--units", unit,
				 NULL };
		if (!measured)
			argv[4] = NULL;
		run_tool(ls, ls->case_tool, argv);
		return;
	}
	if (measured)
		fprintf(ls->out, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s MEASUREMENT=%s UNITS=%s>\n", name, res,
			value, unit);
	else
		fprintf(ls->out, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s>\n", name, res);
	fflush(ls->out);
}

static void lava_result(void *self, const struct pg_result *r)
{
	struct lava_sink *ls = self;
	char group[sizeof(ls->set)];
	snprintf(group, sizeof(group), "%.*s", (int)strcspn(r->bench->id, "."), r->bench->id);
	pg_lava_word(group, PG_LAVA_NAME_CHARS, '_');
	if (strcmp(group, ls->set) != 0) {
		if (ls->set[0])
			set_signal(ls, NULL);
		set_signal(ls, group);
		snprintf(ls->set, sizeof(ls->set), "%s", group);
	}
	/* The records the results file gets: a skipped or failed benchmark is
	 * one, under its primary metric. */
	int n = r->status == PG_OK ? r->nmetrics : 1;
	for (int m = 0; m < n; m++)
		report_case(ls, r, m);
}

/* The results file into the log: base64 between marker lines, the name
 * and size on the first so that a cut log is noticed. */
static void log_results_file(struct lava_sink *ls)
{
	FILE *f = ls->results[0] ? fopen(ls->results, "rb") : NULL;
	if (!f)
		return;
	const char *base = strrchr(ls->results, '/');
	char name[256];
	snprintf(name, sizeof(name), "%.200s", base ? base + 1 : ls->results);
	pg_lava_word(name, PG_LAVA_NAME_CHARS, '_');
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	rewind(f);
	fflush(stdout);
	fprintf(ls->out, "%s %s %ld base64\n", PG_LAVA_LOG_BEGIN, name, size);
	long n = pg_base64_encode_file(f, ls->out);
	fprintf(ls->out, "%s %s\n", PG_LAVA_LOG_END, n == size ? "complete" : "incomplete");
	fflush(ls->out);
	fclose(f);
}

static void lava_end(void *self, int interrupted)
{
	struct lava_sink *ls = self;
	(void)interrupted;
	if (ls->set[0])
		set_signal(ls, NULL);
	ls->set[0] = '\0';
}

static int lava_close(void *self)
{
	struct lava_sink *ls = self;
	/* the results file sink has closed the file by now */
	log_results_file(ls);
	free(ls->names);
	free(ls);
	return 0;
}

static const struct run_sink_ops lava_ops = {
	.result = lava_result, .end = lava_end, .close = lava_close,
};

int run_sink_lava(struct run_sinks *s, const struct run_config *c)
{
	if (!c->lava)
		return 0;
	struct lava_sink *ls = calloc(1, sizeof(*ls));
	if (!ls)
		return -1;
	find_on_path("lava-test-case", ls->case_tool, sizeof(ls->case_tool));
	find_on_path("lava-test-set", ls->set_tool, sizeof(ls->set_tool));
	if (!ls->case_tool[0])	/* both the tools or neither */
		ls->set_tool[0] = '\0';
	ls->out = c->json ? stderr : stdout;
#ifdef PG_HAVE_JANSSON
	snprintf(ls->results, sizeof(ls->results), "%s", s->path);	/* the results file sink writes it */
#endif
	if (run_sinks_add(s, &lava_ops, ls) < 0) {
		free(ls);
		return -1;
	}
	return 0;
}
