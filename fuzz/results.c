/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for everything perfguide does with a results file it did not
 * write: the bytes are a results file. It is read (runs/rundata.c), every
 * run imported into an SQLite store in memory and read back, the guide
 * written in every format from the file's runs and from the store's, with a
 * baseline, and compare run on the first run against the last.
 *
 * Beyond "no crash, no leak, no undefined behaviour", what must hold:
 * a file the reader accepts imports; a run read back from the store gives
 * the same guide as the run from the file (md and json); every output is
 * valid UTF-8; json output parses; md output has no raw '<'; an rst line
 * that starts with ".. " is perfguide's own csv-table.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "store/store.h"
#include "guide/writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The run the store keeps of those with this id: the first one complete,
 * else the last (an incomplete copy is replaced). */
static const struct pg_rrun *kept(const struct pg_rrun *runs, int n, const char *id)
{
	const struct pg_rrun *k = NULL;
	for (int i = 0; i < n; i++)
		if (strcmp(runs[i].id, id) == 0 && (!k || !k->finished))
			k = &runs[i];
	return k;
}

static void same_guide(const struct pg_rrun *file, const struct pg_rrun *stored)
{
	const struct pg_writer *const both[] = { &pg_writer_md, &pg_writer_json };
	for (int i = 0; i < 2; i++) {
		size_t la, lb;
		char *a = fuzz_guide_text(&file, 1, both[i], 0, &la), *b = fuzz_guide_text(&stored, 1, both[i], 0, &lb);
		if (!a || !b || la != lb || memcmp(a, b, la) != 0) {
			fprintf(stderr, "run %s: the guide (%s) from the store differs from the file's\n%s\n---\n%s\n",
				file->id, both[i]->name, a ? a : "", b ? b : "");
			abort();
		}
		free(a);
		free(b);
	}
}

/* Imports the runs into a new store in memory, and reads back every run. */
static void through_store(const struct pg_rrun *runs, int n)
{
	char err[512];
	struct pg_store *s = pg_store_sqlite_open(":memory:", 1, err, sizeof(err));
	int *how = calloc((size_t)n + 1, sizeof(int));
	if (!s || !how) {
		fprintf(stderr, "store: %s\n", s ? "out of memory" : err);
		abort();
	}
	int added = s->ops->add_runs(s, runs, n, how, err, sizeof(err));
	if (added == -2) {	/* two runs of one id: refused whole, nothing to read back */
		free(how);
		pg_store_close(s);
		return;
	}
	if (added < 0) {
		fprintf(stderr, "a file the reader accepts does not import: %s\n", err);
		abort();
	}
	struct pg_run_summary *list;
	int nl;
	if (s->ops->list_runs(s, &list, &nl, err, sizeof(err)) < 0)
		abort();
	struct pg_rrun *back = calloc((size_t)nl + 1, sizeof(*back));
	const struct pg_rrun **ptrs = calloc((size_t)nl + 1, sizeof(*ptrs));
	for (int i = 0; back && ptrs && i < nl; i++) {
		if (s->ops->load_run(s, list[i].id, &back[i], err, sizeof(err)) != 1) {
			fprintf(stderr, "run %s listed but not loaded: %s\n", list[i].id, err);
			abort();
		}
		ptrs[i] = &back[i];
		same_guide(kept(runs, n, list[i].id), &back[i]);
	}
	if (back && ptrs && nl > 0)
		fuzz_every_format(ptrs, nl, 1);
	for (int i = 0; back && i < nl; i++)
		pg_rrun_free(&back[i]);
	free(back);
	free(ptrs);
	pg_run_summaries_free(list, nl);
	free(how);
	pg_store_close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	struct pg_rrun *runs;
	int n;
	char err[512];
	int rc = pg_rrun_read_stream(f, "fuzz.jsonl", &runs, &n, err, sizeof(err));
	fclose(f);
	if (rc < 0)
		return 0;
	const struct pg_rrun **ptrs = calloc((size_t)n + 1, sizeof(*ptrs));
	for (int i = 0; ptrs && i < n; i++)
		ptrs[i] = &runs[i];
	if (ptrs)
		fuzz_every_format(ptrs, n, 0);
	free(ptrs);
	through_store(runs, n);
	fuzz_compare(&runs[0], &runs[n - 1]);
	for (int i = 0; i < n; i++)
		pg_rrun_free(&runs[i]);
	free(runs);
	return 0;
}
