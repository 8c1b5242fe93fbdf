/* SPDX-License-Identifier: MIT */
/*
 * perfguide run: check every input before any work starts (run_options.c,
 * run_plan.c), then hand each combination to the runner and give what it
 * measured to every sink (run_sinks.c) as it finishes.
 */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "cli.h"
#include "core/procs.h"
#include "core/result.h"
#include "core/sysinfo.h"
#include "core/timer.h"
#include "run.h"

static void on_signal(int sig)
{
	(void)sig;
	if (pg_interrupted) {
		/* Results are flushed after each benchmark: nothing is lost. */
		static const char msg[] = "\nperfguide: stopped\n";
		ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
		(void)w;
		_exit(PG_EXIT_INTERRUPTED);
	}
	pg_interrupted = sig;
	static const char msg[] = "\nperfguide: stopping after the current sample (again to quit now)\n";
	ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)w;
}

static void catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* A single-copy benchmark runs on this thread: its reads and writes
	 * go on after the first Ctrl-C, which stops at the sample's end. */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* board-20261130T210910-1a2b3c4d: the board kept to a file-name alphabet. */
static void make_run_id(const char *board, double t, char *buf, size_t len)
{
	unsigned char rnd[4] = { 0 };
	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
		unsigned long x = (unsigned long)getpid() ^ (unsigned long)(t * 1e6);
		memcpy(rnd, &x, sizeof(rnd));
	}
	char safe[64], ts[40], compact[20];
	size_t i = 0;
	for (; board[i] && i + 1 < sizeof(safe); i++) {
		unsigned char c = (unsigned char)board[i];
		safe[i] = (isalnum(c) || c == '-' || c == '_' || c == '.') ? (char)c : '_';
	}
	safe[i] = '\0';
	pg_iso_time(t, ts, sizeof(ts));
	/* 2026-11-30T21:09:10.123Z -> 20261130T210910 */
	snprintf(compact, sizeof(compact), "%.4s%.2s%.2sT%.2s%.2s%.2s", ts, ts + 5, ts + 8, ts + 11, ts + 14, ts + 17);
	snprintf(buf, len, "%s-%s-%02x%02x%02x%02x", safe, compact, rnd[0], rnd[1], rnd[2], rnd[3]);
}

/* The sinks in the order every record reaches them: the console, the
 * results file, the store that follows it, LAVA's test cases, and the
 * summary, which ends the run's output. 0, or the exit status of bad input. */
static int open_sinks(struct run_sinks *s, const struct run_config *c, const char *run_id, int *failed)
{
	char err[700] = "out of memory";
	if (run_sink_console(s, c) < 0 || run_results_path(s, c, run_id, err, sizeof(err)) < 0 ||
	    run_sink_store(s, c, err, sizeof(err)) < 0 || run_sink_file(s, c, err, sizeof(err)) < 0 ||
	    run_sink_lava(s, c) < 0 || run_sink_summary(s, failed, c->budget) < 0) {
		run_sinks_close(s);
		return pg_usage_error("run: %s", err);
	}
	return 0;
}

/* Other programs' raw output (the ext group) goes beside the results file:
 * board-time.jsonl keeps it in board-time.raw/. "": no results file. */
static void raw_dir_of(const char *results, char *buf, size_t len)
{
	size_t n = strlen(results);
	buf[0] = '\0';
	if (!n)
		return;
	if (n > 6 && strcmp(results + n - 6, ".jsonl") == 0)
		n -= 6;
	if ((size_t)snprintf(buf, len, "%.*s.raw", (int)n, results) >= len)
		buf[0] = '\0';
}

/* The runner's options for every item; budget: the run's, shared out by
 * the runner (each result may use the time left over the results left). */
static void item_opts(const struct run_config *c, const struct run_sinks *s, struct pg_budget *budget,
		      struct pg_run_opts *ro)
{
	*ro = (struct pg_run_opts){ .runs = c->runs, .min_runs = c->min_runs, .max_runs = c->max_runs,
				    .ci_target = c->ci_target, .max_time = c->max_time, .budget = budget,
				    .min_time = c->min_time, .iters = c->iters, .max_procs = c->max_processes,
				    .cpus = c->ncpus ? c->cpus : NULL, .ncpus = c->ncpus,
				    .raw_dir = s->raw_dir[0] ? s->raw_dir : NULL };
}

/* The machine watched through every sample (core/env.h), from its state at
 * the run's start. */
struct watch {
	struct pg_env env;
	struct pg_env_mark base;
	struct run_quiet quiet;
};

/* A named benchmark that cannot run here at any setting: its result,
 * skipped, without running it. */
static void skipped(const struct run_item *item, struct pg_result *r)
{
	memset(r, 0, sizeof(*r));
	r->bench = item->bench;
	r->args = &item->args;
	r->nmetrics = pg_metric_count(item->bench);
	r->status = PG_SKIP;
	snprintf(r->reason, sizeof(r->reason), "%s", item->skip);
	r->started = r->finished = pg_wall_time();
}

/* The results later in the plan that item i's samples measured too
 * (pg_bench.siblings: STREAM's four kernels from one rotation), each the
 * first one of that benchmark with the same arguments, into pre[] by plan
 * index. Out of memory: they are measured themselves. */
static void keep_siblings(const struct run_plan *p, int i, const struct pg_result *r, struct pg_result **pre)
{
	char own[512], other[512];
	pg_args_format(&p->items[i].args, own, sizeof(own));
	for (int j = 0; r->status == PG_OK && j < r->nsib; j++) {
		const char *id = r->bench->siblings[j];
		if (!id || strcmp(id, r->bench->id) == 0)
			continue;
		for (int k = i + 1; k < p->n; k++) {
			const struct run_item *it = &p->items[k];
			if (pre[k] || it->skip[0] || strcmp(it->bench->id, id) != 0)
				continue;
			pg_args_format(&it->args, other, sizeof(other));
			if (strcmp(own, other) != 0)
				continue;
			if ((pre[k] = malloc(sizeof(*pre[k]))) &&
			    pg_result_sibling(r, j, it->bench, &it->args, pre[k]) < 0) {
				free(pre[k]);
				pre[k] = NULL;
			}
			break;
		}
	}
}

static void run_plan(const struct run_config *c, const struct run_plan *p, struct run_sinks *s)
{
	struct pg_result **pre = calloc((size_t)p->n + 1, sizeof(*pre));
	struct pg_run_opts ro;
	struct pg_budget shared;
	static struct watch w;	/* large, and a run has one */
	pg_env_open(&w.env);
	pg_env_probe_start(&w.env);
	pg_env_mark(&w.env, &w.base);
	run_quiet_init(&w.quiet, &w.env, c->wait_quiet);
	item_opts(c, s, c->budget > 0 ? &shared : NULL, &ro);
	ro.env = &w.env;
	ro.env_base = &w.base;
	ro.before_retake = run_quiet_retake;
	ro.retake_arg = &w.quiet;
	if (ro.budget) {
		pg_budget_init(&shared, c->budget, &ro);
		for (int i = 0; i < p->n; i++)
			if (!p->items[i].skip[0])
				pg_budget_add(&shared, p->items[i].bench, &p->items[i].args, &ro);
	}
	double t0 = pg_now(), floors_left = p->floors;
	for (int i = 0; i < p->n && !pg_interrupted; i++) {
		/* Until something has run, guess warm-up, calibration and samples;
		 * never less than the floors of what is left. */
		double left = i ? (pg_now() - t0) / i * (p->n - i)
				: ((c->runs ? c->runs : c->min_runs) + 4) * c->min_time * p->n;
		if (ro.budget && shared.deadline - pg_now() < left)
			left = shared.deadline - pg_now();
		if (left < floors_left)
			left = floors_left;
		floors_left -= p->items[i].floor;
		struct pg_result r;
		if (p->items[i].skip[0]) {
			skipped(&p->items[i], &r);
			run_sinks_result(s, &r);
			continue;
		}
		run_quiet_wait(&w.quiet);
		run_sinks_before(s, &p->items[i], i, p->n, left);
		if (pre && pre[i]) {
			r = *pre[i];
			free(pre[i]);
			pre[i] = NULL;
			pg_run_bench_procs_more(p->items[i].bench, &p->items[i].args, &ro, c->processes, &r);
		} else {
			pg_run_bench_procs(p->items[i].bench, &p->items[i].args, &ro, c->processes, &r);
		}
		if (pre)
			keep_siblings(p, i, &r, pre);
		run_quiet_after(&w.quiet, &r);
		/* A benchmark stopped by Ctrl-C did not fail: it is left out. */
		if (!(pg_interrupted && r.status == PG_ERROR))
			run_sinks_result(s, &r);
		pg_result_free(&r);
	}
	for (int i = 0; pre && i < p->n; i++)
		if (pre[i]) {
			pg_result_free(pre[i]);
			free(pre[i]);
		}
	free(pre);
	pg_env_close(&w.env);
}

int pg_cmd_run(int argc, char **argv)
{
	struct run_config c;
	struct run_plan plan;
	struct run_sinks sinks = { .n = 0 };
	char err[400], run_id[160];
	int rc = run_parse_options(argc, argv, &c), failed = 0;
	if (rc >= 0)
		return rc;
	if (run_make_plan(&c, &plan, err, sizeof(err)) < 0) {
		run_plan_free(&plan);
		return pg_usage_error("run: %s", err);
	}
	if (c.dry_run) {
		run_plan_print(&c, &plan);
		run_plan_free(&plan);
		return PG_EXIT_OK;
	}
	struct pg_machine machine;
	pg_machine_read(&machine);
	if (machine.emulated)
		fprintf(stderr, "perfguide: this CPU is emulated (%s): the figures will be the emulator's, not the "
			"hardware's\n", machine.virt);
	struct pg_run_info ri = {
		.board = c.board ? c.board : machine.board, .started = pg_wall_time(), .machine = &machine,
		.suite = c.suite, .runs = c.runs, .min_runs = c.min_runs, .max_runs = c.max_runs,
		.ci_target = c.ci_target, .max_time = c.max_time, .budget = c.budget,
		.min_time = c.min_time, .iters = c.iters, .processes = c.processes, .max_processes = c.max_processes,
		.selectors = c.selectors, .nselectors = c.nselectors, .overrides = c.ov, .noverrides = c.nov,
		.cpus = c.ncpus ? c.cpus : NULL, .ncpus = c.ncpus,
		.sections = plan.sections, .nsections = plan.nsections,
		.labels = c.labels, .nlabels = c.nlabels,
	};
	make_run_id(ri.board, ri.started, run_id, sizeof(run_id));
	snprintf(ri.id, sizeof(ri.id), "%s", run_id);
	if ((rc = open_sinks(&sinks, &c, run_id, &failed)) == 0) {
		raw_dir_of(sinks.path, sinks.raw_dir, sizeof(sinks.raw_dir));
		run_print_takes(stderr, &c, &plan, 0);
		run_plan_check_budget(&c, &plan);
		run_sinks_begin(&sinks, &ri);
		catch_signals();
		run_plan(&c, &plan, &sinks);
		run_sinks_end(&sinks, pg_interrupted != 0);
		if (run_sinks_close(&sinks) < 0)
			failed = 1;
		rc = pg_interrupted ? PG_EXIT_INTERRUPTED : failed ? PG_EXIT_FAIL : PG_EXIT_OK;
	}
	pg_machine_free(&machine);
	run_plan_free(&plan);
	return rc;
}
