/* SPDX-License-Identifier: MIT */
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

#include "compare.h"
#include "fleet.h"
#include "profile.h"
#include "core/record_json.h"
#include "core/escape.h"
#include "core/err.h"

struct fleet_board {
	char board[PG_BOARD_MAX + 1];
	char (*ids[2])[PG_RUN_ID_MAX + 1];	/* its runs of release A, of release B */
	int nids[2];
	struct side {
		struct pg_rrun *runs;
		int n;
	} side[2];
	struct pg_comparison c;
	int compared;
	int status;			/* compare's exit status for this board */
};

struct pg_fleet {
	const struct pg_fleet_opts *o;
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

static struct fleet_board *board_of(struct pg_fleet *f, const char *board)
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

/* Whether --board lets this board in (every board without --board). */
static int board_wanted(const struct pg_fleet_opts *o, const char *board)
{
	for (int i = 0; i < o->nboards; i++)
		if (strcmp(o->boards[i], board) == 0)
			return 1;
	return o->nboards == 0;
}

/* Each board's runs of either release (the list is oldest first). */
static int find_runs(struct pg_fleet *f, struct pg_store *s, char *err, size_t errlen)
{
	struct pg_run_summary *runs;
	int n;
	if (s->ops->list_runs(s, &runs, &n, err, errlen) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		int is_base = is_release(runs[i].labels, f->o->base_release);
		int is_new = is_release(runs[i].labels, f->o->release);
		if ((!is_base && !is_new) || !board_wanted(f->o, runs[i].board))
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
	struct side *side = &b->side[which];
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

/* One board's releases, compared; one run a side takes each row's spread
 * between runs from the board's other runs in the store (profile.h). */
static int compare_board(struct pg_fleet *f, struct pg_store *s, struct fleet_board *b, char *err, size_t errlen)
{
	struct pg_cmp_opts co = { .threshold_pct = f->o->threshold, .gate_descriptive = f->o->gate_descriptive,
				  .force = f->o->force, .releases = 1 };
	if (load_side(s, b, 0, err, errlen) < 0 || load_side(s, b, 1, err, errlen) < 0)
		return -1;
	struct pg_cmp_side base = { b->side[0].runs, b->side[0].n }, new = { b->side[1].runs, b->side[1].n };
	struct pg_noise_profile prof = { 0 };
	char why[300] = "";
	if (base.n == 1 && new.n == 1 && pg_noise_from_store(s, &base, &new, &prof, why, sizeof(why)) == 0)
		co.profile = &prof;
	int rc = pg_compare_sides(&base, &new, &co, &b->c);
	pg_noise_free(&prof);
	if (rc == 0 && why[0]) {
		char t[PG_CMP_NOTE_LEN];
		snprintf(t, sizeof(t), "no noise profile of the board: %.180s", why);
		pg_compare_note(&b->c, t);
	}
	return rc;
}

/* Loads and compares every board with both releases. */
static int compare_boards(struct pg_fleet *f, struct pg_store *s, char *err, size_t errlen)
{
	for (int i = 0; i < f->n; i++) {
		struct fleet_board *b = &f->b[i];
		if (!b->nids[0] || !b->nids[1])
			continue;
		if (compare_board(f, s, b, err, errlen) < 0)
			return pg_err(err, errlen, "%s: cannot read its runs of releases %s and %s", b->board,
				      f->o->base_release, f->o->release);
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
static int sort_regressions(struct pg_fleet *f)
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

/* pass, regressed, failed (lost what A measured), undecided, inconclusive,
 * nothing in common. */
static const char *board_verdict(const struct fleet_board *b)
{
	if (b->c.nreg)
		return "regressed";
	if (b->status == PG_CMP_FAIL)
		return "failed";
	if (!b->c.n)
		return "nothing in common";
	if (b->status && b->c.nund && !b->c.ninc && !b->c.nunlike)
		return "undecided";
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
	json_object_set_new(j, "undecided", json_integer(b->c.nund));
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

void pg_fleet_write_json(FILE *out, const struct pg_fleet *f, int status)
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
	pg_json_dumpf_safe(o, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(o);
}

/* A cell of the md table: escaped, so a board's name cannot break it. */
static void cell(FILE *out, const char *text)
{
	fputs("| ", out);
	pg_md_text(out, text[0] ? text : "-", 0);
	fputc(' ', out);
}

/* The latest run of a release, and how many more it has. */
static void runs_cell(FILE *out, const struct fleet_board *b, int which)
{
	if (!b->nids[which]) {
		cell(out, "");
		return;
	}
	cell(out, b->ids[which][b->nids[which] - 1]);
	if (b->nids[which] > 1)
		fprintf(out, "(+%d) ", b->nids[which] - 1);
}

static void print_boards_md(FILE *out, const struct pg_fleet *f)
{
	fprintf(out, "| Board | Base run | New run | Compared | Regressed | Improved | Verdict |\n"
	       "|---|---|---|---|---|---|---|\n");
	for (int i = 0; i < f->n; i++) {
		const struct fleet_board *b = &f->b[i];
		cell(out, b->board);
		runs_cell(out, b, 0);
		runs_cell(out, b, 1);
		if (b->compared) {
			fprintf(out, "| %d | %d | %d | %s |\n", b->c.n, b->c.nreg, b->c.nimp, board_verdict(b));
		} else {
			fputs("| | | | no run of ", out);
			pg_md_text(out, b->nids[0] ? f->o->release : f->o->base_release, 0);
			fputs(" |\n", out);
		}
	}
}

/* Per board, why it failed or could not be judged: unlike machines, what
 * it lost, the rows left unjudged or undecided. */
static void print_details_md(FILE *out, const struct pg_fleet *f)
{
	for (int i = 0; i < f->n; i++) {
		const struct fleet_board *b = &f->b[i];
		if (!b->compared || (!b->c.nunlike && !b->c.nnotes && !b->c.nlost && !b->c.ninc && !b->c.nund))
			continue;
		fputs("\n", out);
		pg_md_text(out, b->board, 0);
		fputs(":\n", out);
		for (int k = 0; k < b->c.nunlike; k++) {
			fputs("- unlike: ", out);
			pg_md_text(out, b->c.unlike[k], 0);
			fputc('\n', out);
		}
		for (int k = 0; k < b->c.nnotes; k++) {
			fputs("- ", out);
			pg_md_text(out, b->c.notes[k], 0);
			fputc('\n', out);
		}
		for (int k = 0; k < b->c.n; k++)
			if (b->c.rows[k].verdict == PG_INCONCLUSIVE || b->c.rows[k].verdict == PG_UNDECIDED) {
				fputs("- ", out);
				pg_compare_write_name(out, b->c.rows[k].base);
				fputs(": ", out);
				pg_compare_write_verdict(out, &b->c.rows[k]);
				fputc('\n', out);
			}
		pg_compare_write_lost(out, &b->c, f->o->allow_missing);
	}
}

void pg_fleet_write_md(FILE *out, const struct pg_fleet *f)
{
	fputs("Release ", out);
	pg_md_text(out, f->o->release, 0);
	fputs(" against ", out);
	pg_md_text(out, f->o->base_release, 0);
	fprintf(out, ": threshold %g%%, false discovery rate %g%% across each board's rows\n\n", f->o->threshold,
	       100 * PG_GATE_Q);
	print_boards_md(out, f);
	print_details_md(out, f);
	if (!f->nregs) {
		fprintf(out, "\nNo regressions.\n");
		return;
	}
	fprintf(out, "\nRegressions, largest first:\n\n| Board | Benchmark | Base | New | Change | Interval | p |\n"
		"|---|---|---|---|---|---|---|\n");
	for (int r = 0; r < f->nregs; r++) {
		cell(out, f->reg_board[r]->board);
		fputs("| ", out);
		pg_compare_write_name(out, f->regs[r]->base);
		pg_compare_write_figures(out, f->regs[r]);
		fputs(" |\n", out);
	}
}

void pg_fleet_free(struct pg_fleet *f)
{
	if (!f)
		return;
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
	free(f);
}

/* 1 when a board failed, else 3 when one could not be judged, else 0. */
int pg_fleet_status(const struct pg_fleet *f)
{
	int st = PG_CMP_PASS;
	for (int i = 0; i < f->n; i++)
		if (f->b[i].compared && f->b[i].status == PG_CMP_FAIL)
			return PG_CMP_FAIL;
		else if (f->b[i].compared && f->b[i].status)
			st = f->b[i].status;
	return st;
}

struct pg_fleet *pg_fleet_compare(struct pg_store *s, const struct pg_fleet_opts *o, char *err, size_t errlen)
{
	struct pg_fleet *f = calloc(1, sizeof(*f));
	if (!f) {
		pg_err(err, errlen, "out of memory");
		return NULL;
	}
	f->o = o;
	int rc = find_runs(f, s, err, errlen) < 0 || compare_boards(f, s, err, errlen) < 0 ? -1 : 0;
	int both = 0;
	for (int i = 0; i < f->n; i++)
		both += f->b[i].compared;
	if (rc == 0 && !both)
		rc = pg_err(err, errlen, "no board has runs of both release %s and release %s (run --label release=...)",
			    o->base_release, o->release);
	if (rc == 0 && sort_regressions(f) < 0)
		rc = pg_err(err, errlen, "out of memory");
	if (rc < 0) {
		pg_fleet_free(f);
		return NULL;
	}
	return f;
}
