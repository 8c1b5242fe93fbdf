/* SPDX-License-Identifier: MIT */
/* The gate's statistics and compare's rows, verdicts and exit statuses on
 * small hand-made runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/stats.h"
#include "gate/compare.h"

static void benjamini_hochberg(void **state)
{
	(void)state;
	/* sorted: 0.001 <= 0.05*1/5, 0.008 <= 0.05*2/5, 0.039 > 0.03, 0.041 > 0.04, 0.6 */
	double p[] = { 0.041, 0.001, 0.6, 0.008, 0.039 };
	int rej[5];
	pg_gate_bh(p, 5, 0.05, rej);
	int want[] = { 0, 1, 0, 1, 0 };
	for (int i = 0; i < 5; i++)
		assert_int_equal(rej[i], want[i]);
	/* the largest k counts: 0.04 <= 0.05*4/5 rejects all four below it */
	double q[] = { 0.04, 0.035, 0.03, 0.01, 0.9 };
	pg_gate_bh(q, 5, 0.05, rej);
	assert_int_equal(rej[0] + rej[1] + rej[2] + rej[3], 4);
	assert_int_equal(rej[4], 0);
}

static void median_se(void **state)
{
	(void)state;
	double same[] = { 5, 5, 5 }, one[] = { 5 }, zero[] = { 1, 0 };
	assert_float_equal(pg_gate_log_median_se(same, 3), 0, 1e-12);
	assert_float_equal(pg_gate_log_median_se(one, 1), -1, 0);
	assert_float_equal(pg_gate_log_median_se(zero, 2), -1, 0);
	double v[] = { 100, 110 };
	/* the logs' median absolute deviation: |log 1.1| / 2; s = 1.4826 MAD;
	 * se = 1.2533 s / sqrt 2 */
	assert_float_equal(pg_gate_log_median_se(v, 2), 1.2533 * 1.4826 * log(1.1) / 2 / sqrt(2), 1e-9);
	/* one connect of 342 us among 28 us ones (an A/A row the standard
	 * deviation called too noisy to judge) hardly moves it */
	double far[] = { 31.5, 28.3, 26.2, 28.3, 342.3 };
	assert_float_equal(pg_gate_log_median_se(far, 5), 0.0641, 0.0001);	/* the sd gives 0.624 */
	/* half the samples alike (MAD 0): the standard deviation */
	double ties[] = { 5, 5, 6 };
	double sd = sqrt((2 * pow(log(5) - (2 * log(5) + log(6)) / 3, 2) + pow(log(6) - (2 * log(5) + log(6)) / 3, 2)) / 2);
	assert_float_equal(pg_gate_log_median_se(ties, 3), 1.2533 * sd / sqrt(3), 1e-9);
}

/* The rule (gate/verdict.h): the interval against the threshold. */
static struct pg_decision decide(double est, double half, int significant, int higher, double df)
{
	struct pg_change c = { .est = est, .significant = significant, .higher = higher, .n_base = 3, .n_new = 3,
			       .more_by = PG_MORE_SIDES };
	pg_change_interval(&c, half / pg_student_q(1 - PG_DECIDE_LEVEL, df), df);
	struct pg_decision d;
	pg_decide(&c, 5, &d);
	return d;
}

static void verdict_rule(void **state)
{
	(void)state;
	double t = log(1.05);
	/* inside +/- 5% (log 1.05 either way): within noise, significant or not */
	assert_int_equal(decide(0.01, 0.03, 0, 1, 4).verdict, PG_SAME);
	assert_int_equal(decide(0.01, 0.03, 1, 1, 4).verdict, PG_SAME);
	/* beyond and significant: regressed or improved by the direction */
	assert_int_equal(decide(-0.3, 0.1, 1, 1, 4).verdict, PG_REGRESSED);
	assert_int_equal(decide(-0.3, 0.1, 1, 0, 4).verdict, PG_IMPROVED);
	assert_int_equal(decide(0.3, 0.1, 1, 0, 4).verdict, PG_REGRESSED);
	/* beyond, not significant among the rows: undecided */
	struct pg_decision d = decide(0.3, 0.1, 0, 0, 4);
	assert_int_equal(d.verdict, PG_UNDECIDED);
	assert_true(d.more >= 1);
	/* significant, but the interval reaches below the threshold: a change
	 * that may be smaller than 5% is not called one */
	d = decide(0.08, 0.05, 1, 1, 4);
	assert_int_equal(d.verdict, PG_UNDECIDED);
	/* a wide interval about no change: undecided, never within noise, and
	 * more replicates would decide it (the spread 0.3 of a row: about
	 * 2 (1.645 x 0.3 / log 1.05)^2 = 207 a side, 3 already) */
	struct pg_change c = { .est = 0, .n_base = 3, .n_new = 3, .more_by = PG_MORE_SIDES, .higher = 1 };
	pg_change_interval(&c, 0.3 * sqrt(2.0 / 3), 0);
	pg_decide(&c, 5, &d);
	assert_int_equal(d.verdict, PG_UNDECIDED);
	assert_in_range(d.more, 190, 220);
	char w[200];
	pg_decision_words(&d, "runs a side", w, sizeof(w));
	assert_non_null(strstr(w, "between -33% and +50%; about "));
	assert_non_null(strstr(w, " more runs a side would decide it"));
	/* right at the threshold: no number of runs decides it */
	c.est = t;
	pg_change_interval(&c, 0.01, 0);
	pg_decide(&c, 5, &d);
	assert_int_equal(d.verdict, PG_UNDECIDED);
	assert_int_equal(d.more, -1);
	pg_decision_words(&d, "rounds", w, sizeof(w));
	assert_non_null(strstr(w, "not even 999 more rounds"));
	/* one run against six of history, spread 0.15: more history cannot
	 * narrow it below the one run's own spread; more NEW runs can */
	c = (struct pg_change){ .est = -0.1, .n_base = 6, .n_new = 1, .more_by = PG_MORE_BASE, .higher = 1 };
	pg_change_interval(&c, 0.15 * sqrt(1 + 1.0 / 6), 5);
	pg_decide(&c, 5, &d);
	assert_int_equal(d.verdict, PG_UNDECIDED);
	assert_int_equal(d.more, -1);
	assert_true(pg_decide_more(&c, 5, PG_MORE_SIDES) > 0);
	/* pairs: 0.1 a round and +20%: about a dozen rounds */
	c = (struct pg_change){ .est = log(1.2), .n_base = 3, .n_new = 3, .more_by = PG_MORE_PAIRS, .higher = 0,
				.alpha = 0.05 / 20 };
	pg_change_interval(&c, 0.1 / sqrt(3), 2);
	pg_decide(&c, 5, &d);
	assert_int_equal(d.verdict, PG_UNDECIDED);
	assert_in_range(d.more, 3, 15);
	/* a threshold of 0: only a point at no change is within noise */
	c = (struct pg_change){ .est = 0, .n_base = 3, .n_new = 3 };
	pg_decide(&c, 0, &d);
	assert_int_equal(d.verdict, PG_SAME);
}

/* --- runs made by hand --- */

#define MAXR 8

struct run {
	struct pg_rrun r;
	struct pg_record rec[MAXR];
	double s[MAXR][12];
};

/* Result k of run x: bench, metric, samples around centre (+/- spread). */
static void put(struct run *x, int k, const char *bench, const char *metric, double centre, double spread, int n,
		int higher)
{
	double *s = x->s[k];
	for (int i = 0; i < n; i++)
		s[i] = centre * (1 + spread * ((i % 3) - 1));
	x->rec[k] = (struct pg_record){ .bench = (char *)bench, .params = (char *)"{}", .metric = (char *)metric,
					.unit = (char *)"MB/s", .higher = higher, .samples = s, .nsamples = n,
					.median = centre, .status = PG_OK };
	if (x->r.nres <= k)
		x->r.nres = k + 1;
}

static void init(struct run *x, const char *id, const char *machine)
{
	memset(x, 0, sizeof(*x));
	x->r = (struct pg_rrun){ .id = (char *)id, .board = (char *)"b", .finished = (char *)"t",
				 .machine = (char *)machine, .res = x->rec };
}

static struct pg_rrun rb[4], rn[4];

/* Compares BASE runs b[0..nb) with NEW runs n[0..nn). */
static int cmp(struct run *b, int nb, struct run *n, int nn, double threshold, struct pg_comparison *c)
{
	for (int i = 0; i < nb; i++)
		rb[i] = b[i].r;
	for (int i = 0; i < nn; i++)
		rn[i] = n[i].r;
	struct pg_cmp_side sb = { rb, nb }, sn = { rn, nn };
	struct pg_cmp_opts o = { .threshold_pct = threshold };
	assert_int_equal(pg_compare_sides(&sb, &sn, &o, c), 0);
	return pg_compare_exit(c, 0);
}

static struct run B[4], N[4];

/* Three runs a side: 10% slower with runs that agree is regressed; the
 * same with one run a side is inconclusive (processes differ that much);
 * 5x with one run a side is regressed; lower is better turns it round. */
static void verdicts(void **state)
{
	(void)state;
	struct pg_comparison c;
	const double lvl[3] = { 100, 101, 99.5 };
	for (int i = 0; i < 3; i++) {
		char *id = malloc(8), *idn = malloc(8);
		snprintf(id, 8, "b%d", i);
		snprintf(idn, 8, "n%d", i);
		init(&B[i], id, NULL);
		init(&N[i], idn, NULL);
		put(&B[i], 0, "x", "bw", lvl[i], 0.01, 6, 1);
		put(&N[i], 0, "x", "bw", lvl[i] * 0.9, 0.01, 6, 1);
		put(&B[i], 1, "l", "lat", lvl[i], 0.01, 6, 0);
		put(&N[i], 1, "l", "lat", lvl[i] * 0.9, 0.01, 6, 0);
		put(&B[i], 2, "s", "bw", lvl[i], 0.01, 6, 1);
		put(&N[i], 2, "s", "bw", lvl[i] * 1.01, 0.01, 6, 1);
	}
	assert_int_equal(cmp(B, 3, N, 3, 5, &c), 1);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.rows[0].verdict, PG_REGRESSED);
	assert_int_equal(c.rows[0].g.test, PG_TEST_RUNS);
	assert_float_equal(c.rows[0].change_pct, -10, 1e-6);
	assert_int_equal(c.rows[1].verdict, PG_IMPROVED);	/* lower is better */
	assert_int_equal(c.rows[2].verdict, PG_SAME);
	pg_comparison_free(&c);
	/* above the significance but under a 15% threshold: within noise */
	assert_int_equal(cmp(B, 3, N, 3, 15, &c), 0);
	assert_int_equal(c.rows[0].verdict, PG_SAME);
	pg_comparison_free(&c);
	/* one run a side and no history: each run is allowed 5.4% (a
	 * process's and a run's own state), so neither the 10% change nor the
	 * 1% one is decided: their intervals reach across the threshold */
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 3);
	assert_int_equal(c.rows[0].verdict, PG_UNDECIDED);
	assert_int_equal(c.rows[0].g.spread, PG_SPREAD_ALLOWANCE);
	assert_non_null(strstr(c.rows[0].why, "more runs a side would decide it"));
	assert_int_equal(c.rows[2].verdict, PG_UNDECIDED);
	assert_int_equal(c.nund, 3);
	pg_comparison_free(&c);
	put(&N[0], 0, "x", "bw", 20, 0.01, 3, 1);
	put(&B[0], 0, "x", "bw", 100, 0.01, 3, 1);
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 1);
	assert_int_equal(c.rows[0].verdict, PG_REGRESSED);
	pg_comparison_free(&c);
	/* one run against three (--history): the one run is judged against
	 * the three's spread */
	put(&N[0], 0, "x", "bw", 80, 0.01, 6, 1);
	put(&B[0], 0, "x", "bw", 100, 0.01, 6, 1);
	assert_int_equal(cmp(B, 3, N, 1, 5, &c), 1);
	assert_int_equal(c.rows[0].g.test, PG_TEST_ONE_VS_RUNS);
	assert_int_equal(c.rows[0].verdict, PG_REGRESSED);
	pg_comparison_free(&c);
	for (int i = 0; i < 3; i++) {
		free(B[i].r.id);
		free(N[i].r.id);
	}
}

/* One run a side of storage allows each run 15% (its runs vary that much
 * though a run's samples agree), a memory row 5.4%: 30% apart with tight
 * samples is undecided for both, never within noise; 5x is regressed. */
static void whole_run_spread(void **state)
{
	(void)state;
	struct pg_comparison c;
	const char *bench[] = { "storage.read", "mem.bw.rd" };
	for (int k = 0; k < 2; k++) {
		init(&B[0], "b", NULL);
		init(&N[0], "n", NULL);
		put(&B[0], 0, bench[k], "bw", 130, 0.01, 10, 1);
		put(&N[0], 0, bench[k], "bw", 100, 0.01, 10, 1);
		assert_int_equal(cmp(B, 1, N, 1, 5, &c), 3);
		assert_int_equal(c.rows[0].g.test, PG_TEST_ONE_RUN);
		assert_int_equal(c.rows[0].verdict, PG_UNDECIDED);
		double sd = k == 0 ? 0.15 : PG_GATE_ONE_RUN_SD;
		assert_float_equal(c.rows[0].g.se, sqrt(2 * sd * sd), 0.01);
		pg_comparison_free(&c);
	}
	init(&B[0], "b", NULL);
	init(&N[0], "n", NULL);
	put(&B[0], 0, "storage.write", "bw", 500, 0.01, 3, 1);
	put(&N[0], 0, "storage.write", "bw", 100, 0.01, 3, 1);
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 1);
	assert_int_equal(c.rows[0].verdict, PG_REGRESSED);
	pg_comparison_free(&c);
}

/* Too few samples to test; huge noise cannot call a 5x change within noise. */
static void too_few(void **state)
{
	(void)state;
	struct pg_comparison c;
	init(&B[0], "b", NULL);
	init(&N[0], "n", NULL);
	put(&B[0], 0, "x", "bw", 100, 0, 1, 1);
	put(&N[0], 0, "x", "bw", 120, 0, 1, 1);
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 3);
	assert_int_equal(c.rows[0].verdict, PG_UNDECIDED);
	assert_non_null(strstr(c.rows[0].why, "no spread to judge it by"));
	pg_comparison_free(&c);
	/* one figure a side that moved less than the threshold: nothing shows
	 * how far such a figure moves by itself, so it is not within noise */
	put(&N[0], 0, "x", "bw", 101, 0, 1, 1);
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 3);
	assert_int_equal(c.rows[0].verdict, PG_UNDECIDED);
	pg_comparison_free(&c);
	assert_int_equal(cmp(B, 1, N, 1, 0.5, &c), 3);
	assert_int_equal(c.rows[0].verdict, PG_UNDECIDED);
	pg_comparison_free(&c);
	/* a fact of the machine (one sample) that did not change is judged */
	put(&N[0], 0, "x", "bw", 100, 0, 1, 1);
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 0);
	assert_int_equal(c.rows[0].verdict, PG_SAME);
	pg_comparison_free(&c);
	put(&B[0], 0, "x", "bw", 100, 0.9, 3, 1);
	put(&N[0], 0, "x", "bw", 20, 0.9, 3, 1);
	cmp(B, 1, N, 1, 5, &c);
	assert_int_not_equal(c.rows[0].verdict, PG_SAME);
	pg_comparison_free(&c);
}

/* Run x's only result: one figure whose benchmark stated the standard
 * error of its log (pg_state_se: the runner's 95% interval of it). */
static void stated_metric(struct run *x, int k, const char *metric, double figure, double se)
{
	put(x, k, "x", metric, figure, 0, 1, 1);
	struct pg_stats st = { .n = 1, .median = figure };
	pg_stats_stated(&st, se, 0);
	x->rec[k].ci_lo = st.ci_lo;
	x->rec[k].ci_hi = st.ci_hi;
	x->rec[k].ci_level = st.ci_level;
	x->rec[k].ci_rel = st.ci_rel;
}

static void stated(struct run *x, double figure, double se)
{
	stated_metric(x, 0, "bw", figure, se);
}

/* The gate reads back the se the interval was made of, t's widening for
 * few degrees of freedom included; no interval (level 0) is no se. */
static void stated_se(void **state)
{
	(void)state;
	struct pg_stats st = { .n = 1, .median = 7 };
	pg_stats_stated(&st, 0.03, 0);
	assert_float_equal(pg_gate_stated_se(st.ci_lo, st.ci_hi, st.ci_level), 0.03, 1e-9);
	st = (struct pg_stats){ .n = 1, .median = 7 };
	pg_stats_stated(&st, 0.03, 4);
	assert_float_equal(pg_gate_stated_se(st.ci_lo, st.ci_hi, st.ci_level), 0.03 * 2.776 / 1.96, 1e-4);
	assert_float_equal(pg_gate_stated_se(7, 7, 0), -1, 0);
	assert_float_equal(pg_gate_stated_se(0, 7, 0.95), -1, 0);
}

/* One figure a side with a stated interval is tested as one run a side
 * (not "too few samples"), each run allowed 5.4% besides: 10% slower at 1%
 * se is undecided; at 20% se too, never regressed; 5x at 1% is regressed;
 * a stated side against a sampled one, and against several runs, is tested
 * too. */
static void stated_interval(void **state)
{
	(void)state;
	struct pg_comparison c;
	init(&B[0], "b", NULL);
	init(&N[0], "n", NULL);
	stated(&B[0], 100, 0.01);
	stated(&N[0], 90, 0.01);
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 3);
	assert_null(c.rows[0].g.untested);
	assert_int_equal(c.rows[0].g.test, PG_TEST_ONE_RUN);
	assert_float_equal(c.rows[0].g.se, sqrt(2 * 0.01 * 0.01 + 2 * PG_GATE_ONE_RUN_SD * PG_GATE_ONE_RUN_SD), 1e-6);
	assert_int_equal(c.rows[0].verdict, PG_UNDECIDED);
	assert_null(strstr(c.rows[0].why, "no spread"));
	pg_comparison_free(&c);
	stated(&B[0], 100, 0.2);
	stated(&N[0], 90, 0.2);
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 3);
	assert_int_equal(c.rows[0].g.test, PG_TEST_ONE_RUN);
	assert_true(c.rows[0].g.p > 0.5);
	assert_int_equal(c.rows[0].verdict, PG_UNDECIDED);
	pg_comparison_free(&c);
	stated(&B[0], 100, 0.01);
	stated(&N[0], 20, 0.01);
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 1);
	assert_int_equal(c.rows[0].verdict, PG_REGRESSED);
	pg_comparison_free(&c);
	/* against a run of 6 samples */
	put(&B[0], 0, "x", "bw", 100, 0.01, 6, 1);
	stated(&N[0], 20, 0.01);
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 1);
	assert_int_equal(c.rows[0].g.test, PG_TEST_ONE_RUN);
	pg_comparison_free(&c);
	/* one against three runs of one figure each: their spread, at least
	 * their stated se */
	for (int i = 0; i < 3; i++) {
		init(&B[i], "b", NULL);
		stated(&B[i], 100 + i, 0.01);
	}
	stated(&N[0], 101, 0.01);
	assert_int_equal(cmp(B, 3, N, 1, 5, &c), 0);
	assert_int_equal(c.rows[0].g.test, PG_TEST_ONE_VS_RUNS);
	assert_int_equal(c.rows[0].verdict, PG_SAME);
	pg_comparison_free(&c);
}

/* A run measured in 2 processes gives 2 replicates: one run a side is
 * judged by the test for several; a "processes" that does not account for
 * the samples is not believed; a bimodal run is said. */
static void processes_replicates(void **state)
{
	(void)state;
	struct pg_comparison c;
	init(&B[0], "b", NULL);
	init(&N[0], "n", NULL);
	/* samples 100, 101 | 99, 100 against 98, 99 | 101, 100: within noise */
	const double bs[] = { 100, 101, 99, 100 }, ns[] = { 98, 99, 101, 100 };
	put(&B[0], 0, "x", "bw", 100, 0, 4, 1);
	put(&N[0], 0, "x", "bw", 99.5, 0, 4, 1);
	memcpy(B[0].s[0], bs, sizeof(bs));
	memcpy(N[0].s[0], ns, sizeof(ns));
	B[0].rec[0].processes = (char *)"[{\"median\":100.5,\"n\":2},{\"median\":99.5,\"n\":2}]";
	N[0].rec[0].processes = (char *)"[{\"median\":98.5,\"n\":2},{\"median\":100.5,\"n\":2}]";
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 3);
	assert_int_equal(c.rows[0].g.test, PG_TEST_RUNS);
	assert_int_equal(c.rows[0].reps_base, 2);
	assert_int_equal(c.rows[0].reps_new, 2);
	/* each run's own state (5%) besides: not shown within 5% */
	assert_int_equal(c.rows[0].verdict, PG_UNDECIDED);
	assert_int_equal(c.rows[0].bimodal, 0);
	pg_comparison_free(&c);
	/* 11% slower, the processes of each run within 1% of each other: one
	 * run's state (PG_GATE_RUN_SD) could be that, so undecided (it was
	 * "improved" in an A/A of os.sig.install whose runs drifted 0.222 to
	 * 0.193 us); with 3 runs a side at those values, the runs are the
	 * replicates and their agreement shows the change */
	const double less[] = { 89, 89.9, 88.1, 89 };
	memcpy(N[0].s[0], less, sizeof(less));
	N[0].rec[0].median = 89;
	N[0].rec[0].processes = (char *)"[{\"median\":89.45,\"n\":2},{\"median\":88.55,\"n\":2}]";
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 3);
	assert_int_equal(c.rows[0].verdict, PG_UNDECIDED);
	pg_comparison_free(&c);
	for (int i = 1; i < 3; i++) {
		B[i] = B[0];
		N[i] = N[0];
		B[i].r.res = B[i].rec;
		N[i].r.res = N[i].rec;
		B[i].rec[0].samples = B[i].s[0];
		N[i].rec[0].samples = N[i].s[0];
	}
	assert_int_equal(cmp(B, 3, N, 3, 5, &c), 1);
	assert_int_equal(c.rows[0].reps_base, 3);	/* the runs, not their 6 processes */
	assert_int_equal(c.rows[0].reps_new, 3);
	assert_int_equal(c.rows[0].verdict, PG_REGRESSED);
	pg_comparison_free(&c);
	/* 5x slower in both processes: regressed */
	const double slow[] = { 20, 20.2, 19.8, 20 };
	memcpy(N[0].s[0], slow, sizeof(slow));
	N[0].rec[0].median = 20;
	N[0].rec[0].processes = (char *)"[{\"median\":20.1,\"n\":2},{\"median\":19.9,\"n\":2}]";
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 1);
	assert_int_equal(c.rows[0].verdict, PG_REGRESSED);
	pg_comparison_free(&c);
	/* processes that do not add up to the samples: the run is one replicate */
	N[0].rec[0].processes = (char *)"[{\"median\":20.1,\"n\":3},{\"median\":19.9,\"n\":2}]";
	cmp(B, 1, N, 1, 5, &c);
	assert_int_equal(c.rows[0].g.test, PG_TEST_ONE_VS_RUNS);
	assert_int_equal(c.rows[0].reps_new, 1);
	pg_comparison_free(&c);
	/* a bimodal run says so */
	N[0].rec[0].processes = (char *)"[{\"median\":20.1,\"n\":2},{\"median\":19.9,\"n\":2}]";
	N[0].rec[0].processes_bimodal = 1;
	N[0].rec[0].bimodal_why = (char *)"its 2 processes disagree";
	cmp(B, 1, N, 1, 5, &c);
	assert_int_equal(c.rows[0].bimodal, 2);
	assert_string_equal(c.rows[0].bimodal_why, "its 2 processes disagree");
	pg_comparison_free(&c);
}

/* DMIPS restates Dhrystones/s: one verdict; cpu_load describes: not gated. */
static void same_figure_and_descriptive(void **state)
{
	(void)state;
	struct pg_comparison c;
	for (int i = 0; i < 2; i++) {
		init(&B[i], i ? "b1" : "b0", NULL);
		init(&N[i], i ? "n1" : "n0", NULL);
		put(&B[i], 0, "d", "dhrystones", 1757e3 * (1 + 0.001 * i), 0.01, 6, 1);
		put(&B[i], 1, "d", "dmips", 1000 * (1 + 0.001 * i), 0.01, 6, 1);
		put(&B[i], 2, "d", "cpu_load", 50, 0.01, 6, 0);
		put(&N[i], 0, "d", "dhrystones", 1757e3 * 0.8 * (1 + 0.001 * i), 0.01, 6, 1);
		put(&N[i], 1, "d", "dmips", 800 * (1 + 0.001 * i), 0.01, 6, 1);
		put(&N[i], 2, "d", "cpu_load", 90, 0.01, 6, 0);
	}
	assert_int_equal(cmp(B, 2, N, 2, 5, &c), 1);
	assert_int_equal(c.rows[0].verdict, PG_REGRESSED);
	assert_int_equal(c.rows[1].verdict, PG_NOT_GATED);
	assert_int_equal(c.rows[1].alias, 0);
	assert_non_null(strstr(c.rows[1].why, "derived from dhrystones, judged there (regressed)"));
	/* the restating row shows no interval of its own ("-"), its source one */
	char buf[200] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	pg_compare_write_interval(f, &c.rows[1]);
	pg_compare_write_interval(f, &c.rows[0]);
	fclose(f);
	assert_int_equal(strncmp(buf, " | - | ", 7), 0);
	assert_non_null(strstr(buf + 7, " .. "));
	assert_int_equal(c.rows[2].verdict, PG_NOT_GATED);
	assert_non_null(strstr(c.rows[2].why, "descriptive"));
	assert_int_equal(c.nreg, 1);
	pg_comparison_free(&c);
}

/* A row's name says its unit once: a guide's label ("whetstone (MIPS)")
 * carries its own, a bare name gets the record's. */
static void row_name_unit_once(void **state)
{
	(void)state;
	struct pg_record x = { .bench = "cpu.whetstone", .params = "{}", .metric = "mwips", .unit = "MWIPS",
			       .label = "whetstone (MIPS)" };
	char buf[200] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	pg_compare_write_name(f, &x);
	fputc('|', f);
	x.label = NULL;
	pg_compare_write_name(f, &x);
	fclose(f);
	assert_int_equal(strncmp(buf, "whetstone (MIPS)|cpu.whetstone ", 31), 0);
	assert_non_null(strstr(buf, "mwips (MWIPS)"));
	int opens = 0;
	for (const char *c = buf; *c; c++)
		opens += *c == '(';
	assert_int_equal(opens, 2);	/* "(MIPS)" and "(MWIPS)", neither twice */
}

/* Two one-figure metrics of a result with the same stated uncertainty
 * (cpu.scaling's speedup and its efficiency, the speedup over N) are one
 * figure: judged once. Another se is another figure. */
static void same_stated_figure(void **state)
{
	(void)state;
	struct pg_comparison c;
	init(&B[0], "b", NULL);
	init(&N[0], "n", NULL);
	stated_metric(&B[0], 0, "speedup", 1.8, 0.05);
	stated_metric(&B[0], 1, "efficiency", 90, 0.05);
	stated_metric(&N[0], 0, "speedup", 1.7, 0.05);
	stated_metric(&N[0], 1, "efficiency", 85, 0.05);
	cmp(B, 1, N, 1, 5, &c);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.rows[1].alias, 0);
	assert_int_equal(c.rows[1].verdict, PG_NOT_GATED);
	assert_non_null(strstr(c.rows[1].why, "derived from speedup"));
	pg_comparison_free(&c);
	stated_metric(&N[0], 1, "efficiency", 85, 0.07);
	stated_metric(&B[0], 1, "efficiency", 90, 0.07);
	cmp(B, 1, N, 1, 5, &c);
	assert_int_equal(c.rows[1].alias, -1);
	pg_comparison_free(&c);
}

/* A benchmark missing, failed or newly skipped in NEW is listed: exit 1,
 * or 0 with --allow-missing. */
static void lost(void **state)
{
	(void)state;
	struct pg_comparison c;
	init(&B[0], "b", NULL);
	init(&N[0], "n", NULL);
	put(&B[0], 0, "a", "bw", 100, 0.01, 6, 1);
	put(&B[0], 1, "m", "bw", 100, 0.01, 6, 1);
	put(&B[0], 2, "e", "bw", 100, 0.01, 6, 1);
	put(&B[0], 3, "e", "lat", 100, 0.01, 6, 0);
	put(&B[0], 4, "k", "bw", 100, 0.01, 6, 1);
	put(&N[0], 0, "a", "bw", 100, 0.01, 6, 1);
	N[0].rec[1] = (struct pg_record){ .bench = (char *)"e", .params = (char *)"{}", .metric = (char *)"bw",
					  .status = PG_ERROR, .reason = (char *)"it broke" };
	N[0].rec[2] = (struct pg_record){ .bench = (char *)"k", .params = (char *)"{}", .metric = (char *)"bw",
					  .status = PG_SKIP, .reason = (char *)"no device" };
	N[0].r.nres = 3;
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 1);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.nlost, 3);	/* m missing, e failed (once, not per metric), k newly skipped */
	assert_string_equal(c.lost[0].base->bench, "m");
	assert_null(c.lost[0].new);
	assert_string_equal(c.lost[1].base->bench, "e");
	assert_int_equal(c.lost[1].new->status, PG_ERROR);
	assert_int_equal(c.lost[2].new->status, PG_SKIP);
	/* allowed, what remains is the one row, undecided with one run a side */
	assert_int_equal(pg_compare_exit(&c, 1), 3);
	pg_comparison_free(&c);
}

/* A run against itself, and machines that differ: listed, exit 3. */
static void unlike(void **state)
{
	(void)state;
	struct pg_comparison c;
	init(&B[0], "same", "{\"arch\":\"x86_64\",\"emulated\":false,\"virt\":\"none\"}");
	init(&N[0], "same", "{\"arch\":\"x86_64\"}");
	put(&B[0], 0, "a", "bw", 100, 0.01, 6, 1);
	put(&N[0], 0, "a", "bw", 10, 0.01, 6, 1);
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 3);
	assert_int_equal(c.nunlike, 1);
	assert_non_null(strstr(c.unlike[0], "compared with itself"));
	assert_int_equal(c.rows[0].verdict, PG_INCONCLUSIVE);
	pg_comparison_free(&c);
	init(&N[0], "other", "{\"arch\":\"aarch64\",\"binary_arch\":\"aarch64\",\"emulated\":true,\"virt\":\"qemu-user\"}");
	put(&N[0], 0, "a", "bw", 100, 0.01, 6, 1);
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 3);
	assert_int_equal(c.nunlike, 2);
	assert_non_null(strstr(c.unlike[0], "architectures differ: x86_64 (BASE) and aarch64 (NEW)"));
	assert_non_null(strstr(c.unlike[1], "emulated against native: NEW"));
	pg_comparison_free(&c);
}

/* A disturbed run is left out where undisturbed ones remain; a row with
 * only disturbed runs on a side is inconclusive; so is one whose CPU ran
 * at another frequency, unless NEW ran the slower and still came out
 * within noise (that hides no regression). */
static void disturbed_and_env(void **state)
{
	(void)state;
	struct pg_comparison c;
	for (int i = 0; i < 3; i++) {
		init(&B[i], i == 0 ? "b0" : i == 1 ? "b1" : "b2", NULL);
		init(&N[i], i == 0 ? "n0" : i == 1 ? "n1" : "n2", NULL);
		put(&B[i], 0, "a", "bw", 100 + i, 0.01, 6, 1);
		put(&N[i], 0, "a", "bw", 100 + i, 0.01, 6, 1);
	}
	put(&N[2], 0, "a", "bw", 10, 0.01, 6, 1);
	N[2].rec[0].disturbed = 1;
	N[2].rec[0].disturbed_why = (char *)"other processes used 90% of the CPUs";
	assert_int_equal(cmp(B, 3, N, 3, 5, &c), 0);
	assert_int_equal(c.rows[0].verdict, PG_SAME);
	assert_int_equal(c.rows[0].left_out, 1);
	pg_comparison_free(&c);
	N[0].rec[0].disturbed = N[1].rec[0].disturbed = 1;
	N[0].rec[0].disturbed_why = N[1].rec[0].disturbed_why = N[2].rec[0].disturbed_why;
	assert_int_equal(cmp(B, 3, N, 3, 5, &c), 3);
	assert_int_equal(c.rows[0].verdict, PG_INCONCLUSIVE);
	assert_non_null(strstr(c.rows[0].why, "disturbed in NEW: other processes used 90%"));
	pg_comparison_free(&c);
	N[0].rec[0].disturbed = N[1].rec[0].disturbed = N[2].rec[0].disturbed = 0;
	put(&N[2], 0, "a", "bw", 102.5, 0.01, 6, 1);	/* not the same to the last bit */
	B[0].rec[0].env = (char *)"{\"freq_min_khz\":1200000,\"freq_max_khz\":1200000}";
	N[0].rec[0].env = (char *)"{\"freq_min_khz\":1800000,\"freq_max_khz\":1800000}";
	assert_int_equal(cmp(B, 3, N, 3, 5, &c), 3);
	assert_int_equal(c.rows[0].verdict, PG_INCONCLUSIVE);
	assert_non_null(strstr(c.rows[0].why, "environment differs: the CPU ran at 1200-1200 MHz in BASE and "
					      "1800-1800 MHz in NEW"));
	pg_comparison_free(&c);
	/* NEW the slower: within noise stands, and says what it may hide */
	B[0].rec[0].env = N[0].rec[0].env;
	N[0].rec[0].env = (char *)"{\"freq_min_khz\":1200000,\"freq_max_khz\":1200000}";
	assert_int_equal(cmp(B, 3, N, 3, 5, &c), 0);
	assert_int_equal(c.rows[0].verdict, PG_SAME);
	assert_non_null(strstr(c.rows[0].why, "NEW ran in slower conditions, so it may be faster than this"));
	pg_comparison_free(&c);
	/* ... but a change the slower conditions may explain is not judged */
	for (int i = 0; i < 3; i++)
		put(&N[i], 0, "a", "bw", 50 + i, 0.01, 6, 1);
	N[0].rec[0].env = (char *)"{\"freq_min_khz\":1200000,\"freq_max_khz\":1200000}";
	assert_int_equal(cmp(B, 3, N, 3, 5, &c), 3);
	assert_int_equal(c.rows[0].verdict, PG_INCONCLUSIVE);
	assert_non_null(strstr(c.rows[0].why, "environment differs: the CPU ran at 1800-1800 MHz in BASE"));
	pg_comparison_free(&c);
	/* the cache probe likewise: others held the shared cache in BASE */
	for (int i = 0; i < 3; i++)
		put(&N[i], 0, "a", "bw", 100 + i + 0.5, 0.01, 6, 1);
	B[0].rec[0].env = (char *)"{\"cache_ns\":150.0}";
	N[0].rec[0].env = (char *)"{\"cache_ns\":30.0}";
	assert_int_equal(cmp(B, 3, N, 3, 5, &c), 3);
	assert_non_null(strstr(c.rows[0].why, "150.0 ns a load in BASE and 30.0 in NEW, others held it in BASE"));
	pg_comparison_free(&c);
	B[0].rec[0].env = N[0].rec[0].env = NULL;
}

/* A figure that what ran before it decided (env.history: ext4 without a
 * journal's recent deletes) is not gated, even 10x apart, and says why;
 * --gate-descriptive judges it. */
static void history_not_gated(void **state)
{
	(void)state;
	struct pg_comparison c;
	init(&B[0], "b0", NULL);
	init(&N[0], "n0", NULL);
	put(&B[0], 0, "a", "rate", 50000, 0.01, 6, 1);
	put(&N[0], 0, "a", "rate", 3000, 0.01, 6, 1);
	N[0].rec[0].env = (char *)"{\"history\":\"the file system's recent deletes (ext4 without a journal)\"}";
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 0);
	assert_int_equal(c.rows[0].verdict, PG_NOT_GATED);
	assert_non_null(strstr(c.rows[0].why, "decided by the file system's recent deletes"));
	pg_comparison_free(&c);
	struct pg_cmp_side sb = { rb, 1 }, sn = { rn, 1 };
	struct pg_cmp_opts o = { .threshold_pct = 5, .gate_descriptive = 1 };
	assert_int_equal(pg_compare_sides(&sb, &sn, &o, &c), 0);
	assert_int_not_equal(c.rows[0].verdict, PG_NOT_GATED);
	assert_int_not_equal(pg_compare_exit(&c, 0), 0);
	pg_comparison_free(&c);
	N[0].rec[0].env = NULL;
}

/* Each side's results answered the cache probe from another level of the
 * memory (others held the shared cache in one run, from its start): the
 * rows are inconclusive, environment differs; within 2x they are judged. */
static void cache_differs(void **state)
{
	(void)state;
	struct pg_comparison c;
	init(&B[0], "b0", NULL);
	init(&N[0], "n0", NULL);
	put(&B[0], 0, "mem.lat.rand", "latency", 7.5, 0.01, 6, 0);
	put(&N[0], 0, "mem.lat.rand", "latency", 125, 0.01, 6, 0);
	B[0].rec[0].env = (char *)"{\"cache_ns\":9.8,\"cache_ref_ns\":9.5}";
	N[0].rec[0].env = (char *)"{\"cache_ns\":118.0,\"cache_ref_ns\":115.0}";
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 3);
	assert_int_equal(c.rows[0].verdict, PG_INCONCLUSIVE);
	assert_non_null(strstr(c.rows[0].why, "the shared cache answered the cache probe in 9.8 ns"));
	pg_comparison_free(&c);
	N[0].rec[0].env = (char *)"{\"cache_ns\":12.0,\"cache_ref_ns\":11.0}";
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 1);
	assert_int_equal(c.rows[0].verdict, PG_REGRESSED);
	pg_comparison_free(&c);
	/* the same figure to the last bit (a fact the machine keeps, as
	 * os.boot.kernel's): the probes do not make it inconclusive (one run
	 * a side of 6 samples: undecided) */
	put(&N[0], 0, "mem.lat.rand", "latency", 7.5, 0.01, 6, 0);
	N[0].rec[0].env = (char *)"{\"cache_ns\":118.0,\"cache_ref_ns\":115.0}";
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 3);
	assert_int_equal(c.rows[0].verdict, PG_UNDECIDED);
	pg_comparison_free(&c);
	B[0].rec[0].env = N[0].rec[0].env = NULL;
}

/* NEW measured a benchmark with a parameter BASE's perfguide did not have
 * (os.pipe.lat's cpu=): lost, and said so, with NEW's parameters; another
 * benchmark's or fewer parameters are plain missing. */
static void new_parameter_is_lost(void **state)
{
	(void)state;
	struct pg_comparison c;
	init(&B[0], "b0", NULL);
	init(&N[0], "n0", NULL);
	put(&B[0], 0, "os.pipe.lat", "latency", 45, 0.01, 6, 0);
	B[0].rec[0].params = (char *)"{\"msg\":1}";
	put(&B[0], 1, "os.sem", "latency", 8, 0.01, 6, 0);
	put(&N[0], 0, "os.pipe.lat", "latency", 4.4, 0.01, 6, 0);
	N[0].rec[0].params = (char *)"{\"cpu\":\"same\",\"msg\":1}";
	put(&N[0], 1, "os.pipe.lat", "latency", 4.4, 0.01, 6, 0);
	N[0].rec[1].params = (char *)"{\"cpu\":\"same\",\"msg\":2}";
	assert_int_equal(cmp(B, 1, N, 1, 5, &c), 1);
	assert_int_equal(c.nlost, 2);
	assert_string_equal(c.lost[0].base->bench, "os.pipe.lat");
	assert_non_null(c.lost[0].reparam);
	assert_string_equal(c.lost[0].reparam->params, "{\"cpu\":\"same\",\"msg\":1}");
	assert_string_equal(c.lost[1].base->bench, "os.sem");
	assert_null(c.lost[1].reparam);
	json_t *j = pg_compare_lost_json(&c.lost[0]);
	assert_string_equal(json_string_value(json_object_get(j, "what")), "measured with a new parameter");
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "new_params"), "cpu")), "same");
	json_decref(j);
	pg_comparison_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(benjamini_hochberg),
		cmocka_unit_test(median_se),
		cmocka_unit_test(verdict_rule),
		cmocka_unit_test(verdicts),
		cmocka_unit_test(too_few),
		cmocka_unit_test(whole_run_spread),
		cmocka_unit_test(stated_se),
		cmocka_unit_test(stated_interval),
		cmocka_unit_test(processes_replicates),
		cmocka_unit_test(same_figure_and_descriptive),
		cmocka_unit_test(same_stated_figure),
		cmocka_unit_test(lost),
		cmocka_unit_test(row_name_unit_once),
		cmocka_unit_test(unlike),
		cmocka_unit_test(disturbed_and_env),
		cmocka_unit_test(history_not_gated),
		cmocka_unit_test(new_parameter_is_lost),
		cmocka_unit_test(cache_differs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
