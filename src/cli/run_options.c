/* SPDX-License-Identifier: MIT */
/* perfguide run: its options, each checked before anything runs. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "help.h"
#include "core/procs.h"
#include "core/text.h"
#include "run.h"
#include "core/err.h"

#define PG_LABEL_KEY_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"

enum { O_SUITE = 256, O_RUNS, O_MINTIME, O_BOARD, O_OUT, O_JSON, O_CPU, O_DB, O_NODB, O_PEER, O_PSK, O_ITERS,
       O_DESTROY, O_BUDGET, O_LABEL, O_LAVA, O_WAIT_QUIET, O_DRY_RUN, O_PROCESSES, O_MAX_PROCESSES };

static const struct pg_opt run_opts[] = {
	{ "suite", 0, O_SUITE, "quick|standard|full",
	  "sweep each parameter as the suite says (default: quick when no SELECTOR is given)" },
	{ "runs", 0, O_RUNS, "N",
	  "exactly N samples per result; without it, each result samples until the median's 95% interval "
	  "is within +/-2% of it (full: 1%), at least 6 (full 10) and at most 10, 30, 100 samples or 1, 3, "
	  "30 s (quick, standard, full)" },
	{ "processes", 0, O_PROCESSES, "N",
	  "measure each cpu, mem, os and crypto result in N fresh processes one after the other, each with "
	  "1/N of its time and samples (at least 2 each), and record every process's median: a process's "
	  "speed is a draw, and the processes show it (default 2; 1: in this process only; at most 64)" },
	{ "max-processes", 0, O_MAX_PROCESSES, "N",
	  "while a result's processes disagree (BIMODAL) or spread too wide for compare to judge, run one "
	  "more at a time, each with the time of one of the first, up to N in all, so that the figure and "
	  "compare rest on more than two draws; processes that agree but whose samples together miss the "
	  "interval target get more samples in the last of them instead, up to the result's most samples "
	  "and time (default 6; not with --runs, nor when --budget cut the result's time)" },
	{ "min-time", 0, O_MINTIME, "SECONDS",
	  "each sample lasts at least this long (quick 0.05, standard 0.1, full 0.5)" },
	{ "budget", 0, O_BUDGET, "DURATION|none",
	  "the whole run's time (900, 15m, 1h30m): what no share can shorten (3 samples of each result, a "
	  "trial's time and ramp) is kept for the results still to run, and each result whose samples "
	  "can stop early may use its floor and an equal part of the rest; when the floors alone exceed "
	  "it the run says so and goes on. Standard suite: 13m unless given, none for no limit" },
	{ "dry-run", 0, O_DRY_RUN, NULL,
	  "print what would run, each result's floor (what no share of --budget can shorten) and their "
	  "sum against the budget; run nothing" },
	{ "iterations", 0, O_ITERS, "N",
	  "every sample is N iterations, not calibrated by time: the same work on any machine (for counting "
	  "instructions, e.g. under callgrind)" },
	{ "board", 0, O_BOARD, "NAME",
	  "the guide's column name (default: device-tree model, DMI product, or hostname)" },
	{ "out", 0, O_OUT, "FILE.jsonl", "results file (default: " RUN_RESULTS_DIR "/<board>-<time>.jsonl)" },
	{ "json", 0, O_JSON, NULL, "also print every record as JSON on stdout" },
	{ "db", 0, O_DB, "FILE|URL",
	  "also add the results to this store: a FILE (SQLite) or a postgresql:// URL (a store a board farm "
	  "shares); default: $PERFGUIDE_DB, else $XDG_DATA_HOME/perfguide/results.db" },
	{ "no-db", 0, O_NODB, NULL, "write only the results file" },
	{ "label", 0, O_LABEL, "KEY=VALUE",
	  "recorded with the run (release=09.02): compare --release selects a fleet's runs by it" },
	{ "lava", 0, O_LAVA, NULL,
	  "also report every result as a LAVA test case (lava-test-case, or its signal lines): "
	  "lava/README.md" },
	{ "wait-quiet", 0, O_WAIT_QUIET, "SECONDS",
	  "before a benchmark, while other processes use more than 10% of the CPUs, wait for them at most "
	  "this long; before a disturbed result or process is measured again, wait so for the machine "
	  "(others, the hypervisor's steal, a slow CPU) (default 10, or PERFGUIDE_WAIT_QUIET; 0: never)" },
	{ "cpu", 0, O_CPU, "LIST",
	  "pin to these CPUs (\"0\", \"2,3\", \"0-3\"); copy i of a benchmark runs on the i-th CPU of the list" },
	{ NULL, 'p', 'p', "[SELECTOR.]NAME=VALUE[,VALUE...]",
	  "set a parameter; several values sweep it. Sizes take k, m, g suffixes (powers of 1024). NAME "
	  "alone: each selected benchmark whose parameter NAME takes the value (its type, choices, range) "
	  "gets it, the others keep their own and the run says so (--dry-run: which takes what); a value "
	  "none takes is an error. SELECTOR.NAME (storage.path=/mnt/emmc, 'net.udp.*.dir=in'): only the "
	  "benchmarks the selector selects, each of which must take it; when none of them is selected, it "
	  "is not used (a LAVA job's fixed options with any BENCHMARKS)" },
	{ "peer", 0, O_PEER, "HOST[:PORT]",
	  "the net.* benchmarks' far end, running `perfguide serve` (default: one started on loopback); the "
	  "same as -p net.peer=HOST[:PORT] (can.*'s peer is another thing). A peer that cannot be reached fails "
	  "the run (exit 1)" },
	{ "psk-file", 0, O_PSK, "FILE",
	  "the key that peer asks for (serve --psk-file); the same as -p net.psk_file=FILE, kept out of the results" },
	{ "destroy-data", 0, O_DESTROY, "PATH",
	  "let storage.* writes go to this block device or existing file (-p path=PATH), destroying its data; "
	  "the same as -p storage.destroy=PATH" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_run = {
	.name = "run",
	.summary = "run benchmarks and write results",
	.usage = "[SELECTOR...] [options]",
	.intro = "Runs the benchmarks that the SELECTORs name (an id, a group such as 'mem', or a glob such "
		 "as 'mem.bw.*'; all benchmarks when none is given) and writes one results file. Without "
		 "--suite each parameter takes its default. A benchmark named by its id (or by a group or glob "
		 "the suite leaves out altogether, such as ext under quick) always gets a result: it runs at "
		 "that suite's settings it has (else its defaults), and when memory leaves out every setting, "
		 "it is reported skipped with the reason.",
	.opts = run_opts,
	.after = "The run ends with a summary: how many results were ok, noisy, skipped and failed, and a "
		 "line per failure with the benchmark and why.",
	.exit_status = "0 every benchmark ran or was skipped, 1 a benchmark failed (or the results file could "
		       "not be written), 2 bad input (nothing was run), 130 interrupted (finished results kept).",
	.examples = "  perfguide run mem.bw.fcp -p size=8m\n"
		    "  perfguide run 'mem.*' --suite standard --board am62x-sk",
};

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
				return pg_err(err, errlen, "--cpu: CPU %ld does not exist (this machine has %ld)", c,
					      ncpu);
			}
			if (*n == RUN_MAX_CPUS)
				goto bad;
			cpus[(*n)++] = (int)c;
		}
	}
	if (*n > 0)
		return 0;
bad:
	return pg_err(err, errlen, "--cpu: '%s' is not a CPU list (use 0, 2,3 or 0-3)", s);
}

/* -p NAME=VALUE, and the options that are parameters of some benchmarks
 * (--peer, --psk-file, --destroy-data, scoped to the group they are for):
 * the values are typed and checked by the benchmark's parameter, as any -p. */
static int add_override(struct run_config *c, const char *opt, const char *name, const char *value)
{
	char arg[300], err[320];
	if (c->nov == RUN_MAX_OVERRIDES)
		return pg_usage_error("run: at most %d -p options", RUN_MAX_OVERRIDES);
	if (name && (!value[0] || strchr(value, ',')))
		return pg_usage_error("run: %s '%s': give one value", opt, value);
	snprintf(arg, sizeof(arg), "%s%s%s", name ? name : "", name ? "=" : "", value);
	if (pg_override_parse(arg, &c->ov[c->nov], err, sizeof(err)) < 0)
		return pg_usage_error("run: %s%s%s", name ? opt : "", name ? ": " : "", err);
	c->ov[c->nov++].required = name != NULL;
	return -1;
}

/* A number in [lo, hi]; what says what to give when it is not. */
static int parse_number(const char *opt, const char *s, double lo, double hi, int whole, const char *what, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || s[0] == '-' || !(*v >= lo) || *v > hi || (whole && *v != (double)(int64_t)*v))
		return pg_usage_error("run: %s '%s': give %s", opt, s, what);
	return -1;
}

/* "90", "90s", "15m", "1h30m": seconds, or -1. */
double run_parse_duration(const char *s)
{
	double total = 0;
	const char *p = s;
	if (!*p)
		return -1;
	while (*p) {
		char *end;
		errno = 0;
		double v = strtod(p, &end);
		if (errno || end == p || !(v >= 0) || *p == '-' || *p == '+')
			return -1;
		double unit = *end == 'h' ? 3600 : *end == 'm' ? 60 : 1;
		if (*end && *end != 'h' && *end != 'm' && *end != 's')
			return -1;
		total += v * unit;
		p = *end ? end + 1 : end;
	}
	return total;
}

/* The noise-aware runner's settings per suite (runner.h, pg_run_opts):
 * samples of at least min_time, at least min_runs (6 gives the median a 95%
 * interval), more until that interval is within +/- ci_target of the
 * median, at most max_runs or max_time seconds per result. Without --suite,
 * a named benchmark gets the standard suite's (but no budget). --runs N:
 * exactly N. */
static void suite_defaults(struct run_config *c)
{
	static const struct {
		double min_time;
		int min_runs, max_runs;
		double ci_target, max_time, budget;
	} d[] = {
		[PG_SUITE_NONE] = { 0.1, 6, 30, 0.02, 3, 0 }, [PG_SUITE_QUICK] = { 0.05, 6, 10, 0.02, 1, 0 },
		[PG_SUITE_STANDARD] = { 0.1, 6, 30, 0.02, 3, 13 * 60 }, [PG_SUITE_FULL] = { 0.5, 10, 100, 0.01, 30, 0 },
	};
	if (c->nselectors == 0 && c->suite == PG_SUITE_NONE)
		c->suite = PG_SUITE_QUICK;
	if (!(c->min_time > 0))
		c->min_time = d[c->suite].min_time;
	c->min_runs = d[c->suite].min_runs;
	c->max_runs = d[c->suite].max_runs;
	c->ci_target = d[c->suite].ci_target;
	c->max_time = d[c->suite].max_time;
	/* The standard guide of every group within a quarter of an hour on a
	 * two-core machine: the floors are kept within the 13 minutes
	 * (core/budget.c); the rest is for what they do not know (setups, the
	 * storage files' layout, a search's trials beyond its least). */
	if (c->budget == 0 && c->runs == 0)
		c->budget = d[c->suite].budget;
	if (c->budget == RUN_NO_BUDGET)
		c->budget = 0;
}

/* KEY=VALUE: a key of [A-Za-z0-9_.-], a printable value; each key once. */
static int add_label(struct run_config *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t klen = eq ? (size_t)(eq - arg) : 0;
	if (!eq || klen == 0 || klen > 64 || strspn(arg, PG_LABEL_KEY_CHARS) != klen || !eq[1] ||
	    strlen(eq + 1) > 128)
		return pg_usage_error("run: --label '%s': give KEY=VALUE (a key of letters, digits, '_', '.', '-'; "
				      "a value of 1 to 128 characters)", arg);
	for (const char *p = eq + 1; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return pg_usage_error("run: --label '%.*s': the value has a control character", (int)klen, arg);
	for (int i = 0; i < c->nlabels; i++)
		if (strncmp(c->labels[i], arg, klen + 1) == 0)
			return pg_usage_error("run: --label %.*s given twice", (int)klen, arg);
	if (c->nlabels == RUN_MAX_LABELS)
		return pg_usage_error("run: at most %d --label options", RUN_MAX_LABELS);
	c->labels[c->nlabels++] = arg;
	return -1;
}

static int one_option(int opt, const char *arg, struct run_config *c)
{
	char err[320];
	double v;
	int rc = -1;
	switch (opt) {
	case O_SUITE:
		if (pg_suite_parse(arg, &c->suite) < 0)
			return pg_usage_error("run: --suite '%s': use quick, standard or full", arg);
		break;
	case O_RUNS:
		if ((rc = parse_number("--runs", arg, 1, 100000, 1, "a whole number from 1 to 100000", &v)) < 0)
			c->runs = (int)v;
		break;
	case O_PROCESSES:
		if ((rc = parse_number("--processes", arg, 1, PG_MAX_PROCS, 1, "a whole number from 1 to 64", &v)) < 0)
			c->processes = (int)v;
		break;
	case O_MAX_PROCESSES:
		if ((rc = parse_number("--max-processes", arg, 1, PG_MAX_PROCS, 1, "a whole number from 1 to 64",
					&v)) < 0)
			c->max_processes = (int)v;
		break;
	case O_MINTIME:
		if ((rc = parse_number("--min-time", arg, 1e-9, 3600, 0, "seconds above 0 (at most 3600)", &v)) < 0)
			c->min_time = v;
		break;
	case O_ITERS:
		if ((rc = parse_number("--iterations", arg, 1, (double)(1ULL << 40), 1,
					"a whole number from 1 to 2^40", &v)) < 0)
			c->iters = (uint64_t)v;
		break;
	case O_BUDGET:
		if (strcmp(arg, "none") == 0) {
			c->budget = RUN_NO_BUDGET;
			break;
		}
		c->budget = run_parse_duration(arg);
		if (!(c->budget > 0) || c->budget > 30 * 86400)
			return pg_usage_error("run: --budget '%s': give a duration such as 900, 15m or 1h30m "
					      "(at most 30 days)", arg);
		break;
	case O_BOARD:
		if (!arg[0] || strlen(arg) > 100 || pg_text_has_control(arg))
			return pg_usage_error("run: --board: give a name of 1 to 100 characters, without control characters");
		c->board = arg;
		break;
	case O_OUT: c->out = arg; break;
	case O_JSON: c->json = 1; break;
	case O_DB: c->db = arg; break;
	case O_NODB: c->no_db = 1; break;
	case O_LABEL: return add_label(c, arg);
	case O_LAVA: c->lava = 1; break;
	case O_DRY_RUN: c->dry_run = 1; break;
	case O_WAIT_QUIET:
		if ((rc = parse_number("--wait-quiet", arg, 0, 3600, 0, "seconds from 0 to 3600", &v)) < 0)
			c->wait_quiet = v;
		break;
	case O_CPU:
		if (parse_cpus(arg, c->cpus, &c->ncpus, err, sizeof(err)) < 0)
			return pg_usage_error("run: %s", err);
		break;
	case 'p': return add_override(c, "-p", NULL, arg);
	case O_PEER: return add_override(c, "--peer", "net.peer", arg);
	case O_PSK:
		if (access(arg, R_OK) < 0)
			return pg_usage_error("run: --psk-file '%s': %s", arg, strerror(errno));
		return add_override(c, "--psk-file", "net.psk_file", arg);
	case O_DESTROY: return add_override(c, "--destroy-data", "storage.destroy", arg);
	}
	return rc;
}

/* --wait-quiet's default: PERFGUIDE_WAIT_QUIET where it is set (a CI or a
 * test suite sets it once), else RUN_WAIT_QUIET_DEFAULT. */
static int wait_quiet_default(struct run_config *c)
{
	const char *env = getenv("PERFGUIDE_WAIT_QUIET");
	double v = RUN_WAIT_QUIET_DEFAULT;
	if (env && env[0]) {
		int rc = parse_number("PERFGUIDE_WAIT_QUIET", env, 0, 3600, 0, "seconds from 0 to 3600", &v);
		if (rc >= 0)
			return rc;
	}
	c->wait_quiet = v;
	return -1;
}

int run_parse_options(int argc, char **argv, struct run_config *c)
{
	struct pg_getopt g;
	int opt, rc;
	memset(c, 0, sizeof(*c));
	c->processes = PG_PROCS_DEFAULT;
	c->max_processes = PG_PROCS_MAX_DEFAULT;
	if ((rc = wait_quiet_default(c)) >= 0)
		return rc;
	pg_getopt_tables(&pg_doc_run, &g);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		if (opt == 'h') {
			pg_help_print(stdout, &pg_doc_run);
			return PG_EXIT_OK;
		}
		if (opt == '?') {
			if (optopt)
				return pg_usage_error("run: option '-%c' needs a value or is unknown", optopt);
			return pg_usage_error("run: unknown option '%s' (see 'perfguide run --help')", argv[optind - 1]);
		}
		if ((rc = one_option(opt, optarg, c)) >= 0)
			return rc;
	}
	c->selectors = (const char *const *)argv + optind;
	c->nselectors = argc - optind;
	suite_defaults(c);
	return -1;
}
