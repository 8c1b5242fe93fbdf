/* SPDX-License-Identifier: MIT */
/* What every cpu.work.* benchmark shares: its life cycle and checksum. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu.h"
#include "work.h"

const struct pg_param pg_work_params[] = {
	PG_CPU_COPIES_PARAM,
	{ 0 },
};

const struct pg_metric pg_work_metrics[] = {
	{ "iterations", "iter/s", PG_RATE, 1.0, 1, 0 },
	{ 0 },
};

int pg_work_setup(struct pg_ctx *ctx)
{
	const struct pg_work *w = ctx->bench->data;
	void *s = calloc(1, w->state_size);
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	char why[200] = "";
	if (w->init && w->init(s, why, sizeof(why)) != 0)
		return pg_error(ctx, "%s: %s", ctx->bench->id, why);
	/* one run checked before anything is timed */
	if (w->check(s, w->run(s), why, sizeof(why)) != 0)
		return pg_error(ctx, "%s: wrong result: %s", ctx->bench->id, why);
	return PG_OK;
}

int pg_work_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	const struct pg_work *w = ctx->bench->data;
	uint32_t sum = 0;
	for (uint64_t i = 0; i < iters; i++)
		sum = w->run(ctx->priv);
	char why[200] = "";
	if (w->check(ctx->priv, sum, why, sizeof(why)) != 0)
		return pg_error(ctx, "%s: wrong result: %s", ctx->bench->id, why);
	counts[0] = (double)iters;
	return PG_OK;
}

void pg_work_teardown(struct pg_ctx *ctx)
{
	const struct pg_work *w = ctx->bench->data;
	if (ctx->priv && w->fini)
		w->fini(ctx->priv);
	free(ctx->priv);
}

int pg_work_crc_is(uint32_t sum, uint32_t want, char *why, size_t len)
{
	if (sum == want)
		return 0;
	snprintf(why, len, "CRC %08x, should be %08x", sum, want);
	return -1;
}

static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

uint32_t pg_work_crc32(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&crc_once, crc_init);
	const unsigned char *p = buf;
	crc = ~crc;
	while (len--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
