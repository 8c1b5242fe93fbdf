/* The walk through the guide that every writer shares. */
#include "writer.h"

#include <stdio.h>
#include <string.h>

int pg_guide_write(const struct pg_guide *g, const struct pg_writer *wr, FILE *out)
{
	struct pg_walk w = { .g = g, .out = out };
	struct pg_table t;
	if (wr->begin && wr->begin(&w) < 0)
		return -1;
	int rc = pg_table_machines(g, &t);
	if (rc == 0 && wr->machines)
		wr->machines(&w, &t);
	pg_table_free(&t);
	if (rc == 0 && g->baseline >= 0) {
		rc = pg_table_summary(g, &t);
		if (rc == 0 && wr->summary)
			wr->summary(&w, &t);
		pg_table_free(&t);
	}
	for (int s = 0; rc == 0 && s < g->nsections; s++) {
		rc = pg_table_section(g, s, wr->table_opts, &t);
		if (rc == 0)
			wr->section(&w, s, &t);
		pg_table_free(&t);
	}
	int end = wr->end ? wr->end(&w) : 0;
	return rc < 0 || end < 0 || ferror(out) ? -1 : 0;
}
