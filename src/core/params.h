/* SPDX-License-Identifier: MIT */
/* Named, typed benchmark parameters: parsing, sweeps and -p overrides. */
#ifndef PG_PARAMS_H
#define PG_PARAMS_H

#include "bench.h"

enum pg_suite { PG_SUITE_NONE, PG_SUITE_QUICK, PG_SUITE_STANDARD, PG_SUITE_FULL };

/* A -p [SCOPE.]NAME=VALUE[,VALUE...] from the command line. */
struct pg_override {
	char name[96];		/* as given: "path", "storage.path" */
	char scope[64];		/* the selector before the last dot ("storage", "net.udp.*",
				 * an id): the benchmarks it is for; "": every one */
	char param[32];		/* the parameter's name: "path" */
	char values[256];
	/* Unscoped among several benchmarks: one whose parameter of that name
	 * cannot take the value by its declaration (another type, not one of
	 * its choices, outside its range or form) keeps its own values, and the
	 * refusal is noted here. 0: a refusal is an error (a scope, one
	 * benchmark, or a caller that sweeps one benchmark). */
	int soft;
	/* Given by an option that is a group's parameter (--peer is net.peer):
	 * none of that group selected is an error, as for an unscoped -p. */
	int required;
	int known;		/* some benchmark given to pg_sweep has the parameter, in scope */
	int used;		/* and took the value */
	int would;		/* one the suite leaves out would take it */
	int not_recorded;	/* and it is one the results leave out */
	char refused[240];	/* soft: the first refusal, "ID: NAME: why" */
	int typo;		/* a refusal of a value a letter or two from a choice */
};

/* What one benchmark did with each override (pg_sweep_opts.take). */
enum pg_take_how { PG_TAKE_NONE, PG_TAKE_YES, PG_TAKE_NOT };
struct pg_take {
	enum pg_take_how how;
	char why[200];		/* PG_TAKE_NOT: "path: '/mnt/emmc' is not one of sendmsg,splice" */
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

struct pg_sweep_opts {
	enum pg_suite suite;
	int64_t mem_avail;
	/* The user named this benchmark (by its id, or by a group whose every
	 * benchmark the suite leaves out): a suite that leaves it out
	 * (min_suite) still runs it, at the suite's lists; when memory leaves
	 * out every combination, its defaults are tried, and when they too do
	 * not fit, the first combination comes back alone with skip set. */
	int named;
	char skip[PG_MSG_LEN];	/* out: why the one combination is skipped */
	int at_defaults;	/* out: named, run at its defaults, the suite's lists too big */
	struct pg_take *take;	/* out, per override; NULL: not wanted */
};

/* pg_sweep with its options; 0 combinations when the suite leaves b out. */
int pg_sweep_with(const struct pg_bench *b, struct pg_sweep_opts *o, struct pg_override *ov, int nov,
		  struct pg_args **out, int *n, char *err, size_t errlen);

/* Whether override o is for benchmark b: unscoped, or its scope selects b. */
int pg_override_for(const struct pg_override *o, const struct pg_bench *b);

/* "size=8m threads=2" */
void pg_args_format(const struct pg_args *a, char *buf, size_t len);

#endif
