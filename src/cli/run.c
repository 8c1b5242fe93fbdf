/*
 * perfguide run: choose benchmarks and their parameter sweeps, check every
 * input before any work starts, then hand each combination to the runner and
 * write what it measured as it finishes.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "core/console.h"
#include "core/params.h"
#include "core/registry.h"
#include "core/runner.h"
#include "core/sysinfo.h"
#include "core/timer.h"
#include "pg_build.h"
#ifdef PG_HAVE_JANSSON
#include "core/results.h"
#endif
#ifdef PG_HAVE_STORE
#include "report/follow.h"
#endif

#define MAX_SELECTED 1024
#define MAX_OVERRIDES 16
#define MAX_CPUS 256
#define RESULTS_DIR "perfguide-results"

static const char help[] =
	"usage: perfguide run [SELECTOR...] [options]\n"
	"\n"
	"Runs the benchmarks that the SELECTORs name (an id, a group such as 'mem',\n"
	"or a glob such as 'mem.bw.*'; all benchmarks when none is given) and writes\n"
	"one results file. Without --suite each parameter takes its default.\n"
	"\n"
	"  --suite quick|standard|full  sweep each parameter as the suite says\n"
	"                               (default: quick when no SELECTOR is given)\n"
	"  --runs N                     exactly N samples per result; without it, each\n"
	"                               result samples until the median's 95% interval\n"
	"                               is within +/-2% of it (full: 1%), at least 6\n"
	"                               (full 10) and at most 10, 30, 100 samples or 1,\n"
	"                               3, 30 s (quick, standard, full)\n"
	"  --min-time SECONDS           each sample lasts at least this long\n"
	"                               (quick 0.05, standard 0.1, full 0.5)\n"
	"  --budget DURATION            the whole run's time (900, 15m, 1h30m): each\n"
	"                               result may use what is left over the results\n"
	"                               left (at least 3 samples each)\n"
	"  --iterations N               every sample is N iterations, not calibrated\n"
	"                               by time: the same work on any machine (for\n"
	"                               counting instructions, e.g. under callgrind)\n"
	"  --board NAME                 the guide's column name (default: device-tree\n"
	"                               model, DMI product, or hostname)\n"
	"  --out FILE.jsonl             results file (default: " RESULTS_DIR "/<board>-<time>.jsonl)\n"
	"  --json                       also print every record as JSON on stdout\n"
	"  --db FILE                    also add the results to this store (default:\n"
	"                               $XDG_DATA_HOME/perfguide/results.db)\n"
	"  --no-db                      write only the results file\n"
	"  --cpu LIST                   pin to these CPUs (\"0\", \"2,3\", \"0-3\"); copy i of a\n"
	"                               benchmark runs on the i-th CPU of the list\n"
	"  -p NAME=VALUE[,VALUE...]     set a parameter; several values sweep it.\n"
	"                               Sizes take k, m, g suffixes (powers of 1024)\n"
	"  --peer HOST[:PORT]           the net.* benchmarks' far end, running\n"
	"                               `perfguide serve` (default: one started on\n"
	"                               loopback); the same as -p peer=HOST[:PORT]\n"
	"  --psk-file F                 the key that peer asks for (serve --psk-file)\n"
	"\n"
	"Exit status: 0 all ran or were skipped, 1 a benchmark failed,\n"
	"2 bad input (nothing was run), 130 interrupted (finished results kept).\n"
	"\n"
	"examples:\n"
	"  perfguide run mem.bw.fcp -p size=8m\n"
	"  perfguide run 'mem.*' --suite standard --board am62x-sk\n";

struct plan_item {
	const struct pg_bench *bench;
	struct pg_args args;
};

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
	pg_interrupted = 1;
	static const char msg[] = "\nperfguide: stopping after the current sample (again to quit now)\n";
	ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)w;
}

static int parse_cpus(const char *s, int *cpus, int *n, char *err, size_t errlen)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", s);
	*n = 0;
	char *save = NULL;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long lo = strtol(tok, &end, 10), hi = lo;
		if (end == tok || lo < 0)
			goto bad;
		if (*end == '-') {
			char *e2;
			hi = strtol(end + 1, &e2, 10);
			if (e2 == end + 1 || *e2 || hi < lo)
				goto bad;
		} else if (*end) {
			goto bad;
		}
		for (long c = lo; c <= hi; c++) {
			if (c >= ncpu) {
				snprintf(err, errlen, "--cpu: CPU %ld does not exist (this machine has %ld)", c, ncpu);
				return -1;
			}
			if (*n == MAX_CPUS)
				goto bad;
			cpus[(*n)++] = (int)c;
		}
	}
	if (*n > 0)
		return 0;
bad:
	snprintf(err, errlen, "--cpu: '%s' is not a CPU list (use 0, 2,3 or 0-3)", s);
	return -1;
}

/* Board names become file names: keep them to a safe alphabet. */
static void file_safe(const char *in, char *out, size_t len)
{
	size_t i = 0;
	for (; in[i] && i + 1 < len; i++) {
		unsigned char c = (unsigned char)in[i];
		out[i] = (isalnum(c) || c == '-' || c == '_' || c == '.') ? (char)c : '_';
	}
	out[i] = '\0';
}

static void make_run_id(const char *board, double t, char *buf, size_t len)
{
	unsigned char rnd[4] = { 0 };
	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
		unsigned long x = (unsigned long)getpid() ^ (unsigned long)(t * 1e6);
		memcpy(rnd, &x, sizeof(rnd));
	}
	char safe[64], ts[40];
	file_safe(board, safe, sizeof(safe));
	pg_iso_time(t, ts, sizeof(ts));
	/* 2026-11-30T21:09:10.123Z -> 20261130T210910 */
	char compact[20];
	snprintf(compact, sizeof(compact), "%.4s%.2s%.2sT%.2s%.2s%.2s", ts, ts + 5, ts + 8,
		 ts + 11, ts + 14, ts + 17);
	snprintf(buf, len, "%s-%s-%02x%02x%02x%02x", safe, compact, rnd[0], rnd[1], rnd[2], rnd[3]);
}

/* The noise-aware runner's settings per suite (runner.h, pg_run_opts):
 * samples of at least min_time, at least min_runs (6 gives the median a 95%
 * interval), more until that interval is within +/- 2% of the median, at
 * most max_runs or max_time seconds per result. Without --suite, a named
 * benchmark gets the standard suite's. */
static void suite_defaults(enum pg_suite s, struct pg_run_opts *o)
{
	static const struct pg_run_opts quick = { .min_time = 0.05, .min_runs = 6, .max_runs = 10,
						  .ci_target = 0.02, .max_time = 1 };
	static const struct pg_run_opts standard = { .min_time = 0.1, .min_runs = 6, .max_runs = 30,
						     .ci_target = 0.02, .max_time = 3 };
	static const struct pg_run_opts full = { .min_time = 0.5, .min_runs = 10, .max_runs = 100,
						 .ci_target = 0.01, .max_time = 30 };
	*o = s == PG_SUITE_QUICK ? quick : s == PG_SUITE_FULL ? full : standard;
}

/* "90", "90s", "15m", "1h30m": seconds, or -1. */
static double parse_duration(const char *s)
{
	double total = 0;
	const char *p = s;
	if (!*p)
		return -1;
	while (*p) {
		char *end;
		errno = 0;
		double v = strtod(p, &end);
		if (errno || end == p || v < 0 || *p == '-' || *p == '+')
			return -1;
		double unit = 1;
		if (*end == 'h')
			unit = 3600;
		else if (*end == 'm')
			unit = 60;
		else if (*end == 's')
			unit = 1;
		else if (*end)
			return -1;
		total += v * unit;
		p = *end ? end + 1 : end;
	}
	return total;
}

int pg_cmd_run(int argc, char **argv)
{
	enum { O_SUITE = 256, O_RUNS, O_MINTIME, O_BOARD, O_OUT, O_JSON, O_CPU, O_DB, O_NODB,
	       O_PEER, O_PSK, O_ITERS, O_BUDGET };
	static const struct option opts[] = {
		{ "suite", required_argument, NULL, O_SUITE },
		{ "runs", required_argument, NULL, O_RUNS },
		{ "min-time", required_argument, NULL, O_MINTIME },
		{ "iterations", required_argument, NULL, O_ITERS },
		{ "budget", required_argument, NULL, O_BUDGET },
		{ "board", required_argument, NULL, O_BOARD },
		{ "out", required_argument, NULL, O_OUT },
		{ "json", no_argument, NULL, O_JSON },
		{ "cpu", required_argument, NULL, O_CPU },
		{ "db", required_argument, NULL, O_DB },
		{ "no-db", no_argument, NULL, O_NODB },
		{ "peer", required_argument, NULL, O_PEER },
		{ "psk-file", required_argument, NULL, O_PSK },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum pg_suite suite = PG_SUITE_NONE;
	int runs = 0, json = 0, ncpus = 0, nov = 0, c;
	double min_time = 0, budget = 0;
	uint64_t iters = 0;
	const char *board = NULL, *out = NULL, *db = NULL;
	int no_db = 0;
	static int cpus[MAX_CPUS];
	struct pg_override ov[MAX_OVERRIDES];
	char err[320];

	opterr = 0;
	while ((c = getopt_long(argc, argv, "p:h", opts, NULL)) != -1) {
		char *end;
		switch (c) {
		case O_SUITE:
			if (pg_suite_parse(optarg, &suite) < 0)
				return pg_usage_error("run: --suite '%s': use quick, standard or full", optarg);
			break;
		case O_RUNS: {
			long v = strtol(optarg, &end, 10);
			if (end == optarg || *end || v < 1 || v > 100000)
				return pg_usage_error("run: --runs '%s': give a whole number from 1 to 100000", optarg);
			runs = (int)v;
			break;
		}
		case O_MINTIME:
			errno = 0;
			min_time = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(min_time > 0) || min_time > 3600)
				return pg_usage_error("run: --min-time '%s': give seconds above 0 (at most 3600)", optarg);
			break;
		case O_ITERS: {
			errno = 0;
			unsigned long long v = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-' || v < 1 || v > (1ULL << 40))
				return pg_usage_error("run: --iterations '%s': give a whole number from 1 to 2^40", optarg);
			iters = (uint64_t)v;
			break;
		}
		case O_BUDGET:
			budget = parse_duration(optarg);
			if (!(budget > 0) || budget > 30 * 86400)
				return pg_usage_error("run: --budget '%s': give a duration such as 900, 15m "
						      "or 1h30m (at most 30 days)", optarg);
			break;
		case O_BOARD:
			if (!optarg[0] || strlen(optarg) > 100)
				return pg_usage_error("run: --board: give a name of 1 to 100 characters");
			board = optarg;
			break;
		case O_OUT: out = optarg; break;
		case O_JSON: json = 1; break;
		case O_DB: db = optarg; break;
		case O_NODB: no_db = 1; break;
		case O_CPU:
			if (parse_cpus(optarg, cpus, &ncpus, err, sizeof(err)) < 0)
				return pg_usage_error("run: %s", err);
			break;
		case 'p':
			if (nov == MAX_OVERRIDES)
				return pg_usage_error("run: at most %d -p options", MAX_OVERRIDES);
			if (pg_override_parse(optarg, &ov[nov], err, sizeof(err)) < 0)
				return pg_usage_error("run: %s", err);
			nov++;
			break;
		case O_PEER: {
			/* A parameter of the net benchmarks, so the core knows
			 * nothing of networks and the address is in the results. */
			char arg[300];
			if (!optarg[0] || strchr(optarg, ','))
				return pg_usage_error("run: --peer '%s': give one HOST[:PORT]", optarg);
			if (nov == MAX_OVERRIDES)
				return pg_usage_error("run: at most %d -p options", MAX_OVERRIDES);
			snprintf(arg, sizeof(arg), "peer=%s", optarg);
			if (pg_override_parse(arg, &ov[nov], err, sizeof(err)) < 0)
				return pg_usage_error("run: --peer: %s", err);
			nov++;
			break;
		}
		case O_PSK:
			/* Read by the net benchmarks; the path stays out of the results. */
			if (access(optarg, R_OK) < 0)
				return pg_usage_error("run: --psk-file '%s': %s", optarg, strerror(errno));
			setenv("PERFGUIDE_PSK_FILE", optarg, 1);
			break;
		case 'h':
			fputs(help, stdout);
			return PG_EXIT_OK;
		default:
			if (optopt)
				return pg_usage_error("run: option '-%c' needs a value or is unknown", optopt);
			return pg_usage_error("run: unknown option '%s' (see 'perfguide run --help')", argv[optind - 1]);
		}
	}
#ifndef PG_HAVE_JANSSON
	if (out || json)
		return pg_usage_error("run: --out and --json need a build with jansson (install libjansson-dev and rebuild)");
	if (db)
		return pg_usage_error("run: --db needs a build with jansson and SQLite");
	(void)no_db;
#endif

	/* Which benchmarks. */
	static const struct pg_bench *sel[MAX_SELECTED];
	int nsel = 0;
	const char *const *selectors = (const char *const *)argv + optind;
	int nselectors = argc - optind;
	if (nselectors == 0) {
		pg_registry_select("*", sel, &nsel, MAX_SELECTED);
		if (suite == PG_SUITE_NONE)
			suite = PG_SUITE_QUICK;
	}
	for (int i = 0; i < nselectors; i++) {
		int m = pg_registry_select(selectors[i], sel, &nsel, MAX_SELECTED);
		if (m == 0)
			return pg_usage_error("run: no benchmark matches '%s' (see 'perfguide list')", selectors[i]);
	}
	struct pg_run_opts ro;
	suite_defaults(suite, &ro);
	ro.runs = runs;		/* --runs: exactly that many samples */
	if (min_time > 0)
		ro.min_time = min_time;
	min_time = ro.min_time;
	ro.iters = iters;
	ro.cpus = ncpus ? cpus : NULL;
	ro.ncpus = ncpus;

	/* Every parameter combination, checked now so no bad input is found
	 * halfway through a long run. */
	int64_t mem_avail = pg_mem_available();
	struct plan_item *plan = NULL;
	int nplan = 0;
	for (int i = 0; i < nsel; i++) {
		struct pg_args *combos;
		int n;
		if (pg_sweep(sel[i], suite, ov, nov, mem_avail, &combos, &n, err, sizeof(err)) < 0) {
			free(plan);
			return pg_usage_error("run: %s", err);
		}
		struct plan_item *np = realloc(plan, (size_t)(nplan + n + 1) * sizeof(*plan));
		if (!np) {
			free(combos);
			free(plan);
			return pg_usage_error("run: out of memory");
		}
		plan = np;
		for (int k = 0; k < n; k++) {
			plan[nplan].bench = sel[i];
			plan[nplan].args = combos[k];
			nplan++;
		}
		free(combos);
	}
	for (int i = 0; i < nov; i++) {
		if (!ov[i].used) {
			free(plan);
			return pg_usage_error("run: no selected benchmark has a parameter '%s' (see 'perfguide list')",
					      ov[i].name);
		}
	}
	if (nplan == 0) {
		free(plan);
		return pg_usage_error("run: nothing to run: every combination was left out");
	}

	struct pg_machine machine;
	pg_machine_read(&machine);
	if (!board)
		board = machine.board;
	double started = pg_wall_time();
	char run_id[160];
	make_run_id(board, started, run_id, sizeof(run_id));

#ifdef PG_HAVE_JANSSON
	char default_out[256];
	if (!out) {
		if (mkdir(RESULTS_DIR, 0777) < 0 && errno != EEXIST) {
			pg_machine_free(&machine);
			free(plan);
			return pg_usage_error("run: cannot create %s/: %s", RESULTS_DIR, strerror(errno));
		}
		snprintf(default_out, sizeof(default_out), "%s/%s.jsonl", RESULTS_DIR, run_id);
		out = default_out;
	}
#ifdef PG_HAVE_STORE
	/* The store follows the results file; an explicit --db that cannot be
	 * used is bad input, a default store that cannot only a warning. */
	struct pg_follow *follow = NULL;
	if (!no_db) {
		char serr[600];
		follow = pg_follow_open(db, out, serr, sizeof(serr));
		if (!follow && db) {
			pg_machine_free(&machine);
			free(plan);
			return pg_usage_error("run: --db: %s", serr);
		}
		if (!follow)
			fprintf(stderr, "perfguide: not adding results to the store: %s\n", serr);
	}
#else
	(void)no_db;
	if (db)
		return pg_usage_error("run: --db needs a build with SQLite (install libsqlite3-dev and rebuild)");
#endif
	FILE *f = fopen(out, "a");
	if (!f) {
		int e = errno;
		pg_machine_free(&machine);
		free(plan);
#ifdef PG_HAVE_STORE
		pg_follow_close(follow);
#endif
		return pg_usage_error("run: cannot write results to %s: %s", out, strerror(e));
	}
	struct pg_results res = { .sink = { f }, .nsinks = 1, .path = out };
	if (json)
		res.sink[res.nsinks++] = stdout;
	struct pg_run_info ri = {
		.board = board, .started = started, .machine = &machine, .suite = suite,
		.runs = runs, .min_runs = ro.min_runs, .max_runs = ro.max_runs,
		.ci_target = ro.ci_target, .max_time = ro.max_time, .budget = budget,
		.min_time = min_time, .iters = iters, .selectors = selectors,
		.nselectors = nselectors, .overrides = ov, .noverrides = nov,
		.cpus = ncpus ? cpus : NULL, .ncpus = ncpus,
	};
	snprintf(ri.id, sizeof(ri.id), "%s", run_id);
	pg_results_run(&res, &ri);
#ifdef PG_HAVE_STORE
	pg_follow_sync(follow);
#endif
#else
	fprintf(stderr, "perfguide: built without jansson: results are shown but no results file is written\n");
#endif

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* A single-copy benchmark runs on this thread: its reads and writes
	 * go on after the first Ctrl-C, which stops at the sample's end. */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	struct pg_console con;
	pg_console_init(&con, json);
	struct pg_budget shared;
	if (budget > 0) {
		pg_budget_init(&shared, budget, nplan, &ro);
		ro.budget = &shared;
	}
	int failed = 0;
	double t0 = pg_now();
	for (int i = 0; i < nplan && !pg_interrupted; i++) {
		char what[200], args[160];
		pg_args_format(&plan[i].args, args, sizeof(args));
		snprintf(what, sizeof(what), "%s %s", plan[i].bench->id, args);
		/* Until something has run, guess warm-up, calibration and samples. */
		double left = i ? (pg_now() - t0) / i * (nplan - i)
				: ((runs ? runs : ro.min_runs) + 4) * min_time * nplan;
		if (ro.budget && shared.deadline - pg_now() < left)
			left = shared.deadline - pg_now();
		pg_console_progress(&con, i, nplan, what, left);

		struct pg_result r;
		pg_run_bench(plan[i].bench, &plan[i].args, &ro, &r);
		if (pg_interrupted && r.status == PG_ERROR) {
			pg_result_free(&r);
			break;
		}
		failed |= r.status == PG_ERROR;
#ifdef PG_HAVE_JANSSON
		pg_results_result(&res, &r);
#endif
#ifdef PG_HAVE_STORE
		pg_follow_sync(follow);
#endif
		pg_console_result(&con, &r);
		pg_result_free(&r);
	}
	pg_console_clear(&con);
	int interrupted = pg_interrupted != 0;
#ifdef PG_HAVE_JANSSON
	pg_results_end(&res, interrupted);
	if (fclose(f) != 0 && !res.failed) {
		fprintf(stderr, "perfguide: writing %s: %s\n", out, strerror(errno));
		res.failed = 1;
	}
	fprintf(stderr, "perfguide: %s results in %s\n", interrupted ? "interrupted; finished" : "wrote", out);
#ifdef PG_HAVE_STORE
	/* A store that failed is not a failed run: the file has it all. */
	pg_follow_close(follow);
#endif
	failed |= res.failed;
#endif
	pg_machine_free(&machine);
	free(plan);
	if (interrupted)
		return PG_EXIT_INTERRUPTED;
	return failed ? PG_EXIT_FAIL : PG_EXIT_OK;
}
