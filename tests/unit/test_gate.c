/*
 * The release gate's promises, on synthetic runs with a fixed seed
 * (docs/methodology.md quotes the figures this prints):
 *  - 1000 A/A comparisons of 100 rows at 2% CV: at most 5% of them call
 *    anything regressed or improved (several runs a side, and one);
 *  - a 10% shift at 2% CV with 10 replicates a side is found in at least
 *    95% of the comparisons, among 99 rows that did not change;
 *  - a 5x change with 3 samples a side is never "within noise";
 *  - a disturbed row is never regressed or improved.
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

#include "report/compare.h"

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
	char ids[MAX_RUNS][16];
};

static char names[ROWS][8];

/* What one row of one side is made of. */
struct model {
	int runs, samples;
	double cv;		/* of the samples within a run */
	double between;		/* of a run's level (its process) */
	double shift;		/* factor on row 0 */
	int disturbed;		/* row 0 of every run marked disturbed */
	int heavy;		/* the last rows vary 20% between processes (crypto.sha1 did) */
};

static void fill(struct side *s, const char *tag, const struct model *m)
{
	for (int r = 0; r < m->runs; r++) {
		snprintf(s->ids[r], sizeof(s->ids[r]), "%s%d", tag, r);
		s->runs[r] = (struct pg_rrun){ .id = s->ids[r], .board = (char *)"b", .finished = (char *)"x",
					       .res = s->rec[r], .nres = ROWS };
		for (int i = 0; i < ROWS; i++) {
			double between = i >= ROWS - m->heavy ? 0.2 : m->between;
			double level = 100 * exp(between * normal()) * (i == 0 ? m->shift : 1);
			double *v = s->samples[r][i], sorted[MAX_SAMPLES];
			for (int k = 0; k < m->samples; k++)
				sorted[k] = v[k] = level * exp(m->cv * normal());
			qsort(sorted, (size_t)m->samples, sizeof(double), cmp_d);
			s->rec[r][i] = (struct pg_record){
				.bench = names[i], .params = (char *)"{}", .metric = (char *)"m", .unit = (char *)"MB/s",
				.higher = 1, .samples = v, .nsamples = m->samples, .status = PG_OK,
				.median = m->samples % 2 ? sorted[m->samples / 2]
					 : (sorted[m->samples / 2 - 1] + sorted[m->samples / 2]) / 2,
				.disturbed = i == 0 && m->disturbed,
			};
		}
	}
}

static struct side *sa, *sb;

/* In how many of n comparisons row 0 got each verdict, and how many
 * comparisons called any row regressed or improved. */
struct tally {
	int row0[PG_NOT_GATED + 1];
	int any_change;
};

static void trials(const struct model *base, const struct model *new, int n, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	struct pg_cmp_opts o = { .threshold_pct = 5 };
	for (int k = 0; k < n; k++) {
		fill(sa, "a", base);
		fill(sb, "b", new);
		struct pg_cmp_side a = { sa->runs, base->runs }, b = { sb->runs, new->runs };
		struct pg_comparison c;
		assert_int_equal(pg_compare_sides(&a, &b, &o, &c), 0);
		assert_int_equal(c.n, ROWS);
		t->row0[c.rows[0].verdict]++;
		t->any_change += c.nreg + c.nimp > 0;
		pg_comparison_free(&c);
	}
}

static int setup(void **state)
{
	(void)state;
	sa = calloc(1, sizeof(*sa));
	sb = calloc(1, sizeof(*sb));
	for (int i = 0; i < ROWS; i++)
		snprintf(names[i], sizeof(names[i]), "r%03d", i);
	rng_state = 25;
	return sa && sb ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(sa);
	free(sb);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aa_false_alarms),
		cmocka_unit_test(power_ten_percent),
		cmocka_unit_test(five_x_three_samples),
		cmocka_unit_test(disturbed_never_judged),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
