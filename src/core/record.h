/* SPDX-License-Identifier: MIT */
/*
 * The result record: one metric of one benchmark run with one set of
 * parameters, as the results file, the store and the report all hold it.
 * Its fields are one table (pg_record_fields): the JSON writer and reader
 * (record_json.c) and the store's columns are made from it, so a new field is
 * one member here and one line in the table, with the store schema version
 * that adds its column.
 */
#ifndef PG_RECORD_H
#define PG_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"

/* The one place that spells statuses and directions. */
const char *pg_status_name(enum pg_status s);
/* Returns 0 and sets *s, or -1 for a word that is no status. */
int pg_status_parse(const char *name, enum pg_status *s);
const char *pg_better_name(int higher_is_better);
/* 1 unless name is "lower" (a record without "better" reads as higher). */
int pg_better_parse(const char *name);

struct pg_record {
	char *bench;		/* the key: bench, params, metric */
	char *params;		/* canonical JSON: compact, keys sorted */
	char *metric;
	char *unit;
	int higher;		/* 1: higher is better */
	/* The run's latency histogram (core/hist.h: unit, count, min, max,
	 * sum, buckets), on the first latency metric's record; NULL: none. */
	char *hist;
	double *samples;
	int nsamples;
	double median, min, max, mean, stddev, cv;
	int noisy;
	/* The median's 95% interval: its ends, its coverage (0: too few
	 * samples for one) and its half-width over the median; why sampling
	 * stopped (runner.h, pg_stop_name) and the time the result had (0: no
	 * cap); a bimodal result's two groups' medians and the low group's size. */
	double ci_lo, ci_hi, ci_level, ci_rel;
	char *stop;
	double cap_s;
	double *bimodal;
	int nbimodal;
	int bimodal_low_n;
	int64_t iterations;	/* per sample, per copy */
	int copies;
	double *sample_s;	/* seconds of each sample */
	int nsample_s;
	char *cpu;		/* the cpu object as JSON text; NULL: not measured */
	char *label;		/* the seed guide's row name, where it has one */
	char *title;		/* the benchmark's title */
	char *note;
	char *section;		/* the guide's table; NULL: from the registry */
	enum pg_status status;
	char *reason;		/* skipped or error: why */
	/* What the machine did while this was measured (the env object as
	 * JSON text: other processes' CPU share, steal, frequencies seen,
	 * throttling; a field absent where not exposed; NULL: not observed),
	 * and whether that disturbed the figure, with why in words. */
	char *env;
	int disturbed;
	char *disturbed_why;
	/* Measured in several fresh processes (run --processes): each one's
	 * median of this metric and its sample count, as JSON text
	 * ([{"median":61.2,"n":2},...]; the samples are theirs one after the
	 * other); NULL: one process. Whether they disagree beyond their noise
	 * (core/procs.h, pg_procs_bimodal), with why in words. The name
	 * "bimodal" was taken by the samples' own two groups (schema 4). */
	char *processes;
	int processes_bimodal;
	char *bimodal_why;
	/* From cpu.busy_pct: the system-wide load the guide prints. */
	int have_busy;
	double busy_pct;
};

enum pg_ftype {
	PG_F_TEXT,		/* char *; NULL or "" is absent */
	PG_F_JSON,		/* char *, a JSON value kept as text (objects: cpu, a histogram) */
	PG_F_REAL,		/* double */
	PG_F_INT,		/* int64_t */
	PG_F_INT32,		/* int */
	PG_F_BOOL,		/* int */
	PG_F_REALS,		/* double * with an int count at count_off */
	PG_F_STATUS,		/* enum pg_status, by pg_status_name */
	PG_F_BETTER,		/* int higher, by pg_better_name */
};

/* Field flags. */
#define PG_F_KEY 0x1		/* required in every record */
#define PG_F_OK 0x2		/* written and required only when the status is ok */
#define PG_F_NOT_OK 0x4		/* required when skipped or failed */
#define PG_F_STORED 0x8		/* in the store only, derived from other fields */
#define PG_F_SAMPLES 0x10	/* the store keeps it in the samples table */
#define PG_F_HAVE 0x20		/* there when the int at count_off is set */
#define PG_F_NONZERO 0x40	/* written and stored only when not 0 (or empty) */
#define PG_F_ENV 0x80		/* written and stored when the record has an env (it was observed), or set */
#define PG_F_PROCS 0x100	/* written and stored when the record has processes, or set */

struct pg_field {
	const char *name;	/* JSON key and store column */
	enum pg_ftype type;
	size_t off;		/* of the value in struct pg_record */
	size_t count_off;	/* PG_F_REALS: of its int count; PG_F_HAVE: of its flag */
	unsigned flags;
	int since;		/* store schema version whose migration adds its column */
};

extern const struct pg_field pg_record_fields[];	/* ends with a NULL name */
/* The same for struct pg_section, as the run record lists the sections of
 * what ran (offsets into struct pg_section). */
extern const struct pg_field pg_section_fields[];

/* Whether field f of x (a struct pg_record) is 0, NULL or empty. */
int pg_field_is_zero(const struct pg_field *f, const void *x);
/* Whether field f of record x is written and stored, by its status and
 * flags (PG_F_OK, PG_F_NONZERO, PG_F_ENV, PG_F_HAVE; not PG_F_STORED). */
int pg_field_there(const struct pg_field *f, const struct pg_record *x);

void pg_record_free(struct pg_record *x);
/* A record read from a store: its key and unit as text ("" and "{}")
 * where the row had none (only a store written by something else has a
 * NULL there), as every reader of a record takes them. */
void pg_record_text_defaults(struct pg_record *x);
/* A section whose strings were malloc'd (read back from a results file). */
void pg_section_free(struct pg_section *s);

char *pg_strdup0(const char *s);	/* strdup that takes NULL */

#endif
