/* SPDX-License-Identifier: MIT */
/*
 * The ext group's parsers on outputs recorded from the real suites
 * (tests/fixtures/ext/), whole, cut short at every byte, and changed; the
 * CoreMark-PRO score against the suite's own; and running a program:
 * stdout and stderr apart, exit status, timeout, the signal mask and CPUs
 * it starts with.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "bench/ext/ext.h"
#include "core/timer.h"

static const char *const cmp_workloads[] = {
	"cjpeg-rose7-preset", "core", "linear_alg-mid-100x100-sp", "loops-all-mid-10k-sp",
	"nnet_test", "parser-125k", "radix2-big-64k", "sha-test", "zip-test",
};
#define NCMP (sizeof(cmp_workloads) / sizeof(cmp_workloads[0]))

static char *slurp(const char *rel)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/ext/%s", PG_FIXTURE_DIR, rel);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open fixture %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = '\0';
	fclose(f);
	return s;
}

/* text with the first occurrence of from replaced by to; the caller frees. */
static char *replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	if (!at)
		fail_msg("'%s' is not in the fixture", from);
	size_t n = strlen(text) - strlen(from) + strlen(to);
	char *s = malloc(n + 1);
	assert_non_null(s);
	size_t head = (size_t)(at - text);
	memcpy(s, text, head);
	strcpy(s + head, to);
	strcat(s, at + strlen(from));
	return s;
}

static void expect_error(int rc, const char *err, const char *needle)
{
	assert_int_equal(rc, -1);
	if (!strstr(err, needle))
		fail_msg("error '%s' does not say '%s'", err, needle);
}

/* ---- MITH (CoreMark-PRO, MultiBench) ---- */

static void mith_recorded(void **state)
{
	(void)state;
	static const char *const kinds[] = { "c1", "c2", "v1" };
	for (size_t i = 0; i < NCMP; i++)
		for (size_t k = 0; k < 3; k++) {
			char rel[128], err[256];
			snprintf(rel, sizeof(rel), "coremark-pro/%s.%s.txt", cmp_workloads[i], kinds[k]);
			char *text = slurp(rel);
			struct ext_mith_run r;
			if (ext_mith_parse(text, cmp_workloads[i], &r, err, sizeof(err)) != 0)
				fail_msg("%s: %s", rel, err);
			assert_string_equal(r.workload, cmp_workloads[i]);
			assert_int_equal(r.contexts, k == 1 ? 2 : 1);
			assert_int_equal(r.workers, k == 1 ? -1 : 1);
			assert_true(r.iterations > 0);
			assert_true(r.seconds > 0);
			assert_true(fabs(r.rate - (double)r.iterations / r.seconds) < 1e-9 * r.rate);
			assert_int_equal(r.errors, 0);
			free(text);
		}
}

static void mith_values(void **state)
{
	(void)state;
	char err[256];
	struct ext_mith_run r;
	char *text = slurp("coremark-pro/zip-test.c1.txt");
	assert_int_equal(ext_mith_parse(text, "zip-test", &r, err, sizeof(err)), 0);
	assert_int_equal(r.uid, 946108807UL);
	assert_int_equal(r.iterations, 1);
	assert_true(fabs(r.seconds - 0.039) < 1e-12);
	assert_true(fabs(r.rate - 1 / 0.039) < 1e-9);
	free(text);

	text = slurp("coremark-pro/core.c2.txt");
	assert_int_equal(ext_mith_parse(text, "core", &r, err, sizeof(err)), 0);
	assert_int_equal(r.uid, 490760323UL);
	assert_int_equal(r.contexts, 2);
	assert_int_equal(r.iterations, 2);
	assert_true(fabs(r.rate - 2 / 3.042) < 1e-9);
	free(text);

	/* -v1: the item "core" prints its own, later time(secs). */
	text = slurp("coremark-pro/core.v1.txt");
	assert_int_equal(ext_mith_parse(text, "core", &r, err, sizeof(err)), 0);
	char *first = strstr(text, "-- core:time(secs)=");
	assert_non_null(first);
	assert_non_null(strstr(first + 1, "-- core:time(secs)="));
	assert_true(fabs(r.seconds - strtod(first + strlen("-- core:time(secs)="), NULL)) < 1e-12);
	free(text);
}

/* Every prefix that stops before the end of the Done line is an error that
 * names what is wrong; the one that reaches it parses. */
static void mith_cut_short(void **state)
{
	(void)state;
	static const char *const kinds[] = { "c1", "c2", "v1" };
	for (size_t i = 0; i < NCMP; i++)
		for (size_t k = 0; k < 3; k++) {
			char rel[128], err[256];
			snprintf(rel, sizeof(rel), "coremark-pro/%s.%s.txt", cmp_workloads[i], kinds[k]);
			char *text = slurp(rel);
			char *done = strstr(text, "-- Done:");
			assert_non_null(done);
			size_t end = (size_t)(strchr(done, '\n') - text);
			for (size_t cut = 0; cut <= end; cut++) {
				char save = text[cut];
				text[cut] = '\0';
				struct ext_mith_run r;
				int rc = ext_mith_parse(text, cmp_workloads[i], &r, err, sizeof(err));
				text[cut] = save;
				if (cut < end && rc == 0)
					fail_msg("%s cut at byte %zu parsed (rate %g)", rel, cut, r.rate);
				if (cut < end && !strstr(err, "'"))
					fail_msg("%s cut at %zu: '%s' names no line", rel, cut, err);
				if (cut == end && rc != 0)
					fail_msg("%s up to its Done line: %s", rel, err);
			}
			free(text);
		}
}

static void mith_changed(void **state)
{
	(void)state;
	char err[256], *t;
	struct ext_mith_run r;
	char *text = slurp("coremark-pro/core.c1.txt");

	expect_error(ext_mith_parse(text, "zip-test", &r, err, sizeof(err)), err,
		     "expected '-- Workload:zip-test=UID'");
	expect_error(ext_mith_parse("", "core", &r, err, sizeof(err)), err,
		     "no '-- Workload:core=UID' line");

	t = replaced(text, "-- core:iterations=1\n", "");
	expect_error(ext_mith_parse(t, "core", &r, err, sizeof(err)), err,
		     "no '-- core:iterations=N' line");
	free(t);
	t = replaced(text, "-- core:iterations=1", "-- core:iterations=one");
	expect_error(ext_mith_parse(t, "core", &r, err, sizeof(err)), err,
		     "is not '-- core:iterations=N'");
	free(t);
	t = replaced(text, "-- core:iterations=1", "-- core:iterations=0");
	expect_error(ext_mith_parse(t, "core", &r, err, sizeof(err)), err,
		     "is not '-- core:iterations=N'");
	free(t);
	t = replaced(text, "-- core:contexts=1\n", "");
	expect_error(ext_mith_parse(t, "core", &r, err, sizeof(err)), err,
		     "no '-- core:contexts=N' line");
	free(t);
	t = replaced(text, "-- core:workloads/sec=", "-- core:workloads/sec= 9");
	expect_error(ext_mith_parse(t, "core", &r, err, sizeof(err)), err,
		     "is not iterations / time(secs)");
	free(t);
	t = replaced(text, "-- Done:core=490760323", "-- Done:core=490760324");
	expect_error(ext_mith_parse(t, "core", &r, err, sizeof(err)), err,
		     "does not end workload 490760323");
	free(t);
	t = replaced(text, "-- core:contexts=1", "-- core:ERRORS=2\n-- core:contexts=1");
	expect_error(ext_mith_parse(t, "core", &r, err, sizeof(err)), err, "reported 2 errors");
	free(t);
	t = replaced(text, "-- Done:core", "-  ERROR: Workload contains an item that oversubscribes "
		     "available contexts!\n-- Done:core");
	expect_error(ext_mith_parse(t, "core", &r, err, sizeof(err)), err,
		     "the workload said '-  ERROR: Workload contains");
	free(t);
	t = replaced(text, "-- core:time(ns)", "-- Workload:core=490760323\n-- core:time(ns)");
	expect_error(ext_mith_parse(t, "core", &r, err, sizeof(err)), err,
		     "a second '-- Workload:core=UID' line");
	free(t);
	free(text);

	/* A run shorter than MITH's 1 ms clock: no rate, not infinity. */
	text = slurp("coremark-pro/zip-test.c1.txt");
	t = replaced(text, "-- zip-test:time(secs)=   0.039", "-- zip-test:time(secs)=       0");
	char *t2 = replaced(t, "-- zip-test:workloads/sec=  25.641", "-- zip-test:workloads/sec=     inf");
	expect_error(ext_mith_parse(t2, "zip-test", &r, err, sizeof(err)), err,
		     "shorter than the suite's clock");
	free(t2);
	free(t);
	free(text);

	/* A verification run whose item failed. */
	text = slurp("coremark-pro/zip-test.v1.txt");
	t = replaced(text, "-- zip:fails=0", "-- zip:fails=1");
	expect_error(ext_mith_parse(t, "zip-test", &r, err, sizeof(err)), err, "reported 1 error");
	free(t);
	free(text);
}

/* Fewer iterations than contexts (-i1 -c2), recorded: MITH raises -i until
 * every context gets an item, and the figure is what it logged, iterations
 * / time(secs), its own workloads/sec. */
static void mith_fewer_iterations_than_contexts(void **state)
{
	(void)state;
	static const struct {
		const char *workload;
		long iterations;
		double secs, wps;
	} want[] = {
		{ "core", 2, 1.16, 1.72414 },
		{ "cjpeg-rose7-preset", 1, 0.01, 100 },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char rel[128], err[256];
		snprintf(rel, sizeof(rel), "coremark-pro/%s.c2i1.txt", want[i].workload);
		char *text = slurp(rel);
		struct ext_mith_run r;
		if (ext_mith_parse(text, want[i].workload, &r, err, sizeof(err)) != 0)
			fail_msg("%s: %s", rel, err);
		assert_int_equal(r.contexts, 2);
		assert_int_equal(r.iterations, want[i].iterations);
		assert_true(fabs(r.seconds - want[i].secs) < 1e-12);
		assert_true(fabs(r.rate - (double)want[i].iterations / want[i].secs) < 1e-9 * r.rate);
		assert_true(fabs(r.rate - want[i].wps) < 1e-5 * r.rate);
		free(text);
	}

	/* What the workloads' mains run: core and the other one-item
	 * workloads one iteration a context at least, cjpeg-rose7-preset one
	 * per 7 contexts; a count at or above that is run as given. */
	const struct ext_mith_suite *su = &ext_coremark_pro;
	int items[2] = { 0, 0 };
	for (int i = 0; i < su->nworkloads; i++)
		items[strcmp(su->workloads[i].name, "cjpeg-rose7-preset") == 0] = su->workloads[i].items;
	assert_int_equal(items[0], 1);
	assert_int_equal(items[1], 7);
	assert_int_equal(ext_mith_iterations(1, 2, 1), 2);
	assert_int_equal(ext_mith_iterations(1, 4, 1), 4);
	assert_int_equal(ext_mith_iterations(3, 2, 1), 3);
	assert_int_equal(ext_mith_iterations(1, 1, 1), 1);
	assert_int_equal(ext_mith_iterations(1, 2, 7), 1);
	assert_int_equal(ext_mith_iterations(1, 7, 7), 1);
	assert_int_equal(ext_mith_iterations(1, 8, 7), 2);
	assert_int_equal(ext_mith_iterations(1, 15, 7), 3);
	/* Items not known (MultiBench): the most it can be raised to. */
	assert_int_equal(ext_mith_iterations(1, 4, 0), 4);
	assert_int_equal(ext_mith_iterations(5, 4, 0), 5);
}

/* The suite's score from the medians its certification logged, as
 * cert_mark.pl printed it beside them. */
static void coremark_pro_score(void **state)
{
	(void)state;
	char *log = slurp("coremark-pro/certify-all-c2.log");
	const struct ext_mith_suite *su = &ext_coremark_pro;
	double rate[2][16];
	int found[2] = { 0, 0 };
	for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n")) {
		char name[64], mode[16];
		double ips;
		if (line[0] == '#' ||
		    sscanf(line, "%*s %*s %63s %*s %*s %*s %*s %*s %lf %*s %*s median %15s", name, &ips,
			   mode) != 3)
			continue;
		int m = strcmp(mode, "best") == 0;
		for (int i = 0; i < su->nmark; i++)
			if (strcmp(su->mark[i].workload, name) == 0) {
				rate[m][i] = ips;
				found[m]++;
			}
	}
	free(log);
	assert_int_equal(found[0], 9);
	assert_int_equal(found[1], 9);
	double single = ext_mark(su->mark, su->nmark, su->mark_factor, rate[0]);
	double multi = ext_mark(su->mark, su->nmark, su->mark_factor, rate[1]);

	char *mark = slurp("coremark-pro/certify-all-c2.mark");
	char *line = strstr(mark, "\nCoreMark-PRO ");
	assert_non_null(line);
	double their_multi, their_single, their_scaling;
	assert_int_equal(sscanf(line, " CoreMark-PRO %lf %lf %lf", &their_multi, &their_single,
				&their_scaling), 3);
	free(mark);
	assert_true(fabs(single - their_single) < 0.006);
	assert_true(fabs(multi - their_multi) < 0.006);
	assert_true(fabs(multi / single - their_scaling) < 0.006);

	/* A workload without a rate makes no score. */
	rate[0][3] = 0;
	assert_true(isnan(ext_mark(su->mark, su->nmark, su->mark_factor, rate[0])));
}

/* MultiBench's names and its workers runs, in MITH's format: the
 * fixtures are reconstructed, not recorded (tests/fixtures/ext/README.md). */
static void multibench_reconstructed(void **state)
{
	(void)state;
	char err[256];
	struct ext_mith_run r;
	char *text = slurp("multibench/RECONSTRUCTED-iDCT-4M.w2.txt");
	assert_int_equal(ext_mith_parse(text, "iDCT-4M", &r, err, sizeof(err)), 0);
	assert_int_equal(r.contexts, 1);
	assert_int_equal(r.workers, 2);
	assert_true(fabs(r.rate - 100 / 2.863) < 1e-9);
	expect_error(ext_mith_parse(text, "iDCT-4Mw1", &r, err, sizeof(err)), err, "another workload");
	free(text);
	text = slurp("multibench/RECONSTRUCTED-4M-check.c2.txt");
	assert_int_equal(ext_mith_parse(text, "4M-check", &r, err, sizeof(err)), 0);
	assert_int_equal(r.contexts, 2);
	assert_int_equal(r.workers, -1);
	assert_true(fabs(r.rate - 1000 / 1.116) < 1e-9);
	free(text);
}

/* ---- glmark2 ---- */

static void glmark2_recorded(void **state)
{
	(void)state;
	char err[256];
	struct ext_glmark2_run *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	char *text = slurp("glmark2/es2-x11-offscreen.txt");
	if (ext_glmark2_parse(text, r, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_string_equal(r->version, "2023.01");
	assert_string_equal(r->renderer, "llvmpipe (LLVM 15.0.6, 256 bits)");
	assert_string_equal(r->gl_version, "OpenGL ES 3.2 Mesa 22.3.6");
	assert_int_equal(r->nscenes, 2);
	assert_int_equal(r->nran, 2);
	assert_string_equal(r->scene[0].spec, "[build] use-vbo=true");
	assert_int_equal(r->scene[0].fps, 54);
	assert_true(fabs(r->scene[0].frame_ms - 18.778) < 1e-9);
	assert_string_equal(r->scene[1].spec, "[texture] <default>");
	assert_int_equal(r->scene[1].fps, 891);
	assert_int_equal(r->score, 471);
	free(text);

	text = slurp("glmark2/gl-x11.txt");
	if (ext_glmark2_parse(text, r, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_string_equal(r->gl_version, "4.5 (Compatibility Profile) Mesa 22.3.6");
	assert_int_equal(r->nscenes, 3);
	assert_string_equal(r->scene[1].spec, "[shading] shading=phong");
	assert_int_equal(r->scene[0].fps + r->scene[1].fps + r->scene[2].fps, 53 + 133 + 62);
	assert_int_equal(r->score, 81);
	free(text);

	/* glmark2's own list, the run behind published scores. */
	text = slurp("glmark2/es2-x11-default.txt");
	if (ext_glmark2_parse(text, r, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(r->nscenes, 33);
	assert_int_equal(r->nran, 33);
	assert_string_equal(r->scene[12].spec, "[effect2d] kernel=0,1,0;1,-4,1;0,1,0;");
	assert_int_equal(r->scene[12].fps, 62);
	assert_string_equal(r->scene[22].spec, "[terrain] <default>");
	assert_int_equal(r->scene[22].fps, 1);
	assert_true(fabs(r->scene[22].frame_ms - 15239.024) < 1e-9);
	assert_int_equal(r->score, 145);
	free(text);
	free(r);
}

static void glmark2_cut_short(void **state)
{
	(void)state;
	static const char *const files[] = { "glmark2/es2-x11-offscreen.txt", "glmark2/gl-x11.txt" };
	struct ext_glmark2_run *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	for (size_t f = 0; f < 2; f++) {
		char *text = slurp(files[f]);
		char *score = strstr(text, "glmark2 Score: ");
		assert_non_null(score);
		size_t end = (size_t)(score - text) + strlen("glmark2 Score: ");
		while (text[end] >= '0' && text[end] <= '9')
			end++;
		size_t len = strlen(text);
		for (size_t cut = 0; cut <= len; cut++) {
			char err[256], save = text[cut];
			text[cut] = '\0';
			int rc = ext_glmark2_parse(text, r, err, sizeof(err));
			text[cut] = save;
			if (cut < end && rc == 0)
				fail_msg("%s cut at byte %zu parsed (score %u)", files[f], cut, r->score);
			if (cut >= end && rc != 0)
				fail_msg("%s cut at byte %zu, after the score: %s", files[f], cut, err);
		}
		free(text);
	}
	free(r);
}

static void glmark2_changed(void **state)
{
	(void)state;
	char err[256], *t, *t2;
	struct ext_glmark2_run *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	char *text = slurp("glmark2/es2-x11-offscreen.txt");

	t = replaced(text, "glmark2 Score: 471", "glmark2 Score: 700");
	expect_error(ext_glmark2_parse(t, r, err, sizeof(err)), err,
		     "is not the mean of the 2 scenes' FPS (470 to 472)");
	free(t);
	t = replaced(text, "FrameTime: 18.778 ms", "FrameTime: 18.778 ms (vsync)");
	expect_error(ext_glmark2_parse(t, r, err, sizeof(err)), err,
		     "is not '[SCENE] OPTIONS: FPS: N FrameTime: T ms'");
	free(t);
	t = replaced(text, "    GL_RENDERER:    llvmpipe (LLVM 15.0.6, 256 bits)\n", "");
	expect_error(ext_glmark2_parse(t, r, err, sizeof(err)), err, "no 'GL_RENDERER: NAME' line");
	free(t);
	t = replaced(text, "    glmark2 2023.01\n", "");
	expect_error(ext_glmark2_parse(t, r, err, sizeof(err)), err, "no 'glmark2 VERSION' banner");
	free(t);
	t = replaced(text, "=======================================================\n"
		     "                                  glmark2 Score: 471",
		     "glmark2 Score: 471\nglmark2 Score: 471");
	expect_error(ext_glmark2_parse(t, r, err, sizeof(err)), err, "a second 'glmark2 Score' line");
	free(t);

	/* A scene that does not run is reported and leaves the score alone. */
	t = replaced(text, "[texture] <default>: FPS: 891 FrameTime: 1.123 ms",
		     "[terrain] <default>: Unsupported\n[texture] <default>: FPS: 891 FrameTime: 1.123 ms\n"
		     "[refract] <default>: Set up failed");
	assert_int_equal(ext_glmark2_parse(t, r, err, sizeof(err)), 0);
	assert_int_equal(r->nscenes, 4);
	assert_int_equal(r->nran, 2);
	assert_int_equal(r->scene[1].status, 1);
	assert_string_equal(r->scene[1].spec, "[terrain] <default>");
	assert_int_equal(r->scene[3].status, 2);
	assert_int_equal(r->score, 471);
	free(t);
	t = replaced(text, "[build] use-vbo=true: FPS: 54 FrameTime: 18.778 ms",
		     "[build] use-vbo=true: Unsupported");
	t2 = replaced(t, "[texture] <default>: FPS: 891 FrameTime: 1.123 ms",
		      "[texture] <default>: Unsupported");
	char *t3 = replaced(t2, "glmark2 Score: 471", "glmark2 Score: 0");
	expect_error(ext_glmark2_parse(t3, r, err, sizeof(err)), err, "none of the 2 scenes ran");
	free(t3);
	free(t2);
	free(t);
	free(text);

	/* No display: glmark2 says why on stderr and prints nothing else. */
	text = slurp("glmark2/es2-no-display.stderr.txt");
	expect_error(ext_glmark2_parse("", r, err, sizeof(err)), err, "no 'glmark2 VERSION' banner");
	expect_error(ext_glmark2_parse(text, r, err, sizeof(err)), err,
		     "glmark2 said 'Error: main: Could not initialize canvas'");
	free(text);
	free(r);
}

/* ---- running a program ---- */

static void run_captures_apart(void **state)
{
	(void)state;
	char *argv[] = { "/bin/sh", "-c", "echo out; echo err >&2; echo more; exit 3", NULL };
	struct ext_proc p;
	char err[128], how[64], last[64];
	assert_int_equal(ext_run(argv, NULL, NULL, 0, 10, &p, err, sizeof(err)), 0);
	assert_string_equal(p.out.s, "out\nmore\n");
	assert_string_equal(p.err.s, "err\n");
	assert_false(ext_proc_ok(&p));
	ext_proc_describe(&p, 10, how, sizeof(how));
	assert_string_equal(how, "exit status 3");
	ext_last_line(&p, last, sizeof(last));
	assert_string_equal(last, "err");
	ext_proc_free(&p);

	char *missing[] = { "/nonexistent/glmark2", NULL };
	assert_int_equal(ext_run(missing, NULL, NULL, 0, 10, &p, err, sizeof(err)), 0);
	ext_proc_describe(&p, 10, how, sizeof(how));
	assert_string_equal(how, "exit status 127");
	assert_string_equal(p.err.s, "perfguide: exec failed\n");
	ext_proc_free(&p);
}

/* Killed and not yet reaped (by an init that may never reap it). */
static int zombie(long pid)
{
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *close = strrchr(buf, ')');
	return close && close[1] == ' ' && close[2] == 'Z';
}

/* The timeout ends the program and what it started, even a child that
 * keeps the output open. Nothing here depends on how fast the machine is
 * but the bound on the return. */
static void run_timeout(void **state)
{
	(void)state;
	char *argv[] = { "/bin/sh", "-c", "sleep 30 & echo $!; wait", NULL };
	struct ext_proc p;
	char err[128], how[64];
	double t0 = pg_now();
	assert_int_equal(ext_run(argv, NULL, NULL, 0, 1.5, &p, err, sizeof(err)), 0);
	double took = pg_now() - t0;
	assert_true(took >= 1.5 && took < 10);
	assert_true(p.timed_out);
	assert_false(ext_proc_ok(&p));
	ext_proc_describe(&p, 1.5, how, sizeof(how));
	assert_string_equal(how, "timed out after 1.5 s");
	/* The sleep it started, when the shell got as far as saying which. */
	long child = strtol(p.out.s, NULL, 10);
	if (child > 0) {
		int gone = 0;
		for (int i = 0; i < 500 && !gone; i++) {
			gone = kill((pid_t)child, 0) != 0 && errno == ESRCH;
			gone = gone || zombie(child);
			if (!gone) {
				struct timespec ts = { 0, 10 * 1000 * 1000 };
				nanosleep(&ts, NULL);
			}
		}
		assert_true(gone);
	}
	ext_proc_free(&p);
}

struct in_thread {
	struct ext_proc p;
	int cpus[1];
	int ncpus;
	int rc;
};

static void *run_status(void *arg)
{
	struct in_thread *t = arg;
	char *argv[] = { "/bin/sh", "-c", "grep -E '^(SigBlk|Cpus_allowed_list)' /proc/self/status",
			 NULL };
	char err[128];
	t->rc = ext_run(argv, NULL, t->ncpus ? t->cpus : NULL, t->ncpus, 10, &t->p, err, sizeof(err));
	return NULL;
}

/* The runner's threads block every signal: the program must not inherit
 * that, and it runs on the CPUs given. */
static void run_from_runner_thread(void **state)
{
	(void)state;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	struct in_thread t = { .cpus = { 0 }, .ncpus = 1 };
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, run_status, &t), 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_join(th, NULL);
	assert_int_equal(t.rc, 0);
	assert_true(ext_proc_ok(&t.p));
	assert_non_null(strstr(t.p.out.s, "SigBlk:\t0000000000000000\n"));
	assert_non_null(strstr(t.p.out.s, "Cpus_allowed_list:\t0\n"));
	ext_proc_free(&t.p);
}

static void argv_as_text(void **state)
{
	(void)state;
	char *argv[] = { "/usr/bin/glmark2-es2", "-b", "effect2d:kernel=0,1,0;1,-4,1;0,1,0;",
			 "-s", "800x600", "it's", NULL };
	char buf[256], small[12];
	ext_format_argv(argv, buf, sizeof(buf));
	assert_string_equal(buf, "/usr/bin/glmark2-es2 -b 'effect2d:kernel=0,1,0;1,-4,1;0,1,0;' "
				 "-s 800x600 'it'\\''s'");
	ext_format_argv(argv, small, sizeof(small));
	assert_string_equal(small, "/usr/bin/gl");

	char path[4096];
	assert_int_equal(ext_which("sh", path, sizeof(path)), 0);
	assert_non_null(strstr(path, "/sh"));
	assert_int_equal(ext_which("no-such-glmark2-flavour", path, sizeof(path)), -1);
	assert_int_equal(ext_which("/nonexistent/x", path, sizeof(path)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mith_recorded),
		cmocka_unit_test(mith_values),
		cmocka_unit_test(mith_cut_short),
		cmocka_unit_test(mith_changed),
		cmocka_unit_test(mith_fewer_iterations_than_contexts),
		cmocka_unit_test(coremark_pro_score),
		cmocka_unit_test(multibench_reconstructed),
		cmocka_unit_test(glmark2_recorded),
		cmocka_unit_test(glmark2_cut_short),
		cmocka_unit_test(glmark2_changed),
		cmocka_unit_test(run_captures_apart),
		cmocka_unit_test(run_timeout),
		cmocka_unit_test(run_from_runner_thread),
		cmocka_unit_test(argv_as_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
