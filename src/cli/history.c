/* SPDX-License-Identifier: MIT */
/*
 * perfguide history: a board's figures run by run from the store, and
 * where each row's level changed (src/history/).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help.h"
#include "guide/trend.h"
#include "history/history.h"
#include "output.h"
#include "store/select.h"

#define MAX_SEL 256

static const struct pg_opt history_opts[] = {
	{ "board", 0, 'b', "NAME", "the board whose runs make the history (required)" },
	{ "label", 0, 'L', "KEY=VALUE", "only runs with this label (run --label; repeat: all of them)" },
	{ "last", 0, 'n', "N", "the latest N runs (default 200)" },
	{ "format", 0, 'f', "md|json|svg|html",
	  "md: the change points, the runs and every figure run by run; json: the same; svg: the charts; html: "
	  "the tables and the charts (default: the -o file's extension, else md)" },
	{ NULL, 'o', 'o', "FILE",
	  "write to FILE (default: standard output; -: the same): a file is replaced once complete, a "
	  "character device or a FIFO is written through" },
	{ "db", 0, 'd', "FILE|URL",
	  "the results store: a FILE (SQLite) or a postgresql:// URL; default: $PERFGUIDE_DB, else "
	  "$XDG_DATA_HOME/perfguide/results.db" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_history = {
	.name = "history",
	.summary = "a board's figures run by run, with the change points found",
	.usage = "[SELECTOR...] --board NAME [options]",
	.intro = "Reads every run of the board in the store, oldest first, and per row (benchmark, parameters, "
		 "metric) the median of each run; then finds where a row's level changed: the change points of "
		 "E-divisive means (Matteson and James 2014) with a permutation test, as MongoDB's and Apache "
		 "Otava's detectors used it: significance 0.01, at most 199 permutations, segments of 3 runs or "
		 "more, a fixed seed, so the same history gives the same answer (docs/methodology.md). A change "
		 "point is the first run of the new level; it needs 3 runs on each side, so a change in the "
		 "latest 2 runs is not one yet (compare judges a new run). SELECTOR is a benchmark id, a glob or "
		 "a group (mem); without one, every row.",
	.opts = history_opts,
	.after = "Only results with a figure (status ok) are points; a run without one leaves a gap. Noisy and "
		 "disturbed figures are points, marked (n) and (d) in the tables.",
	.exit_status = "0 written, 1 writing failed, 2 bad input (nothing written).",
	.examples = "  perfguide history --board am62x-sk\n  perfguide history 'mem.bw.*' --board am62x-sk -o mem.html\n"
		    "  perfguide history --board am62x-sk --label lab=x --format json",
};

typedef int (*writer_fn)(const struct pg_history *h, FILE *out);

struct history_opts {
	const char *board, *db, *outpath;
	const char *labels[MAX_SEL];
	int nlabels, last, format_given;
	writer_fn write;
};

static int write_svg(const struct pg_history *h, FILE *out)
{
	return pg_history_svg(h, out, 0);
}

/* The format of a --format name or an -o file's extension (htm, txt and
 * markdown only as extensions). */
static int format_of(const char *name, int ext, writer_fn *f)
{
	static const struct {
		const char *name;
		writer_fn f;
		int ext_only;
	} names[] = { { "md", pg_history_md, 0 }, { "json", pg_history_json, 0 }, { "svg", write_svg, 0 },
		      { "html", pg_history_html, 0 }, { "htm", pg_history_html, 1 }, { "txt", pg_history_md, 1 },
		      { "markdown", pg_history_md, 1 } };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i].name) == 0 && (ext || !names[i].ext_only)) {
			*f = names[i].f;
			return 0;
		}
	return -1;
}

/* -o mem.html writes html; a name without an extension is md, one no
 * format has (mem.pdf) is refused: the file's name would lie. */
static int format_of_path(const char *path, writer_fn *f)
{
	const char *base = strrchr(path, '/');
	const char *dot = strrchr(base ? base + 1 : path, '.');
	*f = pg_history_md;
	if (!dot || dot == (base ? base + 1 : path) || strcmp(path, "-") == 0)
		return 0;
	return format_of(dot + 1, 1, f);
}

static int option(int c, const char *arg, struct history_opts *o)
{
	char *end;
	switch (c) {
	case 'b': o->board = arg; break;
	case 'd': o->db = arg; break;
	case 'o': o->outpath = arg; break;
	case 'L':
		if (o->nlabels == MAX_SEL)
			return pg_usage_error("history: at most %d --label options", MAX_SEL);
		if (!strchr(arg, '=') || arg[0] == '=' || !strchr(arg, '=')[1])
			return pg_usage_error("history: --label '%s': use KEY=VALUE (release=09.02)", arg);
		o->labels[o->nlabels++] = arg;
		break;
	case 'n':
		errno = 0;
		o->last = (int)strtol(arg, &end, 10);
		if (end == arg || *end || errno || o->last < 1 || o->last > 100000)
			return pg_usage_error("history: --last '%s': a number of runs, 1 or more", arg);
		break;
	case 'f':
		o->format_given = 1;
		if (format_of(arg, 0, &o->write) < 0)
			return pg_usage_error("history: --format '%s': use md, json, svg or html", arg);
		break;
	}
	return -1;
}

static int parse_opts(int argc, char **argv, struct history_opts *o)
{
	struct pg_getopt g;
	int c;
	memset(o, 0, sizeof(*o));
	o->write = pg_history_md;
	pg_getopt_tables(&pg_doc_history, &g);
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		if (c == 'h') {
			pg_help_print(stdout, &pg_doc_history);
			return PG_EXIT_OK;
		}
		if (c == '?' || c == ':') {
			if (optopt)
				return pg_usage_error("history: option '-%c' needs a value or is unknown", optopt);
			return pg_usage_error("history: unknown option '%s' (see 'perfguide history --help')",
					      argv[optind - 1]);
		}
		int rc = option(c, optarg, o);
		if (rc >= 0)
			return rc;
	}
	if (!o->board)
		return pg_usage_error("history: --board NAME is required (the boards: 'perfguide runs')");
	if (!o->format_given && o->outpath && format_of_path(o->outpath, &o->write) < 0)
		return pg_usage_error("history: -o %s: no format has that extension (md, json, svg or html; or give "
				      "--format)", o->outpath);
	return -1;
}

/* Into a temporary file first, so a failed write leaves no half file. */
static int write_history(const struct pg_history *h, const struct history_opts *o)
{
	struct pg_output out = { .f = stdout };
	int rc = o->outpath ? pg_output_open("history", o->outpath, &out) : -1;
	if (rc >= 0)
		return rc;
	int wrc = o->write(h, out.f);
	if (fflush(out.f) != 0 || ferror(out.f))
		wrc = -1;
	if (o->outpath)
		wrc = pg_output_close("history", &out, wrc, o->outpath);
	if (wrc == -2)
		return PG_EXIT_FAIL;
	if (wrc < 0) {
		if (o->outpath && out.f != stdout)
			fprintf(stderr, "perfguide: history: writing %s: %s\n", o->outpath, strerror(errno));
		else
			fprintf(stderr, "perfguide: history: writing failed\n");
		return PG_EXIT_FAIL;
	}
	if (o->outpath && out.f != stdout)
		fprintf(stderr, "perfguide: wrote history in %s\n", o->outpath);
	return PG_EXIT_OK;
}

int pg_cmd_history(int argc, char **argv)
{
	struct history_opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc >= 0)
		return rc;
	char err[2048];
	struct pg_store *store = pg_select_store(o.db, 0, err, sizeof(err));
	if (!store)
		return pg_usage_error("history: %s", err);
	struct pg_hist_query q = { .board = o.board, .labels = o.labels, .nlabels = o.nlabels,
				   .selectors = (const char *const *)argv + optind, .nselectors = argc - optind,
				   .max_runs = o.last };
	struct pg_history h;
	if (pg_history_load(store, &q, &h, err, sizeof(err)) < 0)
		rc = pg_usage_error("history: %s", err);
	else
		rc = write_history(&h, &o);
	pg_history_free(&h);
	pg_store_close(store);
	return rc;
}
