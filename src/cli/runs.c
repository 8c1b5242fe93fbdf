/* SPDX-License-Identifier: MIT */
/* perfguide runs: what the results store holds. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help.h"
#include "core/record_json.h"
#include "core/text.h"
#include "guide/guide.h"
#include "store/select.h"

static const struct pg_opt runs_opts[] = {
	{ "json", 0, 'j', NULL, "one JSON array" },
	{ "db", 0, 'd', "FILE|URL", "the results store: a FILE (SQLite) or a postgresql:// URL (a store a board farm shares); "
	  "default: $PERFGUIDE_DB, else $XDG_DATA_HOME/perfguide/results.db" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_runs = {
	.name = "runs",
	.summary = "the runs the store holds",
	.usage = "[--json] [--db FILE|URL]",
	.intro = "Lists the runs in the results store, oldest first: run id, board, when it started, the "
		 "perfguide version that ran it, how many results it has, whether it completed, and its labels "
		 "(run --label release=09.02).",
	.opts = runs_opts,
	.exit_status = "0 listed, 1 the store failed, 2 bad input.",
};

/* What the store says, shown safely: control characters as escapes. */
struct shown {
	char id[4 * PG_RUN_ID_MAX + 8], board[4 * PG_BOARD_MAX + 8], started[160], version[256], status[64];
};

static void show(const struct pg_run_summary *r, struct shown *s)
{
	pg_term_text(r->id, s->id, sizeof(s->id));
	pg_term_text(r->board, s->board, sizeof(s->board));
	pg_term_text(r->started, s->started, sizeof(s->started));
	pg_term_text(r->version, s->version, sizeof(s->version));
	pg_term_text(r->status, s->status, sizeof(s->status));
}

/* The labels as "release=09.02, lab=x", shown safely; malloc'd, "" for none. */
static char *show_labels(const struct pg_run_summary *r)
{
	size_t n = r->labels ? strlen(r->labels) + 1 : 1;
	char *text = malloc(n), *shown = malloc(4 * n);
	if (text && shown) {
		pg_labels_text(r->labels, text, n);
		pg_term_text(text, shown, 4 * n);
	} else if (shown) {
		shown[0] = '\0';
	}
	free(text);
	return shown;
}

static void print_table(const struct pg_run_summary *runs, int n)
{
	struct shown s;
	int w = 6, any = 0;
	for (int i = 0; i < n; i++) {
		show(&runs[i], &s);
		if ((int)strlen(s.id) > w)
			w = (int)strlen(s.id);
		any |= runs[i].labels && runs[i].labels[0] && strcmp(runs[i].labels, "{}") != 0;
	}
	printf("%-*s  %-20s  %-24s  %-20s  %7s  %-11s%s\n", w, "RUN", "BOARD", "STARTED", "VERSION", "RESULTS", "STATUS",
	       any ? "  LABELS" : "");
	for (int i = 0; i < n; i++) {
		show(&runs[i], &s);
		char *labels = show_labels(&runs[i]);
		/* no padding after the last column of a run without labels */
		if (labels && labels[0])
			printf("%-*s  %-20s  %-24s  %-20s  %7d  %-11s  %s\n", w, s.id, s.board, s.started, s.version,
			       runs[i].nresults, s.status, labels);
		else
			printf("%-*s  %-20s  %-24s  %-20s  %7d  %s\n", w, s.id, s.board, s.started, s.version,
			       runs[i].nresults, s.status);
		free(labels);
	}
}

int pg_cmd_runs(int argc, char **argv)
{
	struct pg_getopt g;
	const char *db = NULL;
	int json = 0, c;
	pg_getopt_tables(&pg_doc_runs, &g);
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'j': json = 1; break;
		case 'h': pg_help_print(stdout, &pg_doc_runs); return PG_EXIT_OK;
		default: return pg_usage_error("runs: unknown option '%s' (see 'perfguide runs --help')",
					       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return pg_usage_error("runs: unexpected argument '%s'", argv[optind]);
	char err[512];
	struct pg_store *s = pg_select_store(db, 0, err, sizeof(err));
	if (!s)
		return pg_usage_error("runs: %s", err);
	struct pg_run_summary *runs;
	int n;
	if (s->ops->list_runs(s, &runs, &n, err, sizeof(err)) < 0) {
		pg_store_close(s);
		fputs("perfguide: runs: ", stderr);
		pg_term_puts(stderr, err);
		fputc('\n', stderr);
		return PG_EXIT_FAIL;
	}
	if (json) {
		json_t *a = json_array();
		for (int i = 0; i < n; i++) {
			json_t *o = json_object();
			json_object_set_new(o, "id", json_string(runs[i].id));
			json_object_set_new(o, "board", json_string(runs[i].board));
			json_object_set_new(o, "started", json_string(runs[i].started));
			json_object_set_new(o, "version", json_string(runs[i].version));
			json_object_set_new(o, "results", json_integer(runs[i].nresults));
			json_object_set_new(o, "status", json_string(runs[i].status));
			if (runs[i].labels)
				json_object_set_new(o, "labels", json_loads(runs[i].labels, 0, NULL));
			json_array_append_new(a, o);
		}
		pg_json_dumpf_safe(a, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(a);
	} else {
		print_table(runs, n);
	}
	pg_run_summaries_free(runs, n);
	pg_store_close(s);
	return PG_EXIT_OK;
}
