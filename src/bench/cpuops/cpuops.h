/* SPDX-License-Identifier: MIT */
/* CPU operation latencies (LMBench lat_ops, lat_proc proccall). */
#ifndef PG_BENCH_CPUOPS_H
#define PG_BENCH_CPUOPS_H

#include "core/bench.h"

extern const struct pg_bench pg_cpu_ops_int, pg_cpu_ops_int64, pg_cpu_ops_float,
	pg_cpu_ops_double, pg_cpu_proccall;

/* lat_ops and lat_proc rows belong in the guide's LMBench table. */
extern const struct pg_section pg_cpuops_sec_lmbench;

#endif
