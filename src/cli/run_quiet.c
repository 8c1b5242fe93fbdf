/* SPDX-License-Identifier: MIT */
/*
 * perfguide run --wait-quiet SECONDS: before a benchmark, while other
 * processes hold the CPUs, wait for them (at most SECONDS), and say so.
 * The machine is looked at before the first benchmark and after any result
 * that other processes disturbed. Before a disturbed result or process is
 * measured again (core/procs.c), the run waits the same way for whatever
 * disturbed it: other processes, the hypervisor's steal, a slow speed
 * probe. A wait that runs out is not tried again until a result is
 * measured undisturbed, so that a machine that stays busy costs the run
 * one wait, not one per benchmark.
 */
#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "run.h"

/* How long one look at the machine lasts: long enough for /proc/stat's
 * ticks to tell 10% of the CPUs. */
#define LOOK_S 0.25
/* A look before measuring again keeps one CPU busy (steal shows only
 * while a VM's CPUs want to run), the longer to tell it from the ticks'
 * uncertainty. */
#define BUSY_LOOK_S 0.5

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

/* What a busy look saw, in words, for the wait's lines. */
static void saw(const struct pg_env_seen *s, char *buf, size_t len)
{
	if (s->why & PG_ENV_STEAL)
		snprintf(buf, len, "the hypervisor is taking %.0f%% of the CPUs", 100 * s->steal_max);
	else if (s->why & PG_ENV_OTHERS)
		snprintf(buf, len, "other processes are using %.0f%% of the CPUs", 100 * s->others_max);
	else if (s->why & PG_ENV_SLOW)
		snprintf(buf, len, "the CPU runs at %.0f%% of its speed at the run's start", 100 * s->speed);
	else
		snprintf(buf, len, "the machine is throttled");
}

double run_quiet_retake(void *arg, unsigned why)
{
	struct run_quiet *q = arg;
	(void)why;	/* whatever disturbed it, any disturbance now would again */
	if (q->max_s <= 0 || q->gave_up || pg_interrupted)
		return 0;
	struct pg_env_seen s;
	pg_env_look_busy(q->env, BUSY_LOOK_S, &s);
	double waited = BUSY_LOOK_S;
	if (!s.why)
		return waited;
	char what[96];
	saw(&s, what, sizeof(what));
	fprintf(stderr, "perfguide: %s: waiting up to %g s before measuring again (--wait-quiet)\n", what,
		q->max_s);
	while (s.why && waited < q->max_s && !pg_interrupted) {
		pg_env_look_busy(q->env, BUSY_LOOK_S, &s);
		waited += BUSY_LOOK_S;
	}
	if (!s.why) {
		fprintf(stderr, "perfguide: quiet after %.1f s\n", waited);
		return waited;
	}
	q->gave_up = 1;
	saw(&s, what, sizeof(what));
	fprintf(stderr, "perfguide: still disturbed after %.1f s (%s): measuring again anyway\n", waited, what);
	return waited;
}

void run_quiet_after(struct run_quiet *q, const struct pg_result *r)
{
	if (q->max_s <= 0 || !r->have_env || r->status != PG_OK)
		return;
	if (r->env.why & PG_ENV_OTHERS)
		q->look = 1;
	if (!r->disturbed)
		q->gave_up = 0;	/* quiet again: the next disturbed spell is waited for */
}
