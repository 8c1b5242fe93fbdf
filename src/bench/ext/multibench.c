/* SPDX-License-Identifier: MIT */
/*
 * ext.multibench: EEMBC MultiBench from the user's own (licensed) build,
 * run like CoreMark-PRO (mith.c; the two share EEMBC's MITH harness and
 * its output): per workload the iterations per second on one context and
 * at the chosen concurrency. The suite's certification gives its
 * "workers" workloads (one data set shared by N worker threads) -wN and the
 * others -cN (N contexts, each with its own data); so does this.
 *
 * The seed guide's MultiBench figures grow with the board's cores for some
 * workloads (4M-cmykw2: 315 on 2 cores, 602 on 8): they are the multi-core
 * figures, and that metric carries the guide's row name.
 */
#include "ext.h"

static const struct ext_mith_workload workloads[] = {
	/* The suite's "workers" list. */
	{ "ippktcheck-4M", 1, 0 },
	{ "ipres-4M", 1, 0 },
	{ "md5-4M", 1, 0 },
	{ "rgbcmyk-4M", 1, 0 },
	{ "rotate-4Ms1", 1, 0 },
	{ "rotate-4Ms64", 1, 0 },
	{ "x264-4Mq", 1, 0 },
	{ "iDCT-4M", 1, 0 },
	/* Its "contexts" list. */
	{ "empty-wld", 0, 0 },
	{ "4M-check-reassembly", 0, 0 },
	{ "4M-check-reassembly-tcp", 0, 0 },
	{ "4M-check-reassembly-tcp-cmykw2-rotatew2", 0, 0 },
	{ "4M-check-reassembly-tcp-x264w2", 0, 0 },
	{ "4M-cmykw2-rotatew2", 0, 0 },
	{ "4M-rotatew2", 0, 0 },
	{ "4M-cmykw2", 0, 0 },
	{ "4M-tcp-mixed", 0, 0 },
	{ "4M-x264w2", 0, 0 },
	{ "4M-reassembly", 0, 0 },
	{ "4M-check", 0, 0 },
	{ "ippktcheck-4Mw1", 0, 0 },
	{ "ipres-4Mw1", 0, 0 },
	{ "md5-4Mw1", 0, 0 },
	{ "rgbcmyk-4Mw1", 0, 0 },
	{ "rotate-4Ms1w1", 0, 0 },
	{ "rotate-4Ms64w1", 0, 0 },
	{ "x264-4Mqw1", 0, 0 },
	{ "iDCT-4Mw1", 0, 0 },
};

static const struct ext_mith_suite multibench = {
	.name = "MultiBench",
	.how_to_get = "MultiBench is licensed from EEMBC: build it with `make TARGET=linux64 "
		      "build` (or your cross target) and give -p path=DIR",
	.install = "multibench",
	.workloads = workloads,
	.nworkloads = sizeof(workloads) / sizeof(workloads[0]),
	.label_metric = "multi",
};

static const struct pg_section section = {
	.title = "MultiBench",
	.intro = "EEMBC MultiBench from the board's own build, run as its certification runs it: "
		 "iterations per second of each workload on one context (-c1 -w1) and on one "
		 "context or worker per CPU (-cN, or -wN for the workloads whose threads share "
		 "one data set), and their ratio.",
	.order = 80,
	.rows_by = "workload",
};

/* Every workload but empty-wld, which only times the harness itself (the
 * suite's own tables leave it out). */
#define WORKLOADS "4M-check,4M-check-reassembly,4M-check-reassembly-tcp," \
	"4M-check-reassembly-tcp-cmykw2-rotatew2,4M-check-reassembly-tcp-x264w2,4M-cmykw2," \
	"4M-cmykw2-rotatew2,4M-reassembly,4M-rotatew2,4M-tcp-mixed,4M-x264w2,iDCT-4M,iDCT-4Mw1," \
	"ippktcheck-4M,ippktcheck-4Mw1,ipres-4M,ipres-4Mw1,md5-4M,md5-4Mw1,rgbcmyk-4M," \
	"rgbcmyk-4Mw1,rotate-4Ms1,rotate-4Ms1w1,rotate-4Ms64,rotate-4Ms64w1,x264-4Mq,x264-4Mqw1"

static const struct pg_param params[] = {
	{ .name = "workload", .type = PG_P_STR, .def = WORKLOADS, .choices = WORKLOADS ",empty-wld",
	  .help = "the MultiBench workload" },
	EXT_MITH_PARAMS,
	{ 0 },
};

static const struct ext_mith_variant one = { &multibench, 0 };

const struct pg_bench pg_ext_multibench = {
	.id = "ext.multibench",
	.title = "MultiBench workload, iterations/s on one context and on N",
	.section = &section, .params = params, .metrics = ext_mith_metrics,
	.trial = 1, .min_suite = PG_IN_STANDARD, .data = &one,
	.setup = ext_mith_setup, .step = ext_mith_step,
	.teardown = ext_mith_teardown, .label = ext_mith_label,
};
