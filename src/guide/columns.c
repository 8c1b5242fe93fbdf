/* SPDX-License-Identifier: MIT */
/*
 * The guide's columns: which runs go in each (a board's, a board's with
 * the same labels, or each run), in what order, what their machines say
 * about trusting them, and their headings.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "guide.h"

/* Whether run r goes in column c: the same board and, as the guide's
 * columns go, the same labels or the same run. */
static int in_column(const struct pg_guide *g, const struct pg_gcol *c, const struct pg_rrun *r)
{
	if (strcmp(c->board, r->board) != 0)
		return 0;
	if (g->opts.columns_by == PG_COLS_RUN)
		return strcmp(c->runs[0]->id, r->id) == 0;
	if (g->opts.columns_by == PG_COLS_LABEL)
		return pg_labels_equal(c->labels, r->labels);
	return 1;
}

int pg_guide_add_column(struct pg_guide *g, const struct pg_rrun *run, int nruns)
{
	int c = 0;
	while (c < g->ncols && !in_column(g, &g->cols[c], run))
		c++;
	if (c == g->ncols) {
		struct pg_gcol *col = &g->cols[c];
		col->board = run->board;
		col->labels = run->labels;
		col->runs = calloc((size_t)nruns, sizeof(*col->runs));
		col->used = calloc((size_t)nruns, sizeof(int));
		col->emulator = calloc((size_t)nruns, sizeof(char *));
		g->ncols++;
		if (!col->runs || !col->used || !col->emulator)
			return -1;
	}
	g->cols[c].runs[g->cols[c].nruns++] = run;
	return 0;
}

struct by_start {
	const struct pg_rrun *run;
	int at;
};

static int cmp_start(const void *a, const void *b)
{
	const struct by_start *x = a, *y = b;
	int c = strcmp(x->run->started, y->run->started);
	return c ? c : x->at - y->at;
}

/* Runs of a column by when they started (ISO times sort as text), the
 * order given where they say the same; a run that does not say stays
 * where it is, and no run passes it. A sort of each stretch between such
 * runs, by time then place (stable): the insertion sort it replaces took
 * seconds for a column of 30,000 runs (issue 40). */
static void insertion_sort(struct pg_gcol *c)
{
	for (int i = 1; i < c->nruns; i++)
		for (int j = i; j > 0; j--) {
			const char *a = c->runs[j - 1]->started, *b = c->runs[j]->started;
			if (!a || !b || strcmp(a, b) <= 0)
				break;
			const struct pg_rrun *t = c->runs[j];
			c->runs[j] = c->runs[j - 1];
			c->runs[j - 1] = t;
		}
}

void pg_column_sort(struct pg_gcol *c)
{
	struct by_start *by = malloc(sizeof(*by) * ((size_t)c->nruns + 1));
	if (!by) {	/* no memory for the fast way: the slow one needs none */
		insertion_sort(c);
		return;
	}
	for (int first = 0, end; first < c->nruns; first = end + 1) {
		for (end = first; end < c->nruns && c->runs[end]->started; end++)
			by[end - first] = (struct by_start){ c->runs[end], end };
		qsort(by, (size_t)(end - first), sizeof(*by), cmp_start);
		for (int i = first; i < end; i++)
			c->runs[i] = by[i - first].run;
	}
	free(by);
}

/* What emulated the CPU of each run, from its machine (machine.emulated,
 * machine.virt), as its figures' note says it: every figure of such a run
 * is doubtful, and so is one of qemu's virt board seen from an ARM guest,
 * which cannot tell KVM from emulation. */
int pg_column_emulators(struct pg_gcol *c)
{
	for (int k = 0; k < c->nruns; k++) {
		json_t *m = c->runs[k]->machine ? json_loads(c->runs[k]->machine, 0, NULL) : NULL;
		const char *v = json_string_value(json_object_get(m, "virt"));
		int emulated = json_is_true(json_object_get(m, "emulated"));
		int perhaps = !emulated && v && strcmp(v, "qemu") == 0;
		char note[160];
		if (emulated)
			snprintf(note, sizeof(note), "emulated CPU (%.40s): not the hardware's speed",
				 v && v[0] ? v : "an emulator");
		else if (perhaps)
			snprintf(note, sizeof(note), "perhaps an emulated CPU (qemu, with KVM or without: the guest "
				 "cannot tell): perhaps not the hardware's speed");
		if (emulated || perhaps)
			c->emulator[k] = strdup(note);
		json_decref(m);
		if ((emulated || perhaps) && !c->emulator[k])
			return -1;
	}
	return 0;
}

void pg_labels_text(const char *labels, char *buf, size_t len)
{
	json_t *o = labels && labels[0] ? json_loads(labels, 0, NULL) : NULL, *v;
	const char *k;
	size_t at = 0;
	buf[0] = '\0';
	json_object_foreach(o, k, v) {
		const char *t = json_string_value(v);
		int w = snprintf(buf + at, len - at, "%s%s=%s", at ? ", " : "", k, t ? t : "");
		if (w < 0 || (size_t)w >= len - at) {
			pg_utf8_trim(buf);
			break;
		}
		at += (size_t)w;
	}
	json_decref(o);
}

/* A board's name alone where it has one column; else with what tells its
 * columns apart: the labels, or the run. */
int pg_guide_name_columns(struct pg_guide *g)
{
	for (int c = 0; c < g->ncols; c++) {
		struct pg_gcol *col = &g->cols[c];
		int alone = 1;
		for (int o = 0; o < g->ncols; o++)
			alone &= o == c || strcmp(g->cols[o].board, col->board) != 0;
		char what[300] = "", name[512];
		if (!alone && g->opts.columns_by == PG_COLS_RUN)
			pg_text_copy(what, sizeof(what), col->runs[0]->id);
		else if (!alone)
			pg_labels_text(col->labels, what, sizeof(what));
		if (alone)
			pg_text_copy(name, sizeof(name), col->board);
		else if ((size_t)snprintf(name, sizeof(name), "%s (%s)", col->board, what[0] ? what : "no labels") >=
			 sizeof(name))
			pg_utf8_trim(name);
		if (!(col->name = strdup(name)))
			return -1;
	}
	return 0;
}
