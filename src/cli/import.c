/*
 * perfguide import: adds results files brought back from boards to the
 * store, or taken out of a LAVA job's log (--from-lava-log). Every file is
 * read and checked first; if any is corrupt nothing is imported. Each file
 * then goes in as one transaction, and a run the store already holds is
 * left as it is.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help.h"
#include "lava_log.h"
#include "core/text.h"
#include "report/select.h"

enum { O_LAVA_LOG = 256 };

static const struct pg_opt import_opts[] = {
	{ "from-lava-log", 0, O_LAVA_LOG, "LOG",
	  "also the results files in this LAVA job's log (the console, or LAVA's output.yaml), which "
	  "'perfguide run --lava' wrote there; may be repeated" },
	{ "db", 0, 'd', "FILE|URL", "the results store: a FILE (SQLite) or a postgresql:// URL (a store a board farm shares); "
	  "default: $PERFGUIDE_DB, else $XDG_DATA_HOME/perfguide/results.db" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_import = {
	.name = "import",
	.summary = "add results files to the results store",
	.usage = "FILE.jsonl... [--db FILE|URL]\n--from-lava-log LOG [FILE.jsonl...] [--db FILE|URL]",
	.intro = "Adds results files to the results store, one transaction per file. A corrupt or truncated "
		 "file is refused with its line number, and then nothing is imported. A run already in the "
		 "store is not added twice.",
	.opts = import_opts,
	.exit_status = "0 imported, 1 the store failed, 2 bad input (nothing imported).",
	.examples = "  perfguide import perfguide-results/*.jsonl\n  perfguide import --from-lava-log output.yaml",
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

#define MAX_LOGS 64

/* What to import: the files named, then those taken out of each log. */
struct inputs {
	const char **paths, **shown;	/* shown: what messages call it */
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
	if (!in->paths || !in->shown || !in->names)
		return pg_usage_error("import: out of memory");
	for (int i = 0; i < argc; i++, in->n++)
		in->paths[in->n] = in->shown[in->n] = argv[i];
	for (int l = 0; l < in->nlogs; l++)
		for (int k = 0; k < in->nlava[l]; k++, in->n++) {
			snprintf(in->names[in->n], sizeof(in->names[0]), "%.300s (%.250s)", logs[l], in->lava[l][k].name);
			in->paths[in->n] = in->lava[l][k].path;
			in->shown[in->n] = in->names[in->n];
		}
	return -1;
}

static void free_inputs(struct inputs *in)
{
	for (int l = 0; l < in->nlogs; l++)
		pg_lava_files_free(in->lava[l], in->nlava[l]);
	free(in->paths);
	free(in->shown);
	free(in->names);
}

/* Reads every input, then adds them to the store; nothing when one is bad. */
static int import_all(const struct inputs *in, const char *db)
{
	char err[512];
	struct pg_file {
		struct pg_rrun *runs;
		int n;
	} *files = calloc((size_t)in->n + 1, sizeof(*files));
	if (!files)
		return pg_usage_error("import: out of memory");
	int rc = PG_EXIT_OK, nread = 0;
	for (; nread < in->n; nread++) {
		if (pg_rrun_read_all(in->paths[nread], &files[nread].runs, &files[nread].n, err, sizeof(err)) < 0) {
			rc = pg_usage_error("import: %s%s%s", in->paths[nread] == in->shown[nread] ? "" : in->shown[nread],
					    in->paths[nread] == in->shown[nread] ? "" : ": ", err);
			goto out;
		}
	}
	struct pg_store *s = pg_select_store(db, 1, err, sizeof(err));
	if (!s) {
		rc = pg_usage_error("import: %s", err);
		goto out;
	}
	for (int i = 0; i < in->n; i++)
		if (add_file(s, in->shown[i], files[i].runs, files[i].n) < 0)
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
	struct pg_getopt g;
	const char *db = NULL, *logs[MAX_LOGS];
	int c, nlogs = 0;
	pg_getopt_tables(&pg_doc_import, &g);
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case O_LAVA_LOG:
			if (nlogs == MAX_LOGS)
				return pg_usage_error("import: at most %d --from-lava-log options", MAX_LOGS);
			logs[nlogs++] = optarg;
			break;
		case 'h': pg_help_print(stdout, &pg_doc_import); return PG_EXIT_OK;
		default: return pg_usage_error("import: unknown option '%s' (see 'perfguide import --help')",
					       argv[optind - 1]);
		}
	}
	if (argc - optind < 1 && nlogs == 0)
		return pg_usage_error("import: give one or more results files (FILE.jsonl) or --from-lava-log LOG");
	static struct inputs in;
	memset(&in, 0, sizeof(in));
	int rc = add_inputs(&in, argc - optind, argv + optind, logs, nlogs);
	if (rc < 0)
		rc = import_all(&in, db);
	free_inputs(&in);
	return rc;
}
