/* SPDX-License-Identifier: MIT */
/*
 * The release gate's promises, on synthetic runs with a fixed seed
 * (docs/methodology.md quotes the figures this prints):
 *  - 1000 A/A comparisons of 100 rows at 2% CV: at most 5% of them call
 *    anything regressed or improved (several runs a side, and one);
 *  - a 10% shift at 2% CV with 10 replicates a side is found in at least
 *    95% of the comparisons, among 99 rows that did not change;
 *  - a 5x change with 3 samples a side is never "within noise";
 *  - a disturbed row is never regressed or improved;
 *  - runs measured in 2 processes (run --processes): the processes are the
 *    replicates; A/A holds its false-alarm rate, 5x slower is regressed, a
 *    row whose processes run at one of two speeds 1.6x apart is within
 *    noise when each run saw both.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gate/compare.h"
#include "gate/profile.h"

#define ROWS 100
#define MAX_RUNS 10
#define MAX_SAMPLES 10
#define TRIALS 1000

/* splitmix64: a fixed sequence on every machine */
static uint64_t rng_state;

static double uniform(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Storage for one side: runs of ROWS records each. */
struct side {
	struct pg_rrun runs[MAX_RUNS];
	struct pg_record rec[MAX_RUNS][ROWS];
	double samples[MAX_RUNS][ROWS][MAX_SAMPLES];
	char procs[MAX_RUNS][ROWS][160];	/* the record's "processes" */
	char ids[MAX_RUNS][16];
};

static char names[ROWS][8];
/* Rows per comparison: ROWS, or fewer where a test says. */
static int nrows = ROWS;

/* What one row of one side is made of. */
struct model {
	int runs, samples;	/* samples: per process when procs > 1 */
	double cv;		/* of the samples within a run */
	double between;		/* of a run's level (its process) */
	double shift;		/* factor on row 0 */
	int disturbed;		/* row 0 of every run marked disturbed */
	int heavy;		/* the last rows vary 20% between processes (crypto.sha1 did) */
	int procs;		/* > 1: each run measured in this many processes (run --processes) */
	int bimodal;		/* the first rows: each process at one of two speeds 1.6x apart */
};

static double median_of(const double *v, int n)
{
	double sorted[MAX_SAMPLES];
	memcpy(sorted, v, sizeof(double) * (size_t)n);
	qsort(sorted, (size_t)n, sizeof(double), cmp_d);
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* One row of one run: its processes' samples one after the other, and the
 * record's "processes" when there are several. */
static void fill_row(struct side *s, int r, int i, const struct model *m)
{
	int procs = m->procs > 1 ? m->procs : 1, n = 0;
	double *v = s->samples[r][i];
	char *json = s->procs[r][i];
	size_t at = (size_t)snprintf(json, sizeof(s->procs[r][i]), "[");
	for (int p = 0; p < procs; p++) {
		double between = i >= ROWS - m->heavy ? 0.2 : m->between;
		double speed = i < m->bimodal && uniform() < 0.5 ? 1.6 : 1;
		double level = 100 * speed * exp(between * normal()) * (i == 0 ? m->shift : 1);
		for (int k = 0; k < m->samples; k++)
			v[n + k] = level * exp(m->cv * normal());
		at += (size_t)snprintf(json + at, sizeof(s->procs[r][i]) - at, "%s{\"median\":%.17g,\"n\":%d}",
				       p ? "," : "", median_of(v + n, m->samples), m->samples);
		n += m->samples;
	}
	snprintf(json + at, sizeof(s->procs[r][i]) - at, "]");
	s->rec[r][i] = (struct pg_record){
		.bench = names[i], .params = (char *)"{}", .metric = (char *)"m", .unit = (char *)"MB/s",
		.higher = 1, .samples = v, .nsamples = n, .status = PG_OK, .median = median_of(v, n),
		.disturbed = i == 0 && m->disturbed, .processes = procs > 1 ? json : NULL,
	};
}

static void fill(struct side *s, const char *tag, const struct model *m)
{
	for (int r = 0; r < m->runs; r++) {
		snprintf(s->ids[r], sizeof(s->ids[r]), "%s%d", tag, r);
		s->runs[r] = (struct pg_rrun){ .id = s->ids[r], .board = (char *)"b", .finished = (char *)"x",
					       .res = s->rec[r], .nres = nrows };
		for (int i = 0; i < nrows; i++)
			fill_row(s, r, i, m);
	}
}

static struct side *sa, *sb, *sh;
/* The board's earlier runs, made anew for each comparison (NULL: no
 * noise profile) */
static const struct model *history;

/* In how many of n comparisons row 0 got each verdict, and how many
 * comparisons called any row regressed or improved. */
struct tally {
	int row0[PG_UNDECIDED + 1];
	int rows[PG_UNDECIDED + 1];	/* every row's */
	int any_change;
	int exit0;		/* comparisons that exit 0 */
};

static void trials(const struct model *base, const struct model *new, int n, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	struct pg_cmp_opts o = { .threshold_pct = 5 };
	struct pg_noise_profile prof = { 0 };
	for (int k = 0; k < n; k++) {
		fill(sa, "a", base);
		fill(sb, "b", new);
		if (history) {
			fill(sh, "h", history);
			assert_int_equal(pg_noise_build(sh->runs, history->runs, &prof), 0);
			o.profile = &prof;
		}
		struct pg_cmp_side a = { sa->runs, base->runs }, b = { sb->runs, new->runs };
		struct pg_comparison c;
		assert_int_equal(pg_compare_sides(&a, &b, &o, &c), 0);
		assert_int_equal(c.n, nrows);
		t->row0[c.rows[0].verdict]++;
		for (int i = 0; i < c.n; i++)
			t->rows[c.rows[i].verdict]++;
		pg_noise_free(&prof);
		t->any_change += c.nreg + c.nimp > 0;
		t->exit0 += pg_compare_exit(&c, 0) == 0;
		pg_comparison_free(&c);
	}
}

static int setup(void **state)
{
	(void)state;
	sa = calloc(1, sizeof(*sa));
	sb = calloc(1, sizeof(*sb));
	sh = calloc(1, sizeof(*sh));
	for (int i = 0; i < ROWS; i++)
		snprintf(names[i], sizeof(names[i]), "r%03d", i);
	rng_state = 25;
	return sa && sb && sh ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(sa);
	free(sb);
	free(sh);
	return 0;
}

/* A/A: at most 5% of the comparisons call anything. */
static void aa_false_alarms(void **state)
{
	(void)state;
	struct tally t;
	struct model runs3 = { .runs = 3, .samples = 10, .cv = 0.02, .between = 0.02, .shift = 1 };
	trials(&runs3, &runs3, TRIALS, &t);
	printf("A/A, 3 runs a side, 2%% CV within and between runs: %d of %d comparisons called a change\n",
	       t.any_change, TRIALS);
	assert_true(t.any_change <= TRIALS / 20);
	struct model one = { .runs = 1, .samples = 10, .cv = 0.02, .between = 0.02, .shift = 1 };
	trials(&one, &one, TRIALS, &t);
	printf("A/A, one run a side, 10 samples, 2%% CV: %d of %d comparisons called a change\n", t.any_change,
	       TRIALS);
	assert_true(t.any_change <= TRIALS / 20);
	/* ten rows whose processes differ by 20% (as crypto.sha1's did):
	 * one run a side judges none of them, several runs a side see it */
	one.heavy = runs3.heavy = 10;
	trials(&one, &one, TRIALS / 4, &t);
	printf("A/A, one run a side, 10 of 100 rows 20%% apart between processes: %d of %d called a change\n",
	       t.any_change, TRIALS / 4);
	assert_true(t.any_change <= TRIALS / 4 / 20);
	trials(&runs3, &runs3, TRIALS / 4, &t);
	printf("A/A, 3 runs a side, 10 of 100 rows 20%% apart between processes: %d of %d called a change\n",
	       t.any_change, TRIALS / 4);
	assert_true(t.any_change <= TRIALS / 4 / 20);
}

/* A 10% shift at 2% CV, 10 replicates a side: found in 95% or more. */
static void power_ten_percent(void **state)
{
	(void)state;
	struct tally t;
	struct model base = { .runs = 10, .samples = 5, .cv = 0.02, .between = 0.02, .shift = 1 };
	struct model slow = base;
	slow.shift = 0.9;
	trials(&base, &slow, TRIALS / 5, &t);
	printf("10%% slower, 10 runs a side, 2%% CV: found in %d of %d\n", t.row0[PG_REGRESSED], TRIALS / 5);
	assert_true(t.row0[PG_REGRESSED] >= TRIALS / 5 * 95 / 100);
	/* 3 and 5 runs a side, and 20% with 3, for the docs */
	for (int runs = 3; runs <= 5; runs += 2) {
		base.runs = slow.runs = runs;
		trials(&base, &slow, TRIALS / 10, &t);
		printf("10%% slower, %d runs a side, 2%% CV: found in %d of %d\n", runs, t.row0[PG_REGRESSED],
		       TRIALS / 10);
	}
	base.runs = slow.runs = 3;
	slow.shift = 0.8;
	trials(&base, &slow, TRIALS / 10, &t);
	printf("20%% slower, 3 runs a side, 2%% CV: found in %d of %d\n", t.row0[PG_REGRESSED], TRIALS / 10);
	/* one run a side: a 10% change is below what processes can differ
	 * by: reported (inconclusive) when the samples show it, never judged */
	struct model one = { .runs = 1, .samples = 10, .cv = 0.02, .between = 0, .shift = 1 }, one_slow = one;
	one_slow.shift = 0.9;
	trials(&one, &one_slow, TRIALS / 4, &t);
	printf("10%% slower, one run a side, 10 samples at 2%% CV: inconclusive in %d, within noise in %d of %d\n",
	       t.row0[PG_INCONCLUSIVE], t.row0[PG_SAME], TRIALS / 4);
	assert_int_equal(t.row0[PG_REGRESSED] + t.row0[PG_IMPROVED], 0);
}

/* 5x slower with 3 samples a side: never within noise, at 2% CV or 50%. */
static void five_x_three_samples(void **state)
{
	(void)state;
	struct tally t;
	for (int wide = 0; wide < 2; wide++) {
		struct model base = { .runs = 1, .samples = 3, .cv = wide ? 0.5 : 0.02, .between = 0, .shift = 1 };
		struct model slow = base;
		slow.shift = 0.2;
		trials(&base, &slow, TRIALS / 5, &t);
		printf("5x slower, 3 samples a side at %.0f%% CV: regressed %d, inconclusive %d, within noise %d\n",
		       100 * base.cv, t.row0[PG_REGRESSED], t.row0[PG_INCONCLUSIVE], t.row0[PG_SAME]);
		assert_int_equal(t.row0[PG_SAME], 0);
		assert_int_equal(t.row0[PG_IMPROVED], 0);
	}
}

/* A disturbed row is never regressed or improved, however large the change. */
static void disturbed_never_judged(void **state)
{
	(void)state;
	struct tally t;
	struct model base = { .runs = 3, .samples = 5, .cv = 0.02, .between = 0.02, .shift = 1 };
	struct model slow = base;
	slow.shift = 0.2;
	slow.disturbed = 1;
	trials(&base, &slow, TRIALS / 10, &t);
	assert_int_equal(t.row0[PG_INCONCLUSIVE], TRIALS / 10);
	base.runs = slow.runs = 1;
	trials(&base, &slow, TRIALS / 10, &t);
	assert_int_equal(t.row0[PG_INCONCLUSIVE], TRIALS / 10);
}

/* Two processes a side (run --processes 2, the default): the processes
 * are the replicates, so one run a side is judged. */
static void processes_as_replicates(void **state)
{
	(void)state;
	struct tally t;
	/* processes 2% apart, samples 2% CV, 2 samples each: A/A */
	struct model two = { .runs = 1, .samples = 2, .cv = 0.02, .between = 0.02, .shift = 1, .procs = 2 };
	trials(&two, &two, TRIALS, &t);
	printf("A/A, one run a side in 2 processes, 2%% between processes: %d of %d called a change, "
	       "%d exit 0\n", t.any_change, TRIALS, t.exit0);
	assert_true(t.any_change <= TRIALS / 20);
	/* 5x slower with 2 processes a side: regressed where the comparison
	 * is of that row; among 99 unchanged rows the row must reach p <=
	 * 0.05/100, which 2 replicates a side (2 degrees of freedom) reach
	 * only at t >= 63: never within noise, regressed or inconclusive */
	struct model slow = two;
	slow.shift = 0.2;
	trials(&two, &slow, TRIALS / 5, &t);
	printf("5x slower, one run a side in 2 processes, among 100 rows: regressed %d, inconclusive %d of %d\n",
	       t.row0[PG_REGRESSED], t.row0[PG_INCONCLUSIVE], TRIALS / 5);
	assert_int_equal(t.row0[PG_SAME] + t.row0[PG_IMPROVED], 0);
	nrows = 1;
	trials(&two, &slow, TRIALS / 5, &t);
	nrows = ROWS;
	printf("5x slower, one run a side in 2 processes, one row: regressed %d of %d\n", t.row0[PG_REGRESSED],
	       TRIALS / 5);
	assert_int_equal(t.row0[PG_REGRESSED], TRIALS / 5);
}

/* Processes at one of two speeds 1.6x apart (cpu.nbench.assign's 61-64 and
 * 97-105 per second), two a side. */
static void bimodal_processes(void **state)
{
	(void)state;
	struct tally t;
	nrows = 1;
	/* each run saw both speeds, in either order: no change seen, but one
	 * run a side cannot show that none beyond 5% happened: undecided */
	double lo[] = { 61, 61.3 }, hi[] = { 99, 99.4 };
	const double *order[2][2] = { { lo, hi }, { hi, lo } };
	for (int o = 0; o < 2; o++) {
		struct model one = { .runs = 1, .samples = 2, .cv = 0.01, .between = 0.01, .shift = 1, .procs = 2 };
		fill(sa, "a", &one);
		fill(sb, "b", &one);
		struct side *sides[2] = { sa, sb };
		for (int k = 0; k < 2; k++) {
			struct side *sd = sides[k];
			const double *first = order[k == 0 ? 0 : o][0], *second = order[k == 0 ? 0 : o][1];
			double *v = sd->samples[0][0];
			memcpy(v, first, 2 * sizeof(double));
			memcpy(v + 2, second, 2 * sizeof(double));
			snprintf(sd->procs[0][0], sizeof(sd->procs[0][0]), "[{\"median\":%.17g,\"n\":2},"
				 "{\"median\":%.17g,\"n\":2}]", median_of(v, 2), median_of(v + 2, 2));
			sd->rec[0][0].median = median_of(v, 4);
			sd->rec[0][0].processes_bimodal = 1;
		}
		struct pg_cmp_side a = { sa->runs, 1 }, b = { sb->runs, 1 };
		struct pg_cmp_opts opts = { .threshold_pct = 5 };
		struct pg_comparison c;
		assert_int_equal(pg_compare_sides(&a, &b, &opts, &c), 0);
		printf("1.6x bimodal row, both runs at both speeds (%s): %s, exit %d\n", o ? "swapped" : "same order",
		       pg_verdict_name(c.rows[0].verdict), pg_compare_exit(&c, 0));
		assert_int_equal(c.rows[0].g.test, PG_TEST_RUNS);
		assert_int_equal(c.rows[0].verdict, PG_UNDECIDED);
		assert_int_equal(c.rows[0].bimodal, 1);
		assert_int_equal(pg_compare_exit(&c, 0), 3);
		pg_comparison_free(&c);
	}
	/* drawn at random: the runs' processes land on one speed or both */
	struct model bi = { .runs = 1, .samples = 2, .cv = 0.01, .between = 0.01, .shift = 1, .procs = 2,
			    .bimodal = 1 };
	trials(&bi, &bi, TRIALS, &t);
	printf("A/A, a 1.6x bimodal row, 2 processes a side drawn at random: within noise %d, undecided %d, "
	       "regressed %d, improved %d of %d; %d exit 0\n", t.row0[PG_SAME], t.row0[PG_UNDECIDED],
	       t.row0[PG_REGRESSED], t.row0[PG_IMPROVED], TRIALS, t.exit0);
	/* both of one side on one speed and both of the other on the other
	 * (1 in 8) is a 1.6x change by every sign the data give */
	assert_true(t.row0[PG_REGRESSED] + t.row0[PG_IMPROVED] <= TRIALS * 16 / 100);
	assert_int_equal(t.row0[PG_SAME], 0);
	bi.procs = 4;
	trials(&bi, &bi, TRIALS, &t);
	printf("the same, 4 processes a side: within noise %d, undecided %d, regressed %d, improved %d of %d\n",
	       t.row0[PG_SAME], t.row0[PG_UNDECIDED], t.row0[PG_REGRESSED], t.row0[PG_IMPROVED], TRIALS);
	/* 5x slower, 2 bimodal processes a side: never within noise */
	bi.procs = 2;
	struct model slow = bi;
	slow.shift = 0.2;
	trials(&bi, &slow, TRIALS / 5, &t);
	printf("5x slower, a 1.6x bimodal row, 2 processes a side: regressed %d, inconclusive %d of %d\n",
	       t.row0[PG_REGRESSED], t.row0[PG_INCONCLUSIVE], TRIALS / 5);
	assert_int_equal(t.row0[PG_REGRESSED], TRIALS / 5);
	nrows = ROWS;
}

/* Rows whose replicates vary by 0.3 (log) and did not change, 20 in a
 * comparison: undecided, never within noise, and about 5% of the
 * comparisons at most call any of them a change (Benjamini-Hochberg holds
 * that rate when nothing changed; 7% leaves room for the scatter of 500
 * comparisons, 2 standard deviations) (3 runs a side; one run a side in 2
 * processes). */
static void wide_row_undecided(void **state)
{
	(void)state;
	struct tally t;
	nrows = 20;
	struct model runs = { .runs = 3, .samples = 5, .cv = 0.02, .between = 0.3, .shift = 1 };
	struct model procs = { .runs = 1, .samples = 2, .cv = 0.02, .between = 0.3, .shift = 1, .procs = 2 };
	const struct model *m[2] = { &runs, &procs };
	for (int k = 0; k < 2; k++) {
		trials(m[k], m[k], TRIALS / 2, &t);
		printf("A/A, 20 rows of spread 0.3, %s: rows undecided %d, within noise %d, regressed %d, improved %d; "
		       "%d of %d comparisons called a change\n", k ? "one run a side in 2 processes" : "3 runs a side",
		       t.rows[PG_UNDECIDED], t.rows[PG_SAME], t.rows[PG_REGRESSED], t.rows[PG_IMPROVED], t.any_change,
		       TRIALS / 2);
		assert_int_equal(t.rows[PG_SAME], 0);
		assert_true(t.any_change <= TRIALS / 2 * 7 / 100);
	}
	nrows = ROWS;
}

/* One run a side with the board's noise profile (its 8 earlier runs):
 * on a quiet board (0.5% between runs) 10% slower is regressed and the
 * other rows within noise; an A/A at 1% between runs calls nothing in at
 * least 95% of comparisons; on a board whose runs vary 20% (6 earlier
 * runs) 10% slower is undecided, never within noise. */
static void noise_profile(void **state)
{
	(void)state;
	struct tally t;
	struct model quiet = { .runs = 1, .samples = 10, .cv = 0.005, .between = 0.005, .shift = 1 };
	struct model past = quiet, slow = quiet;
	past.runs = 8;
	slow.shift = 0.9;
	history = &past;
	trials(&quiet, &slow, TRIALS / 5, &t);
	printf("10%% slower, one run a side, a quiet board's profile (8 runs, 0.5%%): regressed %d of %d; the other "
	       "rows within noise %d of %d\n", t.row0[PG_REGRESSED], TRIALS / 5, t.rows[PG_SAME], (ROWS - 1) * TRIALS / 5);
	assert_int_equal(t.row0[PG_REGRESSED], TRIALS / 5);
	assert_true(t.rows[PG_SAME] >= (ROWS - 1) * TRIALS / 5 * 95 / 100);
	struct model one = { .runs = 1, .samples = 10, .cv = 0.01, .between = 0.01, .shift = 1 };
	past = one;
	past.runs = 8;
	trials(&one, &one, TRIALS / 5, &t);
	printf("A/A, one run a side, a profile of 8 runs at 1%%: %d of %d called a change; rows within noise %d, "
	       "undecided %d\n", t.any_change, TRIALS / 5, t.rows[PG_SAME], t.rows[PG_UNDECIDED]);
	assert_true(t.any_change <= TRIALS / 5 / 20);
	struct model noisy = { .runs = 6, .samples = 10, .cv = 0.005, .between = 0.2, .shift = 1 };
	history = &noisy;
	trials(&quiet, &slow, TRIALS / 5, &t);
	printf("10%% slower, one run a side, a profile of 6 runs at 20%%: undecided %d, regressed %d, within noise %d of "
	       "%d\n", t.row0[PG_UNDECIDED], t.row0[PG_REGRESSED], t.row0[PG_SAME], TRIALS / 5);
	assert_int_equal(t.row0[PG_SAME], 0);
	assert_true(t.row0[PG_UNDECIDED] >= TRIALS / 5 * 95 / 100);
	history = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aa_false_alarms),
		cmocka_unit_test(power_ten_percent),
		cmocka_unit_test(five_x_three_samples),
		cmocka_unit_test(disturbed_never_judged),
		cmocka_unit_test(processes_as_replicates),
		cmocka_unit_test(bimodal_processes),
		cmocka_unit_test(wide_row_undecided),
		cmocka_unit_test(noise_profile),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
