/* SPDX-License-Identifier: MIT */
/*
 * compare's tests and verdicts: each row's replicates and test (gate.c),
 * the false discovery rate across the rows, and the rule (verdict.h).
 */
#include "compare_int.h"

#include "core/record_json.h"
#include "core/registry.h"
#include "profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pg_cmp_set(struct pg_cmp_row *r, enum pg_verdict v, const char *why)
{
	r->verdict = v;
	snprintf(r->why, sizeof(r->why), "%s", why);
}

/* The replicates a run's record gives: each of its processes (run
 * --processes: a process is the replicate whose speed varies, its samples
 * are not), or the run itself. Their medians, the standard errors of their
 * logs from their own samples (a one-sample result's: from the interval its
 * benchmark stated, gate.h), and their sample counts, from index at;
 * returns how many. max: room left. */
static int replicates(const struct pg_record *x, double *med, double *se, int *cnt, int max)
{
	double pm[PG_RECORD_MAX_PROCS];
	int pn[PG_RECORD_MAX_PROCS];
	int k = pg_record_processes(x, pm, pn, PG_RECORD_MAX_PROCS), total = 0;
	for (int i = 0; i < k; i++)
		total += pn[i];
	if (k < 2 || k > max || total != x->nsamples) {
		med[0] = x->median;
		se[0] = pg_gate_log_median_se(x->samples, x->nsamples);
		/* one figure: the interval its benchmark stated, if any */
		if (x->nsamples < 2)
			se[0] = pg_gate_stated_se(x->ci_lo, x->ci_hi, x->ci_level);
		cnt[0] = x->nsamples;
		return 1;
	}
	for (int i = 0, at = 0; i < k; at += pn[i++]) {
		med[i] = pm[i];
		se[i] = pg_gate_log_median_se(x->samples + at, pn[i]);
		cnt[i] = pn[i];
	}
	return k;
}

/* A run as one replicate, where a side has several runs: the geometric
 * mean of its processes' medians, and the standard error of that from
 * their spread (never below what their own samples give). Processes of one
 * run share its machine's state (a slow minute, a host's other tenant), so
 * they are not independent of each other as runs are: counted as
 * replicates beside other runs, six processes of three runs would claim
 * six draws where there are three (compare's false "regressed -17%" of
 * cpu.dhrystone, an A/A of three runs a side whose processes ran at 39 or
 * 56 million a second, all six of one run at 39). */
void pg_cmp_run_level(const struct pg_record *x, double *med, double *se, int *cnt)
{
	double pm[PG_RECORD_MAX_PROCS], ps[PG_RECORD_MAX_PROCS];
	int pn[PG_RECORD_MAX_PROCS];
	int k = replicates(x, pm, ps, pn, PG_RECORD_MAX_PROCS);
	if (k < 2) {
		*med = pm[0];
		*se = ps[0];
		*cnt = pn[0];
		return;
	}
	double sum = 0, sq = 0, se2 = 0;
	for (int i = 0; i < k; i++)
		sum += log(pm[i]) / k;
	for (int i = 0; i < k; i++) {
		sq += (log(pm[i]) - sum) * (log(pm[i]) - sum);
		se2 += ps[i] > 0 ? ps[i] * ps[i] / k : 0;
	}
	*med = exp(sum);
	*se = sqrt(fmax(sq / (k - 1), se2) / k);
	*cnt = x->nsamples;
}

/* Each side's replicates: one run a side, its processes (replicates());
 * several runs on a side, the runs (pg_cmp_run_level()); tests the row. */
int pg_cmp_test_row(struct pg_cmp_row *r, const struct pg_record **b, int nb, const struct pg_record **n, int nn,
		    const struct pg_cmp_opts *o)
{
	int cap = (nb + nn) * PG_RECORD_MAX_PROCS;
	double *med = malloc(sizeof(double) * 2 * (size_t)cap);
	int *cnt = malloc(sizeof(int) * (size_t)cap);
	if (!med || !cnt) {
		free(med);
		free(cnt);
		return -1;
	}
	double *se = med + cap;
	int k = 0, kb = 0;
	for (int i = 0; i < nb + nn; i++) {
		const struct pg_record *x = i < nb ? b[i] : n[i - nb];
		if (nb > 1 || nn > 1) {
			pg_cmp_run_level(x, med + k, se + k, cnt + k);
			k++;
		} else
			k += replicates(x, med + k, se + k, cnt + k, cap - k);
		if (i == nb - 1)
			kb = k;
	}
	r->reps_base = kb;
	r->reps_new = k - kb;
	/* this binary's benchmark of that name, so results of earlier
	 * releases are judged alike */
	const struct pg_bench *d = b[0]->bench ? pg_registry_find(b[0]->bench) : NULL;
	double rsd = d ? d->run_sd : 0;
	const struct pg_noise_row *pr = o->profile ? pg_noise_find(o->profile, b[0]) : NULL;
	double psd = pr ? pr->sd : 0;
	int pruns = pr ? pr->runs : 0;
	struct pg_gate_side sb = { kb, med, se, cnt, nb, rsd, psd, pruns },
			    sn = { k - kb, med + kb, se + kb, cnt + kb, nn, rsd, psd, pruns };
	pg_gate_test(&sb, &sn, &r->g);
	if (!r->g.untested && r->g.test != PG_TEST_NONE) {
		/* the figures the interval is about: each side's runs (or
		 * processes) on the log scale, so that Change is its estimate */
		r->base_median = r->g.base_level;
		r->new_median = r->g.new_level;
		r->change_pct = 100 * expm1(r->g.d);
	}
	free(med);
	free(cnt);
	return 0;
}

/* --- verdicts --- */

/* A row whose sides ran in clearly different conditions: a change may be
 * the machine's, so it is inconclusive, save one case. NEW ran in the
 * slower conditions and still came out within noise of BASE: the
 * conditions can only have made NEW look slower than it is, so they hide
 * no regression (an improvement, perhaps, which a release gate need not
 * act on). In an A/A of the quick suite, crypto.des3 was 11.6% slower in
 * NEW (p = 0.16), and inconclusive only for NEW's cache probe, 156 ns a
 * load against BASE's 36. */
static void judge_env(struct pg_cmp_row *r)
{
	if (!r->env_slower)
		return;
	char why[PG_CMP_NOTE_LEN];
	if (r->verdict == PG_SAME && r->env_slower == 2) {
		snprintf(r->why, sizeof(r->why), "NEW ran in slower conditions, so it may be faster than this, not "
			 "slower: %.150s", r->env_why);
		return;
	}
	snprintf(why, sizeof(why), "environment differs: %s", r->env_why);
	pg_cmp_set(r, PG_INCONCLUSIVE, why);
}

/* How more replicates would come to a row, and their name. */
static enum pg_more_by more_by(const struct pg_cmp_row *r, const struct pg_cmp_opts *o, const char **unit)
{
	if (r->nbase >= 2 && r->nnew == 1) {
		*unit = o->history ? "runs of history" : "BASE runs";
		return PG_MORE_BASE;
	}
	if (r->nnew >= 2 && r->nbase == 1) {
		*unit = "NEW runs";
		return PG_MORE_NEW;
	}
	*unit = "runs a side";
	return PG_MORE_SIDES;
}

/* An undecided row's words: the interval and how many more would decide
 * it; where more of BASE's runs alone cannot (one NEW run's own spread
 * stays), how many more NEW runs would, else how many more on each side. */
static void undecided(struct pg_cmp_row *r, const struct pg_change *ch, const struct pg_cmp_opts *o,
		      const char *unit, const char *first)
{
	char w[PG_CMP_NOTE_LEN], why[sizeof(r->why)], alone[100];
	struct pg_decision d = r->dec;
	const char *of = unit;
	if (d.more < 0 && ch->more_by != PG_MORE_SIDES) {
		d.more = ch->more_by == PG_MORE_BASE ? pg_decide_more(ch, o->threshold_pct, PG_MORE_NEW) : -1;
		snprintf(alone, sizeof(alone), "NEW runs (more %s alone would not)", unit);
		if (d.more < 0) {
			d.more = pg_decide_more(ch, o->threshold_pct, PG_MORE_SIDES);
			snprintf(alone, sizeof(alone), "runs on each side (more %s%s alone would not)", unit,
				 ch->more_by == PG_MORE_BASE ? " or NEW runs" : "");
		}
		of = alone;
	}
	pg_decision_words(&d, of, w, sizeof(w));
	snprintf(why, sizeof(why), "%s%s", first, w);
	pg_cmp_set(r, PG_UNDECIDED, why);
}

/* The rule on a tested row. With one run of one process a side and an
 * allowance for its spread, a change below PG_GATE_GROSS is not called
 * regressed or improved: processes differ by more than the allowance. */
static void judge(struct pg_cmp_row *r, int significant, double alpha, const struct pg_cmp_opts *o)
{
	const char *unit;
	struct pg_change ch = { .est = r->g.d, .significant = significant, .alpha = alpha,
				.higher = r->base->higher != 0, .n_base = r->nbase, .n_new = r->nnew };
	ch.more_by = more_by(r, o, &unit);
	r->more_of = unit;
	pg_change_interval(&ch, r->g.se, r->g.df);
	pg_decide(&ch, o->threshold_pct, &r->dec);
	r->verdict = r->dec.verdict;
	r->why[0] = 0;
	int called = r->verdict == PG_REGRESSED || r->verdict == PG_IMPROVED;
	if (called && r->g.test == PG_TEST_ONE_RUN && r->g.spread == PG_SPREAD_ALLOWANCE &&
	    fabs(r->g.d) < log(PG_GATE_GROSS)) {
		char first[120];
		snprintf(first, sizeof(first), "one process a side, and processes of one build can differ by more "
			 "than the %.0f%% allowed (below %gx): ", 100 * r->g.spread_sd, PG_GATE_GROSS);
		r->dec.more = pg_decide_more(&ch, o->threshold_pct, ch.more_by);
		undecided(r, &ch, o, unit, first);
	} else if (r->verdict == PG_UNDECIDED) {
		undecided(r, &ch, o, unit, "");
	}
}

/* A row that could not be tested: a figure a side with no spread is
 * undecided (more runs, or the board's history, would give a spread);
 * otherwise it cannot be judged. */
static void untested(struct pg_cmp_row *r)
{
	if (r->g.few)
		pg_cmp_set(r, PG_UNDECIDED, "one figure a side and no spread to judge it by: run it several times a "
			   "side, or keep the board's runs in a store (their spread is its noise profile)");
	else
		pg_cmp_set(r, PG_INCONCLUSIVE, r->g.untested);
}

/* Benjamini-Hochberg over the gated rows that were tested, then each
 * row's verdict; restating and descriptive rows are not counted. */
int pg_cmp_verdicts(struct pg_comparison *c, const struct pg_cmp_opts *o)
{
	double *p = calloc((size_t)c->n + 1, sizeof(double));
	int *idx = malloc(sizeof(int) * (size_t)(c->n + 1)), *rej = malloc(sizeof(int) * (size_t)(c->n + 1));
	if (!p || !idx || !rej) {
		free(p);
		free(idx);
		free(rej);
		return -1;
	}
	int m = 0;
	for (int i = 0; i < c->n; i++) {
		struct pg_cmp_row *r = &c->rows[i];
		if (r->gated && r->alias < 0 && r->verdict != PG_INCONCLUSIVE && !r->g.untested) {
			idx[m] = i;
			p[m++] = r->g.p;
		}
	}
	pg_gate_bh(p, m, PG_GATE_Q, rej);
	int nrej = 0;
	for (int k = 0; k < m; k++)
		nrej += rej[k];
	/* the level one more row would need (for projecting) */
	double alpha = m ? PG_GATE_Q * (nrej + 1) / m : PG_GATE_Q;
	for (int i = 0, k = 0; i < c->n; i++) {
		struct pg_cmp_row *r = &c->rows[i];
		int in_family = k < m && idx[k] == i;
		if (r->verdict != PG_INCONCLUSIVE && r->alias < 0 && r->g.untested)
			untested(r);
		else if (r->verdict != PG_INCONCLUSIVE && r->alias < 0)
			judge(r, in_family ? rej[k] : r->g.p <= PG_GATE_Q, in_family ? fmin(alpha, PG_GATE_Q) : PG_GATE_Q, o);
		if (r->verdict != PG_INCONCLUSIVE && r->alias < 0)
			judge_env(r);
		k += in_family;
	}
	free(p);
	free(idx);
	free(rej);
	return 0;
}

