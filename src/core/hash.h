/* SPDX-License-Identifier: MIT */
/*
 * Hashing of text for the look-up tables that keep large inputs linear
 * (issue 40: a results file of many runs, rows or sections): FNV-1a in 64
 * bits on every target (a 32-bit size_t included), and a map of strings
 * to an int where a table of its own is not needed.
 */
#ifndef PG_HASH_H
#define PG_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a's offset basis: the hash of nothing, where a hash starts. */
#define PG_HASH_INIT UINT64_C(14695981039346656037)

/* Hash h continued over the bytes of s (NULL: none), case folded (ASCII
 * tolower) with PG_HASH_FOLD: a title and its other cases hash alike. */
#define PG_HASH_FOLD 0x1
uint64_t pg_hash_str(uint64_t h, const char *s, unsigned flags);
/* Hash h continued over one byte (a separator between the parts of a key). */
uint64_t pg_hash_byte(uint64_t h, unsigned char c);

/* Strings (copied), each with an int; open addressing, at most half full. */
struct pg_strmap {
	char **key;
	int *val;
	size_t cap, n;
};
/* The value of key; NULL when key is not in the map. */
int *pg_strmap_get(const struct pg_strmap *m, const char *key);
/* The value of key, added with 0 where it was not in the map; NULL when
 * out of memory. */
int *pg_strmap_put(struct pg_strmap *m, const char *key);
void pg_strmap_free(struct pg_strmap *m);

#endif
