/* The memory group's table: one line per benchmark, in the guide's order. */
#include <stdlib.h>
#include <unistd.h>

#include "bench/lmbench.h"
#include "mem.h"

void *pg_mem_alloc(size_t bytes)
{
	void *p = NULL;
	long page = sysconf(_SC_PAGESIZE);
	if (posix_memalign(&p, page > 0 ? (size_t)page : 4096, bytes) != 0)
		return NULL;
	return p;
}

const struct pg_section pg_mem_sec_lmbench = PG_SECTION_LMBENCH;
const struct pg_section pg_mem_sec_stream = {
	.title = "Stream", .order = 60,
	.intro = "Sustained memory bandwidth; a byte read and a byte written each count.",
};

const struct pg_bench *const pg_group_mem[] = {
	&pg_mem_bw_rd,
	&pg_mem_bw_wr,
	&pg_mem_bw_rdwr,
	&pg_mem_bw_cp,
	&pg_mem_bw_frd,
	&pg_mem_bw_fwr,
	&pg_mem_bw_fcp,
	&pg_mem_bw_bzero,
	&pg_mem_bw_bcopy,
	&pg_mem_lat_rd,
	&pg_mem_lat_rand,
	&pg_mem_stream_copy,
	&pg_mem_stream_scale,
	&pg_mem_stream_add,
	&pg_mem_stream_triad,
	NULL,
};
