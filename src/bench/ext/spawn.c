/* SPDX-License-Identifier: MIT */
/*
 * Running an external suite's program: fork and exec with an argument
 * vector (never a shell), its output captured, a timeout, and the raw
 * output kept beside the results file.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/raw.h"
#include "core/runner.h"
#include "core/timer.h"
#include "ext.h"
#include "core/err.h"

/* How often the wait for output looks at the clock and at Ctrl-C. */
#define POLL_MS 200

/* Only async-signal-safe calls between fork and exec: the runner's
 * threads may hold locks the child would never see released. */
static void child(char *const argv[], const char *dir, int out_fd, int err_fd, int null_fd,
		  const cpu_set_t *cpus, pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	setpgid(0, 0);
	/* The runner's threads block every signal and a blocked mask survives
	 * exec: the program gets the ordinary one, and default actions. */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGPIPE, &dfl, NULL);
	if (dup2(null_fd, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0 ||
	    dup2(err_fd, STDERR_FILENO) < 0)
		_exit(127);
	if (cpus)
		sched_setaffinity(0, sizeof(*cpus), cpus);
	if (dir && chdir(dir) != 0) {
		static const char msg[] = "perfguide: cannot enter the program's directory\n";
		ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
		(void)w;
		_exit(127);
	}
	execv(argv[0], argv);
	static const char msg[] = "perfguide: exec failed\n";
	ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)w;
	_exit(127);
}

static int append(struct ext_text *t, const char *buf, size_t n)
{
	if (t->truncated)
		return 0;
	if (t->len + n > EXT_OUT_MAX) {
		n = EXT_OUT_MAX - t->len;
		t->truncated = 1;
	}
	if (t->len + n + 1 > t->cap) {
		size_t nc = t->cap ? t->cap : 4096;
		while (nc < t->len + n + 1)
			nc *= 2;
		char *np = realloc(t->s, nc);
		if (!np)
			return -1;
		t->s = np;
		t->cap = nc;
	}
	memcpy(t->s + t->len, buf, n);
	t->len += n;
	t->s[t->len] = '\0';
	return 0;
}

static void kill_group(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/* Reads what is there on the open pipes; returns how many are still open. */
static int drain(struct pollfd *pfd, struct ext_text **to, int ms)
{
	int n = poll(pfd, 2, ms);
	if (n < 0 && errno != EINTR)
		return 0;
	for (int i = 0; n > 0 && i < 2; i++) {
		if (pfd[i].fd < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		char buf[8192];
		ssize_t r = read(pfd[i].fd, buf, sizeof(buf));
		if (r > 0) {
			if (append(to[i], buf, (size_t)r) < 0)
				to[i]->truncated = 1;
		} else if (r == 0 || errno != EINTR) {
			close(pfd[i].fd);
			pfd[i].fd = -1;
		}
	}
	return (pfd[0].fd >= 0) + (pfd[1].fd >= 0);
}

/* The program's stdin (/dev/null) and its two output pipes; 0, or -1 with
 * err set and nothing left open. */
static int open_pipes(int o[2], int e[2], int *null_fd, char *err, size_t errlen)
{
	*null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (*null_fd >= 0 && pipe2(o, O_CLOEXEC) == 0 && pipe2(e, O_CLOEXEC) == 0)
		return 0;
	pg_err(err, errlen, "cannot make the program's pipes: %s", strerror(errno));
	for (int i = 0; i < 2; i++) {
		if (o[i] >= 0)
			close(o[i]);
		if (e[i] >= 0)
			close(e[i]);
	}
	if (*null_fd >= 0)
		close(*null_fd);
	return -1;
}

/* Reads the program's output until both pipes close and it exits, its time
 * is up or the run is interrupted; then ends its process group and reaps it. */
static void collect(pid_t pid, int out_fd, int err_fd, double t0, double timeout_s,
		    struct ext_proc *p)
{
	struct pollfd pfd[2] = { { .fd = out_fd, .events = POLLIN }, { .fd = err_fd, .events = POLLIN } };
	struct ext_text *to[2] = { &p->out, &p->err };
	int open_fds = 2, reaped = 0;
	for (;;) {
		double left = timeout_s - (pg_now() - t0);
		if (left <= 0) {
			p->timed_out = 1;
			break;
		}
		if (pg_interrupted) {
			p->interrupted = 1;
			break;
		}
		int ms = left * 1000 < POLL_MS ? (int)(left * 1000) + 1 : POLL_MS;
		if (open_fds > 0) {
			open_fds = drain(pfd, to, ms);
			continue;
		}
		/* Both outputs closed: wait for the exit, still bounded. */
		pid_t w = waitpid(pid, &p->status, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR)) {
			reaped = 1;
			break;
		}
		pg_sleep_s(0.01);
	}
	for (int i = 0; i < 2; i++)
		if (pfd[i].fd >= 0)
			close(pfd[i].fd);
	/* Whatever it left running in its group goes with it. */
	kill_group(pid);
	if (!reaped)
		while (waitpid(pid, &p->status, 0) < 0 && errno == EINTR)
			;
}

int ext_run(char *const argv[], const char *dir, const int *cpus, int ncpus,
	    double timeout_s, struct ext_proc *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	if (append(&p->out, "", 0) < 0 || append(&p->err, "", 0) < 0) {
		ext_proc_free(p);
		return pg_err(err, errlen, "out of memory");
	}
	cpu_set_t set, *setp = NULL;
	if (cpus && ncpus > 0) {
		CPU_ZERO(&set);
		for (int i = 0; i < ncpus; i++)
			if (cpus[i] >= 0 && cpus[i] < CPU_SETSIZE)
				CPU_SET(cpus[i], &set);
		setp = &set;
	}
	int o[2] = { -1, -1 }, e[2] = { -1, -1 }, null_fd;
	if (open_pipes(o, e, &null_fd, err, errlen) < 0) {
		ext_proc_free(p);
		return -1;
	}
	pid_t parent = getpid();
	double t0 = pg_now();
	pid_t pid = fork();
	if (pid == 0)
		child(argv, dir, o[1], e[1], null_fd, setp, parent);
	int fork_errno = errno;
	close(o[1]);
	close(e[1]);
	close(null_fd);
	if (pid < 0) {
		pg_err(err, errlen, "fork: %s", strerror(fork_errno));
		close(o[0]);
		close(e[0]);
		ext_proc_free(p);
		return -1;
	}
	setpgid(pid, pid);	/* also here, so a kill never misses the group */
	collect(pid, o[0], e[0], t0, timeout_s, p);
	p->seconds = pg_now() - t0;
	return 0;
}

void ext_proc_free(struct ext_proc *p)
{
	free(p->out.s);
	free(p->err.s);
	memset(&p->out, 0, sizeof(p->out));
	memset(&p->err, 0, sizeof(p->err));
}

int ext_proc_ok(const struct ext_proc *p)
{
	return !p->timed_out && !p->interrupted && !p->out.truncated && WIFEXITED(p->status) &&
	       WEXITSTATUS(p->status) == 0;
}

void ext_proc_describe(const struct ext_proc *p, double timeout_s, char *buf, size_t len)
{
	if (p->timed_out)
		snprintf(buf, len, "timed out after %g s", timeout_s);
	else if (p->interrupted)
		snprintf(buf, len, "stopped: the run was interrupted");
	else if (WIFSIGNALED(p->status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(p->status),
			 strsignal(WTERMSIG(p->status)));
	else if (WIFEXITED(p->status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(p->status));
	else
		snprintf(buf, len, "ended with status 0x%x", (unsigned)p->status);
	if (p->out.truncated && len > 0) {
		size_t l = strlen(buf);
		snprintf(buf + l, len - l, "%s", ", output over 4 MiB cut short");
	}
}

int ext_next_line(const char **pos, char *line, size_t len)
{
	const char *p = *pos;
	if (!*p)
		return 0;
	const char *nl = strchr(p, '\n');
	size_t n = nl ? (size_t)(nl - p) : strlen(p);
	*pos = nl ? nl + 1 : p + n;
	if (n >= len)
		n = len - 1;
	memcpy(line, p, n);
	line[n] = '\0';
	while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' '))
		line[--n] = '\0';
	return 1;
}

static void last_line(const char *text, char *buf, size_t len)
{
	const char *end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	const char *start = end;
	while (start > text && start[-1] != '\n')
		start--;
	size_t n = (size_t)(end - start);
	if (n >= len)
		n = len - 1;
	memcpy(buf, start, n);
	buf[n] = '\0';
}

void ext_last_line(const struct ext_proc *p, char *buf, size_t len)
{
	if (len == 0)
		return;
	buf[0] = '\0';
	if (p->err.s)
		last_line(p->err.s, buf, len);
	if (!buf[0] && p->out.s)
		last_line(p->out.s, buf, len);
}

int ext_which(const char *name, char *out, size_t len)
{
	if (!name || !*name)
		return -1;
	if (strchr(name, '/')) {
		if (access(name, X_OK) != 0)
			return -1;
		snprintf(out, len, "%s", name);
		return 0;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; *p;) {
		const char *c = strchr(p, ':');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		if (l > 0 && (size_t)snprintf(out, len, "%.*s/%s", (int)l, p, name) < len) {
			struct stat st;
			if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
				return 0;
		}
		if (!c)
			break;
		p = c + 1;
	}
	return -1;
}

static int plain_word(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_./:=,+-@%", *s))
			return 0;
	return 1;
}

/* Appends to a bounded, always terminated string. */
struct text {
	char *buf;
	size_t len, used;
};

static void text_put(struct text *t, const char *s, size_t n)
{
	while (n-- > 0 && t->used + 1 < t->len)
		t->buf[t->used++] = *s++;
	t->buf[t->used] = '\0';
}

void ext_format_argv(char *const argv[], char *buf, size_t len)
{
	if (len == 0)
		return;
	struct text t = { buf, len, 0 };
	buf[0] = '\0';
	for (int i = 0; argv[i]; i++) {
		if (i)
			text_put(&t, " ", 1);
		if (plain_word(argv[i])) {
			text_put(&t, argv[i], strlen(argv[i]));
			continue;
		}
		text_put(&t, "'", 1);
		for (const char *s = argv[i]; *s; s++)
			if (*s == '\'')
				text_put(&t, "'\\''", 4);
			else
				text_put(&t, s, 1);
		text_put(&t, "'", 1);
	}
}

void ext_raw_open(struct pg_ctx *ctx, struct ext_raw *raw)
{
	memset(raw, 0, sizeof(*raw));
	raw->f = pg_raw_open(ctx, "txt", raw->name, sizeof(raw->name));
}

void ext_raw_add(struct ext_raw *raw, char *const argv[], const struct ext_proc *p,
		 double timeout_s)
{
	if (!raw->f)
		return;
	char cmd[1024], how[128];
	ext_format_argv(argv, cmd, sizeof(cmd));
	ext_proc_describe(p, timeout_s, how, sizeof(how));
	fprintf(raw->f, "$ %s\n", cmd);
	fwrite(p->out.s, 1, p->out.len, raw->f);
	if (p->out.len && p->out.s[p->out.len - 1] != '\n')
		fputc('\n', raw->f);
	if (p->err.len) {
		fprintf(raw->f, "# stderr:\n");
		fwrite(p->err.s, 1, p->err.len, raw->f);
		if (p->err.s[p->err.len - 1] != '\n')
			fputc('\n', raw->f);
	}
	fprintf(raw->f, "# %s, %.3f s\n", how, p->seconds);
	fflush(raw->f);
}

void ext_raw_close(struct ext_raw *raw)
{
	if (raw->f)
		fclose(raw->f);
	raw->f = NULL;
}
