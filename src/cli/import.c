/* SPDX-License-Identifier: MIT */
/*
 * perfguide import: adds results files brought back from boards to the
 * store, taken out of a LAVA job's log (--from-lava-log), or (--table) a
 * published guide's tables as runs. Every file is
 * read and checked first; if any is corrupt nothing is imported. Each file
 * then goes in as one transaction, and a run the store already holds is
 * left as it is.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "help.h"
#include "lava_log.h"
#include "core/text.h"
#include "store/select.h"
#include "runs/table_import.h"
#include "core/err.h"

enum { O_LAVA_LOG = 256 };

static const struct pg_opt import_opts[] = {
	{ "db", 0, 'd', "FILE|URL",
	  "the results store: a FILE (SQLite) or a postgresql:// URL (a store a board farm shares); "
	  "default: $PERFGUIDE_DB, else $XDG_DATA_HOME/perfguide/results.db" },
	{ "from-lava-log", 0, O_LAVA_LOG, "LOG",
	  "also the results files in this LAVA job's log (the console, or LAVA's output.yaml), which "
	  "'perfguide run --lava' wrote there; may be repeated" },
	{ "table", 0, 't', NULL, "the files are tables (CSV), not results files" },
	{ "keys", 0, 'k', "N", "columns that name a row (default 1)" },
	{ "map", 0, 'm', "FILE",
	  "lines ROW,BENCHMARK,NAME=VALUE ...,METRIC for rows no label names (parameters not given take "
	  "their defaults)" },
	{ "release", 0, 'R', "V", "the runs' label release=V (--label K=V: any label)" },
	{ "label", 0, 'L', "K=V", "a label of the runs (--table)" },
	{ "section", 0, 's', "TITLE",
	  "the guide's section of rows nothing maps (default: the table's file name)" },
	{ "date", 0, 'D', "DATE", "when the runs say they were made, YYYY-MM-DD (default: the file's time)" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_import = {
	.name = "import",
	.summary = "add results files (or a guide's tables) to the results store",
	.usage = "FILE.jsonl... [--db FILE|URL]\n--from-lava-log LOG [FILE.jsonl...] [--db FILE|URL]\n"
		 "--table TABLE.csv... [--keys N] [--map MAP.csv]... [--release V] [--label K=V]... "
		 "[--section TITLE] [--date YYYY-MM-DD] [--db FILE|URL]",
	.intro = "Adds results files to the results store, one transaction per file. A corrupt or truncated "
		 "file is refused with its line number, and then nothing is imported. A run already in the "
		 "store is not added twice.\n\n"
		 "With --from-lava-log, also the results files a LAVA job's log holds: 'perfguide run --lava' "
		 "writes each there, base64 between marker lines (lava/README.md); one cut short is refused.\n\n"
		 "With --table, the files are a published guide's tables as CSV: a header naming the boards "
		 "(\"am62x\" or \"am62x (MB/s)\"), a row per figure named by its first N columns "
		 "(\"bw_mem-fcp-8mb (MB/s)\"; \"aes-128-cbc,1024\"), cells \"V\" or \"M (min X, max Y)\". Each "
		 "board becomes a run. A row is the result of the benchmark whose label is its name "
		 "(perfguide's benchmarks label their results with the seed guide's row names), so the "
		 "table's figures and perfguide's share the guide's rows; a map file names others.",
	.opts = import_opts,
	.exit_status = "0 imported, 1 the store failed, 2 bad input (nothing imported).",
	.examples = "  perfguide import perfguide-results/*.jsonl\n  perfguide import --from-lava-log output.yaml\n"
		    "  perfguide import --table lmbench.csv --release 09.02",
};

/* What --table takes. */
struct table_opts {
	int table;
	struct pg_table_import imp;
	const char *maps[32];
	int nmaps;
	json_t *labels;
};

/* One file's runs in one transaction, and a line per run. */
static int add_file(struct pg_store *s, const char *path, const struct pg_rrun *runs, int n)
{
	char err[512];
	int *how = calloc((size_t)n + 1, sizeof(int));
	int rc = how ? s->ops->add_runs(s, runs, n, how, err, sizeof(err)) : -1;
	if (rc < 0) {
		fputs("perfguide: import: ", stderr);
		pg_term_puts(stderr, path);
		fputs(": ", stderr);
		pg_term_puts(stderr, how ? err : "out of memory");
		fputs(" (nothing of it was added to ", stderr);
		pg_term_puts(stderr, s->path);
		fputs(")\n", stderr);
		free(how);
		return rc;
	}
	for (int k = 0; k < n; k++) {
		const struct pg_rrun *r = &runs[k];
		pg_term_puts(stdout, path);
		fputs(": run ", stdout);
		pg_term_puts(stdout, r->id);
		fputs(" (", stdout);
		pg_term_puts(stdout, r->board);
		printf(", %d results) %s\n", r->nres,
		       how[k] == PG_ADD_PRESENT ? "is already in the store"
		       : how[k] == PG_ADD_REPLACED ? "replaced its incomplete copy" : "imported");
	}
	free(how);
	return 0;
}

/* The options of --table: -1 taken, else an exit status. */
static int table_option(int c, const char *arg, struct table_opts *t)
{
	char *end;
	struct tm tm = { 0 };
	const char *eq = arg ? strchr(arg, '=') : NULL;
	switch (c) {
	case 't': t->table = 1; return -1;
	case 'k':
		t->imp.keys = (int)strtol(arg, &end, 10);
		if (end == arg || *end || t->imp.keys < 1 || t->imp.keys > 8)
			return pg_usage_error("import: --keys '%s': the number of columns that name a row (1 to 8)", arg);
		return -1;
	case 'm':
		if (t->nmaps == 32)
			return pg_usage_error("import: at most 32 --map files");
		t->maps[t->nmaps++] = arg;
		return -1;
	case 'R':
		json_object_set_new(t->labels, "release", json_string(arg));
		return -1;
	case 'L':
		if (!eq || eq == arg || !eq[1] || pg_text_has_control(arg))
			return pg_usage_error("import: --label '%s': use KEY=VALUE (release=09.02)", arg);
		{
			char key[128];
			snprintf(key, sizeof(key), "%.*s", (int)(eq - arg), arg);
			json_object_set_new(t->labels, key, json_string(eq + 1));
		}
		return -1;
	case 's': t->imp.section = arg; return -1;
	case 'D':
		end = strptime(arg, "%Y-%m-%d", &tm);
		if (!end || *end)
			return pg_usage_error("import: --date '%s': use YYYY-MM-DD", arg);
		t->imp.date = timegm(&tm);
		return -1;
	}
	return -1;
}
/* A line per row of a table that maps onto no benchmark of perfguide's:
 * it is kept as a row of its own, and the line says why; said once the
 * whole table was read (a table refused says only why). */
struct unmapped {
	const char *path;
	FILE *out;
};

static void say_unmapped(void *arg, int line, const char *row, const char *why)
{
	struct unmapped *u = arg;
	if (!u->out)
		return;
	fputs("perfguide: import: ", u->out);
	pg_term_puts(u->out, u->path);
	fprintf(u->out, ": line %d: '", line);
	pg_term_puts(u->out, row);
	fputs("' is a row of its own: ", u->out);
	pg_term_puts(u->out, why);
	fputc('\n', u->out);
}

/* The runs of one file: a results file (path, or a LAVA log's stream, which
 * messages and the runs' source call by the name shown), or with --table a
 * table. */
static int read_file(const char *path, FILE *stream, const char *shown, const struct table_opts *t,
		     const struct pg_table_map *map, struct pg_rrun **runs, int *n, char *err, size_t errlen)
{
	if (stream)
		return pg_rrun_read_stream(stream, shown, runs, n, err, errlen);
	if (!t->table)
		return pg_rrun_read_all(path, runs, n, err, errlen);
	struct pg_table_stats st;
	struct pg_table_import imp = t->imp;
	char *said = NULL;
	size_t len = 0;
	struct unmapped u = { path, open_memstream(&said, &len) };
	imp.unmapped = say_unmapped;
	imp.arg = &u;
	int rc = pg_table_import(path, map, &imp, runs, n, &st, err, errlen);
	if (u.out)
		fclose(u.out);
	if (rc == 0 && said)
		fputs(said, stderr);
	free(said);
	if (rc < 0)
		return -1;
	fprintf(stderr, "perfguide: import: ");
	pg_term_puts(stderr, path);
	fprintf(stderr, ": %d row%s onto perfguide's benchmarks, %d row%s of its own, %d board%s\n", st.matched,
		st.matched == 1 ? "" : "s", st.unmatched, st.unmatched == 1 ? "" : "s", st.boards, st.boards == 1 ? "" : "s");
	return 0;
}

/* The map of row names for --table: the benchmarks' labels, the map files. */
static int table_map(struct table_opts *t, struct pg_table_map *map, char *err, size_t errlen)
{
	char *labels = json_object_size(t->labels) ? json_dumps(t->labels, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	t->imp.labels = labels;
	if (!t->table)
		return 0;
	if (pg_table_map_init(map) < 0)
		return pg_err(err, errlen, "out of memory");
	for (int i = 0; i < t->nmaps; i++)
		if (pg_table_map_read(t->maps[i], map, err, errlen) < 0)
			return -1;
	return 0;
}

struct pg_file {
	struct pg_rrun *runs;
	int n;
};

/* A run of the files given and where it came from, for finding ids given
 * twice. */
struct given {
	const struct pg_rrun *r;
	int file;
};

static int by_given_id(const void *a, const void *b)
{
	const struct given *x = a, *y = b;
	int c = strcmp(x->r->id, y->r->id);
	return c ? c : x->file - y->file;
}

/* Two files giving one run id with other content (two tables of one name:
 * their runs' ids are the file's name and the board's) are refused before
 * anything is added, naming both; the same run twice is not a collision. */
static int ids_collide(const struct pg_file *files, char **shown, int nfiles, const struct table_opts *t)
{
	int total = 0, rc = -1;
	for (int i = 0; i < nfiles; i++)
		total += files[i].n;
	struct given *all = malloc(sizeof(*all) * (size_t)(total + 1));
	if (!all)
		return pg_usage_error("import: out of memory");
	total = 0;
	for (int i = 0; i < nfiles; i++)
		for (int k = 0; k < files[i].n; k++)
			all[total++] = (struct given){ &files[i].runs[k], i };
	qsort(all, (size_t)total, sizeof(*all), by_given_id);
	for (int i = 1; rc < 0 && i < total; i++) {
		char what[300];
		if (strcmp(all[i].r->id, all[i - 1].r->id) != 0 || pg_rrun_same(all[i - 1].r, all[i].r, what, sizeof(what)))
			continue;
		rc = pg_usage_error("import: %s and %s both give run %s, with other content (%s)%s", shown[all[i - 1].file],
				    shown[all[i].file], all[i].r->id, what,
				    t->table ? ": a table's runs are named by its file's name and the boards; rename one, "
					       "or give --release" : "");
	}
	free(all);
	return rc;
}

/* Every file read and checked first, then each in one transaction.
 * shown[i]: what messages call file i (a LAVA log's file: the log and its
 * name there, read from streams[i]). */
static int import_files(const char *db, char **paths, char **shown, FILE **streams, int nfiles, struct table_opts *t,
			struct pg_table_map *map)
{
	char err[1024];
	struct pg_file *files = calloc((size_t)nfiles, sizeof(*files));
	if (!files)
		return pg_usage_error("import: out of memory");
	int rc = PG_EXIT_OK, nread = 0;
	if (table_map(t, map, err, sizeof(err)) < 0) {
		free(files);
		return pg_usage_error("import: %s", err);
	}
	for (; nread < nfiles; nread++) {
		if (read_file(paths[nread], streams[nread], shown[nread], t, map, &files[nread].runs, &files[nread].n, err,
			      sizeof(err)) < 0) {
			rc = pg_usage_error("import: %s", err);
			goto out;
		}
	}
	if ((rc = ids_collide(files, shown, nfiles, t)) >= 0)
		goto out;
	rc = PG_EXIT_OK;
	struct pg_store *s = pg_select_store(db, 1, err, sizeof(err));
	if (!s) {
		rc = pg_usage_error("import: %s", err);
		goto out;
	}
	/* A store's failure is 1; another run of an id the store holds is bad
	 * input, 2 (the worse of the two when files had both). */
	for (int i = 0; i < nfiles; i++) {
		int added = add_file(s, shown[i], files[i].runs, files[i].n);
		if (added == -2)
			rc = PG_EXIT_USAGE;
		else if (added < 0 && rc == PG_EXIT_OK)
			rc = PG_EXIT_FAIL;
	}
	pg_store_close(s);
out:
	for (int i = 0; i < nread; i++) {
		for (int k = 0; k < files[i].n; k++)
			pg_rrun_free(&files[i].runs[k]);
		free(files[i].runs);
	}
	free(files);
	return rc;
}

#define MAX_LOGS 64

/* The files named, then those taken out of each LAVA log (temporary files,
 * shown as "LOG (NAME)"). */
struct inputs {
	char **paths, **shown;
	FILE **streams;
	char (*names)[600];
	int n;
	struct pg_lava_file *lava[MAX_LOGS];
	int nlava[MAX_LOGS], nlogs;
};

static int add_inputs(struct inputs *in, int argc, char **argv, const char *const *logs, int nlogs)
{
	char err[600];
	int total = argc;
	for (int i = 0; i < nlogs; i++) {
		int k = pg_lava_log_extract(logs[i], &in->lava[i], err, sizeof(err));
		if (k < 0)
			return pg_usage_error("import: --from-lava-log %s: %s", logs[i], err);
		in->nlava[in->nlogs++] = k;
		total += k;
	}
	in->paths = calloc((size_t)total + 1, sizeof(*in->paths));
	in->shown = calloc((size_t)total + 1, sizeof(*in->shown));
	in->names = calloc((size_t)total + 1, sizeof(*in->names));
	in->streams = calloc((size_t)total + 1, sizeof(*in->streams));
	if (!in->paths || !in->shown || !in->names || !in->streams)
		return pg_usage_error("import: out of memory");
	for (int i = 0; i < argc; i++, in->n++)
		in->paths[in->n] = in->shown[in->n] = argv[i];
	for (int l = 0; l < in->nlogs; l++)
		for (int k = 0; k < in->nlava[l]; k++, in->n++) {
			snprintf(in->names[in->n], sizeof(in->names[0]), "%.300s (%.250s)", logs[l], in->lava[l][k].name);
			in->paths[in->n] = in->shown[in->n] = in->names[in->n];
			in->streams[in->n] = in->lava[l][k].f;
		}
	return -1;
}

static void free_inputs(struct inputs *in)
{
	for (int l = 0; l < in->nlogs; l++)
		pg_lava_files_free(in->lava[l], in->nlava[l]);
	free(in->paths);
	free(in->streams);
	free(in->shown);
	free(in->names);
}

int pg_cmd_import(int argc, char **argv)
{
	struct pg_getopt g;
	const char *db = NULL, *logs[MAX_LOGS];
	struct table_opts t = { .imp = { .keys = 1 }, .labels = json_object() };
	struct pg_table_map map = { 0 };
	int c, rc = -1, nlogs = 0;
	pg_getopt_tables(&pg_doc_import, &g);
	opterr = 0;
	while (rc < 0 && (c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'h': pg_help_print(stdout, &pg_doc_import); rc = PG_EXIT_OK; break;
		case O_LAVA_LOG:
			if (nlogs == MAX_LOGS)
				rc = pg_usage_error("import: at most %d --from-lava-log options", MAX_LOGS);
			else
				logs[nlogs++] = optarg;
			break;
		case 't': case 'k': case 'm': case 'R': case 'L': case 's': case 'D':
			rc = table_option(c, optarg, &t);
			break;
		default: rc = pg_usage_error("import: unknown option '%s' (see 'perfguide import --help')",
					     argv[optind - 1]);
		}
	}
	int nfiles = argc - optind;
	if (rc < 0 && nfiles < 1 && nlogs == 0)
		rc = pg_usage_error("import: give one or more results files (FILE.jsonl) or --from-lava-log LOG");
	if (rc < 0 && !t.table && (t.nmaps || json_object_size(t.labels) || t.imp.section || t.imp.date))
		rc = pg_usage_error("import: --map, --release, --label, --section and --date are for --table");
	if (rc < 0 && t.table && nlogs)
		rc = pg_usage_error("import: --from-lava-log takes results files, not --table's tables");
	static struct inputs in;
	memset(&in, 0, sizeof(in));
	if (rc < 0)
		rc = add_inputs(&in, nfiles, argv + optind, logs, nlogs);
	if (rc < 0)
		rc = import_files(db, in.paths, in.shown, in.streams, in.n, &t, &map);
	free_inputs(&in);
	pg_table_map_free(&map);
	free((char *)t.imp.labels);
	json_decref(t.labels);
	return rc;
}
