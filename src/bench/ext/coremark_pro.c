/* SPDX-License-Identifier: MIT */
/*
 * ext.coremark-pro and ext.coremark-pro.mark: EEMBC CoreMark-PRO from the
 * user's own build (its nine workload programs, <workload>.exe), run the
 * way the suite's `make certify-all` runs them (mith.c): per workload the
 * iterations per second on one context and on N, and the CoreMark-PRO
 * score. The score's scales are the suite's (util/perl/cert_mark.pl): one
 * over the reference platform's rate, 10000 over it for core.
 */
#include "ext.h"

/* The items per iteration are the sources' (each workload's main raises -i
 * until iterations x items >= contexts: cjpeg-rose7-preset codes 7 images
 * an iteration, the others run one item). */
static const struct ext_mith_workload workloads[] = {
	{ "cjpeg-rose7-preset", 0, 7 },
	{ "core", 0, 1 },
	{ "linear_alg-mid-100x100-sp", 0, 1 },
	{ "loops-all-mid-10k-sp", 0, 1 },
	{ "nnet_test", 0, 1 },
	{ "parser-125k", 0, 1 },
	{ "radix2-big-64k", 0, 1 },
	{ "sha-test", 0, 1 },
	{ "zip-test", 0, 1 },
};

static const struct ext_mark_term mark[] = {
	{ "cjpeg-rose7-preset", 1 / 40.3438 },
	{ "core", 10000 / 2855.0 },
	{ "linear_alg-mid-100x100-sp", 1 / 38.5624 },
	{ "loops-all-mid-10k-sp", 1 / 0.87959 },
	{ "nnet_test", 1 / 1.45853 },
	{ "parser-125k", 1 / 4.81116 },
	{ "radix2-big-64k", 1 / 99.6587 },
	{ "sha-test", 1 / 48.5201 },
	{ "zip-test", 1 / 21.3618 },
};

const struct ext_mith_suite ext_coremark_pro = {
	.name = "CoreMark-PRO",
	.how_to_get = "build EEMBC's coremark-pro sources with `make TARGET=linux64 build` "
		      "(or your cross target) and give -p path=DIR",
	.install = "coremark-pro",
	.workloads = workloads,
	.nworkloads = sizeof(workloads) / sizeof(workloads[0]),
	/* The seed's figures are the same on boards of 2 and 8 cores. */
	.label_metric = "single",
	.mark_name = "coremark-pro",
	.mark = mark,
	.nmark = sizeof(mark) / sizeof(mark[0]),
	.mark_factor = 1000,
};

static const struct pg_section section = {
	.title = "CoreMarkPro",
	.intro = "EEMBC CoreMark-PRO from the board's own build, run as its certification runs it: "
		 "iterations per second of each workload on one context (-c1 -w1) and on one per "
		 "CPU (-cN), their ratio, and the CoreMark-PRO score.",
	.order = 70,
	.rows_by = "workload",
};

#define WORKLOADS "cjpeg-rose7-preset,core,linear_alg-mid-100x100-sp,loops-all-mid-10k-sp," \
		  "nnet_test,parser-125k,radix2-big-64k,sha-test,zip-test"

static const struct pg_param params[] = {
	{ .name = "workload", .type = PG_P_STR, .def = WORKLOADS, .choices = WORKLOADS,
	  .help = "the CoreMark-PRO workload" },
	EXT_MITH_PARAMS,
	{ 0 },
};

static const struct pg_param mark_params[] = {
	{ .name = "workload", .type = PG_P_STR, .def = "coremark-pro", .choices = "coremark-pro",
	  .help = "the score's row in the workloads' table (it runs all nine)" },
	EXT_MITH_PARAMS,
	{ 0 },
};

static const struct pg_metric mark_metrics[] = {
	{ "single", "score", PG_VALUE, 1, 1, 0 },
	{ "multi", "score", PG_VALUE, 1, 1, 0 },
	{ "scaling", "x", PG_VALUE, 1, 1, 0 },
	{ 0 },
};

static const struct ext_mith_variant one = { &ext_coremark_pro, 0 };
static const struct ext_mith_variant score = { &ext_coremark_pro, 1 };

const struct pg_bench pg_ext_coremark_pro = {
	.id = "ext.coremark-pro",
	.title = "CoreMark-PRO workload, iterations/s on one context and on N",
	.section = &section, .params = params, .metrics = ext_mith_metrics,
	.trial = 1, .min_suite = PG_IN_STANDARD, .data = &one,
	.setup = ext_mith_setup, .step = ext_mith_step,
	.teardown = ext_mith_teardown, .label = ext_mith_label,
};

const struct pg_bench pg_ext_coremark_pro_mark = {
	.id = "ext.coremark-pro.mark",
	.title = "CoreMark-PRO score, on one context and on N",
	.section = &section, .params = mark_params, .metrics = mark_metrics,
	.trial = 1, .min_suite = PG_IN_STANDARD, .data = &score,
	.setup = ext_mith_setup, .step = ext_mith_step,
	.teardown = ext_mith_teardown, .label = ext_mith_label,
};
