/* SPDX-License-Identifier: MIT */
/* A guide a vendor can publish: figures to doubt marked with their notes,
 * intros from what the results record, the seed's crypto table shape,
 * columns per label, the latest result per benchmark, wide tables split. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "guide/guide.h"
#include "guide/table.h"
#include "guide/writer.h"

static struct pg_record res(const char *bench, const char *params, const char *metric, double med)
{
	struct pg_record x = { 0 };
	x.bench = (char *)bench;
	x.params = (char *)params;
	x.metric = (char *)metric;
	x.unit = (char *)"MB/s";
	x.higher = 1;
	x.status = PG_OK;
	x.median = x.min = x.max = med;
	x.nsamples = 5;
	x.stop = (char *)"interval";
	return x;
}

/* The note of the cell at (r, c) of t; "" when it has none. */
static const char *note(const struct pg_table *t, int r, int c)
{
	const struct pg_tcell *tc = pg_table_cell(t, r, c);
	return tc->note ? t->notes[tc->note - 1] : "";
}

/* Noisy, capped, few samples, disturbed, bimodal, emulated: each marked
 * with a note saying why; a clean figure and an imported one (no stop) are
 * not. */
static void doubtful_figures_are_marked(void **state)
{
	(void)state;
	struct pg_record x[] = {
		res("t.a", "{}", "m", 1), res("t.b", "{}", "m", 2), res("t.c", "{}", "m", 3),
		res("t.d", "{}", "m", 4), res("t.e", "{}", "m", 5), res("t.f", "{}", "m", 6),
	};
	x[1].noisy = 1;
	x[1].cv = 0.163;
	x[1].nsamples = 10;
	x[2].stop = (char *)"time";
	x[3].stop = (char *)"runs";
	x[3].nsamples = 2;
	x[4].disturbed = 1;
	x[4].disturbed_why = (char *)"other processes took 40% of the CPUs";
	x[5].stop = NULL;	/* a figure from a published table */
	x[5].nsamples = 1;
	struct pg_rrun run = { .id = (char *)"r", .board = (char *)"A", .res = x, .nres = 6 };
	const struct pg_rrun *p = &run;
	struct pg_guide g;
	struct pg_table t;
	assert_int_equal(pg_guide_build(&g, &p, 1), 0);
	assert_int_equal(pg_table_section(&g, 0, 0, &t), 0);
	assert_string_equal(pg_table_cell(&t, 0, 1)->text, "1.00");
	assert_string_equal(pg_table_cell(&t, 1, 1)->text, "2.00 " PG_DOUBT_MARK);
	assert_string_equal(note(&t, 1, 1), "noisy: CV 16% over 10 samples");
	assert_non_null(strstr(note(&t, 2, 1), "capped: "));
	assert_string_equal(note(&t, 3, 1), "few samples: 2");
	assert_string_equal(note(&t, 4, 1), "disturbed: other processes took 40% of the CPUs");
	assert_string_equal(pg_table_cell(&t, 5, 1)->text, "6.00");
	assert_true(t.doubts);
	pg_table_free(&t);
	struct pg_doubts d;
	pg_guide_doubts(&g, &d);
	assert_int_equal(d.figures, 6);
	assert_int_equal(d.doubtful, 4);
	assert_int_equal(d.kind[0], 1);	/* noisy */
	pg_guide_free(&g);

	/* a run on an emulated CPU: every figure */
	run.machine = (char *)"{\"virt\":\"qemu-user\",\"emulated\":true}";
	assert_int_equal(pg_guide_build(&g, &p, 1), 0);
	assert_int_equal(pg_table_section(&g, 0, 0, &t), 0);
	assert_string_equal(note(&t, 0, 1), "emulated CPU (qemu-user): not the hardware's speed");
	assert_string_equal(note(&t, 5, 1), note(&t, 0, 1));	/* one note for both */
	assert_int_equal(pg_table_cell(&t, 5, 1)->note, pg_table_cell(&t, 0, 1)->note);
	pg_table_free(&t);
	pg_guide_free(&g);
}

/* The same skip reason in many rows is one note. */
static void identical_notes_merge(void **state)
{
	(void)state;
	struct pg_record x[] = { res("t.a", "{\"s\":1}", "m", 1), res("t.a", "{\"s\":2}", "m", 1),
				 res("t.a", "{\"s\":3}", "m", 1) };
	for (int i = 0; i < 3; i++) {
		x[i].status = PG_SKIP;
		x[i].reason = (char *)"no AF_ALG: load af_alg";
	}
	struct pg_rrun run = { .id = (char *)"r", .board = (char *)"A", .res = x, .nres = 3 };
	const struct pg_rrun *p = &run;
	struct pg_guide g;
	struct pg_table t;
	assert_int_equal(pg_guide_build(&g, &p, 1), 0);
	assert_int_equal(pg_table_section(&g, 0, 0, &t), 0);
	assert_int_equal(t.nnotes, 1);
	assert_string_equal(t.notes[0], "no AF_ALG: load af_alg");
	pg_table_free(&t);
	pg_guide_free(&g);
}

/* The seed's OpenSSL table: algorithm x buffer size (in bytes, 1024: the
 * section's rows_shown, which a run recorded without it takes from this
 * perfguide), throughput, the system's load, then the process's CPU (a
 * cost: after the load, as the seed's UDP table has its loss). */
static void crypto_in_the_seed_shape(void **state)
{
	(void)state;
	struct pg_record x[] = {
		res("crypto.aes-128-cbc", "{\"backend\":\"openssl\",\"size\":16}", "throughput", 10),
		res("crypto.aes-128-cbc", "{\"backend\":\"openssl\",\"size\":16}", "cpu_load", 99),
		res("crypto.aes-128-cbc", "{\"backend\":\"openssl\",\"size\":16}", "elapsed_per_op", 1),
		res("crypto.aes-128-cbc", "{\"backend\":\"openssl\",\"size\":1024}", "throughput", 20),
		res("crypto.aes-128-cbc", "{\"backend\":\"openssl\",\"size\":1024}", "cpu_load", 98),
		res("crypto.sha256", "{\"backend\":\"openssl\",\"size\":16}", "throughput", 30),
		res("crypto.sha256", "{\"backend\":\"openssl\",\"size\":16}", "cpu_load", 97),
	};
	for (int i = 0; i < 7; i++) {
		x[i].unit = (char *)(strcmp(x[i].metric, "throughput") == 0 ? "KBytes/Sec" : "%");
		/* as crypto.c records them: the process's CPU share is a cost */
		x[i].higher = strcmp(x[i].metric, "throughput") == 0;
		x[i].have_busy = 1;
		x[i].busy_pct = 50;
	}
	struct pg_rrun run = {
		.id = (char *)"r", .board = (char *)"A", .res = x, .nres = 7,
		.sections = (char *)"[{\"title\":\"Crypto\",\"order\":120,\"cpu_load\":true,\"rows_by\":\"size\","
				    "\"rows_title\":\"Buffer Size (in bytes)\",\"rows_bench\":\"Algorithm\","
				    "\"metrics\":\"throughput,cpu_load\",\"metric_titles\":\"cpu_load=CPU (process)\"}]",
	};
	for (int i = 0; i < 7; i++)
		x[i].section = (char *)"Crypto";
	const struct pg_rrun *p = &run;
	struct pg_guide g;
	struct pg_table t;
	assert_int_equal(pg_guide_build(&g, &p, 1), 0);
	assert_int_equal(pg_table_section(&g, 0, 0, &t), 0);
	const char *head[] = { "Algorithm", "Buffer Size (in bytes)", "A: throughput (KBytes/Sec)",
			       "A: CPU load (system) %", "A: CPU (process) %" };
	assert_int_equal(t.ncols, 5);
	for (int c = 0; c < 5; c++)
		assert_string_equal(t.head[c].text, head[c]);
	const char *cells[3][5] = { { "aes-128-cbc", "16", "10.00", "50.0", "99.00" },
				    { "aes-128-cbc", "1024", "20.00", "50.0", "98.00" },
				    { "sha256", "16", "30.00", "50.0", "97.00" } };
	assert_int_equal(t.nrows, 3);
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 5; c++)
			assert_string_equal(pg_table_cell(&t, r, c)->text, cells[r][c]);
	pg_table_free(&t);
	/* the per-operation time is in its own table, when asked for */
	assert_true(pg_section_has_other(&g, 0));
	assert_int_equal(pg_table_section(&g, 0, PG_TABLE_OTHER, &t), 0);
	assert_int_equal(t.nrows, 1);
	assert_string_equal(t.title, "Crypto: other metrics");
	pg_table_free(&t);
	pg_guide_free(&g);
}

/* Intros say what the results recorded: a note's key=value over the
 * parameter, each board's value where they differ, a sentence about what
 * no result recorded left out. */
static void intro_from_the_results(void **state)
{
	(void)state;
	struct pg_record a[] = { res("st.w", "{\"direct\":1,\"engine\":\"auto\",\"bs\":4096}", "bandwidth", 1) };
	struct pg_record b[] = { res("st.w", "{\"direct\":0,\"engine\":\"auto\",\"bs\":4096}", "bandwidth", 1) };
	a[0].note = (char *)"fs=ext4; engine=psync; depth=1";
	b[0].note = (char *)"fs=ext4; engine=io_uring; depth=4";
	a[0].section = b[0].section = (char *)"Disks";
	const char *secs = "[{\"title\":\"Disks\",\"order\":110,\"intro\":\"Jobs. The {engine} engine, "
			   "{direct?O_DIRECT|buffered}. Seen on {nothing}. Done.\"}]";
	struct pg_rrun runs[] = {
		{ .id = (char *)"a", .board = (char *)"A", .res = a, .nres = 1, .sections = (char *)secs },
		{ .id = (char *)"b", .board = (char *)"B", .res = b, .nres = 1, .sections = (char *)secs },
	};
	const struct pg_rrun *p[] = { &runs[0], &runs[1] };
	struct pg_guide g;
	assert_int_equal(pg_guide_build(&g, p, 1), 0);
	char *intro = pg_section_intro(&g, 0);
	assert_string_equal(intro, "Jobs. The psync engine, O_DIRECT. Done.");
	free(intro);
	pg_guide_free(&g);
	assert_int_equal(pg_guide_build(&g, p, 2), 0);
	intro = pg_section_intro(&g, 0);
	assert_string_equal(intro, "Jobs. The psync (A), io_uring (B) engine, O_DIRECT (A), buffered (B). Done.");
	free(intro);
	pg_guide_free(&g);
}

/* Runs of one board with different labels are columns of their own; in
 * each, per benchmark the latest result: a later run of one benchmark
 * hides none of an earlier full run. */
static void columns_by_label_latest_per_key(void **state)
{
	(void)state;
	struct pg_record full[] = { res("t.a", "{}", "m", 1), res("t.b", "{}", "m", 2) };
	struct pg_record part[] = { res("t.a", "{}", "m", 10) };
	struct pg_record other[] = { res("t.a", "{}", "m", 100), res("t.b", "{}", "m", 200) };
	struct pg_rrun runs[] = {
		{ .id = (char *)"full", .board = (char *)"A", .started = (char *)"2026-01-01T00:00:00Z", .res = full,
		  .nres = 2, .labels = (char *)"{\"release\":\"2\"}" },
		{ .id = (char *)"part", .board = (char *)"A", .started = (char *)"2026-01-02T00:00:00Z", .res = part,
		  .nres = 1, .labels = (char *)"{\"release\":\"2\"}" },
		{ .id = (char *)"old", .board = (char *)"A", .started = (char *)"2025-01-01T00:00:00Z", .res = other,
		  .nres = 2, .labels = (char *)"{\"release\":\"1\"}" },
	};
	const struct pg_rrun *p[] = { &runs[0], &runs[1], &runs[2] };
	struct pg_guide_opts o = { .columns_by = PG_COLS_LABEL, .merge = PG_MERGE_LATEST };
	struct pg_guide g;
	assert_int_equal(pg_guide_build_opts(&g, p, 3, &o), 0);
	assert_int_equal(g.ncols, 2);
	assert_string_equal(g.cols[0].name, "A (release=2)");
	assert_string_equal(g.cols[1].name, "A (release=1)");
	assert_true(g.rows[0].cells[0].median == 10);	/* t.a from the later run */
	assert_true(g.rows[1].cells[0].median == 2);	/* t.b from the full one */
	assert_string_equal(g.rows[1].cells[0].run->id, "full");
	assert_int_equal(g.cols[0].used[0], 1);
	assert_int_equal(g.cols[0].used[1], 1);
	assert_true(g.rows[0].cells[1].median == 100);
	assert_int_equal(pg_guide_column(&g, "A (release=1)"), 1);
	assert_int_equal(pg_guide_column(&g, "A"), 0);
	pg_guide_free(&g);
	/* a column per board: everything in one */
	o.columns_by = PG_COLS_BOARD;
	assert_int_equal(pg_guide_build_opts(&g, p, 3, &o), 0);
	assert_int_equal(g.ncols, 1);
	assert_string_equal(g.cols[0].name, "A");
	assert_string_equal(g.cols[0].runs[0]->id, "old");	/* oldest first */
	pg_guide_free(&g);
}

/* A row label that several rows carry (one per buffer size) is followed by
 * the parameters that tell them apart; a metric the title says is not said
 * twice. */
static void row_names_keep_their_keys(void **state)
{
	(void)state;
	struct pg_record x[] = { res("st.w", "{\"bs\":4096,\"n\":1}", "bandwidth", 1),
				 res("st.w", "{\"bs\":65536,\"n\":1}", "bandwidth", 2),
				 res("ext.gl", "{}", "score", 3) };
	x[0].label = x[1].label = (char *)"LOOP EXT4 Write";
	x[2].title = (char *)"glmark2 score";
	x[2].unit = (char *)"score";
	struct pg_rrun run = { .id = (char *)"r", .board = (char *)"A", .res = x, .nres = 3 };
	const struct pg_rrun *p = &run;
	struct pg_guide g;
	char name[200];
	assert_int_equal(pg_guide_build(&g, &p, 1), 0);
	pg_row_name(&g.rows[0], name, sizeof(name));
	assert_string_equal(name, "LOOP EXT4 Write bs=4096 (MB/s)");
	pg_row_name(&g.rows[2], name, sizeof(name));
	assert_string_equal(name, "glmark2 score");
	pg_guide_free(&g);
}

/* Too wide a table: parts of whole boards, the naming column in each, the
 * baseline's too, notes numbered in each part. */
static void wide_tables_split(void **state)
{
	(void)state;
	struct pg_record x[6][1];
	struct pg_rrun runs[6];
	const struct pg_rrun *p[6];
	static char boards[6][16], ids[6][16];
	for (int i = 0; i < 6; i++) {
		x[i][0] = res("t.a", "{}", "m", 1000 + i);
		if (i == 4) {
			x[i][0].status = PG_SKIP;
			x[i][0].reason = (char *)"why";
		}
		snprintf(boards[i], sizeof(boards[i]), "board-%d", i);
		snprintf(ids[i], sizeof(ids[i]), "r%d", i);
		runs[i] = (struct pg_rrun){ .id = ids[i], .board = boards[i], .res = x[i], .nres = 1 };
		p[i] = &runs[i];
	}
	struct pg_guide g;
	struct pg_table t, *parts;
	int n;
	assert_int_equal(pg_guide_build(&g, p, 6), 0);
	assert_int_equal(pg_guide_baseline(&g, "board-0"), 0);
	assert_int_equal(pg_table_section(&g, 0, 0, &t), 0);
	/* name, 6 values, 4 ratios: board-4's skipped figure has no ratio */
	assert_int_equal(t.ncols, 11);
	t.heading = 1;
	assert_int_equal(pg_table_split(&t, 60, g.baseline, &parts, &n), 0);
	assert_true(n >= 2);
	int boards_seen = 0;
	for (int i = 0; i < n; i++) {
		assert_string_equal(parts[i].head[0].text, "Benchmarks");
		assert_string_equal(parts[i].head[1].text, "board-0");
		assert_int_equal(parts[i].heading, i == 0);
		for (int c = 2; c < parts[i].ncols; c++)
			boards_seen += parts[i].head[c].kind == PG_T_VALUE;
		for (int c = 0; c < parts[i].ncols; c++)
			if (pg_table_cell(&parts[i], 0, c)->note)
				assert_string_equal(parts[i].notes[pg_table_cell(&parts[i], 0, c)->note - 1], "why");
		pg_table_free(&parts[i]);
	}
	assert_int_equal(boards_seen, 5);
	free(parts);
	/* it fits: one part, the table itself */
	assert_int_equal(pg_table_section(&g, 0, 0, &t), 0);
	assert_int_equal(pg_table_split(&t, 0, g.baseline, &parts, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(parts[0].ncols, 11);
	pg_table_free(&parts[0]);
	free(parts);
	pg_guide_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(doubtful_figures_are_marked),
		cmocka_unit_test(identical_notes_merge),
		cmocka_unit_test(crypto_in_the_seed_shape),
		cmocka_unit_test(intro_from_the_results),
		cmocka_unit_test(columns_by_label_latest_per_key),
		cmocka_unit_test(row_names_keep_their_keys),
		cmocka_unit_test(wide_tables_split),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
