/* SPDX-License-Identifier: MIT */
/*
 * A published guide's table (the seed's CSV: a header naming the boards, a
 * row per figure) as runs whose figures share rows with perfguide's: each
 * row mapped onto the benchmark, parameters and metric whose label is its
 * name (table_import.c).
 */
#ifndef PG_TABLE_IMPORT_H
#define PG_TABLE_IMPORT_H

#include <stddef.h>
#include <time.h>

#include "rundata.h"

/* Row names -> result keys: every label the registry's benchmarks give,
 * and the lines of map files. */
struct pg_table_map {
	void *priv;
};

int pg_table_map_init(struct pg_table_map *map);
/* Lines "ROW NAME,BENCHMARK,NAME=VALUE NAME=VALUE,METRIC" (csv; # starts a
 * comment): names no label gives, the parameters not named at their
 * defaults. Returns 0, or -1 with err naming the line. */
int pg_table_map_read(const char *path, struct pg_table_map *map, char *err, size_t errlen);
void pg_table_map_free(struct pg_table_map *map);

struct pg_table_import {
	int keys;		/* leading columns whose cells, joined by spaces, name a row */
	const char *labels;	/* JSON object text the runs carry ({"release":"09.02"}); NULL: none */
	const char *section;	/* the section of rows nothing maps; NULL: the file's name */
	time_t date;		/* when the runs say they started; 0: the file's time */
	/* Told of each row that maps onto no benchmark, with why; NULL: not told. */
	void (*unmapped)(void *arg, int line, const char *row, const char *why);
	void *arg;
};

#define PG_TABLE_SECTIONS 16

struct pg_table_stats {
	int matched, unmatched;	/* rows */
	int boards;		/* runs made */
	/* the sections of the rows mapped, and how many rows each */
	char sections[PG_TABLE_SECTIONS][64];
	int count[PG_TABLE_SECTIONS], nsections;
};

/* The runs of the table at path: one per board column, its figures as
 * results ("M (min X, max Y)": samples X, M, Y). Returns 0, or -1 with err
 * naming the file and line. */
int pg_table_import(const char *path, const struct pg_table_map *map, const struct pg_table_import *o,
		    struct pg_rrun **runs, int *n, struct pg_table_stats *st, char *err, size_t errlen);

#endif
