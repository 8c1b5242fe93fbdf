/* SPDX-License-Identifier: MIT */
/*
 * The runs a store gives compare: all runs with a label (release=09.02),
 * a board's earlier runs for --history, and a fleet's two releases (the
 * judging is the gate's: gate/fleet.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "compare.h"
#include "gate/fleet.h"
#include "store/select.h"
#include "core/err.h"

int compare_board_wanted(const struct compare_opts *o, const char *board)
{
	for (int i = 0; i < o->nboards; i++)
		if (strcmp(o->boards[i], board) == 0)
			return 1;
	return o->nboards == 0;
}

static int open_store(const struct compare_opts *o, struct pg_store **store, char *err, size_t errlen)
{
	if (!*store)
		*store = pg_select_store(o->db, 0, err, errlen);
	return *store ? 0 : -1;
}

/* Loads the runs ids[0..n) into s. */
static int load_runs(struct pg_store *store, char (*ids)[PG_RUN_ID_MAX + 1], int n, struct compare_side *s, char *err,
		     size_t errlen)
{
	struct pg_rrun *all = realloc(s->runs, sizeof(*all) * (size_t)(s->n + n + 1));
	if (!all)
		return pg_err(err, errlen, "out of memory");
	s->runs = all;
	for (int i = 0; i < n; i++) {
		if (store->ops->load_run(store, ids[i], &s->runs[s->n], err, errlen) != 1)
			return -1;
		s->n++;
	}
	return 0;
}

int compare_label_runs(const char *spec, const struct compare_opts *o, struct pg_store **store,
		       struct compare_side *s, char *err, size_t errlen)
{
	char key[128];
	const char *eq = strchr(spec, '=');
	snprintf(key, sizeof(key), "%.*s", (int)(eq - spec), spec);
	if (open_store(o, store, err, errlen) < 0)
		return -1;
	struct pg_run_summary *runs;
	int n, found = 0, several = 0, rc = -1;
	if ((*store)->ops->list_runs(*store, &runs, &n, err, errlen) < 0)
		return -1;
	char (*ids)[PG_RUN_ID_MAX + 1] = malloc(sizeof(*ids) * (size_t)(n + 1));
	const char *first_board = NULL;
	for (int i = 0; ids && i < n; i++) {
		if (!pg_labels_have(runs[i].labels, key, eq + 1) || !compare_board_wanted(o, runs[i].board))
			continue;
		if (!first_board)
			first_board = runs[i].board;
		several |= strcmp(first_board, runs[i].board) != 0;
		snprintf(ids[found++], PG_RUN_ID_MAX + 1, "%s", runs[i].id);
	}
	if (!ids)
		pg_err(err, errlen, "out of memory");
	else if (!found)
		pg_err(err, errlen, "no run in the store %s is labelled %s%s", (*store)->path, spec,
		       o->nboards ? " on the --board given" : "");
	else if (several)
		pg_err(err, errlen,
		       "the runs labelled %s are of several boards (%s and others): give --board, "
		       "or compare a fleet with --baseline-release and --release",
		       spec, first_board);
	else
		rc = load_runs(*store, ids, found, s, err, errlen);
	free(ids);
	pg_run_summaries_free(runs, n);
	return rc;
}

static int is_new(const struct compare_side *new, const char *id)
{
	for (int i = 0; i < new->n; i++)
		if (strcmp(new->runs[i].id, id) == 0)
			return 1;
	return 0;
}

int compare_history(const struct compare_opts *o, struct pg_store **store, const struct compare_side *new,
		    struct compare_side *base, char *err, size_t errlen)
{
	const struct pg_rrun *x = &new->runs[0];
	if (open_store(o, store, err, errlen) < 0)
		return -1;
	struct pg_run_summary *runs;
	int n, found = 0, rc = -1;
	if ((*store)->ops->list_runs(*store, &runs, &n, err, errlen) < 0)
		return -1;
	char (*ids)[PG_RUN_ID_MAX + 1] = malloc(sizeof(*ids) * (size_t)(n + 1));
	/* oldest first: the K latest before NEW are the last K taken */
	for (int i = 0; ids && i < n; i++) {
		if (strcmp(runs[i].board, x->board) != 0 || is_new(new, runs[i].id) ||
		    strcmp(runs[i].status, "complete") != 0 || (x->started && strcmp(runs[i].started, x->started) >= 0))
			continue;
		snprintf(ids[found++], PG_RUN_ID_MAX + 1, "%s", runs[i].id);
	}
	int from = found > o->history ? found - o->history : 0;
	if (!ids)
		pg_err(err, errlen, "out of memory");
	else if (found - from < 2)
		pg_err(err, errlen,
		       "the store %s has %d complete run%s of board %s before %s: the history needs 2 or more",
		       (*store)->path, found - from, found - from == 1 ? "" : "s", x->board, x->id);
	else
		rc = load_runs(*store, ids + from, found - from, base, err, errlen);
	free(ids);
	pg_run_summaries_free(runs, n);
	return rc;
}

struct pg_store *compare_profile_store(const struct compare_opts *o, char *err, size_t errlen)
{
	const char *db = o->db ? o->db : pg_store_env();
	char path[512];
	struct stat st;
	err[0] = '\0';
	if (!db) {
		if (pg_store_default_file(path, sizeof(path)) < 0 || stat(path, &st) < 0)
			return NULL;
		db = path;
	}
	return pg_store_open(db, 0, err, errlen);
}

int compare_fleet(const struct compare_opts *o)
{
	char err[512];
	struct pg_store *s = pg_select_store(o->db, 0, err, sizeof(err));
	if (!s)
		return pg_usage_error("compare: %s", err);
	struct pg_fleet_opts fo = { .base_release = o->base_release, .release = o->release,
				    .threshold = o->threshold, .force = o->force,
				    .allow_missing = o->allow_missing, .gate_descriptive = o->gate_descriptive,
				    .boards = o->boards, .nboards = o->nboards };
	struct pg_fleet *f = pg_fleet_compare(s, &fo, err, sizeof(err));
	pg_store_close(s);
	if (!f)
		return pg_usage_error("compare: %s", err);
	int rc = pg_fleet_status(f);
	if (o->json)
		pg_fleet_write_json(stdout, f, rc);
	else
		pg_fleet_write_md(stdout, f);
	pg_fleet_free(f);
	return rc;
}
