/* SPDX-License-Identifier: MIT */
/*
 * System call latency, LMBench's lat_syscall: one operation is one call.
 * null is getppid() (the kernel does nothing and returns), read and write
 * move one byte from /dev/zero and to /dev/null, stat and fstat look at a
 * small file, open opens and closes it. The file lives in a private
 * directory (under dir=, default auto: $TMPDIR or /tmp) that teardown removes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os.h"

enum sc_kind { SC_NULL, SC_READ, SC_WRITE, SC_STAT, SC_FSTAT, SC_OPEN };

struct sc_state {
	char dir[4096];
	char file[4200];
	int fd;
};

static int sc_setup(struct pg_ctx *ctx)
{
	enum sc_kind k = *(const enum sc_kind *)ctx->bench->data;
	struct sc_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	s->fd = -1;
	ctx->priv = s;
	switch (k) {
	case SC_NULL:
		return PG_OK;
	case SC_READ:
		s->fd = open("/dev/zero", O_RDONLY);
		if (s->fd < 0)
			return pg_skip(ctx, "cannot open /dev/zero");
		return PG_OK;
	case SC_WRITE:
		s->fd = open("/dev/null", O_WRONLY);
		if (s->fd < 0)
			return pg_skip(ctx, "cannot open /dev/null");
		return PG_OK;
	default:
		break;
	}
	int rc = os_private_dir(ctx, pg_arg_str(ctx->args, "dir"), s->dir, sizeof(s->dir));
	if (rc != PG_OK)
		return rc;
	snprintf(s->file, sizeof(s->file), "%s/file", s->dir);
	s->fd = open(s->file, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0600);
	if (s->fd < 0 || write(s->fd, "perfguide\n", 10) != 10)
		return pg_error(ctx, "cannot write %s", s->file);
	return PG_OK;
}

static void sc_teardown(struct pg_ctx *ctx)
{
	struct sc_state *s = ctx->priv;
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	os_remove_tree(s->dir);
	free(s);
}

static int sc_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	enum sc_kind k = *(const enum sc_kind *)ctx->bench->data;
	struct sc_state *s = ctx->priv;
	struct stat st;
	char c;
	uint64_t sum = 0;
	for (uint64_t i = 0; i < iters; i++) {
		switch (k) {
		case SC_NULL:
			sum += (uint64_t)getppid();
			break;
		case SC_READ:
			if (read(s->fd, &c, 1) != 1)
				return pg_error(ctx, "read from /dev/zero failed");
			break;
		case SC_WRITE:
			if (write(s->fd, &c, 1) != 1)
				return pg_error(ctx, "write to /dev/null failed");
			break;
		case SC_STAT:
			if (stat(s->file, &st) != 0)
				return pg_error(ctx, "stat %s failed", s->file);
			sum += (uint64_t)st.st_size;
			break;
		case SC_FSTAT:
			if (fstat(s->fd, &st) != 0)
				return pg_error(ctx, "fstat failed");
			sum += (uint64_t)st.st_size;
			break;
		case SC_OPEN: {
			int fd = open(s->file, O_RDONLY);
			if (fd < 0)
				return pg_error(ctx, "open %s failed", s->file);
			close(fd);
			break;
		}
		}
	}
	pg_consume(sum);
	counts[0] = (double)iters;
	return PG_OK;
}

static void sc_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		     char *buf, size_t len)
{
	(void)a;
	(void)metric;
	snprintf(buf, len, "lat_syscall-%s", strrchr(b->id, '.') + 1);
}

static const struct pg_param no_params[] = { { 0 } };
static const struct pg_param file_params[] = {
	{ .name = "dir", .type = PG_P_STR, .def = "auto",
	  .help = "where the private directory for the file is made (auto: $TMPDIR or /tmp)" },
	{ 0 },
};

static const struct pg_metric us_per_call[] = {
	{ "latency", "us", PG_TIME_PER, 1e6, 0, 0 },
	{ 0 },
};

static const enum sc_kind k_null = SC_NULL, k_read = SC_READ, k_write = SC_WRITE,
	k_stat = SC_STAT, k_fstat = SC_FSTAT, k_open = SC_OPEN;

#define SYSCALL(name, kind, plist, what, suite)					\
	const struct pg_bench pg_os_syscall_##name = {					\
		.id = "os.syscall." #name,						\
		.section = &pg_os_sec_lmbench,                                          \
		.title = what " (lat_syscall " #name ")",				\
		.params = plist, .metrics = us_per_call, .data = &kind,		\
		.setup = sc_setup, .step = sc_step, .teardown = sc_teardown,		\
		.label = sc_label, .min_suite = suite,					\
	}

SYSCALL(null, k_null, no_params, "Null system call, getppid()", 0);
SYSCALL(read, k_read, no_params, "Read one byte from /dev/zero", 0);
SYSCALL(write, k_write, no_params, "Write one byte to /dev/null", PG_IN_STANDARD);
SYSCALL(stat, k_stat, file_params, "stat() of a small file", 0);
SYSCALL(fstat, k_fstat, file_params, "fstat() of an open file", PG_IN_STANDARD);
SYSCALL(open, k_open, file_params, "open() and close() of a small file", 0);
