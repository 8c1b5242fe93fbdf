/* SPDX-License-Identifier: MIT */
/*
 * One side of a round of perfguide ab: its setup, a fresh `perfguide run`
 * of the selection (through the side's prefix, with the side's binary),
 * its teardown, and the run read back from the side's results file.
 *
 * The teardown runs whenever the setup was started, whatever happened
 * after it (the setup failed, the run failed, the user stopped ab), in a
 * process group of its own with nothing to read: the terminal's Ctrl-C
 * reaches the run and the setup, never the command that puts the machine
 * back as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ab.h"

volatile sig_atomic_t ab_stop;
/* The run in progress, to pass a signal on to; 0: none. */
static volatile pid_t run_pid;

static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	ab_stop = sig;
	/* The terminal's Ctrl-C (from the kernel) reached the run too; a
	 * signal sent to ab alone (kill) is passed on, once. */
	if (si && (si->si_code == SI_USER || si->si_code == SI_QUEUE) && run_pid > 0)
		kill(run_pid, sig);
}

void ab_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* A line into the side's log, saying what runs next. */
static void log_line(const char *log, const char *what, const char *text)
{
	FILE *f = fopen(log, "a");
	if (!f)
		return;
	fprintf(f, "== %s: %s\n", what, text);
	fclose(f);
}

/* In the child: output to the log (or to fd out), a process group of its
 * own and nothing to read when alone, then argv. */
static void child_exec(char *const *argv, const char *log, int out, int alone)
{
	int fd = log ? open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : out;
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	if (!log) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0)
			dup2(null, 1);
	}
	if (alone) {
		setpgid(0, 0);
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (null >= 0)
			dup2(null, 0);
	}
	execv(argv[0], argv);
	fprintf(stderr, "perfguide: ab: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Runs argv to its end; its wait status, -1 when it could not start. The
 * run (is_run) is the one a signal sent to ab is passed on to. */
static int spawn_wait(char *const *argv, const char *log, int out, int alone, int is_run)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		child_exec(argv, log, out, alone);
	if (is_run)
		run_pid = pid;
	int status = 0;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	run_pid = 0;
	return status;
}

/* A shell command (a setup, a teardown); 0 when it exited 0. */
static int shell(const char *cmd, const char *log, const char *what, int alone, char *why, size_t len)
{
	char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
	log_line(log, what, cmd);
	int st = spawn_wait(argv, log, -1, alone, 0);
	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (st == -1)
		snprintf(why, len, "its %s could not start", what);
	else if (WIFEXITED(st))
		snprintf(why, len, "its %s exited %d", what, WEXITSTATUS(st));
	else
		snprintf(why, len, "its %s was killed by signal %d", what, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	return -1;
}

/* The run's argv: [/bin/sh -c 'exec PREFIX "$@"' sh] BIN run ARGS...
 * [--out PATH], malloc'd (the shell's text too: *cmd). */
static char **run_argv(const struct ab_side *s, char *const *args, const char *out, char **cmd)
{
	int n = 0;
	while (args[n])
		n++;
	char **v = calloc((size_t)n + 10, sizeof(*v));
	int k = 0;
	*cmd = NULL;
	if (!v)
		return NULL;
	if (s->prefix) {
		size_t len = strlen(s->prefix) + 16;
		if (!(*cmd = malloc(len))) {
			free(v);
			return NULL;
		}
		snprintf(*cmd, len, "exec %s \"$@\"", s->prefix);
		v[k++] = "/bin/sh";
		v[k++] = "-c";
		v[k++] = *cmd;
		v[k++] = "sh";
	}
	v[k++] = (char *)s->bin;
	for (int i = 0; i < n; i++)
		v[k++] = args[i];
	if (out) {
		v[k++] = "--out";
		v[k++] = (char *)out;
	}
	return v;
}

/* The run this side's results file gained past offset at. */
static enum ab_side_rc read_back(const struct ab_side *s, long at, struct pg_rrun *run, char *why, size_t len)
{
	FILE *f = fopen(s->path, "r");
	struct pg_rrun *runs = NULL;
	int n = 0;
	char err[600];
	if (!f || fseek(f, at, SEEK_SET) < 0) {
		snprintf(why, len, "its results file %s cannot be read", s->path);
		if (f)
			fclose(f);
		return AB_SIDE_LOST;
	}
	int rc = pg_rrun_read_stream(f, s->path, &runs, &n, err, sizeof(err));
	fclose(f);
	if (rc < 0 || n == 0) {
		snprintf(why, len, "the run wrote no run into %s%s%.400s", s->path, rc < 0 ? ": " : "", rc < 0 ? err : "");
		free(runs);
		return AB_SIDE_LOST;
	}
	for (int i = 0; i < n - 1; i++)
		pg_rrun_free(&runs[i]);
	*run = runs[n - 1];
	free(runs);
	return AB_SIDE_OK;
}

/* What the run's wait status says. */
static enum ab_side_rc run_status(int st, char *why, size_t len)
{
	if (st != -1 && WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 1))
		return AB_SIDE_OK;	/* 1: a benchmark failed, the run is still a run */
	if (ab_stop || (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 130) ||
	    (st != -1 && WIFSIGNALED(st) && (WTERMSIG(st) == SIGINT || WTERMSIG(st) == SIGTERM))) {
		snprintf(why, len, "stopped");
		return AB_SIDE_INTERRUPTED;
	}
	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 2) {
		snprintf(why, len, "perfguide run exited 2 (bad input)");
		return AB_SIDE_BAD_INPUT;
	}
	if (st == -1)
		snprintf(why, len, "perfguide run could not start");
	else if (WIFEXITED(st))
		snprintf(why, len, "perfguide run exited %d", WEXITSTATUS(st));
	else
		snprintf(why, len, "perfguide run was killed by signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	return AB_SIDE_LOST;
}

static enum ab_side_rc the_run(const struct ab_side *s, char *const *run_args, struct pg_rrun *run, char *why,
			       size_t len)
{
	struct stat st;
	long at = stat(s->path, &st) == 0 ? (long)st.st_size : 0;
	char *cmd;
	char **argv = run_argv(s, run_args, s->path, &cmd);
	if (!argv) {
		snprintf(why, len, "out of memory");
		return AB_SIDE_LOST;
	}
	log_line(s->log, "run", s->prefix ? s->prefix : s->bin);
	enum ab_side_rc rc = run_status(spawn_wait(argv, s->log, -1, 0, 1), why, len);
	free(argv);
	free(cmd);
	if (rc == AB_SIDE_OK) {
		rc = read_back(s, at, run, why, len);
		if (rc == AB_SIDE_OK && !run->finished) {
			pg_rrun_free(run);
			snprintf(why, len, "the run has no end record");
			rc = ab_stop ? AB_SIDE_INTERRUPTED : AB_SIDE_LOST;
		}
	}
	return rc;
}

enum ab_side_rc ab_side_run(const struct ab_side *s, char *const *run_args, struct pg_rrun *run, char *why,
			    size_t len)
{
	memset(run, 0, sizeof(*run));
	enum ab_side_rc rc = AB_SIDE_OK;
	if (s->setup && shell(s->setup, s->log, "setup", 0, why, len) < 0)
		rc = ab_stop ? AB_SIDE_INTERRUPTED : AB_SIDE_SETUP_FAILED;	/* Ctrl-C reached it too */
	else if (ab_stop)
		rc = AB_SIDE_INTERRUPTED;
	else
		rc = the_run(s, run_args, run, why, len);
	if (s->teardown) {
		char twhy[200];
		if (shell(s->teardown, s->log, "teardown", 1, twhy, sizeof(twhy)) < 0) {
			if (rc == AB_SIDE_OK)
				pg_rrun_free(run);
			snprintf(why, len, "%s", twhy);
			rc = AB_SIDE_TEARDOWN_FAILED;
		}
	}
	return rc;
}

int ab_side_check(const struct ab_side *s, char *const *run_args, char *err, size_t len)
{
	int n = 0;
	while (run_args[n])
		n++;
	char **args = calloc((size_t)n + 2, sizeof(*args));
	int fds[2];
	if (!args || pipe(fds) < 0) {
		free(args);
		snprintf(err, len, "out of memory");
		return -1;
	}
	memcpy(args, run_args, sizeof(*args) * (size_t)n);
	args[n] = "--dry-run";
	struct ab_side bare = { .bin = s->bin };
	char *cmd;
	char **argv = run_argv(&bare, args, NULL, &cmd);
	int st = argv ? spawn_wait(argv, NULL, fds[1], 0, 0) : -1;
	close(fds[1]);
	ssize_t got = read(fds[0], err, len - 1);
	close(fds[0]);
	err[got > 0 ? got : 0] = '\0';
	err[strcspn(err, "\n")] = '\0';
	free(argv);
	free(args);
	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (!err[0])
		snprintf(err, len, "%s run --dry-run failed", s->bin);
	return -1;
}
