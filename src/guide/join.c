/* SPDX-License-Identifier: MIT */
/*
 * Which fuller row a row that lacks parameters joins, in a section whose
 * columns hold several benchmarks (Crypto): a published table's row names
 * its algorithm and size alone, a run's its backend, operation, threads...
 * The published figure goes beside the measured one perfguide takes for
 * the same measurement: the one at the benchmark's defaults for what the
 * table does not say (openssl speed's figures beside backend=openssl's,
 * whichever backend the run recorded first). The table (pivot.c) and the
 * charts (plots.c) join alike.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/params.h"
#include "core/registry.h"
#include "guide.h"

/* Whether JSON value v is the text def of parameter p. */
static int is_default(const struct pg_param *p, json_t *v)
{
	if (!p->def)
		return 0;
	if (json_is_string(v))
		return strcmp(json_string_value(v), p->def) == 0;
	struct pg_value d;
	char err[160];
	if (!json_is_number(v) || pg_value_parse(p, p->def, &d, err, sizeof(err)) < 0 || pg_value_is_named(&d))
		return 0;
	return json_is_integer(v) ? json_integer_value(v) == d.num : json_number_value(v) == (double)d.num;
}

int pg_row_joins(const char *bench, const char *rest, const char *full)
{
	json_t *r = json_loads(rest ? rest : "{}", 0, NULL), *f = json_loads(full ? full : "{}", 0, NULL), *v;
	const struct pg_bench *b = pg_registry_find(bench);
	const char *name;
	/* a benchmark this perfguide does not know has no defaults to go by */
	int how = r && f ? (b ? PG_JOIN_DEFAULT : PG_JOIN_SOME) : PG_JOIN_NO;
	json_object_foreach(r, name, v) {
		json_t *w = json_object_get(f, name);
		if (w && !json_equal(w, v))
			how = PG_JOIN_NO;
	}
	json_object_foreach(f, name, v) {
		const struct pg_param *p = b ? pg_param_find(b, name) : NULL;
		/* a parameter its benchmark has not (a digest has no op) says
		 * nothing either way */
		if (how == PG_JOIN_DEFAULT && !json_object_get(r, name) && p && !is_default(p, v))
			how = PG_JOIN_SOME;
	}
	json_decref(r);
	json_decref(f);
	return how;
}

int pg_join_pick(const int *how, int n)
{
	int only = -1, some = 0;
	for (int i = 0; i < n; i++) {
		if (how[i] == PG_JOIN_DEFAULT)
			return i;
		if (how[i] == PG_JOIN_SOME) {
			only = i;
			some++;
		}
	}
	return some == 1 ? only : -1;
}
