/* SPDX-License-Identifier: MIT */
/* Named, typed benchmark parameters: parsing, sweeps and -p overrides. */
#ifndef PG_PARAMS_H
#define PG_PARAMS_H

#include "bench.h"

enum pg_suite { PG_SUITE_NONE, PG_SUITE_QUICK, PG_SUITE_STANDARD, PG_SUITE_FULL };

/* A -p NAME=VALUE[,VALUE...] from the command line. */
struct pg_override {
	char name[32];
	char values[256];
	int used;		/* some selected benchmark has this parameter */
	int not_recorded;	/* and it is one the results leave out */
};

int pg_suite_parse(const char *s, enum pg_suite *out);
const char *pg_suite_name(enum pg_suite s);

/* "512", "4k", "16m", "1g": powers of 1024. Returns 0, or -1 with err set. */
int pg_parse_size(const char *s, int64_t *out, char *err, size_t errlen);

/* Size as the shortest exact text: 8388608 -> "8m", 1536 -> "1536". */
void pg_format_size(int64_t bytes, char *buf, size_t len);

/* Whether a number parameter holds one of its named choices ("auto"),
 * which is recorded by name: 0 would read as a size in the guide. */
int pg_value_is_named(const struct pg_value *v);
int pg_value_parse(const struct pg_param *p, const char *text,
		   struct pg_value *v, char *err, size_t errlen);

int pg_override_parse(const char *arg, struct pg_override *ov,
		      char *err, size_t errlen);

const struct pg_param *pg_param_find(const struct pg_bench *b, const char *name);

/*
 * Every combination of parameter values this benchmark runs with: the
 * suite's sweep of each parameter, or the default, replaced by an override
 * where one names it. *out is malloc'd; the caller frees it.
 * mem_avail: bytes free for memory parameters (0 when unknown). A suite's
 * value that does not fit is left out with a message on stderr; a value the
 * user gave that does not fit is an error.
 */
int pg_sweep(const struct pg_bench *b, enum pg_suite suite,
	     struct pg_override *ov, int nov, int64_t mem_avail,
	     struct pg_args **out, int *n, char *err, size_t errlen);

/* "size=8m threads=2" */
void pg_args_format(const struct pg_args *a, char *buf, size_t len);

#endif
