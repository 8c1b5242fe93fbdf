/* SPDX-License-Identifier: MIT */
/*
 * Process creation, LMBench's lat_proc. One operation is one child, from
 * fork() until the parent has reaped it:
 *   fork   the child exits at once;
 *   exec   the child closes its standard output and execs prog= (default
 *          /bin/true; lat_proc runs its tiny "hello") with an empty
 *          environment, as lat_proc's execve(PROG, argv, 0);
 *   shell  the child runs /bin/sh -c prog.
 * A child that does not exit with status 0 is an error, not a number.
 *
 * What fork and exit cost grows with the parent: every mapping is copied at
 * fork and torn down at exit, every anonymous page's entry too. lat_proc is
 * a small program (about 23 mappings and 1.4 MB resident here); perfguide
 * by the time it runs a benchmark has its libraries, heap and results (48
 * mappings, 4.2 MB), and forked 1.47x slower, exec'd 1.32x. So the children
 * are made by a helper: perfguide started afresh (/proc/self/exe) as
 * `perfguide __lat-proc-helper KIND PROG` (its group's helper table), which does the forks a step asks
 * for and nothing else. With the static build boards run it is smaller than
 * lat_proc; a dynamically linked perfguide still carries its libraries (the
 * result's note gives the helper's mappings and resident size). Where the
 * helper cannot be started (no /proc) the children are forked from perfguide
 * itself, and the note says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os.h"

enum proc_kind { PROC_FORK, PROC_EXEC, PROC_SHELL };

static const char *const kind_names[] = { "fork", "exec", "shell" };

/* What the helper answers each request with. */
struct helper_reply {
	uint64_t done;		/* children reaped with status 0 */
	int32_t status;		/* wait status of the first bad child, or -errno */
	int32_t failed;		/* 0, or 1 when `status` says what went wrong */
};

struct proc_state {
	pid_t helper;		/* 0: children are forked here */
	int to_helper, from_helper;
};

extern char **environ;

/* One child of the kind asked for, reaped. 0, or the failure's status in
 * *status (a wait status, or -errno when fork or waitpid failed). */
static int one_child(enum proc_kind k, const char *prog, int32_t *status)
{
	char *nav[2] = { (char *)prog, NULL };
	pid_t pid = fork();
	if (pid < 0) {
		*status = -errno;
		return -1;
	}
	if (pid == 0) {
		if (k == PROC_FORK)
			exit(0);
		close(1);
		if (k == PROC_EXEC)
			execve(prog, nav, NULL);
		else
			execle("/bin/sh", "sh", "-c", prog, (char *)NULL, environ);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			*status = -errno;
			return -1;
		}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		*status = st;
		return -1;
	}
	return 0;
}

static int children(enum proc_kind k, const char *prog, uint64_t n, struct helper_reply *r)
{
	memset(r, 0, sizeof(*r));
	for (uint64_t i = 0; i < n; i++) {
		if (one_child(k, prog, &r->status) != 0) {
			r->failed = 1;
			return -1;
		}
		r->done++;
	}
	return 0;
}

/* `perfguide __lat-proc-helper KIND PROG`: reads counts (uint64_t) on
 * standard input, makes that many children, answers with a helper_reply on
 * standard output; ends at end of input. A count of 0 is a ping. */
int os_proc_helper(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	enum proc_kind k;
	if (strcmp(argv[1], "fork") == 0)
		k = PROC_FORK;
	else if (strcmp(argv[1], "exec") == 0)
		k = PROC_EXEC;
	else if (strcmp(argv[1], "shell") == 0)
		k = PROC_SHELL;
	else
		return 2;
	signal(SIGINT, SIG_IGN);
	uint64_t n;
	struct helper_reply r;
	while (os_read_all(0, &n, sizeof(n)) == 0) {
		children(k, argv[2], n, &r);
		if (os_write_all(1, &r, sizeof(r)) != 0)
			return 1;
	}
	return 0;
}

/* "N mappings, M KiB resident, A KiB of it anonymous" of process pid, for
 * the note: fork copies every mapping and every anonymous page's entry. */
static void proc_describe(pid_t pid, char *buf, size_t len)
{
	char path[64], line[256];
	int maps = 0;
	long rss = -1, anon = -1;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (strchr(line, '\n'))
				maps++;
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "r"))) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "VmRSS: %ld kB", &rss) != 1)
				sscanf(line, "RssAnon: %ld kB", &anon);
		fclose(f);
	}
	snprintf(buf, len, "%d mappings, %ld KiB resident, %ld KiB anonymous", maps, rss, anon);
}

static int ask(struct proc_state *s, uint64_t n, struct helper_reply *r)
{
	if (os_write_all(s->to_helper, &n, sizeof(n)) != 0)
		return -1;
	return os_read_all(s->from_helper, r, sizeof(*r));
}

/* Starts the helper; 0 when it answered a ping, else -1 (nothing left). */
static int start_helper(struct proc_state *s, enum proc_kind k, const char *prog)
{
	int down[2], up[2];
	if (pipe2(down, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(up, O_CLOEXEC) != 0) {
		close(down[0]);
		close(down[1]);
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		/* Never outlive the run. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (dup2(down[0], 0) < 0 || dup2(up[1], 1) < 0)
			_exit(127);
		/* Nor inherit the run's files: fork copies the descriptor table. */
		for (int fd = 3; fd < 1024; fd++)
			close(fd);
		/* argv[0] as perfguide's, so ps shows whose helper it is. */
		char *hav[] = { program_invocation_name, OS_HELPER_LAT_PROC, (char *)kind_names[k],
				(char *)prog, NULL };
		execve("/proc/self/exe", hav, environ);
		_exit(127);
	}
	close(down[0]);
	close(up[1]);
	s->to_helper = down[1];
	s->from_helper = up[0];
	s->helper = pid;
	struct helper_reply r;
	if (pid > 0 && ask(s, 0, &r) == 0 && !r.failed)
		return 0;
	close(s->to_helper);
	close(s->from_helper);
	os_reap(pid);
	s->helper = 0;
	s->to_helper = s->from_helper = -1;
	return -1;
}

static int proc_setup(struct pg_ctx *ctx)
{
	enum proc_kind k = *(const enum proc_kind *)ctx->bench->data;
	const char *prog = k == PROC_FORK ? "-" : pg_arg_str(ctx->args, "prog");
	if (k != PROC_FORK && access(prog, X_OK) != 0)
		return pg_skip(ctx, "%s is not an executable here: give prog=", prog);
	if (k == PROC_SHELL && access("/bin/sh", X_OK) != 0)
		return pg_skip(ctx, "no /bin/sh");
	struct proc_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	s->to_helper = s->from_helper = -1;
	ctx->priv = s;
	char what[128];
	if (strcmp(pg_arg_str(ctx->args, "from"), "helper") == 0 && start_helper(s, k, prog) == 0) {
		proc_describe(s->helper, what, sizeof(what));
		pg_note(ctx, "forked by a helper process (perfguide started afresh: %s)", what);
	} else {
		proc_describe(getpid(), what, sizeof(what));
		pg_note(ctx, "forked by perfguide itself (%s)%s", what,
			strcmp(pg_arg_str(ctx->args, "from"), "helper") == 0
				? ": the helper could not be started from /proc/self/exe" : "");
	}
	return PG_OK;
}

static void proc_teardown(struct pg_ctx *ctx)
{
	struct proc_state *s = ctx->priv;
	if (!s)
		return;
	if (s->helper > 0) {
		close(s->to_helper);
		close(s->from_helper);
		os_reap(s->helper);
	}
	free(s);
}

static int proc_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	enum proc_kind k = *(const enum proc_kind *)ctx->bench->data;
	struct proc_state *s = ctx->priv;
	const char *prog = pg_arg_str(ctx->args, "prog");
	struct helper_reply r;
	if (s->helper > 0) {
		if (ask(s, iters, &r) != 0)
			return pg_error(ctx, "the fork helper stopped answering");
	} else {
		children(k, prog, iters, &r);
	}
	if (r.failed && r.status < 0)
		return pg_error(ctx, "fork or waitpid failed: %s", strerror(-r.status));
	if (r.failed)
		return pg_error(ctx, "child did not exit cleanly (status 0x%x)", (unsigned)r.status);
	counts[0] = (double)r.done;
	return PG_OK;
}

static void proc_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		       char *buf, size_t len)
{
	(void)metric;
	const char *k = strrchr(b->id, '.') + 1;
	/* The seed has rows for fork and exec only; shell has no row; forks
	 * from perfguide itself are not lat_proc's. */
	if (strcmp(k, "shell") == 0 || strcmp(pg_arg_str(a, "from"), "helper") != 0)
		buf[0] = '\0';
	else
		snprintf(buf, len, "lat_proc-%s", k);
}

#define FROM_PARAM                                                                    \
	{ .name = "from", .type = PG_P_STR, .def = "helper", .choices = "helper,self",   \
	  .help = "the parent of the children: a small helper process, as lat_proc's "   \
		  "small program is, or perfguide itself" }

static const struct pg_param fork_params[] = {
	FROM_PARAM,
	{ 0 },
};
static const struct pg_param prog_params[] = {
	{ .name = "prog", .type = PG_P_STR, .def = "/bin/true",
	  .help = "program the child runs (absolute path)" },
	FROM_PARAM,
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
	.params = fork_params, .metrics = us_per_proc, .data = &k_fork,
	.setup = proc_setup, .step = proc_step, .teardown = proc_teardown, .label = proc_label,
};
const struct pg_bench pg_os_proc_exec = {
	.id = "os.proc.exec", .title = "fork() and execve() (lat_proc exec)",
	.section = &pg_os_sec_lmbench,
	.params = prog_params, .metrics = us_per_proc, .data = &k_exec,
	.setup = proc_setup, .step = proc_step, .teardown = proc_teardown, .label = proc_label,
};
const struct pg_bench pg_os_proc_shell = {
	.id = "os.proc.shell", .title = "fork() and /bin/sh -c (lat_proc shell)",
	.section = &pg_os_sec_lmbench,
	.params = prog_params, .metrics = us_per_proc, .data = &k_shell, .min_suite = PG_IN_STANDARD,
	.setup = proc_setup, .step = proc_step, .teardown = proc_teardown, .label = proc_label,
};
