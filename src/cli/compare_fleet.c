/*
 * perfguide compare --baseline-release A --release B: a release gate for a
 * board farm. Each run records its release (run --label release=09.02); for
 * every board in the store with runs of both releases, its latest run of
 * each is compared as `compare BASE NEW` would, a verdict per benchmark.
 * The summary puts every board's regressions in one table, largest change
 * first; the json form has each board's verdicts for a CI job to read.
 * Exit 1 when any board regressed.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "core/record_json.h"
#include "report/select.h"
#include "report/writer.h"

struct fleet_board {
	char board[PG_BOARD_MAX + 1];
	char base_id[PG_RUN_ID_MAX + 1], new_id[PG_RUN_ID_MAX + 1];	/* "" when the board has no run of that release */
	struct pg_rrun base, new;
	struct pg_cmp_row *rows;
	int n, nreg, nimp;
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

static int wanted(const struct compare_opts *o, const char *board)
{
	for (int i = 0; i < o->nboards; i++)
		if (strcmp(o->boards[i], board) == 0)
			return 1;
	return o->nboards == 0;
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

/* Each board's latest run of either release (the list is oldest first). */
static int find_runs(struct fleet *f, struct pg_store *s, char *err, size_t len)
{
	struct pg_run_summary *runs;
	int n;
	if (s->ops->list_runs(s, &runs, &n, err, len) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		int is_base = is_release(runs[i].labels, f->o->base_release);
		int is_new = is_release(runs[i].labels, f->o->release);
		if ((!is_base && !is_new) || !wanted(f->o, runs[i].board))
			continue;
		struct fleet_board *b = board_of(f, runs[i].board);
		if (!b) {
			pg_run_summaries_free(runs, n);
			snprintf(err, len, "out of memory");
			return -1;
		}
		snprintf(is_base ? b->base_id : b->new_id, sizeof(b->base_id), "%s", runs[i].id);
	}
	pg_run_summaries_free(runs, n);
	if (f->n)
		qsort(f->b, (size_t)f->n, sizeof(*f->b), by_board);
	return 0;
}

/* Loads and compares every board with both runs. */
static int compare_boards(struct fleet *f, struct pg_store *s, char *err, size_t len)
{
	for (int i = 0; i < f->n; i++) {
		struct fleet_board *b = &f->b[i];
		if (!b->base_id[0] || !b->new_id[0])
			continue;
		if (s->ops->load_run(s, b->base_id, &b->base, err, len) != 1 ||
		    s->ops->load_run(s, b->new_id, &b->new, err, len) != 1 ||
		    pg_compare(&b->base, &b->new, f->o->threshold, &b->rows, &b->n) < 0) {
			snprintf(err, len, "%s: cannot read runs %s and %s", b->board, b->base_id, b->new_id);
			return -1;
		}
		for (int k = 0; k < b->n; k++) {
			b->nreg += b->rows[k].verdict == PG_REGRESSED;
			b->nimp += b->rows[k].verdict == PG_IMPROVED;
		}
		f->nregs += b->nreg;
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
		for (int j = 0; j < f->b[i].n; j++)
			if (f->b[i].rows[j].verdict == PG_REGRESSED)
				f->regs[k++] = &f->b[i].rows[j];
	qsort(f->regs, (size_t)k, sizeof(*f->regs), by_size);
	for (int r = 0; r < k; r++)
		for (int i = 0; i < f->n; i++)
			if (f->regs[r] >= f->b[i].rows && f->regs[r] < f->b[i].rows + f->b[i].n)
				f->reg_board[r] = &f->b[i];
	return 0;
}

static json_t *board_json(const struct fleet_board *b)
{
	json_t *j = json_object(), *a = json_array();
	json_object_set_new(j, "board", json_string(b->board));
	json_object_set_new(j, "base", json_string(b->base_id));
	json_object_set_new(j, "new", json_string(b->new_id));
	json_object_set_new(j, "compared", json_integer(b->n));
	json_object_set_new(j, "regressed", json_integer(b->nreg));
	json_object_set_new(j, "improved", json_integer(b->nimp));
	json_object_set_new(j, "verdict", json_string(b->nreg ? "regressed" : b->n ? "pass" : "nothing in common"));
	for (int k = 0; k < b->n; k++)
		json_array_append_new(a, pg_compare_row_json(&b->rows[k]));
	json_object_set_new(j, "results", a);
	return j;
}

static void print_json(const struct fleet *f)
{
	json_t *o = json_object(), *boards = json_array(), *missing = json_array(), *regs = json_array();
	json_object_set_new(o, "baseline_release", json_string(f->o->base_release));
	json_object_set_new(o, "release", json_string(f->o->release));
	json_object_set_new(o, "threshold_pct", json_real(f->o->threshold));
	json_object_set_new(o, "alpha", json_real(PG_CMP_ALPHA));
	for (int i = 0; i < f->n; i++) {
		const struct fleet_board *b = &f->b[i];
		if (b->base_id[0] && b->new_id[0]) {
			json_array_append_new(boards, board_json(b));
			continue;
		}
		json_t *m = json_object();
		json_object_set_new(m, "board", json_string(b->board));
		json_object_set_new(m, "missing_release", json_string(b->base_id[0] ? f->o->release : f->o->base_release));
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

static void print_boards_md(const struct fleet *f)
{
	printf("| Board | Base run | New run | Compared | Regressed | Improved | Verdict |\n"
	       "|---|---|---|---|---|---|---|\n");
	for (int i = 0; i < f->n; i++) {
		const struct fleet_board *b = &f->b[i];
		cell(b->board);
		cell(b->base_id);
		cell(b->new_id);
		if (b->base_id[0] && b->new_id[0]) {
			printf("| %d | %d | %d | %s |\n", b->n, b->nreg, b->nimp,
			       b->nreg ? "regressed" : b->n ? "pass" : "nothing in common");
		} else {
			fputs("| | | | no run of ", stdout);
			pg_md_text(stdout, b->base_id[0] ? f->o->release : f->o->base_release, 0);
			fputs(" |\n", stdout);
		}
	}
}

static void print_md(const struct fleet *f)
{
	fputs("Release ", stdout);
	pg_md_text(stdout, f->o->release, 0);
	fputs(" against ", stdout);
	pg_md_text(stdout, f->o->base_release, 0);
	printf(": threshold %g%%, Mann-Whitney p < %g\n\n", f->o->threshold, PG_CMP_ALPHA);
	print_boards_md(f);
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
		pg_rrun_free(&f->b[i].base);
		pg_rrun_free(&f->b[i].new);
		free(f->b[i].rows);
	}
	free(f->b);
	free(f->regs);
	free(f->reg_board);
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
		both += f.b[i].base_id[0] && f.b[i].new_id[0];
	if (rc == 0 && !both)
		snprintf(err, sizeof(err), "no board has runs of both release %s and release %s (run --label release=...)",
			 o->base_release, o->release);
	if (rc < 0 || !both || sort_regressions(&f) < 0) {
		fleet_free(&f);
		return pg_usage_error("compare: %s", rc < 0 || !both ? err : "out of memory");
	}
	if (o->json)
		print_json(&f);
	else
		print_md(&f);
	rc = f.nregs ? PG_EXIT_FAIL : PG_EXIT_OK;
	fleet_free(&f);
	return rc;
}
