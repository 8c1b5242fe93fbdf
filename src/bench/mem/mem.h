/* SPDX-License-Identifier: MIT */
/* The memory group: bandwidth (bw_mem), latency (lat_mem_rd), STREAM. */
#ifndef PG_BENCH_MEM_H
#define PG_BENCH_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "core/bench.h"

/* Page-aligned, as bw_mem's valloc; free() releases it. NULL on failure. */
void *pg_mem_alloc(size_t bytes);

struct pg_machine;
/* Whether a working set of this many bytes (all copies together) lies past
 * the machine's inner caches and within a last-level cache it shares with
 * work it cannot see (pg_machine_llc_shared). */
int pg_mem_tenants_decide(const struct pg_machine *m, uint64_t bytes);
/* Setup's part of that: on such a machine and working set the result's
 * figure is marked as decided by the host's other tenants
 * (PG_HISTORY_TENANTS: compare reports it, and does not gate it). */
void pg_mem_mark_tenants(struct pg_ctx *ctx, uint64_t bytes);

extern const struct pg_bench pg_mem_bw_rd, pg_mem_bw_wr, pg_mem_bw_rdwr, pg_mem_bw_cp,
	pg_mem_bw_frd, pg_mem_bw_fwr, pg_mem_bw_fcp, pg_mem_bw_bzero, pg_mem_bw_bcopy;
extern const struct pg_bench pg_mem_lat_rd, pg_mem_lat_rand;
extern const struct pg_bench pg_mem_stream_copy, pg_mem_stream_scale, pg_mem_stream_add,
	pg_mem_stream_triad;

/* The guide's tables: LMBench (bw_mem, lat_mem_rd) and Stream. */
extern const struct pg_section pg_mem_sec_lmbench, pg_mem_sec_stream;

#endif
