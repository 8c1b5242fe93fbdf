/* The memory group: bandwidth (bw_mem), latency (lat_mem_rd), STREAM. */
#ifndef PG_BENCH_MEM_H
#define PG_BENCH_MEM_H

#include <stddef.h>

#include "core/bench.h"

/* Page-aligned, as bw_mem's valloc; free() releases it. NULL on failure. */
void *pg_mem_alloc(size_t bytes);

extern const struct pg_bench pg_mem_bw_rd, pg_mem_bw_wr, pg_mem_bw_rdwr, pg_mem_bw_cp,
	pg_mem_bw_frd, pg_mem_bw_fwr, pg_mem_bw_fcp, pg_mem_bw_bzero, pg_mem_bw_bcopy;
extern const struct pg_bench pg_mem_lat_rd, pg_mem_lat_rand;
extern const struct pg_bench pg_mem_stream_copy, pg_mem_stream_scale, pg_mem_stream_add,
	pg_mem_stream_triad;

/* The guide's tables: LMBench (bw_mem, lat_mem_rd) and Stream. */
extern const struct pg_section pg_mem_sec_lmbench, pg_mem_sec_stream;

#endif
