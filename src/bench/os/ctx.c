/* SPDX-License-Identifier: MIT */
/*
 * Context switch time, LMBench's lat_ctx. procs= processes pass a token
 * around a ring of pipes; each, on getting it, sums its own working set of
 * size= bytes (so a switch also pays for refilling the caches) and passes it
 * on. One trip around the ring is procs switches.
 *
 * What is not the switch, the pipe write and read and the summing, is
 * measured in setup in one process doing the same per hop without anyone
 * to switch to, and subtracted per switch, exactly as lat_ctx does. So the
 * figure is the switch alone; it can come out near zero, and lat_ctx drops
 * such results where this keeps them.
 *
 * cpu= pins every process of the ring to one CPU, as users run lat_ctx
 * under taskset; with "any" the scheduler may spread them, and a hop is
 * then partly a cross-CPU wake-up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/runner.h"
#include "os.h"

#define MAX_PROCS 64

struct ctx_state {
	int procs;
	size_t size;
	int pipes[MAX_PROCS][2];
	pid_t pids[MAX_PROCS];
	int *data;		/* the main process's working set */
	uint64_t sum;
};

struct hop_arg {
	struct ctx_state *s;
	int rd, wr;
};

/* Touches every int of the working set: the cost lat_ctx charges each
 * process for coming back to its data. */
static uint64_t sum_set(const int *d, size_t bytes)
{
	size_t n = bytes / sizeof(int);
	int a = 0, b = 0, c = 0, e = 0;
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		a += d[i];
		b += d[i + 1];
		c += d[i + 2];
		e += d[i + 3];
	}
	for (; i < n; i++)
		a += d[i];
	return (uint64_t)(unsigned)(a + b + c + e);
}

static void ring_member(void *arg)
{
	struct hop_arg *h = arg;
	struct ctx_state *s = h->s;
	int *data = s->size ? calloc(1, s->size) : NULL;
	int token;
	uint64_t sum = 0;
	for (;;) {
		if (os_read_all(s->pipes[h->rd][0], &token, sizeof(token)) < 0)
			break;
		sum += sum_set(data, s->size);
		if (os_write_all(s->pipes[h->wr][1], &token, sizeof(token)) < 0)
			break;
	}
	pg_consume(sum);
	free(data);
}

/* The overhead of one hop, in one process: a write and a read on a pipe
 * and one sum of the working set. */
static void hop_overhead(void *arg, uint64_t n)
{
	struct ctx_state *s = arg;
	int token = 1, i = 0;
	for (uint64_t k = 0; k < n; k++) {
		if (os_write_all(s->pipes[i][1], &token, sizeof(token)) < 0 ||
		    os_read_all(s->pipes[i][0], &token, sizeof(token)) < 0)
			return;
		if (++i == s->procs)
			i = 0;
		s->sum += sum_set(s->data, s->size);
	}
}

/*
 * Where the ring runs: cpu= as the user gave it (-p), else where run --cpu
 * put this copy ("same": the first CPU this thread may use), else the
 * default, CPU 0. The default stays 0 and is recorded as such, so results
 * of runs without --cpu pair with earlier ones; with --cpu the note says
 * which CPU the ring was on (before, cpu=0 took the ring off the CPU
 * --cpu 1 asked for).
 */
static const char *ring_cpu(const struct pg_ctx *ctx)
{
	if (!pg_arg_given(ctx->args, "cpu") && ctx->run && ctx->run->cpus && ctx->run->ncpus > 0)
		return "same";
	return pg_arg_str(ctx->args, "cpu");
}

static int ctx_setup(struct pg_ctx *ctx)
{
	struct ctx_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	for (int i = 0; i < MAX_PROCS; i++)
		s->pipes[i][0] = s->pipes[i][1] = -1;
	s->procs = (int)pg_arg_int(ctx->args, "procs");
	s->size = (size_t)pg_arg_int(ctx->args, "size");
	int rc = os_pin(ctx, ring_cpu(ctx));
	if (rc != PG_OK)
		return rc;
	if (s->size) {
		s->data = calloc(1, s->size);
		if (!s->data)
			return pg_error(ctx, "out of memory");
	}
	for (int i = 0; i < s->procs; i++)
		if (pipe(s->pipes[i]) != 0)
			return pg_skip(ctx, "cannot make %d pipes: raise the open files limit", s->procs);

	ctx->overhead[0] = os_time_per(hop_overhead, s);

	struct hop_arg h = { s, 0, 0 };
	for (int i = 1; i < s->procs; i++) {
		h.rd = i - 1;
		h.wr = i;
		s->pids[i] = os_spawn(ring_member, &h);
		if (s->pids[i] < 0)
			return pg_skip(ctx, "cannot start %d processes: raise the process limit", s->procs);
	}
	/* One trip around so every member is up and the ring is primed. */
	int token = 0;
	if (os_write_all(s->pipes[0][1], &token, sizeof(token)) < 0 ||
	    os_read_all(s->pipes[s->procs - 1][0], &token, sizeof(token)) < 0)
		return pg_error(ctx, "the ring of processes did not pass the token");
	char cpu[PG_MSG_LEN + 2] = "";
	if (ctx->note[0])
		snprintf(cpu, sizeof(cpu), "; %s", ctx->note);
	pg_note(ctx, "overhead %.3f us per switch subtracted%s", ctx->overhead[0] * 1e6, cpu);
	return PG_OK;
}

static void ctx_teardown(struct pg_ctx *ctx)
{
	struct ctx_state *s = ctx->priv;
	if (!s)
		return;
	for (int i = 0; i < MAX_PROCS; i++) {
		if (s->pipes[i][0] >= 0)
			close(s->pipes[i][0]);
		if (s->pipes[i][1] >= 0)
			close(s->pipes[i][1]);
	}
	for (int i = 1; i < MAX_PROCS; i++)
		os_reap(s->pids[i]);
	free(s->data);
	free(s);
}

static int ctx_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct ctx_state *s = ctx->priv;
	int token = 0;
	for (uint64_t i = 0; i < iters; i++) {
		if (os_write_all(s->pipes[0][1], &token, sizeof(token)) < 0 ||
		    os_read_all(s->pipes[s->procs - 1][0], &token, sizeof(token)) < 0)
			return pg_error(ctx, "a process of the ring stopped passing the token");
		s->sum += sum_set(s->data, s->size);
	}
	pg_consume(s->sum);
	counts[0] = (double)iters * s->procs;
	return PG_OK;
}

/* lat_ctx-<procs>-<size in k>k */
static void ctx_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		      char *buf, size_t len)
{
	(void)b;
	(void)metric;
	snprintf(buf, len, "lat_ctx-%lld-%lldk", (long long)pg_arg_int(a, "procs"),
		 (long long)(pg_arg_int(a, "size") / 1024));
}

/* The ring is on one CPU or placed by the scheduler: spread has no meaning
 * for a ring of more than two. */
static int ctx_check(const struct pg_args *a, char *err, size_t len)
{
	if (strcmp(pg_arg_str(a, "cpu"), "spread") == 0)
		return pg_err(err, len, "cpu=spread: the ring runs on one CPU (a number or same) or any");
	return os_check_cpu(a, err, len);
}

static const struct pg_param ctx_params[] = {
	{ .name = "procs", .type = PG_P_INT, .def = "2", .min = 2, .max = MAX_PROCS,
	  .help = "processes in the ring", .quick = "2", .standard = "2,4,8,16",
	  .full = "2,4,8,16,32" },
	{ .name = "size", .type = PG_P_SIZE, .def = "0", .choices = "0,0k", .min = 0, .max = 64 << 20,
	  .help = "working set each process sums on every switch",
	  .quick = "0", .standard = "0,16k,64k,128k,256k",
	  .full = "0,4k,16k,32k,64k,128k,256k,512k,1m" },
	{ .name = "cpu", .type = PG_P_STR, .def = "0",
	  .help = "CPU all processes run on (default 0, or run --cpu's), 'same' for the first "
		  "this process may use, or 'any' to let the scheduler place them" },
	{ 0 },
};
static const struct pg_metric us_per_switch[] = {
	{ "latency", "us", PG_TIME_PER, 1e6, 0, 0 },
	{ 0 },
};

const struct pg_bench pg_os_ctx = {
	.id = "os.ctx", .title = "Context switch, token ring of processes (lat_ctx)",
	.section = &pg_os_sec_lmbench,
	.params = ctx_params, .metrics = us_per_switch, .check = ctx_check,
	.setup = ctx_setup, .step = ctx_step, .teardown = ctx_teardown, .label = ctx_label,
};
