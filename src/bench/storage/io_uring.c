/* SPDX-License-Identifier: MIT */
/*
 * The io_uring engine through liburing: a ring of depth entries, plain
 * IORING_OP_READ/WRITE (the vectored ones on kernels before 5.6), nothing
 * registered and no polling: fio's io_uring engine with its defaults.
 * Built without liburing it says so and the benchmarks asking for it skip.
 */
/* 64-bit file offsets on 32-bit targets (armhf): files and devices past 2 GB. */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage.h"
#include "core/err.h"

#ifdef PG_HAVE_LIBURING
#include <liburing.h>

struct uring {
	struct io_uring ring;
	int ready;
	int vectored;		/* the kernel lacks IORING_OP_READ (before 5.6) */
};

static void uring_exit(struct st_eng *e)
{
	struct uring *u = e->priv;
	if (!u)
		return;
	if (u->ready)
		io_uring_queue_exit(&u->ring);
	free(u);
	e->priv = NULL;
}

static int uring_init(struct st_eng *e, struct st_io *ios, int nios, char *err, size_t errlen)
{
	(void)ios;
	(void)nios;
	struct uring *u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	e->priv = u;
	int r = io_uring_queue_init((unsigned)e->depth, &u->ring, 0);
	if (r < 0) {
		pg_err(err, errlen, "io_uring_setup: %s%s", strerror(-r),
		       r == -ENOSYS  ? " (a kernel before 5.1, or built without io_uring)"
		       : r == -EPERM ? " (disabled: kernel.io_uring_disabled)"
				     : "");
		uring_exit(e);
		return r;
	}
	u->ready = 1;
	struct io_uring_probe *p = io_uring_get_probe_ring(&u->ring);
	u->vectored = !p || !io_uring_opcode_supported(p, IORING_OP_READ) ||
		      !io_uring_opcode_supported(p, IORING_OP_WRITE);
	if (p)
		io_uring_free_probe(p);
	return 0;
}

static int uring_submit(struct st_eng *e, struct st_io **ios, int n)
{
	struct uring *u = e->priv;
	int queued = 0;
	for (; queued < n; queued++) {
		struct st_io *io = ios[queued];
		struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
		if (!sqe)
			break;
		if (u->vectored) {
			io->iov.iov_base = io->buf;
			io->iov.iov_len = io->len;
			if (io->write)
				io_uring_prep_writev(sqe, e->fd, &io->iov, 1, io->offset);
			else
				io_uring_prep_readv(sqe, e->fd, &io->iov, 1, io->offset);
		} else if (io->write) {
			io_uring_prep_write(sqe, e->fd, io->buf, io->len, io->offset);
		} else {
			io_uring_prep_read(sqe, e->fd, io->buf, io->len, io->offset);
		}
		io_uring_sqe_set_data(sqe, io);
	}
	int done = 0;
	while (done < queued) {
		int r = io_uring_submit(&u->ring);
		if (r == -EINTR)
			continue;
		if (r <= 0) {
			if (done)
				break;
			return r < 0 ? r : -EAGAIN;
		}
		done += r;
	}
	uint64_t now = st_now_ns();
	for (int i = 0; i < done; i++)
		ios[i]->issued_ns = now;
	return done;
}

static int uring_reap(struct st_eng *e, int min, int max, struct st_io **done)
{
	struct uring *u = e->priv;
	struct io_uring_cqe *cqe;
	if (min > 0) {
		int r;
		do
			r = io_uring_wait_cqe_nr(&u->ring, &cqe, (unsigned)min);
		while (r == -EINTR);
		if (r < 0)
			return r;
	}
	int n = 0;
	unsigned head;
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		if (n == max)
			break;
		struct st_io *io = io_uring_cqe_get_data(cqe);
		io->res = cqe->res;
		done[n++] = io;
	}
	io_uring_cq_advance(&u->ring, (unsigned)n);
	return n;
}

const struct st_engine st_engine_io_uring = {
	.name = "io_uring", .async = 1,
	.init = uring_init, .submit = uring_submit, .reap = uring_reap, .exit = uring_exit,
};
#else
const struct st_engine st_engine_io_uring = { .name = "io_uring", .without = "liburing" };
#endif
