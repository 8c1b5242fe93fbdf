/* perfguide run: which benchmarks run, with which parameter combinations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/sysinfo.h"
#include "run.h"

#define MAX_SELECTED 1024

static int select_benches(const struct run_config *c, const struct pg_bench **sel, int *n, char *err, size_t len)
{
	*n = 0;
	if (c->nselectors == 0)
		pg_registry_select("*", sel, n, MAX_SELECTED);
	for (int i = 0; i < c->nselectors; i++)
		if (pg_registry_select(c->selectors[i], sel, n, MAX_SELECTED) == 0) {
			snprintf(err, len, "no benchmark matches '%s' (see 'perfguide list')", c->selectors[i]);
			return -1;
		}
	return 0;
}

static int add_items(struct run_plan *p, const struct pg_bench *b, const struct pg_args *combos, int n)
{
	struct run_item *items = realloc(p->items, sizeof(*items) * (size_t)(p->n + n + 1));
	if (!items)
		return -1;
	p->items = items;
	for (int k = 0; k < n; k++) {
		items[p->n].bench = b;
		items[p->n++].args = combos[k];
	}
	return 0;
}

/* Every parameter combination, checked now so that no bad input is found
 * halfway through a long run. */
int run_make_plan(struct run_config *c, struct run_plan *p, char *err, size_t len)
{
	static const struct pg_bench *sel[MAX_SELECTED];
	int nsel;
	memset(p, 0, sizeof(*p));
	if (select_benches(c, sel, &nsel, err, len) < 0)
		return -1;
	int64_t mem_avail = pg_mem_available();
	for (int i = 0; i < nsel; i++) {
		struct pg_args *combos;
		int n;
		if (pg_sweep(sel[i], c->suite, c->ov, c->nov, mem_avail, &combos, &n, err, len) < 0)
			return -1;
		int rc = add_items(p, sel[i], combos, n);
		free(combos);
		if (rc < 0) {
			snprintf(err, len, "out of memory");
			return -1;
		}
	}
	for (int i = 0; i < c->nov; i++)
		if (!c->ov[i].used) {
			snprintf(err, len, "no selected benchmark has a parameter '%s' (see 'perfguide list')", c->ov[i].name);
			return -1;
		}
	if (p->n == 0) {
		snprintf(err, len, "nothing to run: every combination was left out");
		return -1;
	}
	const struct pg_bench **ran = malloc(sizeof(*ran) * (size_t)p->n);
	if (!ran) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (int i = 0; i < p->n; i++)
		ran[i] = p->items[i].bench;
	p->nsections = pg_sections_of(ran, p->n, p->sections, (int)(sizeof(p->sections) / sizeof(p->sections[0])));
	free(ran);
	return 0;
}

void run_plan_free(struct run_plan *p)
{
	free(p->items);
	p->items = NULL;
	p->n = 0;
}
