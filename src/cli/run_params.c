/* SPDX-License-Identifier: MIT */
/*
 * perfguide run: what became of each -p among the selected benchmarks.
 * An unscoped -p NAME=VALUE goes to each benchmark whose parameter NAME
 * takes VALUE by its declaration (type, choices, range, form); the others
 * keep their own values, and the run says which and why. A scoped one
 * (-p storage.path=...) goes to the benchmarks its selector selects, each
 * of which must take it.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "core/registry.h"
#include "run.h"

/* Whether some benchmark, selected or not, that o's scope selects has
 * o's parameter: a scope or a name mistyped if none has. */
static int scope_has(const struct pg_override *o)
{
	for (const struct pg_group *g = pg_groups; g->name; g++)
		for (const struct pg_bench *const *b = g->benches; *b; b++)
			if (pg_override_for(o, *b) && pg_param_find(*b, o->param))
				return 1;
	return 0;
}

/* The group of the first benchmark that took override i ("os"). */
static void taker_group(const struct run_plan *p, int i, char *buf, size_t len)
{
	snprintf(buf, len, "GROUP");
	for (int k = 0; k < p->ntakes; k++)
		if (p->takes[k].ov == i && p->takes[k].t.how == PG_TAKE_YES) {
			const char *id = p->takes[k].bench->id, *dot = strchr(id, '.');
			snprintf(buf, len, "%.*s", (int)(dot ? dot - id : (ptrdiff_t)strlen(id)), id);
			return;
		}
}

int run_check_overrides(const struct run_config *c, const struct run_plan *p, char *err, size_t len)
{
	char grp[64];
	for (int i = 0; i < c->nov; i++) {
		const struct pg_override *o = &c->ov[i];
		if (!o->known && (!o->scope[0] || o->required))
			return pg_err(err, len, "no selected benchmark has a parameter '%s' (see 'perfguide list')", o->param);
		if (!o->known && !scope_has(o))
			return pg_err(err, len, "-p %s: no benchmark that '%s' selects has a parameter '%s' (see "
				      "'perfguide list %s')", o->name, o->scope, o->param, o->scope);
		if (!o->known) {
			fprintf(stderr, "perfguide: -p %s=%s: no selected benchmark is one of '%s': not used\n", o->name,
				o->values, o->scope);
		} else if (!o->used && !o->would && o->refused[0]) {
			return pg_err(err, len, "%s", o->refused);
		} else if (o->typo && (o->used || o->would)) {
			/* A choice mistyped, though another benchmark's parameter of
			 * that name would take it as a value of its own. */
			taker_group(p, i, grp, sizeof(grp));
			return pg_err(err, len, "%s (a typo? for the %s benchmarks alone, say so: -p %s.%s=%s)",
				      o->refused, grp, grp, o->param, o->values);
		} else if (!o->used && o->would) {
			fprintf(stderr, "perfguide: -p %s=%s: the benchmarks that would take it are not in the %s "
				"suite: not used\n", o->name, o->values, pg_suite_name(c->suite));
		}
	}
	return 0;
}

/* The benchmarks of override i that did `how` (for a reason `why`), by id,
 * comma-separated: at most max of them, then how many more. */
static int print_ids(FILE *out, const struct run_plan *p, int i, enum pg_take_how how, const char *why, int max)
{
	int n = 0;
	for (int k = 0; k < p->ntakes; k++) {
		const struct run_take *t = &p->takes[k];
		if (t->ov != i || t->t.how != how || (why && strcmp(t->t.why, why) != 0))
			continue;
		if (n < max)
			fprintf(out, "%s%s", n ? ", " : "", t->bench->id);
		n++;
	}
	if (n > max)
		fprintf(out, " and %d more", n - max);
	return n;
}

/* Whether takes[k] is the first refusal of its override for its reason. */
static int first_of_reason(const struct run_plan *p, int k)
{
	for (int j = 0; j < k; j++)
		if (p->takes[j].ov == p->takes[k].ov && p->takes[j].t.how == PG_TAKE_NOT &&
		    strcmp(p->takes[j].t.why, p->takes[k].t.why) == 0)
			return 0;
	return 1;
}

/* Whether the benchmarks that took override i are of more than one group:
 * a name that means something else in each, maybe (rate: Hz of audio,
 * Mbit/s of net), which the run says. */
static int several_groups(const struct run_plan *p, int i)
{
	const char *first = NULL;
	size_t fl = 0;
	for (int k = 0; k < p->ntakes; k++) {
		if (p->takes[k].ov != i || p->takes[k].t.how != PG_TAKE_YES)
			continue;
		const char *id = p->takes[k].bench->id, *dot = strchr(id, '.');
		size_t l = dot ? (size_t)(dot - id) : strlen(id);
		if (!first) {
			first = id;
			fl = l;
		} else if (l != fl || strncmp(id, first, l) != 0) {
			return 1;
		}
	}
	return 0;
}

void run_print_takes(FILE *out, const struct run_config *c, const struct run_plan *p, int all)
{
	const char *pfx = all ? "" : "perfguide: ";
	int max = all ? INT_MAX : 4;
	char grp[64];
	for (int i = 0; i < c->nov; i++) {
		const struct pg_override *o = &c->ov[i];
		if (o->used && (all || several_groups(p, i))) {
			fprintf(out, "%s-p %s=%s: taken by ", pfx, o->name, o->values);
			print_ids(out, p, i, PG_TAKE_YES, NULL, max);
			taker_group(p, i, grp, sizeof(grp));
			if (several_groups(p, i))
				fprintf(out, ", of several groups (for one group alone: -p %s.%s=%s)", grp, o->param,
					o->values);
			fputc('\n', out);
		}
		for (int k = 0; k < p->ntakes; k++) {
			const struct run_take *t = &p->takes[k];
			if (t->ov != i || t->t.how != PG_TAKE_NOT || !first_of_reason(p, k))
				continue;
			fprintf(out, "%s-p %s=%s: ", pfx, o->name, o->values);
			int n = print_ids(out, p, i, PG_TAKE_NOT, t->t.why, max);
			fprintf(out, " %s %s own %s (%s)\n", n == 1 ? "keeps" : "keep", n == 1 ? "its" : "their",
				o->param, t->t.why);
		}
	}
}
