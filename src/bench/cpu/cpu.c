/* The CPU group's table: one line per benchmark, in the guide's order. */
#include "cpu.h"

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
	&pg_cpu_scaling,
	NULL,
};
