/* SPDX-License-Identifier: MIT */
/*
 * What a result's processes say together (procs.h): whether they disagree
 * beyond their noise (the bimodal rule), whether they spread too wide for
 * compare to judge, and the range of their medians.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procs.h"
#include "stats.h"

/* Each process's median and the standard error of its log: from its own
 * samples, but never below what the processes' samples pooled give (the
 * spread of 2 or 3 samples is itself a draw, and one that happens to be
 * small would make any gap look significant); -1 where a sample is not
 * positive. */
static void proc_medians(const double *samples, const int *n, int nprocs, double *med, double *se)
{
	double ss = 0;
	int df = 0;
	for (int i = 0, at = 0; i < nprocs; at += n[i++]) {
		struct pg_stats st;
		pg_stats_compute(samples + at, (size_t)n[i], &st);
		med[i] = st.median;
		se[i] = pg_log_median_se(samples + at, (size_t)n[i]);
		if (se[i] < 0)
			continue;
		/* the process's own spread, robust as its se is (a process
		 * that changed speed for one sample is not a noisy process) */
		double s = pg_log_spread(samples + at, (size_t)n[i]);
		ss += s * s * (n[i] - 1);
		df += n[i] - 1;
	}
	for (int i = 0; i < nprocs && df > 0; i++)
		if (se[i] >= 0)
			se[i] = fmax(se[i], 1.2533 * sqrt(ss / df) / sqrt((double)n[i]));
}

int pg_procs_bimodal(const double *samples, const int *n, int nprocs, char *why, size_t len)
{
	double med[PG_MAX_PROCS], se[PG_MAX_PROCS];
	int lo = -1, hi = -1;
	double worst = 0;
	why[0] = '\0';
	if (nprocs > PG_MAX_PROCS)
		nprocs = PG_MAX_PROCS;
	proc_medians(samples, n, nprocs, med, se);
	for (int i = 0; i < nprocs; i++)
		for (int j = 0; j < nprocs; j++) {
			if (!(med[i] > 0) || !(med[j] > med[i]) || se[i] < 0 || se[j] < 0)
				continue;
			double d = log(med[j] / med[i]), sd = sqrt(se[i] * se[i] + se[j] * se[j]);
			double z = sd > 0 ? d / sd : INFINITY;
			if ((med[j] / med[i] - 1) * 100 > PG_PROCS_BIMODAL_PCT && z > PG_PROCS_BIMODAL_SE && d > worst) {
				worst = d;
				lo = i;
				hi = j;
			}
		}
	if (lo < 0)
		return 0;
	double sd = sqrt(se[lo] * se[lo] + se[hi] * se[hi]);
	char z[64] = "";
	if (sd > 0)
		snprintf(z, sizeof(z), ", %.0f standard errors of their difference", worst / sd);
	char a[32], b[32];
	snprintf(a, sizeof(a), med[lo] >= 1e4 ? "%.0f" : "%.4g", med[lo]);
	snprintf(b, sizeof(b), med[hi] >= 1e4 ? "%.0f" : "%.4g", med[hi]);
	snprintf(why, len, "its %d processes disagree: process %d measured %s and process %d %s "
		 "(%.0f%% apart%s)",
		 nprocs, lo + 1, a, hi + 1, b, (med[hi] / med[lo] - 1) * 100, z);
	return 1;
}

void pg_procs_range(const struct pg_result *r, int m, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int k = 0, at = 0; k < r->nprocs; at += r->proc_n[k++]) {
		struct pg_stats st;
		pg_stats_compute(r->values[m] + at, (size_t)r->proc_n[k], &st);
		*lo = fmin(*lo, st.median);
		*hi = fmax(*hi, st.median);
	}
}

/* --- the spread compare can judge --- */

int pg_procs_spread_wide(const double *samples, const int *n, int nprocs)
{
	if (nprocs > PG_MAX_PROCS)
		nprocs = PG_MAX_PROCS;
	if (nprocs < 2)
		return 0;
	double lm[PG_MAX_PROCS], mean = 0, var = 0;
	for (int i = 0, at = 0; i < nprocs; at += n[i++]) {
		struct pg_stats st;
		pg_stats_compute(samples + at, (size_t)n[i], &st);
		if (!(st.median > 0))
			return 0;
		lm[i] = log(st.median);
		mean += lm[i] / nprocs;
	}
	for (int i = 0; i < nprocs; i++)
		var += (lm[i] - mean) * (lm[i] - mean) / (nprocs - 1);
	double se = sqrt(2 * (var / nprocs + PG_PROCS_RUN_SD * PG_PROCS_RUN_SD));
	return pg_student_p(log(3.0) / 2 / se, 2.0 * nprocs - 2) / 2 > 0.05;
}

/* --- the last process's samples --- */

int pg_procs_last_enough(const double *own, int n, const struct pg_run_opts *o, int floor_runs, enum pg_stop *why)
{
	int total = o->nprior + n, np = o->prior_procs + 1;
	if (!o->prior || n < floor_runs || np > PG_MAX_PROCS)
		return 0;
	double *all = malloc((size_t)total * sizeof(double));
	int *per = malloc((size_t)np * sizeof(int));
	int stop = 0;
	if (!all || !per) {
		free(all);
		free(per);
		return 0;	/* sampled as a process alone would be */
	}
	memcpy(all, o->prior, (size_t)o->nprior * sizeof(double));
	memcpy(all + o->nprior, own, (size_t)n * sizeof(double));
	memcpy(per, o->prior_n, (size_t)o->prior_procs * sizeof(int));
	per[np - 1] = n;
	struct pg_stats st;
	pg_stats_compute(all, (size_t)total, &st);
	char bimodal_why[PG_MSG_LEN];
	if (st.ci_level >= PG_CI_LEVEL && st.ci_rel <= o->ci_target) {
		*why = PG_STOP_INTERVAL;
		stop = 1;
	} else if (n == floor_runs && (pg_procs_bimodal(all, per, np, bimodal_why, sizeof(bimodal_why)) ||
				       pg_procs_spread_wide(all, per, np))) {
		/* asked once, at the floor: at every sample, a test that a pair
		 * of agreeing processes fails by chance now and then would stop
		 * most of them early */
		*why = PG_STOP_MAX_RUNS;
		stop = 1;
	}
	free(all);
	free(per);
	return stop;
}
