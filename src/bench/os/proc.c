/*
 * Process creation, LMBench's lat_proc. One operation is one child, from
 * fork() until the parent has reaped it:
 *   fork   the child exits at once;
 *   exec   the child execs prog= (default /bin/true; lat_proc runs a tiny
 *          "hello" program);
 *   shell  the child runs /bin/sh -c prog.
 * A child that does not exit with status 0 is an error, not a number.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os.h"

enum proc_kind { PROC_FORK, PROC_EXEC, PROC_SHELL };

static int proc_setup(struct pg_ctx *ctx)
{
	enum proc_kind k = *(const enum proc_kind *)ctx->bench->data;
	if (k == PROC_FORK)
		return PG_OK;
	const char *prog = pg_arg_str(ctx->args, "prog");
	if (access(prog, X_OK) != 0)
		return pg_skip(ctx, "%s is not an executable here: give prog=", prog);
	if (k == PROC_SHELL && access("/bin/sh", X_OK) != 0)
		return pg_skip(ctx, "no /bin/sh");
	return PG_OK;
}

static int proc_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	enum proc_kind k = *(const enum proc_kind *)ctx->bench->data;
	const char *prog = k == PROC_FORK ? NULL : pg_arg_str(ctx->args, "prog");
	uint64_t done = 0;
	for (uint64_t i = 0; i < iters; i++) {
		pid_t pid = fork();
		if (pid < 0)
			return pg_error(ctx, "fork failed: %s", strerror(errno));
		if (pid == 0) {
			if (k == PROC_EXEC)
				execl(prog, prog, (char *)NULL);
			else if (k == PROC_SHELL)
				execl("/bin/sh", "sh", "-c", prog, (char *)NULL);
			_exit(k == PROC_FORK ? 0 : 127);
		}
		int st;
		while (waitpid(pid, &st, 0) < 0)
			if (errno != EINTR)
				return pg_error(ctx, "waitpid failed: %s", strerror(errno));
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			return pg_error(ctx, "child did not exit cleanly (status 0x%x)", st);
		done++;
	}
	counts[0] = (double)done;
	return PG_OK;
}

static void proc_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		       char *buf, size_t len)
{
	(void)a;
	(void)metric;
	const char *k = strrchr(b->id, '.') + 1;
	/* The seed has rows for fork and exec only; shell has no row. */
	if (strcmp(k, "shell") == 0)
		buf[0] = '\0';
	else
		snprintf(buf, len, "lat_proc-%s", k);
}

static const struct pg_param no_params[] = { { 0 } };
static const struct pg_param prog_params[] = {
	{ .name = "prog", .type = PG_P_STR, .def = "/bin/true",
	  .help = "program the child runs (absolute path)" },
	{ 0 },
};
static const struct pg_metric us_per_proc[] = {
	{ "latency", "us", PG_TIME_PER, 1e6, 0, 0 },
	{ 0 },
};

static const enum proc_kind k_fork = PROC_FORK, k_exec = PROC_EXEC, k_shell = PROC_SHELL;

const struct pg_bench pg_os_proc_fork = {
	.id = "os.proc.fork", .title = "fork() and exit (lat_proc fork)",
	.section = &pg_os_sec_lmbench,
	.params = no_params, .metrics = us_per_proc, .data = &k_fork,
	.setup = proc_setup, .step = proc_step, .label = proc_label,
};
const struct pg_bench pg_os_proc_exec = {
	.id = "os.proc.exec", .title = "fork() and execve() (lat_proc exec)",
	.section = &pg_os_sec_lmbench,
	.params = prog_params, .metrics = us_per_proc, .data = &k_exec,
	.setup = proc_setup, .step = proc_step, .label = proc_label,
};
const struct pg_bench pg_os_proc_shell = {
	.id = "os.proc.shell", .title = "fork() and /bin/sh -c (lat_proc shell)",
	.section = &pg_os_sec_lmbench,
	.params = prog_params, .metrics = us_per_proc, .data = &k_shell, .min_suite = PG_IN_STANDARD,
	.setup = proc_setup, .step = proc_step, .label = proc_label,
};
