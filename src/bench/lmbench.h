/* SPDX-License-Identifier: MIT */
/*
 * The seed guide's LMBench table, which three groups fill (mem: bw_mem and
 * lat_mem_rd; os: the system rows; cpuops: lat_ops and lat_proc). Each
 * declares its section with this, so that the three declarations agree.
 */
#ifndef PG_BENCH_LMBENCH_H
#define PG_BENCH_LMBENCH_H

#define PG_SECTION_LMBENCH                                                              \
	{                                                                               \
		.title = "LMBench", .order = 10,                                        \
		.intro = "Memory bandwidth and latency, and operating-system costs, "   \
			 "counted as lmbench counts them.",                             \
	}

#endif
