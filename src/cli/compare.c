/* SPDX-License-Identifier: MIT */
/*
 * perfguide compare BASE NEW: what changed between two builds, with a
 * verdict per measurement, and an exit status a CI or a board farm can gate
 * on. BASE and NEW may each be several runs (gate/compare.h, gate.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "help.h"
#include "compare.h"
#include "gate/profile.h"
#include "store/select.h"
#include "core/err.h"

enum { O_HISTORY = 256, O_FORCE, O_ALLOW_MISSING, O_GATE_DESC };

static const struct pg_opt compare_opts[] = {
	{ "threshold", 0, 't', "PCT", "smallest change that counts (default 5)" },
	{ "history", 0, O_HISTORY, "K",
	  "NEW against the K runs of its board before it in the store (the spread of those runs; an "
	  "undecided row says how many more runs would decide it)" },
	{ "allow-missing", 0, O_ALLOW_MISSING, NULL, "a lost benchmark does not fail the comparison" },
	{ "force", 0, O_FORCE, NULL, "judge unlike machines anyway" },
	{ "gate-descriptive", 0, O_GATE_DESC, NULL, "descriptive metrics count too" },
	{ "format", 0, 'f', "md|json", "a table (default) or JSON" },
	{ "db", 0, 'd', "FILE|URL",
	  "the results store: a FILE (SQLite) or a postgresql:// URL (a store a board farm shares); "
	  "default: $PERFGUIDE_DB, else $XDG_DATA_HOME/perfguide/results.db" },
	{ "board", 0, 'b', "NAME", "with a label or a fleet: only this board (repeat for more)" },
	{ "baseline-release", 0, 'B', "A", "a fleet: the release compared against" },
	{ "release", 0, 'R', "B", "a fleet: the release under test" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_compare = {
	.name = "compare",
	.summary = "what changed between two runs or releases; exit 1 on a regression",
	.usage = "BASE NEW [options]\nBASE... vs NEW... [options]\nNEW --history K [options]\n"
		 "--baseline-release A --release B [--board NAME]... [options]",
	.intro = "Compares every measurement BASE has with NEW. Each of BASE and NEW is one run or several: "
		 "a results file (a path with a '/' or a name ending .jsonl, ./FILE for one in the current "
		 "directory; all its runs: run --out the same file again to add one), a run id, a board name "
		 "(its latest run), or a label KEY=VALUE such as release=09.02 (all its runs in the store; "
		 "--board to choose one board's). What is compared is each run's figure (the median of its "
		 "samples; of each process's medians when the run measured in several processes, run "
		 "--processes), and what counts is how much that figure moves from run to run: two runs of one "
		 "build can differ by far more than one run's samples spread. With several runs on a side the "
		 "runs show that spread. With one run a side it is the board's, from its earlier runs in the "
		 "store (the same board and build settings: its noise profile; --db, else $PERFGUIDE_DB, else "
		 "the default store when there is one), else an allowance of about 5% a run (15% for storage.* "
		 "and cpu.scaling), which is a guess: one run a side without a history shows no row within a "
		 "5% threshold. NEW --history K judges NEW against the K runs of its board before it. The "
		 "Spread column says which spread a row was judged with.\n\n"
		 "Verdicts, one per measurement, from the change's 90% interval (its Interval column):\n\n"
		 "  regressed, improved  the whole interval is beyond --threshold on one\n"
		 "                       side, and the change is significant with the\n"
		 "                       rows' false discovery rate held at 5%\n"
		 "                       (Benjamini-Hochberg): the runs show a change of\n"
		 "                       more than the threshold. With one run of one\n"
		 "                       process a side and an allowance, only a change\n"
		 "                       beyond 3x (processes can differ 1.6x)\n"
		 "  within noise         the whole interval is inside +/- --threshold:\n"
		 "                       the runs show that any change is smaller than the\n"
		 "                       threshold (an equivalence test), not merely that\n"
		 "                       none was seen. Also when NEW ran in slower\n"
		 "                       conditions (see below): that hides no regression\n"
		 "  undecided            neither: the runs are too few or too noisy to\n"
		 "                       tell. Says between what and what the change lies\n"
		 "                       (\"between -4% and +118%\") and about how many more\n"
		 "                       runs a side (with --history: runs of history, or\n"
		 "                       NEW runs) would decide it at the spread seen\n"
		 "  inconclusive         the runs cannot be judged, with why: disturbed on\n"
		 "                       a side (the run marked it: other processes,\n"
		 "                       steal, throttling), the environment differs (the\n"
		 "                       CPU's frequencies, or the shared cache that\n"
		 "                       others held on one side: env.cache_ns 4x apart),\n"
		 "                       no ratio, unlike machines\n"
		 "  bimodal              said beside a verdict: a run's processes disagree\n"
		 "                       beyond their noise (the figure depends on the\n"
		 "                       process that measured it)\n"
		 "  not gated            descriptive (CPU load, offered rate, lost frames),\n"
		 "                       decided by something besides the build (env.history:\n"
		 "                       a file system's recent deletes; on a virtual machine\n"
		 "                       a memory working set within the last-level cache\n"
		 "                       the host's other tenants share), or derived from\n"
		 "                       another metric (DMIPS of Dhrystones/s): shown, not\n"
		 "                       counted\n\n"
		 "A measurement BASE has that NEW lost (missing, failed, newly skipped) is listed. Unlike "
		 "machines (a run compared with itself, other architecture, CPU model, kernel, governor, or "
		 "emulated against native) are listed first.",
	.opts = compare_opts,
	.after = "Across a fleet: for every board in the store with runs labelled release=A and release=B "
		 "(run --label release=B), all of each compared as above; a board whose release B run crashed "
		 "(no end record) or failed in every result fails. --baseline-release A and --release B choose "
		 "the releases.",
	.exit_status = "0 nothing regressed and every row decided; 1 a regression, or a benchmark of BASE "
		       "missing, failed or newly skipped in NEW (unless --allow-missing); 3 nothing regressed but "
		       "a row is undecided or could not be judged (or the machines are unlike); 2 bad input.",
	.examples = "  perfguide compare am62x-09.01.jsonl am62x-09.02.jsonl\n"
		    "  perfguide compare release=09.01 vs release=09.02 --board am62x-sk\n"
		    "  perfguide compare --baseline-release 09.01 --release 09.02",
};

/* The forms: runs, a history, or two releases of a fleet. */
static int check_opts(int argc, char **argv, const struct compare_opts *o)
{
	int npos = argc - optind;
	if (!o->base_release != !o->release)
		return pg_usage_error("compare: give --baseline-release and --release together");
	if (o->release && strcmp(o->release, o->base_release) == 0)
		return pg_usage_error("compare: --release and --baseline-release are both '%s'", o->release);
	if (o->release && npos)
		return pg_usage_error("compare: with --release, give no runs ('%s')", argv[optind]);
	if (o->release && o->history)
		return pg_usage_error("compare: --history judges one board's runs: not with --release");
	if (o->history && npos != 1)
		return pg_usage_error("compare: with --history, give the NEW run only");
	if (!o->release && !o->history && npos < 2)
		return pg_usage_error("compare: give two runs: BASE NEW (run ids, results files, boards or labels)");
	return -1;
}

static int one_opt(int c, struct compare_opts *o)
{
	char *end;
	switch (c) {
	case 't':
		errno = 0;
		o->threshold = strtod(optarg, &end);
		if (errno || end == optarg || (*end && strcmp(end, "%") != 0) || !(o->threshold >= 0) ||
		    o->threshold > 1000)
			return pg_usage_error("compare: --threshold '%s': give a percentage from 0 to 1000", optarg);
		break;
	case O_HISTORY: {
		long k = strtol(optarg, &end, 10);
		if (*end || end == optarg || k < 2 || k > 1000)
			return pg_usage_error("compare: --history '%s': give a number of runs from 2 to 1000", optarg);
		o->history = (int)k;
		break;
	}
	case 'f':
		if (strcmp(optarg, "md") != 0 && strcmp(optarg, "json") != 0)
			return pg_usage_error("compare: --format '%s': use md or json", optarg);
		o->json = strcmp(optarg, "json") == 0;
		break;
	case 'd': o->db = optarg; break;
	case 'B': o->base_release = optarg; break;
	case 'R': o->release = optarg; break;
	case O_FORCE: o->force = 1; break;
	case O_ALLOW_MISSING: o->allow_missing = 1; break;
	case O_GATE_DESC: o->gate_descriptive = 1; break;
	case 'b':
		if (o->nboards == COMPARE_MAX_BOARDS)
			return pg_usage_error("compare: at most %d --board options", COMPARE_MAX_BOARDS);
		o->boards[o->nboards++] = optarg;
		break;
	}
	return -1;
}

/* -1 to go on, else the exit status. */
static int parse_opts(int argc, char **argv, struct compare_opts *o)
{
	struct pg_getopt g;
	int c, rc;
	*o = (struct compare_opts){ .threshold = 5 };
	pg_getopt_tables(&pg_doc_compare, &g);
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		if (c == 'h') {
			pg_help_print(stdout, &pg_doc_compare);
			return PG_EXIT_OK;
		}
		if (c == '?') {
			if (optopt)
				return pg_usage_error("compare: option '-%c' needs a value or is unknown", optopt);
			return pg_usage_error("compare: unknown option '%s' (see 'perfguide compare --help')",
					      argv[optind - 1]);
		}
		if ((rc = one_opt(c, o)) >= 0)
			return rc;
	}
	return check_opts(argc, argv, o);
}

/* --- the runs each side names --- */

static int add_runs(struct compare_side *s, struct pg_rrun *r, int n)
{
	struct pg_rrun *all = realloc(s->runs, sizeof(*all) * (size_t)(s->n + n + 1));
	if (!all)
		return -1;
	s->runs = all;
	memcpy(all + s->n, r, sizeof(*r) * (size_t)n);
	s->n += n;
	return 0;
}

static void side_free(struct compare_side *s)
{
	for (int i = 0; i < s->n; i++)
		pg_rrun_free(&s->runs[i]);
	free(s->runs);
	memset(s, 0, sizeof(*s));
}

/* One spec: a results file by its form (every run in it), a label
 * KEY=VALUE (every run of the store with it), or a run id or a board. */
static int add_spec(const char *spec, const struct compare_opts *o, struct pg_store **store, struct compare_side *s,
		    char *err, size_t errlen)
{
	if (pg_select_names_file(spec)) {
		struct pg_rrun *runs;
		int n;
		if (pg_rrun_read_all(spec, &runs, &n, err, errlen) < 0)
			return -1;
		int rc = add_runs(s, runs, n);
		if (rc < 0) {
			for (int i = 0; i < n; i++)
				pg_rrun_free(&runs[i]);
			pg_err(err, errlen, "out of memory");
		}
		free(runs);
		return rc;
	}
	if (strchr(spec, '=') && !strchr(spec, '/'))
		return compare_label_runs(spec, o, store, s, err, errlen);
	struct pg_rrun r;
	if (pg_select_run(spec, o->db, store, &r, err, errlen) < 0)
		return -1;
	if (add_runs(s, &r, 1) < 0) {
		pg_rrun_free(&r);
		return pg_err(err, errlen, "out of memory");
	}
	return 0;
}

/* BASE... vs NEW..., or BASE NEW. */
static int read_sides(int argc, char **argv, const struct compare_opts *o, struct compare_side *base,
		      struct compare_side *new)
{
	char err[700];
	struct pg_store *store = NULL;
	int split = -1, npos = argc - optind, rc = -1;
	for (int i = optind; i < argc; i++)
		if (strcmp(argv[i], "vs") == 0)
			split = i;
	if (split < 0 && npos != 2 && !o->history) {
		rc = pg_usage_error("compare: %d runs given: put 'vs' between BASE's and NEW's", npos);
	} else if (split == optind || split == argc - 1) {
		rc = pg_usage_error("compare: give runs on both sides of 'vs'");
	} else {
		int first_new = o->history ? optind : split < 0 ? optind + 1 : split + 1;
		for (int i = optind; i < argc && rc < 0; i++) {
			if (i == split)
				continue;
			int is_new = i >= first_new;
			if (add_spec(argv[i], o, &store, is_new ? new : base, err, sizeof(err)) < 0)
				rc = pg_usage_error("compare: %s: %s", is_new ? "NEW" : "BASE", err);
		}
		if (rc < 0 && o->history && compare_history(o, &store, new, base, err, sizeof(err)) < 0)
			rc = pg_usage_error("compare: --history: %s", err);
	}
	pg_store_close(store);
	return rc;
}

/* The verdicts, printed; the exit status. */
/* The board's noise profile from its runs in the store (none for
 * --history: its runs are BASE); why none could be read into err. */
static void read_profile(const struct pg_cmp_side *b, const struct pg_cmp_side *n, const struct compare_opts *o,
			 struct pg_noise_profile *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	err[0] = '\0';
	if (o->history)
		return;
	struct pg_store *s = compare_profile_store(o, err, errlen);
	if (s && pg_noise_from_store(s, b, n, p, err, errlen) < 0) {
		pg_noise_free(p);
		if (!err[0])
			snprintf(err, errlen, "out of memory");
	}
	pg_store_close(s);
}

static int compare_runs(const struct compare_side *base, const struct compare_side *new, const struct compare_opts *o)
{
	struct pg_cmp_side b = { base->runs, base->n }, n = { new->runs, new->n };
	struct pg_noise_profile prof;
	char err[600];
	read_profile(&b, &n, o, &prof, err, sizeof(err));
	struct pg_cmp_opts co = { .threshold_pct = o->threshold, .gate_descriptive = o->gate_descriptive,
				  .force = o->force, .history = o->history > 0, .profile = prof.n ? &prof : NULL };
	struct pg_comparison c;
	int made = pg_compare_sides(&b, &n, &co, &c);
	pg_noise_free(&prof);
	if (made < 0)
		return pg_usage_error("compare: out of memory");
	if (err[0]) {
		char t[PG_CMP_NOTE_LEN];
		snprintf(t, sizeof(t), "no noise profile of the board (one run a side is allowed a fixed spread): %.140s",
			 err);
		pg_compare_note(&c, t);
	}
	int any_ok = 0;
	for (int j = 0; j < new->n; j++)
		for (int i = 0; i < new->runs[j].nres && !any_ok; i++)
			any_ok = new->runs[j].res[i].status == PG_OK;
	if (c.n == 0 && any_ok) {
		pg_comparison_free(&c);
		return pg_usage_error("compare: %s and %s have no benchmark in common", base->runs[0].id,
				      new->runs[0].id);
	}
	struct pg_verdicts v = { .base = &b, .new = &n, .c = &c, .allow_missing = o->allow_missing };
	if (o->json)
		pg_compare_write_json(stdout, &v);
	else
		pg_compare_write_md(stdout, &v);
	int rc = pg_compare_exit(&c, o->allow_missing);
	pg_comparison_free(&c);
	return rc;
}

int pg_cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (o.release)
		return compare_fleet(&o);
	struct compare_side base = { 0 }, new = { 0 };
	rc = read_sides(argc, argv, &o, &base, &new);
	if (rc < 0)
		rc = compare_runs(&base, &new, &o);
	side_free(&base);
	side_free(&new);
	return rc;
}
