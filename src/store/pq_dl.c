/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "pq_dl.h"
#include "core/err.h"

/* The soname of libpq since PostgreSQL 8.0 (Debian's libpq5). */
#define LIBPQ_SONAME "libpq.so.5"

struct pg_pq pg_pq;

int pg_pq_load(char *err, size_t errlen)
{
	static void *lib;
	if (lib)
		return 0;
	void *h = dlopen(LIBPQ_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return pg_err(err, errlen, "the PostgreSQL store needs libpq: %s (install libpq5)", dlerror());
	/* dlsym's object pointer into a function pointer: POSIX requires
	 * that it work; memcpy keeps ISO C's pedantry out of it. */
#define PG_PQ_LOOKUP(f)                                                                                 \
	{                                                                                               \
		void *sym = dlsym(h, #f);                                                               \
		if (!sym) {                                                                             \
			pg_err(err, errlen, "%s has no %s: a newer libpq is needed", LIBPQ_SONAME, #f); \
			dlclose(h);                                                                     \
			return -1;                                                                      \
		}                                                                                       \
		memcpy(&pg_pq.f, &sym, sizeof(sym));                                                    \
	}
	PG_PQ_FUNCS(PG_PQ_LOOKUP)
#undef PG_PQ_LOOKUP
	lib = h;
	return 0;
}
