/* SPDX-License-Identifier: MIT */
/*
 * Every benchmark perfguide has. Each group (src/bench/<group>/) exports a
 * NULL-terminated table named pg_group_<group>; the build lists the groups it
 * found in a generated file, so adding a group changes nothing here.
 */
#ifndef PG_REGISTRY_H
#define PG_REGISTRY_H

#include "bench.h"

/* A process perfguide starts from itself (/proc/self/exe NAME ARGS...) to do
 * part of a benchmark's work, named by a first argument no user types
 * ("__..."). A group that has some exports them in a table
 * pg_helpers_<group>, ended by a NULL name (pg_add_group's HELPERS), and
 * main() runs the one named before it looks for a command. */
struct pg_helper {
	const char *name;
	int (*main)(int argc, char **argv);
};

struct pg_group {
	const char *name;
	const struct pg_bench *const *benches;
	const struct pg_helper *helpers;	/* NULL: none */
};

extern const struct pg_group pg_groups[];	/* generated; ends with a NULL name */

/* Calls fn for each benchmark in table order. */
void pg_registry_each(void (*fn)(const struct pg_bench *, void *), void *arg);
const struct pg_bench *pg_registry_find(const char *id);
/* The helper of that name, of any group; NULL when there is none. */
const struct pg_helper *pg_helper_find(const char *name);

/* Whether the selector (an id, a group, a glob) selects this id. */
int pg_registry_matches(const char *sel, const char *id);

/* Appends every benchmark matching the glob (an id or fnmatch pattern) to
 * out[] unless already there; returns how many matched, or -1 if out is full. */
int pg_registry_select(const char *glob, const struct pg_bench **out, int *n, int max);
/* Whether the glob (as run's SELECTOR) selects benchmark b. */
int pg_registry_selects(const char *glob, const struct pg_bench *b);

/* The sections of benchmarks b[0..n-1], one per title (declarations with the
 * same title are one table; the first one met stands for them), in order of
 * first appearance; returns how many, at most max. */
int pg_sections_of(const struct pg_bench *const *b, int n, const struct pg_section **out, int max);

/* A declared section with this title, NULL when no benchmark declares it. */
const struct pg_section *pg_registry_section(const char *title);

#endif
