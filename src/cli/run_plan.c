/* SPDX-License-Identifier: MIT */
/* perfguide run: which benchmarks run, with which parameter combinations. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/sysinfo.h"
#include "run.h"
#include "core/err.h"

#define MAX_SELECTED 1024

static int select_benches(const struct run_config *c, const struct pg_bench **sel, int *n, char *err, size_t len)
{
	*n = 0;
	if (c->nselectors == 0)
		pg_registry_select("*", sel, n, MAX_SELECTED);
	for (int i = 0; i < c->nselectors; i++)
		if (pg_registry_select(c->selectors[i], sel, n, MAX_SELECTED) == 0) {
			return pg_err(err, len, "no benchmark matches '%s' (see 'perfguide list')", c->selectors[i]);
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
			return pg_err(err, len, "out of memory");
		}
	}
	for (int i = 0; i < c->nov; i++)
		if (!c->ov[i].used) {
			return pg_err(err, len, "no selected benchmark has a parameter '%s' (see 'perfguide list')",
				      c->ov[i].name);
		}
	if (p->n == 0) {
		return pg_err(err, len, "nothing to run: every combination was left out");
	}
	const struct pg_bench **ran = malloc(sizeof(*ran) * (size_t)p->n);
	if (!ran) {
		return pg_err(err, len, "out of memory");
	}
	/* What the runner's budget will keep back for each (core/budget.c). */
	struct pg_run_opts fo = { .runs = c->runs, .min_time = c->min_time, .iters = c->iters,
				  .max_time = c->max_time };
	for (int i = 0; i < p->n; i++) {
		int flexible;
		ran[i] = p->items[i].bench;
		p->items[i].floor = pg_result_floor(p->items[i].bench, &p->items[i].args, &fo, &flexible);
		p->floors += p->items[i].floor;
	}
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

void run_format_seconds(double s, char *buf, size_t len)
{
	if (s >= 59.95) {
		long t = lround(s);
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	} else {
		snprintf(buf, len, "%.1fs", s);
	}
}

/* A benchmark's results in the plan, and their floors' sum. */
struct heavy {
	const struct pg_bench *bench;
	int n;
	double floor;
};

/* The `max` benchmarks whose floors sum highest, highest first (the plan's
 * items of one benchmark are next to each other). Returns how many. */
static int heaviest(const struct run_plan *p, struct heavy *top, int max)
{
	int ntop = 0;
	for (int i = 0; i < p->n;) {
		struct heavy h = { p->items[i].bench, 0, 0 };
		for (; i < p->n && p->items[i].bench == h.bench; i++) {
			h.n++;
			h.floor += p->items[i].floor;
		}
		int at = ntop < max ? ntop++ : max;
		while (at > 0 && top[at - 1].floor < h.floor) {
			if (at < max)
				top[at] = top[at - 1];
			at--;
		}
		if (at < max)
			top[at] = h;
	}
	return ntop;
}

void run_plan_check_budget(const struct run_config *c, const struct run_plan *p)
{
	if (!(c->budget > 0) || p->floors <= c->budget)
		return;
	char budget[32], floors[32], over[32], each[32];
	struct heavy top[3];
	int ntop = heaviest(p, top, 3);
	run_format_seconds(c->budget, budget, sizeof(budget));
	run_format_seconds(p->floors, floors, sizeof(floors));
	run_format_seconds(p->floors - c->budget, over, sizeof(over));
	fprintf(stderr, "perfguide: the %s budget cannot be met: what no share of it can shorten (a result's "
		"first samples, a trial's time) takes %s, %s over; most of it", budget, floors, over);
	for (int k = 0; k < ntop; k++) {
		run_format_seconds(top[k].floor, each, sizeof(each));
		fprintf(stderr, "%s %s (%d result%s, %s)", k ? "," : "", top[k].bench->id, top[k].n,
			top[k].n == 1 ? "" : "s", each);
	}
	fputs("; running anyway, each result at its floor\n", stderr);
}

void run_plan_print(const struct run_config *c, const struct run_plan *p)
{
	char args[160], secs[32];
	for (int i = 0; i < p->n; i++) {
		pg_args_format(&p->items[i].args, args, sizeof(args));
		run_format_seconds(p->items[i].floor, secs, sizeof(secs));
		printf("%-28s %-48s floor %s\n", p->items[i].bench->id, args, secs);
	}
	run_format_seconds(p->floors, secs, sizeof(secs));
	printf("%d result%s, floors %s", p->n, p->n == 1 ? "" : "s", secs);
	if (c->budget > 0) {
		char budget[32];
		run_format_seconds(c->budget, budget, sizeof(budget));
		printf(" of the %s budget", budget);
	}
	putchar('\n');
}
