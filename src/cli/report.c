/*
 * perfguide report: the performance guide from the store (or from results
 * files): one column per board, one table per section, the machine table at
 * the head; with --baseline, each board against one of them.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "help.h"
#include "report/select.h"
#include "report/writer.h"

#define MAX_SEL 256

/* One line per option: getopt, --help and perfguide-report(1) all read it. */
static const struct pg_opt report_opts[] = {
	{ "board", 0, 'b', "NAME", "this board's latest run (repeat for more boards)" },
	{ "run", 0, 'r', "ID", "this run (repeat; 'latest' is the newest run)" },
	{ "all-runs", 0, 'a', NULL,
	  "every run of each --board, merged into one column: median of the medians, min of the mins, max "
	  "of the maxes" },
	{ "baseline", 0, 'B', "BOARD",
	  "each board's ratio to BOARD per row (above 1: better), the geometric mean per section, and a "
	  "mark where the two boards' min..max overlap" },
	{ "format", 0, 'f', "md|rst|csv|json|html",
	  "the guide's format (default: the -o file's extension, else md; .txt is md, an extension no "
	  "format has is refused)" },
	{ NULL, 'o', 'o', "FILE", "write to FILE (default: standard output)" },
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
	.after = "Results files given as arguments are read directly, without the store.",
	.exit_status = "0 written, 1 writing failed, 2 bad input (nothing written).",
	.examples = "  perfguide report -o guide.html\n  perfguide report --board am62x-sk --board j721e-sk "
		    "--baseline am62x-sk\n  perfguide report run1.jsonl run2.jsonl --format rst",
};

struct report_opts {
	const char *boards[MAX_SEL], *ids[MAX_SEL];
	int nboards, nids, all;
	const char *db, *outpath, *baseline;
	const struct pg_writer *writer;
	char **files;
	int nfiles;
};

/* The runs the guide is made of, and the store they came from. */
struct selection {
	struct pg_store *store;
	struct pg_rrun *runs;
	int nruns;
	char err[1024];		/* a path of the store (512) and more */
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

static int parse_opts(int argc, char **argv, struct report_opts *o)
{
	struct pg_getopt g;
	int c, format_given = 0;
	memset(o, 0, sizeof(*o));
	o->writer = &pg_writer_md;
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
		case 'B': o->baseline = optarg; break;
		case 'f':
			format_given = 1;
			if (!(o->writer = pg_writer_find(optarg)))
				return pg_usage_error("report: --format '%s': use %s", optarg, pg_writer_names());
			break;
		case 'o': o->outpath = optarg; break;
		case 'd': o->db = optarg; break;
		case 'h': pg_help_print(stdout, &pg_doc_report); return PG_EXIT_OK;
		default:
			if (optopt)
				return pg_usage_error("report: option '-%c' needs a value or is unknown", optopt);
			return pg_usage_error("report: unknown option '%s' (see 'perfguide report --help')",
					      argv[optind - 1]);
		}
	}
	if (o->all && o->nboards == 0)
		return pg_usage_error("report: --all-runs needs one or more --board");
	if (!format_given && o->outpath && !(o->writer = writer_of_path(o->outpath)))
		return pg_usage_error("report: -o %s: no format has that extension (%s; or give --format)",
				      o->outpath, pg_writer_names());
	o->files = argv + optind;
	o->nfiles = argc - optind;
	return -1;
}

static int add_run(struct selection *sel, struct pg_rrun *r)
{
	for (int i = 0; i < sel->nruns; i++)
		if (strcmp(sel->runs[i].id, r->id) == 0) {
			pg_rrun_free(r);	/* selected twice: once is enough */
			return 0;
		}
	struct pg_rrun *p = realloc(sel->runs, sizeof(*p) * (size_t)(sel->nruns + 1));
	if (!p) {
		pg_rrun_free(r);
		snprintf(sel->err, sizeof(sel->err), "out of memory");
		return -1;
	}
	sel->runs = p;
	p[sel->nruns++] = *r;
	return 0;
}

static int open_store(struct selection *sel, const char *db)
{
	if (!sel->store)
		sel->store = pg_select_store(db, 0, sel->err, sizeof(sel->err));
	return sel->store ? 0 : -1;
}

static int add_files(struct selection *sel, char **files, int n)
{
	for (int i = 0; i < n; i++) {
		struct pg_rrun *fr;
		int nfr;
		if (pg_rrun_read_all(files[i], &fr, &nfr, sel->err, sizeof(sel->err)) < 0)
			return -1;
		int rc = 0;
		for (int k = 0; k < nfr; k++)
			if (rc == 0)
				rc = add_run(sel, &fr[k]);
			else
				pg_rrun_free(&fr[k]);
		free(fr);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int add_board(struct selection *sel, const struct report_opts *o, const char *board)
{
	char **ids;
	int n, rc = 0;
	if (open_store(sel, o->db) < 0 || pg_store_runs_of_board(sel->store, board, &ids, &n, sel->err, sizeof(sel->err)) < 0)
		return -1;
	if (n == 0) {
		snprintf(sel->err, sizeof(sel->err), "no runs of board '%s' in the store %s (see 'perfguide runs')", board,
			 sel->store->path);
		rc = -1;
	}
	for (int k = o->all ? 0 : n - 1; rc == 0 && k < n; k++) {
		struct pg_rrun r;
		int found = sel->store->ops->load_run(sel->store, ids[k], &r, sel->err, sizeof(sel->err));
		if (found == 0)
			snprintf(sel->err, sizeof(sel->err), "run vanished from the store");
		rc = found == 1 ? add_run(sel, &r) : -1;
	}
	for (int k = 0; k < n; k++)
		free(ids[k]);
	free(ids);
	return rc;
}

static int by_board(const void *a, const void *b)
{
	return strcmp(((const struct pg_rrun *)a)->board, ((const struct pg_rrun *)b)->board);
}

/* The latest run of every board, boards by name as the seed orders its columns. */
static int add_latest(struct selection *sel, const char *db)
{
	struct pg_run_summary *all;
	int n, rc = 0;
	if (open_store(sel, db) < 0 || sel->store->ops->list_runs(sel->store, &all, &n, sel->err, sizeof(sel->err)) < 0)
		return -1;
	for (int i = n - 1; rc == 0 && i >= 0; i--) {
		int later = 0;
		for (int k = i + 1; k < n; k++)
			later |= strcmp(all[k].board, all[i].board) == 0;
		if (later)
			continue;
		struct pg_rrun r;
		int found = sel->store->ops->load_run(sel->store, all[i].id, &r, sel->err, sizeof(sel->err));
		if (found == 0)
			snprintf(sel->err, sizeof(sel->err), "run '%s' vanished from the store", all[i].id);
		rc = found == 1 ? add_run(sel, &r) : -1;
	}
	free(all);
	qsort(sel->runs, (size_t)sel->nruns, sizeof(*sel->runs), by_board);
	if (rc == 0 && sel->nruns == 0) {
		snprintf(sel->err, sizeof(sel->err), "the store %s holds no runs (run or import results first)",
			 sel->store->path);
		rc = -1;
	}
	return rc;
}

static int select_runs(struct selection *sel, const struct report_opts *o)
{
	if (add_files(sel, o->files, o->nfiles) < 0)
		return -1;
	for (int i = 0; i < o->nids; i++) {
		struct pg_rrun r;
		if (pg_select_run(o->ids[i], o->db, &sel->store, &r, sel->err, sizeof(sel->err)) < 0 || add_run(sel, &r) < 0)
			return -1;
	}
	for (int i = 0; i < o->nboards; i++)
		if (add_board(sel, o, o->boards[i]) < 0)
			return -1;
	if (o->nfiles == 0 && o->nids == 0 && o->nboards == 0)
		return add_latest(sel, o->db);
	return 0;
}

/* A new file beside path, only ours (mkstemp: never one planted there, never
 * through a symbolic link), with the mode a file made by fopen would have. */
static FILE *open_temp(const char *path, char *tmp, size_t len)
{
	if ((size_t)snprintf(tmp, len, "%s.XXXXXX", path) >= len) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	int fd = mkstemp(tmp);
	if (fd < 0)
		return NULL;
	mode_t mask = umask(0);
	umask(mask);
	FILE *f = fchmod(fd, 0666 & ~mask) == 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int e = errno;
		close(fd);
		unlink(tmp);
		errno = e;
	}
	return f;
}

/* Into a temporary file first, so a failed write leaves no half guide. */
static int write_guide(const struct pg_guide *g, const struct report_opts *o)
{
	char tmp[1100];
	FILE *f = stdout;
	if (o->outpath && !(f = open_temp(o->outpath, tmp, sizeof(tmp))))
		return pg_usage_error("report: cannot write %s: %s", o->outpath, strerror(errno));
	int wrc = pg_guide_write(g, o->writer, f);
	if (fflush(f) != 0 || ferror(f))
		wrc = -1;
	if (!o->outpath) {
		if (wrc < 0)
			fprintf(stderr, "perfguide: report: writing the guide failed\n");
		return wrc < 0 ? PG_EXIT_FAIL : PG_EXIT_OK;
	}
	if (fclose(f) != 0)
		wrc = -1;
	if (wrc < 0 || rename(tmp, o->outpath) < 0) {
		fprintf(stderr, "perfguide: report: writing %s: %s\n", o->outpath, strerror(errno));
		unlink(tmp);
		return PG_EXIT_FAIL;
	}
	fprintf(stderr, "perfguide: wrote guide in %s\n", o->outpath);
	return PG_EXIT_OK;
}

static int build_and_write(const struct selection *sel, const struct report_opts *o)
{
	const struct pg_rrun **ptrs = malloc(sizeof(*ptrs) * (size_t)(sel->nruns + 1));
	struct pg_guide g;
	int rc;
	if (!ptrs)
		return pg_usage_error("report: out of memory");
	for (int i = 0; i < sel->nruns; i++)
		ptrs[i] = &sel->runs[i];
	if (pg_guide_build(&g, ptrs, sel->nruns) < 0)
		rc = pg_usage_error("report: out of memory");
	else if (o->baseline && pg_guide_baseline(&g, o->baseline) < 0)
		rc = pg_usage_error("report: --baseline '%s': no such board among the runs reported", o->baseline);
	else
		rc = write_guide(&g, o);
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
	if (select_runs(&sel, &o) < 0)
		rc = pg_usage_error("report: %s", sel.err);
	else
		rc = build_and_write(&sel, &o);
	for (int i = 0; i < sel.nruns; i++)
		pg_rrun_free(&sel.runs[i]);
	free(sel.runs);
	pg_store_close(sel.store);
	return rc;
}
