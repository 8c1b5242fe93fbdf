/* perfguide compare: two runs (compare.c), or a fleet's releases (compare_fleet.c). */
#ifndef PG_CLI_COMPARE_H
#define PG_CLI_COMPARE_H

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

/* Every board with a run of both releases; the exit status. */
int compare_fleet(const struct compare_opts *o);

#endif
