/* SPDX-License-Identifier: MIT */
/*
 * Mappings and page faults on a file, LMBench's lat_pagefault and lat_mmap.
 * The file (size=, default 1 MiB... lat_pagefault wants at least 1 MiB) is
 * made in a private directory and is in the page cache, so faults are minor:
 * the kernel maps a cached page, it does not read the disk.
 *
 * os.pagefault: map the file read-only, read one byte of every page in a
 * shuffled order, unmap. One operation is one page; the cost of the mmap()
 * and munmap() alone, measured in setup, comes off, as lat_pagefault does.
 * Linux maps several neighbouring cached pages per fault ("fault-around",
 * /sys/kernel/mm/... fault_around_bytes, 64 KiB by default), so this is the
 * cost per page brought in, as lat_pagefault reports it, not per trap.
 *
 * os.mmap: map the file read-write and shared, write a byte every 16 KiB
 * over the first tenth of it, unmap: lat_mmap's mix of a sparse touch and
 * the mapping's set-up and tear-down. One operation is one such mapping.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "os.h"

enum vm_kind { VM_PAGEFAULT, VM_MMAP };

struct vm_state {
	char dir[4096];
	int fd;
	size_t size, page, npages;
	size_t *order;		/* page offsets in the order they are touched */
	uint64_t sum;
};

static int make_file(struct pg_ctx *ctx, const char *dir, size_t size, int *fd_out)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/data", dir);
	int fd = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return pg_error(ctx, "cannot create %s", path);
	*fd_out = fd;
	char buf[65536];
	memset(buf, 0x5a, sizeof(buf));
	for (size_t done = 0; done < size;) {
		size_t n = size - done < sizeof(buf) ? size - done : sizeof(buf);
		if (os_write_all(fd, buf, n) < 0)
			return pg_skip(ctx, "cannot write %zu bytes in %s: is there room?", size, dir);
		done += n;
	}
	return PG_OK;
}

static void map_unmap(void *arg, uint64_t n)
{
	struct vm_state *s = arg;
	for (uint64_t i = 0; i < n; i++) {
		void *p = mmap(NULL, s->size, PROT_READ, MAP_SHARED, s->fd, 0);
		if (p != MAP_FAILED)
			munmap(p, s->size);
	}
}

static int vm_setup(struct pg_ctx *ctx)
{
	enum vm_kind k = *(const enum vm_kind *)ctx->bench->data;
	struct vm_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->fd = -1;
	long pg = sysconf(_SC_PAGESIZE);
	s->page = pg > 0 ? (size_t)pg : 4096;
	s->size = (size_t)pg_arg_int(ctx->args, "size") / s->page * s->page;
	s->npages = s->size / s->page;
	int rc = os_private_dir(ctx, pg_arg_str(ctx->args, "dir"), s->dir, sizeof(s->dir));
	if (rc == PG_OK)
		rc = make_file(ctx, s->dir, s->size, &s->fd);
	if (rc != PG_OK)
		return rc;
	if (k == VM_MMAP)
		return PG_OK;
	s->order = malloc(s->npages * sizeof(*s->order));
	if (!s->order)
		return pg_error(ctx, "out of memory");
	for (size_t i = 0; i < s->npages; i++)
		s->order[i] = i * s->page;
	uint64_t x = UINT64_C(0x2545f4914f6cdd1d);
	for (size_t i = s->npages; i > 1; i--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size_t j = (size_t)(x % i), t = s->order[i - 1];
		s->order[i - 1] = s->order[j];
		s->order[j] = t;
	}
	ctx->overhead[0] = os_time_per(map_unmap, s) / (double)s->npages;
	pg_note(ctx, "mmap+munmap %.2f us per mapping subtracted", ctx->overhead[0] * s->npages * 1e6);
	return PG_OK;
}

static void vm_teardown(struct pg_ctx *ctx)
{
	struct vm_state *s = ctx->priv;
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	os_remove_tree(s->dir);
	free(s->order);
	free(s);
}

static int vm_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	enum vm_kind k = *(const enum vm_kind *)ctx->bench->data;
	struct vm_state *s = ctx->priv;
	for (uint64_t i = 0; i < iters; i++) {
		if (k == VM_PAGEFAULT) {
			const volatile char *p = mmap(NULL, s->size, PROT_READ, MAP_SHARED, s->fd, 0);
			if (p == MAP_FAILED)
				return pg_error(ctx, "mmap of %zu bytes failed", s->size);
			for (size_t j = 0; j < s->npages; j++)
				s->sum += (uint64_t)p[s->order[j]];
			munmap((void *)(uintptr_t)p, s->size);
		} else {
			volatile char *p = mmap(NULL, s->size, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
			if (p == MAP_FAILED)
				return pg_error(ctx, "mmap of %zu bytes failed", s->size);
			for (size_t off = 0; off < s->size / 10; off += 16384)
				p[off] = (char)off;
			munmap((void *)(uintptr_t)p, s->size);
		}
	}
	pg_consume(s->sum);
	counts[0] = k == VM_PAGEFAULT ? (double)iters * (double)s->npages : (double)iters;
	return PG_OK;
}

static void vm_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		     char *buf, size_t len)
{
	(void)metric;
	enum vm_kind k = *(const enum vm_kind *)b->data;
	int64_t size = pg_arg_int(a, "size");
	if (k == VM_PAGEFAULT)
		snprintf(buf, len, "lat_pagefault");
	else if (size % (1 << 20) == 0)
		snprintf(buf, len, "lat_mmap-%lldm", (long long)(size >> 20));
	else
		snprintf(buf, len, "lat_mmap-%lldk", (long long)(size >> 10));
}

static const struct pg_param vm_params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "1m", .min = 65536, .max = INT64_C(1) << 32,
	  .mem_factor = 1, .help = "bytes of the file that is mapped", .full = "1m,16m" },
	{ .name = "dir", .type = PG_P_STR, .def = "auto",
	  .help = "where the private directory for the file is made (auto: $TMPDIR or /tmp)" },
	{ 0 },
};
static const struct pg_metric us_per_op[] = {
	{ "latency", "us", PG_TIME_PER, 1e6, 0, 0 },
	{ 0 },
};

static const enum vm_kind k_fault = VM_PAGEFAULT, k_mmap = VM_MMAP;

const struct pg_bench pg_os_pagefault = {
	.id = "os.pagefault", .title = "Page fault on a cached file page (lat_pagefault)",
	.section = &pg_os_sec_lmbench,
	.params = vm_params, .metrics = us_per_op, .data = &k_fault,
	.setup = vm_setup, .step = vm_step, .teardown = vm_teardown, .label = vm_label,
};
const struct pg_bench pg_os_mmap = {
	.id = "os.mmap", .title = "Map, touch sparsely and unmap a file (lat_mmap)",
	.section = &pg_os_sec_lmbench,
	.params = vm_params, .metrics = us_per_op, .data = &k_mmap,
	.setup = vm_setup, .step = vm_step, .teardown = vm_teardown, .label = vm_label,
};
