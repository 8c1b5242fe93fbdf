/*
 * --lava: every result is also a LAVA test case, the way a LAVA test
 * definition reports one (lava/perfguide.yaml runs perfguide so). Inside a
 * LAVA job lava-test-case and lava-test-set are on PATH and are run, so that
 * LAVA also keeps their result files; elsewhere (a board's own shell under
 * some other runner) the same signal lines they print are printed here.
 *
 * A case is one record of the results file: its name is the benchmark id,
 * its recorded parameters and the metric, kept to [A-Za-z0-9._-] and to
 * LAVA's 100 characters, so it is the same in every run and LAVA's charts
 * follow it; its measurement is the median, in the metric's unit. A skipped
 * benchmark is a "skip" case, a failed one "fail". Each group (mem, os, ...)
 * is a test set.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"

/* LAVA's test case names are at most 100 characters. */
#define CASE_MAX 100

struct lava_sink {
	char case_tool[PATH_MAX];	/* lava-test-case, "" when not on PATH */
	char set_tool[PATH_MAX];	/* lava-test-set */
	FILE *out;			/* where the signal lines go */
	char set[64];			/* the open test set, "" none */
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

static void keep_to_alphabet(char *s)
{
	for (; *s; s++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-", *s))
			*s = '_';
}

/* mem.bw.fcp_size-8m_threads-1_bandwidth; a longer one keeps its first
 * characters and ends with a hash of the whole name, so it stays unique. */
void run_lava_case_name(const struct pg_bench *b, const struct pg_args *a, const char *metric, char *buf,
			size_t len)
{
	char name[1024], val[280];
	size_t at = (size_t)snprintf(name, sizeof(name), "%s", b->id);
	for (int i = 0; a && i < a->n && at < sizeof(name); i++) {
		const struct pg_value *v = &a->v[i];
		if (v->param->not_recorded)
			continue;
		if (v->param->type == PG_P_STR || pg_value_is_named(v))
			snprintf(val, sizeof(val), "%s", v->text);
		else if (v->param->type == PG_P_SIZE)
			pg_format_size(v->num, val, sizeof(val));
		else
			snprintf(val, sizeof(val), "%lld", (long long)v->num);
		at += (size_t)snprintf(name + at, sizeof(name) - at, "_%s-%s", v->param->name, val);
	}
	if (at < sizeof(name))
		snprintf(name + at, sizeof(name) - at, "_%s", metric);
	keep_to_alphabet(name);
	if (strlen(name) > CASE_MAX) {
		uint32_t h = 2166136261u;	/* FNV-1a */
		for (const char *p = name; *p; p++)
			h = (h ^ (unsigned char)*p) * 16777619u;
		snprintf(name + CASE_MAX - 9, 10, "-%08x", h);
	}
	snprintf(buf, len, "%s", name);
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
	for (char *p = buf; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/%", *p))
			*p = '_';
}

static void report_case(struct lava_sink *ls, const struct pg_result *r, int m)
{
	static const char *const result[] = { [PG_OK] = "pass", [PG_SKIP] = "skip", [PG_ERROR] = "fail" };
	const struct pg_metric *metric = &r->bench->metrics[m];
	char name[CASE_MAX + 1], value[40], unit[64];
	run_lava_case_name(r->bench, r->args, metric->name, name, sizeof(name));
	const char *res = (unsigned)r->status <= PG_ERROR ? result[r->status] : "fail";
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
	keep_to_alphabet(group);
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
	free(self);
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
	if (run_sinks_add(s, &lava_ops, ls) < 0) {
		free(ls);
		return -1;
	}
	return 0;
}
