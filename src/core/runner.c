/* SPDX-License-Identifier: MIT */
#include "runner.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hist.h"
#include "procs.h"
#include "result.h"
#include "timer.h"

volatile sig_atomic_t pg_interrupted;

/* The noise-aware mode's most samples when max_runs does not say. */
#define PG_DYNAMIC_MAX_RUNS 1000

/* Calibration never lets one sample's iteration count run away. */
#define MAX_ITERS (UINT64_C(1) << 40)
#define MAX_CALIBRATION_STEPS 40

enum cmd { CMD_SETUP, CMD_PREPARE, CMD_STEP, CMD_VERIFY, CMD_TEARDOWN, CMD_EXIT };

struct team;

struct worker {
	pthread_t thread;
	struct team *team;
	struct pg_ctx ctx;
	int cpu;		/* -1: not pinned */
	int rc;			/* status of the last command */
	int set_up;		/* setup ran: teardown is owed, whatever it returned */
	double counts[PG_MAX_METRICS];
};

/*
 * The copies of one benchmark, each in its own thread, moving in lock-step:
 * the runner posts a command, all copies run it, the runner reads the clock
 * when the last one is done.
 *
 * One copy runs on the calling thread instead (`inline_`): in a process with
 * a second thread, even an idle one, Linux takes a reference on the file for
 * every system call on a descriptor (fdget, as the file table is shared), and
 * lat_syscall's read and write ran 20% slower in perfguide's worker thread
 * than in lmbench's single-threaded process. The calling thread then runs
 * with a worker's signal mask, but for SIGINT and SIGTERM, so a second Ctrl-C
 * still quits at once; its CPU affinity and signal mask are put back when the
 * benchmark is done, whatever the benchmark did to them.
 */
struct team {
	pthread_mutex_t lock;
	pthread_cond_t posted, finished;
	unsigned long generation;	/* bumped for every command */
	int pending;			/* copies still running the command */
	enum cmd cmd;
	uint64_t iters;
	int n;				/* threads started (inline: the one copy) */
	int cap;			/* workers allocated */
	struct worker *w;
	double (*clock)(void);
	int inline_;			/* one copy, on the calling thread */
	sigset_t saved_mask;		/* inline: the caller's, put back at the end */
	cpu_set_t saved_cpus;
	int restore_cpus;
};

int pg_metric_count(const struct pg_bench *b)
{
	int n = 0;
	while (n < PG_MAX_METRICS && b->metrics[n].name)
		n++;
	return n;
}

double pg_metric_value(const struct pg_metric *m, double elapsed, double count, int copies)
{
	switch (m->kind) {
	case PG_RATE:
		return elapsed > 0 ? count / elapsed * m->scale : 0;
	case PG_TIME_PER:
		return count > 0 ? elapsed * copies / count * m->scale : 0;
	case PG_VALUE:
		return count * m->scale;
	case PG_RATIO:	/* handled by pg_ratio_value: needs the primary count */
	case PG_HIST_MEAN:	/* from the sample's histogram: sample_value */
	case PG_HIST_Q:
		break;
	}
	return 0;
}

double pg_ratio_value(const struct pg_metric *m, double count, double primary)
{
	return primary > 0 ? count / primary * m->scale : 0;
}

static void do_cmd(struct worker *w)
{
	const struct pg_bench *b = w->ctx.bench;
	struct team *t = w->team;
	switch (t->cmd) {
	case CMD_SETUP:
		w->rc = b->setup ? b->setup(&w->ctx) : PG_OK;
		w->set_up = 1;
		break;
	case CMD_PREPARE:
		w->rc = b->prepare ? b->prepare(&w->ctx, t->iters) : PG_OK;
		break;
	case CMD_STEP:
		memset(w->counts, 0, sizeof(w->counts));
		w->ctx.counted_s = 0;
		w->ctx.nsib = 0;
		memset(w->ctx.log_se, 0, sizeof(w->ctx.log_se));
		if (w->ctx.hist)
			pg_hist_reset(w->ctx.hist);
		w->rc = b->step(&w->ctx, t->iters, w->counts);
		break;
	case CMD_VERIFY:
		w->rc = b->verify ? b->verify(&w->ctx) : PG_OK;
		break;
	case CMD_TEARDOWN:
		if (w->set_up && b->teardown)
			b->teardown(&w->ctx);
		w->set_up = 0;
		w->rc = PG_OK;
		break;
	case CMD_EXIT:
		break;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct team *t = w->team;
	unsigned long seen = 0;
	if (w->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		/* Failure leaves the copy unpinned; the runner reports it. */
		if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0)
			w->cpu = -2;
	}
	for (;;) {
		pthread_mutex_lock(&t->lock);
		while (t->generation == seen)
			pthread_cond_wait(&t->posted, &t->lock);
		seen = t->generation;
		enum cmd c = t->cmd;
		pthread_mutex_unlock(&t->lock);

		if (c != CMD_EXIT)
			do_cmd(w);

		pthread_mutex_lock(&t->lock);
		if (--t->pending == 0)
			pthread_cond_signal(&t->finished);
		pthread_mutex_unlock(&t->lock);
		if (c == CMD_EXIT)
			return NULL;
	}
}

/* Runs one command on every copy; returns the wall time it took. */
static double team_do(struct team *t, enum cmd c, uint64_t iters)
{
	if (t->inline_) {
		t->cmd = c;
		t->iters = iters;
		double t0 = t->clock();
		if (c != CMD_EXIT)
			do_cmd(&t->w[0]);
		return t->clock() - t0;
	}
	pthread_mutex_lock(&t->lock);
	t->cmd = c;
	t->iters = iters;
	t->pending = t->n;
	t->generation++;
	double t0 = t->clock();
	pthread_cond_broadcast(&t->posted);
	while (t->pending > 0)
		pthread_cond_wait(&t->finished, &t->lock);
	double el = t->clock() - t0;
	pthread_mutex_unlock(&t->lock);
	return el;
}

/* The first copy that did not return PG_OK, or NULL. */
static struct worker *team_failed(struct team *t)
{
	for (int i = 0; i < t->n; i++)
		if (t->w[i].rc != PG_OK)
			return &t->w[i];
	return NULL;
}

/* One timed step, after the benchmark's untimed preparation for it.
 * Returns the step's wall time, or -1 when the preparation failed. */
static double team_step(struct team *t, uint64_t iters)
{
	if (t->w[0].ctx.bench->prepare) {
		team_do(t, CMD_PREPARE, iters);
		if (team_failed(t))
			return -1;
	}
	return team_do(t, CMD_STEP, iters);
}

static void team_join(struct team *t)
{
	if (t->inline_) {
		if (t->restore_cpus)
			pthread_setaffinity_np(pthread_self(), sizeof(t->saved_cpus), &t->saved_cpus);
		pthread_sigmask(SIG_SETMASK, &t->saved_mask, NULL);
	} else {
		team_do(t, CMD_EXIT, 0);
		for (int i = 0; i < t->n; i++)
			pthread_join(t->w[i].thread, NULL);
	}
	for (int i = 0; i < t->cap; i++)
		free(t->w[i].ctx.hist);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->posted);
	pthread_cond_destroy(&t->finished);
	free(t->w);
}

static int has_hist(const struct pg_bench *b)
{
	for (int m = 0; m < pg_metric_count(b); m++)
		if (b->metrics[m].kind == PG_HIST_MEAN || b->metrics[m].kind == PG_HIST_Q)
			return 1;
	return 0;
}

static int team_start(struct team *t, int n, const struct pg_bench *b,
		      const struct pg_args *a, const struct pg_run_opts *o)
{
	memset(t, 0, sizeof(*t));
	t->w = calloc((size_t)n, sizeof(*t->w));
	if (!t->w)
		return -1;
	t->cap = n;
	if (has_hist(b)) {
		for (int i = 0; i < n; i++)
			if (!(t->w[i].ctx.hist = calloc(1, sizeof(struct pg_hist)))) {
				for (int k = 0; k < i; k++)
					free(t->w[k].ctx.hist);
				free(t->w);
				return -1;
			}
	}
	t->clock = o->clock ? o->clock : pg_now;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->posted, NULL);
	pthread_cond_init(&t->finished, NULL);

	for (int i = 0; i < n; i++) {
		struct worker *w = &t->w[i];
		w->team = t;
		w->ctx.bench = b;
		w->ctx.args = a;
		w->ctx.copy = i;
		w->ctx.copies = n;
		w->ctx.run = o;
		w->cpu = o->cpus && o->ncpus ? o->cpus[i % o->ncpus] : -1;
	}

	/* Copies must not take the signals meant for the run as a whole. */
	sigset_t all, old;
	sigfillset(&all);
	if (n == 1) {
		t->inline_ = 1;
		t->n = 1;
		sigdelset(&all, SIGINT);
		sigdelset(&all, SIGTERM);
		pthread_sigmask(SIG_BLOCK, &all, &t->saved_mask);
		t->restore_cpus = pthread_getaffinity_np(pthread_self(), sizeof(t->saved_cpus),
							 &t->saved_cpus) == 0;
		if (t->w[0].cpu >= 0) {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(t->w[0].cpu, &set);
			if (!t->restore_cpus ||
			    pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0)
				t->w[0].cpu = -2;
		}
		return 0;
	}
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (int i = 0; i < n; i++) {
		if (pthread_create(&t->w[i].thread, NULL, worker_main, &t->w[i]) != 0)
			break;
		t->n++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (t->n < n) {
		team_join(t);
		return -1;
	}
	return 0;
}

static void team_stop(struct team *t)
{
	team_do(t, CMD_TEARDOWN, 0);
	team_join(t);
}

static int fail(struct pg_result *r, enum pg_status st, const char *why)
{
	r->status = st;
	snprintf(r->reason, sizeof(r->reason), "%s", why);
	return st;
}

/* One step of one iteration, not kept: what calibration's first probe does. */
static int warm_up(struct team *t, struct pg_result *r)
{
	team_step(t, 1);
	struct worker *bad = team_failed(t);
	if (bad)
		return fail(r, (enum pg_status)bad->rc, bad->ctx.msg);
	if (pg_interrupted)
		return fail(r, PG_ERROR, "interrupted");
	return PG_OK;
}

/*
 * Grows the iteration count until one step lasts at least min_time. The
 * first probe, one iteration, is also the warm-up (caches, TLB, first-touch
 * page faults); the step that reaches min_time is not kept as a sample.
 */
static int calibrate(struct team *t, double min_time, uint64_t *iters_out, struct pg_result *r)
{
	uint64_t iters = 1;
	for (int k = 0; k < MAX_CALIBRATION_STEPS; k++) {
		double el = team_step(t, iters);
		struct worker *bad = team_failed(t);
		if (bad)
			return fail(r, (enum pg_status)bad->rc, bad->ctx.msg);
		if (pg_interrupted)
			return fail(r, PG_ERROR, "interrupted");
		if (el >= min_time || iters >= MAX_ITERS)
			break;
		uint64_t next;
		if (el < min_time / 100 || el <= 0)
			next = iters * 10;
		else
			next = (uint64_t)ceil((double)iters * min_time * 1.05 / el);
		iters = next > iters ? next : iters + 1;
		if (iters > MAX_ITERS)
			iters = MAX_ITERS;
	}
	*iters_out = iters;
	return PG_OK;
}

static double hist_value(const struct pg_metric *m, const struct pg_hist *h)
{
	double ns = m->kind == PG_HIST_MEAN ? pg_hist_mean(h) : pg_hist_quantile(h, m->q);
	return ns * m->scale;
}

/* How often a benchmark is set up again when setup's overhead measurement
 * turns out larger than a sample (a busy moment during setup). */
#define BUSY_SETUP_TRIES 3

static const char *const stop_names[] = {
	[PG_STOP_RUNS] = "runs", [PG_STOP_INTERVAL] = "interval", [PG_STOP_MAX_RUNS] = "max_runs",
	[PG_STOP_TIME] = "time", [PG_STOP_BUDGET] = "budget", [PG_STOP_ONCE] = "once",
};

const char *pg_stop_name(enum pg_stop s)
{
	return (unsigned)s < sizeof(stop_names) / sizeof(stop_names[0]) ? stop_names[s] : "runs";
}

static double run_clock(const struct pg_run_opts *o)
{
	return o->clock ? o->clock() : pg_now();
}

/* Each metric's value for sample s from its elapsed time and the copies'
 * counts; -1 with r failed when the overhead to subtract was more than the
 * sample. */
static int sample_values(struct team *t, struct pg_result *r, int s, double el,
			 const struct pg_hist *sample_hist, int *busy_setup)
{
	const struct pg_bench *b = r->bench;
	int copies = r->copies;
	for (int m = 0; m < r->nmetrics; m++) {
		double sum = 0, over = 0;
		for (int i = 0; i < t->n; i++) {
			sum += t->w[i].counts[m];
			over += t->w[i].ctx.overhead[m] * t->w[i].counts[m];
		}
		/* The copies' summed overhead comes off their summed time.
		 * More overhead than time means setup's measurement and the
		 * sample saw different machines (a busy one): no figure. */
		double net = el;
		if (b->metrics[m].kind == PG_TIME_PER && over > 0) {
			net = el - over / copies;
			if (net <= 0) {
				char why[PG_MSG_LEN];
				snprintf(why, sizeof(why), "the overhead measured in setup "
					 "(%.3g s) is more than the sample took (%.3g s): the "
					 "machine was too busy, run again when it is quiet",
					 over / copies, el);
				fail(r, PG_ERROR, why);
				*busy_setup = 1;
				return -1;
			}
		}
		if (b->metrics[m].kind == PG_HIST_MEAN || b->metrics[m].kind == PG_HIST_Q) {
			r->values[m][s] = hist_value(&b->metrics[m], sample_hist);
		} else if (b->metrics[m].kind == PG_RATIO) {
			double primary = 0;
			for (int i = 0; i < t->n; i++)
				primary += t->w[i].counts[0];
			r->values[m][s] = pg_ratio_value(&b->metrics[m], sum, primary);
		} else {
			r->values[m][s] = pg_metric_value(&b->metrics[m], net, sum, copies);
		}
	}
	if (!b->siblings)
		return 0;
	/* the siblings' figures as the primary metric's: the copies' counts
	 * over the longest copy's seconds */
	int n = t->w[0].ctx.nsib;
	double sum[PG_MAX_SIBLINGS] = { 0 }, took[PG_MAX_SIBLINGS] = { 0 };
	for (int i = 0; i < t->n; i++)
		for (int j = 0; j < n && j < PG_MAX_SIBLINGS; j++) {
			sum[j] += t->w[i].ctx.sib_counts[j];
			took[j] = fmax(took[j], t->w[i].ctx.sib_s[j]);
		}
	pg_sib_sample(r, s, n, sum, took);
	return 0;
}

/*
 * Whether to take another sample, and if not why: a fixed count, or the
 * noise-aware rules (runner.h, pg_run_opts). The next sample is expected to
 * last as long as the longest so far.
 */
static int enough(const struct pg_result *r, const struct pg_run_opts *o, double used,
		  int capped_by_budget, enum pg_stop *why)
{
	int n = r->nsamples;
	if (o->runs > 0) {
		*why = PG_STOP_RUNS;
		return n >= o->runs;
	}
	int floor_runs = o->min_runs > PG_FLOOR_RUNS ? o->min_runs : PG_FLOOR_RUNS;
	if (o->prior) {
		if (pg_procs_last_enough(r->values[0], n, o, floor_runs, why))
			return 1;
	} else if (n >= floor_runs) {
		struct pg_stats st;
		pg_stats_compute(r->values[0], (size_t)n, &st);
		int together = o->procs > 1 && pg_median_coverage((size_t)(n * o->procs), 1) >= PG_CI_LEVEL;
		if ((st.ci_level >= PG_CI_LEVEL || together) && st.ci_rel <= o->ci_target) {
			*why = PG_STOP_INTERVAL;
			return 1;
		}
	}
	if (n >= (o->max_runs > 0 ? o->max_runs : PG_DYNAMIC_MAX_RUNS)) {
		*why = PG_STOP_MAX_RUNS;
		return 1;
	}
	if (n >= PG_FLOOR_RUNS && r->cap > 0) {
		double longest = 0;
		for (int s = 0; s < n; s++)
			longest = fmax(longest, r->elapsed[s]);
		if (used + longest > r->cap) {
			*why = capped_by_budget ? PG_STOP_BUDGET : PG_STOP_TIME;
			return 1;
		}
	}
	return 0;
}

/*
 * Whether the sample just taken (index r->nsamples) is kept, from what the
 * machine did since *e0 (which becomes now). Within a result's time (the
 * noise-aware runner's), a disturbed sample is taken again while there is
 * time and room (PG_MAX_RETAKES), until PG_DISTURBED_IN_ROW of them in a
 * row (*in_row) say the disturbance outlasts a sample: then it is kept and
 * counted as disturbed, as a retake would be disturbed too. With no time
 * left it is dropped when the result has its floor of samples (*stop:
 * sampling ends), else kept and counted as disturbed. --runs N keeps its N
 * samples, disturbed or not.
 */
static int keep_sample(struct pg_result *r, const struct pg_run_opts *o, struct pg_env_mark *e0, double used,
		       int by_budget, int *in_row, int *stop)
{
	struct pg_env_mark e1;
	struct pg_env_seen seen;
	pg_env_mark(o->env, &e1);
	pg_env_diff(o->env, e0, &e1, o->env_base, &seen);
	*e0 = e1;
	if (!seen.why)
		*in_row = 0;
	else
		++*in_row;
	if (!seen.why || r->bench->once || o->runs > 0) {
		pg_env_add(&r->env, &seen);
		return 1;
	}
	int needed = o->min_runs > PG_FLOOR_RUNS ? o->min_runs : PG_FLOOR_RUNS;
	double longest = 0;
	for (int s = 0; s <= r->nsamples; s++)
		longest = fmax(longest, r->elapsed[s]);
	int time_left = !(r->cap > 0 && used + longest > r->cap);
	if (r->env.dropped < PG_MAX_RETAKES * needed && time_left && *in_row <= PG_DISTURBED_IN_ROW) {
		r->env.dropped++;
		return 0;
	}
	if (!time_left && r->nsamples >= PG_FLOOR_RUNS) {
		r->env.dropped++;
		r->stop = by_budget ? PG_STOP_BUDGET : PG_STOP_TIME;
		*stop = 1;
		return 0;
	}
	pg_env_add(&r->env, &seen);
	return 1;
}

/* One attempt at a result: t0 is when the result began (on the run's
 * clock), r->cap and by_budget its time (see pg_run_bench). */
/* The threads are up: the pins they got, setup, the iterations a sample
 * does, the histograms. -1 with r failed. */
static int set_up(struct team *t, const struct pg_bench *b, const struct pg_run_opts *o, struct pg_result *r,
		  uint64_t *iters, struct pg_hist **sample_hist)
{
	for (int i = 0; i < t->n; i++)
		if (t->w[i].cpu == -2) {
			snprintf(r->reason, sizeof(r->reason), "could not pin copy %d to the CPU asked for", i);
			r->status = PG_ERROR;
			return -1;
		}
	team_do(t, CMD_SETUP, 0);
	struct worker *bad = team_failed(t);
	if (bad) {
		fail(r, (enum pg_status)bad->rc, bad->ctx.msg);
		return -1;
	}
	*iters = 1;
	if (!b->trial && !b->once && o->iters > 0) {
		if (warm_up(t, r) != PG_OK)
			return -1;
		*iters = o->iters;
	} else if (!b->trial && !b->once && calibrate(t, o->min_time, iters, r) != PG_OK) {
		return -1;
	}
	r->iters = *iters;
	/* One sample's latencies, and all samples' together (what the guide
	 * plots). */
	if (t->w[0].ctx.hist && (!(r->hist = calloc(1, sizeof(*r->hist))) ||
				 !(*sample_hist = malloc(sizeof(**sample_hist))))) {
		fail(r, PG_ERROR, "out of memory for the latency histogram");
		return -1;
	}
	return 0;
}

/* What a result's samples add up besides their values. */
struct sampling {
	struct team *t;
	uint64_t iters;
	struct pg_hist *sample_hist;
	double remote_sum, remote_s;	/* the peer's busy share, weighted by time */
	int room;
};

/* Sample number r->nsamples, not yet counted: -1 with r failed. */
static int take_sample(struct sampling *sp, struct pg_result *r, int *busy_setup)
{
	struct team *t = sp->t;
	if (pg_result_grow(r, &sp->room) < 0) {
		fail(r, PG_ERROR, "out of memory for the samples");
		return -1;
	}
	int s = r->nsamples;
	t->w[0].ctx.remote_busy_pct = -1;
	double el = team_step(t, sp->iters);
	struct worker *bad = team_failed(t);
	if (bad) {
		fail(r, (enum pg_status)bad->rc, bad->ctx.msg);
		return -1;
	}
	if (pg_interrupted) {
		fail(r, PG_ERROR, "interrupted");
		return -1;
	}
	/* The copies' counts cover the longest of their windows (fio's
	 * aggregate bandwidth divides by the longest job's runtime). */
	double counted = 0;
	for (int i = 0; i < t->n; i++)
		if (t->w[i].ctx.counted_s > counted)
			counted = t->w[i].ctx.counted_s;
	if (r->bench->trial && counted > 0)
		el = counted;
	r->elapsed[s] = el;
	if (t->w[0].ctx.remote_busy_pct >= 0) {
		sp->remote_sum += t->w[0].ctx.remote_busy_pct * el;
		sp->remote_s += el;
	}
	if (r->hist) {
		pg_hist_reset(sp->sample_hist);
		for (int i = 0; i < t->n; i++)
			pg_hist_merge(sp->sample_hist, t->w[i].ctx.hist);
	}
	return sample_values(t, r, s, el, sp->sample_hist, busy_setup);
}

/* Samples until enough (or a failure: -1), then the CPU load and the
 * conditions they were taken in. */
static int take_samples(struct sampling *sp, const struct pg_run_opts *o, struct pg_result *r, int *busy_setup,
			double t0, int by_budget)
{
	struct pg_cpu_mark c0, c1;
	struct pg_env_mark e0;
	int in_row = 0;	/* disturbed samples in a row (keep_sample) */
	pg_cpu_mark(&c0);
	if (o->env) {
		r->have_env = 1;
		pg_env_mark(o->env, &e0);
	}
	for (;;) {
		if (take_sample(sp, r, busy_setup) < 0)
			return -1;
		int stop = 0;
		if (o->env && !keep_sample(r, o, &e0, run_clock(o) - t0, by_budget, &in_row, &stop)) {
			if (stop)
				break;
			continue;
		}
		if (r->hist)
			pg_hist_merge(r->hist, sp->sample_hist);
		r->nsamples++;
		/* the CPU's speed after the first sample (busy, so a governor
		 * has raised the clock) and after the last */
		if (o->env && r->nsamples == 1)
			pg_env_probe(o->env, &r->env);
		if (r->bench->once) {
			if (r->nsamples < pg_once_samples(r->bench, r->args, o))
				continue;
			r->stop = PG_STOP_ONCE;
			break;
		}
		if (enough(r, o, run_clock(o) - t0, by_budget, &r->stop))
			break;
	}
	pg_cpu_mark(&c1);
	pg_cpu_load(&c0, &c1, &r->cpu);
	if (o->env && r->nsamples > 1)
		pg_env_probe(o->env, &r->env);
	if (o->env && r->nsamples > 0)
		pg_env_cache_probe(o->env, &r->env);
	if (r->have_env) {
		r->env.history = sp->t->w[0].ctx.history;
		r->disturbed = pg_env_judge(&r->env);
	}
	if (sp->remote_s > 0) {
		r->cpu.have_remote = 1;
		r->cpu.remote_busy_pct = sp->remote_sum / sp->remote_s;
	}
	return 0;
}

int pg_once_samples(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o)
{
	if (!b->samples_param)
		return 1;
	int64_t n = o->runs > 0 ? o->runs : pg_arg_int(a, b->samples_param);
	return n > 1 ? (int)n : 1;
}

/* After the samples: the benchmark checks what it computed, then each
 * metric's statistics. */
static void verify(struct team *t, struct pg_result *r)
{
	team_do(t, CMD_VERIFY, 0);
	struct worker *bad = team_failed(t);
	if (bad) {
		fail(r, PG_ERROR, bad->ctx.msg);
		return;
	}
	for (int m = 0; m < r->nmetrics; m++) {
		pg_stats_compute(r->values[m], (size_t)r->nsamples, &r->stats[m]);
		/* one figure whose spread its benchmark knows */
		pg_stats_stated(&r->stats[m], t->w[0].ctx.log_se[m], t->w[0].ctx.log_se_df[m]);
	}
	snprintf(r->note, sizeof(r->note), "%s", t->w[0].ctx.note);
}

static int run_once(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o,
		    struct pg_result *r, int *busy_setup, double t0, double cap, int by_budget)
{
	memset(r, 0, sizeof(*r));
	r->bench = b;
	r->args = a;
	r->nmetrics = pg_metric_count(b);
	r->started = pg_wall_time();
	r->cap = cap;
	/* Benchmarks made of others (pg_ctx.run) run them within this result:
	 * no share of the budget of their own. */
	struct pg_run_opts inner = *o;
	inner.budget = NULL;
	int copies = 1;
	if (b->copies_param) {
		int64_t c = pg_arg_int(a, b->copies_param);
		copies = c > 0 ? (int)c : 1;
	}
	r->copies = copies;

	struct team t;
	if (team_start(&t, copies, b, a, &inner) < 0) {
		fail(r, PG_ERROR, "could not start the benchmark's threads");
		r->finished = pg_wall_time();
		return r->status;
	}
	struct sampling sp = { .t = &t };
	if (set_up(&t, b, o, r, &sp.iters, &sp.sample_hist) == 0 &&
	    take_samples(&sp, o, r, busy_setup, t0, by_budget) == 0)
		verify(&t, r);
	free(sp.sample_hist);
	team_stop(&t);
	r->finished = pg_wall_time();
	return r->status;
}

double pg_result_time(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o, double t0,
		      int *by_budget)
{
	/* This result's time: the cap, or its share of the budget (core/budget.c:
	 * never below its floor, the floors of those after it kept back),
	 * whichever is less. */
	*by_budget = 0;
	double cap = o->runs > 0 ? 0 : o->max_time;
	if (o->budget) {
		double share = pg_budget_take(o->budget, b, a, o, t0);
		if (share < 1e-9)
			share = 1e-9;	/* spent: the floor of samples only (0 is no cap) */
		if (o->runs == 0 && (cap <= 0 || share < cap)) {
			cap = share;
			*by_budget = 1;
		}
	}
	return cap;
}

int pg_run_bench(const struct pg_bench *b, const struct pg_args *a,
		 const struct pg_run_opts *o, struct pg_result *r)
{
	double t0 = run_clock(o);
	int by_budget;
	double cap = pg_result_time(b, a, o, t0, &by_budget);
	/* An overhead measured while the machine was busy would void every
	 * sample: set the benchmark up again, which measures it again. */
	for (int k = 1;; k++) {
		int busy_setup = 0;
		int st = run_once(b, a, o, r, &busy_setup, t0, cap, by_budget);
		if (!busy_setup || k == BUSY_SETUP_TRIES || pg_interrupted)
			return st;
		pg_result_free(r);
	}
}

