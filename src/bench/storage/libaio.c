/* SPDX-License-Identifier: MIT */
/*
 * The libaio engine, fio's default in the seed's jobs: Linux native AIO
 * (io_submit, io_getevents) through libaio. Only O_DIRECT I/O is really
 * asynchronous; buffered I/O completes inside io_submit, as it does for fio.
 * Built without libaio it says so and the benchmarks asking for it skip.
 */
/* 64-bit file offsets on 32-bit targets (armhf): files and devices past 2 GB. */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage.h"
#include "core/err.h"

#ifdef PG_HAVE_LIBAIO
#include <libaio.h>

struct aio {
	io_context_t ctx;
	struct iocb *cbs;	/* one per I/O, st_io.engine_data points at it */
	struct iocb **batch;
	struct io_event *events;
};

static void aio_exit(struct st_eng *e)
{
	struct aio *a = e->priv;
	if (!a)
		return;
	if (a->ctx)
		io_destroy(a->ctx);
	free(a->cbs);
	free(a->batch);
	free(a->events);
	free(a);
	e->priv = NULL;
}

static int aio_init(struct st_eng *e, struct st_io *ios, int nios, char *err, size_t errlen)
{
	struct aio *a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	e->priv = a;
	a->cbs = calloc((size_t)nios, sizeof(*a->cbs));
	a->batch = calloc((size_t)nios, sizeof(*a->batch));
	a->events = calloc((size_t)nios, sizeof(*a->events));
	if (!a->cbs || !a->batch || !a->events) {
		aio_exit(e);
		return -ENOMEM;
	}
	for (int i = 0; i < nios; i++)
		ios[i].engine_data = &a->cbs[i];
	int r = io_setup(e->depth, &a->ctx);
	if (r < 0) {
		a->ctx = 0;
		pg_err(err, errlen, "io_setup(%d): %s%s", e->depth, strerror(-r),
		       r == -EAGAIN ? " (fs.aio-max-nr is too low)" : "");
		aio_exit(e);
		return r;
	}
	return 0;
}

static int aio_submit(struct st_eng *e, struct st_io **ios, int n)
{
	struct aio *a = e->priv;
	for (int i = 0; i < n; i++) {
		struct st_io *io = ios[i];
		struct iocb *cb = io->engine_data;
		if (io->write)
			io_prep_pwrite(cb, e->fd, io->buf, io->len, (long long)io->offset);
		else
			io_prep_pread(cb, e->fd, io->buf, io->len, (long long)io->offset);
		cb->data = io;
		a->batch[i] = cb;
	}
	int done = 0;
	while (done < n) {
		int r = io_submit(a->ctx, n - done, a->batch + done);
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

static int aio_reap(struct st_eng *e, int min, int max, struct st_io **done)
{
	struct aio *a = e->priv;
	int r;
	do
		r = io_getevents(a->ctx, min, max, a->events, NULL);
	while (r == -EINTR);
	if (r < 0)
		return r;
	for (int i = 0; i < r; i++) {
		struct st_io *io = a->events[i].data;
		io->res = (long)a->events[i].res;
		done[i] = io;
	}
	return r;
}

const struct st_engine st_engine_libaio = {
	.name = "libaio", .async = 1,
	.init = aio_init, .submit = aio_submit, .reap = aio_reap, .exit = aio_exit,
};
#else
const struct st_engine st_engine_libaio = { .name = "libaio", .without = "libaio" };
#endif
