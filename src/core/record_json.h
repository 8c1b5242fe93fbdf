/* SPDX-License-Identifier: MIT */
/* The result record in JSON (jansson): what the results file holds. */
#ifndef PG_RECORD_JSON_H
#define PG_RECORD_JSON_H

#include <jansson.h>

#include "record.h"

/* A "result" record with every field the table says x has. */
json_t *pg_record_to_json(const struct pg_record *x);
/* Fills x from a "result" record; -1 with err set (and x empty) when a
 * field is missing or of the wrong kind. */
int pg_record_from_json(json_t *o, struct pg_record *x, char *err, size_t len);

/* The most processes a record may list (run --processes takes at most 64). */
#define PG_RECORD_MAX_PROCS 64
/* The processes of a record (x->processes): each one's median and sample
 * count into median[] and n[]; returns how many (0: none), -1 when the
 * text is not an array of at most max {"median": finite, "n": >= 1}. */
int pg_record_processes(const struct pg_record *x, double *median, int *n, int max);

/* A section as the run record lists it, and back (strings malloc'd: free
 * with pg_section_free); -1 when o is not a section with a title. */
json_t *pg_section_to_json(const struct pg_section *s);
int pg_section_from_json(json_t *o, struct pg_section *s);

/* json_dumpf through pg_json_write_safe (core/text.h): what goes to standard
 * output or into a results file, with no '<' a LAVA log would match.
 * Returns 0, or -1 when it could not be written. */
int pg_json_dumpf_safe(json_t *v, FILE *f, size_t flags);

/* Canonical text of a JSON value (compact, keys sorted); the caller frees. */
char *pg_json_text(json_t *v);
json_t *pg_json_reals(const double *v, int n);
/* The numbers of an array, malloc'd; NULL with err set when one is not a
 * finite number. */
double *pg_json_to_reals(json_t *a, int *n, const char *what, char *err, size_t len);

#endif
