/* SPDX-License-Identifier: MIT */
/* The cpuops group's table. Its ids start with "cpu.", so "cpu" selects
 * them along with the cpu group's. */
#include <stddef.h>

#include "bench/lmbench.h"
#include "cpuops.h"

const struct pg_section pg_cpuops_sec_lmbench = PG_SECTION_LMBENCH;

const struct pg_bench *const pg_group_cpuops[] = {
	&pg_cpu_ops_int,
	&pg_cpu_ops_int64,
	&pg_cpu_ops_float,
	&pg_cpu_ops_double,
	&pg_cpu_proccall,
	NULL,
};
