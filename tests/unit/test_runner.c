/* SPDX-License-Identifier: MIT */
/* The runner against benchmarks whose work and counts are known exactly. */
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "core/params.h"
#include "core/runner.h"
#include "core/timer.h"
#include "bench_args.h"
#include "fake_root.h"

/* A known workload on a virtual clock: each iteration takes exactly 20
 * microseconds and counts 1000 "bytes" and 1 "op", so every figure the
 * runner derives can be checked exactly, however loaded the machine is. */
#define ITER_S 20e-6

static _Atomic double virtual_now;
static double virtual_clock(void)
{
	return virtual_now;
}

static int setups, teardowns, verifies;
static pthread_t setup_threads[8];
static pthread_t step_thread;
static cpu_set_t step_cpus;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct fake_priv {
	uint64_t iters_done;
};

/* How much longer than ITER_S an iteration takes in this step: the modes
 * that make noise draw from a fixed sequence, so each test's samples are
 * the same on every run. */
static uint64_t noise_state;
static int steps_taken;
static double step_factor(const char *mode)
{
	steps_taken++;
	noise_state = noise_state * 6364136223846793005ULL + 1442695040888963407ULL;
	double u = (double)(noise_state >> 11) / 9007199254740992.0;	/* [0, 1) */
	if (strcmp(mode, "noisy") == 0)
		return 0.8 + 0.4 * u;		/* +/- 20%: never within 2% */
	if (strcmp(mode, "jitter") == 0)
		return 0.97 + 0.06 * u;		/* +/- 3%: within 2% after some samples */
	if (strcmp(mode, "bimodal") == 0)
		return steps_taken % 3 ? 1.0 : 1.3;	/* a third of the steps 30% slower */
	return 1.0;
}

static int fake_setup(struct pg_ctx *ctx)
{
	pthread_mutex_lock(&lock);
	setup_threads[setups++ % 8] = pthread_self();
	pthread_mutex_unlock(&lock);
	ctx->priv = calloc(1, sizeof(struct fake_priv));
	const char *mode = pg_arg_str(ctx->args, "mode");
	if (strcmp(mode, "skip") == 0)
		return pg_skip(ctx, "no such device: load the firmware");
	if (strcmp(mode, "setup-error") == 0 && ctx->copy == 1)
		return pg_error(ctx, "copy %d could not start", ctx->copy);
	if (strcmp(mode, "meddle") == 0) {
		/* what os.ctx's cpu= and os.sig's handlers do to their thread */
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(sched_getcpu(), &one);
		sched_setaffinity(0, sizeof(one), &one);
		sigset_t usr1;
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
	}
	pg_note(ctx, "copy %d of %d", ctx->copy, ctx->copies);
	return PG_OK;
}

/* Other processes' CPU time in a fake /proc/stat: a step in mode
 * "disturbed" (every step) or "half-disturbed" (every other) adds 10 s of
 * it, which the runner's look at the machine after the sample sees. */
static unsigned long long others_ticks;
static void disturb(const char *mode)
{
	if (strcmp(mode, "disturbed") != 0 && (strcmp(mode, "half-disturbed") != 0 || steps_taken % 2))
		return;
	others_ticks += 1000;
	char line[128];
	snprintf(line, sizeof(line), "cpu  %llu 0 0 %llu 0 0 0 0 0 0\n", others_ticks, 100000 + others_ticks);
	PUTS("/proc/stat", line);
}

static int fake_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct fake_priv *p = ctx->priv;
	disturb(pg_arg_str(ctx->args, "mode"));
	if (strcmp(pg_arg_str(ctx->args, "mode"), "step-error") == 0 && p->iters_done > 0)
		return pg_error(ctx, "the device stopped answering");
	/* Copies run side by side: only the first one moves the clock. */
	if (ctx->copy == 0) {
		virtual_now = virtual_now + ITER_S * (double)iters * step_factor(pg_arg_str(ctx->args, "mode"));
		step_thread = pthread_self();
		pthread_getaffinity_np(step_thread, sizeof(step_cpus), &step_cpus);
	}
	p->iters_done += iters;
	counts[0] = 1000.0 * (double)iters;
	counts[1] = (double)iters;
	return PG_OK;
}

static int fake_verify(struct pg_ctx *ctx)
{
	pthread_mutex_lock(&lock);
	verifies++;
	pthread_mutex_unlock(&lock);
	if (strcmp(pg_arg_str(ctx->args, "mode"), "wrong-answer") == 0)
		return pg_error(ctx, "checksum mismatch");
	return PG_OK;
}

static void fake_teardown(struct pg_ctx *ctx)
{
	pthread_mutex_lock(&lock);
	teardowns++;
	pthread_mutex_unlock(&lock);
	free(ctx->priv);
}

static const struct pg_param fake_params[] = {
	{ .name = "copies", .type = PG_P_INT, .def = "1", .min = 1, .max = 8, .help = "h" },
	{ .name = "mode", .type = PG_P_STR, .def = "ok", .help = "h" },
	{ 0 },
};

static const struct pg_metric fake_metrics[] = {
	{ "bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ "latency", "us", PG_TIME_PER, 1e6, 0, 0 },
	{ 0 },
};

static const struct pg_bench fake = {
	.id = "test.fake", .title = "fake", .params = fake_params, .metrics = fake_metrics,
	.copies_param = "copies", .setup = fake_setup, .step = fake_step,
	.verify = fake_verify, .teardown = fake_teardown,
};

static struct pg_args args_for(const char *copies, const char *mode)
{
	struct pg_args a;
	char err[100];
	memset(&a, 0, sizeof(a));
	a.n = 2;
	pg_value_parse(&fake_params[0], copies, &a.v[0], err, sizeof(err));
	pg_value_parse(&fake_params[1], mode, &a.v[1], err, sizeof(err));
	return a;
}

static int reset(void **state)
{
	(void)state;
	setups = teardowns = verifies = 0;
	pg_interrupted = 0;
	noise_state = 42;
	steps_taken = 0;
	return 0;
}

static void calibrates_samples_and_counts(void **state)
{
	(void)state;
	struct pg_args a = args_for("1", "ok");
	struct pg_run_opts o = { .runs = 4, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, 4);
	assert_int_equal(r.nmetrics, 2);
	assert_int_equal(r.copies, 1);
	/* calibration: every sample lasts at least min_time, and not much more */
	for (int s = 0; s < r.nsamples; s++) {
		assert_float_equal(r.elapsed[s], ITER_S * (double)r.iters, 1e-9);
		assert_true(r.elapsed[s] >= 0.01 - 1e-12);
		assert_true(r.elapsed[s] < 0.012);
	}
	/* each value is exactly what was counted over the sample's time */
	for (int s = 0; s < r.nsamples; s++) {
		assert_float_equal(r.values[0][s], 1000.0 * (double)r.iters / r.elapsed[s] * 1e-6, 1e-9);
		assert_float_equal(r.values[1][s], r.elapsed[s] / (double)r.iters * 1e6, 1e-9);
	}
	/* 1000 bytes per 20 us is 50 MB/s; 20 us per op */
	assert_float_equal(r.stats[0].median, 50, 1e-6);
	assert_float_equal(r.stats[0].cv, 0, 1e-9);
	assert_float_equal(r.stats[1].median, 20, 1e-6);
	assert_string_equal(r.note, "copy 0 of 1");
	assert_int_equal(setups, 1);
	assert_int_equal(verifies, 1);
	assert_int_equal(teardowns, 1);
	pg_result_free(&r);
}

static void fixed_iterations_are_not_calibrated(void **state)
{
	(void)state;
	struct pg_args a = args_for("1", "ok");
	struct pg_run_opts o = { .runs = 4, .min_time = 100, .iters = 7, .clock = virtual_clock };
	struct pg_result r;
	double t0 = virtual_now;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, 4);
	assert_int_equal(r.iters, 7);
	/* one warm-up iteration, then exactly --iterations per sample: the
	 * work a simulator counts is 1 + runs * iters, whatever min_time says */
	assert_float_equal((virtual_now - t0) / ITER_S, 1 + 4 * 7, 1e-6);
	for (int s = 0; s < r.nsamples; s++)
		assert_float_equal(r.elapsed[s], 7 * ITER_S, 1e-12);
	assert_float_equal(r.stats[0].median, 50, 1e-6);
	pg_result_free(&r);
}

static void copies_run_in_their_own_threads_and_add_up(void **state)
{
	(void)state;
	struct pg_args a = args_for("3", "ok");
	struct pg_run_opts o = { .runs = 3, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_int_equal(r.copies, 3);
	assert_int_equal(setups, 3);
	assert_int_equal(teardowns, 3);
	assert_int_equal(verifies, 3);
	assert_false(pthread_equal(setup_threads[0], setup_threads[1]));
	assert_false(pthread_equal(setup_threads[1], setup_threads[2]));
	assert_false(pthread_equal(setup_threads[0], pthread_self()));
	assert_float_equal(r.stats[0].median, 150, 1e-6);	/* three copies of 50 MB/s */
	assert_float_equal(r.stats[1].median, 20, 1e-6);	/* each still 20 us per op */
	for (int s = 0; s < r.nsamples; s++) {
		/* rates add up over copies ... */
		assert_float_equal(r.values[0][s], 3 * 1000.0 * (double)r.iters / r.elapsed[s] * 1e-6, 1e-9);
		/* ... and time per operation is per copy */
		assert_float_equal(r.values[1][s], r.elapsed[s] * 3 / (3.0 * (double)r.iters) * 1e6, 1e-9);
	}
	pg_result_free(&r);
}

/* One copy runs on the calling thread, so the process has no second thread
 * (which makes Linux take a file reference on every descriptor call); the
 * thread's affinity and signal mask are the caller's again afterwards. */
static void one_copy_runs_on_the_calling_thread(void **state)
{
	(void)state;
	cpu_set_t before, after;
	sigset_t mask_before, mask_after;
	pthread_getaffinity_np(pthread_self(), sizeof(before), &before);
	pthread_sigmask(SIG_SETMASK, NULL, &mask_before);
	struct pg_args a = args_for("1", "meddle");
	struct pg_run_opts o = { .runs = 2, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_true(pthread_equal(setup_threads[0], pthread_self()));
	assert_true(pthread_equal(step_thread, pthread_self()));
	assert_int_equal(teardowns, 1);
	pthread_getaffinity_np(pthread_self(), sizeof(after), &after);
	assert_true(CPU_EQUAL(&before, &after));
	pthread_sigmask(SIG_SETMASK, NULL, &mask_after);
	for (int sig = 1; sig < SIGRTMIN; sig++)
		assert_int_equal(sigismember(&mask_before, sig), sigismember(&mask_after, sig));
	pg_result_free(&r);
}

/* --cpu pins the one copy: the calling thread runs its steps on that CPU
 * only, and gets its own affinity back. */
static void one_copy_is_pinned_and_unpinned(void **state)
{
	(void)state;
	cpu_set_t before, after;
	pthread_getaffinity_np(pthread_self(), sizeof(before), &before);
	int cpu = -1;
	for (int c = CPU_SETSIZE - 1; c >= 0; c--)
		if (CPU_ISSET(c, &before))
			cpu = c;
	assert_true(cpu >= 0);
	struct pg_args a = args_for("1", "ok");
	struct pg_run_opts o = { .runs = 2, .min_time = 0.01, .clock = virtual_clock,
				 .cpus = &cpu, .ncpus = 1 };
	struct pg_result r;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_int_equal(CPU_COUNT(&step_cpus), 1);
	assert_true(CPU_ISSET(cpu, &step_cpus));
	pthread_getaffinity_np(pthread_self(), sizeof(after), &after);
	assert_true(CPU_EQUAL(&before, &after));
	pg_result_free(&r);
}

/* --- the noise-aware mode (runs = 0) --- */

/* Exact samples agree at once: the least samples that give the median a 95%
 * interval (6: the range), then stop. */
static void samples_that_agree_stop_at_the_minimum(void **state)
{
	(void)state;
	struct pg_args a = args_for("1", "ok");
	struct pg_run_opts o = { .min_runs = 3, .max_runs = 50, .ci_target = 0.02,
				 .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, 6);
	assert_int_equal(r.stop, PG_STOP_INTERVAL);
	assert_string_equal(pg_stop_name(r.stop), "interval");
	assert_true(r.stats[0].ci_level >= PG_CI_LEVEL);
	assert_float_equal(r.stats[0].ci_rel, 0, 1e-9);
	/* min_runs above 6 is honoured */
	o.min_runs = 9;
	pg_result_free(&r);
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, 9);
	pg_result_free(&r);
}

/* +/- 3% noise: more samples until the interval is within +/- 2%, and
 * the interval the result carries is that one. */
static void jitter_samples_until_the_interval_is_narrow(void **state)
{
	(void)state;
	struct pg_args a = args_for("1", "jitter");
	struct pg_run_opts o = { .min_runs = 3, .max_runs = 200, .ci_target = 0.01,
				 .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_int_equal(r.stop, PG_STOP_INTERVAL);
	assert_true(r.nsamples > 6 && r.nsamples < 200);
	assert_true(r.stats[0].ci_rel <= 0.01);
	assert_true(r.stats[0].ci_level >= PG_CI_LEVEL);
	/* one sample fewer had not got there */
	struct pg_stats fewer;
	pg_stats_compute(r.values[0], (size_t)r.nsamples - 1, &fewer);
	assert_true(fewer.ci_rel > 0.01 || fewer.ci_level < PG_CI_LEVEL);
	pg_result_free(&r);
}

/* +/- 20% noise never gets within 2%: max_runs, or the time cap, ends it. */
static void noise_stops_at_max_runs_or_the_time_cap(void **state)
{
	(void)state;
	struct pg_args a = args_for("1", "noisy");
	struct pg_run_opts o = { .min_runs = 5, .max_runs = 12, .ci_target = 0.02,
				 .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, 12);
	assert_int_equal(r.stop, PG_STOP_MAX_RUNS);
	assert_true(r.stats[0].ci_rel > 0.02);
	pg_result_free(&r);

	/* A cap of 0.1 s: calibration and samples of about 0.01 s each, and
	 * no sample that would end past the cap. */
	o.max_runs = 1000;
	o.max_time = 0.1;
	double t0 = virtual_now;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_int_equal(r.stop, PG_STOP_TIME);
	assert_string_equal(pg_stop_name(r.stop), "time");
	assert_true(virtual_now - t0 <= 0.1 + 1e-9);
	assert_true(r.nsamples >= 4);
	assert_float_equal(r.cap, 0.1, 0);
	pg_result_free(&r);

	/* A cap shorter than the floor still gives PG_FLOOR_RUNS samples. */
	o.max_time = 0.001;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, PG_FLOOR_RUNS);
	assert_int_equal(r.stop, PG_STOP_TIME);
	pg_result_free(&r);

	/* --runs is exact, noise or not */
	o.runs = 7;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, 7);
	assert_int_equal(r.stop, PG_STOP_RUNS);
	assert_float_equal(r.cap, 0, 0);
	pg_result_free(&r);
}

/* A budget is shared: results of equal floors may each use what is left
 * over the results left, so what one did not need goes to those after it
 * (test_budget.c: results of other floors). */
static void a_budget_is_shared_by_the_results_left(void **state)
{
	(void)state;
	struct pg_args quiet = args_for("1", "ok"), noisy = args_for("1", "noisy");
	struct pg_run_opts o = { .min_runs = 3, .max_runs = 1000, .ci_target = 0.02,
				 .min_time = 0.01, .max_time = 100, .clock = virtual_clock };
	struct pg_budget budget;
	pg_budget_init(&budget, 1.0, &o);
	pg_budget_add(&budget, &fake, &quiet, &o);
	pg_budget_add(&budget, &fake, &noisy, &o);
	pg_budget_add(&budget, &fake, &noisy, &o);
	o.budget = &budget;
	double t0 = virtual_now;
	struct pg_result r;

	/* The first result agrees at once: 6 samples, far less than 1/3 s. */
	assert_int_equal(pg_run_bench(&fake, &quiet, &o, &r), PG_OK);
	assert_int_equal(r.stop, PG_STOP_INTERVAL);
	assert_float_equal(r.cap, 1.0 / 3, 1e-9);
	double used1 = virtual_now - t0;
	assert_true(used1 < 0.1);
	pg_result_free(&r);

	/* The second gets half of what is left, and uses it up. */
	double t1 = virtual_now;
	assert_int_equal(pg_run_bench(&fake, &noisy, &o, &r), PG_OK);
	assert_int_equal(r.stop, PG_STOP_BUDGET);
	assert_string_equal(pg_stop_name(r.stop), "budget");
	assert_float_equal(r.cap, (1.0 - used1) / 2, 1e-9);
	assert_true(virtual_now - t1 <= r.cap + 1e-9);
	assert_true(virtual_now - t1 > r.cap - 0.03);
	pg_result_free(&r);

	/* The last gets the rest; the run ends within the budget. */
	double t2 = virtual_now;
	assert_int_equal(pg_run_bench(&fake, &noisy, &o, &r), PG_OK);
	assert_int_equal(r.stop, PG_STOP_BUDGET);
	assert_float_equal(r.cap, 1.0 - (t2 - t0), 1e-9);
	assert_true(virtual_now - t0 <= 1.0 + 1e-9);
	assert_int_equal(budget.left, 0);
	pg_result_free(&r);

	/* Past the budget, a result still has its floor of samples. */
	pg_budget_init(&budget, 0, &o);
	pg_budget_add(&budget, &fake, &noisy, &o);
	assert_int_equal(pg_run_bench(&fake, &noisy, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, PG_FLOOR_RUNS);
	assert_int_equal(r.stop, PG_STOP_BUDGET);
	pg_result_free(&r);
}

/* Samples from two machine states are flagged. */
static void two_speeds_are_flagged_bimodal(void **state)
{
	(void)state;
	struct pg_args a = args_for("1", "bimodal");
	struct pg_run_opts o = { .runs = 12, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_true(r.stats[0].bimodal);
	assert_true(r.stats[0].mode_hi / r.stats[0].mode_lo > 1.25);
	pg_result_free(&r);
	a = args_for("1", "jitter");
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_OK);
	assert_false(r.stats[0].bimodal);
	pg_result_free(&r);
}

static void skip_carries_the_reason_and_still_tears_down(void **state)
{
	(void)state;
	struct pg_args a = args_for("2", "skip");
	struct pg_run_opts o = { .runs = 3, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_SKIP);
	assert_string_equal(r.reason, "no such device: load the firmware");
	assert_int_equal(r.nsamples, 0);
	assert_int_equal(teardowns, 2);
	pg_result_free(&r);
}

static void errors_void_the_result(void **state)
{
	(void)state;
	const char *modes[] = { "setup-error", "step-error", "wrong-answer" };
	const char *why[] = { "copy 1 could not start", "the device stopped answering", "checksum mismatch" };
	for (int i = 0; i < 3; i++) {
		reset(NULL);
		struct pg_args a = args_for("2", modes[i]);
		struct pg_run_opts o = { .runs = 3, .min_time = 0.005, .clock = virtual_clock };
		struct pg_result r;
		assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_ERROR);
		assert_string_equal(r.reason, why[i]);
		assert_int_equal(teardowns, 2);
		pg_result_free(&r);
	}
}

static void interruption_stops_at_a_sample_boundary(void **state)
{
	(void)state;
	struct pg_args a = args_for("1", "ok");
	struct pg_run_opts o = { .runs = 1000, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	pg_interrupted = 1;
	assert_int_equal(pg_run_bench(&fake, &a, &o, &r), PG_ERROR);
	assert_string_equal(r.reason, "interrupted");
	assert_int_equal(teardowns, 1);
	pg_result_free(&r);
}

static int once_setup(struct pg_ctx *ctx)
{
	(void)ctx;
	return PG_OK;
}

/* The standard error of its log a fact states (pg_state_se); 0: none. */
static double once_se;

static int once_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	counts[0] = 4.25 * (double)iters;
	if (once_se > 0)
		pg_state_se(ctx, 0, once_se, 0);
	return PG_OK;
}

static const struct pg_metric value_metric[] = { { "boot", "s", PG_VALUE, 1, 0, 0 }, { 0 } };

static void facts_are_one_sample(void **state)
{
	(void)state;
	const struct pg_bench once = { .id = "test.once", .title = "once", .metrics = value_metric,
				       .once = 1, .setup = once_setup, .step = once_step };
	struct pg_args a = { 0 };
	struct pg_run_opts o = { .runs = 10, .min_time = 1, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench(&once, &a, &o, &r), PG_OK);
	/* no warm-up, no calibration towards min_time, no repetitions */
	assert_int_equal(r.nsamples, 1);
	assert_int_equal(r.stop, PG_STOP_ONCE);
	assert_int_equal(r.iters, 1);
	assert_float_equal(r.stats[0].median, 4.25, 0);
	/* no interval: the figure itself, coverage 0 */
	assert_float_equal(r.stats[0].ci_level, 0, 0);
	assert_float_equal(r.stats[0].ci_lo, 4.25, 0);
	assert_float_equal(r.stats[0].ci_hi, 4.25, 0);
	pg_result_free(&r);
	/* a figure derived from others states its log's se: still one
	 * sample, with that 95% interval (known se: the normal's 1.96) */
	once_se = 0.02;
	assert_int_equal(pg_run_bench(&once, &a, &o, &r), PG_OK);
	once_se = 0;
	assert_int_equal(r.nsamples, 1);
	const struct pg_stats *s = &r.stats[0];
	assert_float_equal(s->median, 4.25, 0);
	assert_float_equal(s->ci_level, PG_CI_LEVEL, 0);
	assert_float_equal(s->ci_lo, 4.25 * exp(-1.959964 * 0.02), 1e-6);
	assert_float_equal(s->ci_hi, 4.25 * exp(1.959964 * 0.02), 1e-6);
	assert_float_equal(s->ci_rel, expm1(1.959964 * 0.02), 1e-6);
	assert_float_equal(s->cv, 0, 0);
	pg_result_free(&r);
}

/* A search: prepare does its untimed part (2 virtual seconds), the step its
 * timed end (1 s), and each answers anew: 10, 30, 20, 50, 40... */
static int searches_prepared, searches_stepped;

static int search_prepare(struct pg_ctx *ctx, uint64_t iters)
{
	(void)ctx;
	(void)iters;
	virtual_now = virtual_now + 2.0;
	searches_prepared++;
	return PG_OK;
}

static int search_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	(void)ctx;
	(void)iters;
	static const double found[] = { 10, 30, 20, 50, 40 };
	assert_int_equal(searches_stepped, searches_prepared - 1);
	virtual_now = virtual_now + 1.0;
	counts[0] = found[searches_stepped++ % 5];
	return PG_OK;
}

/* A .once benchmark whose samples are searches takes as many as its
 * parameter says (--runs N: N), each prepared, and its median is the
 * median search's; its floor is that many searches. */
static void searches_are_the_samples_of_a_once_result(void **state)
{
	(void)state;
	static const struct pg_param params[] = {
		{ .name = "searches", .type = PG_P_INT, .def = "3", .min = 1, .max = 15 }, { 0 } };
	const struct pg_bench b = { .id = "test.search", .title = "search", .metrics = value_metric,
				    .params = params, .once = 1, .samples_param = "searches",
				    .setup = once_setup, .prepare = search_prepare, .step = search_step };
	struct pg_args a = bench_args(&b, NULL);
	struct pg_run_opts o = { .min_runs = 6, .max_runs = 30, .ci_target = 0.02, .min_time = 1,
				 .clock = virtual_clock };
	struct pg_result r;
	searches_prepared = searches_stepped = 0;
	assert_int_equal(pg_once_samples(&b, &a, &o), 3);
	assert_int_equal(pg_run_bench(&b, &a, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, 3);
	assert_int_equal(searches_prepared, 3);
	assert_int_equal(r.stop, PG_STOP_ONCE);
	assert_float_equal(r.stats[0].median, 20, 0);
	assert_float_equal(r.elapsed[0], 1, 1e-9);	/* the timed step only */
	pg_result_free(&r);

	a = bench_args(&b, "searches=5", NULL);
	searches_prepared = searches_stepped = 0;
	assert_int_equal(pg_run_bench(&b, &a, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, 5);
	assert_float_equal(r.stats[0].median, 30, 0);
	pg_result_free(&r);

	o.runs = 1;
	searches_prepared = searches_stepped = 0;
	assert_int_equal(pg_run_bench(&b, &a, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, 1);
	pg_result_free(&r);
	/* a plain fact stays one sample, --runs or not */
	const struct pg_bench fact = { .id = "test.once", .title = "once", .metrics = value_metric,
				       .params = params, .once = 1, .setup = once_setup, .step = once_step };
	o.runs = 4;
	assert_int_equal(pg_once_samples(&fact, &a, &o), 1);
}

/* A network-like trial: every step lasts 5 virtual seconds, whatever the
 * iteration count, sends 1e9 bytes costing 2 CPU seconds, and
 * reads its peer at 30 % busy then 50 %. */
static int trial_steps;
static const struct pg_metric trial_metrics[] = {
	{ "throughput", "Mbit/s", PG_RATE, 8e-6, 1, 0 },
	{ "service_demand", "us/KB", PG_RATIO, 1e9, 0, 0 },
	{ 0 },
};

static int trial_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	assert_int_equal(iters, 1);
	virtual_now = virtual_now + 5.0;
	counts[0] = 1e9;
	counts[1] = 2.0;
	ctx->remote_busy_pct = trial_steps++ % 2 ? 50 : 30;
	return PG_OK;
}

static void trials_are_not_calibrated(void **state)
{
	(void)state;
	const struct pg_bench b = { .id = "test.trial", .title = "trial", .metrics = trial_metrics,
				    .trial = 1, .step = trial_step };
	struct pg_args a = { 0 };
	struct pg_run_opts o = { .runs = 4, .min_time = 100, .clock = virtual_clock };
	struct pg_result r;
	trial_steps = 0;
	assert_int_equal(pg_run_bench(&b, &a, &o, &r), PG_OK);
	/* no warm-up step, no calibration towards min_time: --runs trials */
	assert_int_equal(trial_steps, 4);
	assert_int_equal(r.nsamples, 4);
	assert_int_equal(r.iters, 1);
	assert_float_equal(r.stats[0].median, 1600, 1e-9);	/* 1e9 B in 5 s */
	assert_float_equal(r.stats[1].median, 2, 1e-9);	/* 2e6 us per 1e6 KB */
	assert_true(r.cpu.have_remote);
	assert_float_equal(r.cpu.remote_busy_pct, 40, 1e-9);
	pg_result_free(&r);
}

/* A storage-like trial with a ramp: each step lasts 5 virtual seconds of
 * which the copy counted the last 4 (1e9 bytes). Rates divide by what was
 * counted: the longest of the copies' windows. */
static int ramp_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	(void)iters;
	assert_float_equal(ctx->counted_s, 0, 0);	/* cleared before each step */
	if (ctx->copy == 0)
		virtual_now = virtual_now + 5.0;
	counts[0] = 1e9;
	ctx->counted_s = ctx->copy == 0 ? 4.0 : 3.5;
	return PG_OK;
}

static void trials_divide_by_the_counted_window(void **state)
{
	(void)state;
	static const struct pg_param p[] = {
		{ .name = "copies", .type = PG_P_INT, .def = "2", .min = 1, .max = 8 },
		{ 0 },
	};
	const struct pg_bench b = { .id = "test.ramp", .title = "ramp", .params = p,
				    .metrics = trial_metrics, .copies_param = "copies",
				    .trial = 1, .step = ramp_step };
	struct pg_args a = bench_args(&b, NULL);
	struct pg_run_opts o = { .runs = 3, .min_time = 100, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench(&b, &a, &o, &r), PG_OK);
	assert_int_equal(r.nsamples, 3);
	assert_float_equal(r.elapsed[0], 4.0, 1e-12);
	assert_float_equal(r.stats[0].median, 2 * 1e9 * 8e-6 / 4.0, 1e-9);
	pg_result_free(&r);
}

static void metric_arithmetic(void **state)
{
	(void)state;
	const struct pg_metric rate = { "bw", "MB/s", PG_RATE, 1e-6, 1, 0 };
	const struct pg_metric per = { "lat", "ns", PG_TIME_PER, 1e9, 0, 0 };
	const struct pg_metric val = { "v", "x", PG_VALUE, 1, 1, 0 };
	assert_float_equal(pg_metric_value(&rate, 2.0, 8e6, 1), 4.0, 1e-12);
	assert_float_equal(pg_metric_value(&per, 1.0, 1e9, 1), 1.0, 1e-12);
	assert_float_equal(pg_metric_value(&per, 1.0, 2e9, 2), 1.0, 1e-12);
	assert_float_equal(pg_metric_value(&per, 1.0, 0, 1), 0, 0);
	assert_float_equal(pg_metric_value(&rate, 0, 5, 1), 0, 0);
	assert_float_equal(pg_metric_value(&val, 3.0, 7, 1), 7, 0);
	const struct pg_metric ratio = { "cpu", "us", PG_RATIO, 1e6, 0, 0 };
	assert_float_equal(pg_ratio_value(&ratio, 0.5, 1e6), 0.5, 1e-12);
	assert_float_equal(pg_ratio_value(&ratio, 0.5, 0), 0, 0);
}

/* A benchmark that subtracts an overhead measured in setup, as lat_ctx does:
 * the first `busy` setups measure it while "the machine was busy" (more
 * than a whole sample), later ones measure the true 5 us per iteration. */
static int busy_setups_left, over_setups;
static int over_setup(struct pg_ctx *ctx)
{
	over_setups++;
	ctx->overhead[0] = busy_setups_left-- > 0 ? 1.0 : 5e-6;
	return PG_OK;
}
static int over_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	(void)ctx;
	virtual_now = virtual_now + ITER_S * (double)iters;
	counts[0] = (double)iters;
	return PG_OK;
}
static const struct pg_metric over_metrics[] = {
	{ "latency", "us", PG_TIME_PER, 1e6, 0, 0 },
	{ 0 },
};
static const struct pg_bench over_bench = {
	.id = "test.overhead", .title = "overhead", .params = fake_params, .metrics = over_metrics,
	.setup = over_setup, .step = over_step,
};

static void busy_setup_is_measured_again(void **state)
{
	(void)state;
	struct pg_args a = args_for("1", "ok");
	struct pg_run_opts o = { .runs = 3, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	busy_setups_left = 1;
	over_setups = 0;
	assert_int_equal(pg_run_bench(&over_bench, &a, &o, &r), PG_OK);
	assert_int_equal(over_setups, 2);
	/* 20 us per iteration, 5 us of it overhead */
	assert_float_equal(r.stats[0].median, 15, 1e-6);
	pg_result_free(&r);

	/* Always busy: an error that says so, after three setups. */
	busy_setups_left = 100;
	over_setups = 0;
	assert_int_equal(pg_run_bench(&over_bench, &a, &o, &r), PG_ERROR);
	assert_int_equal(over_setups, 3);
	assert_non_null(strstr(r.reason, "too busy"));
	pg_result_free(&r);
}

/* With time to spare, disturbed samples are dropped and taken again, up
 * to PG_DISTURBED_IN_ROW in a row; --runs N keeps its N and says they
 * were disturbed; with no time left the floor of samples is kept,
 * disturbed. */
static void disturbed_samples_are_taken_again(void **state)
{
	(void)state;
	fake_root_make("runner");
	others_ticks = 0;
	PUTS("/proc/stat", "cpu  0 0 0 100000 0 0 0 0 0 0\n");
	struct pg_env env;
	struct pg_env_mark base;
	pg_env_open(&env);
	pg_env_mark(&env, &base);
	struct pg_result r;
	struct pg_args half = args_for("1", "half-disturbed"), all = args_for("1", "disturbed");
	struct pg_run_opts o = { .min_runs = 3, .max_runs = 1000, .ci_target = 0.02, .min_time = 0.01,
				 .max_time = 100, .clock = virtual_clock, .env = &env, .env_base = &base };
	assert_int_equal(pg_run_bench(&fake, &half, &o, &r), PG_OK);
	assert_true(r.have_env);
	assert_false(r.disturbed);
	assert_true(r.env.dropped > 0);
	assert_int_equal(r.env.disturbed, 0);
	assert_int_equal(r.env.n, r.nsamples);
	assert_true(r.nsamples >= 3);
	pg_result_free(&r);

	struct pg_run_opts fixed = { .runs = 4, .min_time = 0.01, .clock = virtual_clock, .env = &env,
				     .env_base = &base };
	assert_int_equal(pg_run_bench(&fake, &all, &fixed, &r), PG_OK);
	assert_int_equal(r.nsamples, 4);
	assert_true(r.disturbed);
	assert_int_equal(r.env.why, PG_ENV_OTHERS);
	assert_int_equal(r.env.disturbed, 4);
	assert_int_equal(r.env.dropped, 0);
	pg_result_free(&r);

	/* every sample disturbed: the disturbance lasts, so after
	 * PG_DISTURBED_IN_ROW retakes the samples are kept, disturbed, with
	 * the result's time to spare */
	assert_int_equal(pg_run_bench(&fake, &all, &o, &r), PG_OK);
	assert_true(r.disturbed);
	assert_int_equal(r.env.dropped, PG_DISTURBED_IN_ROW);
	assert_int_equal(r.env.disturbed, r.nsamples);
	assert_true(r.nsamples >= 3);
	assert_true(r.stop != PG_STOP_TIME);
	pg_result_free(&r);

	/* a short time: what it gives, never below the floor */
	o.max_time = 0.1;
	assert_int_equal(pg_run_bench(&fake, &all, &o, &r), PG_OK);
	assert_true(r.nsamples >= PG_FLOOR_RUNS);
	assert_true(r.disturbed);
	assert_true(r.env.dropped >= 1 && r.env.dropped <= PG_MAX_RETAKES * 3);
	pg_result_free(&r);
	fake_root_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(calibrates_samples_and_counts, reset),
		cmocka_unit_test_setup(fixed_iterations_are_not_calibrated, reset),
		cmocka_unit_test_setup(copies_run_in_their_own_threads_and_add_up, reset),
		cmocka_unit_test_setup(one_copy_runs_on_the_calling_thread, reset),
		cmocka_unit_test_setup(one_copy_is_pinned_and_unpinned, reset),
		cmocka_unit_test_setup(samples_that_agree_stop_at_the_minimum, reset),
		cmocka_unit_test_setup(jitter_samples_until_the_interval_is_narrow, reset),
		cmocka_unit_test_setup(noise_stops_at_max_runs_or_the_time_cap, reset),
		cmocka_unit_test_setup(a_budget_is_shared_by_the_results_left, reset),
		cmocka_unit_test_setup(two_speeds_are_flagged_bimodal, reset),
		cmocka_unit_test_setup(skip_carries_the_reason_and_still_tears_down, reset),
		cmocka_unit_test_setup(errors_void_the_result, reset),
		cmocka_unit_test_setup(interruption_stops_at_a_sample_boundary, reset),
		cmocka_unit_test_setup(facts_are_one_sample, reset),
		cmocka_unit_test_setup(searches_are_the_samples_of_a_once_result, reset),
		cmocka_unit_test_setup(trials_are_not_calibrated, reset),
		cmocka_unit_test_setup(trials_divide_by_the_counted_window, reset),
		cmocka_unit_test(metric_arithmetic),
		cmocka_unit_test_setup(busy_setup_is_measured_again, reset),
		cmocka_unit_test_setup(disturbed_samples_are_taken_again, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
