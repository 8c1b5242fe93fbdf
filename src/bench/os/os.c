/* SPDX-License-Identifier: MIT */
/* The operating-system group's table and what its files share. */
#include <errno.h>
#include <ftw.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/lmbench.h"
#include "core/err.h"
#include "core/timer.h"
#include "os.h"
#include "core/registry.h"

double os_time_per(void (*fn)(void *arg, uint64_t n), void *arg)
{
	uint64_t n = 1;
	double best = 0;
	for (int k = 0; k < 40; k++) {
		double t0 = pg_now();
		fn(arg, n);
		double el = pg_now() - t0;
		if (el >= 0.02)
			break;
		n = el < 0.0002 ? n * 10 : (uint64_t)((double)n * 0.021 / el) + 1;
	}
	for (int r = 0; r < 5; r++) {
		double t0 = pg_now();
		fn(arg, n);
		double per = (pg_now() - t0) / (double)n;
		if (r == 0 || per < best)
			best = per;
	}
	return best;
}

int os_private_dir(struct pg_ctx *ctx, const char *base, char *out, size_t len)
{
	if (!base || !*base || strcmp(base, "auto") == 0)
		base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	if ((size_t)snprintf(out, len, "%s/perfguide-os.XXXXXX", base) >= len)
		return pg_error(ctx, "directory name too long: %s", base);
	if (!mkdtemp(out)) {
		int e = errno;
		out[0] = '\0';
		return pg_skip(ctx, "cannot make a directory in %s (%s): give a writable dir=",
			       base, strerror(e));
	}
	return PG_OK;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void os_remove_tree(const char *path)
{
	if (path && *path)
		nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

pid_t os_spawn(void (*fn)(void *arg), void *arg)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	/* Never outlive the run, even when perfguide is killed outright. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	fn(arg);
	_exit(0);
}

void os_reap(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* read(2) or write(2) until len bytes are done; EINTR is retried. */
static int io_all(ssize_t (*io)(int, void *, size_t), int fd, void *buf, size_t len)
{
	char *p = buf;
	while (len > 0) {
		ssize_t n = io(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static ssize_t write_fn(int fd, void *buf, size_t len)
{
	return write(fd, buf, len);
}

int os_write_all(int fd, const void *buf, size_t len)
{
	return io_all(write_fn, fd, (void *)buf, len);
}

int os_read_all(int fd, void *buf, size_t len)
{
	return io_all(read, fd, buf, len);
}

/* The n-th CPU (from 0) this thread may run on, or -1. */
static int allowed_cpu(int n)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set) && n-- == 0)
			return c;
	return -1;
}

int os_place(struct pg_ctx *ctx, const char *how, struct os_place *p)
{
	p->self = p->peer = -1;
	if (!how || !*how || strcmp(how, "any") == 0)
		return PG_OK;
	if (strcmp(how, "same") == 0 || strcmp(how, "spread") == 0) {
		p->self = allowed_cpu(0);
		p->peer = strcmp(how, "same") == 0 ? p->self : allowed_cpu(1);
		if (p->self < 0)
			return pg_error(ctx, "cannot read this process's CPUs: %s", strerror(errno));
		if (p->peer < 0)
			return pg_skip(ctx, "cpu=spread needs two CPUs and this process may use one "
					    "(see --cpu, taskset): use cpu=same");
		return PG_OK;
	}
	char *end;
	long c = strtol(how, &end, 10);
	if (*end || end == how || c < 0 || c >= CPU_SETSIZE)
		return pg_error(ctx, "cpu=%s: give same, spread, any or a CPU number", how);
	p->self = p->peer = (int)c;
	return PG_OK;
}

int os_check_cpu(const struct pg_args *a, char *err, size_t len)
{
	const char *how = pg_arg_str(a, "cpu");
	if (strcmp(how, "same") == 0 || strcmp(how, "spread") == 0 || strcmp(how, "any") == 0)
		return 0;
	char *end;
	long c = strtol(how, &end, 10);
	if (*end || end == how || c < 0 || c >= CPU_SETSIZE)
		return pg_err(err, len, "cpu=%s: give same, spread, any or a CPU number", how);
	return 0;
}

int os_run_on(struct pg_ctx *ctx, int cpu)
{
	if (cpu < 0)
		return PG_OK;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return pg_skip(ctx, "cannot run on CPU %d (%s): pick one of this machine's CPUs",
			       cpu, strerror(errno));
	return PG_OK;
}

void os_place_text(const struct os_place *p, char *buf, size_t len)
{
	if (p->self < 0)
		snprintf(buf, len, "placed by the scheduler");
	else if (p->self == p->peer)
		snprintf(buf, len, "all processes on CPU %d", p->self);
	else
		snprintf(buf, len, "this process on CPU %d, its peer on CPU %d", p->self, p->peer);
}

int os_spawn_peer(struct pg_ctx *ctx, void (*fn)(void *arg), void *arg, pid_t *pid)
{
	struct os_place p;
	int rc = os_place(ctx, pg_arg_str(ctx->args, "cpu"), &p);
	if (rc == PG_OK)
		rc = os_run_on(ctx, p.peer); /* the peer inherits it */
	if (rc != PG_OK)
		return rc;
	*pid = os_spawn(fn, arg);
	if (*pid < 0)
		return pg_skip(ctx, "cannot fork a peer process: %s", strerror(errno));
	rc = os_run_on(ctx, p.self);
	char where[96];
	os_place_text(&p, where, sizeof(where));
	pg_note(ctx, "%s", where);
	return rc;
}

int os_pin(struct pg_ctx *ctx, const char *cpu)
{
	struct os_place p;
	int rc = os_place(ctx, cpu, &p);
	if (rc == PG_OK && p.self != p.peer)
		rc = pg_error(ctx, "cpu=spread: this benchmark's processes all run on one CPU or 'any'");
	if (rc == PG_OK)
		rc = os_run_on(ctx, p.self);
	if (rc == PG_OK && p.self >= 0)
		pg_note(ctx, "all processes on CPU %d", p.self);
	return rc;
}

const struct pg_section pg_os_sec_lmbench = PG_SECTION_LMBENCH;
const struct pg_section pg_os_sec_boot = { .title = "Boot time", .order = 90 };

/* In the order of the seed's LMBench table. */
const struct pg_bench *const pg_group_os[] = {
	&pg_os_syscall_null,
	&pg_os_syscall_read,
	&pg_os_syscall_write,
	&pg_os_syscall_stat,
	&pg_os_syscall_fstat,
	&pg_os_syscall_open,
	&pg_os_sig_install,
	&pg_os_sig_catch,
	&pg_os_sig_prot,
	&pg_os_proc_fork,
	&pg_os_proc_exec,
	&pg_os_proc_shell,
	&pg_os_ctx,
	&pg_os_pipe_lat,
	&pg_os_pipe_bw,
	&pg_os_unix_lat,
	&pg_os_unix_bw,
	&pg_os_tcp_lat,
	&pg_os_tcp_bw,
	&pg_os_connect,
	&pg_os_select,
	&pg_os_sem,
	&pg_os_pagefault,
	&pg_os_mmap,
	&pg_os_fs_create,
	&pg_os_fs_delete,
	&pg_os_file_rd_io,
	&pg_os_file_rd_o2c,
	&pg_os_mmap_rd_mo,
	&pg_os_mmap_rd_o2c,
	&pg_os_boot_kernel,
	&pg_os_boot_userspace,
	NULL,
};

const struct pg_helper pg_helpers_os[] = {
	{ OS_HELPER_LAT_PROC, os_proc_helper },
	{ NULL, NULL },
};
