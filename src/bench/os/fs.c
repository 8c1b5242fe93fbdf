/* SPDX-License-Identifier: MIT */
/*
 * Files, LMBench's lat_fs, bw_file_rd and bw_mmap_rd. Everything happens in
 * a private directory made under dir= (default $TMPDIR or /tmp) and removed
 * in teardown; nothing else there is touched.
 *
 * os.fs.create: create a file, write size= bytes into it, close it; files
 * per second. os.fs.delete: unlink such a file. As in lat_fs, files go
 * 100 to a subdirectory; the files a step deletes are made before it, and
 * those a step created are removed after it, outside the timed step (the
 * runner's prepare). Counts are files actually created or removed.
 *
 * os.file.rd.io reads the file= size file again and again through one open
 * descriptor, msg= bytes per read(); os.file.rd.o2c opens, reads and closes
 * it each time. os.mmap.rd.mo maps it once and sums it again and again;
 * os.mmap.rd.o2c opens, maps, sums, unmaps and closes it each time. The
 * file is in the page cache: these are the costs of the calls and of the
 * copy (read) or the mapping (mmap), not of the storage. MB/s of the bytes
 * read or summed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/env.h"
#include "core/sysinfo.h"
#include "os.h"

#define EXT_SUPER_MAGIC 0xEF53	/* ext2, ext3 and ext4 */

#define PER_DIR 100
#define NAME_LEN 24

enum fs_kind { FS_CREATE, FS_DELETE, RD_IO, RD_O2C, MM_MO, MM_O2C };

struct fs_state {
	char dir[4096];
	char mnt[4200];		/* the file system of its own, when made (os_ownfs_make) */
	char path[4200];
	int dirfd;
	size_t size;
	char *data;		/* size bytes written to each new file */
	char (*names)[NAME_LEN];
	uint64_t nnames, cap;	/* names made; files of them that exist: live */
	uint64_t live;
	uint64_t ndirs;
	int fd;			/* the file the read benchmarks read */
	char *rbuf;		/* msg= bytes, what read() fills */
	size_t msg;
	char *map;
	uint64_t sum;
};

static int ensure_names(struct pg_ctx *ctx, struct fs_state *s, uint64_t n)
{
	if (n > s->cap) {
		void *p = realloc(s->names, n * NAME_LEN);
		if (!p)
			return pg_error(ctx, "out of memory for %llu file names", (unsigned long long)n);
		s->names = p;
		s->cap = n;
	}
	for (uint64_t i = s->nnames; i < n; i++)
		snprintf(s->names[i], NAME_LEN, "%llu/%llu", (unsigned long long)(i / PER_DIR),
			 (unsigned long long)(i % PER_DIR));
	s->nnames = n > s->nnames ? n : s->nnames;
	for (uint64_t d = s->ndirs; d * PER_DIR < n; d++) {
		char name[NAME_LEN];
		snprintf(name, sizeof(name), "%llu", (unsigned long long)d);
		if (mkdirat(s->dirfd, name, 0700) != 0 && errno != EEXIST)
			return pg_skip(ctx, "cannot make directories in %s: %s", s->dir, strerror(errno));
		s->ndirs = d + 1;
	}
	return PG_OK;
}

static int make_one(struct fs_state *s, const char *name)
{
	int fd = openat(s->dirfd, name, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	int rc = s->size ? os_write_all(fd, s->data, s->size) : 0;
	if (close(fd) != 0)
		rc = -1;
	return rc;
}

static int remove_live(struct fs_state *s)
{
	for (uint64_t i = 0; i < s->live; i++)
		if (unlinkat(s->dirfd, s->names[i], 0) != 0 && errno != ENOENT)
			return -1;
	s->live = 0;
	return 0;
}

/* Whether the directory is on ext4 without a journal: its sysfs directory
 * (named after the block device) says "<none>" for the journal's task. */
static int ext4_without_journal(int dirfd)
{
	struct statfs fs;
	struct stat st;
	if (fstatfs(dirfd, &fs) != 0 || fs.f_type != EXT_SUPER_MAGIC || fstat(dirfd, &st) != 0)
		return 0;
	char link[96], dev[256], path[320], task[32];
	snprintf(link, sizeof(link), "%s/sys/dev/block/%u:%u", pg_sysinfo_root(), major(st.st_dev),
		 minor(st.st_dev));
	ssize_t n = readlink(link, dev, sizeof(dev) - 1);
	if (n <= 0)
		return 0;
	dev[n] = '\0';
	const char *name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	snprintf(path, sizeof(path), "/sys/fs/ext4/%s/journal_task", name);
	return pg_read_file(path, task, sizeof(task)) > 0 && strcmp(task, "<none>") == 0;
}

/*
 * Where os.fs.create and .delete make their files. On ext4 without a
 * journal a create skips every free inode of the directory's block group
 * deleted in the last one to six minutes (fs/ext4/ialloc.c,
 * recently_deleted()), so the rate there is what was deleted before it:
 * docs/methodology-os.md. With dir=auto the benchmark then makes a fresh
 * ext4 of its own for each process where it may (root, loop devices,
 * mkfs.ext4), and says so; where it may not, or dir= names such a
 * directory, the result is marked as decided by what ran before.
 */
static int files_where(struct pg_ctx *ctx, struct fs_state *s)
{
	if (!ext4_without_journal(s->dirfd))
		return PG_OK;
	int own = strcmp(pg_arg_str(ctx->args, "dir"), "auto") == 0;
	if (own && os_ownfs_make(s->dir, s->mnt, sizeof(s->mnt)) == 0) {
		close(s->dirfd);
		s->dirfd = open(s->mnt, O_RDONLY | O_DIRECTORY);
		if (s->dirfd < 0)
			return pg_error(ctx, "cannot open %s", s->mnt);
		pg_note(ctx, "on a fresh ext4 of its own (a loop device, with a journal) in each process: "
			     "the directory's is ext4 without a journal, whose creates skip recent deletes");
		return PG_OK;
	}
	s->mnt[0] = '\0';
	ctx->history |= PG_HISTORY_FS;
	pg_note(ctx, "ext4 without a journal: creates skip the inodes deleted in the last minutes, so this "
		     "rate depends on what was deleted before it%s", own ? " (no file system of its own: "
		     "that needs root, loop devices and mkfs.ext4)" : "");
	return PG_OK;
}

static int fs_setup(struct pg_ctx *ctx)
{
	enum fs_kind k = *(const enum fs_kind *)ctx->bench->data;
	struct fs_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->dirfd = s->fd = -1;
	s->size = (size_t)pg_arg_int(ctx->args, "size");
	int rc = os_private_dir(ctx, pg_arg_str(ctx->args, "dir"), s->dir, sizeof(s->dir));
	if (rc != PG_OK)
		return rc;
	s->dirfd = open(s->dir, O_RDONLY | O_DIRECTORY);
	if (s->dirfd < 0)
		return pg_error(ctx, "cannot open %s", s->dir);
	s->data = malloc(s->size ? s->size : 1);
	if (!s->data)
		return pg_error(ctx, "out of memory");
	memset(s->data, 0x5a, s->size);
	if (k == FS_CREATE || k == FS_DELETE)
		return files_where(ctx, s);
	snprintf(s->path, sizeof(s->path), "%s/data", s->dir);
	s->fd = open(s->path, O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0600);
	if (s->fd < 0 || os_write_all(s->fd, s->data, s->size) < 0)
		return pg_skip(ctx, "cannot write %zu bytes in %s: is there room?", s->size, s->dir);
	if (k == RD_IO || k == RD_O2C) {
		s->msg = (size_t)pg_arg_int(ctx->args, "msg");
		s->rbuf = malloc(s->msg);
		if (!s->rbuf)
			return pg_error(ctx, "out of memory");
	}
	if (k == MM_MO) {
		s->map = mmap(NULL, s->size, PROT_READ, MAP_SHARED, s->fd, 0);
		if (s->map == MAP_FAILED) {
			s->map = NULL;
			return pg_error(ctx, "cannot map %s", s->path);
		}
	}
	return PG_OK;
}

static void fs_teardown(struct pg_ctx *ctx)
{
	struct fs_state *s = ctx->priv;
	if (!s)
		return;
	if (s->map)
		munmap(s->map, s->size);
	if (s->fd >= 0)
		close(s->fd);
	if (s->dirfd >= 0)
		close(s->dirfd);
	os_ownfs_remove(s->mnt);
	os_remove_tree(s->dir);
	free(s->names);
	free(s->rbuf);
	free(s->data);
	free(s);
}

/* Untimed: clears what the last step made, and makes what this one deletes. */
static int fs_prepare(struct pg_ctx *ctx, uint64_t iters)
{
	enum fs_kind k = *(const enum fs_kind *)ctx->bench->data;
	struct fs_state *s = ctx->priv;
	if (remove_live(s) != 0)
		return pg_error(ctx, "cannot remove files in %s: %s", s->dir, strerror(errno));
	int rc = ensure_names(ctx, s, iters);
	if (rc != PG_OK || k != FS_DELETE)
		return rc;
	for (uint64_t i = 0; i < iters; i++) {
		if (make_one(s, s->names[i]) != 0)
			return pg_skip(ctx, "cannot create files in %s (%s): is there room?", s->dir,
				       strerror(errno));
		s->live = i + 1;
	}
	return PG_OK;
}

static int sum_words(struct fs_state *s, const char *p, size_t n)
{
	uint64_t a = 0, b = 0;
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		uint64_t x, y;
		memcpy(&x, p + i, 8);
		memcpy(&y, p + i + 8, 8);
		a += x;
		b += y;
	}
	for (; i < n; i++)
		a += (unsigned char)p[i];
	s->sum += a + b;
	return 0;
}

static int read_file(struct pg_ctx *ctx, struct fs_state *s, int fd, uint64_t *got)
{
	size_t left = s->size;
	off_t off = 0;
	while (left > 0) {
		size_t n = left < s->msg ? left : s->msg;
		ssize_t r = pread(fd, s->rbuf, n, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return pg_error(ctx, "read of %s stopped at %lld bytes", s->path, (long long)off);
		off += r;
		left -= (size_t)r;
		*got += (uint64_t)r;
	}
	return PG_OK;
}

static int fs_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	enum fs_kind k = *(const enum fs_kind *)ctx->bench->data;
	struct fs_state *s = ctx->priv;
	uint64_t done = 0;
	int rc;
	for (uint64_t i = 0; i < iters; i++) {
		switch (k) {
		case FS_CREATE:
			if (make_one(s, s->names[i]) != 0)
				return pg_error(ctx, "create %s/%s failed: %s", s->dir, s->names[i],
						strerror(errno));
			s->live = i + 1;
			done++;
			break;
		case FS_DELETE:
			if (unlinkat(s->dirfd, s->names[i], 0) != 0)
				return pg_error(ctx, "unlink %s/%s failed: %s", s->dir, s->names[i],
						strerror(errno));
			done++;
			break;
		case RD_IO:
			if ((rc = read_file(ctx, s, s->fd, &done)) != PG_OK)
				return rc;
			break;
		case RD_O2C: {
			int fd = open(s->path, O_RDONLY);
			if (fd < 0)
				return pg_error(ctx, "open %s failed", s->path);
			rc = read_file(ctx, s, fd, &done);
			close(fd);
			if (rc != PG_OK)
				return rc;
			break;
		}
		case MM_MO:
			sum_words(s, s->map, s->size);
			done += s->size;
			break;
		case MM_O2C: {
			int fd = open(s->path, O_RDONLY);
			if (fd < 0)
				return pg_error(ctx, "open %s failed", s->path);
			void *p = mmap(NULL, s->size, PROT_READ, MAP_SHARED, fd, 0);
			if (p == MAP_FAILED) {
				close(fd);
				return pg_error(ctx, "mmap of %s failed", s->path);
			}
			sum_words(s, p, s->size);
			munmap(p, s->size);
			close(fd);
			done += s->size;
			break;
		}
		}
	}
	if (k == FS_DELETE)
		s->live = 0;
	pg_consume(s->sum);
	counts[0] = (double)done;
	return PG_OK;
}

static void size_text(int64_t size, const char *unit_k, const char *unit_m, char *buf, size_t len)
{
	if (size >= (1 << 20) && size % (1 << 20) == 0)
		snprintf(buf, len, "%lld%s", (long long)(size >> 20), unit_m);
	else
		snprintf(buf, len, "%lld%s", (long long)(size >> 10), unit_k);
}

static void fs_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		     char *buf, size_t len)
{
	(void)metric;
	enum fs_kind k = *(const enum fs_kind *)b->data;
	int64_t size = pg_arg_int(a, "size");
	char sz[32];
	size_text(size, "k", "m", sz, sizeof(sz));
	switch (k) {
	case FS_CREATE:
		/* The seed's lat_fs rows are the creation figure per size. */
		snprintf(buf, len, "lat_fs-%s", sz);
		break;
	case FS_DELETE:
		buf[0] = '\0';
		break;
	default:
		size_text(size, "kb", "mb", sz, sizeof(sz));
		snprintf(buf, len, "%s-%s-%s", k <= RD_O2C ? "bw_file_rd" : "bw_mmap_rd",
			 k == RD_IO ? "io" : k == MM_MO ? "mo" : "o2c", sz);
		break;
	}
}

static const struct pg_param fs_params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "0", .choices = "0,0k", .min = 0, .max = 64 << 20,
	  .help = "bytes written into each file", .standard = "0,1k,4k,10k",
	  .full = "0,1k,4k,10k,64k" },
	{ .name = "dir", .type = PG_P_STR, .def = "auto",
	  .help = "where the private directory is made (auto: $TMPDIR or /tmp)" },
	{ 0 },
};
/* Deleting is fast but each file deleted is made first, untimed, at the
 * (much slower) creation rate, so a sample costs tens of times its length:
 * only the full suite runs it (the seed's lat_fs rows are creation figures). */
static const struct pg_param del_params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "0", .choices = "0,0k", .min = 0, .max = 64 << 20,
	  .help = "bytes in each file deleted" },
	{ .name = "dir", .type = PG_P_STR, .def = "auto",
	  .help = "where the private directory is made (auto: $TMPDIR or /tmp)" },
	{ 0 },
};
static const struct pg_param rd_params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "1m", .min = 4096, .max = INT64_C(1) << 32,
	  .mem_factor = 1, .help = "bytes of the file", .full = "64k,1m,16m" },
	{ .name = "msg", .type = PG_P_SIZE, .def = "64k", .min = 1, .max = 64 << 20,
	  .help = "bytes per read() (bw_file_rd uses 64 KiB)" },
	{ .name = "dir", .type = PG_P_STR, .def = "auto",
	  .help = "where the private directory is made (auto: $TMPDIR or /tmp)" },
	{ 0 },
};
static const struct pg_param mm_params[] = {
	{ .name = "size", .type = PG_P_SIZE, .def = "1m", .min = 4096, .max = INT64_C(1) << 32,
	  .mem_factor = 1, .help = "bytes of the file", .full = "64k,1m,16m" },
	{ .name = "dir", .type = PG_P_STR, .def = "auto",
	  .help = "where the private directory is made (auto: $TMPDIR or /tmp)" },
	{ 0 },
};

static const struct pg_metric files_per_s[] = {
	{ "rate", "files/s", PG_RATE, 1, 1, 0 },
	{ 0 },
};
static const struct pg_metric mb_per_s[] = {
	{ "bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ 0 },
};

static const enum fs_kind k_create = FS_CREATE, k_delete = FS_DELETE, k_io = RD_IO,
	k_o2c = RD_O2C, k_mo = MM_MO, k_mo2c = MM_O2C;

const struct pg_bench pg_os_fs_create = {
	.id = "os.fs.create", .title = "File creation (lat_fs create)",
	.section = &pg_os_sec_lmbench,
	.params = fs_params, .metrics = files_per_s, .data = &k_create,
	.setup = fs_setup, .prepare = fs_prepare, .step = fs_step, .teardown = fs_teardown,
	.label = fs_label,
};
const struct pg_bench pg_os_fs_delete = {
	.id = "os.fs.delete", .title = "File deletion (lat_fs delete)",
	.section = &pg_os_sec_lmbench,
	.params = del_params, .metrics = files_per_s, .data = &k_delete, .min_suite = PG_IN_FULL,
	.setup = fs_setup, .prepare = fs_prepare, .step = fs_step, .teardown = fs_teardown,
	.label = fs_label,
};
const struct pg_bench pg_os_file_rd_io = {
	.id = "os.file.rd.io", .title = "File read, open once (bw_file_rd io_only)",
	.section = &pg_os_sec_lmbench,
	.params = rd_params, .metrics = mb_per_s, .data = &k_io,
	.setup = fs_setup, .step = fs_step, .teardown = fs_teardown, .label = fs_label,
};
const struct pg_bench pg_os_file_rd_o2c = {
	.id = "os.file.rd.o2c", .title = "File read, open to close (bw_file_rd open2close)",
	.section = &pg_os_sec_lmbench,
	.params = rd_params, .metrics = mb_per_s, .data = &k_o2c, .min_suite = PG_IN_STANDARD,
	.setup = fs_setup, .step = fs_step, .teardown = fs_teardown, .label = fs_label,
};
const struct pg_bench pg_os_mmap_rd_mo = {
	.id = "os.mmap.rd.mo", .title = "Mapped file read, map once (bw_mmap_rd mmap_only)",
	.section = &pg_os_sec_lmbench,
	.params = mm_params, .metrics = mb_per_s, .data = &k_mo,
	.setup = fs_setup, .step = fs_step, .teardown = fs_teardown, .label = fs_label,
};
const struct pg_bench pg_os_mmap_rd_o2c = {
	.id = "os.mmap.rd.o2c", .title = "Mapped file read, open to close (bw_mmap_rd open2close)",
	.section = &pg_os_sec_lmbench,
	.params = mm_params, .metrics = mb_per_s, .data = &k_mo2c, .min_suite = PG_IN_STANDARD,
	.setup = fs_setup, .step = fs_step, .teardown = fs_teardown, .label = fs_label,
};
