/* SPDX-License-Identifier: MIT */
/*
 * cpu.work.listmat: integer work on a linked list and a matrix, with a CRC
 * over the results. One iteration: link 512 nodes in their stored order,
 * reverse the list, sort it by key (merge sort on the links), look up 64
 * keys, CRC the data in sorted order; then multiply two 32 x 32 matrices of
 * 16-bit integers into 32-bit sums, add a constant, keep bits 2..13 of
 * each, and CRC that. Pointer chasing, data-dependent branches, multiplies.
 *
 * Checked: setup sorts the keys by insertion and multiplies the matrices in
 * another loop order, and keeps the CRC those give; every step's last
 * iteration must give the same CRC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "work.h"

#define NODES 512
#define LOOKUPS 64
#define MN 32

struct node {
	struct node *next;
	int16_t key;
	uint16_t data;
};

struct entry {
	int16_t key;
	uint16_t data;
	const struct node *at;
};

struct listmat {
	struct node pool[NODES];
	int16_t lookup[LOOKUPS];
	int16_t a[MN][MN], b[MN][MN];
	int32_t c[MN][MN];
	uint32_t want;
};

static struct node *merge(struct node *x, struct node *y)
{
	struct node head, *t = &head;
	while (x && y) {
		if (x->key <= y->key) {
			t->next = x;
			x = x->next;
		} else {
			t->next = y;
			y = y->next;
		}
		t = t->next;
	}
	t->next = x ? x : y;
	return head.next;
}

/* Bottom-up merge sort of a list: stable, no recursion. */
static struct node *sort_list(struct node *list)
{
	struct node *bins[32] = { 0 };
	while (list) {
		struct node *one = list;
		list = list->next;
		one->next = NULL;
		int i = 0;
		for (; i < 31 && bins[i]; i++) {
			one = merge(bins[i], one);
			bins[i] = NULL;
		}
		bins[i] = one;
	}
	struct node *out = NULL;
	for (int i = 0; i < 32; i++)
		if (bins[i])
			out = merge(bins[i], out);
	return out;
}

static uint32_t crc_matrix(uint32_t crc, int32_t c[MN][MN])
{
	for (int i = 0; i < MN; i++)
		for (int j = 0; j < MN; j++) {
			uint16_t v = (uint16_t)(((uint32_t)(c[i][j] + 0x1234) >> 2) & 0xfff);
			crc = pg_work_crc32(crc, &v, sizeof(v));
		}
	return crc;
}

static uint32_t listmat_run(void *p)
{
	struct listmat *s = p;
	for (int i = 0; i < NODES; i++)
		s->pool[i].next = i + 1 < NODES ? &s->pool[i + 1] : NULL;
	struct node *list = &s->pool[0], *rev = NULL;
	while (list) {
		struct node *n = list->next;
		list->next = rev;
		rev = list;
		list = n;
	}
	list = sort_list(rev);
	uint32_t found = 0;
	for (int k = 0; k < LOOKUPS; k++)
		for (struct node *n = list; n && n->key <= s->lookup[k]; n = n->next)
			if (n->key == s->lookup[k]) {
				found += n->data;
				break;
			}
	uint32_t crc = pg_work_crc32(0, &found, sizeof(found));
	for (struct node *n = list; n; n = n->next)
		crc = pg_work_crc32(crc, &n->data, sizeof(n->data));

	for (int i = 0; i < MN; i++)
		for (int j = 0; j < MN; j++) {
			int32_t sum = 0;
			for (int k = 0; k < MN; k++)
				sum += (int32_t)s->a[i][k] * s->b[k][j];
			s->c[i][j] = sum;
		}
	return crc_matrix(crc, s->c);
}

static int listmat_init(void *p, char *why, size_t len)
{
	struct listmat *s = p;
	uint32_t r = 0x9e3779b9u;
	for (int i = 0; i < NODES; i++) {
		s->pool[i].key = (int16_t)(pg_work_rand(&r) % 2000 - 1000);
		s->pool[i].data = (uint16_t)pg_work_rand(&r);
	}
	for (int k = 0; k < LOOKUPS; k++)	/* half present, half not (odd keys may miss) */
		s->lookup[k] = k % 2 ? (int16_t)(pg_work_rand(&r) % 2000 - 1000)
				     : s->pool[pg_work_rand(&r) % NODES].key;
	for (int i = 0; i < MN; i++)
		for (int j = 0; j < MN; j++) {
			s->a[i][j] = (int16_t)(pg_work_rand(&r) % 4001 - 2000);
			s->b[i][j] = (int16_t)(pg_work_rand(&r) % 4001 - 2000);
		}
	/* The answer by other means: an insertion sort of a table, and the
	 * product in another loop order. */
	struct entry *t = malloc(NODES * sizeof(*t));
	if (!t) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	for (int i = 0; i < NODES; i++) {
		t[i].key = s->pool[i].key;
		t[i].data = s->pool[i].data;
		t[i].at = &s->pool[i];
	}
	/* insertion sort by (key, later node first): stable merge sort of the reversed list */
	for (int i = 1; i < NODES; i++) {
		struct entry x = t[i];
		int j = i - 1;
		while (j >= 0 && (t[j].key > x.key || (t[j].key == x.key && t[j].at < x.at))) {
			t[j + 1] = t[j];
			j--;
		}
		t[j + 1] = x;
	}
	uint32_t found = 0;
	for (int k = 0; k < LOOKUPS; k++)
		for (int i = 0; i < NODES && t[i].key <= s->lookup[k]; i++)
			if (t[i].key == s->lookup[k]) {
				found += t[i].data;
				break;
			}
	uint32_t crc = pg_work_crc32(0, &found, sizeof(found));
	for (int i = 0; i < NODES; i++)
		crc = pg_work_crc32(crc, &t[i].data, sizeof(t[i].data));
	free(t);
	memset(s->c, 0, sizeof(s->c));
	for (int i = 0; i < MN; i++)
		for (int k = 0; k < MN; k++)
			for (int j = 0; j < MN; j++)
				s->c[i][j] += (int32_t)s->a[i][k] * s->b[k][j];
	s->want = crc_matrix(crc, s->c);
	return 0;
}

static int listmat_check(void *p, uint32_t sum, char *why, size_t len)
{
	return pg_work_crc_is(sum, ((struct listmat *)p)->want, why, len);
}

static const struct pg_work listmat = {
	.state_size = sizeof(struct listmat),
	.init = listmat_init, .run = listmat_run, .check = listmat_check,
};

const struct pg_bench pg_cpu_work_listmat =
	PG_WORK_BENCH("cpu.work.listmat", "List sort, search and integer matrix product, CRC-checked",
		      &listmat);
