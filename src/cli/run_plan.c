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

/* The benchmark's combinations as items; one that cannot run here at any
 * setting is one item, skipped with the reason. */
static int add_items(struct run_plan *p, const struct pg_bench *b, const struct pg_args *combos, int n,
		     const char *skip)
{
	struct run_item *items = realloc(p->items, sizeof(*items) * (size_t)(p->n + n + 1));
	if (!items)
		return -1;
	p->items = items;
	for (int k = 0; k < n; k++) {
		memset(&items[p->n], 0, sizeof(items[p->n]));
		items[p->n].bench = b;
		snprintf(items[p->n].skip, sizeof(items[p->n].skip), "%s", skip);
		items[p->n++].args = combos[k];
	}
	return 0;
}

static int add_takes(struct run_plan *p, const struct pg_bench *b, const struct pg_take *take, int nov)
{
	for (int i = 0; i < nov; i++) {
		if (take[i].how == PG_TAKE_NONE)
			continue;
		struct run_take *t = realloc(p->takes, sizeof(*t) * (size_t)(p->ntakes + 1));
		if (!t)
			return -1;
		p->takes = t;
		t[p->ntakes++] = (struct run_take){ .bench = b, .ov = i, .t = take[i] };
	}
	return 0;
}

/* Whether the suite leaves out every benchmark the selector selects (a
 * group or a glob the user named, such as ext under quick). */
static int left_out(const struct run_config *c, const char *sel)
{
	if (c->suite == PG_SUITE_NONE)
		return 0;
	int any = 0;
	for (const struct pg_group *g = pg_groups; g->name; g++)
		for (const struct pg_bench *const *b = g->benches; *b; b++) {
			if (!pg_registry_matches(sel, (*b)->id))
				continue;
			if ((int)c->suite >= (*b)->min_suite)
				return 0;
			any = 1;
		}
	return any;
}

/* Whether the user named this benchmark: by its id (1), or by a selector
 * whose every benchmark the suite leaves out (2). */
static int named(const struct run_config *c, const struct pg_bench *b)
{
	int how = 0;
	for (int i = 0; i < c->nselectors; i++) {
		if (strcmp(c->selectors[i], b->id) == 0)
			return 1;
		if (!how && pg_registry_matches(c->selectors[i], b->id) && left_out(c, c->selectors[i]))
			how = 2;
	}
	return how;
}

/* One selected benchmark's items, and what it did with each -p. A
 * benchmark named by its id always gets a result: a suite that leaves it
 * out still runs it (at that suite's lists), and one that cannot run here
 * at any setting is reported skipped. */
static int plan_bench(struct run_config *c, struct run_plan *p, const struct pg_bench *b, int64_t mem_avail,
		      char *err, size_t len)
{
	struct pg_take take[RUN_MAX_OVERRIDES];
	struct pg_sweep_opts o = { .suite = c->suite, .mem_avail = mem_avail, .named = named(c, b), .take = take };
	struct pg_args *combos;
	int n;
	if (pg_sweep_with(b, &o, c->ov, c->nov, &combos, &n, err, len) < 0)
		return -1;
	int rc = add_items(p, b, combos, n, o.skip);
	free(combos);
	if (rc < 0 || (n > 0 && add_takes(p, b, take, c->nov) < 0)) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (o.named == 1 && c->suite != PG_SUITE_NONE && (int)c->suite < b->min_suite)
		fprintf(stderr, "perfguide: %s is not in the %s suite; named, it runs at that suite's settings it "
			"has, else its defaults\n",
			b->id, pg_suite_name(c->suite));
	if (o.at_defaults)
		fprintf(stderr, "perfguide: %s: every setting of the %s suite left out; named, it runs at its "
			"defaults\n", b->id, pg_suite_name(c->suite));
	return 0;
}

/* The bytes free for memory parameters. PERFGUIDE_TEST_MEM_AVAILABLE=SIZE
 * (for tests only) says another, as a machine with that little would. */
static int64_t mem_available(void)
{
	const char *t = getenv("PERFGUIDE_TEST_MEM_AVAILABLE");
	int64_t v;
	char e[80];
	if (t && pg_parse_size(t, &v, e, sizeof(e)) == 0)
		return v;
	return pg_mem_available();
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
	/* An unscoped -p among several benchmarks goes to each that can take
	 * it (run_params.c says what became of it). */
	for (int i = 0; i < c->nov; i++)
		c->ov[i].soft = !c->ov[i].scope[0];
	for (int i = 0; i < c->nselectors; i++)
		if (!pg_registry_find(c->selectors[i]) && left_out(c, c->selectors[i]))
			fprintf(stderr, "perfguide: none of the benchmarks '%s' selects is in the %s suite; named, they "
				"run at that suite's settings they have, else their defaults\n", c->selectors[i],
				pg_suite_name(c->suite));
	int64_t mem_avail = mem_available();
	for (int i = 0; i < nsel; i++)
		if (plan_bench(c, p, sel[i], mem_avail, err, len) < 0)
			return -1;
	if (run_check_overrides(c, p, err, len) < 0)
		return -1;
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
		if (p->items[i].skip[0])
			continue;
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
	free(p->takes);
	p->takes = NULL;
	p->ntakes = 0;
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
	run_print_takes(stdout, c, p, 1);
	for (int i = 0; i < p->n; i++) {
		pg_args_format(&p->items[i].args, args, sizeof(args));
		run_format_seconds(p->items[i].floor, secs, sizeof(secs));
		if (p->items[i].skip[0])
			printf("%-28s %-48s skipped: %s\n", p->items[i].bench->id, args, p->items[i].skip);
		else
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
