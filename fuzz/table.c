/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for import --table: the bytes are a published guide's table
 * (CSV). It is read as import reads it (runs/table_import.c, with the map
 * every benchmark's labels give), and the runs it gives go into an SQLite
 * store in memory and into the guide in every format.
 *
 * Beyond "no crash, no leak, no undefined behaviour", what must hold: the
 * runs a table gives are runs the results-file reader takes (their ids and
 * boards within its limits, one run per id); a table the reader accepts
 * imports; every output passes fuzz_check_text. The table is a file in
 * $TMPDIR (fuzz_tmpdir), as import reads a path.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "runs/table_import.h"
#include "store/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pg_table_map map;

static void check_runs(const struct pg_rrun *runs, int n)
{
	char err[512];
	for (int i = 0; i < n; i++) {
		if (pg_rrun_check_names(runs[i].id, runs[i].board, err, sizeof(err)) < 0) {
			fprintf(stderr, "a table gave a run the reader refuses: %s\n", err);
			abort();
		}
		for (int k = 0; k < i; k++)
			if (strcmp(runs[k].id, runs[i].id) == 0) {
				fprintf(stderr, "a table gave two runs of id %s\n", runs[i].id);
				abort();
			}
	}
	struct pg_store *s = pg_store_sqlite_open(":memory:", 1, err, sizeof(err));
	int *how = calloc((size_t)n + 1, sizeof(int));
	if (!s || !how || s->ops->add_runs(s, runs, n, how, err, sizeof(err)) < 0) {
		fprintf(stderr, "a table's runs do not import: %s\n", s && how ? err : "no store");
		abort();
	}
	free(how);
	pg_store_close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[4200];
	if (!map.priv && pg_table_map_init(&map) < 0)
		abort();
	snprintf(path, sizeof(path), "%s/table.csv", fuzz_tmpdir());
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	int ok = fwrite(data, 1, size, f) == size;
	if (fclose(f) != 0 || !ok)
		abort();
	struct pg_table_import opts = { .keys = 1 + (size && data[0] == '2'), .date = 1 };
	struct pg_table_stats st;
	struct pg_rrun *runs;
	int n;
	char err[1024];
	int rc = pg_table_import(path, &map, &opts, &runs, &n, &st, err, sizeof(err));
	unlink(path);
	if (rc < 0)
		return 0;
	check_runs(runs, n);
	const struct pg_rrun **ptrs = calloc((size_t)n + 1, sizeof(*ptrs));
	for (int i = 0; ptrs && i < n; i++)
		ptrs[i] = &runs[i];
	if (ptrs && n > 0)
		fuzz_every_format(ptrs, n, n > 1);
	free(ptrs);
	for (int i = 0; i < n; i++)
		pg_rrun_free(&runs[i]);
	free(runs);
	return 0;
}
