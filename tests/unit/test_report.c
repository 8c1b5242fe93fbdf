/* The guide's cells, row names, sections and column merging. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "report/guide.h"

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

static void sections_in_guide_order(void **state)
{
	(void)state;
	int lm = pg_section_of("mem.bw.fcp");
	assert_int_equal(pg_section_of("mem.lat.rd"), lm);
	assert_int_equal(pg_section_of("os.ctx"), lm);
	assert_string_equal(pg_section(lm)->title, "LMBench");
	assert_true(pg_section_of("cpu.dhrystone") > lm);
	assert_true(pg_section_of("mem.stream.triad") > pg_section_of("cpu.dhrystone"));
	assert_true(pg_section_of("net.tcp.stream") > pg_section_of("mem.stream.triad"));
	assert_true(pg_section_of("storage.seq.write") > pg_section_of("net.tcp.stream"));
	assert_true(pg_section_of("crypto.aes-128-cbc") > pg_section_of("storage.seq.write"));
	assert_true(pg_section_of("msg.rpmsg.echo") > pg_section_of("crypto.aes-128-cbc"));
	/* an id no line knows still gets a section, the last */
	assert_int_equal(pg_section_of("zzz.new"), pg_section_count() - 1);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cell_text),
		cmocka_unit_test(sections_in_guide_order),
		cmocka_unit_test(columns_merge_runs_of_a_board),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
