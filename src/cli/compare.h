/* perfguide compare: two runs (compare.c), or a fleet's releases (compare_fleet.c). */
#ifndef PG_CLI_COMPARE_H
#define PG_CLI_COMPARE_H

#include <jansson.h>
#include <stddef.h>

#include "report/compare.h"

#define COMPARE_MAX_BOARDS 64

struct compare_opts {
	const char *db;
	double threshold;
	int json;
	const char *base_release, *release;	/* --baseline-release, --release */
	const char *boards[COMPARE_MAX_BOARDS];	/* --board: only these */
	int nboards;
};

/* One compared result as compare --format json writes it. */
json_t *compare_row_json(const struct pg_cmp_row *r);
/* The row's name: the seed's label, or bench, parameters and metric; and the unit. */
void compare_row_name(const struct pg_cmp_row *r, char *buf, size_t len);

/* Every board with a run of both releases; the exit status. */
int compare_fleet(const struct compare_opts *o);

#endif
