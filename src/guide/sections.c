/* SPDX-License-Identifier: MIT */
/*
 * The guide's sections as the walk asks for them: a section by its title
 * while the rows are read, each section's rows, what each column has in
 * it. A results file may give every result its own section, so each of
 * these is a look-up, never a pass over all the rows (issue 40).
 */
#include "guide.h"

#include <stdint.h>
#include <stdlib.h>
#include <strings.h>

#include "core/hash.h"

/* Titles are one section whatever their case: the hash folds it. */
static size_t title_hash(const char *t)
{
	uint64_t h = pg_hash_str(PG_HASH_INIT, t, PG_HASH_FOLD);
	return (size_t)(h ^ (h >> 32));	/* a 32-bit size_t keeps the high half's bits too */
}

static void title_put(struct pg_guide *g, int s)
{
	size_t mask = g->title_cap - 1, i = title_hash(g->sections[s].title) & mask;
	while (g->titles[i] >= 0)
		i = (i + 1) & mask;
	g->titles[i] = s;
}

int pg_guide_find_section(const struct pg_guide *g, const char *title)
{
	if (!g->title_cap)
		return -1;
	size_t mask = g->title_cap - 1;
	for (size_t i = title_hash(title) & mask; g->titles[i] >= 0; i = (i + 1) & mask)
		if (strcasecmp(g->sections[g->titles[i]].title, title) == 0)
			return g->titles[i];
	return -1;
}

int pg_guide_index_section(struct pg_guide *g, int s)
{
	/* at most half full, so that a probe ends soon */
	if ((size_t)(s + 1) * 2 > g->title_cap) {
		size_t cap = g->title_cap ? g->title_cap * 2 : 64;
		int *n = realloc(g->titles, sizeof(int) * cap);
		if (!n)
			return -1;
		g->titles = n;
		g->title_cap = cap;
		for (size_t i = 0; i < cap; i++)
			n[i] = -1;
		for (int k = 0; k < s; k++)
			title_put(g, k);
	}
	title_put(g, s);
	return 0;
}

int pg_section_rows(const struct pg_guide *g, int s, int *first, int *last)
{
	*first = g->sec_start[s];
	*last = g->sec_start[s + 1] - 1;
	if (*first > *last)
		*first = *last = -1;
	return *first >= 0;
}

int pg_section_has_cpu(const struct pg_guide *g, int section)
{
	if (!g->sections[section].cpu_load)
		return 0;
	for (int c = 0; c < g->ncols; c++)
		if (g->has[(size_t)section * (size_t)g->ncols + (size_t)c] & PG_HAS_BUSY)
			return 1;
	return 0;
}

int pg_column_in_section(const struct pg_guide *g, int s, int c)
{
	return (g->has[(size_t)s * (size_t)g->ncols + (size_t)c] & PG_HAS_RESULT) != 0;
}

int pg_guide_note_sections(struct pg_guide *g)
{
	/* the sections have moved since they were indexed: again, in their
	 * places in the guide, for pg_guide_find_section while it is written */
	for (size_t i = 0; i < g->title_cap; i++)
		g->titles[i] = -1;
	for (int s = 0; s < g->nsections; s++)
		title_put(g, s);
	g->has = calloc((size_t)g->nsections * (size_t)g->ncols + 1, 1);
	g->sec_start = calloc((size_t)g->nsections + 1, sizeof(int));
	if (!g->has || !g->sec_start)
		return -1;
	/* the rows are sorted by section: each section's are a range */
	for (int r = 0; r < g->nrows; r++)
		g->sec_start[g->rows[r].section + 1] = r + 1;
	for (int s = 1; s <= g->nsections; s++)
		if (g->sec_start[s] < g->sec_start[s - 1])
			g->sec_start[s] = g->sec_start[s - 1];
	for (int r = 0; r < g->nrows; r++)
		for (int c = 0; c < g->ncols; c++) {
			const struct pg_gcell *cell = &g->rows[r].cells[c];
			unsigned char *h = &g->has[(size_t)g->rows[r].section * (size_t)g->ncols + (size_t)c];
			*h |= (cell->present ? PG_HAS_RESULT : 0) | (cell->have_busy ? PG_HAS_BUSY : 0);
		}
	return 0;
}
