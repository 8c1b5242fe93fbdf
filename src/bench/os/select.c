/* SPDX-License-Identifier: MIT */
/*
 * select() on many descriptors, LMBench's lat_select (tcp): n= descriptors
 * of one listening TCP socket on 127.0.0.1 (the first, and dup()s of it),
 * none ready; one operation is one select() over all of them with a zero
 * timeout, so the figure is the kernel's cost of polling n descriptors.
 *
 * os.sem is LMBench's lat_sem: two processes hand a pair of System V
 * semaphores back and forth, each with one semop() that takes its own and
 * gives the other's at once (semaphore 1 starts given, so the ring is
 * primed). One round trip is two hand-offs, and the figure is per hand-off,
 * as lat_sem counts it.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/select.h>
#include <sys/sem.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>

#include "os.h"
#include "core/err.h"

struct sel_state {
	int n;
	int fds[FD_SETSIZE];
	int maxfd;
	fd_set set;
};

static int sel_check(const struct pg_args *a, char *err, size_t errlen)
{
	if (pg_arg_int(a, "n") > FD_SETSIZE - 32)
		return pg_err(err, errlen, "n must be at most %d (select's FD_SETSIZE less room)", FD_SETSIZE - 32);
	return 0;
}

static int sel_setup(struct pg_ctx *ctx)
{
	struct sel_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	int want = (int)pg_arg_int(ctx->args, "n");
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return pg_skip(ctx, "no TCP sockets here: %s", strerror(errno));
	s->fds[s->n++] = fd;
	struct sockaddr_in addr;
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0 || listen(fd, 8) != 0)
		return pg_skip(ctx, "cannot listen on 127.0.0.1: %s", strerror(errno));
	while (s->n < want) {
		int d = dup(fd);
		if (d < 0)
			return pg_skip(ctx, "cannot open %d descriptors (%s): raise ulimit -n", want,
				       strerror(errno));
		if (d >= FD_SETSIZE) {
			close(d);
			return pg_skip(ctx, "descriptor numbers reach FD_SETSIZE: too many files open");
		}
		s->fds[s->n++] = d;
	}
	FD_ZERO(&s->set);
	for (int i = 0; i < s->n; i++) {
		FD_SET(s->fds[i], &s->set);
		if (s->fds[i] > s->maxfd)
			s->maxfd = s->fds[i];
	}
	return PG_OK;
}

static void sel_teardown(struct pg_ctx *ctx)
{
	struct sel_state *s = ctx->priv;
	if (!s)
		return;
	for (int i = 0; i < s->n; i++)
		close(s->fds[i]);
	free(s);
}

static int sel_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct sel_state *s = ctx->priv;
	for (uint64_t i = 0; i < iters; i++) {
		fd_set r = s->set;
		struct timeval tv = { 0, 0 };
		int rc = select(s->maxfd + 1, &r, NULL, NULL, &tv);
		if (rc < 0 && errno != EINTR)
			return pg_error(ctx, "select failed: %s", strerror(errno));
		if (rc > 0)
			return pg_error(ctx, "a listening socket nobody connects to became ready");
	}
	counts[0] = (double)iters;
	return PG_OK;
}

static void sel_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		      char *buf, size_t len)
{
	(void)b;
	(void)metric;
	if (pg_arg_int(a, "n") == 200)
		snprintf(buf, len, "lat_select");
	else
		buf[0] = '\0';
}

static const struct pg_param sel_params[] = {
	{ .name = "n", .type = PG_P_INT, .def = "200", .min = 1, .max = FD_SETSIZE,
	  .help = "TCP descriptors in the set (LMBench's row uses 200)",
	  .full = "10,100,200,500" },
	{ 0 },
};
static const struct pg_metric us_per_op[] = {
	{ "latency", "us", PG_TIME_PER, 1e6, 0, 0 },
	{ 0 },
};

const struct pg_bench pg_os_select = {
	.id = "os.select", .title = "select() on TCP descriptors (lat_select tcp)",
	.section = &pg_os_sec_lmbench,
	.params = sel_params, .metrics = us_per_op, .check = sel_check,
	.setup = sel_setup, .step = sel_step, .teardown = sel_teardown, .label = sel_label,
};

/* --- System V semaphores --- */

struct sem_state {
	int id;
	pid_t pid;
};

/* Takes semaphore `take` and gives `give` in one atomic semop(). */
static int hand_off(int id, unsigned short take, unsigned short give)
{
	struct sembuf b[2] = { { take, -1, 0 }, { give, 1, 0 } };
	while (semop(id, b, 2) != 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* Takes semaphore 0 and gives 1, until it is killed. */
static void sem_peer(void *arg)
{
	struct sem_state *s = arg;
	while (hand_off(s->id, 0, 1) == 0)
		;
}

static int sem_setup(struct pg_ctx *ctx)
{
	struct sem_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->id = semget(IPC_PRIVATE, 2, IPC_CREAT | IPC_EXCL | 0600);
	if (s->id < 0)
		return pg_skip(ctx, "no System V semaphores here (%s): a kernel with CONFIG_SYSVIPC",
			       strerror(errno));
	if (semctl(s->id, 1, SETVAL, 1) != 0)
		return pg_error(ctx, "cannot set a semaphore: %s", strerror(errno));
	/* Placed as ipc.c's exchanges are, for the same reason. */
	return os_spawn_peer(ctx, sem_peer, s, &s->pid);
}

static void sem_teardown(struct pg_ctx *ctx)
{
	struct sem_state *s = ctx->priv;
	if (!s)
		return;
	os_reap(s->pid);
	if (s->id >= 0)
		semctl(s->id, 0, IPC_RMID);
	free(s);
}

static int sem_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct sem_state *s = ctx->priv;
	for (uint64_t i = 0; i < iters; i++)
		if (hand_off(s->id, 1, 0) != 0)
			return pg_error(ctx, "semop failed: %s", strerror(errno));
	counts[0] = 2.0 * (double)iters;
	return PG_OK;
}

static void sem_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		      char *buf, size_t len)
{
	(void)b;
	(void)a;
	(void)metric;
	snprintf(buf, len, "lat_sem");
}

static const struct pg_param sem_params[] = {
	{ .name = "cpu", .type = PG_P_STR, .def = "same",
	  .help = "where the two processes run: same (one CPU), spread (two CPUs), any "
		  "(the scheduler's choice, as lat_sem run bare) or a CPU number" },
	{ 0 },
};

const struct pg_bench pg_os_sem = {
	.id = "os.sem", .title = "System V semaphore hand-off between two processes (lat_sem)",
	.section = &pg_os_sec_lmbench,
	.params = sem_params, .metrics = us_per_op, .check = os_check_cpu,
	.setup = sem_setup, .step = sem_step, .teardown = sem_teardown, .label = sem_label,
};
