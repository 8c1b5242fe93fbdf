/* SPDX-License-Identifier: MIT */
/*
 * Issue 13: results files, the store and the report as untrusted input. One
 * test per defect of the audit that the library shows (the command-line ones
 * are in tests/e2e/hardening.sh); each failed before its fix.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sqlite3.h>
#include <cmocka.h>

#include "core/escape.h"
#include "core/text.h"
#include "gate/compare.h"
#include "store/store.h"
#include "guide/writer.h"

static char dir[] = "/tmp/pg-harden-test.XXXXXX";

static const char *path(const char *name)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

#define RUN(id, board) \
	"{\"type\":\"run\",\"schema\":\"perfguide/1\",\"id\":\"" id "\",\"board\":\"" board "\"," \
	"\"started\":\"2026-01-01T00:00:00Z\",\"machine\":{\"dt_model\":\"model\"},\"build\":{\"version\":\"1\"}}\n"
#define END "{\"type\":\"end\",\"finished\":\"f\",\"status\":\"complete\"}\n"

/* A results file's text read as perfguide reads one; -1 and err when refused. */
static int read_text(const char *text, size_t len, struct pg_rrun **runs, int *n, char *err, size_t elen)
{
	FILE *f = fmemopen((void *)text, len, "r");
	assert_non_null(f);
	int rc = pg_rrun_read_stream(f, "t.jsonl", runs, n, err, elen);
	fclose(f);
	return rc;
}

static void read_ok(const char *text, struct pg_rrun **runs, int *n)
{
	char err[512] = "";
	if (read_text(text, strlen(text), runs, n, err, sizeof(err)) < 0)
		fail_msg("refused: %s", err);
}

static void free_runs(struct pg_rrun *runs, int n)
{
	for (int i = 0; i < n; i++)
		pg_rrun_free(&runs[i]);
	free(runs);
}

/* The guide of runs in one format, malloc'd. */
static char *guide(const struct pg_rrun *runs, int n, const struct pg_writer *wr, size_t *len)
{
	const struct pg_rrun *p[16];
	for (int i = 0; i < n; i++)
		p[i] = &runs[i];
	struct pg_guide g;
	char *buf = NULL;
	assert_int_equal(pg_guide_build(&g, p, n), 0);
	FILE *m = open_memstream(&buf, len);
	assert_int_equal(pg_guide_write(&g, wr, m), 0);
	fclose(m);
	pg_guide_free(&g);
	assert_true(pg_utf8_valid(buf, *len));
	return buf;
}

static char *result_line(const char *bench, const char *params, const char *metric, double median, const char *extra)
{
	char *s = NULL;
	assert_true(asprintf(&s, "{\"type\":\"result\",\"bench\":\"%s\",\"params\":%s,\"metric\":\"%s\",\"unit\":\"u\","
			     "\"samples\":[%.17g],\"median\":%.17g,\"min\":%.17g,\"max\":%.17g,\"status\":\"ok\"%s}\n",
			     bench, params, metric, median, median, median, median, extra ? extra : "") > 0);
	return s;
}

static char *cat(char *a, const char *b)
{
	size_t la = a ? strlen(a) : 0;
	a = realloc(a, la + strlen(b) + 1);
	strcpy(a + la, b);
	return a;
}

/* 1: a run that repeats a key (size=64k,64k,64k) adds a median per repeat;
 * the guide sized its medians by the number of runs and wrote past them. */
static void defect1_repeated_key(void **state)
{
	(void)state;
	char *text = cat(NULL, RUN("r1", "b"));
	for (int i = 1; i <= 101; i++) {
		char *l = result_line("mem.bw.rd", "{\"size\":65536}", "bandwidth", i, NULL);
		text = cat(text, l);
		free(l);
	}
	text = cat(text, END);
	struct pg_rrun *runs;
	int n;
	read_ok(text, &runs, &n);
	struct pg_guide g;
	const struct pg_rrun *p = &runs[0];
	assert_int_equal(pg_guide_build(&g, &p, 1), 0);
	assert_int_equal(g.nrows, 1);
	assert_true(g.rows[0].cells[0].median == 51);
	assert_true(g.rows[0].cells[0].min == 1 && g.rows[0].cells[0].max == 101);
	pg_guide_free(&g);
	free_runs(runs, n);
	free(text);
}

/* 2: names of 700 bytes (and long multi-byte labels) in every format; html
 * cut the key and dereferenced what strchr did not find. */
static void defect2_long_names(void **state)
{
	(void)state;
	char big[701], label[1201] = "";
	memset(big, 'a', 700);
	big[700] = '\0';
	for (int i = 0; i < 400; i++)
		strcat(label, "\xc3\xa9");	/* é: cut anywhere, it must stay UTF-8 */
	char params[800], *extra = NULL;
	snprintf(params, sizeof(params), "{\"%s\":1}", big);
	assert_true(asprintf(&extra, ",\"label\":\"%s\"", label) > 0);
	char *text = cat(NULL, RUN("r1", "b"));
	char *l[4] = { result_line(big, "{\"size\":1}", "m", 1, NULL), result_line("x.y", "{\"size\":1}", big, 2, NULL),
		       result_line("x.z", params, "m", 3, NULL), result_line("x.l", "{\"size\":1}", "m", 4, extra) };
	for (int i = 0; i < 4; i++) {
		text = cat(text, l[i]);
		free(l[i]);
	}
	text = cat(text, END);
	char *two = cat(strdup(text), "");
	two = cat(two, strstr(text, "{\"type\":\"result\"") ? "" : "");
	struct pg_rrun *runs;
	int n;
	read_ok(text, &runs, &n);
	const struct pg_writer *const all[] = { &pg_writer_md, &pg_writer_rst, &pg_writer_csv, &pg_writer_json,
						&pg_writer_html };
	for (int i = 0; i < 5; i++) {
		size_t len;
		free(guide(runs, n, all[i], &len));	/* valid UTF-8, no crash */
	}
	free_runs(runs, n);
	free(text);
	free(two);
	free(extra);
}

/* 3: a median of 1.7e308 made the chart's axis infinite and its tick loop
 * endless (gigabytes of html); now the axis is clipped. */
static void defect3_huge_value_chart(void **state)
{
	(void)state;
	char *text = cat(NULL, RUN("r1", "b"));
	const double v[] = { 1.7e308, 1.7e308, 1 };
	for (int i = 0; i < 3; i++) {
		char params[32], *l;
		snprintf(params, sizeof(params), "{\"size\":%d}", 1024 << i);
		l = result_line("x.sweep", params, "m", v[i], NULL);
		text = cat(text, l);
		free(l);
	}
	text = cat(text, END);
	struct pg_rrun *runs;
	int n;
	read_ok(text, &runs, &n);
	size_t len;
	char *html = guide(runs, n, &pg_writer_html, &len);
	assert_true(len < 100000);
	assert_non_null(strstr(html, "<svg"));
	assert_null(strstr(html, "inf"));
	free(html);
	char *md = guide(runs, n, &pg_writer_md, &len);
	assert_non_null(strstr(md, "| 1.7e+308 |"));
	free(md);
	free_runs(runs, n);
	free(text);
	/* a value that is not finite is refused when the file is read */
	char err[256];
	char *bad = cat(strdup(RUN("r1", "b")), "{\"type\":\"result\",\"bench\":\"x\",\"params\":{},\"metric\":\"m\","
						 "\"samples\":[1e999],\"median\":1,\"min\":1,\"max\":1,\"status\":\"ok\"}\n");
	assert_int_equal(read_text(bad, strlen(bad), &runs, &n, err, sizeof(err)), -1);
	free(bad);
}

#define INJECT "x\\n\\n.. raw:: html\\n\\n   <script>alert(1)</script>\\n"

/* 4: markup in names, labels, notes and reasons is text in every format. */
static void defect4_markup(void **state)
{
	(void)state;
	char *text = cat(NULL, RUN("r1", "b|<i>x</i> [a](javascript:alert(1))"));
	text = cat(text, "{\"type\":\"result\",\"bench\":\"x.y\",\"params\":{\"size\":1},\"metric\":\"m\",\"samples\":[1],"
			 "\"median\":1,\"min\":1,\"max\":1,\"status\":\"ok\",\"label\":\"=cmd|a `c <javascript:alert(1)>`_ "
			 "javascript:alert(1)" INJECT "\",\"note\":\"n" INJECT "\"}\n");
	text = cat(text, "{\"type\":\"result\",\"bench\":\"x.z\",\"params\":{},\"metric\":\"m\",\"status\":\"error\","
			 "\"reason\":\"r" INJECT "|\"}\n" END);
	struct pg_rrun *runs;
	int n;
	read_ok(text, &runs, &n);
	size_t len;
	char *md = guide(runs, n, &pg_writer_md, &len);
	/* no raw HTML, and nothing LAVA takes for a signal: '<' is an entity */
	assert_null(strchr(md, '<'));
	assert_non_null(strstr(md, "| \\=cmd\\|a") ? md : strstr(md, "=cmd\\|a"));
	assert_true(strstr(md, "](javascript")[-1] == '\\');	/* no link */
	assert_non_null(strstr(md, "\\[a\\]"));
	for (char *line = md; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		assert_false(strncmp(line, ".. raw", 6) == 0);
	free(md);
	char *rst = guide(runs, n, &pg_writer_rst, &len);
	/* no directive but the tables, the contents and the guide's own style
	 * (one raw block, before the contents: nothing from the results) */
	for (char *line = rst; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		assert_false(strncmp(line, ".. ", 3) == 0 && strncmp(line, ".. csv-table:: ", 15) != 0 &&
			     strncmp(line, ".. csv-table::\n", 15) != 0 &&
			     strncmp(line, ".. contents::\n", 14) != 0 && strncmp(line, ".. raw:: html\n", 14) != 0);
	char *raw = strstr(rst, "\n.. raw:: html\n");
	assert_non_null(raw);
	assert_null(strstr(raw + 1, "\n.. raw::"));
	assert_true(raw < strstr(rst, "\n.. contents::\n"));
	static const char head[] = "\n.. raw:: html\n\n    <style>";
	assert_int_equal(strncmp(raw, head, sizeof(head) - 1), 0);
	assert_null(strstr(rst, "javascript:"));	/* javascript\: is no link */
	assert_null(strstr(rst, "`_"));
	free(rst);
	char *csv = guide(runs, n, &pg_writer_csv, &len);
	assert_non_null(strstr(csv, "\"'=cmd|a"));	/* no formula */
	/* no newline inside a cell: every line after the header is a row */
	for (char *line = strchr(csv, '\n') + 1; *line; line = strchr(line, '\n') + 1)
		assert_int_equal(line[0], '"');
	free(csv);
	char *html = guide(runs, n, &pg_writer_html, &len);
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<i>"));
	free(html);
	/* compare's table escapes | as well */
	struct pg_cmp_side side = { &runs[0], 1 };
	struct pg_cmp_opts co = { .threshold_pct = 5 };
	struct pg_comparison c;
	assert_int_equal(pg_compare_sides(&side, &side, &co, &c), 0);
	struct pg_verdicts v = { .base = &side, .new = &side, .c = &c };
	char *buf = NULL;
	FILE *m = open_memstream(&buf, &len);
	pg_compare_write_md(m, &v);
	fclose(m);
	assert_non_null(strstr(buf, "b\\|&lt;i\\>x"));
	assert_non_null(strstr(buf, "\\=cmd\\|a") ? buf : strstr(buf, "=cmd\\|a"));
	assert_null(strstr(buf, "\x0a.. raw"));
	free(buf);
	pg_comparison_free(&c);
	free_runs(runs, n);
	free(text);
}

static void set_version(const char *db, int v)
{
	sqlite3 *s;
	char sql[64];
	assert_int_equal(sqlite3_open(db, &s), SQLITE_OK);
	snprintf(sql, sizeof(sql), "UPDATE perfguide_schema SET version = %d", v);
	assert_int_equal(sqlite3_exec(s, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
}

static struct pg_store *new_store(const char *name)
{
	char err[512];
	unlink(path(name));
	struct pg_store *s = pg_store_open(path(name), 1, err, sizeof(err));
	assert_non_null(s);
	struct pg_rrun *runs;
	int n, how;
	read_ok(RUN("r1", "b") "{\"type\":\"result\",\"bench\":\"x\",\"params\":{},\"metric\":\"m\",\"samples\":[1],"
		"\"median\":1,\"min\":1,\"max\":1,\"status\":\"ok\"}\n" END, &runs, &n);
	assert_int_equal(s->ops->add_runs(s, runs, n, &how, err, sizeof(err)), 0);
	free_runs(runs, n);
	return s;
}

/* 6: a negative schema version indexed migrations[] below its start
 * (a crash, or bytes before it run as SQL); 0 is no version either. The
 * range the store knows, and a newer store read but never written. */
static void defect6_schema_out_of_range(void **state)
{
	(void)state;
	char err[512];
	pg_store_close(new_store("v.db"));
	const int bad[] = { -3, 0, -2147483647 };
	for (int i = 0; i < 3; i++) {
		set_version(path("v.db"), bad[i]);
		assert_null(pg_store_open(path("v.db"), 0, err, sizeof(err)));
		assert_non_null(strstr(err, "is not one perfguide writes"));
		assert_null(pg_store_open(path("v.db"), 1, err, sizeof(err)));
	}
	/* newer, with the columns this perfguide reads: read, not written */
	set_version(path("v.db"), pg_store_sqlite_version() + 4);
	struct pg_store *s = pg_store_open(path("v.db"), 0, err, sizeof(err));
	assert_non_null(s);
	struct pg_run_summary *list;
	int n;
	assert_int_equal(s->ops->list_runs(s, &list, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	pg_run_summaries_free(list, n);
	struct pg_rrun r;
	assert_int_equal(s->ops->load_run(s, "r1", &r, err, sizeof(err)), 1);
	assert_int_equal(r.nres, 1);
	assert_int_equal(s->ops->add_run(s, &r, err, sizeof(err)), -1);
	pg_rrun_free(&r);
	pg_store_close(s);
	assert_null(pg_store_open(path("v.db"), 1, err, sizeof(err)));
	assert_non_null(strstr(err, "newer than this perfguide writes"));
	/* newer, and without a column this perfguide reads: says what it needs */
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path("v.db"), &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "ALTER TABLE results RENAME COLUMN median TO middle", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_null(pg_store_open(path("v.db"), 0, err, sizeof(err)));
	char want[64];
	snprintf(want, sizeof(want), "knows schema %d", pg_store_sqlite_version() + 4);
	assert_non_null(strstr(err, want));
}

/* 7: perfguides importing into one new store at once: the version was read
 * outside the transaction, and all but one failed creating its tables. */
static void defect7_parallel_imports(void **state)
{
	(void)state;
	unlink(path("p.db"));
	pid_t kids[10];
	for (int i = 0; i < 10; i++) {
		if ((kids[i] = fork()) == 0) {
			char err[512], text[512];
			snprintf(text, sizeof(text), RUN("p%d", "b") END, i);
			struct pg_rrun *runs;
			int n, how;
			FILE *f = fmemopen(text, strlen(text), "r");
			if (pg_rrun_read_stream(f, "t", &runs, &n, err, sizeof(err)) < 0)
				_exit(3);
			struct pg_store *s = pg_store_open(path("p.db"), 1, err, sizeof(err));
			if (!s) {
				fprintf(stderr, "child %d: %s\n", i, err);
				_exit(1);
			}
			int rc = s->ops->add_runs(s, runs, n, &how, err, sizeof(err));
			pg_store_close(s);
			_exit(rc < 0 ? 2 : 0);
		}
		assert_true(kids[i] > 0);
	}
	for (int i = 0; i < 10; i++) {
		int st;
		assert_int_equal(waitpid(kids[i], &st, 0), kids[i]);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 0);
	}
	char err[512];
	struct pg_store *s = pg_store_open(path("p.db"), 0, err, sizeof(err));
	assert_non_null(s);
	struct pg_run_summary *list;
	int n;
	assert_int_equal(s->ops->list_runs(s, &list, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 10);
	pg_run_summaries_free(list, n);
	pg_store_close(s);
}

/* 9: limits on what one file may hold, each refused with one message. */
static void defect9_limits(void **state)
{
	(void)state;
	char err[512];
	struct pg_rrun *runs;
	int n;
	/* a line longer than the limit, without reading it all into memory */
	size_t big = (size_t)PG_LINE_MAX + 10;
	char *text = malloc(big + 1);
	memset(text, ' ', big);
	text[big - 1] = '\n';
	text[big] = '\0';
	assert_int_equal(read_text(text, big, &runs, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 1: longer than 1048576 bytes"));
	free(text);
	/* more records than the limit: runs without results, one a line */
	char line[160];
	size_t cap = (size_t)(PG_RECORDS_MAX + 1) * 200, at = 0;
	text = malloc(cap);
	for (int i = 0; i <= PG_RECORDS_MAX; i++)
		at += (size_t)snprintf(text + at, cap - at, "%s",
				       (snprintf(line, sizeof(line), RUN("r%d", "b"), i), line));
	assert_int_equal(read_text(text, at, &runs, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "more than 100000 records"));
	free(text);
}

/* 10: ids and board names longer than the store holds, refused with the limit. */
static void defect10_long_names(void **state)
{
	(void)state;
	char err[512], text[1024], id[200], board[200];
	struct pg_rrun *runs;
	int n;
	memset(id, 'i', sizeof(id));
	memset(board, 'b', sizeof(board));
	snprintf(text, sizeof(text), RUN("%.*s", "b") END, PG_RUN_ID_MAX + 1, id);
	assert_int_equal(read_text(text, strlen(text), &runs, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "id is longer than 159 bytes"));
	snprintf(text, sizeof(text), RUN("r", "%.*s") END, PG_BOARD_MAX + 1, board);
	assert_int_equal(read_text(text, strlen(text), &runs, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "board is longer than 127 bytes"));
	/* at the limits: kept whole through the store */
	snprintf(text, sizeof(text), RUN("%.*s", "%.*s") END, PG_RUN_ID_MAX, id, PG_BOARD_MAX, board);
	read_ok(text, &runs, &n);
	struct pg_store *s = new_store("l.db");
	int how;
	assert_int_equal(s->ops->add_runs(s, runs, n, &how, err, sizeof(err)), 0);
	/* a run written into the store by something else, longer than that */
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path("l.db"), &db), SQLITE_OK);
	char sql[512];
	snprintf(sql, sizeof(sql), "INSERT INTO runs(id, board) VALUES ('%.*s', 'x')", 170, id);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	struct pg_run_summary *list;
	int nl;
	assert_int_equal(s->ops->list_runs(s, &list, &nl, err, sizeof(err)), 0);
	assert_int_equal(nl, 2);	/* r1 and the one at the limits; the long one is not listed */
	assert_int_equal((int)strlen(list[1].id) + (int)strlen(list[0].id), PG_RUN_ID_MAX + 2);
	pg_run_summaries_free(list, nl);
	pg_store_close(s);
	free_runs(runs, n);
}

/* 12: control characters in ids and boards refused; a NUL byte in a line
 * refused (it hid the rest of the line); text cut between characters;
 * what reaches a terminal has its control characters escaped. */
static void defect12_text(void **state)
{
	(void)state;
	char err[512];
	struct pg_rrun *runs;
	int n;
	const char *esc = RUN("x\\u001b[31m", "b") END;
	assert_int_equal(read_text(esc, strlen(esc), &runs, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "id holds a control character"));
	const char *c1 = RUN("x", "b\\u009b2J") END;
	assert_int_equal(read_text(c1, strlen(c1), &runs, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "board holds a control character"));
	char nul[] = RUN("x", "b") "{\"type\":\"end\"}\0{\"type\":\"run\"}\n";
	assert_int_equal(read_text(nul, sizeof(nul) - 1, &runs, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 2: a NUL byte"));
	/* UTF-8 cut only between characters */
	char buf[7];
	pg_text_copy(buf, sizeof(buf), "ab\xc3\xa9\xe2\x82\xac");	/* abé€ is 7 bytes */
	assert_string_equal(buf, "ab\xc3\xa9");
	pg_text_copy(buf, sizeof(buf), "abcd\xf0\x9f\x98\x80");	/* an emoji of 4 bytes */
	assert_string_equal(buf, "abcd");
	pg_text_copy(buf, 4, "a\xc3\xa9z");
	assert_string_equal(buf, "a\xc3\xa9");
	/* the terminal gets escapes, not control sequences */
	char t[64];
	pg_term_text("a\x1b[31mb\xc2\x9b\x07\xff\xc3\xa9", t, sizeof(t));
	assert_string_equal(t, "a\\x1b[31mb\\u009b\\x07\\xff\xc3\xa9");
	assert_true(pg_utf8_valid("\xc3\xa9", 2));
	assert_false(pg_utf8_valid("\xed\xa0\x80", 3));	/* a surrogate */
	assert_false(pg_utf8_valid("\xc0\xaf", 2));	/* overlong */
}

/* Issue 40, defect 8h: a block's leading mark that needs a backslash in
 * any case got two, an escaped backslash and the mark bare (rst's "\\<"). */
static void issue40_leading_mark(void **state)
{
	(void)state;
	char *rst = pg_rst_string("<b>", 1);
	assert_non_null(rst);
	assert_string_equal(rst, "\\<\\ b\\>");
	free(rst);
	rst = pg_rst_string("*x", 1);
	assert_string_equal(rst, "\\*x");
	free(rst);
	rst = pg_rst_string("#x", 1);	/* a mark needing none elsewhere still gets one */
	assert_string_equal(rst, "\\#x");
	free(rst);
	char *md = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&md, &len);
	pg_md_text(m, "*x", 1);
	fclose(m);
	assert_string_equal(md, "\\*x");
	free(md);
}

/* Issue 40, defect 8f: a results file with two runs of one id and other
 * content was read by report and compare (one dropped unsaid); import
 * refused it. Now the reader refuses it; the same run twice is one run. */
static void issue40_two_runs_one_id(void **state)
{
	(void)state;
	char err[512];
	struct pg_rrun *runs;
	int n;
#define RES(v) "{\"type\":\"result\",\"bench\":\"x.y\",\"params\":{},\"metric\":\"m\",\"samples\":[" v "]," \
	"\"median\":" v ",\"min\":" v ",\"max\":" v ",\"status\":\"ok\"}\n"
	const char *two = RUN("r", "b") RES("1") END RUN("r", "b") RES("2") END;
	assert_int_equal(read_text(two, strlen(two), &runs, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "two runs of id r with other content"));
	const char *same = RUN("r", "b") RES("1") END RUN("r", "b") RES("1") END;
	assert_int_equal(read_text(same, strlen(same), &runs, &n, err, sizeof(err)), 0);
	for (int i = 0; i < n; i++)
		pg_rrun_free(&runs[i]);
	free(runs);
#undef RES
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defect1_repeated_key),
		cmocka_unit_test(defect2_long_names),
		cmocka_unit_test(defect3_huge_value_chart),
		cmocka_unit_test(defect4_markup),
		cmocka_unit_test(defect6_schema_out_of_range),
		cmocka_unit_test(defect7_parallel_imports),
		cmocka_unit_test(defect9_limits),
		cmocka_unit_test(defect10_long_names),
		cmocka_unit_test(defect12_text),
		cmocka_unit_test(issue40_leading_mark),
		cmocka_unit_test(issue40_two_runs_one_id),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
