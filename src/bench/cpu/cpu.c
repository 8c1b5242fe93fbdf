/* SPDX-License-Identifier: MIT */
/* The CPU group's table: one line per benchmark, in the guide's order. */
#include "cpu.h"

const struct pg_section pg_cpu_sec_dhrystone = { .title = "Dhrystone", .intro = "Integer performance.", .order = 20 };
const struct pg_section pg_cpu_sec_whetstone = { .title = "Whetstone", .intro = "Floating-point performance.", .order = 30 };
const struct pg_section pg_cpu_sec_linpack = { .title = "Linpack", .intro = "Dense linear algebra.", .order = 40 };
const struct pg_section pg_cpu_sec_nbench = { .title = "NBench", .intro = "BYTE's native mode benchmarks.", .order = 50 };
const struct pg_section pg_cpu_sec_cpu = { .title = "CPU benchmarks", .order = 80 };

const struct pg_bench *const pg_group_cpu[] = {
	&pg_cpu_dhrystone,
	&pg_cpu_whetstone,
	&pg_cpu_linpack,
	&pg_cpu_nbench_numsort,
	&pg_cpu_nbench_strsort,
	&pg_cpu_nbench_bitfield,
	&pg_cpu_nbench_fpemu,
	&pg_cpu_nbench_fourier,
	&pg_cpu_nbench_assign,
	&pg_cpu_nbench_idea,
	&pg_cpu_nbench_huffman,
	&pg_cpu_nbench_nnet,
	&pg_cpu_nbench_lu,
	&pg_cpu_nbench_index,
	&pg_cpu_work_listmat,
	&pg_cpu_work_state,
	&pg_cpu_work_dct,
	&pg_cpu_work_sha256,
	&pg_cpu_work_lz,
	&pg_cpu_work_parse,
	&pg_cpu_work_fft,
	&pg_cpu_work_nnet,
	&pg_cpu_work_linalg,
	&pg_cpu_work_score,
	&pg_cpu_scaling,
	NULL,
};
