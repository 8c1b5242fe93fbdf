/* SPDX-License-Identifier: MIT */
/*
 * A result measured in several fresh processes (procs.h): each child runs
 * pg_run_bench and writes what it measured to a pipe, one line per item
 * (numbers as C99 hex floats, "%a", exact both ways, no JSON library: the
 * core builds with libc alone); the parent reads until the child has ended,
 * whatever way it ended, and merges.
 *
 * The lines, in order:
 *   pg-procs 1                       the protocol's version
 *   status S                         enum pg_status
 *   reason TEXT / note TEXT          to the end of the line
 *   shape COPIES METRICS ITERS STOP CAP
 *   times STARTED FINISHED           CLOCK_REALTIME seconds
 *   cpu HAVE_BUSY BUSY_PCT USER_S SYS_S
 *   remote BUSY_PCT                  the peer's CPU load, where it gave one
 *   env F1 F2 ...                    struct pg_env_seen, env_fields' order
 *   disturbed 0|1
 *   s ELAPSED V0 V1 ...              a sample: its seconds, each metric's value
 *   hist COUNT MIN MAX SUM / hb INDEX COUNT   the latency histogram
 *   end
 */
#include "procs.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hist.h"
#include "result.h"
#include "stats.h"
#include "timer.h"

/* Whether b is of one of the groups (ids ending in '.', NULL-terminated)
 * and not a fact of the machine (once). */
static int in_groups(const struct pg_bench *b, const char *const *groups)
{
	if (b->once)
		return 0;
	for (; *groups; groups++)
		if (strncmp(b->id, *groups, strlen(*groups)) == 0)
			return 1;
	return 0;
}

int pg_procs_apply(const struct pg_bench *b)
{
	static const char *const groups[] = { "cpu.", "mem.", "os.", "crypto.", "net.", NULL };
	/* A trial of these groups (mem.stream.*) is CPU work timed by the
	 * benchmark itself: it is measured in processes as the others. net.*
	 * too: each process starts its own local peer or session with the
	 * remote one, and one run's throughput is a draw as a CPU result's
	 * is (net.tcp.bidir's rx, one process a side, 22.7 and 27.1 Gbit/s in
	 * an A/A, each tight within its process). */
	return in_groups(b, groups);
}

/* --- the child's side --- */

#define EF(m, t) { offsetof(struct pg_env_seen, m), t }
static const struct {
	size_t off;
	char type;	/* i int, l long, L long long, u unsigned, d double */
} env_fields[] = {
	EF(n, 'i'), EF(wall_s, 'd'), EF(have_cpu, 'i'), EF(others_s, 'd'), EF(steal_s, 'd'), EF(total_s, 'd'),
	EF(others_max, 'd'), EF(steal_max, 'd'), EF(slack_s, 'd'), EF(have_freq, 'i'), EF(freq_lo, 'l'),
	EF(freq_hi, 'l'), EF(have_temp, 'i'), EF(temp_mc, 'l'), EF(have_cool, 'i'), EF(throttled, 'i'),
	EF(cap_lo, 'l'), EF(cap_base, 'l'), EF(have_cg, 'i'), EF(cg_throttled, 'L'), EF(why, 'u'),
	EF(disturbed, 'i'), EF(dropped, 'i'), EF(speed, 'd'), EF(history, 'u'),
	EF(cache_ns, 'd'), EF(cache_ref_ns, 'd'),
};
#define NENV ((int)(sizeof(env_fields) / sizeof(env_fields[0])))

static void send_env(FILE *f, const struct pg_env_seen *e)
{
	fputs("env", f);
	for (int i = 0; i < NENV; i++) {
		const char *p = (const char *)e + env_fields[i].off;
		switch (env_fields[i].type) {
		case 'i': fprintf(f, " %d", *(const int *)p); break;
		case 'l': fprintf(f, " %ld", *(const long *)p); break;
		case 'L': fprintf(f, " %lld", *(const long long *)p); break;
		case 'u': fprintf(f, " %u", *(const unsigned *)p); break;
		default: fprintf(f, " %a", *(const double *)p); break;
		}
	}
	fputc('\n', f);
}

/* A text to the end of its line: line ends become spaces. */
static void send_text(FILE *f, const char *key, const char *text)
{
	fprintf(f, "%s ", key);
	for (const char *p = text; *p; p++)
		fputc(*p == '\n' || *p == '\r' ? ' ' : *p, f);
	fputc('\n', f);
}

static void send_result(FILE *f, const struct pg_result *r)
{
	fprintf(f, "pg-procs 1\nstatus %d\n", (int)r->status);
	send_text(f, "reason", r->reason);
	send_text(f, "note", r->note);
	fprintf(f, "shape %d %d %llu %d %a\n", r->copies, r->nmetrics, (unsigned long long)r->iters, (int)r->stop,
		r->cap);
	fprintf(f, "times %a %a\n", r->started, r->finished);
	fprintf(f, "cpu %d %a %a %a\n", r->cpu.have_busy, r->cpu.busy_pct, r->cpu.self_user_s, r->cpu.self_sys_s);
	if (r->cpu.have_busy)
		fprintf(f, "self %a\n", r->cpu.self_pct);
	if (r->cpu.have_remote)
		fprintf(f, "remote %a\n", r->cpu.remote_busy_pct);
	if (r->have_env) {
		send_env(f, &r->env);
		fprintf(f, "disturbed %d\n", r->disturbed);
	}
	for (int s = 0; r->status == PG_OK && s < r->nsamples; s++) {
		fprintf(f, "s %a", r->elapsed[s]);
		for (int m = 0; m < r->nmetrics; m++)
			fprintf(f, " %a", r->values[m][s]);
		fputc('\n', f);
		pg_sib_send(f, r, s);
	}
	if (r->status == PG_OK && r->hist) {
		fprintf(f, "hist %llu %llu %llu %a\n", (unsigned long long)r->hist->count,
			(unsigned long long)r->hist->min, (unsigned long long)r->hist->max, r->hist->sum);
		for (int i = 0; i < PG_HIST_BUCKETS; i++)
			if (r->hist->bucket[i])
				fprintf(f, "hb %d %llu\n", i, (unsigned long long)r->hist->bucket[i]);
	}
	fputs("end\n", f);
}

/* A process measuring stops at its sample's end on SIGINT or SIGTERM,
 * however often it comes: the parent passes its own on (collect), and
 * Ctrl-C reaches the whole process group besides; quitting at once is the
 * parent's to do, and this process still cleans up (its files, its peers)
 * after it. */
static void child_signal(int sig)
{
	pg_interrupted = sig;
}

/* The child: measures, writes, exits without running the parent's atexit
 * handlers or flushing its stdio buffers (they are the parent's). */
static _Noreturn void child(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *co, int k,
			    int fd)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = child_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	const char *kill_k = getenv(PG_PROCS_TEST_KILL_ENV);
	if (kill_k && atoi(kill_k) == k + 1)
		raise(SIGKILL);
	FILE *f = fdopen(fd, "w");
	if (!f)
		_exit(3);
	struct pg_result r;
	pg_run_bench(b, a, co, &r);
	send_result(f, &r);
	int bad = fclose(f) == EOF;
	pg_result_free(&r);
	_exit(bad ? 3 : 0);
}

/* --- the parent's side: reading --- */

struct buf {
	char *p;
	size_t n, cap;
};

/* Everything the child writes until it has ended, and how it ended. Never
 * waits on a pipe alone: a child that died leaves the loop at its exit even
 * when a process it started still holds the pipe. -1: out of memory (the
 * child is then killed and reaped). */
static int collect(pid_t pid, int fd, struct buf *b, int *wstatus)
{
	int ended = 0, told = 0;
	for (;;) {
		if (!ended && waitpid(pid, wstatus, WNOHANG) == pid)
			ended = 1;
		/* A signal sent to perfguide alone (a CI's timeout, kill -INT
		 * PID) stops the process measuring too, at its sample's end: it
		 * measured on to the end of its share (12 s of an os.fs.create
		 * at --runs 50). Ctrl-C reached it already; a second one is
		 * nothing more to it (child_signal). */
		if (pg_interrupted && !told && !ended) {
			kill(pid, pg_interrupted);
			told = 1;
		}
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int ready = poll(&p, 1, ended ? 0 : 100);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0) {
			if (ended)
				break;
			continue;
		}
		if (b->cap - b->n < 4096) {
			size_t cap = b->cap ? 2 * b->cap : 65536;
			char *q = realloc(b->p, cap);
			if (!q) {
				kill(pid, SIGKILL);
				while (!ended && waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
					;
				return -1;
			}
			b->p = q;
			b->cap = cap;
		}
		ssize_t got = read(fd, b->p + b->n, b->cap - b->n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			/* every writer closed: the child is ending, if not ended */
			while (!ended && waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
				;
			break;
		}
		b->n += (size_t)got;
	}
	if (b->p)
		b->p[b->n] = '\0';
	return 0;
}

static int parse_env(char *s, struct pg_env_seen *e)
{
	memset(e, 0, sizeof(*e));
	for (int i = 0; i < NENV; i++) {
		char *end;
		char *p = (char *)e + env_fields[i].off;
		errno = 0;
		if (env_fields[i].type == 'd') {
			*(double *)p = strtod(s, &end);
		} else {
			long long v = strtoll(s, &end, 10);
			switch (env_fields[i].type) {
			case 'i': *(int *)p = (int)v; break;
			case 'l': *(long *)p = (long)v; break;
			case 'L': *(long long *)p = v; break;
			default: *(unsigned *)p = (unsigned)v; break;
			}
		}
		if (end == s || errno)
			return -1;
		s = end;
	}
	return 0;
}

static int parse_sample(char *s, struct pg_result *c, int *cap)
{
	if (c->nmetrics < 1 || pg_result_grow(c, cap) < 0)
		return -1;
	char *end;
	c->elapsed[c->nsamples] = strtod(s, &end);
	if (end == s)
		return -1;
	for (int m = 0; m < c->nmetrics; m++) {
		s = end;
		c->values[m][c->nsamples] = strtod(s, &end);
		if (end == s)
			return -1;
	}
	c->nsamples++;
	return 0;
}

static int parse_hist(const char *key, char *s, struct pg_result *c)
{
	if (!c->hist && !(c->hist = calloc(1, sizeof(*c->hist))))
		return -1;
	unsigned long long x, y, z;
	double sum;
	if (strcmp(key, "hist") == 0) {
		if (sscanf(s, "%llu %llu %llu %la", &x, &y, &z, &sum) != 4)
			return -1;
		c->hist->count = x;
		c->hist->min = y;
		c->hist->max = z;
		c->hist->sum = sum;
		return 0;
	}
	int i;
	if (sscanf(s, "%d %llu", &i, &x) != 2 || i < 0 || i >= PG_HIST_BUCKETS)
		return -1;
	c->hist->bucket[i] = x;
	return 0;
}

/* One line into c; -1 when it is not one of the protocol's. */
static int parse_line(char *line, struct pg_result *c, int *cap, int *ended)
{
	char *sp = strchr(line, ' ');
	char *rest = sp ? sp + 1 : line + strlen(line);
	if (sp)
		*sp = '\0';
	int st, stop, have, nm;
	unsigned long long it;
	if (strcmp(line, "pg-procs") == 0)
		return strcmp(rest, "1") == 0 ? 0 : -1;
	if (strcmp(line, "status") == 0 && sscanf(rest, "%d", &st) == 1 && st >= PG_OK && st <= PG_ERROR) {
		c->status = (enum pg_status)st;
	} else if (strcmp(line, "reason") == 0 || strcmp(line, "note") == 0) {
		snprintf(line[0] == 'r' ? c->reason : c->note, PG_MSG_LEN, "%s", rest);
	} else if (strcmp(line, "shape") == 0 &&
		   sscanf(rest, "%d %d %llu %d %la", &c->copies, &nm, &it, &stop, &c->cap) == 5 &&
		   nm >= 1 && nm <= PG_MAX_METRICS && c->nmetrics == 0) {
		c->nmetrics = nm;
		c->iters = it;
		c->stop = (enum pg_stop)stop;
	} else if (strcmp(line, "times") == 0 && sscanf(rest, "%la %la", &c->started, &c->finished) == 2) {
	} else if (strcmp(line, "cpu") == 0 && sscanf(rest, "%d %la %la %la", &have, &c->cpu.busy_pct,
						     &c->cpu.self_user_s, &c->cpu.self_sys_s) == 4) {
		c->cpu.have_busy = have != 0;
	} else if (strcmp(line, "self") == 0 && sscanf(rest, "%la", &c->cpu.self_pct) == 1) {
	} else if (strcmp(line, "remote") == 0 && sscanf(rest, "%la", &c->cpu.remote_busy_pct) == 1) {
		c->cpu.have_remote = 1;
	} else if (strcmp(line, "env") == 0 && parse_env(rest, &c->env) == 0) {
		c->have_env = 1;
	} else if (strcmp(line, "disturbed") == 0 && sscanf(rest, "%d", &c->disturbed) == 1) {
	} else if (strcmp(line, "s") == 0) {
		return parse_sample(rest, c, cap);
	} else if (strcmp(line, "sib") == 0) {
		return pg_sib_parse(rest, c);
	} else if (strcmp(line, "hist") == 0 || strcmp(line, "hb") == 0) {
		return parse_hist(line, rest, c);
	} else if (strcmp(line, "end") == 0) {
		*ended = 1;
	} else {
		return -1;
	}
	return 0;
}

/* What a child wrote, into c; -1 when it is not a whole result. */
static int parse_child(char *text, struct pg_result *c)
{
	int cap = 0, ended = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (ended || parse_line(line, c, &cap, &ended) < 0)
			return -1;
	return ended && c->nmetrics ? 0 : -1;
}

/* --- the parent's side: merging --- */

/* A child's env into the result's: what pg_env_add does for a sample, with
 * the counts that are a result's own (samples kept disturbed, dropped). */
static void merge_env(struct pg_env_seen *r, const struct pg_env_seen *c)
{
	int disturbed = r->disturbed + c->disturbed, dropped = r->dropped + c->dropped;
	pg_env_add(r, c);
	r->disturbed = disturbed;
	r->dropped = dropped;
}

/* Process k's result c (ok) appended to r. */
static int merge(struct pg_result *r, const struct pg_result *c, int k)
{
	int n = r->nsamples + c->nsamples;
	double *e = realloc(r->elapsed, (size_t)(n ? n : 1) * sizeof(double));
	if (!e)
		return -1;
	r->elapsed = e;
	for (int m = 0; m < r->nmetrics; m++) {
		double *v = realloc(r->values[m], (size_t)(n ? n : 1) * sizeof(double));
		if (!v)
			return -1;
		r->values[m] = v;
		memcpy(v + r->nsamples, c->values[m], (size_t)c->nsamples * sizeof(double));
	}
	memcpy(e + r->nsamples, c->elapsed, (size_t)c->nsamples * sizeof(double));
	if (pg_sib_merge(r, c, k, n) < 0)
		return -1;
	double was = 0, adds = 0;
	for (int s = 0; s < r->nsamples; s++)
		was += r->elapsed[s];
	for (int s = 0; s < c->nsamples; s++)
		adds += c->elapsed[s];
	/* the system's load over all the processes' samples, by their time */
	if (c->cpu.have_busy && (k == 0 || r->cpu.have_busy) && was + adds > 0) {
		r->cpu.busy_pct = (r->cpu.busy_pct * was + c->cpu.busy_pct * adds) / (was + adds);
		r->cpu.self_pct = (r->cpu.self_pct * was + c->cpu.self_pct * adds) / (was + adds);
	}
	r->cpu.have_busy = c->cpu.have_busy && (k == 0 || r->cpu.have_busy);
	if (c->cpu.have_remote && (k == 0 || r->cpu.have_remote) && was + adds > 0)
		r->cpu.remote_busy_pct = (r->cpu.remote_busy_pct * was + c->cpu.remote_busy_pct * adds) /
					 (was + adds);
	r->cpu.have_remote = c->cpu.have_remote && (k == 0 || r->cpu.have_remote);
	r->cpu.self_user_s += c->cpu.self_user_s;
	r->cpu.self_sys_s += c->cpu.self_sys_s;
	if (c->hist) {
		if (!r->hist && !(r->hist = calloc(1, sizeof(*r->hist))))
			return -1;
		pg_hist_merge(r->hist, c->hist);
	}
	if (c->have_env) {
		merge_env(&r->env, &c->env);
		r->have_env = 1;
		r->disturbed |= c->disturbed;
	}
	if (k == 0) {
		r->copies = c->copies;
		r->iters = c->iters;
		r->stop = c->stop;
		r->started = c->started;
		snprintf(r->note, sizeof(r->note), "%s", c->note);
	}
	/* sampling cut short in any process is what the result says */
	if (c->stop == PG_STOP_TIME || c->stop == PG_STOP_BUDGET)
		r->stop = c->stop;
	r->finished = c->finished;
	r->nsamples = n;
	r->proc_n[k] = c->nsamples;
	r->nprocs = k + 1;
	return 0;
}

/* The statistics over every process's samples, and whether the processes
 * disagree, per metric. */
void pg_procs_finish(struct pg_result *r)
{
	for (int m = 0; m < r->nmetrics; m++) {
		char why[PG_MSG_LEN];
		pg_stats_compute(r->values[m], (size_t)r->nsamples, &r->stats[m]);
		r->proc_bimodal[m] = pg_procs_bimodal(r->values[m], r->proc_n, r->nprocs, why, sizeof(why));
	}
	if (r->have_env && pg_env_judge(&r->env))
		r->disturbed = 1;
}

/* A process that ended without its result: how it ended. */
static void died(struct pg_result *r, int k, int n, int wstatus, const char *what)
{
	r->status = PG_ERROR;
	if (WIFSIGNALED(wstatus))
		snprintf(r->reason, sizeof(r->reason), "process %d of %d was killed by signal %d (%s)%s", k + 1, n,
			 WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)), what);
	else if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus))
		snprintf(r->reason, sizeof(r->reason), "process %d of %d exited with status %d%s", k + 1, n,
			 WEXITSTATUS(wstatus), what);
	else
		snprintf(r->reason, sizeof(r->reason), "process %d of %d ended without its result%s", k + 1, n, what);
}

/* --- the parent's side: the processes one after the other --- */

/* Process k of n's options: its share of what is left of the result's time
 * (left; cap 0: none) and of its samples, at least 2; after the first, the
 * iterations per sample the first calibrated (iters), so that every sample
 * of the result is the same work (its record's `iterations`) and the
 * calibration is paid once. A process past the n asked for (the processes
 * disagreed) has the time of one of the n. The last of the n (last) sees
 * the samples of those before it in r (this is a fork: r is its copy):
 * it samples on until the result's samples together are within the
 * target, up to the result's max_runs and what is left of its time
 * (pg_procs_last_enough). */
static void child_opts(const struct pg_run_opts *o, int k, int n, double cap, double left, uint64_t iters,
		       const struct pg_result *r, int last, struct pg_run_opts *co)
{
	*co = *o;
	co->budget = NULL;
	co->procs = n;
	if (k > 0 && !o->iters)
		co->iters = iters;
	if (o->runs > 0) {
		int share = o->runs / n + (k < o->runs % n);
		co->runs = share > 2 ? share : 2;
		return;
	}
	int lo = (o->min_runs + n - 1) / n;
	co->min_runs = lo > 2 ? lo : 2;
	if (o->max_runs > 0) {
		int hi = (o->max_runs + n - 1) / n;
		co->max_runs = hi > co->min_runs ? hi : co->min_runs;
	}
	/* 1e-9, not 0 (no cap): a spent time still gets the floor of samples */
	co->max_time = cap > 0 ? fmax(k < n ? left / (n - k) : cap / n, 1e-9) : 0;
	if (last && r->nprocs > 0 && r->nmetrics > 0) {
		co->prior = r->values[0];
		co->prior_n = r->proc_n;
		co->nprior = r->nsamples;
		co->prior_procs = r->nprocs;
		co->max_time = cap > 0 ? fmax(left, 1e-9) : 0;
		if (o->max_runs > 0 && o->max_runs - r->nsamples > co->max_runs)
			co->max_runs = o->max_runs - r->nsamples;
	}
}

/* Forks process k of n and reads its result into c (zeroed first); -1 with
 * r failed when it gave none. k counts every process the result started,
 * set-aside ones too, so that "process 2 of 2" is the second one run (and
 * the test hook's K-th, which a disturbed first process set aside left
 * unkilled when k counted only those kept). */
static int run_child(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *co, int k, int n,
		     struct pg_result *c, struct pg_result *r)
{
	memset(c, 0, sizeof(*c));
	c->bench = b;
	c->args = a;
	int fds[2];
	if (pipe(fds) < 0) {
		r->status = PG_ERROR;
		snprintf(r->reason, sizeof(r->reason), "could not make a pipe for process %d: %s", k + 1, strerror(errno));
		return -1;
	}
	fflush(NULL);	/* what the parent printed is not printed again by a child */
	pid_t pid = fork();
	if (pid < 0) {
		r->status = PG_ERROR;
		snprintf(r->reason, sizeof(r->reason), "could not start process %d: %s", k + 1, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		child(b, a, co, k, fds[1]);
	}
	close(fds[1]);
	struct buf text = { 0 };
	int wstatus = 0, rc = collect(pid, fds[0], &text, &wstatus);
	close(fds[0]);
	if (rc < 0) {
		r->status = PG_ERROR;
		snprintf(r->reason, sizeof(r->reason), "out of memory for what process %d measured", k + 1);
	} else if (!text.p || parse_child(text.p, c) < 0 || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus)) {
		died(r, k, n, wstatus, text.n ? "" : " before it sent anything");
		rc = -1;
	}
	free(text.p);
	return rc;
}

/* Process k's result into r: merged, or r failed with its reason. */
static void take(struct pg_result *r, struct pg_result *c, int k, int n)
{
	if (c->status != PG_OK) {
		r->status = c->status;
		if (k == 0)	/* what every process would say (a skip) */
			snprintf(r->reason, sizeof(r->reason), "%s", c->reason);
		else
			snprintf(r->reason, sizeof(r->reason), "process %d of %d: %.200s", k + 1, n, c->reason);
	} else if (c->nmetrics != r->nmetrics || merge(r, c, k) < 0) {
		r->status = PG_ERROR;
		snprintf(r->reason, sizeof(r->reason), "process %d of %d: its result could not be merged "
			 "(out of memory, or not this benchmark's metrics)", k + 1, n);
	}
}

/* How many processes a result may take: more than the nprocs asked for
 * (--max-processes) only for the noise-aware runner whose time is its own:
 * --runs asked for so many samples, and a result that the budget cut short
 * has no time to give. */
static int most_procs(const struct pg_run_opts *o, int nprocs, int by_budget)
{
	int most = o->max_procs > nprocs && o->runs == 0 && !by_budget ? o->max_procs : nprocs;
	return most < PG_MAX_PROCS ? most : PG_MAX_PROCS;
}

/* Whether the processes so far disagree on the result's figure. */
static int disagree(const struct pg_result *r)
{
	char why[PG_MSG_LEN];
	return r->nmetrics > 0 && pg_procs_bimodal(r->values[0], r->proc_n, r->nprocs, why, sizeof(why));
}

/* The noise-aware runner's processes' samples together within the
 * interval target. */
static int within_target(const struct pg_result *r, const struct pg_run_opts *o)
{
	if (o->runs > 0 || r->nmetrics == 0)
		return 0;
	struct pg_stats st;
	pg_stats_compute(r->values[0], (size_t)r->nsamples, &st);
	return st.ci_level >= PG_CI_LEVEL && st.ci_rel <= o->ci_target;
}

/* The first process stopped at its share of the samples (its own within
 * the target, theirs together enough for a 95% interval), yet their
 * samples together are not within the interval target: a process changed
 * speed midway, or they differ by less than the bimodal rule sees. */
static int short_of_target(const struct pg_result *r, const struct pg_run_opts *o)
{
	return o->runs == 0 && r->nmetrics > 0 && r->stop == PG_STOP_INTERVAL && !within_target(r, o);
}

static int spread_wide(const struct pg_result *r)
{
	return r->nmetrics > 0 && pg_procs_spread_wide(r->values[0], r->proc_n, r->nprocs);
}

/* After the first nprocs: another process while they disagree or spread
 * too wide to judge: there another process decides something (which
 * figure is the machine's; whether compare can judge the result). Not
 * while processes that agree fall short of the interval target: the last
 * of the first nprocs took samples for that (child_opts), up to the
 * result's max_runs and time, which another process would only spend
 * again on its set-up and warm-up (in a quiet quick suite, 37 of 112
 * results took 3 to 6 processes, 39 s of its 111, and 4 were bimodal). */
static int want_more(const struct pg_result *r)
{
	return disagree(r) || spread_wide(r);
}

/* A process that came back disturbed is set aside: its probe or its
 * samples say the machine ran it slower (the host's slow periods here last
 * seconds to a minute), and the noise-aware runner retakes a disturbed
 * sample the same way. Another one runs in its place while the result may
 * take more processes. When the process right after a set-aside one comes
 * back disturbed too, the disturbance outlasts a process: what is set
 * aside then counts towards the processes asked for, so that no more are
 * run for it (with two busy loops on the CPUs, replacing every disturbed
 * process made the quick suite take 6 min 37 s instead of 2 min 11 s).
 * One undisturbed process between two disturbed ones is a new spell, not
 * a lasting one: os.sig.install's first process ran at 69% of the run's
 * speed, the next at full speed, the third at 69% again, and the result
 * kept the first for want of a fourth. Processes run after that for
 * another reason (they disagree) still leave the disturbed ones out when
 * enough undisturbed ones come (take_aside): one slow process of six made
 * crypto.sha512's A/A row "disturbed" though four were not. */
static int set_aside(const struct pg_result *c, int *last_aside, int *lasting)
{
	if (c->status != PG_OK || !c->have_env || !c->disturbed) {
		*last_aside = 0;
		return 0;
	}
	if (*last_aside)
		*lasting = 1;
	*last_aside = 1;
	return 1;
}

/* The processes that count towards the nprocs asked for: those kept, and
 * once the disturbance lasts, those set aside. */
static int counted(const struct pg_result *r, int naside, int lasting)
{
	return r->nprocs + (lasting ? naside : 0);
}

/* What was set aside goes into the result after all, in order, while it
 * has fewer processes than asked for; the rest is counted as dropped. */
static void take_aside(struct pg_result *r, struct pg_result *aside, int naside, int nprocs)
{
	for (int i = 0; i < naside; i++) {
		if (r->status == PG_OK && r->nprocs < nprocs)
			take(r, &aside[i], r->nprocs, nprocs);
		else
			r->env.dropped_procs++;
		pg_result_free(&aside[i]);
	}
}

/* Whether a result measured in this process is measured again when it
 * comes back disturbed: I/O, a device or a peer, whose samples last
 * seconds (storage's quick samples are 1 s, three of them: no time to take
 * a disturbed one again within the result), and whose setup a fresh
 * process would repeat (a 1 GiB file laid out). Not an external suite
 * (minutes a run), nor a fact of the machine (once). */
static int retake_apply(const struct pg_bench *b)
{
	static const char *const groups[] = { "storage.", "audio.", "can.", "msg.", NULL };
	return in_groups(b, groups);
}

/* Measured in this process; a disturbed result measured once more, as a
 * disturbed process is set aside (set_aside), by the noise-aware runner
 * whose time is its own (not --runs, not a budget, --max-processes above
 * 1). The first is kept when the second is disturbed too; the one left out
 * counts in env.dropped_processes. */
static int run_in_place(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o,
			struct pg_result *r)
{
	int rc = pg_run_bench(b, a, o, r);
	if (rc != PG_OK || !r->have_env || !r->disturbed || !retake_apply(b) || o->runs > 0 || o->budget ||
	    o->max_procs <= 1 || pg_interrupted)
		return rc;
	if (o->before_retake)
		o->before_retake(o->retake_arg, r->env.why);
	struct pg_result again;
	int rc2 = pg_run_bench(b, a, o, &again);
	if (rc2 == PG_OK && again.have_env && !again.disturbed && !pg_interrupted) {
		int dropped = r->env.dropped_procs + 1;
		pg_result_free(r);
		*r = again;
		r->env.dropped_procs += dropped;
		return rc2;
	}
	pg_result_free(&again);
	r->env.dropped_procs++;
	return rc;
}

/* The processes of pg_run_bench_procs into r: none yet, or those a
 * sibling's samples gave it (then more only while they disagree). */
static int run_procs(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o,
		     int nprocs, struct pg_result *r)
{
	double (*now)(void) = o->clock ? o->clock : pg_now;
	double t0 = now();
	int by_budget;
	double cap = pg_result_time(b, a, o, t0, &by_budget);
	int most = most_procs(o, nprocs, by_budget);
	struct pg_result aside[PG_MAX_PROCS];
	int naside = 0, last_aside = 0, lasting = 0;
	uint64_t iters = r->iters;	/* the first process's calibration, whoever keeps it */
	for (int k = r->nprocs; k < most && r->status == PG_OK &&
			(counted(r, naside, lasting) < nprocs || want_more(r)); k++) {
		struct pg_run_opts co;
		struct pg_result c;
		int kept = r->nprocs, n = kept < nprocs ? nprocs : kept + 1;
		int last = o->runs == 0 && counted(r, naside, lasting) + 1 == nprocs;
		child_opts(o, k, nprocs, cap, cap - (now() - t0), iters, r, last, &co);
		int ran = run_child(b, a, &co, k, n > k ? n : k + 1, &c, r) == 0;
		if (ran && !iters)
			iters = c.iters;
		if (ran && set_aside(&c, &last_aside, &lasting)) {
			aside[naside++] = c;	/* aside owns it now */
			if (!lasting && k + 1 < most && o->before_retake && !by_budget)
				t0 += o->before_retake(o->retake_arg, c.env.why);
		} else {
			if (ran)
				take(r, &c, kept, n);
			pg_result_free(&c);
		}
		if (pg_interrupted && r->status == PG_OK) {
			r->status = PG_ERROR;
			snprintf(r->reason, sizeof(r->reason), "interrupted");
		}
	}
	take_aside(r, aside, naside, nprocs);
	r->cap = cap;
	/* the processes' samples together never reached the target: what
	 * stopped them is the budget, the result's time, or the most
	 * processes it may take */
	if (r->status == PG_OK && short_of_target(r, o))
		r->stop = by_budget ? PG_STOP_BUDGET : cap > 0 && now() - t0 >= cap ? PG_STOP_TIME : PG_STOP_MAX_RUNS;
	/* a first process that stopped at its share of the time or samples
	 * does not make the result's stop when the last one's samples brought
	 * theirs together within the target */
	else if (r->status == PG_OK && (r->stop == PG_STOP_TIME || r->stop == PG_STOP_MAX_RUNS) &&
		 within_target(r, o))
		r->stop = PG_STOP_INTERVAL;
	if (r->status == PG_OK)
		pg_procs_finish(r);
	if (by_budget && r->stop == PG_STOP_TIME)
		r->stop = PG_STOP_BUDGET;
	r->finished = pg_wall_time();
	return r->status;
}

int pg_run_bench_procs(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o,
		       int nprocs, struct pg_result *r)
{
	if (nprocs <= 1 || !pg_procs_apply(b))
		return run_in_place(b, a, o, r);
	memset(r, 0, sizeof(*r));
	r->bench = b;
	r->args = a;
	r->nmetrics = pg_metric_count(b);
	r->started = pg_wall_time();
	return run_procs(b, a, o, nprocs < PG_MAX_PROCS ? nprocs : PG_MAX_PROCS, r);
}

int pg_run_bench_procs_more(const struct pg_bench *b, const struct pg_args *a, const struct pg_run_opts *o,
			    int nprocs, struct pg_result *r)
{
	if (nprocs <= 1 || !pg_procs_apply(b) || r->nprocs == 0 || r->status != PG_OK) {
		int by_budget;
		pg_result_time(b, a, o, o->clock ? o->clock() : pg_now(), &by_budget);
		return r->status;
	}
	return run_procs(b, a, o, nprocs < PG_MAX_PROCS ? nprocs : PG_MAX_PROCS, r);
}

