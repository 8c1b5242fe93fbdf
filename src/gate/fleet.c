/*
 * perfguide compare --baseline-release A --release B: a release gate for a
 * board farm. Each run records its release (run --label release=09.02); for
 * every board in the store with runs of both releases, all its runs of each
 * are compared as `compare BASE NEW` would (several runs of a release are
 * its replicates), a verdict per benchmark. A board fails when something
 * regressed, or when a run of release B lost what release A measured: it
 * crashed (no end record), failed, or skipped what A ran. The summary puts
 * every board's regressions in one table, largest change first; the json
 * form has each board's verdicts for a CI job to read. Exit 1 when any
 * board failed, 3 when none did but one could not be judged.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/compare.h"
#include "core/record_json.h"
#include "store/select.h"
#include "core/escape.h"
#include "core/err.h"

struct fleet_board {
	char board[PG_BOARD_MAX + 1];
	char (*ids[2])[PG_RUN_ID_MAX + 1];	/* its runs of release A, of release B */
	int nids[2];
	struct compare_side side[2];
	struct pg_comparison c;
	int compared;
	int status;			/* compare's exit status for this board */
};

struct fleet {
	const struct compare_opts *o;
	struct fleet_board *b;
	int n;
	const struct pg_cmp_row **regs;	/* every board's regressions, largest first */
	const struct fleet_board **reg_board;
	int nregs;
};

/* 1 when the run's labels (NULL: none) say release=want. */
static int is_release(const char *labels, const char *want)
{
	json_t *o = labels ? json_loads(labels, 0, NULL) : NULL;
	const char *v = json_string_value(json_object_get(o, "release"));
	int is = v && strcmp(v, want) == 0;
	json_decref(o);
	return is;
}

static struct fleet_board *board_of(struct fleet *f, const char *board)
{
	for (int i = 0; i < f->n; i++)
		if (strcmp(f->b[i].board, board) == 0)
			return &f->b[i];
	struct fleet_board *b = realloc(f->b, sizeof(*b) * (size_t)(f->n + 1));
	if (!b)
		return NULL;
	f->b = b;
	b = &f->b[f->n++];
	memset(b, 0, sizeof(*b));
	snprintf(b->board, sizeof(b->board), "%s", board);
	return b;
}

static int by_board(const void *a, const void *b)
{
	return strcmp(((const struct fleet_board *)a)->board, ((const struct fleet_board *)b)->board);
}

static int add_id(struct fleet_board *b, int which, const char *id)
{
	char (*ids)[PG_RUN_ID_MAX + 1] = realloc(b->ids[which], sizeof(*ids) * (size_t)(b->nids[which] + 1));
	if (!ids)
		return -1;
	b->ids[which] = ids;
	snprintf(ids[b->nids[which]++], PG_RUN_ID_MAX + 1, "%s", id);
	return 0;
}

/* Each board's runs of either release (the list is oldest first). */
static int find_runs(struct fleet *f, struct pg_store *s, char *err, size_t errlen)
{
	struct pg_run_summary *runs;
	int n;
	if (s->ops->list_runs(s, &runs, &n, err, errlen) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		int is_base = is_release(runs[i].labels, f->o->base_release);
		int is_new = is_release(runs[i].labels, f->o->release);
		if ((!is_base && !is_new) || !compare_board_wanted(f->o, runs[i].board))
			continue;
		struct fleet_board *b = board_of(f, runs[i].board);
		if (!b || add_id(b, is_new, runs[i].id) < 0) {
			pg_run_summaries_free(runs, n);
			return pg_err(err, errlen, "out of memory");
		}
	}
	pg_run_summaries_free(runs, n);
	if (f->n > 1)
		qsort(f->b, (size_t)f->n, sizeof(*f->b), by_board);
	return 0;
}

static int load_side(struct pg_store *s, struct fleet_board *b, int which, char *err, size_t errlen)
{
	struct compare_side *side = &b->side[which];
	side->runs = calloc((size_t)b->nids[which] + 1, sizeof(*side->runs));
	if (!side->runs)
		return -1;
	for (int i = 0; i < b->nids[which]; i++) {
		if (s->ops->load_run(s, b->ids[which][i], &side->runs[i], err, errlen) != 1)
			return -1;
		side->n++;
	}
	return 0;
}

/* Loads and compares every board with both releases. */
static int compare_boards(struct fleet *f, struct pg_store *s, char *err, size_t errlen)
{
	struct pg_cmp_opts co = { .threshold_pct = f->o->threshold, .gate_descriptive = f->o->gate_descriptive,
				  .force = f->o->force, .releases = 1 };
	for (int i = 0; i < f->n; i++) {
		struct fleet_board *b = &f->b[i];
		if (!b->nids[0] || !b->nids[1])
			continue;
		struct pg_cmp_side base = { 0 }, new = { 0 };
		if (load_side(s, b, 0, err, errlen) < 0 || load_side(s, b, 1, err, errlen) < 0 ||
		    (base = (struct pg_cmp_side){ b->side[0].runs, b->side[0].n },
		     new = (struct pg_cmp_side){ b->side[1].runs, b->side[1].n },
		     pg_compare_sides(&base, &new, &co, &b->c) < 0)) {
			return pg_err(err, errlen, "%s: cannot read its runs of releases %s and %s", b->board,
				      f->o->base_release, f->o->release);
		}
		b->compared = 1;
		b->status = pg_compare_exit(&b->c, f->o->allow_missing);
		f->nregs += b->c.nreg;
	}
	return 0;
}

static int by_size(const void *a, const void *b)
{
	double x = fabs((*(const struct pg_cmp_row *const *)a)->change_pct);
	double y = fabs((*(const struct pg_cmp_row *const *)b)->change_pct);
	return x < y ? 1 : x > y ? -1 : 0;
}

/* Every regression, largest change first (its board found by pointer). */
static int sort_regressions(struct fleet *f)
{
	f->regs = calloc((size_t)f->nregs + 1, sizeof(*f->regs));
	f->reg_board = calloc((size_t)f->nregs + 1, sizeof(*f->reg_board));
	if (!f->regs || !f->reg_board)
		return -1;
	int k = 0;
	for (int i = 0; i < f->n; i++)
		for (int j = 0; j < f->b[i].c.n; j++)
			if (f->b[i].c.rows[j].verdict == PG_REGRESSED)
				f->regs[k++] = &f->b[i].c.rows[j];
	if (k > 1)
		qsort(f->regs, (size_t)k, sizeof(*f->regs), by_size);
	for (int r = 0; r < k; r++)
		for (int i = 0; i < f->n; i++)
			if (f->regs[r] >= f->b[i].c.rows && f->regs[r] < f->b[i].c.rows + f->b[i].c.n)
				f->reg_board[r] = &f->b[i];
	return 0;
}

/* pass, regressed, failed (lost what A measured), inconclusive, nothing in common. */
static const char *board_verdict(const struct fleet_board *b)
{
	if (b->c.nreg)
		return "regressed";
	if (b->status == PG_EXIT_FAIL)
		return "failed";
	if (!b->c.n)
		return "nothing in common";
	return b->status ? "inconclusive" : "pass";
}

static json_t *board_json(const struct fleet_board *b)
{
	json_t *j = json_object(), *a = json_array(), *lost = json_array(), *base = json_array(), *new = json_array();
	json_object_set_new(j, "board", json_string(b->board));
	json_object_set_new(j, "base", json_string(b->ids[0][b->nids[0] - 1]));
	json_object_set_new(j, "new", json_string(b->ids[1][b->nids[1] - 1]));
	for (int i = 0; i < b->nids[0]; i++)
		json_array_append_new(base, json_string(b->ids[0][i]));
	for (int i = 0; i < b->nids[1]; i++)
		json_array_append_new(new, json_string(b->ids[1][i]));
	json_object_set_new(j, "base_runs", base);
	json_object_set_new(j, "new_runs", new);
	json_object_set_new(j, "compared", json_integer(b->c.n));
	json_object_set_new(j, "regressed", json_integer(b->c.nreg));
	json_object_set_new(j, "improved", json_integer(b->c.nimp));
	json_object_set_new(j, "inconclusive", json_integer(b->c.ninc));
	json_object_set_new(j, "verdict", json_string(board_verdict(b)));
	json_object_set_new(j, "exit", json_integer(b->status));
	for (int k = 0; k < b->c.n; k++)
		json_array_append_new(a, pg_compare_row_json(&b->c.rows[k]));
	json_object_set_new(j, "results", a);
	for (int k = 0; k < b->c.nlost; k++)
		json_array_append_new(lost, pg_compare_lost_json(&b->c.lost[k]));
	json_object_set_new(j, "lost", lost);
	return j;
}

static void fleet_print_json(const struct fleet *f, int status)
{
	json_t *o = json_object(), *boards = json_array(), *missing = json_array(), *regs = json_array();
	json_object_set_new(o, "baseline_release", json_string(f->o->base_release));
	json_object_set_new(o, "release", json_string(f->o->release));
	json_object_set_new(o, "threshold_pct", json_real(f->o->threshold));
	json_object_set_new(o, "fdr", json_real(PG_GATE_Q));
	for (int i = 0; i < f->n; i++) {
		const struct fleet_board *b = &f->b[i];
		if (b->compared) {
			json_array_append_new(boards, board_json(b));
			continue;
		}
		json_t *m = json_object();
		json_object_set_new(m, "board", json_string(b->board));
		json_object_set_new(m, "missing_release", json_string(b->nids[0] ? f->o->release : f->o->base_release));
		json_array_append_new(missing, m);
	}
	for (int r = 0; r < f->nregs; r++) {
		json_t *j = pg_compare_row_json(f->regs[r]);
		json_object_set_new(j, "board", json_string(f->reg_board[r]->board));
		json_array_append_new(regs, j);
	}
	json_object_set_new(o, "boards", boards);
	json_object_set_new(o, "missing", missing);
	json_object_set_new(o, "regressions", regs);
	json_object_set_new(o, "regressed", json_integer(f->nregs));
	json_object_set_new(o, "exit", json_integer(status));
	pg_json_dumpf_safe(o, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(o);
}

/* A cell of the md table: escaped, so a board's name cannot break it. */
static void cell(const char *text)
{
	fputs("| ", stdout);
	pg_md_text(stdout, text[0] ? text : "-", 0);
	fputc(' ', stdout);
}

/* The latest run of a release, and how many more it has. */
static void runs_cell(const struct fleet_board *b, int which)
{
	if (!b->nids[which]) {
		cell("");
		return;
	}
	cell(b->ids[which][b->nids[which] - 1]);
	if (b->nids[which] > 1)
		printf("(+%d) ", b->nids[which] - 1);
}

static void print_boards_md(const struct fleet *f)
{
	printf("| Board | Base run | New run | Compared | Regressed | Improved | Verdict |\n"
	       "|---|---|---|---|---|---|---|\n");
	for (int i = 0; i < f->n; i++) {
		const struct fleet_board *b = &f->b[i];
		cell(b->board);
		runs_cell(b, 0);
		runs_cell(b, 1);
		if (b->compared) {
			printf("| %d | %d | %d | %s |\n", b->c.n, b->c.nreg, b->c.nimp, board_verdict(b));
		} else {
			fputs("| | | | no run of ", stdout);
			pg_md_text(stdout, b->nids[0] ? f->o->release : f->o->base_release, 0);
			fputs(" |\n", stdout);
		}
	}
}

/* Per board, why it failed or could not be judged: unlike machines, what
 * it lost, the rows left unjudged. */
static void print_details_md(const struct fleet *f)
{
	for (int i = 0; i < f->n; i++) {
		const struct fleet_board *b = &f->b[i];
		if (!b->compared || (!b->c.nunlike && !b->c.nnotes && !b->c.nlost && !b->c.ninc))
			continue;
		fputs("\n", stdout);
		pg_md_text(stdout, b->board, 0);
		fputs(":\n", stdout);
		for (int k = 0; k < b->c.nunlike; k++) {
			fputs("- unlike: ", stdout);
			pg_md_text(stdout, b->c.unlike[k], 0);
			fputc('\n', stdout);
		}
		for (int k = 0; k < b->c.nnotes; k++) {
			fputs("- ", stdout);
			pg_md_text(stdout, b->c.notes[k], 0);
			fputc('\n', stdout);
		}
		for (int k = 0; k < b->c.n; k++)
			if (b->c.rows[k].verdict == PG_INCONCLUSIVE) {
				fputs("- ", stdout);
				pg_compare_write_name(stdout, b->c.rows[k].base);
				fputs(": ", stdout);
				pg_compare_write_verdict(stdout, &b->c.rows[k]);
				fputc('\n', stdout);
			}
		pg_compare_write_lost(stdout, &b->c, f->o->allow_missing);
	}
}

static void print_md(const struct fleet *f)
{
	fputs("Release ", stdout);
	pg_md_text(stdout, f->o->release, 0);
	fputs(" against ", stdout);
	pg_md_text(stdout, f->o->base_release, 0);
	printf(": threshold %g%%, false discovery rate %g%% across each board's rows\n\n", f->o->threshold,
	       100 * PG_GATE_Q);
	print_boards_md(f);
	print_details_md(f);
	if (!f->nregs) {
		printf("\nNo regressions.\n");
		return;
	}
	printf("\nRegressions, largest first:\n\n| Board | Benchmark | Base | New | Change | p |\n|---|---|---|---|---|---|\n");
	for (int r = 0; r < f->nregs; r++) {
		cell(f->reg_board[r]->board);
		fputs("| ", stdout);
		pg_compare_write_name(stdout, f->regs[r]->base);
		pg_compare_write_figures(stdout, f->regs[r]);
		fputs(" |\n", stdout);
	}
}

static void fleet_free(struct fleet *f)
{
	for (int i = 0; i < f->n; i++) {
		struct fleet_board *b = &f->b[i];
		pg_comparison_free(&b->c);
		for (int w = 0; w < 2; w++) {
			for (int k = 0; k < b->side[w].n; k++)
				pg_rrun_free(&b->side[w].runs[k]);
			free(b->side[w].runs);
			free(b->ids[w]);
		}
	}
	free(f->b);
	free(f->regs);
	free(f->reg_board);
}

/* 1 when a board failed, else 3 when one could not be judged, else 0. */
static int fleet_status(const struct fleet *f)
{
	int st = PG_EXIT_OK;
	for (int i = 0; i < f->n; i++)
		if (f->b[i].compared && f->b[i].status == PG_EXIT_FAIL)
			return PG_EXIT_FAIL;
		else if (f->b[i].compared && f->b[i].status)
			st = f->b[i].status;
	return st;
}

int compare_fleet(const struct compare_opts *o)
{
	char err[512];
	struct fleet f = { .o = o };
	struct pg_store *s = pg_select_store(o->db, 0, err, sizeof(err));
	if (!s)
		return pg_usage_error("compare: %s", err);
	int rc = find_runs(&f, s, err, sizeof(err)) < 0 || compare_boards(&f, s, err, sizeof(err)) < 0 ? -1 : 0;
	pg_store_close(s);
	int both = 0;
	for (int i = 0; i < f.n; i++)
		both += f.b[i].compared;
	if (rc == 0 && !both)
		pg_err(err, sizeof(err),
		       "no board has runs of both release %s and release %s (run --label release=...)", o->base_release,
		       o->release);
	if (rc < 0 || !both || sort_regressions(&f) < 0) {
		fleet_free(&f);
		return pg_usage_error("compare: %s", rc < 0 || !both ? err : "out of memory");
	}
	rc = fleet_status(&f);
	if (o->json)
		fleet_print_json(&f, rc);
	else
		print_md(&f);
	fleet_free(&f);
	return rc;
}
