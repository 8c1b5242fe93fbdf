/* SPDX-License-Identifier: MIT */
/*
 * perfguide ab: A and B measured in interleaved rounds until every gated
 * row is decided or the budget ends. A round is one fresh `perfguide run`
 * of the selection per side, in an order drawn at random, as many rounds
 * A first as B first; after the first look only the benchmarks with a
 * row still undecided run again (gate/paired.h has the statistics, ab.h
 * the parts).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ab.h"
#include "cli.h"
#include "core/registry.h"
#include "core/text.h"
#include "core/timer.h"
#include "help.h"
#include "run.h"

enum { O_A_PREFIX = 256, O_B_PREFIX, O_A_SETUP, O_B_SETUP, O_A_TEARDOWN, O_B_TEARDOWN, O_B_BIN, O_BUDGET, O_OUT,
       O_SUITE, O_RUNS, O_PROCESSES, O_MAX_PROCESSES, O_MINTIME, O_ITERS, O_BOARD, O_WAIT_QUIET, O_CPU, O_PEER,
       O_PSK, O_DESTROY };

static const struct pg_opt ab_opts[] = {
	{ "a-prefix", 0, O_A_PREFIX, "CMD",
	  "shell words A's runs are started through (exec'd: 'taskset -c 0', 'env VAR=1', a wrapper)" },
	{ "b-prefix", 0, O_B_PREFIX, "CMD", "the same for B ('taskset -c 1', 'python3 bench/slow-syscalls.py')" },
	{ "a-setup", 0, O_A_SETUP, "CMD",
	  "a shell command run before each of A's runs (a sysctl, a governor, a module parameter)" },
	{ "b-setup", 0, O_B_SETUP, "CMD", "the same for B" },
	{ "a-teardown", 0, O_A_TEARDOWN, "CMD",
	  "a shell command run after each of A's runs that puts back what its setup changed; it runs "
	  "whenever the setup was started: after a failing setup, a failing run, Ctrl-C" },
	{ "b-teardown", 0, O_B_TEARDOWN, "CMD", "the same for B" },
	{ "b-bin", 0, O_B_BIN, "PATH", "B's perfguide binary (default: this one, as A's)" },
	{ "budget", 0, O_BUDGET, "DURATION",
	  "the whole comparison's time (900, 15m, 1h30m; default 20m): no round is started that would end "
	  "after it, as the rounds before it took" },
	{ "threshold", 0, 't', "PCT", "smallest change that counts (default 5)" },
	{ "out", 0, O_OUT, "DIR",
	  "where both sides' results files (a.jsonl, b.jsonl), what each side printed (a.log, b.log) and "
	  "the verdicts (ab.md, ab.json) go (default: " RUN_RESULTS_DIR "/ab-<time>); a directory without "
	  "an earlier ab's results" },
	{ "format", 0, 'f', "md|json", "a table (default) or JSON on stdout" },
	{ "suite", 0, O_SUITE, "quick|standard|full", "as run (default: quick when no SELECTOR is given)" },
	{ "runs", 0, O_RUNS, "N", "as run" },
	{ "processes", 0, O_PROCESSES, "N", "as run" },
	{ "max-processes", 0, O_MAX_PROCESSES, "N", "as run" },
	{ "min-time", 0, O_MINTIME, "SECONDS", "as run" },
	{ "iterations", 0, O_ITERS, "N", "as run" },
	{ "board", 0, O_BOARD, "NAME", "as run" },
	{ "wait-quiet", 0, O_WAIT_QUIET, "SECONDS", "as run" },
	{ "cpu", 0, O_CPU, "LIST", "as run" },
	{ NULL, 'p', 'p', "NAME=VALUE[,VALUE...]", "as run" },
	{ "peer", 0, O_PEER, "HOST[:PORT]", "as run" },
	{ "psk-file", 0, O_PSK, "FILE", "as run" },
	{ "destroy-data", 0, O_DESTROY, "PATH", "as run" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_ab = {
	.name = "ab",
	.summary = "A against B in interleaved rounds until each row is decided; exit 1 on a regression",
	.usage = "[SELECTOR...] [run options] [--a-prefix CMD] [--b-prefix CMD] [--a-setup CMD] [--b-setup CMD] "
		 "[--b-bin PATH] [--budget DURATION] [--threshold PCT] [--out DIR] [--format md|json]",
	.intro = "Measures the SELECTORs (as run) on two sides, A and B, that differ by a command prefix (a "
		 "wrapper that changes what the system does), by setup commands run before each side's run "
		 "and undone after it, or by the perfguide binary, and says per measurement whether B "
		 "regressed, improved, is within noise of A, or is not yet decided.\n\n"
		 "A round is one fresh `perfguide run` of the selection per side, one after the other, in an "
		 "order drawn at random: each two rounds one A first and one B first, so as many of each. A "
		 "row's replicate is the round: the log of B's figure over A's of that round (a pair), so what "
		 "the machine did in that minute is in both and cancels. The rows are looked at after 6, 12, 24 "
		 "and 48 rounds; a row decided at a look is final, and after the first look only the "
		 "benchmarks with a gated row still undecided run again. The rounds end when every gated row "
		 "is decided, after the 48th, or when the budget would run out (a last look then, in place of "
		 "the next planned one).\n\n"
		 "Verdicts, from a paired test on the rounds' log ratios and its interval (shown per row): "
		 "Student's t up to 9 rounds, then Yuen's on their 10% trimmed mean, so that a round the host "
		 "disturbed unseen does not widen every later interval:\n\n"
		 "  regressed, improved  significant with the false discovery rate held\n"
		 "                       at 2.5% across the gated rows and the looks\n"
		 "                       together (Benjamini-Hochberg at each look, each\n"
		 "                       look a planned share of the 2.5%: 0.05, 0.55,\n"
		 "                       0.2, 0.2), and the whole interval beyond\n"
		 "                       --threshold\n"
		 "  within noise         the whole interval inside plus or minus\n"
		 "                       --threshold (an equivalence test: each bound a\n"
		 "                       one-sided bound at 5% split over the looks:\n"
		 "                       0.05, 0.25, 0.3, 0.4): B differs from A by less\n"
		 "                       than that\n"
		 "  undecided            neither: the interval (\"between -4% and +18%\")\n"
		 "                       and about how many more rounds would decide it\n"
		 "  not gated            descriptive, derived from another metric, or\n"
		 "                       decided by something besides the build (as\n"
		 "                       compare): shown, not counted, not measured again\n\n"
		 "A pair whose result either side marked disturbed (other processes, steal, throttling) or "
		 "missing is left out and the row is measured again in a later round; where that leaves a row "
		 "more pairs of one order than the other, the latest of those are left out. A benchmark that A "
		 "measured and B failed, skipped or lost in a round is listed as lost.\n\n"
		 "Setup and teardown: --a-setup and --b-setup run (sh -c) before each of that side's runs, "
		 "--a-teardown and --b-teardown after each, whenever the setup was started, so the machine is "
		 "as it was between the sides: a failing setup, a failing teardown, or Ctrl-C ends the rounds "
		 "after the teardown ran, and what was measured is kept and judged. The teardown runs in a "
		 "process group of its own, which the terminal's Ctrl-C does not reach.\n\n"
		 "Progress (the round, the gated rows decided, the time left) goes to stderr; the table or "
		 "JSON to stdout and into --out.",
	.opts = ab_opts,
	.after = "Cost: each round runs the selection twice, so the first 6 rounds cost 12 runs of it; "
		 "the undecided rows then cost two runs of their benchmarks a round. A row whose rounds' log "
		 "ratios spread by s (its runs' spread between rounds, times about 1.4) and that did not "
		 "change is within noise of the 5% threshold after 6 rounds if s is at most 0.025, after "
		 "12 at 0.065, 24 at 0.10, 48 at 0.16; noisier rows stay undecided. Fewer than 6 rounds "
		 "decide nothing (docs/methodology.md).",
	.exit_status = "0 every gated row decided and none regressed; 1 a regression, or a benchmark B lost (or a "
		       "side's run crashed); 3 nothing regressed but a gated row is undecided; 2 bad input, or a "
		       "setup or teardown failed (what was measured is printed); 130 interrupted (printed too).",
	.examples = "  perfguide ab os.syscall.null os.pipe.lat --b-prefix 'taskset -c 1'\n"
		    "  perfguide ab cpu.dhrystone --b-setup 'cpupower frequency-set -g powersave' \\\n"
		    "      --b-teardown 'cpupower frequency-set -g performance'\n"
		    "  perfguide ab cpu --b-bin ./build-new/perfguide --budget 30m --format json",
};

/* A run option passed on as it is: its words. */
static int fwd(struct ab_opts *o, const char *opt, const char *arg)
{
	if (o->nfwd + 2 > AB_MAX_FWD)
		return pg_usage_error("ab: too many run options");
	o->fwd[o->nfwd++] = opt;
	if (arg)
		o->fwd[o->nfwd++] = arg;
	return -1;
}

static int param(struct ab_opts *o, const char *name, const char *value)
{
	static char buf[AB_MAX_PARAMS][320];
	if (o->nparams == AB_MAX_PARAMS)
		return pg_usage_error("ab: at most %d -p options", AB_MAX_PARAMS);
	snprintf(buf[o->nparams], sizeof(buf[0]), "%s%s%s", name ? name : "", name ? "=" : "", value);
	o->params[o->nparams] = buf[o->nparams];
	o->nparams++;
	return -1;
}

static const char *run_opt_name(int c)
{
	static const struct { int key; const char *name; } names[] = {
		{ O_RUNS, "--runs" }, { O_PROCESSES, "--processes" }, { O_MAX_PROCESSES, "--max-processes" },
		{ O_MINTIME, "--min-time" }, { O_ITERS, "--iterations" }, { O_BOARD, "--board" },
		{ O_WAIT_QUIET, "--wait-quiet" }, { O_CPU, "--cpu" },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].key == c)
			return names[i].name;
	return NULL;
}

static int side_text(const char **slot, const char *opt, const char *arg)
{
	if (!arg[0])
		return pg_usage_error("ab: %s: give a command", opt);
	*slot = arg;
	return -1;
}

static int one_opt(int c, struct ab_opts *o)
{
	char *end;
	switch (c) {
	case O_A_PREFIX: return side_text(&o->side[0].prefix, "--a-prefix", optarg);
	case O_B_PREFIX: return side_text(&o->side[1].prefix, "--b-prefix", optarg);
	case O_A_SETUP: return side_text(&o->side[0].setup, "--a-setup", optarg);
	case O_B_SETUP: return side_text(&o->side[1].setup, "--b-setup", optarg);
	case O_A_TEARDOWN: return side_text(&o->side[0].teardown, "--a-teardown", optarg);
	case O_B_TEARDOWN: return side_text(&o->side[1].teardown, "--b-teardown", optarg);
	case O_B_BIN:
		if (access(optarg, X_OK) < 0)
			return pg_usage_error("ab: --b-bin '%s': %s", optarg, strerror(errno));
		o->side[1].bin = optarg;
		return -1;
	case O_BUDGET:
		o->budget = run_parse_duration(optarg);
		if (!(o->budget > 0) || o->budget > 30 * 86400)
			return pg_usage_error("ab: --budget '%s': give a duration such as 900, 15m or 1h30m", optarg);
		return -1;
	case 't':
		errno = 0;
		o->threshold = strtod(optarg, &end);
		if (errno || end == optarg || (*end && strcmp(end, "%") != 0) || !(o->threshold > 0) ||
		    o->threshold > 1000)
			return pg_usage_error("ab: --threshold '%s': give a percentage above 0, at most 1000", optarg);
		return -1;
	case 'f':
		if (strcmp(optarg, "md") != 0 && strcmp(optarg, "json") != 0)
			return pg_usage_error("ab: --format '%s': use md or json", optarg);
		o->json = strcmp(optarg, "json") == 0;
		return -1;
	case O_OUT: o->out = optarg; return -1;
	case O_SUITE: o->suite = optarg; return -1;
	case 'p': return param(o, NULL, optarg);
	case O_PEER: return param(o, "peer", optarg);
	case O_PSK: return param(o, "psk_file", optarg);
	case O_DESTROY: return param(o, "destroy", optarg);
	}
	return fwd(o, run_opt_name(c), optarg);
}

/* -1 to go on, else the exit status. */
static int parse_opts(int argc, char **argv, struct ab_opts *o)
{
	struct pg_getopt g;
	int c, rc;
	memset(o, 0, sizeof(*o));
	o->threshold = 5;
	o->budget = AB_BUDGET_DEFAULT;
	o->side[0].name = 'A';
	o->side[1].name = 'B';
	pg_getopt_tables(&pg_doc_ab, &g);
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		if (c == 'h') {
			pg_help_print(stdout, &pg_doc_ab);
			return PG_EXIT_OK;
		}
		if (c == '?') {
			if (optopt)
				return pg_usage_error("ab: option '-%c' needs a value or is unknown", optopt);
			return pg_usage_error("ab: unknown option '%s' (see 'perfguide ab --help')", argv[optind - 1]);
		}
		if ((rc = one_opt(c, o)) >= 0)
			return rc;
	}
	o->selectors = argv + optind;
	o->nselectors = argc - optind;
	return -1;
}

/* --- a round's arguments --- */

/* Whether a benchmark of the selection has the parameter of -p NAME=...
 * (a -p for a benchmark no longer measured would be refused by run). */
static int wanted_param(const char *p, const char *const *ids, int n)
{
	size_t len = strcspn(p, "=");
	for (int i = 0; i < n; i++) {
		const struct pg_bench *b = pg_registry_find(ids[i]);
		for (int k = 0; b && b->params[k].name; k++)
			if (strlen(b->params[k].name) == len && strncmp(b->params[k].name, p, len) == 0)
				return 1;
	}
	return 0;
}

/* "run" SELECTORs, the run options, "--no-db": the user's selectors
 * (ids NULL), or these benchmark ids. */
static char **round_args(const struct ab_opts *o, const char *const *ids, int nids)
{
	int n = 0, max = 8 + (ids ? nids : o->nselectors) + o->nfwd + 2 * o->nparams;
	char **v = calloc((size_t)max, sizeof(*v));
	if (!v)
		return NULL;
	v[n++] = "run";
	for (int i = 0; i < (ids ? nids : o->nselectors); i++)
		v[n++] = ids ? (char *)ids[i] : o->selectors[i];
	/* the suite the first round ran, named again with the ids */
	if (o->suite || !o->nselectors) {
		v[n++] = "--suite";
		v[n++] = (char *)(o->suite ? o->suite : "quick");
	}
	for (int i = 0; i < o->nfwd; i++)
		v[n++] = (char *)o->fwd[i];
	for (int i = 0; i < o->nparams; i++)
		if (!ids || wanted_param(o->params[i], ids, nids)) {
			v[n++] = "-p";
			v[n++] = (char *)o->params[i];
		}
	v[n++] = "--no-db";
	return v;
}

/* --- the directory --- */

static int make_out(struct ab_opts *o)
{
	static char dflt[300];
	if (!o->out) {
		time_t t = time(NULL);
		struct tm tm;
		gmtime_r(&t, &tm);
		mkdir(RUN_RESULTS_DIR, 0755);
		snprintf(dflt, sizeof(dflt), RUN_RESULTS_DIR "/ab-%04d%02d%02dT%02d%02d%02d", tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
		o->out = dflt;
	}
	if (mkdir(o->out, 0755) < 0 && errno != EEXIST)
		return pg_usage_error("ab: --out '%s': %s", o->out, strerror(errno));
	for (int s = 0; s < 2; s++) {
		struct ab_side *d = &o->side[s];
		int n = snprintf(d->path, sizeof(d->path), "%s/%c.jsonl", o->out, s ? 'b' : 'a');
		snprintf(d->log, sizeof(d->log), "%s/%c.log", o->out, s ? 'b' : 'a');
		if (n < 0 || (size_t)n >= sizeof(d->path) - 8)
			return pg_usage_error("ab: --out '%s': too long", o->out);
		if (access(d->path, F_OK) == 0)
			return pg_usage_error("ab: --out '%s' holds an earlier ab's results (%s): give another "
					      "directory", o->out, d->path);
	}
	return -1;
}

/* The binaries, each side's dry run of the selection, the directory. */
static int prepare(struct ab_opts *o, char *self, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", self, len - 1);
	if (n <= 0)
		return pg_usage_error("ab: cannot find this perfguide (/proc/self/exe): %s", strerror(errno));
	self[n] = '\0';
	o->side[0].bin = self;
	if (!o->side[1].bin)
		o->side[1].bin = self;
	char **args = round_args(o, NULL, 0);
	if (!args)
		return pg_usage_error("ab: out of memory");
	for (int s = 0; s < 2; s++) {
		char err[600];
		if ((s == 0 || strcmp(o->side[1].bin, self) != 0) && ab_side_check(&o->side[s], args, err, sizeof(err)) < 0) {
			free(args);
			const char *msg = strncmp(err, "perfguide: ", 11) == 0 ? err + 11 : err;
			return pg_usage_error("ab: %c: %s", o->side[s].name, msg);
		}
	}
	free(args);
	return make_out(o);
}

/* --- the rounds --- */

struct ab_state {
	struct ab_opts *o;
	struct ab_rows x;
	double t0;
	int b_first;
	int rc;			/* an exit status the rounds ended with; -1: the verdicts' */
	char stopped[800];	/* why the rounds ended before every row was decided */
	double last_s;		/* the last counted round's seconds and benchmarks */
	int last_n;
};

static int coin(void)
{
	unsigned char b = 0;
	if (getrandom(&b, 1, GRND_NONBLOCK) != 1)
		b = (unsigned char)(pg_now() * 1e6);
	return b & 1;
}

/* A side's run went wrong: why the rounds end, and the exit status. */
static void side_failed(struct ab_state *st, int s, enum ab_side_rc rc, const char *why)
{
	const char *what = rc == AB_SIDE_SETUP_FAILED ? "the setup failed (its teardown ran)"
			   : rc == AB_SIDE_TEARDOWN_FAILED ? "the teardown failed: the machine may not be as it was"
			   : rc == AB_SIDE_INTERRUPTED ? "stopped" : "its run failed";
	snprintf(st->stopped, sizeof(st->stopped), "%c, round %d: %s: %.300s (see %.300s)", st->o->side[s].name,
		 st->x.nrounds + 1, what, why, st->o->side[s].log);
	st->rc = rc == AB_SIDE_INTERRUPTED ? PG_EXIT_INTERRUPTED : rc == AB_SIDE_LOST ? PG_EXIT_FAIL : PG_EXIT_USAGE;
	fprintf(stderr, "perfguide: ab: ");
	pg_term_puts(stderr, st->stopped);
	fputc('\n', stderr);
}

static void progress(const struct ab_state *st, const struct ab_round *rd, int nbench)
{
	char left[40], took[40];
	int gated, decided = pg_ab_decided(&st->x.ab, &gated);
	run_format_seconds(st->o->budget - (pg_now() - st->t0), left, sizeof(left));
	run_format_seconds(rd->seconds, took, sizeof(took));
	fprintf(stderr, "ab: round %d (%s first, %d benchmark%s, %s): %d of %d gated rows decided", st->x.nrounds,
		rd->b_first ? "B" : "A", nbench, nbench == 1 ? "" : "s", took, decided, gated);
	if (rd->disturbed)
		fprintf(stderr, "; %d pair%s left out (disturbed or missing), measured again", rd->disturbed,
			rd->disturbed == 1 ? "" : "s");
	fprintf(stderr, "; %s left\n", left);
}

static void look(struct ab_state *st)
{
	struct ab_rows *x = &st->x;
	x->look_at[x->ab.looks] = x->nrounds;
	if (pg_ab_look(&x->ab) < 0) {
		fprintf(stderr, "perfguide: ab: out of memory\n");
		return;
	}
	int k[8] = { 0 }, gated;
	for (int i = 0; i < x->ab.n; i++)
		if (x->ab.rows[i].gated && !x->ab.rows[i].lost)
			k[x->ab.rows[i].d.verdict]++;
	pg_ab_decided(&x->ab, &gated);
	fprintf(stderr, "ab: look %d after %d rounds: %d regressed, %d improved, %d within noise, %d undecided of %d "
		"gated rows\n", x->ab.looks, x->nrounds, k[PG_REGRESSED], k[PG_IMPROVED], k[PG_SAME],
		k[PG_UNDECIDED], gated);
}

/* Whether the next round fits in the budget, as the last one took (scaled
 * by the benchmarks it runs, with a margin). */
static int fits(struct ab_state *st, int nbench)
{
	if (!st->last_n)
		return 1;
	double est = st->last_s * (nbench < st->last_n ? (double)nbench / st->last_n : 1) * 1.2 + 2;
	double left = st->o->budget - (pg_now() - st->t0);
	if (est <= left)
		return 1;
	char a[40], b[40];
	run_format_seconds(est, a, sizeof(a));
	run_format_seconds(left > 0 ? left : 0, b, sizeof(b));
	snprintf(st->stopped, sizeof(st->stopped), "the budget: a round would take about %s, %s is left", a, b);
	return 0;
}

/* The benchmarks a run measured (each id once). */
static int benches(const struct pg_rrun *r)
{
	int n = 0;
	for (int i = 0; i < r->nres; i++) {
		int seen = 0;
		for (int j = 0; j < i && !seen; j++)
			seen = strcmp(r->res[j].bench, r->res[i].bench) == 0;
		n += !seen;
	}
	return n;
}

/* One round: each side once, in the round's order. 0 to go on, -1 to end. */
static int one_round(struct ab_state *st, char **args, int nbench)
{
	struct ab_round rd = { .benches = nbench };
	struct pg_rrun run[2];
	double t = pg_now();
	rd.b_first = st->b_first = st->x.nrounds % 2 ? !st->b_first : coin();
	for (int k = 0; k < 2; k++) {
		int s = k ^ rd.b_first;
		char why[400];
		enum ab_side_rc rc = ab_side_run(&st->o->side[s], args, &run[s], why, sizeof(why));
		if (rc != AB_SIDE_OK) {
			if (k == 1)
				pg_rrun_free(&run[!s]);
			side_failed(st, s, rc, why);
			return -1;
		}
	}
	rd.seconds = pg_now() - t;
	rd.counted = 1;
	rd.benches = nbench = benches(&run[0]);
	snprintf(rd.a_id, sizeof(rd.a_id), "%s", run[0].id);
	snprintf(rd.b_id, sizeof(rd.b_id), "%s", run[1].id);
	if (ab_rows_add(&st->x, &run[0], &run[1], &rd, st->o->threshold) < 0) {
		fprintf(stderr, "perfguide: ab: out of memory\n");
		st->rc = PG_EXIT_FAIL;
		return -1;
	}
	st->last_s = rd.seconds;
	st->last_n = nbench;
	progress(st, &st->x.rounds[st->x.nrounds - 1], nbench);
	if (pg_ab_look_due(&st->x.ab))
		look(st);
	return 0;
}

#define AB_MAX_ROUNDS 200

static void rounds(struct ab_state *st)
{
	const char *ids[1024];
	while (!ab_stop && !(st->x.nruns && pg_ab_done(&st->x.ab))) {
		int n = st->x.nruns ? ab_rows_selection(&st->x, ids, 1024) : 0;
		if (st->x.nruns && n == 0)
			break;
		if (st->x.nrounds >= AB_MAX_ROUNDS || !fits(st, n ? n : INT_MAX)) {
			if (!st->stopped[0])
				snprintf(st->stopped, sizeof(st->stopped), "%d rounds", AB_MAX_ROUNDS);
			break;
		}
		char **args = round_args(st->o, st->x.nruns ? ids : NULL, n);
		int rc = args ? one_round(st, args, n) : -1;
		free(args);
		if (rc < 0)
			break;
	}
	if (ab_stop && !st->stopped[0]) {
		snprintf(st->stopped, sizeof(st->stopped), "stopped by the user (signal %d)", (int)ab_stop);
		st->rc = PG_EXIT_INTERRUPTED;
	}
	/* the rounds ended before the rows were decided: a last look, in
	 * place of the next planned one */
	if (st->x.nruns && !pg_ab_done(&st->x.ab))
		look(st);
}

static int write_out(struct ab_state *st)
{
	struct ab_report r = { .x = &st->x, .o = st->o, .seconds = pg_now() - st->t0,
			       .interrupted = st->rc == PG_EXIT_INTERRUPTED, .stopped = st->stopped[0] ? st->stopped : NULL };
	char path[700];
	for (int json = 0; json < 2; json++) {
		snprintf(path, sizeof(path), "%s/ab.%s", st->o->out, json ? "json" : "md");
		FILE *f = fopen(path, "w");
		if (!f) {
			fprintf(stderr, "perfguide: ab: cannot write %s: %s\n", path, strerror(errno));
			continue;
		}
		(json ? ab_write_json : ab_write_md)(f, &r);
		fclose(f);
	}
	(st->o->json ? ab_write_json : ab_write_md)(stdout, &r);
	fflush(stdout);
	return st->rc >= 0 ? st->rc : ab_rows_exit(&st->x);
}

int pg_cmd_ab(int argc, char **argv)
{
	static struct ab_opts o;
	char self[PATH_MAX];
	int rc = parse_opts(argc, argv, &o);
	if (rc >= 0 || (rc = prepare(&o, self, sizeof(self))) >= 0)
		return rc;
	struct ab_state st = { .o = &o, .t0 = pg_now(), .rc = -1 };
	char a[1400], b[1400], budget[40];
	ab_side_words(&o.side[0], a, sizeof(a));
	ab_side_words(&o.side[1], b, sizeof(b));
	run_format_seconds(o.budget, budget, sizeof(budget));
	fputs("ab: A: ", stderr);
	pg_term_puts(stderr, a);
	fputs("\nab: B: ", stderr);
	pg_term_puts(stderr, b);
	fprintf(stderr, "\nab: results in ");
	pg_term_puts(stderr, o.out);
	fprintf(stderr, "; budget %s\n", budget);
	ab_catch_signals();
	rounds(&st);
	if (!st.x.nruns) {
		fprintf(stderr, "perfguide: ab: no round was completed: nothing to judge\n");
		rc = st.rc >= 0 ? st.rc : PG_EXIT_FAIL;
	} else {
		ab_rows_finish(&st.x);
		rc = write_out(&st);
	}
	ab_rows_free(&st.x);
	return rc;
}
