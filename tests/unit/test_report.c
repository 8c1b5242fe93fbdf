/* SPDX-License-Identifier: MIT */
/* The guide's cells, row names, sections and column merging. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "core/registry.h"
#include "guide/guide.h"
#include "guide/table.h"

static void cell_text(void **state)
{
	(void)state;
	char buf[128];
	struct pg_gcell c = { .present = 1, .status = PG_OK, .median = 9024.86, .min = 4779.41, .max = 13270.31 };
	pg_cell_text(&c, buf, sizeof(buf));
	assert_string_equal(buf, "9024.86 (min 4779.41, max 13270.31)");
	/* min and max that print as the median: no bracket */
	c = (struct pg_gcell){ .present = 1, .status = PG_OK, .median = 5.0, .min = 4.999, .max = 5.004 };
	pg_cell_text(&c, buf, sizeof(buf));
	assert_string_equal(buf, "5.00");
	c.min = 4.99;
	pg_cell_text(&c, buf, sizeof(buf));
	assert_string_equal(buf, "5.00 (min 4.99, max 5.00)");
	c = (struct pg_gcell){ .present = 1, .status = PG_SKIP, .reason = "why" };
	pg_cell_text(&c, buf, sizeof(buf));
	assert_string_equal(buf, "skipped");
	c = (struct pg_gcell){ 0 };
	pg_cell_text(&c, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

static struct pg_record res(const char *bench, const char *params, double med, double lo, double hi)
{
	struct pg_record x = { 0 };
	x.bench = (char *)bench;
	x.params = (char *)params;
	x.metric = (char *)"bandwidth";
	x.unit = (char *)"MB/s";
	x.status = PG_OK;
	x.median = med;
	x.min = lo;
	x.max = hi;
	return x;
}

static void columns_merge_runs_of_a_board(void **state)
{
	(void)state;
	struct pg_record a1[] = { res("mem.bw.rd", "{\"size\":1}", 100, 90, 110), res("crypto.x", "{}", 1, 1, 1) };
	struct pg_record a2[] = { res("mem.bw.rd", "{\"size\":1}", 200, 150, 210) };
	struct pg_record a3[] = { res("mem.bw.rd", "{\"size\":1}", 120, 119, 300) };
	struct pg_record b1[] = { res("mem.bw.rd", "{\"size\":2}", 7, 7, 7) };
	struct pg_rrun runs[] = {
		{ .id = (char *)"a1", .board = (char *)"A", .res = a1, .nres = 2 },
		{ .id = (char *)"b1", .board = (char *)"B", .res = b1, .nres = 1 },
		{ .id = (char *)"a2", .board = (char *)"A", .res = a2, .nres = 1 },
		{ .id = (char *)"a3", .board = (char *)"A", .res = a3, .nres = 1 },
	};
	const struct pg_rrun *p[] = { &runs[0], &runs[1], &runs[2], &runs[3] };
	struct pg_guide g;
	assert_int_equal(pg_guide_build(&g, p, 4), 0);
	assert_int_equal(g.ncols, 2);
	assert_string_equal(g.cols[0].board, "A");
	assert_int_equal(g.cols[0].nruns, 3);
	assert_int_equal(g.nrows, 3);
	/* LMBench rows first, in order of appearance; crypto after */
	assert_string_equal(g.rows[0].params, "{\"size\":1}");
	assert_string_equal(g.rows[1].params, "{\"size\":2}");
	assert_string_equal(g.rows[2].bench, "crypto.x");
	const struct pg_gcell *c = &g.rows[0].cells[0];
	assert_true(c->median == 120 && c->min == 90 && c->max == 300);
	assert_false(g.rows[0].cells[1].present);	/* B has no size=1 */
	assert_true(g.rows[1].cells[1].present);
	char name[128];
	pg_row_name(&g.rows[0], name, sizeof(name));
	assert_string_equal(name, "mem.bw.rd size=1 bandwidth (MB/s)");
	/* the seed's name with its unit already in it is kept as it is */
	g.rows[0].label = "cpu_clock (MHz)";
	pg_row_name(&g.rows[0], name, sizeof(name));
	assert_string_equal(name, "cpu_clock (MHz)");
	g.rows[0].label = "bw_mem-rd-1mb";
	pg_row_name(&g.rows[0], name, sizeof(name));
	assert_string_equal(name, "bw_mem-rd-1mb (MB/s)");
	pg_guide_free(&g);
}

/* Every benchmark says which table of the guide it is in. */
static void every_benchmark_has_a_section(const struct pg_bench *b, void *arg)
{
	(void)arg;
	if (!b->section || !b->section->title || !b->section->title[0] || b->section->order <= 0)
		fail_msg("%s declares no section", b->id);
}

static void registry_declares_sections(void **state)
{
	(void)state;
	pg_registry_each(every_benchmark_has_a_section, NULL);
	/* declarations with one title are one table, and agree */
	const struct pg_section *lm = pg_registry_find("mem.bw.fcp")->section;
	assert_string_equal(lm->title, "LMBench");
	assert_string_equal(pg_registry_find("os.ctx")->section->title, "LMBench");
	assert_string_equal(pg_registry_find("cpu.ops.int")->section->intro, lm->intro);
	assert_int_equal(pg_registry_section("LMBench")->order, lm->order);
	assert_null(pg_registry_section("no such table"));
}

/* Sections come from the results, then the registry, then "Other"; ordered
 * by the order they declare. */
static void sections_from_results(void **state)
{
	(void)state;
	struct pg_record x[] = {
		res("zzz.new", "{}", 1, 1, 1),
		res("crypto.aes-128-cbc", "{}", 1, 1, 1),
		res("t.storage", "{}", 1, 1, 1),
		res("t.holo", "{}", 1, 1, 1),
		res("net.tcp.stream", "{}", 1, 1, 1),
		res("mem.stream.triad", "{}", 1, 1, 1),
		res("cpu.dhrystone", "{}", 1, 1, 1),
		res("mem.bw.rd", "{}", 1, 1, 1),
		res("os.boot.kernel", "{}", 1, 1, 1),
		res("os.lmbench", "{}", 1, 1, 1),
	};
	x[2].section = (char *)"Storage";
	x[3].section = (char *)"Holography";	/* declared by nothing */
	x[9].section = (char *)"LMBench";
	struct pg_rrun run = { .id = (char *)"r", .board = (char *)"A", .res = x, .nres = 10,
			       .sections = (char *)"[{\"title\":\"Storage\",\"order\":110,\"cpu_load\":true,"
						   "\"intro\":\"Disks.\",\"rows_by\":\"size\"}]" };
	const struct pg_rrun *p = &run;
	struct pg_guide g;
	assert_int_equal(pg_guide_build(&g, &p, 1), 0);
	const char *want[] = { "LMBench", "Dhrystone", "Stream", "Boot time", "Ethernet", "Storage", "Crypto",
			       "Holography", "Other benchmarks" };
	assert_int_equal(g.nsections, 9);
	for (int i = 0; i < 9; i++)
		assert_string_equal(g.sections[i].title, want[i]);
	assert_true(g.sections[4].cpu_load);
	assert_string_equal(g.sections[5].intro, "Disks.");
	assert_string_equal(g.sections[5].rows_by, "size");
	assert_null(g.sections[7].intro);
	/* os.lmbench is no benchmark of this perfguide: its own section says where */
	assert_string_equal(g.sections[g.rows[1].section].title, "LMBench");
	assert_string_equal(g.rows[1].bench, "os.lmbench");
	assert_string_equal(g.rows[g.nrows - 1].bench, "zzz.new");
	pg_guide_free(&g);
}

/* B against A: 200/100 = 2 (higher is better), 10/20 = 0.5 (lower is
 * better: B is slower), 4/1 = 4; their geometric mean is 4^(1/3). */
static void baseline_ratios(void **state)
{
	(void)state;
	struct pg_record a[] = { res("t.x", "{}", 100, 90, 110), res("t.y", "{}", 10, 10, 10), res("t.z", "{}", 1, 1, 1),
				 res("t.w", "{}", 5, 5, 5) };
	struct pg_record b[] = { res("t.x", "{}", 200, 105, 300), res("t.y", "{}", 20, 20, 20), res("t.z", "{}", 4, 4, 4) };
	a[1].higher = b[1].higher = 0;
	for (int i = 0; i < 4; i++)
		a[i].higher = i != 1;
	b[0].higher = b[2].higher = 1;
	struct pg_rrun runs[] = {
		{ .id = (char *)"a", .board = (char *)"A", .res = a, .nres = 4 },
		{ .id = (char *)"b", .board = (char *)"B", .res = b, .nres = 3 },
	};
	const struct pg_rrun *p[] = { &runs[0], &runs[1] };
	struct pg_guide g;
	assert_int_equal(pg_guide_build(&g, p, 2), 0);
	assert_int_equal(pg_guide_baseline(&g, "nobody"), -1);
	assert_int_equal(pg_guide_baseline(&g, "A"), 0);
	assert_int_equal(g.baseline, 0);
	const struct pg_gcell *x = &g.rows[0].cells[1], *y = &g.rows[1].cells[1], *z = &g.rows[2].cells[1];
	assert_true(x->have_ratio && fabs(x->ratio - 2) < 1e-12 && x->overlap);	/* 90..110 and 105..300 */
	assert_true(y->have_ratio && fabs(y->ratio - 0.5) < 1e-12 && !y->overlap);
	assert_true(z->have_ratio && fabs(z->ratio - 4) < 1e-12 && !z->overlap);
	assert_false(g.rows[3].cells[1].have_ratio);	/* B has no t.w */
	assert_true(g.rows[0].cells[0].have_ratio && g.rows[0].cells[0].ratio == 1);
	assert_int_equal(g.ngeo[1], 3);
	assert_true(fabs(g.geomean[1] - cbrt(4)) < 1e-12);
	pg_guide_free(&g);
}

/* A section with rows_by: a row per size (in size order, though 64k came
 * first), per board a column per (benchmark, other parameters), each with
 * its CPU load; a key a board lacks is an empty cell. */
static void pivot_table(void **state)
{
	(void)state;
	struct pg_record a[] = { res("t.wr", "{\"ch\":1,\"size\":65536}", 64, 64, 64),
				 res("t.wr", "{\"ch\":1,\"size\":4096}", 4, 4, 4),
				 res("t.rd", "{\"ch\":1,\"size\":4096}", 5, 5, 5) };
	for (int i = 0; i < 3; i++) {
		a[i].section = (char *)"Disks";
		a[i].have_busy = 1;
		a[i].busy_pct = 10 + i;
		a[i].label = (char *)(i < 2 ? "Write EXT4" : "Read EXT4");
	}
	struct pg_rrun run = { .id = (char *)"a", .board = (char *)"A", .res = a, .nres = 3,
			       .sections = (char *)"[{\"title\":\"Disks\",\"order\":110,\"cpu_load\":true,"
						   "\"rows_by\":\"size\",\"rows_title\":\"Buffer size (bytes)\"}]" };
	const struct pg_rrun *p = &run;
	struct pg_guide g;
	struct pg_table t;
	assert_int_equal(pg_guide_build(&g, &p, 1), 0);
	assert_int_equal(pg_table_section(&g, 0, 0, &t), 0);
	const char *head[] = { "Buffer size (bytes)", "A: Write EXT4 (MB/s)", "A: Write EXT4 CPU load (system) %",
			       "A: Read EXT4 (MB/s)", "A: Read EXT4 CPU load (system) %" };
	assert_int_equal(t.ncols, 5);
	for (int c = 0; c < 5; c++)
		assert_string_equal(t.head[c].text, head[c]);
	assert_int_equal(t.nrows, 2);
	const char *cells[2][5] = { { "4k", "4.00", "11.0", "5.00", "12.0" }, { "64k", "64.00", "10.0", "", "" } };
	for (int r = 0; r < 2; r++)
		for (int c = 0; c < 5; c++)
			assert_string_equal(pg_table_cell(&t, r, c)->text, cells[r][c]);
	pg_table_free(&t);
	/* flat for csv and json: a row per key */
	assert_int_equal(pg_table_section(&g, 0, PG_TABLE_FLAT, &t), 0);
	assert_int_equal(t.nrows, 3);
	assert_string_equal(t.head[2].text, "A CPU load (system) %");
	pg_table_free(&t);
	pg_guide_free(&g);
}

/* Labels that change with the pivot's parameter do not name a column: the
 * title does, with the parameters that tell the column from its neighbours
 * (ch), not those all share (path). */
static void pivot_column_names(void **state)
{
	(void)state;
	struct pg_record a[] = { res("t.wr", "{\"ch\":1,\"path\":\".\",\"size\":4096}", 1, 1, 1),
				 res("t.wr", "{\"ch\":8,\"path\":\".\",\"size\":4096}", 2, 2, 2),
				 res("t.wr", "{\"ch\":1,\"path\":\".\",\"size\":8192}", 3, 3, 3) };
	for (int i = 0; i < 3; i++) {
		a[i].section = (char *)"Disks";
		a[i].title = (char *)"Write";
		a[i].label = (char *)(i < 2 ? "4k" : "8k");
	}
	struct pg_rrun run = { .id = (char *)"a", .board = (char *)"A", .res = a, .nres = 3,
			       .sections = (char *)"[{\"title\":\"Disks\",\"order\":110,\"rows_by\":\"size\"}]" };
	const struct pg_rrun *p = &run;
	struct pg_guide g;
	struct pg_table t;
	assert_int_equal(pg_guide_build(&g, &p, 1), 0);
	assert_int_equal(pg_table_section(&g, 0, 0, &t), 0);
	assert_int_equal(t.ncols, 3);
	assert_string_equal(t.head[0].text, "size");
	assert_string_equal(t.head[1].text, "A: Write ch=1 bandwidth (MB/s)");
	assert_string_equal(t.head[2].text, "A: Write ch=8 bandwidth (MB/s)");
	assert_string_equal(pg_table_cell(&t, 1, 2)->text, "");	/* no 8k at 8 channels */
	pg_table_free(&t);
	pg_guide_free(&g);
}

/* A section that names its metrics: its tables (pivoted or not) and the
 * summary against a baseline have those alone; csv and json every one. */
static void section_metrics(void **state)
{
	(void)state;
	struct pg_record a[] = { res("t.wr", "{\"size\":4096}", 4, 4, 4), res("t.wr", "{\"size\":4096}", 9, 9, 9),
				 res("t.rd", "{\"size\":4096}", 5, 5, 5), res("t.rd", "{\"size\":4096}", 8, 8, 8) };
	struct pg_record b[] = { res("t.wr", "{\"size\":4096}", 8, 8, 8), res("t.wr", "{\"size\":4096}", 1, 1, 1) };
	for (int i = 0; i < 4; i++) {
		a[i].section = b[i % 2].section = (char *)"Disks";
		a[i].higher = b[i % 2].higher = !(i % 2);
		if (i % 2)
			a[i].metric = b[1].metric = (char *)"lat_p99";
		a[i].label = (char *)(i % 2 ? NULL : i ? "Read" : "Write");
	}
	for (int pivot = 0; pivot < 2; pivot++) {
		struct pg_rrun run[] = {
			{ .id = (char *)"a", .board = (char *)"A", .res = a, .nres = 4 },
			{ .id = (char *)"b", .board = (char *)"B", .res = b, .nres = 2 },
		};
		run[0].sections = (char *)(pivot ? "[{\"title\":\"Disks\",\"rows_by\":\"size\",\"metrics\":\"iops,bandwidth\"}]"
						 : "[{\"title\":\"Disks\",\"metrics\":\"iops,bandwidth\"}]");
		const struct pg_rrun *p[] = { &run[0], &run[1] };
		struct pg_guide g;
		struct pg_table t;
		assert_int_equal(pg_guide_build(&g, p, 2), 0);
		assert_string_equal(g.sections[0].metrics, "iops,bandwidth");
		assert_int_equal(pg_table_section(&g, 0, 0, &t), 0);
		assert_int_equal(t.nrows, pivot ? 1 : 2);
		/* B ran no t.rd: its Read column has nothing in it and goes */
		assert_int_equal(t.ncols, pivot ? 4 : 3);
		if (pivot) {
			assert_string_equal(t.head[1].text, "A: Write (MB/s)");
			assert_string_equal(t.head[2].text, "A: Read (MB/s)");
			assert_string_equal(t.head[3].text, "B: Write (MB/s)");
			assert_string_equal(pg_table_cell(&t, 0, 2)->text, "5.00");
			assert_string_equal(pg_table_cell(&t, 0, 3)->text, "8.00");
		} else {
			assert_string_equal(pg_table_cell(&t, 1, 0)->text, "Read (MB/s)");
		}
		pg_table_free(&t);
		assert_int_equal(pg_table_section(&g, 0, PG_TABLE_FLAT, &t), 0);
		assert_int_equal(t.nrows, 4);
		pg_table_free(&t);
		/* B against A: 8/4 on the one row both have; not 9/1 of lat_p99 */
		assert_int_equal(pg_guide_baseline(&g, "A"), 0);
		assert_int_equal(g.ngeo[1], 1);
		assert_true(fabs(g.geomean[1] - 2) < 1e-12);
		pg_guide_free(&g);
	}
}

/* Benchmarks whose rows never meet share their metric's column: a suite's
 * score row above its workloads' rows, the column named by the metric and
 * both units. */
static void pivot_disjoint_benchmarks_share_columns(void **state)
{
	(void)state;
	struct pg_record a[] = { res("t.mark", "{\"workload\":\"suite\"}", 9, 9, 9),
				 res("t.work", "{\"workload\":\"zip\"}", 1, 1, 1),
				 res("t.work", "{\"workload\":\"sha\"}", 2, 2, 2) };
	for (int i = 0; i < 3; i++)
		a[i].section = (char *)"Suite";
	a[0].unit = (char *)"score";
	struct pg_rrun run = { .id = (char *)"a", .board = (char *)"A", .res = a, .nres = 3,
			       .sections = (char *)"[{\"title\":\"Suite\",\"order\":70,\"rows_by\":\"workload\"}]" };
	const struct pg_rrun *p = &run;
	struct pg_guide g;
	struct pg_table t;
	assert_int_equal(pg_guide_build(&g, &p, 1), 0);
	assert_int_equal(pg_table_section(&g, 0, 0, &t), 0);
	assert_int_equal(t.ncols, 2);
	assert_string_equal(t.head[1].text, "A: bandwidth (score, MB/s)");
	assert_int_equal(t.nrows, 3);
	const char *cells[3][2] = { { "suite", "9.00" }, { "zip", "1.00" }, { "sha", "2.00" } };
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 2; c++)
			assert_string_equal(pg_table_cell(&t, r, c)->text, cells[r][c]);
	pg_table_free(&t);
	pg_guide_free(&g);
}

/* Disjoint rows do not merge columns their labels name apart: a write at
 * 64k and a read at 4k stay "Write EXT4" and "Read EXT4". */
static void pivot_labelled_columns_stay_apart(void **state)
{
	(void)state;
	struct pg_record a[] = { res("t.wr", "{\"size\":65536}", 64, 64, 64), res("t.rd", "{\"size\":4096}", 5, 5, 5) };
	a[0].label = (char *)"Write EXT4";
	a[1].label = (char *)"Read EXT4";
	a[0].section = a[1].section = (char *)"Disks";
	struct pg_rrun run = { .id = (char *)"a", .board = (char *)"A", .res = a, .nres = 2,
			       .sections = (char *)"[{\"title\":\"Disks\",\"order\":110,\"rows_by\":\"size\"}]" };
	const struct pg_rrun *p = &run;
	struct pg_guide g;
	struct pg_table t;
	assert_int_equal(pg_guide_build(&g, &p, 1), 0);
	assert_int_equal(pg_table_section(&g, 0, 0, &t), 0);
	assert_int_equal(t.ncols, 3);
	assert_string_equal(t.head[1].text, "A: Write EXT4 (MB/s)");
	assert_string_equal(t.head[2].text, "A: Read EXT4 (MB/s)");
	pg_table_free(&t);
	pg_guide_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cell_text),
		cmocka_unit_test(registry_declares_sections),
		cmocka_unit_test(sections_from_results),
		cmocka_unit_test(baseline_ratios),
		cmocka_unit_test(pivot_table),
		cmocka_unit_test(pivot_column_names),
		cmocka_unit_test(section_metrics),
		cmocka_unit_test(pivot_disjoint_benchmarks_share_columns),
		cmocka_unit_test(pivot_labelled_columns_stay_apart),
		cmocka_unit_test(columns_merge_runs_of_a_board),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
