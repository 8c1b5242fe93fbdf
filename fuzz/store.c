/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for a results store perfguide did not write: the bytes are an
 * SQLite database file. It is opened as `runs`, `report` and `compare` open
 * one (read only), every run listed and loaded, the guide written in every
 * format from them (with a baseline) and compare run on the first and the
 * last; then opened as `import` opens one and a run added.
 *
 * Beyond "no crash, no leak, no undefined behaviour, no hang" (every store
 * operation is bounded to 1 s here), what must hold of everything written:
 * what fuzz/common.c checks (json that parses, no markup from the store).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "store/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[4200];

/* The file and what SQLite keeps beside it: a hot journal or a WAL left by
 * one input would be rolled into the next. */
static void remove_db(void)
{
	static const char *const ext[] = { "", "-journal", "-wal", "-shm" };
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		char p[4300];
		snprintf(p, sizeof(p), "%s%s", path, ext[i]);
		unlink(p);
	}
}

/* The database file, one per process, rewritten for every input. */
static const char *db_path(void)
{
	if (!path[0]) {
		snprintf(path, sizeof(path), "%s/store.db", fuzz_tmpdir());
		pg_store_sqlite_time_limit(1);
		atexit(remove_db);
	}
	return path;
}

static int put_file(const char *path, const uint8_t *data, size_t size)
{
	remove_db();
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	int ok = fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* Every run the store lists, loaded, then reported and compared. */
static void read_all(struct pg_store *s)
{
	char err[512];
	struct pg_run_summary *list;
	int n;
	if (s->ops->list_runs(s, &list, &n, err, sizeof(err)) < 0)
		return;
	struct pg_rrun *runs = calloc((size_t)n + 1, sizeof(*runs));
	const struct pg_rrun **ptrs = calloc((size_t)n + 1, sizeof(*ptrs));
	int got = 0;
	for (int i = 0; runs && ptrs && i < n; i++)
		if (s->ops->load_run(s, list[i].id, &runs[got], err, sizeof(err)) == 1) {
			ptrs[got] = &runs[got];
			got++;
		}
	if (got > 0) {
		fuzz_every_format(ptrs, got, 1);
		fuzz_compare(ptrs[0], ptrs[got - 1]);
	}
	for (int i = 0; i < got; i++)
		pg_rrun_free(&runs[i]);
	free(runs);
	free(ptrs);
	pg_run_summaries_free(list, n);
}

/* One run added, as import adds one. */
static void add_one(struct pg_store *s)
{
	static const char text[] =
		"{\"type\":\"run\",\"schema\":\"perfguide/1\",\"id\":\"fuzz-added\",\"board\":\"b\"}\n"
		"{\"type\":\"result\",\"bench\":\"x.y\",\"params\":{},\"metric\":\"m\",\"samples\":[1],\"median\":1,"
		"\"min\":1,\"max\":1,\"status\":\"ok\"}\n{\"type\":\"end\",\"finished\":\"f\",\"status\":\"complete\"}\n";
	char err[512];
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");
	struct pg_rrun *runs;
	int n, how;
	if (!f)
		return;
	if (pg_rrun_read_stream(f, "fuzz.jsonl", &runs, &n, err, sizeof(err)) == 0) {
		s->ops->add_runs(s, runs, n, &how, err, sizeof(err));
		for (int i = 0; i < n; i++)
			pg_rrun_free(&runs[i]);
		free(runs);
	}
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = db_path();
	char err[1024];
	if (put_file(path, data, size) < 0)
		return 0;
	struct pg_store *s = pg_store_sqlite_open(path, 0, err, sizeof(err));
	if (s) {
		read_all(s);
		pg_store_close(s);
	}
	if ((s = pg_store_sqlite_open(path, 1, err, sizeof(err)))) {
		add_one(s);
		read_all(s);
		pg_store_close(s);
	}
	return 0;
}
