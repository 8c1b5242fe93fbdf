/* SPDX-License-Identifier: MIT */
/*
 * A job, as fio runs one: depth I/Os of bs bytes kept in flight on one
 * descriptor, sequentially through the first size bytes (wrapping at the
 * end, as a time_based job does) or at random block offsets, each block
 * once per pass (fio's random map), for a ramp not counted and then a
 * measured time.
 *
 * Counted, as fio counts: I/Os that complete in the measured window, their
 * bytes, and each one's completion latency (clat: from the moment it was
 * submitted to the moment it was reaped; for the asynchronous engines the
 * moment io_submit or io_uring_enter returned, one clock reading for each
 * reap, as fio has it, one completion reaped at a time). The window starts
 * when the ramp is seen to be over and ends when the I/Os still in flight
 * at the end of the time have completed.
 */
/* 64-bit file offsets on 32-bit targets (armhf): files and devices past 2 GB. */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/hist.h"
#include "storage.h"
#include "core/err.h"

#define ALIGN 4096
#define LAYOUT_CHUNK (1u << 20)

struct st_job {
	struct st_job_spec s;
	struct st_eng eng;
	int eng_open;
	int depth;		/* in flight at most: 1 for a synchronous engine */
	struct st_io *ios;
	struct st_io **free_ios, **done;
	int nfree;
	char *bufs;
	uint64_t nblocks;
	uint64_t next_seq;
	/* The random permutation of blocks: a full-period LCG modulo 2^k,
	 * scrambled by a bijection of k bits, values >= nblocks skipped. */
	uint64_t lcg, lcg_add, mask;
	int shift;
	uint64_t rng;		/* read or write, for a mixed job */
	uint64_t stamp;		/* the write count, at the head of each block written */
};

const char *st_errno_name(int e)
{
	switch (e) {
	case EIO: return "EIO";
	case ENOSPC: return "ENOSPC";
	case EROFS: return "EROFS";
	case EDQUOT: return "EDQUOT";
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ENODEV: return "ENODEV";
	case ENXIO: return "ENXIO";
	case EFBIG: return "EFBIG";
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case ENOSYS: return "ENOSYS";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EBADF: return "EBADF";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EEXIST: return "EEXIST";
	case ETXTBSY: return "ETXTBSY";
	case EMFILE: return "EMFILE";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ELOOP: return "ELOOP";
	}
	return "errno";
}

const struct st_engine *st_engine_find(const char *name)
{
	static const struct st_engine *const all[] = {
		&st_engine_io_uring, &st_engine_libaio, &st_engine_psync,
	};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

/* Random bytes, so that a medium that compresses or deduplicates (some
 * flash controllers do) is not flattered; fio fills its buffers so too. */
static void fill_random(char *p, size_t n, uint64_t seed)
{
	uint64_t s = seed | 1;
	for (size_t i = 0; i + 8 <= n; i += 8) {
		uint64_t v = xorshift(&s);
		memcpy(p + i, &v, 8);
	}
}

static uint64_t next_random_block(struct st_job *j)
{
	if (j->nblocks == 1)
		return 0;
	for (;;) {
		/* a = 1 mod 4 and an odd increment: period 2^k (Hull-Dobell). */
		j->lcg = (j->lcg * UINT64_C(0x5851F42D4C957F2D) + j->lcg_add) & j->mask;
		uint64_t y = j->lcg;
		y ^= y >> j->shift;
		y = (y * UINT64_C(0x9E3779B97F4A7C15)) & j->mask;
		y ^= y >> j->shift;
		if (y < j->nblocks)
			return y;
	}
}

static void next_io(struct st_job *j, struct st_io *io)
{
	uint64_t block;
	switch (j->s.pattern) {
	case ST_SEQ_WRITE:
	case ST_SEQ_READ:
		block = j->next_seq++;
		if (j->next_seq == j->nblocks)
			j->next_seq = 0;
		io->write = j->s.pattern == ST_SEQ_WRITE;
		break;
	default:
		block = next_random_block(j);
		if (j->s.pattern == ST_RAND_RW)
			io->write = (int)(xorshift(&j->rng) % 100) >= j->s.mix;
		else
			io->write = j->s.pattern == ST_RAND_WRITE;
		break;
	}
	io->offset = block * j->s.bs;
	io->len = j->s.bs;
	if (io->write) {
		/* Each block written differs from the last (fio's scramble). */
		memcpy(io->buf, &j->stamp, sizeof(j->stamp));
		j->stamp++;
	}
}

void st_job_close(struct st_job *j)
{
	if (!j)
		return;
	if (j->eng_open && j->eng.ops->exit)
		j->eng.ops->exit(&j->eng);
	free(j->ios);
	free(j->free_ios);
	free(j->done);
	free(j->bufs);
	free(j);
}

int st_job_open(struct st_job **out, const struct st_job_spec *spec, const struct st_engine *eng,
		char *err, size_t errlen)
{
	*out = NULL;
	if (spec->bs == 0 || spec->size < spec->bs || spec->depth < 1) {
		pg_err(err, errlen, "nothing to do: %llu bytes in blocks of %u", (unsigned long long)spec->size,
		       spec->bs);
		return -EINVAL;
	}
	struct st_job *j = calloc(1, sizeof(*j));
	if (!j) {
		pg_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	j->s = *spec;
	j->depth = eng->async ? spec->depth : 1;
	j->nblocks = spec->size / spec->bs;
	int n = j->depth;
	j->ios = calloc((size_t)n, sizeof(*j->ios));
	j->free_ios = calloc((size_t)n, sizeof(*j->free_ios));
	j->done = calloc((size_t)n, sizeof(*j->done));
	void *bufs = NULL;
	if (!j->ios || !j->free_ios || !j->done ||
	    posix_memalign(&bufs, ALIGN, (size_t)n * spec->bs) != 0) {
		st_job_close(j);
		pg_err(err, errlen, "out of memory for %d buffers of %u bytes", n, spec->bs);
		return -ENOMEM;
	}
	j->bufs = bufs;
	fill_random(j->bufs, (size_t)n * spec->bs, spec->seed ^ UINT64_C(0x5eed));
	for (int i = 0; i < n; i++) {
		j->ios[i].buf = j->bufs + (size_t)i * spec->bs;
		j->free_ios[i] = &j->ios[i];
	}
	j->nfree = n;

	int k = 1;
	while (k < 63 && (UINT64_C(1) << k) < j->nblocks)
		k++;
	j->mask = (UINT64_C(1) << k) - 1;
	j->shift = k / 2 + 1;
	j->lcg = (spec->seed * UINT64_C(0x9E3779B97F4A7C15)) & j->mask;
	j->lcg_add = ((spec->seed >> 17) | 1) & j->mask;
	if (j->lcg_add == 0)
		j->lcg_add = 1;
	j->rng = spec->seed * 2 + 1;

	j->eng.ops = eng;
	j->eng.fd = spec->fd;
	j->eng.depth = j->depth;
	int r = eng->init(&j->eng, j->ios, n, err, errlen);
	if (r < 0) {
		st_job_close(j);
		return r;
	}
	j->eng_open = 1;
	*out = j;
	return 0;
}

static void io_failed(const struct st_io *io, long res, char *err, size_t errlen)
{
	if (res < 0)
		pg_err(err, errlen, "%s of %u bytes at offset %llu: %s (%s)", io->write ? "write" : "read", io->len,
		       (unsigned long long)io->offset, strerror((int)-res), st_errno_name((int)-res));
	else
		pg_err(err, errlen, "short %s: %ld of %u bytes at offset %llu (the file shrank?)",
		       io->write ? "write" : "read", res, io->len, (unsigned long long)io->offset);
}

/* One st_job_run in progress: the clock, the window counted, the I/Os. */
struct job_run {
	struct st_job *j;
	uint64_t max_ios;
	struct pg_hist *hist;
	struct st_counts *out;
	char *err;
	size_t len;
	uint64_t now, ramp_end, time_ns, win_start, win_end, end;
	int counting;			/* the ramp is over */
	uint64_t started;
	int inflight;
	int failed;			/* the errno of the first I/O that failed */
};

/* Submits I/Os until depth are in flight (or max_ios are started). One
 * submission per I/O, as fio with its default iodepth_batch_submit=1 (the
 * seed's jobs): with several in one call a device sees them in bursts, and
 * on a busy CPU that shows in the figures. */
static void submit_some(struct job_run *r)
{
	struct st_job *j = r->j;
	while (r->inflight < j->depth && (!r->max_ios || r->started < r->max_ios)) {
		struct st_io *io = j->free_ios[--j->nfree];
		next_io(j, io);
		int rc = j->eng.ops->submit(&j->eng, &io, 1);
		if (rc < 1) {
			j->free_ios[j->nfree++] = io;
			r->failed = rc < 0 ? -rc : EAGAIN;
			io_failed(io, rc < 0 ? rc : -EAGAIN, r->err, r->len);
			break;
		}
		r->inflight++;
		r->started++;
	}
}

/* As fio: what is reaped from the moment the ramp is seen to be over
 * counts, and the time starts there. */
static void ramp_over(struct job_run *r)
{
	if (r->counting || r->now < r->ramp_end)
		return;
	r->counting = 1;
	r->win_start = r->now;
	r->end = r->now + r->time_ns;
	if (r->hist)
		pg_hist_reset(r->hist);
}

/* The got I/Os just reaped: back to the free list, counted once the ramp
 * is over; the first that failed is kept in err. */
static void complete(struct job_run *r, int got)
{
	struct st_job *j = r->j;
	for (int i = 0; i < got; i++) {
		struct st_io *io = j->done[i];
		j->free_ios[j->nfree++] = io;
		r->inflight--;
		if (io->res != (long)io->len) {
			if (!r->failed) {
				r->failed = io->res < 0 ? (int)-io->res : EIO;
				io_failed(io, io->res, r->err, r->len);
			}
			continue;
		}
		if (!r->counting)
			continue;
		r->out->ios++;
		r->out->bytes += io->len;
		if (io->write)
			r->out->write_bytes += io->len;
		else
			r->out->read_bytes += io->len;
		if (r->hist)
			pg_hist_add(r->hist, r->now - io->issued_ns);
	}
	if (r->counting)
		r->win_end = r->now;
}

int st_job_run(struct st_job *j, double ramp_s, double time_s, uint64_t max_ios,
	       volatile sig_atomic_t *stop, struct pg_hist *hist, struct st_counts *out,
	       char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (max_ios)
		ramp_s = 0;
	struct job_run r = { .j = j, .max_ios = max_ios, .hist = hist, .out = out, .err = err,
			     .len = errlen, .now = st_now_ns(), .counting = ramp_s <= 0 };
	r.ramp_end = r.now + (uint64_t)(ramp_s * 1e9);
	r.time_ns = (uint64_t)(time_s * 1e9);
	r.win_start = r.win_end = r.now;
	r.end = r.now + r.time_ns;
	for (;;) {
		int issue = !r.failed && !*stop &&
			    (max_ios ? r.started < max_ios : (!r.counting || r.now < r.end));
		if (issue)
			submit_some(&r);
		if (r.inflight == 0) {
			if (!issue)
				break;
			continue;
		}
		/* One completion per reap, as fio's default
		 * iodepth_batch_complete_max (= _min = 1): reaping all that
		 * are done and then resubmitting them one after another sends
		 * them to the device together, they complete together, and
		 * the convoy halves the latency counted from each submission
		 * (randread 4k, depth 4, virtio: clat 38 us this way, 79 us
		 * one at a time, fio 74 us). */
		int got = j->eng.ops->reap(&j->eng, 1, 1, j->done);
		if (got < 0) {
			if (!r.failed)
				pg_err(err, errlen, "reaping I/Os: %s (%s)", strerror(-got), st_errno_name(-got));
			return got;
		}
		r.now = st_now_ns();
		ramp_over(&r);
		complete(&r, got);
	}
	out->window_s = r.counting ? (double)(r.win_end - r.win_start) * 1e-9 : 0;
	return r.failed ? -r.failed : 0;
}

int st_layout(int fd, uint64_t size, uint32_t bs, int direct, volatile sig_atomic_t *stop,
	      char *err, size_t errlen)
{
	size_t chunk = bs > LAYOUT_CHUNK ? bs : LAYOUT_CHUNK / bs * bs;
	void *buf = NULL;
	if (posix_memalign(&buf, ALIGN, chunk) != 0) {
		pg_err(err, errlen, "out of memory for a %zu-byte buffer", chunk);
		return -ENOMEM;
	}
	uint64_t off = 0;
	int rc = 0;
	while (off < size && !*stop) {
		size_t n = size - off < chunk ? (size_t)(size - off) : chunk;
		/* Fresh data for every chunk: one buffer written over and over
		 * is what a deduplicating medium stores once and reads fast. */
		fill_random(buf, n, size ^ (off * UINT64_C(0x9E3779B97F4A7C15)));
		ssize_t w = pwrite(fd, buf, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = w < 0 ? -errno : -ENOSPC;
			pg_err(err, errlen, "laying out the file: write at offset %llu: %s (%s)",
			       (unsigned long long)off, strerror(-rc), st_errno_name(-rc));
			break;
		}
		/* A short write at the end of the space: the next says why. */
		off += (uint64_t)w;
		if (direct && (w % 512) != 0) {
			rc = -EIO;
			pg_err(err, errlen, "laying out the file: short direct write at offset %llu",
			       (unsigned long long)off);
			break;
		}
	}
	free(buf);
	if (rc == 0 && !*stop && fdatasync(fd) < 0) {
		rc = -errno;
		pg_err(err, errlen, "laying out the file: fdatasync: %s (%s)", strerror(errno), st_errno_name(errno));
	}
	return rc;
}
