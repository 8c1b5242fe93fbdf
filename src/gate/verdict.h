/* SPDX-License-Identifier: MIT */
/*
 * The gate's one rule, for every form of compare and for ab: a change's
 * estimate and interval (log scale, log NEW/BASE), the rows' significance
 * and the threshold give the verdict; an undecided change gets about how
 * many more replicates would decide it at the spread seen.
 *
 *   regressed / improved  significant with the rows' false discovery rate
 *                         held (the caller's test and correction) and the
 *                         whole interval beyond the threshold on one side
 *                         (Criterion's rule: a change that may be below the
 *                         threshold is not called one);
 *   within noise          the whole interval inside +/- the threshold,
 *                         log(1 + t) either way: an equivalence test at the
 *                         threshold (two one-sided tests at 5% each, the
 *                         interval being 90%). Not "no change seen": the
 *                         runs show that any change is smaller than t;
 *   undecided             anything else: the interval says between what
 *                         and what, `more` how many more replicates would
 *                         decide it if the estimate and the spread held.
 *
 * The interval is two-sided at PG_DECIDE_LEVEL (90%): each bound is a
 * one-sided 95% bound, the one the equivalence test and the beyond-the-
 * threshold test use. It comes from the replicates at the highest level
 * that was repeated (Kalibera and Jones): rounds of ab, runs, or (one run a
 * side) the run's processes with an allowance for the run's own state.
 *
 * "About how many more": the spread per replicate is taken from the
 * interval (its half-width over Student's t at its degrees of freedom,
 * divided by sqrt(1/n_base + 1/n_new), or sqrt(1/n) for pairs); the
 * projected interval after m more replicates is est +/- t(df + added) x
 * that spread x sqrt(1/(n_base + m_base) + 1/(n_new + m_new)); m is the
 * least that makes it decided (inside, or beyond and significant at
 * alpha). Where the replicates that would be added cannot narrow it enough
 * (one NEW run against more and more history: the NEW run's own spread
 * stays), or m would exceed PG_DECIDE_MAX_MORE, more is -1.
 *
 * This API is stable: ab (src/cli/ab.c) calls it with its paired interval.
 */
#ifndef PG_VERDICT_H
#define PG_VERDICT_H

#include <stddef.h>

/* The interval's coverage: each bound a one-sided 95% bound. */
#define PG_DECIDE_LEVEL 0.90
/* Beyond this many more replicates a change is called undecidable here. */
#define PG_DECIDE_MAX_MORE 999

/* A row's verdict. PG_INCONCLUSIVE: the runs cannot be judged at all
 * (disturbed, unlike machines, the environment differs, no ratio);
 * PG_UNDECIDED: they can, and do not yet decide. */
enum pg_verdict { PG_SAME, PG_IMPROVED, PG_REGRESSED, PG_INCONCLUSIVE, PG_NOT_GATED, PG_UNDECIDED };

/* "within noise", "improved", "regressed", "inconclusive", "not gated",
 * "undecided". */
const char *pg_verdict_name(enum pg_verdict v);

/* Where more replicates would be added, for `more`. */
enum pg_more_by {
	PG_MORE_SIDES,	/* one more on each side: "runs a side" */
	PG_MORE_BASE,	/* BASE only: "runs of history" */
	PG_MORE_NEW,	/* NEW only: "NEW runs" */
	PG_MORE_PAIRS,	/* one more pair: "rounds" (n_base = n_new = the pairs) */
};

/* One row's change, as its test saw it. */
struct pg_change {
	double est;		/* log(NEW / BASE) */
	double lo, hi;		/* its PG_DECIDE_LEVEL interval, lo <= est <= hi */
	double df;		/* the interval's degrees of freedom; <= 0: the normal's */
	int significant;	/* differs from no change, the rows' false discovery rate held */
	/* The two-sided level a row's p must reach to be significant among
	 * the rows (for projecting; <= 0: 0.05). */
	double alpha;
	int higher;		/* 1 when higher figures are better */
	int n_base, n_new;	/* replicates the interval rests on (pairs: both the pairs) */
	enum pg_more_by more_by;
};

struct pg_decision {
	enum pg_verdict verdict;	/* PG_REGRESSED, PG_IMPROVED, PG_SAME or PG_UNDECIDED */
	double pct, lo_pct, hi_pct;	/* the estimate and the interval as changes in percent */
	int more;			/* undecided: see above (-1: cannot say); 0 when decided */
};

/* Fills c->lo and c->hi: est +/- Student's t at PG_DECIDE_LEVEL with df
 * degrees of freedom (<= 0: the normal) times se; and c->df. */
void pg_change_interval(struct pg_change *c, double se, double df);

/* The verdict of one change at threshold_pct (> 0; 0 allows none: only
 * an interval of one point at 0 is within noise). */
void pg_decide(const struct pg_change *c, double threshold_pct, struct pg_decision *d);

/* About how many more replicates, added as more_by says, would decide c at
 * threshold_pct (what pg_decide puts in more, for another way of adding:
 * compare --history asks for history runs, then NEW runs). */
int pg_decide_more(const struct pg_change *c, double threshold_pct, enum pg_more_by more_by);

/* The words of an undecided change: "between -4% and +118%; about 6 more
 * runs a side would decide it" (unit: "runs a side", "rounds", "runs of
 * history"), or "...; not even 999 more runs a side would decide it (...)"
 * when more is -1. Returns what snprintf returns. */
int pg_decision_words(const struct pg_decision *d, const char *unit, char *buf, size_t len);

#endif
