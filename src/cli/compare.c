/*
 * perfguide compare BASE NEW: what changed between two runs, with a verdict
 * per result, and an exit status a CI or a board farm can gate on.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help.h"
#include "compare.h"
#include "report/select.h"

static const struct pg_opt compare_opts[] = {
	{ "baseline-release", 0, 'B', "A", "the release compared against" },
	{ "release", 0, 'R', "B", "the release under test" },
	{ "board", 0, 'b', "NAME", "only this board (repeat for more)" },
	{ "threshold", 0, 't', "PCT", "smallest change that counts (default 5)" },
	{ "format", 0, 'f', "md|json", "a table (default) or JSON" },
	{ "db", 0, 'd', "FILE|URL", "the results store: a FILE (SQLite) or a postgresql:// URL (a store a board farm shares); "
	  "default: $PERFGUIDE_DB, else $XDG_DATA_HOME/perfguide/results.db" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_compare = {
	.name = "compare",
	.summary = "what changed between two runs; exit 1 on a regression",
	.usage = "BASE NEW [options]\n--baseline-release A --release B [--board NAME]... [options]",
	.intro = "Compares every benchmark and parameter set that both runs have: both medians, the change in "
		 "percent, and a verdict. A change is 'improved' or 'regressed' only when it is larger than the "
		 "threshold and the samples differ significantly (Mann-Whitney U test, p < 0.05); otherwise it "
		 "is 'within noise'. BASE and NEW are run ids, results files, or board names (that board's "
		 "latest run).\n\n"
		 "Across a fleet: for every board in the store with a run labelled release=A and one labelled "
		 "release=B (run --label release=B), its latest of each, compared; a verdict per board and "
		 "benchmark, and the regressions of all boards in one table, largest first.",
	.opts = compare_opts,
	.exit_status = "0 nothing regressed, 1 something regressed, 2 bad input.",
	.examples = "  perfguide compare am62x-09.01.jsonl am62x-09.02.jsonl\n"
		    "  perfguide compare --baseline-release 09.01 --release 09.02",
};

/* The two forms: two runs, or two releases of a fleet. */
static int check_opts(int argc, char **argv, const struct compare_opts *o)
{
	if (!o->base_release != !o->release)
		return pg_usage_error("compare: give --baseline-release and --release together");
	if (o->release && strcmp(o->release, o->base_release) == 0)
		return pg_usage_error("compare: --release and --baseline-release are both '%s'", o->release);
	if (o->release && optind < argc)
		return pg_usage_error("compare: with --release, give no runs ('%s')", argv[optind]);
	if (!o->release && o->nboards)
		return pg_usage_error("compare: --board selects boards of a fleet: give --baseline-release and --release");
	if (!o->release && argc - optind != 2)
		return pg_usage_error("compare: give two runs: BASE NEW (run ids, results files or boards)");
	return -1;
}

/* -1 to go on, else the exit status. */
static int parse_opts(int argc, char **argv, struct compare_opts *o)
{
	struct pg_getopt g;
	int c;
	*o = (struct compare_opts){ .threshold = 5 };
	pg_getopt_tables(&pg_doc_compare, &g);
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		char *end;
		switch (c) {
		case 't':
			errno = 0;
			o->threshold = strtod(optarg, &end);
			if (errno || end == optarg || (*end && strcmp(end, "%") != 0) || !(o->threshold >= 0) ||
			    o->threshold > 1000)
				return pg_usage_error("compare: --threshold '%s': give a percentage from 0 to 1000", optarg);
			break;
		case 'f':
			if (strcmp(optarg, "md") != 0 && strcmp(optarg, "json") != 0)
				return pg_usage_error("compare: --format '%s': use md or json", optarg);
			o->json = strcmp(optarg, "json") == 0;
			break;
		case 'd': o->db = optarg; break;
		case 'B': o->base_release = optarg; break;
		case 'R': o->release = optarg; break;
		case 'b':
			if (o->nboards == COMPARE_MAX_BOARDS)
				return pg_usage_error("compare: at most %d --board options", COMPARE_MAX_BOARDS);
			o->boards[o->nboards++] = optarg;
			break;
		case 'h': pg_help_print(stdout, &pg_doc_compare); return PG_EXIT_OK;
		default:
			if (optopt)
				return pg_usage_error("compare: option '-%c' needs a value or is unknown", optopt);
			return pg_usage_error("compare: unknown option '%s' (see 'perfguide compare --help')",
					      argv[optind - 1]);
		}
	}
	return check_opts(argc, argv, o);
}

/* The verdicts, printed; the exit status. */
static int compare_runs(const struct pg_rrun *base, const struct pg_rrun *new, const struct compare_opts *o)
{
	struct pg_cmp_row *rows;
	int n;
	if (pg_compare(base, new, o->threshold, &rows, &n) < 0)
		return pg_usage_error("compare: out of memory");
	if (n == 0) {
		free(rows);
		return pg_usage_error("compare: %s and %s have no benchmark in common", base->id, new->id);
	}
	struct pg_verdicts v = { .base = base, .new = new, .threshold = o->threshold, .rows = rows, .n = n };
	for (int i = 0; i < n; i++) {
		v.nreg += rows[i].verdict == PG_REGRESSED;
		v.nimp += rows[i].verdict == PG_IMPROVED;
	}
	if (o->json)
		pg_compare_write_json(stdout, &v);
	else
		pg_compare_write_md(stdout, &v);
	free(rows);
	return v.nreg ? PG_EXIT_FAIL : PG_EXIT_OK;
}

int pg_cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (o.release)
		return compare_fleet(&o);
	char err[512];
	struct pg_store *store = NULL;
	struct pg_rrun base, new;
	if (pg_select_run(argv[optind], o.db, &store, &base, err, sizeof(err)) < 0) {
		pg_store_close(store);
		return pg_usage_error("compare: BASE: %s", err);
	}
	if (pg_select_run(argv[optind + 1], o.db, &store, &new, err, sizeof(err)) < 0) {
		pg_rrun_free(&base);
		pg_store_close(store);
		return pg_usage_error("compare: NEW: %s", err);
	}
	pg_store_close(store);
	rc = compare_runs(&base, &new, &o);
	pg_rrun_free(&base);
	pg_rrun_free(&new);
	return rc;
}
