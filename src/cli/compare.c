/*
 * perfguide compare BASE NEW: what changed between two runs, with a verdict
 * per result, and an exit status a CI or a board farm can gate on.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "report/select.h"

static const char help[] =
	"usage: perfguide compare BASE NEW [options]\n"
	"       perfguide compare --baseline-release A --release B [--board B]... [options]\n"
	"\n"
	"Compares every benchmark and parameter set that both runs have: both\n"
	"medians, the change in percent, and a verdict. A change is 'improved' or\n"
	"'regressed' only when it is larger than the threshold and the samples\n"
	"differ significantly (Mann-Whitney U test, p < 0.05); otherwise it is\n"
	"'within noise'. BASE and NEW are run ids, results files, or board names\n"
	"(that board's latest run).\n"
	"\n"
	"Across a fleet: for every board in the store with a run labelled\n"
	"release=A and one labelled release=B (run --label release=B), its latest\n"
	"of each, compared; a verdict per board and benchmark, and the regressions\n"
	"of all boards in one table, largest first.\n"
	"\n"
	"  --baseline-release A   the release compared against\n"
	"  --release B            the release under test\n"
	"  --board NAME           only this board (repeat for more)\n"
	"  --threshold PCT    smallest change that counts (default 5)\n"
	"  --format md|json   a table (default) or JSON\n"
	"  --db FILE          the store (default: $XDG_DATA_HOME/perfguide/results.db)\n"
	"\n"
	"Exit status: 0 nothing regressed, 1 something regressed, 2 bad input.\n";

/* What compare found between two runs, for printing. */
struct verdicts {
	const struct pg_rrun *base, *new;
	double threshold;
	const struct pg_cmp_row *rows;
	int n, nreg, nimp;
};

json_t *compare_row_json(const struct pg_cmp_row *r)
{
	json_t *j = json_object();
	json_object_set_new(j, "bench", json_string(r->base->bench));
	json_object_set_new(j, "params", json_loads(r->base->params, 0, NULL));
	json_object_set_new(j, "metric", json_string(r->base->metric));
	json_object_set_new(j, "unit", json_string(r->base->unit));
	json_object_set_new(j, "better", json_string(pg_better_name(r->base->higher)));
	json_object_set_new(j, "base_median", json_real(r->base->median));
	json_object_set_new(j, "new_median", json_real(r->new->median));
	json_object_set_new(j, "change_pct", isfinite(r->change_pct) ? json_real(r->change_pct) : json_null());
	json_object_set_new(j, "p", json_real(r->p));
	json_object_set_new(j, "verdict", json_string(pg_verdict_name(r->verdict)));
	return j;
}

void compare_row_name(const struct pg_cmp_row *r, char *buf, size_t len)
{
	char params[200];
	pg_params_display(r->base->bench, r->base->params, params, sizeof(params));
	if (r->base->label && r->base->label[0])
		snprintf(buf, len, "%s (%s)", r->base->label, r->base->unit);
	else
		snprintf(buf, len, "%s %s %s (%s)", r->base->bench, params, r->base->metric, r->base->unit);
}

static void print_json(const struct verdicts *v)
{
	json_t *o = json_object(), *a = json_array();
	json_object_set_new(o, "base", json_string(v->base->id));
	json_object_set_new(o, "new", json_string(v->new->id));
	json_object_set_new(o, "threshold_pct", json_real(v->threshold));
	json_object_set_new(o, "alpha", json_real(PG_CMP_ALPHA));
	for (int i = 0; i < v->n; i++)
		json_array_append_new(a, compare_row_json(&v->rows[i]));
	json_object_set_new(o, "results", a);
	json_object_set_new(o, "regressed", json_integer(v->nreg));
	json_object_set_new(o, "improved", json_integer(v->nimp));
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(o);
}

static void print_md(const struct verdicts *v)
{
	printf("BASE %s (%s)  NEW %s (%s)  threshold %g%%, Mann-Whitney p < %g\n\n", v->base->id, v->base->board,
	       v->new->id, v->new->board, v->threshold, PG_CMP_ALPHA);
	printf("| Benchmark | Base | New | Change | p | Verdict |\n|---|---|---|---|---|---|\n");
	for (int i = 0; i < v->n; i++) {
		const struct pg_cmp_row *r = &v->rows[i];
		char name[420];
		compare_row_name(r, name, sizeof(name));
		printf("| %s | %.2f | %.2f | %+.1f%% | %.3f | %s |\n", name, r->base->median,
		       r->new->median, r->change_pct, r->p, pg_verdict_name(r->verdict));
	}
	printf("\n%d compared: %d regressed, %d improved, %d within noise\n", v->n, v->nreg, v->nimp,
	       v->n - v->nreg - v->nimp);
}

/* -1 to go on, else the exit status. */
static int parse_opts(int argc, char **argv, struct compare_opts *o)
{
	static const struct option opts[] = {
		{ "threshold", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		{ "db", required_argument, NULL, 'd' },
		{ "baseline-release", required_argument, NULL, 'B' },
		{ "release", required_argument, NULL, 'R' },
		{ "board", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	*o = (struct compare_opts){ .threshold = 5 };
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
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
		case 'h': fputs(help, stdout); return PG_EXIT_OK;
		default:
			if (optopt)
				return pg_usage_error("compare: option '-%c' needs a value or is unknown", optopt);
			return pg_usage_error("compare: unknown option '%s' (see 'perfguide compare --help')",
					      argv[optind - 1]);
		}
	}
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
	struct verdicts v = { .base = base, .new = new, .threshold = o->threshold, .rows = rows, .n = n };
	for (int i = 0; i < n; i++) {
		v.nreg += rows[i].verdict == PG_REGRESSED;
		v.nimp += rows[i].verdict == PG_IMPROVED;
	}
	if (o->json)
		print_json(&v);
	else
		print_md(&v);
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
