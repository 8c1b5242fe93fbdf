/* SPDX-License-Identifier: MIT */
/* The results writer: what it writes parses back to exactly what was given. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/hist.h"
#include "core/params.h"
#include "core/results.h"

static const struct pg_param params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "8m", .help = "h" },
	{ .name = "mode", .type = PG_P_STR, .def = "x", .help = "h" },
	{ .name = "window", .type = PG_P_SIZE, .def = "auto", .choices = "auto", .help = "h" },
	{ 0 },
};
static const struct pg_metric metrics[] = {
	{ "bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ "latency", "ns", PG_TIME_PER, 1e9, 0, 0 },
	{ 0 },
};
static void label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		  char *buf, size_t len)
{
	snprintf(buf, len, "%s-%s-%s", b->id, pg_arg_str(a, "size"), metric);
}
static const struct pg_bench bench = {
	.id = "t.bench", .title = "Test bench", .params = params, .metrics = metrics, .label = label,
};

/* Reads every line of f as a JSON object. */
static int read_lines(FILE *f, json_t **out, int max)
{
	rewind(f);
	char line[65536];
	int n = 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		json_error_t e;
		out[n] = json_loads(line, 0, &e);
		assert_non_null(out[n]);
		assert_true(json_is_object(out[n]));
		n++;
	}
	return n;
}

static struct pg_args make_args(void)
{
	struct pg_args a = { .n = 3 };
	char err[64];
	pg_value_parse(&params[0], "8m", &a.v[0], err, sizeof(err));
	pg_value_parse(&params[1], "fast", &a.v[1], err, sizeof(err));
	pg_value_parse(&params[2], "auto", &a.v[2], err, sizeof(err));
	return a;
}

static void result_records_round_trip(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	struct pg_results w = { .sink = { f }, .nsinks = 1 };
	struct pg_args a = make_args();
	double bw[] = { 100, 110, 105 }, lat[] = { 2.5, 2.0, 3.0 }, el[] = { 0.1, 0.11, 0.1 };
	struct pg_result r = { .bench = &bench, .args = &a, .status = PG_OK, .copies = 2,
			       .nmetrics = 2, .nsamples = 3, .iters = 77, .elapsed = el,
			       .values = { bw, lat } };
	pg_stats_compute(bw, 3, &r.stats[0]);
	pg_stats_compute(lat, 3, &r.stats[1]);
	r.cpu.have_busy = 1;
	r.cpu.busy_pct = 51.5;
	r.cpu.self_user_s = 0.25;
	snprintf(r.note, sizeof(r.note), "a note");
	r.stop = PG_STOP_MAX_RUNS;
	r.cap = 3;
	pg_results_result(&w, &r);

	json_t *rec[4];
	assert_int_equal(read_lines(f, rec, 4), 2);	/* one record per metric */
	json_t *o = rec[0];
	assert_string_equal(json_string_value(json_object_get(o, "type")), "result");
	assert_string_equal(json_string_value(json_object_get(o, "bench")), "t.bench");
	json_t *p = json_object_get(o, "params");
	assert_int_equal(json_integer_value(json_object_get(p, "size")), 8 << 20);
	assert_string_equal(json_string_value(json_object_get(p, "mode")), "fast");
	/* a size parameter's named choice by its name, not as a size of 0 */
	assert_string_equal(json_string_value(json_object_get(p, "window")), "auto");
	assert_string_equal(json_string_value(json_object_get(o, "metric")), "bandwidth");
	assert_string_equal(json_string_value(json_object_get(o, "unit")), "MB/s");
	assert_string_equal(json_string_value(json_object_get(o, "better")), "higher");
	json_t *s = json_object_get(o, "samples");
	assert_int_equal(json_array_size(s), 3);
	assert_float_equal(json_real_value(json_array_get(s, 1)), 110, 1e-9);
	assert_float_equal(json_real_value(json_object_get(o, "median")), 105, 1e-9);
	assert_float_equal(json_real_value(json_object_get(o, "min")), 100, 1e-9);
	assert_float_equal(json_real_value(json_object_get(o, "max")), 110, 1e-9);
	assert_float_equal(json_real_value(json_object_get(o, "mean")), 105, 1e-9);
	assert_float_equal(json_real_value(json_object_get(o, "stddev")), 5, 1e-9);
	assert_float_equal(json_real_value(json_object_get(o, "cv")), 5.0 / 105, 1e-9);
	assert_true(json_is_false(json_object_get(o, "noisy")));
	assert_int_equal(json_integer_value(json_object_get(o, "iterations")), 77);
	assert_int_equal(json_integer_value(json_object_get(o, "copies")), 2);
	/* three samples: the range, covering 75% of the time (stats.h) */
	assert_float_equal(json_real_value(json_object_get(o, "ci_lo")), 100, 1e-9);
	assert_float_equal(json_real_value(json_object_get(o, "ci_hi")), 110, 1e-9);
	assert_float_equal(json_real_value(json_object_get(o, "ci_level")), 0.75, 1e-9);
	assert_float_equal(json_real_value(json_object_get(o, "ci_rel")), 5.0 / 105, 1e-9);
	assert_string_equal(json_string_value(json_object_get(o, "stop")), "max_runs");
	assert_float_equal(json_real_value(json_object_get(o, "cap_s")), 3, 1e-9);
	assert_null(json_object_get(o, "bimodal"));
	assert_null(json_object_get(o, "bimodal_low_n"));
	json_t *cpu = json_object_get(o, "cpu");
	assert_float_equal(json_real_value(json_object_get(cpu, "busy_pct")), 51.5, 1e-9);
	assert_float_equal(json_real_value(json_object_get(cpu, "self_user_s")), 0.25, 1e-9);
	assert_string_equal(json_string_value(json_object_get(o, "label")), "t.bench-8m-bandwidth");
	assert_string_equal(json_string_value(json_object_get(o, "note")), "a note");
	assert_string_equal(json_string_value(json_object_get(o, "status")), "ok");

	o = rec[1];
	assert_string_equal(json_string_value(json_object_get(o, "metric")), "latency");
	assert_string_equal(json_string_value(json_object_get(o, "better")), "lower");
	assert_true(json_is_true(json_object_get(o, "noisy")));	/* cv 20% */
	assert_string_equal(json_string_value(json_object_get(o, "label")), "t.bench-8m-latency");
	json_decref(rec[0]);
	json_decref(rec[1]);
	fclose(f);
}

/* The run's latency histogram rides on the first latency metric's record:
 * buckets in use as [lowest ns, count], exact count, min, max and sum. */
static const struct pg_metric lat_metrics[] = {
	{ "ops", "ops/s", PG_RATE, 1, 1, 0 },
	{ "lat_p50", "us", PG_HIST_Q, 1e-3, 0, 0.5 },
	{ "lat_p99", "us", PG_HIST_Q, 1e-3, 0, 0.99 },
	{ 0 },
};
static const struct pg_bench lat_bench = {
	.id = "t.lat", .title = "Latency", .params = params, .metrics = lat_metrics,
};

static void histogram_written_once(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	struct pg_results w = { .sink = { f }, .nsinks = 1 };
	struct pg_args a = make_args();
	double v[] = { 1 }, el[] = { 1 };
	struct pg_hist *h = calloc(1, sizeof(*h));
	pg_hist_add(h, 5);
	pg_hist_add(h, 5);
	pg_hist_add(h, 1000);	/* bucket [1000, 1008) */
	struct pg_result r = { .bench = &lat_bench, .args = &a, .status = PG_OK, .copies = 1,
			       .nmetrics = 3, .nsamples = 1, .iters = 1, .elapsed = el,
			       .values = { v, v, v }, .hist = h };
	for (int m = 0; m < 3; m++)
		pg_stats_compute(v, 1, &r.stats[m]);
	pg_results_result(&w, &r);
	json_t *rec[4];
	assert_int_equal(read_lines(f, rec, 4), 3);
	assert_null(json_object_get(rec[0], "hist"));
	assert_null(json_object_get(rec[2], "hist"));
	json_t *hj = json_object_get(rec[1], "hist");
	assert_non_null(hj);
	assert_string_equal(json_string_value(json_object_get(hj, "unit")), "ns");
	assert_int_equal(json_integer_value(json_object_get(hj, "count")), 3);
	assert_int_equal(json_integer_value(json_object_get(hj, "min")), 5);
	assert_int_equal(json_integer_value(json_object_get(hj, "max")), 1000);
	assert_float_equal(json_real_value(json_object_get(hj, "sum")), 1010, 0);
	json_t *b = json_object_get(hj, "buckets");
	assert_int_equal(json_array_size(b), 2);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(b, 0), 0)), 5);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(b, 0), 1)), 2);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(b, 1), 0)), 1000);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(b, 1), 1)), 1);
	for (int i = 0; i < 3; i++)
		json_decref(rec[i]);
	free(h);
	fclose(f);
}

static void skipped_record_says_why(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	struct pg_results w = { .sink = { f }, .nsinks = 1 };
	struct pg_args a = make_args();
	struct pg_result r = { .bench = &bench, .args = &a, .status = PG_SKIP, .nmetrics = 2 };
	snprintf(r.reason, sizeof(r.reason), "no /dev/rpmsg* device: load the remote firmware");
	pg_results_result(&w, &r);
	r.status = PG_ERROR;
	snprintf(r.reason, sizeof(r.reason), "checksum \"mismatch\"\n");
	pg_results_result(&w, &r);
	json_t *rec[4];
	assert_int_equal(read_lines(f, rec, 4), 2);
	assert_string_equal(json_string_value(json_object_get(rec[0], "status")), "skipped");
	assert_string_equal(json_string_value(json_object_get(rec[0], "reason")),
			    "no /dev/rpmsg* device: load the remote firmware");
	assert_null(json_object_get(rec[0], "samples"));
	assert_string_equal(json_string_value(json_object_get(rec[1], "status")), "error");
	/* quotes and newlines are escaped: still one line, same text */
	assert_string_equal(json_string_value(json_object_get(rec[1], "reason")), "checksum \"mismatch\"\n");
	json_decref(rec[0]);
	json_decref(rec[1]);
	fclose(f);
}

static void run_and_end_records(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	struct pg_results w = { .sink = { f }, .nsinks = 1 };
	struct pg_machine m;
	pg_machine_read(&m);
	const char *sel[] = { "mem.*" };
	struct pg_override ov = { .name = "size", .values = "8m" };
	int cpus[] = { 1 };
	struct pg_run_info ri = { .board = "am62x-sk", .started = 1764536950.5, .machine = &m,
				  .suite = PG_SUITE_QUICK, .runs = 0, .min_runs = 6, .max_runs = 10,
				  .ci_target = 0.02, .max_time = 1, .budget = 900, .min_time = 0.1,
				  .selectors = sel, .nselectors = 1, .overrides = &ov,
				  .noverrides = 1, .cpus = cpus, .ncpus = 1 };
	snprintf(ri.id, sizeof(ri.id), "am62x-sk-1");
	pg_results_run(&w, &ri);
	pg_results_end(&w, 1);
	pg_machine_free(&m);

	json_t *rec[4];
	assert_int_equal(read_lines(f, rec, 4), 2);
	json_t *o = rec[0];
	assert_string_equal(json_string_value(json_object_get(o, "type")), "run");
	assert_string_equal(json_string_value(json_object_get(o, "schema")), "perfguide/1");
	assert_string_equal(json_string_value(json_object_get(o, "id")), "am62x-sk-1");
	assert_string_equal(json_string_value(json_object_get(o, "board")), "am62x-sk");
	assert_string_equal(json_string_value(json_object_get(o, "started")), "2025-11-30T21:09:10.500Z");
	assert_true(json_is_object(json_object_get(o, "machine")));
	assert_true(json_is_array(json_object_get(json_object_get(o, "machine"), "caches")));
	json_t *b = json_object_get(o, "build");
	assert_non_null(json_string_value(json_object_get(b, "version")));
	assert_non_null(json_string_value(json_object_get(b, "compiler")));
	json_t *c = json_object_get(o, "config");
	assert_string_equal(json_string_value(json_object_get(c, "suite")), "quick");
	assert_int_equal(json_integer_value(json_object_get(c, "runs")), 0);
	assert_int_equal(json_integer_value(json_object_get(c, "min_runs")), 6);
	assert_int_equal(json_integer_value(json_object_get(c, "max_runs")), 10);
	assert_float_equal(json_real_value(json_object_get(c, "ci_target")), 0.02, 1e-12);
	assert_float_equal(json_real_value(json_object_get(c, "max_time")), 1, 1e-12);
	assert_float_equal(json_real_value(json_object_get(c, "budget_s")), 900, 1e-12);
	assert_string_equal(json_string_value(json_array_get(json_object_get(c, "selectors"), 0)), "mem.*");
	assert_string_equal(json_string_value(json_object_get(json_object_get(c, "params"), "size")), "8m");
	assert_int_equal(json_integer_value(json_array_get(json_object_get(c, "cpus"), 0)), 1);

	assert_string_equal(json_string_value(json_object_get(rec[1], "type")), "end");
	assert_string_equal(json_string_value(json_object_get(rec[1], "status")), "interrupted");
	json_decref(rec[0]);
	json_decref(rec[1]);
	fclose(f);
}

static void every_sink_gets_every_record(void **state)
{
	(void)state;
	FILE *f1 = tmpfile(), *f2 = tmpfile();
	struct pg_results w = { .sink = { f1, f2 }, .nsinks = 2 };
	pg_results_end(&w, 0);
	json_t *rec[2];
	assert_int_equal(read_lines(f1, rec, 2), 1);
	assert_string_equal(json_string_value(json_object_get(rec[0], "status")), "complete");
	json_decref(rec[0]);
	assert_int_equal(read_lines(f2, rec, 2), 1);
	json_decref(rec[0]);
	fclose(f1);
	fclose(f2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(result_records_round_trip),
		cmocka_unit_test(histogram_written_once),
		cmocka_unit_test(skipped_record_says_why),
		cmocka_unit_test(run_and_end_records),
		cmocka_unit_test(every_sink_gets_every_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
