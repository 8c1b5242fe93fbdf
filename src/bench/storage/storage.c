/* SPDX-License-Identifier: MIT */
/*
 * The storage group's benchmarks: fio's time-based jobs, one table line
 * each. The seed's tables come from
 *   fio --ioengine=libaio --iodepth=4 --numjobs=1 --direct=1 --runtime=60
 *       --time_based --rw=write|read --bs=4k|256k|1m|4m --size=1G
 * on a file in the mounted file system, or on the unmounted device ("RAW").
 * `perfguide run storage.write -p engine=libaio -p time=60 --runs 1` is the
 * same job; docs/methodology-storage.md says what is counted.
 *
 * setup (untimed, outside the CPU-load window): the target is checked
 * again, the file made and unlinked at once (so nothing is left whatever
 * ends the run: Ctrl-C, SIGTERM, a crash), laid out with data (after
 * fio's fallocate for jobs that only write) and kept for the run's next
 * results. Each sample is one trial: `ramp` seconds not counted, then
 * `time` seconds.
 */
/* 64-bit file offsets on 32-bit targets (armhf): files and devices past 2 GB. */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <linux/fs.h>

#include "pg_build.h"
#include "core/params.h"
#include "core/runner.h"
#include "storage.h"
#include "core/err.h"

/* Space left free on a file system the files are capped to fit in. */
#define FREE_RESERVE_DIV 20

struct st_state {
	const struct st_kind *kind;
	enum st_target_type type;
	struct st_target target;	/* what the check saw: what is opened must be it */
	char file[PATH_MAX];	/* for messages: the file or device */
	int fd;
	int excl_fd;		/* a device written: held exclusively meanwhile */
	int direct;
	uint64_t size;
	struct st_job *job;
	const struct st_engine *engine;
	int shared;		/* counted in the copies' shared size */
};

/* The file size every copy of one run uses, worked out once before any
 * copy allocates (or each would see the others' files as used space). */
static struct {
	pthread_mutex_t lock;
	const struct pg_args *args;
	int users;
	uint64_t size;
	int err;
	char why[PG_MSG_LEN];
} shared = { .lock = PTHREAD_MUTEX_INITIALIZER };

static const char *yes_no(int v)
{
	return v ? "yes" : "no";
}

/* Appends "key=value" (or the text alone) to a note, "; " between, cut
 * short where it does not fit; nothing when value is empty. */
static void storage_note_add(char *note, size_t len, const char *key, const char *value)
{
	size_t n = strlen(note);
	if (!value[0])
		return;
	const char *parts[] = { n ? "; " : "", key ? key : "", key ? "=" : "", value };
	for (size_t i = 0; i < 4; i++)
		for (const char *p = parts[i]; *p && n + 1 < len; p++)
			note[n++] = *p;
	note[n] = '\0';
}

static int64_t arg(const struct pg_ctx *ctx, const char *name)
{
	return pg_arg_int(ctx->args, name);
}

/* The destroy parameter: "" when none was given. */
static const char *destroy_arg(const struct pg_args *a)
{
	const char *d = pg_arg_str(a, "destroy");
	return strcmp(d, "none") == 0 ? "" : d;
}

/* The path of copy's own file: in a directory, a name of ours; a file to
 * make, its name (a suffix per copy when there are several). */
static void own_name(const struct pg_ctx *ctx, enum st_target_type type, const char *path,
		     char *out, size_t len)
{
	if (type == ST_DIR)
		snprintf(out, len, "%s%sperfguide-storage.%ld.%d", path,
			 path[strlen(path) - 1] == '/' ? "" : "/", (long)getpid(), ctx->copy);
	else if (ctx->copies > 1)
		snprintf(out, len, "%s.%d", path, ctx->copy);
	else
		snprintf(out, len, "%s", path);
}

/* The directory holding our files. */
static void files_dir(enum st_target_type type, const char *path, char *out, size_t len)
{
	if (type == ST_DIR)
		snprintf(out, len, "%s", path);
	else
		st_parent_dir(path, out, len);
}

/* Size of each copy's own file: `size`, capped so that all copies' files
 * fit in what is free (less a reserve). */
static int own_size(struct pg_ctx *ctx, struct st_state *s, const char *dir, uint64_t want,
		    uint32_t bs)
{
	pthread_mutex_lock(&shared.lock);
	if (shared.args != ctx->args || shared.users == 0) {
		shared.args = ctx->args;
		shared.users = 0;
		shared.err = 0;
		shared.why[0] = '\0';
		struct statvfs sv;
		uint64_t size = want;
		/* No blocks at all: a file system that keeps no count (ramfs). */
		if (statvfs(dir, &sv) == 0 && sv.f_frsize && sv.f_blocks) {
			uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
			uint64_t usable = avail - avail / FREE_RESERVE_DIV;
			uint64_t per = usable / (uint64_t)ctx->copies / bs * bs;
			char w[32], a[32];
			pg_format_size((int64_t)want, w, sizeof(w));
			pg_format_size((int64_t)(avail / 1024 * 1024), a, sizeof(a));
			if (per < (uint64_t)bs * (uint64_t)arg(ctx, "depth") || per < bs) {
				shared.err = ENOSPC;
				snprintf(shared.why, sizeof(shared.why),
					 "no room for %s: %s bytes free in %.160s (ENOSPC)",
					 ctx->copies > 1 ? "the jobs' files" : "the file", a, dir);
			} else if (per < size) {
				size = per;
				snprintf(shared.why, sizeof(shared.why), "size %s capped: %s bytes free", w, a);
			}
		}
		shared.size = size / bs * bs;
	}
	shared.users++;
	s->shared = 1;
	s->size = shared.size;
	int err = shared.err;
	if (ctx->copy == 0 && shared.why[0] && !err)
		snprintf(ctx->note, sizeof(ctx->note), "%s", shared.why);
	if (err)
		pg_error(ctx, "%s: %s", s->file, shared.why);
	pthread_mutex_unlock(&shared.lock);
	return err ? PG_ERROR : PG_OK;
}

/* Our own file, made in the directory the check saw (opened and compared
 * first: a link swapped in for it is refused) and unlinked at once. */
static int make_own(struct pg_ctx *ctx, struct st_state *s, const char *path)
{
	char dir[PATH_MAX], err[PG_MSG_LEN];
	int e;
	files_dir(s->type, path, dir, sizeof(dir));
	int dfd = st_target_open(dir, &s->target, O_RDONLY | O_DIRECTORY, err, sizeof(err));
	if (dfd < 0)
		return pg_error(ctx, "%s", err);
	const char *name = strrchr(s->file, '/') ? strrchr(s->file, '/') + 1 : s->file;
	s->fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (s->fd < 0) {
		e = errno;
		close(dfd);
		/* The default directory (wherever perfguide was started) may be
		 * read-only on a board: not a failure of the medium, which the
		 * user has not named yet. */
		if (strcmp(path, ".") == 0 && (e == EROFS || e == EACCES || e == EPERM))
			return pg_skip(ctx, "%s: cannot create: %s (%s): give -p path=DIR on the medium "
				       "to measure", s->file, strerror(e), st_errno_name(e));
		return pg_error(ctx, "%s: cannot create: %s (%s)", s->file, strerror(e), st_errno_name(e));
	}
	/* Gone from the directory at once: nothing can be left behind,
	 * however the run ends. The space is freed at close. */
	int rc = unlinkat(dfd, name, 0);
	e = errno;
	close(dfd);
	if (rc < 0)
		return pg_error(ctx, "%s: cannot remove the file just made: %s (%s)", s->file, strerror(e),
				st_errno_name(e));
	return PG_OK;
}

static int open_target(struct pg_ctx *ctx, struct st_state *s, const char *path)
{
	const struct st_kind *k = s->kind;
	char err[PG_MSG_LEN];
	switch (s->type) {
	case ST_DIR:
	case ST_NEWFILE:
		return make_own(ctx, s, path);
	case ST_FILE:
	case ST_BLOCK:
		snprintf(s->file, sizeof(s->file), "%s", path);
		/* A device written to is held exclusively by copy 0 for the
		 * run: the kernel then refuses to mount it meanwhile. Both
		 * opens are of the node the check saw, or refused. */
		if (s->type == ST_BLOCK && k->writes && ctx->copy == 0 &&
		    (s->excl_fd = st_target_open(path, &s->target, O_RDONLY | O_EXCL, err, sizeof(err))) < 0)
			return pg_error(ctx, "cannot hold the device exclusively: %s", err);
		s->fd = st_target_open(path, &s->target, k->writes ? O_RDWR : O_RDONLY, err, sizeof(err));
		if (s->fd < 0)
			return pg_error(ctx, "%s", err);
		return PG_OK;
	}
	return pg_error(ctx, "%s: unknown target", path);
}

/* The bytes used of an existing file or device: `size`, or all of it when
 * smaller. */
static int existing_size(struct pg_ctx *ctx, struct st_state *s, uint64_t want, uint32_t bs)
{
	uint64_t have = 0;
	struct stat st;
	if (s->type == ST_BLOCK) {
		if (ioctl(s->fd, BLKGETSIZE64, &have) < 0)
			return pg_error(ctx, "%s: BLKGETSIZE64: %s", s->file, strerror(errno));
	} else if (fstat(s->fd, &st) == 0) {
		have = (uint64_t)st.st_size;
	}
	uint64_t size = want < have ? want : have;
	size = size / bs * bs;
	if (size == 0) {
		char b[32];
		pg_format_size((int64_t)bs, b, sizeof(b));
		return pg_error(ctx, "%s holds %llu bytes: less than one block of %s", s->file,
				(unsigned long long)have, b);
	}
	if (size < want && ctx->copy == 0) {
		char w[32], h[32];
		pg_format_size((int64_t)want, w, sizeof(w));
		pg_format_size((int64_t)size, h, sizeof(h));
		snprintf(ctx->note, sizeof(ctx->note), "size %s capped to the %s there", w, h);
	}
	s->size = size;
	return PG_OK;
}

/* The engine asked for, or the best that works here: a job opened on it. */
static int open_job(struct pg_ctx *ctx, struct st_state *s, const struct st_job_spec *spec)
{
	const char *want = pg_arg_str(ctx->args, "engine");
	static const char *const order[] = { "io_uring", "libaio", "psync" };
	char err[PG_MSG_LEN] = "", first[PG_MSG_LEN] = "";
	int any = strcmp(want, "auto") == 0;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!any && strcmp(want, order[i]) != 0)
			continue;
		const struct st_engine *e = st_engine_find(order[i]);
		if (e->without) {
			if (!any)
				return pg_skip(ctx, "built without %s: install %s-dev%s and rebuild", e->without,
					       e->without, PG_DEB_ARCH_SUFFIX);
			continue;
		}
		int r = st_job_open(&s->job, spec, e, err, sizeof(err));
		if (r == 0) {
			s->engine = e;
			return PG_OK;
		}
		if (r == -ENOMEM)
			return pg_error(ctx, "%s", err);
		if (!first[0])
			snprintf(first, sizeof(first), "%s", err);
		if (!any)
			return pg_skip(ctx, "the %s engine does not work here: %s (try -p engine=%s)",
				       e->name, err, strcmp(e->name, "libaio") ? "libaio" : "psync");
	}
	return pg_error(ctx, "no engine works here: %s", first);
}

/* The file an earlier read result of this run laid out with the same path,
 * size, O_DIRECT and jobs (prepared.c): 1 when this job reads it, with
 * s->fd and s->size set. */
static int take_prepared(struct pg_ctx *ctx, struct st_state *s, const char *path, uint64_t want,
			 uint32_t bs)
{
	uint64_t size = 0;
	int fd = st_prepared_take(ctx->copy, ctx->copies, path, want, s->direct, &size);
	if (fd < 0)
		return 0;
	if (size / bs == 0) {
		close(fd);
		return 0;
	}
	own_name(ctx, s->type, path, s->file, sizeof(s->file));
	s->fd = fd;
	s->size = size / bs * bs;
	return 1;
}

/* The target found again, and the file or device this job uses on it open
 * (s->fd) and sized (s->size). *kept: the file is one an earlier read
 * result laid out (take_prepared). */
static int take_target(struct pg_ctx *ctx, struct st_state *s, const char *path, uint64_t want,
		       uint32_t bs, int *kept)
{
	const struct pg_param *dp = pg_param_find(ctx->bench, "destroy");
	const char *destroy = dp ? destroy_arg(ctx->args) : "";
	char err[PG_MSG_LEN];
	/* Checked at planning already; again now, as things may have moved:
	 * fully by copy 0, which then holds a device it writes exclusively
	 * (the others' check of it would find it busy). What is there must
	 * be what planning saw, a link only where the user named one. */
	if (st_target_again(path, ctx->copy == 0 && s->kind->writes, destroy, &s->target, err, sizeof(err)) < 0)
		return pg_error(ctx, "%s", err);
	s->type = s->target.type;
	int own = s->type == ST_DIR || s->type == ST_NEWFILE, rc;
	*kept = own && take_prepared(ctx, s, path, want, bs);
	if (own && !*kept) {
		char dir[PATH_MAX];
		own_name(ctx, s->type, path, s->file, sizeof(s->file));
		files_dir(s->type, path, dir, sizeof(dir));
		st_prepared_drop();	/* its room is this job's */
		if ((rc = own_size(ctx, s, dir, want, bs)) != PG_OK)
			return rc;
	}
	if (!*kept && (rc = open_target(ctx, s, path)) != PG_OK)
		return rc;
	if (!own && (rc = existing_size(ctx, s, want, bs)) != PG_OK)
		return rc;
	return PG_OK;
}

/* A file of our own, laid out with data and kept for the run's next
 * results (of either kind) on the same path, size, O_DIRECT and jobs. Also
 * for jobs that only write, after fio's fallocate=native: the first pass
 * over a fresh preallocated file converts its unwritten extents (ext4's
 * kworkers), and in quick's three 1 s samples of storage.write the first
 * was the slowest in 55 of 56 runs, at a median 0.59 of the other two
 * (98, 167, 168 MB/s), with others' CPU time near the disturbance limit. */
static int fill_own(struct pg_ctx *ctx, struct st_state *s, const char *path, uint64_t want,
		    uint32_t bs, int kept)
{
	char err[PG_MSG_LEN];
	if ((s->type != ST_DIR && s->type != ST_NEWFILE) || kept)
		return PG_OK;
	/* the blocks are the file's before the first write, and a lack of
	 * space shows now */
	if (!s->kind->reads && fallocate(s->fd, 0, 0, (off_t)s->size) < 0 && errno != EOPNOTSUPP &&
	    errno != ENOSYS) {
		int e = errno;
		return pg_error(ctx, "%s: fallocate %llu bytes: %s (%s)", s->file, (unsigned long long)s->size,
				strerror(e), st_errno_name(e));
	}
	int r = st_layout(s->fd, s->size, bs, s->direct, &pg_interrupted, err, sizeof(err));
	if (r < 0)
		return pg_error(ctx, "%s: %s", s->file, err);
	if (pg_interrupted)
		return pg_error(ctx, "interrupted");
	st_prepared_keep(ctx->copy, ctx->copies, path, want, s->direct, s->fd, s->size);
	return PG_OK;
}

/* Copy 0's note: the medium, the engine, the size, what an earlier step
 * noted, and the mount options last (they are what a full note cuts
 * short). */
static void setup_note(struct pg_ctx *ctx, const struct st_state *s, const struct st_medium *m,
		       int depth)
{
	char sz[32], dp[16], was[PG_MSG_LEN];
	pg_format_size((int64_t)s->size, sz, sizeof(sz));
	snprintf(dp, sizeof(dp), "%d", s->engine->async ? depth : 1);
	snprintf(was, sizeof(was), "%s", ctx->note);
	ctx->note[0] = '\0';
	const char *kv[][2] = {
		{ "medium", m->medium }, { "device", m->device }, { "model", m->model },
		{ "fs", m->fs }, { "sync", yes_no(m->sync) }, { "rotational", m->rotational },
		{ "engine", s->engine->name }, { "depth", dp }, { "size", sz }, { "options", m->options },
	};
	for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]); i++) {
		storage_note_add(ctx->note, sizeof(ctx->note), kv[i][0], kv[i][1]);
		if (strcmp(kv[i][0], "size") == 0 && was[0])
			storage_note_add(ctx->note, sizeof(ctx->note), NULL, was);
	}
}

static int st_setup(struct pg_ctx *ctx)
{
	struct st_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	s->fd = s->excl_fd = -1;
	s->kind = ctx->bench->data;
	const char *path = pg_arg_str(ctx->args, "path");
	uint32_t bs = (uint32_t)arg(ctx, "bs");
	uint64_t want = (uint64_t)arg(ctx, "size");
	s->direct = (int)arg(ctx, "direct");
	int kept, rc;
	if ((rc = take_target(ctx, s, path, want, bs, &kept)) != PG_OK)
		return rc;
	struct st_medium m;
	st_medium_detect(s->type == ST_DIR ? path : s->file, &m);
	if (s->direct) {
		/* Set on the open file, so a file system that refuses it (tmpfs
		 * before Linux 6.6, ramfs) leaves no file made. */
		int fl = fcntl(s->fd, F_GETFL);
		if (fl < 0 || fcntl(s->fd, F_SETFL, fl | O_DIRECT) < 0)
			return pg_skip(ctx, "%s (%s) refuses O_DIRECT: -p direct=0 measures buffered I/O "
				       "through the page cache", path, m.fs);
	}
	if ((rc = fill_own(ctx, s, path, want, bs, kept)) != PG_OK)
		return rc;
	struct st_job_spec spec = {
		.fd = s->fd, .size = s->size, .bs = bs, .depth = (int)arg(ctx, "depth"),
		.pattern = s->kind->pattern, .seed = 0x9e3779b9u + (uint64_t)ctx->copy * 7919u,
	};
	if (s->kind->pattern == ST_RAND_RW)
		spec.mix = (int)arg(ctx, "mix");
	if ((rc = open_job(ctx, s, &spec)) != PG_OK)
		return rc;
	if (ctx->copy == 0)
		setup_note(ctx, s, &m, spec.depth);
	return PG_OK;
}

/* Untimed, before each trial: buffered I/O starts from an empty page cache
 * and no dirty data (fio's invalidate=1). */
static int st_prepare(struct pg_ctx *ctx, uint64_t iters)
{
	struct st_state *s = ctx->priv;
	(void)iters;
	if (s->direct)
		return PG_OK;
	if (s->kind->writes && fdatasync(s->fd) < 0) {
		int e = errno;
		return pg_error(ctx, "%s: fdatasync: %s (%s)", s->file, strerror(e), st_errno_name(e));
	}
	posix_fadvise(s->fd, 0, (off_t)s->size, POSIX_FADV_DONTNEED);
	return PG_OK;
}

static int st_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct st_state *s = ctx->priv;
	(void)iters;
	struct st_counts c;
	char err[PG_MSG_LEN];
	int64_t secs = arg(ctx, "time");
	int r = st_job_run(s->job, (double)arg(ctx, "ramp"), (double)secs, 0, &pg_interrupted,
			   ctx->hist, &c, err, sizeof(err));
	if (r < 0)
		return pg_error(ctx, "%s: %s", s->file, err);
	if (pg_interrupted)
		return PG_OK;
	if (c.ios == 0)
		return pg_error(ctx, "%s: no I/O completed in %lld s", s->file, (long long)secs);
	ctx->counted_s = c.window_s;
	counts[0] = (double)c.bytes;
	counts[1] = (double)c.ios;
	if (s->kind->pattern == ST_RAND_RW) {
		counts[6] = (double)c.read_bytes;
		counts[7] = (double)c.write_bytes;
	}
	return PG_OK;
}

static void st_teardown(struct pg_ctx *ctx)
{
	struct st_state *s = ctx->priv;
	if (!s)
		return;
	st_job_close(s->job);
	if (s->fd >= 0)
		close(s->fd);
	if (s->excl_fd >= 0)
		close(s->excl_fd);
	if (s->shared) {
		pthread_mutex_lock(&shared.lock);
		shared.users--;
		pthread_mutex_unlock(&shared.lock);
	}
	free(s);
	ctx->priv = NULL;
}

static int st_check(const struct pg_args *a, char *err, size_t errlen)
{
	enum st_target_type type;
	const char *destroy = "";
	int writes = 0;
	for (int i = 0; i < a->n; i++) {
		if (strcmp(a->v[i].param->name, "destroy") == 0) {
			destroy = destroy_arg(a);
			writes = 1;
		}
	}
	int64_t bs = pg_arg_int(a, "bs");
	if (pg_arg_int(a, "direct") && bs % 512)
		return pg_err(err, errlen, "bs: with direct=1, a multiple of 512 bytes (the sector size)");
	if (bs > pg_arg_int(a, "size"))
		return pg_err(err, errlen, "bs is larger than size");
	return st_target_check(pg_arg_str(a, "path"), writes, destroy, &type, err, errlen);
}

static void upper(char *s)
{
	for (; *s; s++)
		if (*s >= 'a' && *s <= 'z')
			*s = (char)(*s - 'a' + 'A');
}

/* The seed's column name, medium and file system as detected where the
 * benchmark ran: "EMMC EXT4 Write", "NVME RAW Read" (rows are the buffer
 * size: the section's rows_by). */
static void st_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		     char *buf, size_t len)
{
	const struct st_kind *k = b->data;
	buf[0] = '\0';
	if (strcmp(metric, "bandwidth") != 0)
		return;
	struct st_medium m;
	st_medium_detect(pg_arg_str(a, "path"), &m);
	upper(m.medium);
	upper(m.fs);
	snprintf(buf, len, "%s%s%s%s%s", m.medium, m.medium[0] ? " " : "", m.fs, m.fs[0] ? " " : "",
		 k->name);
}

/* The seed's storage tables: one per medium, a row per buffer size, per
 * board the write and read throughput, each with its CPU load. A table per
 * medium and configuration, named by what the results recorded of it (the
 * note's medium, fs, engine and depth: what was used), never by the path. */
static const struct pg_section storage_section = {
	.title = "Storage",
	.intro = "Time-based jobs as fio runs them, on a file of the file system (or the raw "
		 "device): throughput in MB/s (10^6 bytes) per buffer size, a table per medium and "
		 "configuration. CPU load is system-wide (100 - idle - iowait, as mpstat). IOPS and "
		 "latency percentiles are in the csv and the json.",
	.order = 110,
	.cpu_load = 1,
	.rows_by = "bs",
	.rows_title = "Buffer size (bytes)",
	.metrics = "bandwidth",
	.tables = "{^medium} {^fs}; {engine}; queue depth {depth}; {direct?O_DIRECT|buffered}; "
		  "a {size} file; {jobs} job(s) at once; {time} s per sample; ramp {ramp} s; "
		  "model {model}; {rotational=yes?a spinning disk (rotational)|solid-state (not rotational)}; "
		  "mounted {options}",
	.place = "path",
};

#define COMMON_PARAMS_(bs_quick, bs_standard, bs_full)				\
	{ .name = "path", .type = PG_P_STR, .def = ".",					\
	  .help = "a directory (a file of perfguide's own is made there and removed), "	\
		  "a file, or a block device" },					\
	{ .name = "bs", .type = PG_P_SIZE, .def = "4k", .min = 512, .max = 64 << 20,	\
	  .help = "bytes per I/O (fio --bs)", .quick = bs_quick, .standard = bs_standard,	\
	  .full = bs_full, .mem_factor = 4 },						\
	{ .name = "depth", .type = PG_P_INT, .def = "4", .min = 1, .max = 1024,		\
	  .help = "I/Os kept in flight (fio --iodepth); psync does one at a time" },	\
	{ .name = "engine", .type = PG_P_STR, .def = "auto",				\
	  .choices = "auto,io_uring,libaio,psync",					\
	  .help = "fio --ioengine; auto: io_uring, else libaio, else psync (the note says which)" }, \
	{ .name = "direct", .type = PG_P_INT, .def = "1", .min = 0, .max = 1,		\
	  .help = "1: O_DIRECT, past the page cache (fio --direct)" },			\
	{ .name = "size", .type = PG_P_SIZE, .def = "1g", .min = 4096,			\
	  .help = "bytes of the file or device used (fio --size); a file of our own is "	\
		  "capped to fit in the free space", .quick = "32m" },			\
	{ .name = "time", .type = PG_P_INT, .def = "10", .min = 1, .max = 86400,	\
	  .help = "seconds measured per sample (fio --runtime --time_based)", .quick = "1",	\
	  .standard = "3" },								\
	{ .name = "ramp", .type = PG_P_INT, .def = "1", .min = 0, .max = 3600,		\
	  .help = "seconds of I/O before each sample, not counted (fio --ramp_time)",	\
	  .quick = "0" },								\
	{ .name = "jobs", .type = PG_P_INT, .def = "1", .min = 1, .max = 64,		\
	  .help = "jobs at once, each its own file in a directory; counts summed (fio --numjobs)" }

/* The sweep's three lists come in one macro argument. */
#define COMMON_PARAMS(sweep) COMMON_PARAMS_(sweep)

#define DESTROY_PARAM									\
	{ .name = "destroy", .type = PG_P_STR, .def = "none",				\
	  .help = "--destroy-data: path again, to allow writing to a block device or an "	\
		  "existing file (its data is lost); none: not allowed",			\
	  .not_recorded = 1 }

#define SEQ_SWEEP "4k", "4k,256k,1m,4m", "4k,16k,64k,256k,1m,4m"
#define RAND_SWEEP NULL, "4k", "4k,64k"

static const struct pg_param seq_read_params[] = { COMMON_PARAMS(SEQ_SWEEP), { 0 } };
static const struct pg_param seq_write_params[] = { COMMON_PARAMS(SEQ_SWEEP), DESTROY_PARAM, { 0 } };
static const struct pg_param rand_read_params[] = { COMMON_PARAMS(RAND_SWEEP), { 0 } };
static const struct pg_param rand_write_params[] = { COMMON_PARAMS(RAND_SWEEP), DESTROY_PARAM, { 0 } };
static const struct pg_param rand_rw_params[] = {
	COMMON_PARAMS(RAND_SWEEP), DESTROY_PARAM,
	{ .name = "mix", .type = PG_P_INT, .def = "70", .min = 0, .max = 100,
	  .help = "percent of I/Os that read (fio --rwmixread)" },
	{ 0 },
};

#define LATENCY_METRICS								\
	{ "lat_mean", "us", PG_HIST_MEAN, 1e-3, 0, 0 },				\
	{ "lat_p50", "us", PG_HIST_Q, 1e-3, 0, 0.5 },				\
	{ "lat_p99", "us", PG_HIST_Q, 1e-3, 0, 0.99 },				\
	{ "lat_p999", "us", PG_HIST_Q, 1e-3, 0, 0.999 }

static const struct pg_metric metrics[] = {
	{ "bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ "iops", "IO/s", PG_RATE, 1, 1, 0 },
	LATENCY_METRICS,
	{ 0 },
};
static const struct pg_metric rw_metrics[] = {
	{ "bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ "iops", "IO/s", PG_RATE, 1, 1, 0 },
	LATENCY_METRICS,
	{ "read_bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ "write_bandwidth", "MB/s", PG_RATE, 1e-6, 1, 0 },
	{ 0 },
};

static const struct st_kind k_write = { ST_SEQ_WRITE, 1, 0, "Write" };
static const struct st_kind k_read = { ST_SEQ_READ, 0, 1, "Read" };
static const struct st_kind k_randread = { ST_RAND_READ, 0, 1, "Random read" };
static const struct st_kind k_randwrite = { ST_RAND_WRITE, 1, 0, "Random write" };
static const struct st_kind k_randrw = { ST_RAND_RW, 1, 1, "Random read/write" };

/* A run's samples are seconds of one laid-out file, back to back, and agree
 * to a few percent; runs do not: on a virtio disk the A/A pairs of the
 * quick suite varied by a log standard deviation of 0.14 a run
 * (storage.read's bandwidth, 18 pairs) and 0.17 (storage.write, 11), 40
 * storage.read results of one process by 0.07. */
#define STORAGE_RUN_SD 0.15
#define STORAGE_BENCH(kind, prm, met)						\
	.run_sd = STORAGE_RUN_SD, .section = &storage_section, .params = prm, .metrics = met, .copies_param = "jobs", \
	.trial = 1, .data = &kind, .check = st_check, .setup = st_setup,	\
	.prepare = st_prepare, .step = st_step, .teardown = st_teardown, .label = st_label

const struct pg_bench pg_storage_write = {
	.id = "storage.write", .title = "Sequential write (fio --rw=write)",
	STORAGE_BENCH(k_write, seq_write_params, metrics),
};
const struct pg_bench pg_storage_read = {
	.id = "storage.read", .title = "Sequential read (fio --rw=read)",
	STORAGE_BENCH(k_read, seq_read_params, metrics),
};
const struct pg_bench pg_storage_randread = {
	.id = "storage.randread", .title = "Random read (fio --rw=randread)",
	.min_suite = PG_IN_STANDARD,
	STORAGE_BENCH(k_randread, rand_read_params, metrics),
};
const struct pg_bench pg_storage_randwrite = {
	.id = "storage.randwrite", .title = "Random write (fio --rw=randwrite)",
	.min_suite = PG_IN_STANDARD,
	STORAGE_BENCH(k_randwrite, rand_write_params, metrics),
};
const struct pg_bench pg_storage_randrw = {
	.id = "storage.randrw", .title = "Random read and write (fio --rw=randrw --rwmixread)",
	.min_suite = PG_IN_FULL,
	STORAGE_BENCH(k_randrw, rand_rw_params, rw_metrics),
};

/* The group's table, in the guide's order: the seed's columns write, read. */
const struct pg_bench *const pg_group_storage[] = {
	&pg_storage_write,
	&pg_storage_read,
	&pg_storage_randread,
	&pg_storage_randwrite,
	&pg_storage_randrw,
	NULL,
};
