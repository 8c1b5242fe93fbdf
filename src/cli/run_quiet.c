/*
 * perfguide run --wait-quiet SECONDS: before a benchmark, while other
 * processes hold the CPUs, wait for them (at most SECONDS), and say so.
 * The machine is looked at before the first benchmark and after any result
 * that other processes disturbed; a wait that runs out is not tried again
 * until a result is measured undisturbed, so that a machine that stays
 * busy costs the run one wait, not one per benchmark.
 */
#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "run.h"

/* How long one look at the machine lasts: long enough for /proc/stat's
 * ticks to tell 10% of the CPUs. */
#define LOOK_S 0.25

/* Other processes' share of the CPUs over the next LOOK_S seconds; busy:
 * over the disturbance threshold (core/env.h). */
static double look(struct pg_env *env, int *busy)
{
	struct pg_env_mark a, b;
	struct pg_env_seen s;
	pg_env_mark(env, &a);
	struct timespec ts = { 0, (long)(LOOK_S * 1e9) };
	nanosleep(&ts, NULL);
	pg_env_mark(env, &b);
	pg_env_diff(env, &a, &b, NULL, &s);
	*busy = (s.why & PG_ENV_OTHERS) != 0;
	return s.have_cpu ? s.others_max : 0;
}

void run_quiet_init(struct run_quiet *q, struct pg_env *env, double max_s)
{
	q->env = env;
	q->max_s = max_s;
	q->look = max_s > 0;
	q->gave_up = 0;
}

void run_quiet_wait(struct run_quiet *q)
{
	if (!q->look || q->gave_up || pg_interrupted)
		return;
	q->look = 0;
	int busy;
	double share = look(q->env, &busy), waited = LOOK_S;
	if (!busy)
		return;
	fprintf(stderr, "perfguide: other processes are using %.0f%% of the CPUs: waiting up to %g s for them "
		"(--wait-quiet)\n", 100 * share, q->max_s);
	while (busy && waited < q->max_s && !pg_interrupted) {
		share = look(q->env, &busy);
		waited += LOOK_S;
	}
	if (!busy) {
		fprintf(stderr, "perfguide: quiet after %.1f s\n", waited);
		return;
	}
	q->gave_up = 1;
	fprintf(stderr, "perfguide: still busy after %.1f s (others %.0f%%): measuring anyway; what they disturb "
		"is marked so\n", waited, 100 * share);
}

void run_quiet_after(struct run_quiet *q, const struct pg_result *r)
{
	if (q->max_s <= 0 || !r->have_env || r->status != PG_OK)
		return;
	int others = (r->env.why & PG_ENV_OTHERS) != 0;
	if (others)
		q->look = 1;
	else
		q->gave_up = 0;	/* quiet again: the next busy spell is waited for */
}
