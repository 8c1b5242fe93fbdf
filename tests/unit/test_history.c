/* SPDX-License-Identifier: MIT */
/* Change points by E-divisive means (src/history/changepoint.c) on
 * simulated series with a fixed seed, and a board's history built from
 * runs, charted and written (src/history/). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "history/changepoint.h"
#include "history/history.h"
#include "guide/trend.h"

/* The simulation's own generator, so that the series are the same on
 * every machine and libc. */
static uint64_t rng = 20261206;

static double uniform(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((rng >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* 30 runs at 2% noise, 10% lower from run 18 (index 17) when step. */
static void series(double *x, int n, int step)
{
	for (int i = 0; i < n; i++)
		x[i] = 100 * (1 + 0.02 * gauss()) * (step && i >= 17 ? 0.9 : 1);
}

#define SERIES 200

static void step_found_at_its_run(void **state)
{
	(void)state;
	double x[30];
	struct pg_cp cp[16];
	int at = 0, alone = 0;
	for (int r = 0; r < SERIES; r++) {
		series(x, 30, 1);
		int n = pg_cp_find(x, 30, &pg_cp_defaults, cp, 16), found = 0;
		for (int i = 0; i < n; i++)
			found |= cp[i].at == 17 && cp[i].p <= pg_cp_defaults.significance;
		at += found;
		alone += found && n == 1;
	}
	fprintf(stderr, "10%% step at run 18: found there in %d of %d series, alone in %d\n", at, SERIES, alone);
	assert_true(at >= SERIES * 95 / 100);
	assert_true(alone >= SERIES * 90 / 100);
}

static void flat_series_have_none(void **state)
{
	(void)state;
	double x[30];
	struct pg_cp cp[16];
	int none = 0;
	for (int r = 0; r < SERIES; r++) {
		series(x, 30, 0);
		none += pg_cp_find(x, 30, &pg_cp_defaults, cp, 16) == 0;
	}
	fprintf(stderr, "flat: no change point in %d of %d series\n", none, SERIES);
	assert_true(none >= SERIES * 95 / 100);
}

static void edges(void **state)
{
	(void)state;
	double x[40];
	struct pg_cp cp[16], again[16];
	for (int i = 0; i < 40; i++)
		x[i] = 5;
	assert_int_equal(pg_cp_find(x, 40, &pg_cp_defaults, cp, 16), 0);	/* all the same */
	assert_int_equal(pg_cp_find(x, 5, &pg_cp_defaults, cp, 16), 0);	/* shorter than two segments */
	/* two steps, both found, ascending; the same answer twice (the seed) */
	for (int i = 0; i < 40; i++)
		x[i] = (i < 12 ? 100 : i < 27 ? 120 : 90) * (1 + 0.01 * gauss());
	int n = pg_cp_find(x, 40, &pg_cp_defaults, cp, 16);
	assert_int_equal(n, 2);
	assert_int_equal(cp[0].at, 12);
	assert_int_equal(cp[1].at, 27);
	assert_int_equal(pg_cp_find(x, 40, &pg_cp_defaults, again, 16), 2);
	assert_true(again[0].at == 12 && again[1].at == 27 && again[0].p == cp[0].p);
	/* a step in the latest 3 runs is one; in the latest 2 it cannot be yet */
	for (int i = 0; i < 30; i++)
		x[i] = (i < 27 ? 100 : 130) * (1 + 0.005 * gauss());
	n = pg_cp_find(x, 30, &pg_cp_defaults, cp, 16);
	assert_true(n == 1 && cp[0].at == 27);
	x[27] = 100;
	n = pg_cp_find(x, 30, &pg_cp_defaults, cp, 16);
	for (int i = 0; i < n; i++)
		assert_true(cp[i].at <= 27);
	/* out has room for one: one */
	for (int i = 0; i < 40; i++)
		x[i] = (i < 12 ? 100 : i < 27 ? 120 : 90) * (1 + 0.01 * gauss());
	assert_int_equal(pg_cp_find(x, 40, &pg_cp_defaults, cp, 1), 1);
}

/* A run of board b: t.bw at v (NAN: skipped), t.lat at 10. */
static void make_run(struct pg_rrun *r, int i, double v)
{
	char line[600], err[256];
	memset(r, 0, sizeof(*r));
	snprintf(line, sizeof(line), "{\"type\":\"run\",\"schema\":\"perfguide/1\",\"id\":\"r%02d\",\"board\":\"b<&>\",\"started\":\"2026-01-%02dT00:00:00Z\","
		 "\"labels\":{\"release\":\"<%d>\"}}", i, i, i / 10);
	assert_int_equal(pg_rrun_add_line(r, line, err, sizeof(err)), 0);
	if (isnan(v))
		snprintf(line, sizeof(line), "{\"type\":\"result\",\"bench\":\"t.bw\",\"params\":{},\"metric\":\"bw\","
			 "\"status\":\"skipped\",\"reason\":\"x\"}");
	else
		snprintf(line, sizeof(line), "{\"type\":\"result\",\"bench\":\"t.bw\",\"params\":{},\"metric\":\"bw\",\"unit\":\"MB/s\","
			 "\"samples\":[%g],\"median\":%g,\"min\":%g,\"max\":%g,\"status\":\"ok\"%s}", v, v, v, v,
			 i == 5 ? ",\"disturbed\":true,\"disturbed_why\":\"x\"" : "");
	assert_int_equal(pg_rrun_add_line(r, line, err, sizeof(err)), 0);
	snprintf(line, sizeof(line), "{\"type\":\"result\",\"bench\":\"t.lat\",\"params\":{},\"metric\":\"lat\",\"unit\":\"us\","
		 "\"better\":\"lower\",\"samples\":[10],\"median\":%g,\"min\":10,\"max\":10,\"status\":\"ok\"}",
		 10 * (1 + 0.01 * gauss()));
	assert_int_equal(pg_rrun_add_line(r, line, err, sizeof(err)), 0);
}

/* 30 runs, t.bw 10% lower from run 18, two runs without its figure. */
static void build(struct pg_history *h, const char *const *sel, int nsel)
{
	memset(h, 0, sizeof(*h));
	h->cp = pg_cp_defaults;
	h->board = strdup("b<&>");
	for (int i = 1; i <= 30; i++) {
		struct pg_rrun r;
		make_run(&r, i, i == 9 || i == 24 ? NAN : 100 * (1 + 0.01 * gauss()) * (i >= 18 ? 0.9 : 1));
		assert_int_equal(pg_history_add_run(h, &r, sel, nsel), 0);
		pg_rrun_free(&r);
	}
	assert_int_equal(pg_history_detect(h), 0);
}

static void history_of_runs(void **state)
{
	(void)state;
	struct pg_history h;
	build(&h, NULL, 0);
	assert_int_equal(h.nruns, 30);
	assert_int_equal(h.nrows, 2);
	int bw = pg_history_row(&h, "t.bw", "{}", "bw"), lat = pg_history_row(&h, "t.lat", "{}", "lat");
	assert_true(bw >= 0 && lat >= 0);
	assert_int_equal(pg_history_row(&h, "t.bw", "{}", "x"), -1);
	assert_int_equal(h.rows[bw].npoints, 28);
	assert_true(isnan(h.rows[bw].v[8]));
	assert_int_equal(h.rows[bw].marks[4], PG_HISTORY_DISTURBED);
	/* the gaps are stepped over: the change is at run 18 all the same */
	assert_int_equal(h.rows[bw].nchanges, 1);
	assert_int_equal(h.rows[bw].changes[0].at, 17);
	assert_true(fabs(h.rows[bw].changes[0].after / h.rows[bw].changes[0].before - 0.9) < 0.02);
	assert_int_equal(h.rows[lat].nchanges, 0);
	assert_int_equal(pg_history_changes(&h), 1);
	pg_history_free(&h);
	const char *sel[] = { "t.l*" };
	build(&h, sel, 1);
	assert_int_equal(h.nrows, 1);
	assert_string_equal(h.rows[0].bench, "t.lat");
	pg_history_free(&h);
}

static int write_svg(const struct pg_history *h, FILE *out)
{
	return pg_history_svg(h, out, 0);
}

static char *written(const struct pg_history *h, int (*f)(const struct pg_history *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(f(h, out), 0);
	fclose(out);
	return buf;
}

static void charts_and_formats(void **state)
{
	(void)state;
	struct pg_history h;
	build(&h, NULL, 0);
	int rows[] = { 0, 1 };
	struct pg_hist_chart c;
	assert_int_equal(pg_history_chart(&h, rows, 2, "LMBench", &c), 0);
	assert_int_equal(c.t.nlines, 2);
	assert_int_equal(c.t.lines[0].highlight, 1);	/* t.bw changed */
	assert_int_equal(c.t.lines[1].highlight, 0);
	assert_int_equal(c.t.lines[0].nchanges, 1);
	assert_int_equal(c.t.lines[0].changes[0], 17);
	assert_string_equal(c.t.other, "1 row without a change point");
	assert_non_null(strstr(c.t.lines[0].name, "from run 18 -"));
	pg_history_chart_free(&c);
	char *md = written(&h, pg_history_md), *svg = written(&h, write_svg), *html = written(&h, pg_history_html);
	char *json = written(&h, pg_history_json);
	assert_non_null(strstr(md, "| t.bw bw | MB/s | 18 | r18 |"));
	assert_null(strstr(md, "<&>"));
	assert_null(strstr(svg, "<&>"));
	assert_null(strstr(html, "<&>"));
	assert_null(strstr(html, "<1>"));
	assert_non_null(strstr(html, "b&lt;&amp;&gt;"));
	assert_non_null(strstr(svg, ">run 18</text>"));
	assert_non_null(strstr(json, "\"board\": \"b<&>\""));
	assert_non_null(strstr(json, "\"way\": \"worse\""));
	free(md);
	free(svg);
	free(html);
	free(json);
	pg_history_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(step_found_at_its_run),
		cmocka_unit_test(flat_series_have_none),
		cmocka_unit_test(edges),
		cmocka_unit_test(history_of_runs),
		cmocka_unit_test(charts_and_formats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
