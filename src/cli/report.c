/* SPDX-License-Identifier: MIT */
/*
 * perfguide report: the performance guide from the store (or from results
 * files): one column per board, one table per section, the machine table at
 * the head; with --baseline, each board against one of them.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "help.h"
#include "output.h"
#include "core/hash.h"
#include "core/text.h"
#include "history/history.h"
#include "store/select.h"
#include "guide/writer.h"

#define MAX_SEL 256

/* One line per option: getopt, --help and perfguide-report(1) all read it. */
static const struct pg_opt report_opts[] = {
	{ "board", 0, 'b', "NAME", "this board's runs (repeat for more boards)" },
	{ "run", 0, 'r', "ID", "this run (repeat; 'latest' is the newest run)" },
	{ "label", 0, 'L', "KEY=VALUE", "only runs with this label (run --label; repeat: all of them)" },
	{ "release", 0, 'R', "V", "the same as --label release=V" },
	{ "all-runs", 0, 'a', NULL,
	  "every run of each --board, merged into one column: median of the medians, min of the mins, max "
	  "of the maxes (default: per benchmark the latest run's result)" },
	{ "columns-by", 0, 'C', "board|label|run",
	  "a column per board, per board and labels (label, the default: release=09.01 beside "
	  "release=09.02) or per run" },
	{ "baseline", 0, 'B', "BOARD",
	  "each board's ratio to BOARD per row (above 1: better), the geometric mean per section, and a "
	  "mark where the two boards' min..max overlap; with --label or --release, BOARD's runs whatever "
	  "their labels when none has them (a table imported from another release)" },
	{ "title", 0, 'T', "TEXT", "the guide's title (default: Performance guide)" },
	{ "all-metrics", 0, 'M', NULL,
	  "also every metric a section's table leaves out, in a table of its own (csv and json always have "
	  "them)" },
	{ "metrics", 0, 'm', "S=LIST", "the metrics section S shows (Crypto=bandwidth: MB/s)" },
	{ "width", 0, 'W', "N", "split tables wider than N characters by boards (default 160; 0: never)" },
	{ "trend", 0, 't', NULL,
	  "beside each section's table, each board's runs in the store run by run (its latest 200, whatever "
	  "their labels), the change points 'perfguide history' finds marked: a chart per board" },
	{ "cpu-load", 0, 'U', "system|process",
	  "the CPU load columns: the system's busy share of all the CPUs, other processes' included, a cell "
	  "measured beside them marked (system, the default, as the seed's guide); or perfguide's own share "
	  "(process: its user and system time over the CPUs' time)" },
	{ "strict", 0, 'S', NULL,
	  "exit 3 when a figure is to doubt (noisy, disturbed, capped, few samples, bimodal, emulated)" },
	{ "format", 0, 'f', "md|rst|csv|json|html",
	  "the guide's format (default: the -o file's extension, else md; .txt is md, an extension no "
	  "format has is refused)" },
	{ NULL, 'o', 'o', "FILE",
	  "write to FILE (default: standard output; -: the same): a file is replaced once the guide is "
	  "complete, a character device or a FIFO is written through; md and rst also write their charts "
	  "beside a file, FILE-<section>-<n>.svg" },
	{ "db", 0, 'd', "FILE|URL",
	  "the results store: a FILE (SQLite) or a postgresql:// URL (a store a board farm shares); "
	  "default: $PERFGUIDE_DB, else $XDG_DATA_HOME/perfguide/results.db" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_report = {
	.name = "report",
	.summary = "write the performance guide (md, rst, csv, json, html)",
	.usage = "[FILE.jsonl...] [options]",
	.intro = "Writes the performance guide: a machine table, then a table per section (LMBench, "
		 "Dhrystone, ..., Ethernet, Storage, Crypto, Messaging: each benchmark says which) with one "
		 "column per board and cells 'median (min X, max Y)'. Without a selection, the latest run of "
		 "every board in the store, boards by name.",
	.opts = report_opts,
	.after = "Results files given as arguments are read directly, without the store. A figure to doubt "
		 "is marked in every format and its note says why.",
	.exit_status = "0 written, 1 writing failed, 2 bad input (nothing written), 3 written, but with "
		       "--strict a figure is to doubt.",
	.examples = "  perfguide report -o guide.html\n  perfguide report --release 09.02 --title 'AM62x SDK 09.02'\n"
		    "  perfguide report --board am62x-sk --board j721e-sk --baseline am62x-sk\n"
		    "  perfguide report run1.jsonl run2.jsonl --format rst",
};

struct report_opts {
	const char *boards[MAX_SEL], *ids[MAX_SEL];
	int nboards, nids, all;
	const char *db, *outpath, *baseline;
	const struct pg_writer *writer;
	char **files;
	int nfiles;
	/* Only runs with these labels: --label K=V, or --release V (key NULL). */
	struct {
		const char *key, *arg;
	} labels[MAX_SEL];
	int nlabels;
	int strict, trend;
	struct pg_history hist[MAX_SEL];	/* --trend: each board's */
	const struct pg_history *trends[MAX_SEL];
	int nhist;
	struct pg_guide_opts guide;
	const char *metrics[MAX_SEL];
	char charts[1100], charts_ref[300];
};

#define DEFAULT_WIDTH 160

/* The runs the guide is made of, and the store they came from. */
struct selection {
	struct pg_store *store;
	struct pg_rrun *runs;
	int nruns, cap;
	/* The runs by id (a hash table of indices into runs, -1 empty): a run
	 * selected twice is found at once, not by a scan of every run taken
	 * (a file of 30,000 runs took seconds, issue 40). */
	int *byid;
	size_t byid_cap;
	/* The --baseline board's runs from the files given that lack a label
	 * asked for: taken when it has no run with them (held below). */
	struct pg_rrun *held;
	int nheld;
	char err[2048];		/* a path of the store (512) and more */
};

/* -o guide.html writes html: the extension names a format; a name without
 * one, or a text one (.txt, .markdown), is md. Another extension no writer
 * has (guide.pdf) is NULL: written as markdown it would be a file its name
 * lies about. */
static const struct pg_writer *writer_of_path(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot = strrchr(base ? base + 1 : path, '.');
	if (!dot || dot == (base ? base + 1 : path) || strcmp(path, "-") == 0)
		return &pg_writer_md;
	const struct pg_writer *w = pg_writer_find(dot + 1);
	if (!w && strcmp(dot, ".htm") == 0)
		w = pg_writer_find("html");
	if (!w && (strcmp(dot, ".txt") == 0 || strcmp(dot, ".markdown") == 0))
		w = &pg_writer_md;
	return w;
}

/* --label KEY=VALUE and --release VALUE, kept as given. */
static int add_label(struct report_opts *o, const char *key, const char *arg)
{
	if (o->nlabels == MAX_SEL)
		return pg_usage_error("report: at most %d --label options", MAX_SEL);
	const char *eq = strchr(arg, '=');
	if (!key && (!eq || eq == arg || !eq[1]))
		return pg_usage_error("report: --label '%s': use KEY=VALUE (release=09.02)", arg);
	if (key && !arg[0])
		return pg_usage_error("report: --release needs a value (09.02)");
	o->labels[o->nlabels].key = key;
	o->labels[o->nlabels++].arg = arg;
	return -1;
}

/* The options of what the guide shows and how: -1 taken, else an exit status. */
static int guide_option(int c, const char *arg, struct report_opts *o)
{
	char *end;
	switch (c) {
	case 'L': return add_label(o, NULL, arg);
	case 'R': return add_label(o, "release", arg);
	case 'T': o->guide.title = arg; return -1;
	case 'S': o->strict = 1; return -1;
	case 'M': o->guide.all_metrics = 1; return -1;
	case 'm':
		if (!strchr(arg, '=') || arg[0] == '=')
			return pg_usage_error("report: --metrics '%s': use SECTION=METRIC,... (Crypto=bandwidth)", arg);
		if (o->guide.nmetrics == MAX_SEL)
			return pg_usage_error("report: at most %d --metrics options", MAX_SEL);
		o->metrics[o->guide.nmetrics++] = arg;
		return -1;
	case 'C':
		if (strcmp(arg, "board") == 0)
			o->guide.columns_by = PG_COLS_BOARD;
		else if (strcmp(arg, "label") == 0)
			o->guide.columns_by = PG_COLS_LABEL;
		else if (strcmp(arg, "run") == 0)
			o->guide.columns_by = PG_COLS_RUN;
		else
			return pg_usage_error("report: --columns-by '%s': use board, label or run", arg);
		return -1;
	case 'U':
		if (strcmp(arg, "system") == 0 || strcmp(arg, "process") == 0)
			o->guide.cpu_load = arg[0] == 's' ? PG_CPU_LOAD_SYSTEM : PG_CPU_LOAD_PROCESS;
		else
			return pg_usage_error("report: --cpu-load '%s': use system or process", arg);
		return -1;
	case 'W':
		o->guide.width = (int)strtol(arg, &end, 10);
		if (end == arg || *end || o->guide.width < 0 || o->guide.width > 100000)
			return pg_usage_error("report: --width '%s': a number of characters, 0 for no limit", arg);
		return -1;
	}
	return -1;
}

static int parse_opts(int argc, char **argv, struct report_opts *o)
{
	struct pg_getopt g;
	int c, format_given = 0;
	memset(o, 0, sizeof(*o));
	o->writer = &pg_writer_md;
	o->guide.columns_by = PG_COLS_LABEL;
	o->guide.merge = PG_MERGE_LATEST;
	o->guide.width = DEFAULT_WIDTH;
	o->guide.metrics = o->metrics;
	pg_getopt_tables(&pg_doc_report, &g);
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (o->nboards == MAX_SEL)
				return pg_usage_error("report: at most %d --board options", MAX_SEL);
			o->boards[o->nboards++] = optarg;
			break;
		case 'r':
			if (o->nids == MAX_SEL)
				return pg_usage_error("report: at most %d --run options", MAX_SEL);
			o->ids[o->nids++] = optarg;
			break;
		case 'a': o->all = 1; break;
		case 't': o->trend = 1; break;
		case 'B': o->baseline = optarg; break;
		case 'f':
			format_given = 1;
			if (!(o->writer = pg_writer_find(optarg)))
				return pg_usage_error("report: --format '%s': use %s", optarg, pg_writer_names());
			break;
		case 'o': o->outpath = optarg; break;
		case 'd': o->db = optarg; break;
		case 'h': pg_help_print(stdout, &pg_doc_report); return PG_EXIT_OK;
		case 'L': case 'R': case 'T': case 'S': case 'M': case 'm': case 'C': case 'W': case 'U': {
			int rc = guide_option(c, optarg, o);
			if (rc >= 0)
				return rc;
			break;
		}
		default:
			if (optopt)
				return pg_usage_error("report: option '-%c' needs a value or is unknown", optopt);
			return pg_usage_error("report: unknown option '%s' (see 'perfguide report --help')",
					      argv[optind - 1]);
		}
	}
	if (o->all && o->nboards == 0)
		return pg_usage_error("report: --all-runs needs one or more --board");
	if (o->all)
		o->guide.merge = PG_MERGE_ALL;
	if (!format_given && o->outpath && !(o->writer = writer_of_path(o->outpath)))
		return pg_usage_error("report: -o %s: no format has that extension (%s; or give --format)",
				      o->outpath, pg_writer_names());
	o->files = argv + optind;
	o->nfiles = argc - optind;
	return -1;
}

static size_t id_hash(const char *id)
{
	return (size_t)pg_hash_str(PG_HASH_INIT, id, 0);
}

/* The slot of id in the table: where it is, else the empty one it goes in. */
static size_t id_slot(const struct selection *sel, const char *id)
{
	size_t mask = sel->byid_cap - 1, i = id_hash(id) & mask;
	while (sel->byid[i] >= 0 && strcmp(sel->runs[sel->byid[i]].id, id) != 0)
		i = (i + 1) & mask;
	return i;
}

/* Room for one more run, in runs and in the table (at most half full). */
static int run_room(struct selection *sel)
{
	if (sel->nruns == sel->cap) {
		int cap = sel->cap ? sel->cap * 2 : 16;
		struct pg_rrun *p = realloc(sel->runs, sizeof(*p) * (size_t)cap);
		if (!p)
			return -1;
		sel->runs = p;
		sel->cap = cap;
	}
	if ((size_t)sel->nruns * 2 + 2 > sel->byid_cap) {
		size_t cap = sel->byid_cap ? sel->byid_cap * 2 : 64;
		int *t = malloc(sizeof(int) * cap);
		if (!t)
			return -1;
		free(sel->byid);
		sel->byid = t;
		sel->byid_cap = cap;
		memset(t, 0xff, sizeof(int) * cap);
		for (int i = 0; i < sel->nruns; i++)
			t[id_slot(sel, sel->runs[i].id)] = i;
	}
	return 0;
}

static int add_run(struct selection *sel, struct pg_rrun *r)
{
	if (run_room(sel) < 0) {
		pg_rrun_free(r);
		snprintf(sel->err, sizeof(sel->err), "out of memory");
		return -1;
	}
	size_t at = id_slot(sel, r->id);
	if (sel->byid[at] >= 0) {
		pg_rrun_free(r);	/* selected twice: once is enough */
		return 0;
	}
	sel->byid[at] = sel->nruns;
	sel->runs[sel->nruns++] = *r;
	return 0;
}

static int open_store(struct selection *sel, const char *db)
{
	if (!sel->store)
		sel->store = pg_select_store(db, 0, sel->err, sizeof(sel->err));
	return sel->store ? 0 : -1;
}

/* Label i asked for: its key and value. */
static void label_asked(const struct report_opts *o, int i, char *key, size_t len, const char **value)
{
	const char *arg = o->labels[i].arg, *eq = strchr(arg, '=');
	if (o->labels[i].key) {
		snprintf(key, len, "%s", o->labels[i].key);
		*value = arg;
	} else {
		snprintf(key, len, "%.*s", (int)(eq - arg), arg);
		*value = eq + 1;
	}
}

/* Whether a run's labels have every --label the selection asks for. */
static int labels_match(const struct report_opts *o, const char *labels)
{
	for (int i = 0; i < o->nlabels; i++) {
		char key[256];
		const char *value;
		label_asked(o, i, key, sizeof(key), &value);
		if (!pg_labels_have(labels, key, value))
			return 0;
	}
	return 1;
}

/* A run of the --baseline board without the labels asked for, kept
 * aside in case that board has no run with them. */
static int hold(struct selection *sel, struct pg_rrun *r)
{
	struct pg_rrun *p = realloc(sel->held, sizeof(*p) * (size_t)(sel->nheld + 1));
	if (!p) {
		pg_rrun_free(r);
		snprintf(sel->err, sizeof(sel->err), "out of memory");
		return -1;
	}
	sel->held = p;
	sel->held[sel->nheld++] = *r;
	return 0;
}

static int is_baseline(const struct report_opts *o, const struct pg_rrun *r)
{
	return o->baseline && r->board && strcmp(r->board, o->baseline) == 0;
}

static int add_files(struct selection *sel, const struct report_opts *o)
{
	for (int i = 0; i < o->nfiles; i++) {
		struct pg_rrun *fr;
		int nfr;
		if (pg_rrun_read_all(o->files[i], &fr, &nfr, sel->err, sizeof(sel->err)) < 0)
			return -1;
		int rc = 0;
		for (int k = 0; k < nfr; k++)
			if (rc == 0 && labels_match(o, fr[k].labels))
				rc = add_run(sel, &fr[k]);
			else if (rc == 0 && is_baseline(o, &fr[k]))
				rc = hold(sel, &fr[k]);
			else
				pg_rrun_free(&fr[k]);
		free(fr);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Boards by name, each board's runs oldest first. */
static int by_board(const void *a, const void *b)
{
	const struct pg_rrun *x = a, *y = b;
	int c = strcmp(x->board, y->board);
	if (!c)
		c = strcmp(x->started ? x->started : "", y->started ? y->started : "");
	return c ? c : strcmp(x->id, y->id);
}

/* "release=09.02, lab=x": what the selection asked for, for messages. */
static void asked(const struct report_opts *o, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int i = 0; i < o->nlabels && at < len; i++) {
		char key[256];
		const char *value;
		label_asked(o, i, key, sizeof(key), &value);
		at += (size_t)snprintf(buf + at, len - at, "%s%s=%s", i ? ", " : " with ", key, value);
	}
}

/* Every run of the store (of board, when not NULL) with the labels asked
 * for, oldest first: the guide takes per benchmark the latest result of a
 * column's runs (or with --all-runs merges them), so a run of a few
 * benchmarks never hides an earlier full one. -1 an error, -2 no run (each
 * with sel->err). */
static int add_store_runs(struct selection *sel, const struct report_opts *o, const char *board, int any_label)
{
	struct pg_run_summary *all;
	int n, rc = 0, added = 0;
	char what[300];
	if (open_store(sel, o->db) < 0 || sel->store->ops->list_runs(sel->store, &all, &n, sel->err, sizeof(sel->err)) < 0)
		return -1;
	for (int i = 0; rc == 0 && i < n; i++) {
		if ((board && strcmp(all[i].board, board) != 0) || (!any_label && !labels_match(o, all[i].labels)))
			continue;
		struct pg_rrun r;
		int found = sel->store->ops->load_run(sel->store, all[i].id, &r, sel->err, sizeof(sel->err));
		if (found == 0)
			snprintf(sel->err, sizeof(sel->err), "run '%s' vanished from the store", all[i].id);
		rc = found == 1 ? add_run(sel, &r) : -1;
		added++;
	}
	pg_run_summaries_free(all, n);
	asked(o, what, sizeof(what));
	if (rc == 0 && added == 0 && board)
		snprintf(sel->err, sizeof(sel->err), "no runs of board '%s'%s in the store %s (see 'perfguide runs')",
			 board, what, sel->store->path);
	else if (rc == 0 && added == 0)
		snprintf(sel->err, sizeof(sel->err), "the store %s holds no runs%s (%s)", sel->store->path, what,
			 what[0] ? "see 'perfguide runs'" : "run or import results first");
	return rc == 0 && added == 0 ? -2 : rc;
}

/* --release 09.02 --baseline am62x-sk, where am62x-sk is a board of
 * another release or a table imported without labels: the baseline is
 * what the release is measured against, so when none of its runs has the
 * labels asked for, all of its runs are taken (the latest result of each
 * benchmark, as for any column), and stderr says so. */
static int add_baseline_runs(struct selection *sel, const struct report_opts *o)
{
	if (!o->baseline || !o->nlabels)
		return 0;
	for (int i = 0; i < sel->nruns; i++)
		if (is_baseline(o, &sel->runs[i]))
			return 0;
	int rc = 0, before = sel->nruns;
	for (int i = 0; i < sel->nheld; i++)
		if (rc == 0)
			rc = add_run(sel, &sel->held[i]);
		else
			pg_rrun_free(&sel->held[i]);
	sel->nheld = 0;
	if (rc == 0 && sel->nruns == before && (o->nboards || (!o->nfiles && !o->nids))) {
		rc = add_store_runs(sel, o, o->baseline, 1);
		if (rc == -2)
			rc = 0;	/* no run of it anywhere: --baseline says so */
	}
	if (rc == 0 && sel->nruns > before) {
		char what[300];
		asked(o, what, sizeof(what));
		fputs("perfguide: report: --baseline ", stderr);
		pg_term_puts(stderr, o->baseline);
		fprintf(stderr, ": no run of it%s; its runs whatever their labels are the baseline\n", what);
	}
	return rc;
}

static int select_runs(struct selection *sel, const struct report_opts *o)
{
	if (add_files(sel, o) < 0)
		return -1;
	for (int i = 0; i < o->nids; i++) {
		struct pg_rrun r;
		if (pg_select_run(o->ids[i], o->db, &sel->store, &r, sel->err, sizeof(sel->err)) < 0 || add_run(sel, &r) < 0)
			return -1;
	}
	for (int i = 0; i < o->nboards; i++) {
		int rc = add_store_runs(sel, o, o->boards[i], 0);
		/* the baseline without the labels: add_baseline_runs' part */
		if (rc == -2 && o->nlabels && o->baseline && strcmp(o->boards[i], o->baseline) == 0)
			continue;
		if (rc < 0)
			return -1;
	}
	if (o->nfiles == 0 && o->nids == 0 && o->nboards == 0) {
		if (add_store_runs(sel, o, NULL, 0) < 0 || add_baseline_runs(sel, o) < 0)
			return -1;
		/* boards by name, as the seed orders its columns (no run is
		 * added after: the table of ids is left as it is) */
		qsort(sel->runs, (size_t)sel->nruns, sizeof(*sel->runs), by_board);
		return 0;
	}
	if (sel->nruns == 0) {
		char what[300];
		asked(o, what, sizeof(what));
		snprintf(sel->err, sizeof(sel->err), "no run%s in the results files given", what);
		return -1;
	}
	return add_baseline_runs(sel, o);
}

/* csv is data and keeps every byte of a field in a file; a console (a
 * terminal, a pipe, a serial line: what a LAVA job's log shows) takes
 * "<LAVA_SIGNAL..." anywhere in a line, so there a '<' is written \x3c, as
 * every other foreign text on a console is (core/text.h). */
static int csv_on_console(const struct report_opts *o, const struct pg_output *out)
{
	struct stat st;
	return o->writer == &pg_writer_csv && !out->replace &&
	       !(fstat(fileno(out->f), &st) == 0 && S_ISREG(st.st_mode));
}

static int write_console_csv(const struct pg_guide *g, FILE *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc = m ? pg_guide_write(g, &pg_writer_csv, m) : -1;
	if (m && fclose(m) != 0)
		rc = -1;
	for (size_t i = 0; rc == 0 && i < len; i++)
		if (buf[i] == '<')
			fputs("\\x3c", out);
		else
			fputc(buf[i], out);
	free(buf);
	return rc;
}

/* Into a temporary file first, so a failed write leaves no half guide. */
static int write_guide(const struct pg_guide *g, const struct report_opts *o)
{
	struct pg_output out = { .f = stdout };
	int rc = o->outpath ? pg_output_open("report", o->outpath, &out) : -1;
	if (rc >= 0)
		return rc;
	int wrc = csv_on_console(o, &out) ? write_console_csv(g, out.f) : pg_guide_write(g, o->writer, out.f);
	if (fflush(out.f) != 0 || ferror(out.f))
		wrc = -1;
	if (o->outpath)
		wrc = pg_output_close("report", &out, wrc, o->outpath);
	if (wrc == -2)
		return PG_EXIT_FAIL;
	if (wrc == PG_GUIDE_CHART_FAILED) {
		/* the chart's own message said why; errno is no longer its */
		fputs("perfguide: report: ", stderr);
		pg_term_puts(stderr, o->outpath ? o->outpath : "the guide");
		fputs(" not written: a chart beside it could not be\n", stderr);
		return PG_EXIT_FAIL;
	}
	if (wrc < 0) {
		if (o->outpath && out.f != stdout)
			fprintf(stderr, "perfguide: report: writing %s: %s\n", o->outpath, strerror(errno));
		else
			fprintf(stderr, "perfguide: report: writing the guide failed\n");
		return PG_EXIT_FAIL;
	}
	if (o->outpath && out.f != stdout)
		fprintf(stderr, "perfguide: wrote guide in %s\n", o->outpath);
	return PG_EXIT_OK;
}

/* md and rst write their charts beside the guide: FILE-<section>-<n>.svg
 * next to a regular FILE (not a device or a FIFO, nor standard output),
 * named with characters that need no escape in a link or a directive. */
static void chart_files(struct report_opts *o)
{
	struct stat st;
	const char *p = o->outpath, *name = p ? strrchr(p, '/') : NULL;
	if (!p || strcmp(p, "-") == 0 || (o->writer != &pg_writer_md && o->writer != &pg_writer_rst) ||
	    (stat(p, &st) == 0 && !S_ISREG(st.st_mode)))
		return;
	name = name ? name + 1 : p;
	const char *dot = strrchr(name, '.');
	size_t stem = dot && dot != name ? (size_t)(dot - name) : strlen(name);
	size_t k = 0;
	for (size_t i = 0; i < stem && k + 1 < sizeof(o->charts_ref); i++) {
		unsigned char c = (unsigned char)name[i];
		o->charts_ref[k++] = isalnum(c) || c == '-' || c == '_' || c == '.' ? (char)c : '_';
	}
	o->charts_ref[k] = '\0';
	if (!k)
		snprintf(o->charts_ref, sizeof(o->charts_ref), "guide");
	if ((size_t)snprintf(o->charts, sizeof(o->charts), "%.*s%s", (int)(name - p), p, o->charts_ref) >=
	    sizeof(o->charts))
		return;
	o->guide.charts = o->charts;
	o->guide.charts_ref = o->charts_ref;
}

/* When the guide is made: SOURCE_DATE_EPOCH where set (reproducible
 * builds), else now. */
static time_t guide_date(void)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long t = e ? strtoll(e, &end, 10) : -1;
	return e && end != e && !*end && t >= 0 ? (time_t)t : time(NULL);
}

/* Says what each column with several runs took from them. */
static void say_columns(const struct pg_guide *g)
{
	for (int c = 0; c < g->ncols; c++) {
		const struct pg_gcol *col = &g->cols[c];
		int used = 0;
		for (int k = 0; k < col->nruns; k++)
			used += col->used[k] > 0;
		if (col->nruns < 2)
			continue;
		if (g->opts.merge == PG_MERGE_ALL)
			fprintf(stderr, "perfguide: report: %s: %d runs merged into one column\n", col->name, col->nruns);
		else
			fprintf(stderr, "perfguide: report: %s: %d runs, the latest result of each benchmark, from %d of "
				"them (the machine table's Runs row says which; --columns-by run shows each)\n",
				col->name, col->nruns, used);
	}
}

/* --strict: a figure to doubt makes the guide's exit status 3. */
static int strict_status(const struct pg_guide *g, const struct report_opts *o, int rc)
{
	struct pg_doubts d;
	pg_guide_doubts(g, &d);
	if (!o->strict || rc != PG_EXIT_OK || !d.doubtful)
		return rc;
	fprintf(stderr, "perfguide: report: %d of %d figures are to doubt (see the guide's \"Figures to doubt\"): "
		"exit 3 (--strict)\n", d.doubtful, d.figures);
	return PG_EXIT_DOUBT;
}

/* --trend: the history of each board the guide shows, from the store; a
 * board the store has no runs of gets no chart (said). */
static int load_trends(struct selection *sel, struct report_opts *o)
{
	if (!o->trend)
		return 0;
	if (open_store(sel, o->db) < 0)
		return -1;
	for (int i = 0; i < sel->nruns && o->nhist < MAX_SEL; i++) {
		int seen = 0;
		for (int k = 0; k < o->nhist; k++)
			seen |= strcmp(o->hist[k].board, sel->runs[i].board) == 0;
		struct pg_hist_query q = { .board = sel->runs[i].board };
		char err[2048];
		if (seen)
			continue;
		if (pg_history_load(sel->store, &q, &o->hist[o->nhist], err, sizeof(err)) < 0) {
			pg_history_free(&o->hist[o->nhist]);
			fputs("perfguide: report: --trend: ", stderr);
			pg_term_puts(stderr, err);
			fputs(": no trend chart of it\n", stderr);
			continue;
		}
		o->trends[o->nhist] = &o->hist[o->nhist];
		o->nhist++;
	}
	o->guide.trends = o->trends;
	o->guide.ntrends = o->nhist;
	return 0;
}

static int build_and_write(const struct selection *sel, struct report_opts *o)
{
	const struct pg_rrun **ptrs = malloc(sizeof(*ptrs) * (size_t)(sel->nruns + 1));
	struct pg_guide g;
	char err[600];
	int rc;
	if (!ptrs)
		return pg_usage_error("report: out of memory");
	for (int i = 0; i < sel->nruns; i++)
		ptrs[i] = &sel->runs[i];
	chart_files(o);
	o->guide.date = guide_date();
	if (pg_guide_build_opts(&g, ptrs, sel->nruns, &o->guide) < 0)
		rc = pg_usage_error("report: out of memory");
	else if (pg_guide_check_metrics(&g, err, sizeof(err)) < 0)
		rc = pg_usage_error("report: %s", err);
	else if (o->baseline && pg_guide_baseline(&g, o->baseline) < 0)
		rc = pg_usage_error("report: --baseline '%s': no such board among the runs reported", o->baseline);
	else {
		say_columns(&g);
		rc = strict_status(&g, o, write_guide(&g, o));
	}
	pg_guide_free(&g);
	free(ptrs);
	return rc;
}

int pg_cmd_report(int argc, char **argv)
{
	struct report_opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc >= 0)
		return rc;
	struct selection sel = { 0 };
	if (select_runs(&sel, &o) < 0 || load_trends(&sel, &o) < 0)
		rc = pg_usage_error("report: %s", sel.err);
	else
		rc = build_and_write(&sel, &o);
	for (int i = 0; i < o.nhist; i++)
		pg_history_free(&o.hist[i]);
	for (int i = 0; i < sel.nruns; i++)
		pg_rrun_free(&sel.runs[i]);
	for (int i = 0; i < sel.nheld; i++)
		pg_rrun_free(&sel.held[i]);
	free(sel.held);
	free(sel.runs);
	free(sel.byid);
	pg_store_close(sel.store);
	return rc;
}
