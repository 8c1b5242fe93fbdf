/* SPDX-License-Identifier: MIT */
/*
 * A result measured in several fresh processes (core/procs.c): a benchmark
 * whose every sample is known exactly (a virtual clock each process moves
 * by itself), run in forked processes through the pipe and merged; the
 * bimodal rule on samples made up for it; a process that dies.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "core/env.h"
#include "core/hist.h"
#include "core/params.h"
#include "core/procs.h"
#include "core/result.h"
#include "core/runner.h"
#include "fake_root.h"

#define ITER_S 20e-6

static double virtual_now;
static double virtual_clock(void)
{
	return virtual_now;
}

/* Shared by the parent and its forked processes: how many processes have
 * set the benchmark up (the next one's index), and each one's speed. */
struct shared {
	int started;
	double factor[8];	/* how much slower than ITER_S process i runs */
	int jitter;		/* every other step half as slow again */
};
static struct shared *sh;
static int my_index;

/* The run's environment in the tests that watch it: a process's own copy
 * (after the fork) is made slow by a speed reference no CPU can reach. */
static struct pg_env test_env;

/* The run's wait before a disturbed result or process is measured again
 * (run --wait-quiet): counted, and a long time on the virtual clock that
 * the result's own time must not lose. */
static int waits;
static unsigned waited_for;
static double wait_long(void *arg, unsigned why)
{
	(void)arg;
	waits++;
	waited_for |= why;
	virtual_now += 1000;
	return 1000;
}

static int fake_setup(struct pg_ctx *ctx)
{
	my_index = __atomic_fetch_add(&sh->started, 1, __ATOMIC_SEQ_CST);
	const char *mode = pg_arg_str(ctx->args, "mode");
	if ((strcmp(mode, "first-slow") == 0 && my_index == 0) || strcmp(mode, "slow") == 0 ||
	    (strcmp(mode, "middle-slow") == 0 && (my_index == 2 || my_index == 3)) ||
	    (strcmp(mode, "spells") == 0 && (my_index == 0 || my_index == 2)))
		test_env.probe_ref = 1e30;
	else if (strcmp(mode, "first-slow") == 0 || strcmp(mode, "middle-slow") == 0 || strcmp(mode, "spells") == 0)
		test_env.probe_ref = 1;	/* measured in this process: the next one is not slow */
	if (strcmp(mode, "skip") == 0)
		return pg_skip(ctx, "no such device: load the firmware");
	if (strcmp(mode, "second-fails") == 0 && my_index == 1)
		return pg_error(ctx, "the second process could not start");
	return PG_OK;
}

static int fake_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	static int nstep;
	double jitter = sh->jitter && (nstep++ & 1) ? 1.5 : 1;
	virtual_now += ITER_S * (double)iters * sh->factor[my_index % 8] * jitter;
	counts[0] = 1000.0 * (double)iters;
	/* a peer's CPU load, as the net group's sessions report it */
	if (strcmp(pg_arg_str(ctx->args, "mode"), "remote") == 0)
		ctx->remote_busy_pct = 10.0 * (my_index + 1);
	/* a latency per step: 1000 ns in process 1, 2000 in process 2 */
	pg_hist_add(ctx->hist, 1000 * (uint64_t)(my_index + 1));
	return PG_OK;
}

static const struct pg_param fake_params[] = {
	{ .name = "mode", .type = PG_P_STR, .def = "ok", .help = "h" },
	{ 0 },
};

static const struct pg_metric fake_metrics[] = {
	{ "bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ "latency", "us", PG_HIST_MEAN, 1e-3, 0, 0 },
	{ 0 },
};

/* a CPU group's id: measured in several processes when asked */
static const struct pg_bench fake = {
	.id = "cpu.fake", .title = "fake", .params = fake_params, .metrics = fake_metrics,
	.setup = fake_setup, .step = fake_step,
};
/* the same in a group of I/O: always in this process */
static const struct pg_bench fake_io = {
	.id = "storage.fake", .title = "fake", .params = fake_params, .metrics = fake_metrics,
	.setup = fake_setup, .step = fake_step,
};

/* A step that measures a sibling's figure too, as STREAM's rotation does:
 * twice the bytes in the same time, except that the sibling runs at 0.8
 * of that in process 2 with mode=sib-slow. */
static int sib_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	double took = ITER_S * (double)iters * sh->factor[my_index % 8];
	virtual_now += took;
	counts[0] = 1000.0 * (double)iters;
	int slow = strcmp(pg_arg_str(ctx->args, "mode"), "sib-slow") == 0 && my_index == 1;
	ctx->nsib = 2;
	ctx->sib_counts[0] = counts[0];
	ctx->sib_s[0] = took;
	ctx->sib_counts[1] = 2 * counts[0];
	ctx->sib_s[1] = slow ? took * 1.25 : took;
	return PG_OK;
}

static const struct pg_metric sib_metrics[] = {
	{ "bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ 0 },
};
static const char *const sib_ids[] = { "cpu.sib", "cpu.sib2", NULL };
static const struct pg_bench fake_sib = {
	.id = "cpu.sib", .title = "sib", .params = fake_params, .metrics = sib_metrics,
	.setup = fake_setup, .step = sib_step, .siblings = sib_ids,
};
static const struct pg_bench fake_sib2 = {
	.id = "cpu.sib2", .title = "sib2", .params = fake_params, .metrics = sib_metrics,
	.setup = fake_setup, .step = sib_step, .siblings = sib_ids,
};

static struct pg_args args_for(const char *mode)
{
	struct pg_args a;
	char err[100];
	memset(&a, 0, sizeof(a));
	a.n = 1;
	pg_value_parse(&fake_params[0], mode, &a.v[0], err, sizeof(err));
	return a;
}

static int reset(void **state)
{
	(void)state;
	memset(sh, 0, sizeof(*sh));
	for (int i = 0; i < 8; i++)
		sh->factor[i] = 1;
	virtual_now = 0;
	waits = 0;
	waited_for = 0;
	pg_interrupted = 0;
	unsetenv(PG_PROCS_TEST_KILL_ENV);
	return 0;
}

/* Two processes of 2 samples each: every sample is the one it measured,
 * in order, and the statistics are over all four. */
static void merges_processes(void **state)
{
	(void)state;
	sh->factor[1] = 1.25;	/* process 2 runs at 40 MB/s, process 1 at 50 */
	struct pg_args a = args_for("ok");
	struct pg_budget budget = { .deadline = 1e9, .left = 3 };
	struct pg_run_opts o = { .runs = 4, .min_time = 0.01, .clock = virtual_clock, .budget = &budget,
				 .max_procs = 6 };
	struct pg_result r;
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	/* each process set it up: the parent did not; --runs asked for 4
	 * samples, so no more processes for the disagreement */
	assert_int_equal(sh->started, 2);
	assert_int_equal(r.nprocs, 2);
	assert_int_equal(r.proc_n[0], 2);
	assert_int_equal(r.proc_n[1], 2);
	assert_int_equal(r.nsamples, 4);
	assert_int_equal(r.nmetrics, 2);
	/* each sample's latency, and every sample's together, came through */
	assert_float_equal(r.values[1][0], 1, 1e-9);
	assert_float_equal(r.values[1][3], 2, 1e-9);
	assert_non_null(r.hist);
	assert_int_equal(r.hist->count, 4);
	assert_int_equal(r.hist->min, 1000);
	assert_int_equal(r.hist->max, 2000);
	assert_float_equal(r.hist->sum, 6000, 1e-9);
	assert_float_equal(r.values[0][0], 50, 1e-9);
	assert_float_equal(r.values[0][1], 50, 1e-9);
	assert_float_equal(r.values[0][2], 40, 1e-9);
	assert_float_equal(r.values[0][3], 40, 1e-9);
	for (int s = 0; s < 4; s++)
		assert_true(r.elapsed[s] >= 0.01 - 1e-12);
	assert_float_equal(r.stats[0].median, 45, 1e-9);
	assert_float_equal(r.stats[0].min, 40, 1e-9);
	assert_float_equal(r.stats[0].max, 50, 1e-9);
	/* 25% apart, and each process's samples exactly alike */
	assert_int_equal(r.proc_bimodal[0], 1);
	double lo, hi;
	pg_procs_range(&r, 0, &lo, &hi);
	assert_float_equal(lo, 40, 1e-9);
	assert_float_equal(hi, 50, 1e-9);
	assert_int_equal(budget.left, 2);	/* one result off the budget, not one per process */
	assert_int_equal(r.stop, PG_STOP_RUNS);
	pg_result_free(&r);
}

/* --runs is shared out, each process at least 2; agreeing processes are
 * not bimodal. */
static void shares_runs(void **state)
{
	(void)state;
	struct pg_args a = args_for("ok");
	struct pg_run_opts o = { .runs = 5, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 3, &r), PG_OK);
	assert_int_equal(r.nprocs, 3);
	assert_int_equal(r.proc_n[0], 2);	/* 5 / 3: 2, 2, 1 -> at least 2 */
	assert_int_equal(r.proc_n[1], 2);
	assert_int_equal(r.proc_n[2], 2);
	assert_int_equal(r.nsamples, 6);
	assert_int_equal(r.proc_bimodal[0], 0);
	assert_float_equal(r.stats[0].median, 50, 1e-9);
	pg_result_free(&r);
}

/* The noise-aware runner in each process: its share of the least samples
 * (6 / 2, at the floor of 3), and it stops there when its samples are
 * within the target and the processes' 6 together give a 95% interval. */
static void noise_aware_share(void **state)
{
	(void)state;
	struct pg_args a = args_for("ok");
	struct pg_run_opts o = { .min_runs = 6, .max_runs = 10, .ci_target = 0.02, .max_time = 100,
				 .min_time = 0.01, .clock = virtual_clock, .max_procs = 6 };
	struct pg_result r;
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	assert_int_equal(r.nprocs, 2);	/* they agree: no more processes */
	assert_int_equal(r.proc_n[0], 3);
	assert_int_equal(r.stop, PG_STOP_INTERVAL);
	assert_int_equal(r.stop, PG_STOP_INTERVAL);
	assert_float_equal(r.cap, 100, 1e-12);
	pg_result_free(&r);
	/* alone, the same result needs 6 of its own */
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 1, &r), PG_OK);
	assert_int_equal(r.nsamples, 6);
	pg_result_free(&r);
}

/* Processes that disagree: one more at a time, each with the time of one
 * of the first, until they agree or --max-processes have run. */
static void more_processes_while_they_disagree(void **state)
{
	(void)state;
	struct pg_args a = args_for("ok");
	struct pg_run_opts o = { .min_runs = 6, .max_runs = 10, .ci_target = 0.02, .max_time = 100,
				 .min_time = 0.01, .clock = virtual_clock, .max_procs = 5 };
	struct pg_result r;
	sh->factor[1] = sh->factor[3] = 1.25;	/* processes 2 and 4 are slow: 40 MB/s against 50 */
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	assert_int_equal(r.nprocs, 5);
	assert_int_equal(sh->started, 5);
	for (int k = 0; k < 5; k++)
		assert_int_equal(r.proc_n[k], 3);
	assert_int_equal(r.nsamples, 15);
	assert_int_equal(r.proc_bimodal[0], 1);
	assert_float_equal(r.stats[0].median, 50, 1e-9);	/* 9 samples at 50, 6 at 40 */
	pg_result_free(&r);
	/* --max-processes 2: just the 2 asked for */
	reset(NULL);
	sh->factor[1] = 1.25;
	o.max_procs = 2;
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	assert_int_equal(r.nprocs, 2);
	pg_result_free(&r);
	/* a time the budget set: no more processes */
	reset(NULL);
	sh->factor[1] = 1.25;
	struct pg_budget budget = { .deadline = 10, .left = 1 };	/* 10 s of the cap's 100 */
	o.max_procs = 6;
	o.budget = &budget;
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	assert_int_equal(r.nprocs, 2);
	pg_result_free(&r);
}

/* Processes each within the target, 4.5% apart (less than the bimodal rule
 * sees), so their samples together are not: the last of the two asked for
 * samples on (samples, not processes, where the processes agree), up to
 * what the result's max_runs leaves it, and no third process runs; the
 * stop says the samples ran out (never "interval" on a wide interval). */
static void samples_not_processes_while_short_of_target(void **state)
{
	(void)state;
	struct pg_args a = args_for("ok");
	struct pg_run_opts o = { .min_runs = 6, .max_runs = 10, .ci_target = 0.02, .max_time = 100,
				 .min_time = 0.01, .clock = virtual_clock, .max_procs = 6 };
	struct pg_result r;
	sh->factor[1] = 1.045;	/* process 2 at 47.8 MB/s, process 1 at 50 */
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	assert_int_equal(r.nprocs, 2);
	assert_int_equal(sh->started, 2);
	assert_int_equal(r.proc_n[0], 3);
	assert_int_equal(r.proc_n[1], 7);	/* the result's 10 less the first's 3 */
	assert_int_equal(r.nsamples, 10);
	assert_int_equal(r.proc_bimodal[0], 0);
	if (r.stats[0].ci_rel > 0.02)
		assert_int_equal(r.stop, PG_STOP_MAX_RUNS);
	else
		assert_int_equal(r.stop, PG_STOP_INTERVAL);
	pg_result_free(&r);
	/* the same with a tighter target: the result's time ends it first */
	reset(NULL);
	sh->factor[1] = 1.045;
	/* process 1 takes 3 samples of 0.0105 s after its calibration; the
	 * virtual clock is each process's own, so the last one has all 0.07 s
	 * and stops at its sixth sample (0.066 s and one more would pass it) */
	o.max_time = 0.07;
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	assert_int_equal(r.nprocs, 2);
	assert_int_equal(r.proc_n[0], 3);
	assert_true(r.proc_n[1] > 3 && r.nsamples < 10);
	assert_int_equal(r.stop, PG_STOP_TIME);
	pg_result_free(&r);
}

/* The last process stops once the result's samples together are within
 * the target (6 alike: a 95% interval), though its own 3 give no 95%
 * interval alone and the result's max_runs leaves it 27 more. */
static void last_process_stops_at_the_results_target(void **state)
{
	(void)state;
	struct pg_args a = args_for("ok");
	struct pg_run_opts o = { .min_runs = 6, .max_runs = 30, .ci_target = 0.02, .max_time = 100,
				 .min_time = 0.01, .clock = virtual_clock, .max_procs = 6 };
	struct pg_result r;
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	assert_int_equal(r.nprocs, 2);
	assert_int_equal(r.proc_n[1], 3);
	assert_int_equal(r.stop, PG_STOP_INTERVAL);
	assert_true(r.stats[0].ci_rel <= 0.02);
	pg_result_free(&r);
}

/* The peer's load each process saw comes back, weighted by sample time. */
static void remote_load_is_kept(void **state)
{
	(void)state;
	struct pg_args a = args_for("remote");
	struct pg_run_opts o = { .runs = 4, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	assert_int_equal(r.nprocs, 2);
	assert_true(r.cpu.have_remote);
	assert_float_equal(r.cpu.remote_busy_pct, 15.0, 1e-9);
	pg_result_free(&r);
	reset(NULL);
	a = args_for("ok");
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	assert_false(r.cpu.have_remote);
	pg_result_free(&r);
}

/* A process that came back disturbed (here its speed probe) is set aside
 * and another measured in its place; when that one is disturbed too, the
 * result keeps what comes, disturbed, and runs no more for it. Processes
 * run because they disagree leave the disturbed ones out when enough
 * undisturbed ones come. */
static void disturbed_process_is_measured_again(void **state)
{
	(void)state;
	fake_root_make("procs");
	PUTS("/proc/stat", "cpu  0 0 0 100000 0 0 0 0 0 0\n");
	pg_env_open(&test_env);
	test_env.probe_ref = 1;	/* any real probe is far above it: not slow */
	struct pg_run_opts o = { .min_runs = 6, .max_runs = 10, .ci_target = 0.5, .max_time = 100,
				 .min_time = 0.01, .clock = virtual_clock, .max_procs = 6, .env = &test_env,
				 .before_retake = wait_long };
	struct pg_result r;
	struct pg_args a = args_for("first-slow");
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	assert_int_equal(sh->started, 3);
	assert_int_equal(r.nprocs, 2);
	assert_false(r.disturbed);
	assert_int_equal(r.env.dropped_procs, 1);
	/* the run waited once, for the slow probe, and its 1000 s did not
	 * take the result's time: the process in its place has its samples */
	assert_int_equal(waits, 1);
	assert_true(waited_for & PG_ENV_SLOW);
	assert_true(r.env.speed > 0.8);
	char json[1024];
	pg_env_json(&r.env, json, sizeof(json));
	assert_non_null(strstr(json, "\"dropped_processes\":1"));
	pg_result_free(&r);

	/* samples that never reach the interval target: the process in the
	 * slow one's place takes its share of the samples, the wait's 1000 s
	 * not counted in the result's 100 */
	reset(NULL);
	sh->jitter = 1;
	struct pg_run_opts tight = o;
	tight.ci_target = 1e-6;
	assert_int_equal(pg_run_bench_procs(&fake, &a, &tight, 2, &r), PG_OK);
	assert_int_equal(waits, 1);
	assert_int_equal(r.nprocs, 2);
	assert_int_equal(r.proc_n[0], 5);	/* the one in the slow one's place */
	assert_int_equal(r.proc_n[1], 5);
	pg_result_free(&r);

	reset(NULL);
	a = args_for("slow");
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	/* the first set aside; the one in its place disturbed too: the
	 * disturbance lasts, and the result keeps the two (no wait after) */
	assert_int_equal(sh->started, 2);
	assert_int_equal(waits, 1);
	assert_int_equal(r.nprocs, 2);
	assert_true(r.disturbed);
	assert_true(r.env.why & PG_ENV_SLOW);
	assert_int_equal(r.env.dropped_procs, 0);
	pg_result_free(&r);

	/* two spells, a process apart: each disturbed one is replaced (after a
	 * wait), and neither is kept */
	reset(NULL);
	a = args_for("spells");
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	assert_int_equal(sh->started, 4);
	assert_int_equal(r.nprocs, 2);
	assert_false(r.disturbed);
	assert_int_equal(r.env.dropped_procs, 2);
	assert_int_equal(waits, 2);
	pg_result_free(&r);

	/* the first two disagree (one twice as slow), so more run; the third
	 * and the fourth are disturbed, and left out of the six */
	reset(NULL);
	sh->factor[1] = 2;
	a = args_for("middle-slow");
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_OK);
	assert_int_equal(sh->started, 6);
	assert_int_equal(r.nprocs, 4);
	assert_false(r.disturbed);
	assert_int_equal(r.env.dropped_procs, 2);
	pg_result_free(&r);

	/* --runs N: the samples asked for, no process more */
	reset(NULL);
	a = args_for("slow");
	struct pg_run_opts fixed = { .runs = 4, .min_time = 0.01, .clock = virtual_clock, .max_procs = 6,
				     .env = &test_env };
	assert_int_equal(pg_run_bench_procs(&fake, &a, &fixed, 2, &r), PG_OK);
	assert_int_equal(sh->started, 2);
	assert_true(r.disturbed);
	pg_result_free(&r);
	fake_root_remove();
}

/* Measured in this process (storage): a disturbed result is measured once
 * more, and the second kept when it is not disturbed; when it is, the
 * first, disturbed. Not with --runs. */
static void disturbed_in_place_is_measured_again(void **state)
{
	(void)state;
	fake_root_make("procs");
	PUTS("/proc/stat", "cpu  0 0 0 100000 0 0 0 0 0 0\n");
	pg_env_open(&test_env);
	test_env.probe_ref = 1;
	struct pg_run_opts o = { .min_runs = 6, .max_runs = 10, .ci_target = 0.5, .max_time = 100,
				 .min_time = 0.01, .clock = virtual_clock, .max_procs = 6, .env = &test_env,
				 .before_retake = wait_long };
	struct pg_result r;
	struct pg_args a = args_for("first-slow");
	assert_int_equal(pg_run_bench_procs(&fake_io, &a, &o, 2, &r), PG_OK);
	assert_int_equal(sh->started, 2);
	assert_int_equal(r.nprocs, 0);	/* in this process */
	assert_false(r.disturbed);
	assert_int_equal(r.env.dropped_procs, 1);
	assert_int_equal(waits, 1);	/* before measuring again */
	pg_result_free(&r);

	reset(NULL);
	a = args_for("slow");
	assert_int_equal(pg_run_bench_procs(&fake_io, &a, &o, 2, &r), PG_OK);
	assert_int_equal(sh->started, 2);
	assert_true(r.disturbed);
	assert_int_equal(r.env.dropped_procs, 1);
	pg_result_free(&r);

	reset(NULL);
	test_env.probe_ref = 1;
	a = args_for("first-slow");
	struct pg_run_opts fixed = { .runs = 4, .min_time = 0.01, .clock = virtual_clock, .max_procs = 6,
				     .env = &test_env };
	assert_int_equal(pg_run_bench_procs(&fake_io, &a, &fixed, 2, &r), PG_OK);
	assert_int_equal(sh->started, 1);
	assert_true(r.disturbed);
	assert_int_equal(r.env.dropped_procs, 0);
	pg_result_free(&r);
	test_env.probe_ref = 1;
	fake_root_remove();
}

/* One process, or a group that is not CPU work: this process, as before. */
static void one_process_is_in_process(void **state)
{
	(void)state;
	struct pg_args a = args_for("ok");
	struct pg_run_opts o = { .runs = 3, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 1, &r), PG_OK);
	assert_int_equal(r.nprocs, 0);
	assert_int_equal(r.nsamples, 3);
	assert_int_equal(sh->started, 1);
	pg_result_free(&r);
	assert_int_equal(pg_run_bench_procs(&fake_io, &a, &o, 4, &r), PG_OK);
	assert_int_equal(r.nprocs, 0);
	assert_int_equal(r.nsamples, 3);
	pg_result_free(&r);
	assert_int_equal(pg_procs_apply(&fake), 1);
	assert_int_equal(pg_procs_apply(&fake_io), 0);
}

/* A sibling's figure comes through the processes with the samples:
 * its own seconds and counts each sample, the processes' counts, the
 * note; in this process as well. */
static void sibling_from_the_same_samples(void **state)
{
	(void)state;
	struct pg_args a = args_for("ok");
	struct pg_run_opts o = { .runs = 4, .min_time = 0.01, .clock = virtual_clock, .max_procs = 6 };
	struct pg_result r, s2;
	sh->factor[1] = 1.25;
	for (int nprocs = 2; nprocs >= 1; nprocs--) {
		assert_int_equal(pg_run_bench_procs(&fake_sib, &a, &o, nprocs, &r), PG_OK);
		assert_int_equal(r.nsib, 2);
		assert_int_equal(pg_result_sibling(&r, 1, &fake_sib2, &a, &s2), 0);
		assert_int_equal(s2.nsamples, r.nsamples);
		assert_int_equal(s2.nprocs, r.nprocs);
		for (int k = 0; k < r.nprocs; k++)
			assert_int_equal(s2.proc_n[k], r.proc_n[k]);
		for (int i = 0; i < r.nsamples; i++) {
			assert_float_equal(s2.values[0][i], 2 * r.values[0][i], 1e-9);
			assert_float_equal(s2.elapsed[i], r.elapsed[i], 1e-12);
		}
		assert_float_equal(s2.stats[0].median, 2 * r.stats[0].median, 1e-9);
		assert_non_null(strstr(s2.note, "measured in the passes of cpu.sib"));
		pg_result_free(&s2);
		assert_int_equal(pg_result_sibling(&r, 2, &fake_sib2, &a, &s2), -1);	/* no such figure */
		pg_result_free(&r);
	}
}

/* A sibling whose own processes disagree takes more processes of its own,
 * as any result does; one whose processes agree takes none. */
static void sibling_takes_more_processes_while_they_disagree(void **state)
{
	(void)state;
	struct pg_args a = args_for("sib-slow");
	struct pg_run_opts o = { .min_runs = 6, .max_runs = 10, .ci_target = 0.02, .max_time = 100,
				 .min_time = 0.01, .clock = virtual_clock, .max_procs = 4 };
	struct pg_result r, s2, s1;
	assert_int_equal(pg_run_bench_procs(&fake_sib, &a, &o, 2, &r), PG_OK);
	assert_int_equal(r.nprocs, 2);	/* its own figure agrees */
	assert_int_equal(pg_result_sibling(&r, 1, &fake_sib2, &a, &s2), 0);
	assert_int_equal(pg_result_sibling(&r, 0, &fake_sib, &a, &s1), 0);
	int started = sh->started;
	assert_int_equal(pg_run_bench_procs_more(&fake_sib, &a, &o, 2, &s1), PG_OK);
	assert_int_equal(s1.nprocs, 2);
	assert_int_equal(sh->started, started);
	assert_int_equal(pg_run_bench_procs_more(&fake_sib2, &a, &o, 2, &s2), PG_OK);
	assert_true(s2.nprocs > 2);
	assert_int_equal(sh->started, started + s2.nprocs - 2);
	assert_int_equal(s2.nsib, 0);	/* what it measured itself has no siblings to give */
	pg_result_free(&r);
	pg_result_free(&s1);
	pg_result_free(&s2);
}

/* A skip is the skip's reason; a failure in a later process names it. */
static void skip_and_error(void **state)
{
	(void)state;
	struct pg_args a = args_for("skip");
	struct pg_run_opts o = { .runs = 4, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_SKIP);
	assert_string_equal(r.reason, "no such device: load the firmware");
	assert_int_equal(sh->started, 1);	/* no second process for a skip */
	pg_result_free(&r);
	sh->started = 0;
	a = args_for("second-fails");
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_ERROR);
	assert_string_equal(r.reason, "process 2 of 2: the second process could not start");
	pg_result_free(&r);
}

/* A process killed by a signal: an error naming it, not a hang. */
static void killed_process(void **state)
{
	(void)state;
	setenv(PG_PROCS_TEST_KILL_ENV, "2", 1);
	struct pg_args a = args_for("ok");
	struct pg_run_opts o = { .runs = 4, .min_time = 0.01, .clock = virtual_clock };
	struct pg_result r;
	assert_int_equal(pg_run_bench_procs(&fake, &a, &o, 2, &r), PG_ERROR);
	char want[120];
	snprintf(want, sizeof(want), "process 2 of 2 was killed by signal %d (%s) before it sent anything", SIGKILL,
		 strsignal(SIGKILL));
	assert_string_equal(r.reason, want);
	pg_result_free(&r);
}

/* The rule: more than 5% apart and more than 4 standard errors. */
static void bimodal_rule(void **state)
{
	(void)state;
	char why[PG_MSG_LEN];
	int two[] = { 3, 3 };
	/* 61 against 99 per second, each process within 1%: bimodal */
	double apart[] = { 61, 61.5, 60.8, 99, 98.5, 99.6 };
	assert_int_equal(pg_procs_bimodal(apart, two, 2, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "process 1 measured 61 and process 2 99"));
	assert_non_null(strstr(why, "62% apart"));
	/* 3% apart, however precise: not */
	double close[] = { 100, 100.1, 100.05, 103, 103.1, 103.05 };
	assert_int_equal(pg_procs_bimodal(close, two, 2, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	/* 20% apart but each process's samples spread as wide: within 4 SE */
	double wide[] = { 80, 120, 100, 150, 90, 120 };
	assert_int_equal(pg_procs_bimodal(wide, two, 2, why, sizeof(why)), 0);
	/* of several, the pair furthest apart is named */
	int four[] = { 2, 2, 2, 2 };
	double many[] = { 100, 100.5, 101, 101.2, 140, 140.6, 99, 99.3 };
	assert_int_equal(pg_procs_bimodal(many, four, 4, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "its 4 processes disagree: process 4 measured 99.15 and process 3 140.3"));
	/* a sample of 0 leaves no log: no judgement */
	double zero[] = { 0, 0, 100, 100 };
	int twotwo[] = { 2, 2 };
	assert_int_equal(pg_procs_bimodal(zero, twotwo, 2, why, sizeof(why)), 0);
}

/* Medians spread too wide for compare to judge a run like this one: two
 * processes 1.68x apart whose own samples are too noisy for the bimodal
 * rule (cpu.dhrystone in an A/A); a third that narrows it; processes 20%
 * apart, or a few percent, are judgeable. */
static void spread_rule(void **state)
{
	(void)state;
	char why[PG_MSG_LEN];
	int two[] = { 3, 3 }, three[] = { 3, 3, 3 };
	double dhry[] = { 30.0, 47.8, 52.0, 20.0, 28.4, 40.0 };
	assert_int_equal(pg_procs_bimodal(dhry, two, 2, why, sizeof(why)), 0);
	assert_int_equal(pg_procs_spread_wide(dhry, two, 2), 1);
	double dhry3[] = { 30.0, 47.8, 52.0, 20.0, 28.4, 40.0, 35.0, 41.0, 44.0 };
	assert_int_equal(pg_procs_spread_wide(dhry3, three, 3), 0);
	double fifth[] = { 10, 10, 10, 12, 12, 12 };
	assert_int_equal(pg_procs_spread_wide(fifth, two, 2), 0);
	double third[] = { 10, 10, 10, 13.5, 13.5, 13.5 };
	assert_int_equal(pg_procs_spread_wide(third, two, 2), 1);
	double lat[] = { 4.41, 4.40, 4.43, 4.44, 4.45, 4.43 };
	assert_int_equal(pg_procs_spread_wide(lat, two, 2), 0);
	/* one process, or a median of 0: nothing to judge */
	assert_int_equal(pg_procs_spread_wide(dhry, two, 1), 0);
	double zero[] = { 0, 0, 0, 10, 10, 10 };
	assert_int_equal(pg_procs_spread_wide(zero, two, 2), 0);
}

int main(void)
{
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(merges_processes, reset),
		cmocka_unit_test_setup(shares_runs, reset),
		cmocka_unit_test_setup(noise_aware_share, reset),
		cmocka_unit_test_setup(more_processes_while_they_disagree, reset),
		cmocka_unit_test_setup(samples_not_processes_while_short_of_target, reset),
		cmocka_unit_test_setup(last_process_stops_at_the_results_target, reset),
		cmocka_unit_test_setup(remote_load_is_kept, reset),
		cmocka_unit_test_setup(disturbed_process_is_measured_again, reset),
		cmocka_unit_test_setup(disturbed_in_place_is_measured_again, reset),
		cmocka_unit_test_setup(one_process_is_in_process, reset),
		cmocka_unit_test_setup(sibling_from_the_same_samples, reset),
		cmocka_unit_test_setup(sibling_takes_more_processes_while_they_disagree, reset),
		cmocka_unit_test_setup(skip_and_error, reset),
		cmocka_unit_test_setup(killed_process, reset),
		cmocka_unit_test_setup(bimodal_rule, reset),
		cmocka_unit_test_setup(spread_rule, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
