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
#include "timer.h"

volatile sig_atomic_t pg_interrupted;

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
 * when the last one is done. One copy is a team of one, so there is a single
 * path for both.
 */
struct team {
	pthread_mutex_t lock;
	pthread_cond_t posted, finished;
	unsigned long generation;	/* bumped for every command */
	int pending;			/* copies still running the command */
	enum cmd cmd;
	uint64_t iters;
	int n;				/* threads started */
	int cap;			/* workers allocated */
	struct worker *w;
	double (*clock)(void);
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
	team_do(t, CMD_EXIT, 0);
	for (int i = 0; i < t->n; i++)
		pthread_join(t->w[i].thread, NULL);
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

	/* Copies must not take the signals meant for the run as a whole. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (int i = 0; i < n; i++) {
		struct worker *w = &t->w[i];
		w->team = t;
		w->ctx.bench = b;
		w->ctx.args = a;
		w->ctx.copy = i;
		w->ctx.copies = n;
		w->ctx.run = o;
		w->cpu = o->cpus && o->ncpus ? o->cpus[i % o->ncpus] : -1;
		if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
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

static int run_once(const struct pg_bench *b, const struct pg_args *a,
		    const struct pg_run_opts *o, struct pg_result *r, int *busy_setup)
{
	struct pg_hist *sample_hist = NULL;
	memset(r, 0, sizeof(*r));
	r->bench = b;
	r->args = a;
	r->nmetrics = pg_metric_count(b);
	r->started = pg_wall_time();
	int copies = 1;
	if (b->copies_param) {
		int64_t c = pg_arg_int(a, b->copies_param);
		copies = c > 0 ? (int)c : 1;
	}
	r->copies = copies;

	struct team t;
	if (team_start(&t, copies, b, a, o) < 0) {
		fail(r, PG_ERROR, "could not start the benchmark's threads");
		r->finished = pg_wall_time();
		return r->status;
	}
	for (int i = 0; i < t.n; i++)
		if (t.w[i].cpu == -2) {
			snprintf(r->reason, sizeof(r->reason),
				 "could not pin copy %d to the CPU asked for", i);
			r->status = PG_ERROR;
		}
	if (r->status != PG_OK)
		goto out;

	team_do(&t, CMD_SETUP, 0);
	struct worker *bad = team_failed(&t);
	if (bad) {
		fail(r, (enum pg_status)bad->rc, bad->ctx.msg);
		goto out;
	}

	uint64_t iters = 1;
	int runs = o->runs > 0 ? o->runs : 1;
	if (b->once) {
		runs = 1;
	} else if (b->trial) {
		iters = 1;
	} else if (o->iters > 0) {
		if (warm_up(&t, r) != PG_OK)
			goto out;
		iters = o->iters;
	} else if (calibrate(&t, o->min_time, &iters, r) != PG_OK) {
		goto out;
	}
	r->iters = iters;
	/* One sample's latencies, and all samples' together (what the guide
	 * plots). */
	if (t.w[0].ctx.hist && (!(r->hist = calloc(1, sizeof(*r->hist))) ||
				!(sample_hist = malloc(sizeof(*sample_hist))))) {
		fail(r, PG_ERROR, "out of memory for the latency histogram");
		goto out;
	}
	r->elapsed = calloc((size_t)runs, sizeof(double));
	for (int m = 0; m < r->nmetrics; m++)
		r->values[m] = calloc((size_t)runs, sizeof(double));

	struct pg_cpu_mark c0, c1;
	double remote_sum = 0, remote_s = 0;
	pg_cpu_mark(&c0);
	for (int s = 0; s < runs; s++) {
		t.w[0].ctx.remote_busy_pct = -1;
		double el = team_step(&t, iters);
		if ((bad = team_failed(&t))) {
			fail(r, (enum pg_status)bad->rc, bad->ctx.msg);
			goto out;
		}
		if (pg_interrupted) {
			fail(r, PG_ERROR, "interrupted");
			goto out;
		}
		/* The copies' counts cover the longest of their windows (fio's
		 * aggregate bandwidth divides by the longest job's runtime). */
		double counted = 0;
		for (int i = 0; i < t.n; i++)
			if (t.w[i].ctx.counted_s > counted)
				counted = t.w[i].ctx.counted_s;
		if (b->trial && counted > 0)
			el = counted;
		r->elapsed[s] = el;
		if (t.w[0].ctx.remote_busy_pct >= 0) {
			remote_sum += t.w[0].ctx.remote_busy_pct * el;
			remote_s += el;
		}
		if (r->hist) {
			pg_hist_reset(sample_hist);
			for (int i = 0; i < t.n; i++)
				pg_hist_merge(sample_hist, t.w[i].ctx.hist);
			pg_hist_merge(r->hist, sample_hist);
		}
		for (int m = 0; m < r->nmetrics; m++) {
			double sum = 0, over = 0;
			for (int i = 0; i < t.n; i++) {
				sum += t.w[i].counts[m];
				over += t.w[i].ctx.overhead[m] * t.w[i].counts[m];
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
					goto out;
				}
			}
			if (b->metrics[m].kind == PG_HIST_MEAN || b->metrics[m].kind == PG_HIST_Q) {
				r->values[m][s] = hist_value(&b->metrics[m], sample_hist);
			} else if (b->metrics[m].kind == PG_RATIO) {
				double primary = 0;
				for (int i = 0; i < t.n; i++)
					primary += t.w[i].counts[0];
				r->values[m][s] = pg_ratio_value(&b->metrics[m], sum, primary);
			} else {
				r->values[m][s] = pg_metric_value(&b->metrics[m], net, sum, copies);
			}
		}
		r->nsamples++;
	}
	pg_cpu_mark(&c1);
	pg_cpu_load(&c0, &c1, &r->cpu);
	if (remote_s > 0) {
		r->cpu.have_remote = 1;
		r->cpu.remote_busy_pct = remote_sum / remote_s;
	}

	team_do(&t, CMD_VERIFY, 0);
	if ((bad = team_failed(&t))) {
		fail(r, PG_ERROR, bad->ctx.msg);
		goto out;
	}
	for (int m = 0; m < r->nmetrics; m++)
		pg_stats_compute(r->values[m], (size_t)r->nsamples, &r->stats[m]);
	snprintf(r->note, sizeof(r->note), "%s", t.w[0].ctx.note);
out:
	free(sample_hist);
	team_stop(&t);
	r->finished = pg_wall_time();
	return r->status;
}

int pg_run_bench(const struct pg_bench *b, const struct pg_args *a,
		 const struct pg_run_opts *o, struct pg_result *r)
{
	/* An overhead measured while the machine was busy would void every
	 * sample: set the benchmark up again, which measures it again. */
	for (int k = 1;; k++) {
		int busy_setup = 0;
		int st = run_once(b, a, o, r, &busy_setup);
		if (!busy_setup || k == BUSY_SETUP_TRIES || pg_interrupted)
			return st;
		pg_result_free(r);
	}
}

void pg_result_free(struct pg_result *r)
{
	free(r->hist);
	r->hist = NULL;
	free(r->elapsed);
	r->elapsed = NULL;
	for (int m = 0; m < PG_MAX_METRICS; m++) {
		free(r->values[m]);
		r->values[m] = NULL;
	}
}
