/* SPDX-License-Identifier: MIT */
/* The memory group's table: one line per benchmark, in the guide's order. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/lmbench.h"
#include "core/env.h"
#include "core/sysinfo.h"
#include "mem.h"

void *pg_mem_alloc(size_t bytes)
{
	void *p = NULL;
	long page = sysconf(_SC_PAGESIZE);
	if (posix_memalign(&p, page > 0 ? (size_t)page : 4096, bytes) != 0)
		return NULL;
	return p;
}

/*
 * A working set larger than a core's own caches and no larger than the
 * last-level cache is read from that cache as far as it holds it. On a
 * virtual machine the host's other tenants hold part of it, as much as
 * they please: on this project's 2-vCPU KVM guest (32 MiB L3, 1 MiB L2)
 * mem.lat.rand of 4 MiB read 6.7 ns in one run and 61 to 159 ns in the
 * next, mem.lat.rd of 16 MiB 9.5 to 14 ns, and mem.bw.wr of 16 MiB
 * 69-85 GB/s in one run's six processes and 40-53 GB/s in the next's, each
 * tight within its run. Such a figure says what the neighbours did, not
 * what the build does: the record says so and compare reports the row
 * without gating it (docs/methodology.md, "The release gate").
 */
int pg_mem_tenants_decide(const struct pg_machine *m, uint64_t bytes)
{
	int64_t llc = pg_machine_llc(m), inner = pg_machine_inner_cache(m);
	return pg_machine_llc_shared(m) && llc > 0 && inner > 0 && bytes > (uint64_t)inner &&
	       bytes <= (uint64_t)llc;
}

static struct pg_machine machine;
static pthread_once_t machine_once = PTHREAD_ONCE_INIT;

static void machine_read(void)
{
	pg_machine_read(&machine);
}

void pg_mem_mark_tenants(struct pg_ctx *ctx, uint64_t bytes)
{
	pthread_once(&machine_once, machine_read);
	if (!pg_mem_tenants_decide(&machine, bytes))
		return;
	ctx->history |= PG_HISTORY_TENANTS;
	if (ctx->copy != 0)
		return;
	/* after what setup noted already */
	size_t at = strlen(ctx->note);
	snprintf(ctx->note + at, PG_MSG_LEN - at, "%sits %llu KiB lie in the last-level cache (%lld KiB) that "
		 "this machine (%s) shares with the host's other work: compare reports it, not gated",
		 at ? "; " : "", (unsigned long long)(bytes >> 10), (long long)(pg_machine_llc(&machine) >> 10),
		 machine.virt);
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
