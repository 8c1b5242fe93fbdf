/* SPDX-License-Identifier: MIT */
/*
 * The psync engine, fio's: one pread or pwrite at a time, at its offset.
 * Each I/O completes inside submit, so the queue depth is 1 whatever is
 * asked, as in fio; its latency is the call's, from just before to just
 * after.
 */
/* 64-bit file offsets on 32-bit targets (armhf): files and devices past 2 GB. */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "storage.h"

struct psync {
	struct st_io *done;	/* the I/O submit finished, for reap */
};

static int psync_init(struct st_eng *e, struct st_io *ios, int nios, char *err, size_t errlen)
{
	(void)ios;
	(void)nios;
	(void)err;
	(void)errlen;
	e->priv = calloc(1, sizeof(struct psync));
	return e->priv ? 0 : -ENOMEM;
}

static int psync_submit(struct st_eng *e, struct st_io **ios, int n)
{
	struct psync *p = e->priv;
	if (n < 1 || p->done)
		return -EBUSY;
	struct st_io *io = ios[0];
	io->issued_ns = st_now_ns();
	ssize_t r;
	do {
		r = io->write ? pwrite(e->fd, io->buf, io->len, (off_t)io->offset)
			      : pread(e->fd, io->buf, io->len, (off_t)io->offset);
	} while (r < 0 && errno == EINTR);
	io->res = r < 0 ? -errno : (long)r;
	p->done = io;
	return 1;
}

static int psync_reap(struct st_eng *e, int min, int max, struct st_io **done)
{
	struct psync *p = e->priv;
	(void)min;
	if (!p->done || max < 1)
		return 0;
	done[0] = p->done;
	p->done = NULL;
	return 1;
}

static void psync_exit(struct st_eng *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct st_engine st_engine_psync = {
	.name = "psync", .async = 0,
	.init = psync_init, .submit = psync_submit, .reap = psync_reap, .exit = psync_exit,
};
