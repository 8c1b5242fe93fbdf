/* SPDX-License-Identifier: MIT */
/*
 * ab's statistics (src/cli/ab.c), apart from the runs they are applied to,
 * so that a test can drive them with rounds it makes up.
 *
 * A round is one fresh run of A and one of B, in an order drawn at random
 * with as many rounds A-first as B-first. A row's replicate is the round:
 * the log of B's figure over A's, both taken in that round (a pair), so
 * what the machine did in that minute is in both and cancels. The test is
 * Yuen's paired test on the 10% trimmed mean of those log ratios (from 10
 * pairs on; Student's t on all of them before), its interval from the
 * pairs alone (Kalibera and Jones: the interval from the highest level
 * that was repeated); the verdict is the gate's rule (verdict.h) on that
 * interval.
 *
 * The rows are looked at a few planned times, not after every round:
 * after PG_AB_LOOK_ROUNDS pairs (6, 12, 24, 48) of every row still
 * undecided. A row decided at a look (regressed, improved, within noise)
 * is final and is not measured again. Each of the two error rates is
 * split over the looks in planned shares (a weighted Bonferroni split:
 * whatever the looks find, the chance that any of them errs is at most the
 * sum of their shares):
 *
 *  - regressed or improved: significant at the look with the false
 *    discovery rate PG_AB_Q x its share (PG_AB_LOOK_SHARE) held across the
 *    gated rows (Benjamini-Hochberg over all of them: a row decided
 *    earlier enters with the p it was called at, or 1), and the whole
 *    interval beyond the threshold;
 *  - within noise: the whole interval inside +/- the threshold, each bound
 *    a one-sided bound at PG_AB_EQUIV x its share (PG_AB_EQUIV_SHARE): an
 *    equivalence test at the threshold (two one-sided tests), so that
 *    across the looks a change of the threshold or more is called within
 *    noise at most 5% of the time.
 *
 * The interval shown is that one. A look before its planned round count,
 * when the budget ends or the user stops, takes the next planned look's
 * shares in its place: there are never more looks than planned.
 */
#ifndef PG_PAIRED_H
#define PG_PAIRED_H

#include "verdict.h"

/* The planned looks: after this many pairs of every row still undecided. */
#define PG_AB_NLOOKS 4
#define PG_AB_LOOK_ROUNDS { 6, 12, 24, 48 }
/* Each look's share of the false alarms' rate. The first look is for the
 * rows whose change is plain after 6 rounds, and takes little; the 12th
 * round's look most, so that a change of 20% at a spread of 0.1 per round
 * is found there. */
#define PG_AB_LOOK_SHARE { 0.05, 0.55, 0.2, 0.2 }
/* Each look's share of the equivalence test's rate. The rows still
 * undecided at the later looks are the noisy ones, and they take most: an
 * A/A of the 11 benchmarks on this VM had os.syscall.read at a
 * spread of 0.11 per round, -1.2% after 48 rounds, between -4.9% and
 * +2.6% with 0.2 of the 5% there, inside +/-5% with 0.4. */
#define PG_AB_EQUIV_SHARE { 0.05, 0.25, 0.3, 0.4 }
/* The false discovery rate across the gated rows and all looks. Simulated
 * A/A ab's of 20 rows at a spread of 0.1 per round (tests/unit/
 * test_gate_ab.c's model, 20000 of them) called some row in 0.92% at
 * compare's 5%, too close to the 1% issue 37 allows, and in 0.74% at 2.5%,
 * almost all at the 12th round's look (Student's t; 0.82% with the 10%
 * trimmed test). At 2.5% a lone row 20% slower among 19 that did not
 * change is found within 12 rounds in 77% of them (t: 88%; within 24
 * rounds 99.9%), and of 20 rows that all changed so, 98%. */
#define PG_AB_Q 0.025
/* The one-sided level of each bound of the interval, across all looks. */
#define PG_AB_EQUIV 0.05

extern const int pg_ab_look_rounds[PG_AB_NLOOKS];
extern const double pg_ab_look_share[PG_AB_NLOOKS];
extern const double pg_ab_equiv_share[PG_AB_NLOOKS];

/* The share of the pairs trimmed from each end by ab's test (Yuen's
 * trimmed-mean test): the rounds' log ratios on a shared host have long
 * tails (an A/A on this VM: one round of cpu.dhrystone at -40% that
 * nothing marked disturbed, os.syscall.null's processes at one of two
 * speeds), and one such round widens the t-test's interval for every look
 * after it. 10%, not Wilcox's usual 20%: at 20% the t approximation of so
 * few pairs is too liberal at the looks' small levels (simulated A/A's of
 * 20 rows at 0.1, tests/unit/test_gate_ab.c's model, 20000 of them: 1.39%
 * called a row, against 0.82% at 10% and 0.74% untrimmed) and a lone 20%
 * change is found within 12 rounds in 59% (77% at 10%, 88% untrimmed);
 * with one pair in 20 off by N(0, 0.4), 99.9% of the rows are within
 * noise at 10% and 81% untrimmed. */
#define PG_AB_TRIM 0.1

/* The paired test of n log ratios: Student's t on all of them (trim 0),
 * or Yuen's on their trimmed mean (trim > 0: floor(trim x n) pairs cut
 * from each end, the spread from the winsorized pairs, df = the pairs
 * kept - 1). */
struct pg_paired {
	int n;
	int kept;			/* n less the trimmed */
	double mean, sd, se, df;	/* mean: trimmed; sd: winsorized; df = kept - 1 */
	double p;			/* two-sided; 1 when n < 2 */
};

void pg_paired_t(const double *x, int n, struct pg_paired *out);
/* -1 out of memory. */
int pg_paired_trimmed(const double *x, int n, double trim, struct pg_paired *out);

/* One row: its pairs as the caller adds them round by round, and what the
 * looks made of them. */
struct pg_ab_row {
	int gated;		/* its verdict counts and it decides what is measured */
	int higher;		/* higher figures are better */
	int lost;		/* set by the caller: it cannot be measured (failed, no ratio) */
	double *lr;		/* log(B / A) of each pair */
	unsigned char *b_first;	/* whether B ran first in its round */
	int n, cap;
	/* After the last look: */
	int decided;		/* a gated row's verdict is final: no more pairs wanted */
	int decided_look;	/* the look that decided it (0-based) */
	int used;		/* the pairs the look used: as many A-first as B-first */
	struct pg_paired t;
	struct pg_change c;
	struct pg_decision d;
};

struct pg_ab {
	struct pg_ab_row *rows;
	int n;
	double threshold_pct;
	int looks;		/* looks taken */
};

/* Adds a pair; -1 out of memory. */
int pg_ab_add_pair(struct pg_ab_row *r, double log_ratio, int b_first);
/* The pairs a look would use: the first k A-first and the first k B-first
 * of the row's pairs, k the fewer of the two (a pair lost to a disturbed
 * round leaves one order short; the latest of the other are left out).
 * Their log ratios into out (room for r->n) when out is not NULL. */
int pg_ab_balanced(const struct pg_ab_row *r, double *out);
/* Whether the row wants more pairs: gated, undecided, not lost. */
int pg_ab_wanted(const struct pg_ab_row *r);
/* Whether the next planned look is due: every wanted row has its pairs. */
int pg_ab_look_due(const struct pg_ab *ab);
/* Takes the next look (planned, or in its place when the rounds end
 * early); nothing when every planned look was taken. -1 out of memory. */
int pg_ab_look(struct pg_ab *ab);
/* Whether no wanted row is left, or no look. */
int pg_ab_done(const struct pg_ab *ab);
/* The pairs the next planned look needs of each row; 0 when none is left. */
int pg_ab_next_look_rounds(const struct pg_ab *ab);
/* Gated rows decided, and gated rows not lost. */
int pg_ab_decided(const struct pg_ab *ab, int *gated);
void pg_ab_free(struct pg_ab *ab);

#endif
