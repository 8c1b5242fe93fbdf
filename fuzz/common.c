/* SPDX-License-Identifier: MIT */
/*
 * What the fuzz targets over results (results.c) and stores (store.c)
 * share: the guide in every format, compare, and the checks every output
 * must pass (valid UTF-8, json that parses, no md or rst markup from the
 * input).
 */
#include "common.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/text.h"
#include "gate/compare.h"
#include "guide/writer.h"

static char tmpdir[4096];

static void remove_tmpdir(void)
{
	rmdir(tmpdir);
}

const char *fuzz_tmpdir(void)
{
	if (!tmpdir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(tmpdir, sizeof(tmpdir), "%s/pg-fuzz.XXXXXX", t && t[0] ? t : "/tmp");
		if (!mkdtemp(tmpdir)) {
			perror(tmpdir);
			abort();
		}
		atexit(remove_tmpdir);
	}
	return tmpdir;
}

/* The rst guide's directives are its own: its tables, its contents, and
 * one raw html style block before the contents (guide_rst.c); any other
 * came from the input. */
static void check_rst_directives(const char *s, size_t n)
{
	static const char style[] = ".. raw:: html\n\n    <style>";
	int raws = 0, contents = 0;
	for (size_t i = 0; i + 3 <= n; i++) {
		if (!(i == 0 || s[i - 1] == '\n') || memcmp(s + i, ".. ", 3) != 0)
			continue;
		/* a table, with its caption or without (under a heading that says it) */
		if (n - i >= 15 && (memcmp(s + i, ".. csv-table:: ", 15) == 0 || memcmp(s + i, ".. csv-table::\n", 15) == 0))
			continue;
		if (n - i >= 14 && memcmp(s + i, ".. contents::\n", 14) == 0) {
			contents++;
			continue;
		}
		if (n - i >= sizeof(style) - 1 && memcmp(s + i, style, sizeof(style) - 1) == 0 && !raws++ && !contents)
			continue;
		fprintf(stderr, "an rst directive from the input at %zu\n", i);
		abort();
	}
}

void fuzz_check_text(const char *fmt, const char *s, size_t n)
{
	/* what LAVA takes for a signal anywhere in a line of the job's log:
	 * no format but csv (data, verbatim) may print one from the input */
	if (strcmp(fmt, "csv") != 0 && memmem(s, n, "<LAVA_SIGNAL", 12)) {
		fprintf(stderr, "%s output holds a LAVA signal\n", fmt);
		abort();
	}
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
	/* json on a console must not hold a LAVA signal (core/text.h) */
	if (strcmp(fmt, "json") == 0 && memchr(s, '<', n)) {
		fprintf(stderr, "raw '<' in json output\n");
		abort();
	}
	if (strcmp(fmt, "md") == 0)
		for (size_t i = 0; i < n; i++)
			if (s[i] == '<' && (i == 0 || s[i - 1] != '\\')) {
				fprintf(stderr, "raw '<' in md output at %zu\n", i);
				abort();
			}
	if (strcmp(fmt, "rst") == 0)
		check_rst_directives(s, n);
}

/* The guide of runs in format wr, malloc'd; NULL when building failed. */
char *fuzz_guide_text(const struct pg_rrun *const *runs, int n, const struct pg_writer *wr, int baseline,
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

void fuzz_every_format(const struct pg_rrun *const *runs, int n, int baseline)
{
	const struct pg_writer *const all[] = { &pg_writer_md, &pg_writer_rst, &pg_writer_csv, &pg_writer_json,
						&pg_writer_html };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		size_t len;
		char *t = fuzz_guide_text(runs, n, all[i], baseline, &len);
		if (t)
			fuzz_check_text(all[i]->name, t, len);
		free(t);
	}
}

void fuzz_compare(const struct pg_rrun *base, const struct pg_rrun *new)
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
		fuzz_check_text(json ? "json" : "compare md", buf, len);
		free(buf);
	}
	pg_comparison_free(&c);
}

