/*
 * perfguide import: adds results files brought back from boards to the
 * store, or (--table) a published guide's tables as runs. Every file is
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
#include "core/text.h"
#include "report/select.h"
#include "report/table_import.h"

static const char help[] =
	"usage: perfguide import FILE.jsonl... [--db FILE]\n"
	"       perfguide import --table TABLE.csv... [--keys N] [--map MAP.csv]... [--release V]\n"
	"                        [--label K=V]... [--section TITLE] [--date YYYY-MM-DD] [--db FILE]\n"
	"\n"
	"Adds results files to the results store, one transaction per file. A\n"
	"corrupt or truncated file is refused with its line number, and then\n"
	"nothing is imported. A run already in the store is not added twice.\n"
	"\n"
	"With --table, the files are a published guide's tables as CSV: a header\n"
	"naming the boards (\"am62x\" or \"am62x (MB/s)\"), a row per figure named by\n"
	"its first N columns (\"bw_mem-fcp-8mb (MB/s)\"; \"aes-128-cbc,1024\"), cells\n"
	"\"V\" or \"M (min X, max Y)\". Each board becomes a run. A row is the result\n"
	"of the benchmark whose label is its name (perfguide's benchmarks label\n"
	"their results with the seed guide's row names), so the table's figures\n"
	"and perfguide's share the guide's rows; a map file names others.\n"
	"\n"
	"  --db FILE         the store (default: $XDG_DATA_HOME/perfguide/results.db)\n"
	"  --table           the files are tables (CSV), not results files\n"
	"  --keys N          columns that name a row (default 1)\n"
	"  --map FILE        lines ROW,BENCHMARK,NAME=VALUE ...,METRIC for rows no\n"
	"                    label names (parameters not given take their defaults)\n"
	"  --release V       the runs' label release=V (--label K=V: any label)\n"
	"  --section TITLE   the guide's section of rows nothing maps (default: the\n"
	"                    table's file name)\n"
	"  --date DATE       when the runs say they were made (default: the file's time)\n"
	"\n"
	"Exit status: 0 imported, 1 the store failed, 2 bad input (nothing imported).\n";

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
	if (!how || s->ops->add_runs(s, runs, n, how, err, sizeof(err)) < 0) {
		fputs("perfguide: import: ", stderr);
		pg_term_puts(stderr, path);
		fputs(": ", stderr);
		pg_term_puts(stderr, how ? err : "out of memory");
		fputs(" (nothing of it was added)\n", stderr);
		free(how);
		return -1;
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
/* The runs of one file: a results file, or with --table a table. */
static int read_file(const char *path, const struct table_opts *t, const struct pg_table_map *map,
		     struct pg_rrun **runs, int *n, char *err, size_t len)
{
	if (!t->table)
		return pg_rrun_read_all(path, runs, n, err, len);
	struct pg_table_stats st;
	if (pg_table_import(path, map, &t->imp, runs, n, &st, err, len) < 0)
		return -1;
	fprintf(stderr, "perfguide: import: ");
	pg_term_puts(stderr, path);
	fprintf(stderr, ": %d rows onto perfguide's benchmarks, %d rows of its own, %d boards\n", st.matched,
		st.unmatched, st.boards);
	return 0;
}

/* The map of row names for --table: the benchmarks' labels, the map files. */
static int table_map(struct table_opts *t, struct pg_table_map *map, char *err, size_t len)
{
	char *labels = json_object_size(t->labels) ? json_dumps(t->labels, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	t->imp.labels = labels;
	if (!t->table)
		return 0;
	if (pg_table_map_init(map) < 0) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (int i = 0; i < t->nmaps; i++)
		if (pg_table_map_read(t->maps[i], map, err, len) < 0)
			return -1;
	return 0;
}

/* Every file read and checked first, then each in one transaction. */
static int import_files(const char *db, char **paths, int nfiles, struct table_opts *t, struct pg_table_map *map)
{
	char err[1024];
	struct pg_file {
		struct pg_rrun *runs;
		int n;
	} *files = calloc((size_t)nfiles, sizeof(*files));
	if (!files)
		return pg_usage_error("import: out of memory");
	int rc = PG_EXIT_OK, nread = 0;
	if (table_map(t, map, err, sizeof(err)) < 0) {
		free(files);
		return pg_usage_error("import: %s", err);
	}
	for (; nread < nfiles; nread++) {
		if (read_file(paths[nread], t, map, &files[nread].runs, &files[nread].n, err, sizeof(err)) < 0) {
			rc = pg_usage_error("import: %s", err);
			goto out;
		}
	}
	struct pg_store *s = pg_select_store(db, 1, err, sizeof(err));
	if (!s) {
		rc = pg_usage_error("import: %s", err);
		goto out;
	}
	for (int i = 0; i < nfiles; i++)
		if (add_file(s, paths[i], files[i].runs, files[i].n) < 0)
			rc = PG_EXIT_FAIL;
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

int pg_cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "table", no_argument, NULL, 't' },
		{ "keys", required_argument, NULL, 'k' },
		{ "map", required_argument, NULL, 'm' },
		{ "release", required_argument, NULL, 'R' },
		{ "label", required_argument, NULL, 'L' },
		{ "section", required_argument, NULL, 's' },
		{ "date", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL;
	struct table_opts t = { .imp = { .keys = 1 }, .labels = json_object() };
	struct pg_table_map map = { 0 };
	int c, rc = -1;
	opterr = 0;
	while (rc < 0 && (c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'h': fputs(help, stdout); rc = PG_EXIT_OK; break;
		case 't': case 'k': case 'm': case 'R': case 'L': case 's': case 'D':
			rc = table_option(c, optarg, &t);
			break;
		default: rc = pg_usage_error("import: unknown option '%s' (see 'perfguide import --help')",
					     argv[optind - 1]);
		}
	}
	int nfiles = argc - optind;
	if (rc < 0 && nfiles < 1)
		rc = pg_usage_error("import: give one or more results files (FILE.jsonl)");
	if (rc < 0 && !t.table && (t.nmaps || json_object_size(t.labels) || t.imp.section || t.imp.date))
		rc = pg_usage_error("import: --map, --release, --label, --section and --date are for --table");
	if (rc < 0)
		rc = import_files(db, argv + optind, nfiles, &t, &map);
	pg_table_map_free(&map);
	free((char *)t.imp.labels);
	json_decref(t.labels);
	return rc;
}
