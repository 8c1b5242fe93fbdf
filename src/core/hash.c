/* SPDX-License-Identifier: MIT */
#include "hash.h"

#include <stdlib.h>
#include <string.h>

#define FNV_PRIME UINT64_C(1099511628211)

uint64_t pg_hash_byte(uint64_t h, unsigned char c)
{
	return (h ^ c) * FNV_PRIME;
}

uint64_t pg_hash_str(uint64_t h, const char *s, unsigned flags)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		unsigned char c = *p;
		/* ASCII only, as strcasecmp in the C locale: the same in any locale */
		if ((flags & PG_HASH_FOLD) && c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		h = pg_hash_byte(h, c);
	}
	return h;
}

/* The slot of key: where it is, else the empty one it goes in. */
static size_t slot(const struct pg_strmap *m, const char *key)
{
	size_t mask = m->cap - 1, i = (size_t)pg_hash_str(PG_HASH_INIT, key, 0) & mask;
	while (m->key[i] && strcmp(m->key[i], key) != 0)
		i = (i + 1) & mask;
	return i;
}

int *pg_strmap_get(const struct pg_strmap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	size_t i = slot(m, key);
	return m->key[i] ? &m->val[i] : NULL;
}

static int grow(struct pg_strmap *m)
{
	struct pg_strmap b = { .cap = m->cap ? m->cap * 2 : 64, .n = m->n };
	b.key = calloc(b.cap, sizeof(*b.key));
	b.val = calloc(b.cap, sizeof(*b.val));
	if (!b.key || !b.val) {
		free(b.key);
		free(b.val);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->key[i]) {
			size_t j = slot(&b, m->key[i]);
			b.key[j] = m->key[i];
			b.val[j] = m->val[i];
		}
	free(m->key);
	free(m->val);
	*m = b;
	return 0;
}

int *pg_strmap_put(struct pg_strmap *m, const char *key)
{
	int *v = pg_strmap_get(m, key);
	if (v)
		return v;
	if ((m->n + 1) * 2 > m->cap && grow(m) < 0)
		return NULL;
	size_t i = slot(m, key);
	if (!(m->key[i] = strdup(key)))
		return NULL;
	m->val[i] = 0;
	m->n++;
	return &m->val[i];
}

void pg_strmap_free(struct pg_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->key[i]);
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}
