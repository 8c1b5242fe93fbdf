/* SPDX-License-Identifier: MIT */
/* A section written as several tables (one per medium and configuration,
 * one per UDP test by frame size), what a table need not say (empty and
 * all-skipped columns, notes that differ in numbers) and charts that say
 * something (a log axis over decades, no constant, no bar alone). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "guide/guide.h"
#include "guide/plots.h"
#include "guide/svg.h"
#include "guide/table.h"
#include "guide/writer.h"

static struct pg_record res(const char *bench, const char *params, const char *metric, double med)
{
	struct pg_record x = { 0 };
	x.bench = (char *)bench;
	x.params = (char *)params;
	x.metric = (char *)metric;
	x.unit = (char *)"MB/s";
	x.status = PG_OK;
	x.higher = 1;
	x.median = x.min = x.max = med;
	x.section = (char *)"Disks";
	x.have_busy = 1;
	x.busy_pct = 10;
	return x;
}

static void templates(void **state)
{
	(void)state;
	struct pg_grow row = { .bench = "t.udp", .params = "{\"dir\":\"in\",\"size\":18}", .title = "UDP" };
	struct pg_record x = { .note = (char *)"medium=emmc; fs=ext4; engine=psync" };
	char buf[200];
	assert_int_equal(pg_template_fill("{size+46}|{#size}", &row, NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "64|18");
	assert_int_equal(pg_template_fill("{^medium} {^fs}: {engine}", &row, &x, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "EMMC EXT4: psync");
	assert_int_equal(pg_template_fill("{title}, {dir=in?ingress|egress}", &row, &x, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "UDP, ingress");
	/* a value nothing records: counted, and left out */
	assert_int_equal(pg_template_fill("model {model}", &row, &x, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "model ");
	double v;
	assert_true(pg_template_number("{size+46}", &row, &v));
	assert_true(v == 64);
	assert_false(pg_template_number("{medium}", &row, &v));
	assert_true(pg_template_names("{^medium} {fs}; {engine}", "fs"));
	assert_false(pg_template_names("{^medium} {fs}; {engine}", "path"));
}

#define DISKS "[{\"title\":\"Disks\",\"order\":110,\"cpu_load\":true,\"rows_by\":\"bs\"," \
	      "\"rows_title\":\"Buffer size (bytes)\",\"tables\":\"{^medium} {^fs}; {engine}; queue depth {depth}\"," \
	      "\"place\":\"path\"}]"

/* Two boards on different media, one of them in two configurations: a
 * table each, named by the medium and what tells the configurations
 * apart, never by the path, which a note under the table says. */
static void tables_per_medium(void **state)
{
	(void)state;
	struct pg_record a[] = { res("t.wr", "{\"bs\":4096,\"depth\":1,\"path\":\"/mnt/x\"}", "bandwidth", 10),
				 res("t.wr", "{\"bs\":65536,\"depth\":1,\"path\":\"/mnt/x\"}", "bandwidth", 20),
				 res("t.wr", "{\"bs\":4096,\"depth\":4,\"path\":\".\"}", "bandwidth", 30) };
	a[0].note = a[1].note = (char *)"medium=emmc; fs=ext4; engine=psync; depth=1";
	a[2].note = (char *)"medium=emmc; fs=ext4; engine=io_uring; depth=4";
	struct pg_record b[] = { res("t.wr", "{\"bs\":4096,\"depth\":1,\"path\":\"/data\"}", "bandwidth", 40) };
	b[0].note = (char *)"medium=sd; fs=ext4; engine=psync; depth=1";
	struct pg_rrun runs[] = { { .id = (char *)"a", .board = (char *)"A", .res = a, .nres = 3, .sections = (char *)DISKS },
				  { .id = (char *)"b", .board = (char *)"B", .res = b, .nres = 1, .sections = (char *)DISKS } };
	const struct pg_rrun *p[] = { &runs[0], &runs[1] };
	struct pg_guide g;
	struct pg_parts parts;
	assert_int_equal(pg_guide_build(&g, p, 2), 0);
	assert_int_equal(pg_section_parts(&g, 0, &parts), 0);
	assert_int_equal(parts.n, 3);
	assert_false(parts.flat);
	assert_string_equal(parts.name[0], "EMMC EXT4: psync, queue depth 1");
	assert_string_equal(parts.name[1], "EMMC EXT4: io_uring, queue depth 4");
	assert_string_equal(parts.name[2], "SD EXT4: psync, queue depth 1");
	/* the path in a note under the table, never in its settings (issue 38) */
	assert_null(strstr(parts.intro[0], "path"));
	assert_null(strstr(parts.intro[2], "path"));
	struct pg_table t;
	assert_int_equal(pg_table_section_part(&g, 0, 0, &parts, 0, &t), 0);
	assert_non_null(t.legend);
	assert_non_null(strstr(t.legend, "Where it ran: path /mnt/x (A)."));
	/* board A alone (B's column had nothing here: gone); two sizes */
	assert_int_equal(t.ncols, 3);
	assert_string_equal(t.head[1].text, "A: t.wr bandwidth (MB/s)");
	assert_null(strstr(t.head[1].text, "path"));
	assert_int_equal(t.nrows, 2);
	assert_string_equal(pg_table_cell(&t, 1, 1)->text, "20.00");
	pg_table_free(&t);
	assert_int_equal(pg_table_section_part(&g, 0, 0, &parts, 2, &t), 0);
	assert_non_null(strstr(t.legend, "Where it ran: path /data (B)."));
	assert_int_equal(t.nrows, 1);
	assert_string_equal(t.head[1].text, "B: t.wr bandwidth (MB/s)");
	assert_string_equal(pg_table_cell(&t, 0, 1)->text, "40.00");
	pg_table_free(&t);
	pg_parts_free(&parts);
	pg_guide_free(&g);
}

#define NET "[{\"title\":\"Net\",\"order\":100,\"cpu_load\":true,\"rows_by\":\"size\"," \
	    "\"rows_of\":\"t.udp\",\"rows_title\":\"Frame (bytes)|Datagram (bytes)\",\"rows_shown\":\"{size+46}|{#size}\"," \
	    "\"tables\":\"{title}\",\"metric_titles\":\"kpps=Packets per second\"}]"

/* UDP rows by frame size, in size order, frame and datagram named, the
 * CPU load after Mbit/s and kpps and before the loss; the TCP row in a
 * table of its own before them. */
static void udp_by_frame(void **state)
{
	(void)state;
	struct pg_record a[] = { res("t.udp", "{\"size\":1472}", "throughput", 900),
				 res("t.udp", "{\"size\":1472}", "kpps", 80),
				 res("t.udp", "{\"size\":1472}", "loss", 1),
				 res("t.udp", "{\"size\":18}", "throughput", 30),
				 res("t.udp", "{\"size\":18}", "kpps", 200),
				 res("t.udp", "{\"size\":18}", "loss", 2),
				 res("t.tcp", "{}", "throughput", 940) };
	for (int i = 0; i < 7; i++) {
		a[i].section = (char *)"Net";
		a[i].title = (char *)(i < 6 ? "UDP stream" : "TCP stream");
	}
	a[2].higher = a[5].higher = 0;
	struct pg_rrun run = { .id = (char *)"a", .board = (char *)"A", .res = a, .nres = 7, .sections = (char *)NET };
	const struct pg_rrun *p = &run;
	struct pg_guide g;
	struct pg_parts parts;
	struct pg_table t;
	assert_int_equal(pg_guide_build(&g, &p, 1), 0);
	assert_int_equal(pg_section_parts(&g, 0, &parts), 0);
	assert_true(parts.flat);
	assert_int_equal(parts.n, 1);
	assert_string_equal(parts.name[0], "UDP stream");
	assert_int_equal(pg_table_section_part(&g, 0, 0, &parts, -1, &t), 0);
	assert_int_equal(t.nrows, 1);
	pg_table_free(&t);
	assert_int_equal(pg_table_section_part(&g, 0, 0, &parts, 0, &t), 0);
	const char *head[] = { "Frame (bytes)", "Datagram (bytes)", "A: throughput (MB/s)", "A: Packets per second (MB/s)",
			       "A: CPU load (system) %", "A: loss (MB/s)" };
	assert_int_equal(t.ncols, 6);
	for (int c = 0; c < 6; c++)
		assert_string_equal(t.head[c].text, head[c]);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(pg_table_cell(&t, 0, 0)->text, "64");
	assert_string_equal(pg_table_cell(&t, 0, 1)->text, "18");
	assert_string_equal(pg_table_cell(&t, 1, 0)->text, "1518");
	assert_string_equal(pg_table_cell(&t, 1, 3)->text, "80.00");
	pg_table_free(&t);
	pg_parts_free(&parts);
	pg_guide_free(&g);
}

static void put(struct pg_table *t, int r, int c, enum pg_tkind kind, int col, const char *text)
{
	assert_int_equal(pg_table_set(r < 0 ? &t->head[c] : pg_table_cell(t, r, c), kind, col, "%s", text), 0);
}

/* An empty column goes (a ratio where the baseline has no figure); in a
 * pivoted table one whose every figure was skipped becomes a line under
 * the table (in a flat one, a board's column, it stays: a line would not
 * say which rows); notes no cell refers to any more go, the others are
 * numbered anew. */
static void prune_table(struct pg_table *t, int pivoted)
{
	static struct pg_gcell skip = { .present = 1, .status = PG_SKIP, .reason = "no AF_ALG" };
	static struct pg_gcell ok = { .present = 1, .status = PG_OK, .median = 1, .min = 1, .max = 1 };
	memset(t, 0, sizeof(*t));
	assert_int_equal(pg_table_alloc(t, 2, 4), 0);
	t->pivoted = pivoted;
	put(t, -1, 0, PG_T_NAME, -1, "Algorithm");
	put(t, -1, 1, PG_T_VALUE, 0, "A: kernel");
	put(t, -1, 2, PG_T_VALUE, 0, "A: openssl");
	put(t, -1, 3, PG_T_RATIO, 0, "A / B");
	for (int r = 0; r < 2; r++) {
		put(t, r, 0, PG_T_NAME, -1, r ? "sha1" : "aes");
		put(t, r, 1, PG_T_VALUE, 0, "skipped");
		pg_table_cell(t, r, 1)->cell = &skip;
		pg_table_cell(t, r, 1)->note = pg_table_note(t, "no AF_ALG");
		put(t, r, 2, PG_T_VALUE, 0, "1.00");
		pg_table_cell(t, r, 2)->cell = &ok;
		put(t, r, 3, PG_T_RATIO, 0, "");
	}
	pg_table_cell(t, 1, 2)->note = pg_table_note(t, "noisy: CV 6% over 10 samples");
	assert_int_equal(pg_table_prune(t), 0);
}

static void prune_columns(void **state)
{
	(void)state;
	struct pg_table t;
	prune_table(&t, 1);
	assert_int_equal(t.ncols, 2);
	assert_string_equal(t.head[1].text, "A: openssl");
	assert_string_equal(t.legend, "A: kernel: skipped: no AF_ALG.");
	assert_int_equal(t.nnotes, 1);
	assert_int_equal(pg_table_cell(&t, 1, 1)->note, 1);
	assert_string_equal(t.notes[0], "noisy: CV 6% over 10 samples");
	pg_table_free(&t);
	prune_table(&t, 0);
	assert_int_equal(t.ncols, 3);
	assert_string_equal(t.head[1].text, "A: kernel");
	assert_null(t.legend);
	assert_int_equal(t.nnotes, 2);
	assert_string_equal(t.notes[pg_table_cell(&t, 1, 1)->note - 1], "no AF_ALG");
	pg_table_free(&t);
}

/* Notes that differ only in their numbers: one, with each number's range
 * and how many cells it is of; names with digits in them are no numbers. */
static void merge_notes(void **state)
{
	(void)state;
	struct pg_table t = { 0 };
	const char *notes[] = { "disturbed: others used 55% of the CPUs (at most 60%)",
				"disturbed: others used 90% of the CPUs (at most 95%)",
				"disturbed: others used 70% of the CPUs (at most 95%)", "aes-128-cbc: no driver",
				"aes-256-cbc: no driver", "wide interval: +/-19.6% (95%)" };
	assert_int_equal(pg_table_alloc(&t, 6, 1), 0);
	for (int r = 0; r < 6; r++) {
		put(&t, r, 0, PG_T_VALUE, 0, "1.00");
		pg_table_cell(&t, r, 0)->note = pg_table_note(&t, notes[r]);
	}
	assert_int_equal(pg_table_merge_notes(&t), 0);
	assert_int_equal(t.nnotes, 4);
	assert_string_equal(t.notes[0], "3 cells: disturbed: others used 55-90% of the CPUs (at most 60-95%)");
	assert_string_equal(t.notes[1], "aes-128-cbc: no driver");
	assert_string_equal(t.notes[2], "aes-256-cbc: no driver");
	assert_string_equal(t.notes[3], "wide interval: +/-19.6% (95%)");
	assert_int_equal(pg_table_cell(&t, 2, 0)->note, 1);
	assert_int_equal(pg_table_cell(&t, 5, 0)->note, 4);
	pg_table_free(&t);
}

/* A figure whose stated interval is wider than +/-10%, nothing else to
 * doubt about it: marked, its note saying how wide. */
static void wide_interval(void **state)
{
	(void)state;
	struct pg_record x = { .status = PG_OK, .nsamples = 1, .stop = (char *)"once", .ci_level = 0.95,
			       .ci_rel = 0.196 };
	struct pg_gcol col = { 0 };
	struct pg_gcell c = { .present = 1, .status = PG_OK };
	char note[200];
	pg_doubt_add(&c, &x, &col, 0);
	assert_true(c.doubt & PG_DOUBT_WIDE);
	assert_true(pg_doubt_text(&c, note, sizeof(note)));
	assert_string_equal(note, "wide interval: +/-19.6% (95%)");
	x.ci_rel = 0.05;
	c = (struct pg_gcell){ .present = 1, .status = PG_OK };
	pg_doubt_add(&c, &x, &col, 0);
	assert_false(c.doubt);
}

/* Text of an SVG drawn into memory. */
static char *draw(void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

static void bars(FILE *f, const void *b)
{
	pg_svg_bars(f, b);
}

static void lines(FILE *f, const void *p)
{
	pg_svg_lines(f, p);
}

/* Figures over more than a decade: a log axis, said on it; within one, a
 * linear axis from 0. A line at one figure throughout is a constant. */
static void log_axes(void **state)
{
	(void)state;
	const char *labels[] = { "aes", "sha" };
	double v[] = { 12700, 500 };
	struct pg_bars b = { .title = "t", .axis = "MB/s", .n = 2, .labels = labels, .v = v, .ref = NAN };
	char *s = draw(bars, &b);
	assert_non_null(strstr(s, "MB/s, log scale from 100 to 100000"));
	free(s);
	v[0] = 900;
	s = draw(bars, &b);
	assert_non_null(strstr(s, "MB/s, from 0"));
	free(s);
	double x[] = { 64, 1518 }, y[] = { 10, 900 }, xs[] = { 64, 1518 };
	char ticks[2][48] = { "64", "1518" };
	struct pg_series ln = { .name = "A", .n = 2, .x = x, .y = y };
	struct pg_plot p = { .title = "t", .xlabel = "Frame size (bytes)", .ylabel = "Mbit/s", .logx = 1, .nx = 2,
			     .xs = xs, .xticks = ticks, .ns = 1, .s = &ln };
	s = draw(lines, &p);
	assert_non_null(strstr(s, "Mbit/s (log scale)"));
	free(s);
	assert_false(pg_plot_constant(&p));
	y[0] = y[1] = 100;
	assert_true(pg_plot_constant(&p));
}


#define KERNEL "\"backend\":\"kernel\",\"driver\":\"auto\",\"op\":\"encrypt\",\"path\":\"sendmsg\",\"threads\":1"
#define OPENSSL "\"backend\":\"openssl\",\"driver\":\"auto\",\"op\":\"encrypt\",\"path\":\"sendmsg\",\"threads\":1"

/* A published table's row names its algorithm and size alone: it goes
 * beside the measured row at the benchmark's defaults (backend=openssl,
 * op=encrypt...), not the first measured row it does not contradict (a
 * run records the kernel's first here); in the table and on the charts.
 * With no default to go by and two to choose from, a column of its own. */
static void published_join(void **state)
{
	(void)state;
	assert_int_equal(pg_row_joins("crypto.aes-128-cbc", "{}", "{" OPENSSL "}"), PG_JOIN_DEFAULT);
	assert_int_equal(pg_row_joins("crypto.aes-128-cbc", "{}", "{" KERNEL "}"), PG_JOIN_SOME);
	assert_int_equal(pg_row_joins("crypto.aes-128-cbc", "{\"backend\":\"kernel\"}", "{" OPENSSL "}"),
			 PG_JOIN_NO);
	/* a digest has no op: the cipher's says nothing of it */
	assert_int_equal(pg_row_joins("crypto.sha256", "{}", "{" OPENSSL "}"), PG_JOIN_DEFAULT);
	/* a benchmark perfguide does not know has no defaults */
	assert_int_equal(pg_row_joins("other.x", "{}", "{\"a\":1}"), PG_JOIN_SOME);
	int how[] = { PG_JOIN_SOME, PG_JOIN_DEFAULT }, two[] = { PG_JOIN_SOME, PG_JOIN_SOME },
	    one[] = { PG_JOIN_NO, PG_JOIN_SOME };
	assert_int_equal(pg_join_pick(how, 2), 1);
	assert_int_equal(pg_join_pick(two, 2), -1);
	assert_int_equal(pg_join_pick(one, 2), 1);

	struct pg_record m[] = { res("crypto.aes-128-cbc", "{" KERNEL ",\"size\":16}", "throughput", 10),
				 res("crypto.aes-128-cbc", "{" KERNEL ",\"size\":1024}", "throughput", 20),
				 res("crypto.aes-128-cbc", "{" OPENSSL ",\"size\":16}", "throughput", 30),
				 res("crypto.aes-128-cbc", "{" OPENSSL ",\"size\":1024}", "throughput", 40) };
	struct pg_record pub[] = { res("crypto.aes-128-cbc", "{\"size\":16}", "throughput", 50),
				   res("crypto.aes-128-cbc", "{\"size\":1024}", "throughput", 60) };
	for (int i = 0; i < 4; i++)
		m[i].section = (char *)"Crypto";
	for (int i = 0; i < 2; i++)
		pub[i].section = (char *)"Crypto";
	struct pg_rrun runs[] = { { .id = (char *)"m", .board = (char *)"M", .res = m, .nres = 4 },
				  { .id = (char *)"p", .board = (char *)"P", .res = pub, .nres = 2,
				    .version = (char *)"published table" } };
	const struct pg_rrun *p[] = { &runs[0], &runs[1] };
	struct pg_guide g;
	struct pg_table t;
	assert_int_equal(pg_guide_build(&g, p, 2), 0);
	assert_int_equal(pg_table_section(&g, 0, 0, &t), 0);
	/* P's figures under the openssl column, beside M's */
	assert_int_equal(t.ncols, 8);
	assert_string_equal(t.head[2].text, "M: backend=kernel throughput (MB/s)");
	assert_string_equal(t.head[4].text, "M: backend=openssl throughput (MB/s)");
	assert_string_equal(t.head[6].text, "P: backend=openssl throughput (MB/s)");
	assert_int_equal(t.nrows, 2);
	assert_string_equal(pg_table_cell(&t, 0, 6)->text, "50.00");
	assert_string_equal(pg_table_cell(&t, 1, 6)->text, "60.00");
	pg_table_free(&t);
	char used[16] = { 0 };
	struct pg_plot *pl;
	int n;
	assert_int_equal(pg_section_plots(&g, 0, used, &pl, &n), 0);
	assert_int_equal(n, 2);
	for (int i = 0; i < n; i++) {
		int openssl = strstr(pl[i].title, "backend=openssl") != NULL;
		assert_true(openssl || strstr(pl[i].title, "backend=kernel"));
		assert_int_equal(pl[i].ns, 2);
		assert_string_equal(pl[i].s[1].name, "P");
		assert_int_equal(pl[i].s[1].n, openssl ? 2 : 0);
	}
	pg_plots_free(pl, n);
	pg_guide_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(templates),
		cmocka_unit_test(tables_per_medium),
		cmocka_unit_test(udp_by_frame),
		cmocka_unit_test(prune_columns),
		cmocka_unit_test(merge_notes),
		cmocka_unit_test(wide_interval),
		cmocka_unit_test(log_axes),
		cmocka_unit_test(published_join),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
