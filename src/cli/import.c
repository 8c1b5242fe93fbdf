/*
 * perfguide import: adds results files brought back from boards to the
 * store. Every file is read and checked first; if any is corrupt nothing is
 * imported. Each file then goes in as one transaction, and a run the store
 * already holds is left as it is.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help.h"
#include "core/text.h"
#include "report/select.h"

static const struct pg_opt import_opts[] = {
	{ "db", 0, 'd', "FILE|URL", "the results store: a FILE (SQLite) or a postgresql:// URL (a store a board farm shares); "
	  "default: $PERFGUIDE_DB, else $XDG_DATA_HOME/perfguide/results.db" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_import = {
	.name = "import",
	.summary = "add results files to the results store",
	.usage = "FILE.jsonl... [--db FILE|URL]",
	.intro = "Adds results files to the results store, one transaction per file. A corrupt or truncated "
		 "file is refused with its line number, and then nothing is imported. A run already in the "
		 "store is not added twice.",
	.opts = import_opts,
	.exit_status = "0 imported, 1 the store failed, 2 bad input (nothing imported).",
	.examples = "  perfguide import perfguide-results/*.jsonl",
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

int pg_cmd_import(int argc, char **argv)
{
	struct pg_getopt g;
	const char *db = NULL;
	int c;
	pg_getopt_tables(&pg_doc_import, &g);
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'h': pg_help_print(stdout, &pg_doc_import); return PG_EXIT_OK;
		default: return pg_usage_error("import: unknown option '%s' (see 'perfguide import --help')",
					       argv[optind - 1]);
		}
	}
	int nfiles = argc - optind;
	if (nfiles < 1)
		return pg_usage_error("import: give one or more results files (FILE.jsonl)");

	char err[512];
	struct pg_file {
		struct pg_rrun *runs;
		int n;
	} *files = calloc((size_t)nfiles, sizeof(*files));
	if (!files)
		return pg_usage_error("import: out of memory");
	int rc = PG_EXIT_OK, nread = 0;
	for (; nread < nfiles; nread++) {
		if (pg_rrun_read_all(argv[optind + nread], &files[nread].runs, &files[nread].n, err, sizeof(err)) < 0) {
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
		if (add_file(s, argv[optind + i], files[i].runs, files[i].n) < 0)
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
