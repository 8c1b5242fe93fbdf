/*
 * Fuzz target for everything perfguide does with a results file it did not
 * write: the bytes are a results file. It is read (report/rundata.c), every
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

#include "core/text.h"
#include "report/compare.h"
#include "report/store.h"
#include "report/writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_text(const char *fmt, const char *s, size_t n)
{
	if (!pg_utf8_valid(s, n)) {
		fprintf(stderr, "%s output is not UTF-8\n", fmt);
		abort();
	}
	if (strcmp(fmt, "json") == 0 && n) {
		json_t *j = json_loadb(s, n, 0, NULL);
		if (!j) {
			fprintf(stderr, "json output does not parse\n");
			abort();
		}
		json_decref(j);
	}
	if (strcmp(fmt, "md") == 0)
		for (size_t i = 0; i < n; i++)
			if (s[i] == '<' && (i == 0 || s[i - 1] != '\\')) {
				fprintf(stderr, "raw '<' in md output at %zu\n", i);
				abort();
			}
	if (strcmp(fmt, "rst") == 0)
		for (size_t i = 0; i + 3 <= n; i++)
			/* the guide's own: its tables and its table of contents */
			if ((i == 0 || s[i - 1] == '\n') && memcmp(s + i, ".. ", 3) == 0 &&
			    (n - i < 15 || memcmp(s + i, ".. csv-table:: ", 15) != 0) &&
			    (n - i < 14 || memcmp(s + i, ".. contents::\n", 14) != 0)) {
				fprintf(stderr, "an rst directive from the input at %zu\n", i);
				abort();
			}
}

/* The guide of runs in format wr, malloc'd; NULL when building failed. */
static char *guide_text(const struct pg_rrun *const *runs, int n, const struct pg_writer *wr, int baseline,
			size_t *len)
{
	struct pg_guide g;
	char *buf = NULL;
	*len = 0;
	if (pg_guide_build(&g, runs, n) == 0) {
		if (baseline)
			pg_guide_baseline(&g, runs[0]->board);
		FILE *m = open_memstream(&buf, len);
		if (m) {
			pg_guide_write(&g, wr, m);
			fclose(m);
		}
	}
	pg_guide_free(&g);
	return buf;
}

static void every_format(const struct pg_rrun *const *runs, int n, int baseline)
{
	const struct pg_writer *const all[] = { &pg_writer_md, &pg_writer_rst, &pg_writer_csv, &pg_writer_json,
						&pg_writer_html };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		size_t len;
		char *t = guide_text(runs, n, all[i], baseline, &len);
		if (t)
			check_text(all[i]->name, t, len);
		free(t);
	}
}

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
		char *a = guide_text(&file, 1, both[i], 0, &la), *b = guide_text(&stored, 1, both[i], 0, &lb);
		if (!a || !b || la != lb || memcmp(a, b, la) != 0) {
			fprintf(stderr, "run %s: the guide (%s) from the store differs from the file's\n%s\n---\n%s\n",
				file->id, both[i]->name, a ? a : "", b ? b : "");
			abort();
		}
		free(a);
		free(b);
	}
}

static void compare(const struct pg_rrun *base, const struct pg_rrun *new)
{
	struct pg_cmp_side b = { base, 1 }, n = { new, 1 };
	struct pg_cmp_opts co = { .threshold_pct = 5 };
	struct pg_comparison c;
	if (pg_compare_sides(&b, &n, &co, &c) < 0)
		return;
	struct pg_verdicts v = { .base = &b, .new = &n, .c = &c };
	for (int json = 0; json < 2; json++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (!m)
			continue;
		if (json)
			pg_compare_write_json(m, &v);
		else
			pg_compare_write_md(m, &v);
		fclose(m);
		check_text(json ? "json" : "compare md", buf, len);
		free(buf);
	}
	pg_comparison_free(&c);
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
	if (s->ops->add_runs(s, runs, n, how, err, sizeof(err)) < 0) {
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
		every_format(ptrs, nl, 1);
	for (int i = 0; back && i < nl; i++)
		pg_rrun_free(&back[i]);
	free(back);
	free(ptrs);
	free(list);
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
		every_format(ptrs, n, 0);
	free(ptrs);
	through_store(runs, n);
	compare(&runs[0], &runs[n - 1]);
	for (int i = 0; i < n; i++)
		pg_rrun_free(&runs[i]);
	free(runs);
	return 0;
}
