/* SPDX-License-Identifier: MIT */
#include "registry.h"

#include <fnmatch.h>
#include <string.h>

void pg_registry_each(void (*fn)(const struct pg_bench *, void *), void *arg)
{
	for (const struct pg_group *g = pg_groups; g->name; g++)
		for (const struct pg_bench *const *b = g->benches; *b; b++)
			fn(*b, arg);
}

const struct pg_bench *pg_registry_find(const char *id)
{
	for (const struct pg_group *g = pg_groups; g->name; g++)
		for (const struct pg_bench *const *b = g->benches; *b; b++)
			if (strcmp((*b)->id, id) == 0)
				return *b;
	return NULL;
}

const struct pg_helper *pg_helper_find(const char *name)
{
	for (const struct pg_group *g = pg_groups; g->name; g++)
		for (const struct pg_helper *h = g->helpers; h && h->name; h++)
			if (strcmp(h->name, name) == 0)
				return h;
	return NULL;
}

int pg_registry_matches(const char *sel, const char *id)
{
	/* An exact id is that benchmark alone, even when it is also the prefix
	 * of others ("os.mmap" is not "os.mmap.rd.*"); "mem" alone selects
	 * every "mem.*" id, as the glob does. */
	if (fnmatch(sel, id, 0) == 0)
		return 1;
	size_t n = strlen(sel);
	return strncmp(id, sel, n) == 0 && id[n] == '.' && !pg_registry_find(sel);
}

int pg_registry_selects(const char *glob, const struct pg_bench *b)
{
	return pg_registry_matches(glob, b->id);
}

int pg_registry_select(const char *glob, const struct pg_bench **out, int *n, int max)
{
	int matched = 0;
	for (const struct pg_group *g = pg_groups; g->name; g++)
		for (const struct pg_bench *const *b = g->benches; *b; b++) {
			if (!pg_registry_matches(glob, (*b)->id))
				continue;
			matched++;
			int dup = 0;
			for (int i = 0; i < *n; i++)
				dup |= out[i] == *b;
			if (dup)
				continue;
			if (*n == max)
				return -1;
			out[(*n)++] = *b;
		}
	return matched;
}

int pg_sections_of(const struct pg_bench *const *b, int n, const struct pg_section **out, int max)
{
	int k = 0;
	for (int i = 0; i < n; i++) {
		const struct pg_section *s = b[i]->section;
		int seen = !s;
		for (int j = 0; j < k && !seen; j++)
			seen = strcmp(out[j]->title, s->title) == 0;
		if (!seen && k < max)
			out[k++] = s;
	}
	return k;
}

const struct pg_section *pg_registry_section(const char *title)
{
	for (const struct pg_group *g = pg_groups; g->name; g++)
		for (const struct pg_bench *const *b = g->benches; *b; b++)
			if ((*b)->section && strcmp((*b)->section->title, title) == 0)
				return (*b)->section;
	return NULL;
}
