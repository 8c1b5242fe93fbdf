/* SPDX-License-Identifier: MIT */
/*
 * The results store follows the results file: after every record the file
 * gets, the follower reads the new lines back and adds them, so the store
 * holds exactly what the file holds. An explicit --db that cannot be used is
 * bad input; a default store that cannot is a warning, and the run goes on.
 * A store that fails later is not a failed run: the file has it all.
 */
#include <stdio.h>

#include "core/text.h"
#include "store/follow.h"
#include "store/store.h"
#include "run.h"
#include "core/err.h"

static void store_sync(void *self, const struct pg_run_info *ri)
{
	(void)ri;
	pg_follow_sync(self);
}

static void store_result(void *self, const struct pg_result *r)
{
	(void)r;
	pg_follow_sync(self);
}

static void store_end(void *self, int interrupted)
{
	(void)interrupted;
	pg_follow_sync(self);
}

static int store_close(void *self)
{
	pg_follow_close(self);
	return 0;
}

static const struct run_sink_ops store_ops = {
	.begin = store_sync, .result = store_result, .end = store_end, .close = store_close,
};

int run_sink_store(struct run_sinks *s, const struct run_config *c, char *err, size_t len)
{
	char serr[600];
	if (c->no_db || !s->path[0])
		return 0;
	/* PERFGUIDE_DB names a store as explicitly as --db does. */
	const char *db = c->db ? c->db : pg_store_env();
	struct pg_follow *fw = pg_follow_open(db, s->path, serr, sizeof(serr));
	if (!fw && db) {
		return pg_err(err, len, "--db: %s", serr);
	}
	if (!fw) {
		fputs("perfguide: not adding results to the store: ", stderr);
		pg_term_puts(stderr, serr);
		fputc('\n', stderr);
		return 0;
	}
	if (run_sinks_add(s, &store_ops, fw) < 0) {
		pg_follow_close(fw);
		return pg_err(err, len, "too many sinks");
	}
	return 0;
}
