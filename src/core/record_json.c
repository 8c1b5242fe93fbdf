/* SPDX-License-Identifier: MIT */
/*
 * The result record to and from JSON, field by field from pg_record_fields.
 * A record read is checked whole: its key, its status, and for an ok result
 * finite median, min, max and samples; for a skipped or failed one a reason.
 */
#include "record_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "err.h"

#define AT(x, f, T) ((T *)((char *)(x) + (f)->off))
#define CAT(x, f, T) ((const T *)((const char *)(x) + (f)->off))

char *pg_json_text(json_t *v)
{
	return v ? json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17) | JSON_ENCODE_ANY) : NULL;
}

int pg_json_dumpf_safe(json_t *v, FILE *f, size_t flags)
{
	char *t = json_dumps(v, flags | JSON_ENCODE_ANY);
	int rc = t ? pg_json_write_safe(f, t) : -1;
	free(t);
	return rc;
}

json_t *pg_json_reals(const double *v, int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_real(v[i]));
	return a;
}

/* NULL with err set when an element is not a finite number. */
double *pg_json_to_reals(json_t *a, int *n, const char *what, char *err, size_t len)
{
	*n = (int)json_array_size(a);
	double *v = malloc(sizeof(double) * (size_t)(*n ? *n : 1));
	if (!v) {
		pg_err(err, len, "out of memory");
		return NULL;
	}
	for (int i = 0; i < *n; i++) {
		json_t *s = json_array_get(a, (size_t)i);
		/* + 0.0: a -0 reads as 0, as the store gives it back */
		v[i] = json_number_value(s) + 0.0;
		if (!json_is_number(s) || !isfinite(v[i])) {
			pg_err(err, len, "%s[%d] is not a number", what, i);
			free(v);
			return NULL;
		}
	}
	return v;
}

static int written(const struct pg_field *f, const struct pg_record *x)
{
	return !(f->flags & PG_F_STORED) && pg_field_there(f, x);
}

json_t *pg_record_to_json(const struct pg_record *x)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("result"));
	for (const struct pg_field *f = pg_record_fields; f->name; f++) {
		if (!written(f, x))
			continue;
		json_t *v = NULL;
		switch (f->type) {
		case PG_F_TEXT: {
			const char *s = *CAT(x, f, char *);
			v = s && s[0] ? json_string(s) : NULL;
			break;
		}
		case PG_F_JSON: {
			const char *s = *CAT(x, f, char *);
			v = s ? json_loads(s, JSON_DECODE_ANY, NULL) : NULL;
			break;
		}
		case PG_F_REAL: v = json_real(*CAT(x, f, double)); break;
		case PG_F_INT: v = json_integer((json_int_t)*CAT(x, f, int64_t)); break;
		case PG_F_INT32: v = json_integer(*CAT(x, f, int)); break;
		case PG_F_BOOL: v = json_boolean(*CAT(x, f, int)); break;
		case PG_F_REALS:
			v = pg_json_reals(*CAT(x, f, double *), *(const int *)((const char *)x + f->count_off));
			break;
		case PG_F_STATUS: v = json_string(pg_status_name(*CAT(x, f, enum pg_status))); break;
		case PG_F_BETTER: v = json_string(pg_better_name(*CAT(x, f, int))); break;
		}
		if (v)
			json_object_set_new(o, f->name, v);
	}
	return o;
}

/* One field into x; -1 with err set when it is there but of the wrong kind. */
static int read_field(const struct pg_field *f, json_t *v, struct pg_record *x, char *err, size_t len)
{
	switch (f->type) {
	case PG_F_TEXT:
		if (!json_is_string(v))
			break;
		*AT(x, f, char *) = strdup(json_string_value(v));
		return 0;
	case PG_F_JSON:
		*AT(x, f, char *) = pg_json_text(v);
		return 0;
	case PG_F_REAL:
		if (!json_is_number(v) || !isfinite(json_number_value(v)))
			break;
		*AT(x, f, double) = json_number_value(v) + 0.0;
		return 0;
	case PG_F_INT:
	case PG_F_INT32:
		if (!json_is_integer(v))
			break;
		if (f->type == PG_F_INT)
			*AT(x, f, int64_t) = json_integer_value(v);
		else
			*AT(x, f, int) = (int)json_integer_value(v);
		return 0;
	case PG_F_BOOL:
		*AT(x, f, int) = json_is_true(v);
		return 0;
	case PG_F_REALS: {
		if (!json_is_array(v))
			break;
		int *n = (int *)((char *)x + f->count_off);
		double *d = pg_json_to_reals(v, n, f->name, err, len);
		if (!d)
			return -1;
		*AT(x, f, double *) = d;
		return 0;
	}
	case PG_F_STATUS:
		if (pg_status_parse(json_string_value(v), AT(x, f, enum pg_status)) < 0) {
			return pg_err(err, len, "result status '%s' is not ok, skipped or error",
				      json_is_string(v) ? json_string_value(v) : "?");
		}
		return 0;
	case PG_F_BETTER:
		*AT(x, f, int) = pg_better_parse(json_string_value(v));
		return 0;
	}
	return pg_err(err, len, "\"%s\" is not %s", f->name,
		      f->type == PG_F_TEXT    ? "a string"
		      : f->type == PG_F_REALS ? "an array"
					      : "a number");
}

int pg_record_processes(const struct pg_record *x, double *median, int *n, int max)
{
	json_t *a = x->processes ? json_loads(x->processes, JSON_DECODE_ANY, NULL) : NULL;
	int k = 0;
	if (json_is_array(a) && json_array_size(a) <= (size_t)max) {
		for (size_t i = 0; i < json_array_size(a); i++) {
			json_t *p = json_array_get(a, i), *m = json_object_get(p, "median"), *c = json_object_get(p, "n");
			if (!json_is_number(m) || !isfinite(json_number_value(m)) || !json_is_integer(c) ||
			    json_integer_value(c) < 1 || json_integer_value(c) > 1000000000) {
				k = -1;
				break;
			}
			median[k] = json_number_value(m);
			n[k++] = (int)json_integer_value(c);
		}
	} else if (a) {
		k = -1;
	}
	json_decref(a);
	return k;
}

/* What an ok record must have beyond its key, and a reason for the others. */
static int check(const struct pg_record *x, json_t *o, char *err, size_t len)
{
	if (x->status == PG_OK) {
		if (!json_object_get(o, "median") || !json_object_get(o, "min") || !json_object_get(o, "max")) {
			return pg_err(err, len, "result %s %s without a numeric median, min and max", x->bench,
				      x->metric);
		}
		if (x->nsamples == 0) {
			return pg_err(err, len, "result %s %s without samples", x->bench, x->metric);
		}
		double med[PG_RECORD_MAX_PROCS];
		int n[PG_RECORD_MAX_PROCS];
		if (pg_record_processes(x, med, n, PG_RECORD_MAX_PROCS) < 0) {
			return pg_err(err, len,
				      "result %s %s: \"processes\" is not an array of at most %d "
				      "{\"median\": number, \"n\": whole number}",
				      x->bench, x->metric, PG_RECORD_MAX_PROCS);
		}
	} else if (!x->reason) {
		return pg_err(err, len, "%s result %s without a \"reason\"", pg_status_name(x->status), x->bench);
	}
	return 0;
}

/* have_busy and busy_pct from the cpu object: the load the guide prints. */
static void pg_record_derive(struct pg_record *x)
{
	json_t *cpu = x->cpu ? json_loads(x->cpu, 0, NULL) : NULL;
	json_t *b = json_object_get(cpu, "busy_pct");
	x->have_busy = json_is_number(b) && isfinite(json_number_value(b));
	x->busy_pct = x->have_busy ? json_number_value(b) : 0;
	json_decref(cpu);
}

int pg_record_from_json(json_t *o, struct pg_record *x, char *err, size_t len)
{
	char msg[200];
	memset(x, 0, sizeof(*x));
	x->higher = 1;
	/* A key that is null is as absent as one not there: every reader of
	 * a record (the guide's hash, compare's key) takes the key as text. */
	for (const struct pg_field *f = pg_record_fields; f->name; f++) {
		json_t *v = json_object_get(o, f->name);
		if ((f->flags & PG_F_KEY) && (!v || json_is_null(v))) {
			return pg_err(err, len,
				      "result record without \"bench\", \"params\", \"metric\" or \"status\"%s",
				      v ? " (one is null)" : "");
		}
	}
	if (!json_is_object(json_object_get(o, "params"))) {
		return pg_err(err, len, "result record whose \"params\" is not an object");
	}
	/* The key and the status first: what else a record needs depends on them. */
	for (int pass = 0; pass < 2; pass++)
		for (const struct pg_field *f = pg_record_fields; f->name; f++) {
			json_t *v = json_object_get(o, f->name);
			if (!v || json_is_null(v) || (f->flags & PG_F_STORED) || (!(f->flags & PG_F_KEY)) != pass)
				continue;
			/* Numbers of a skipped or failed result mean nothing: not read. */
			if ((f->flags & PG_F_OK) && x->status != PG_OK)
				continue;
			if (read_field(f, v, x, msg, sizeof(msg)) < 0) {
				pg_err(err, len, "result %s %s: %s", x->bench ? x->bench : "?",
				       x->metric ? x->metric : "?", msg);
				pg_record_free(x);
				return -1;
			}
		}
	if (check(x, o, err, len) < 0) {
		pg_record_free(x);
		return -1;
	}
	if (!x->unit)
		x->unit = strdup("");
	if (x->status == PG_OK && !json_object_get(o, "mean"))
		x->mean = x->median;
	pg_record_derive(x);
	return 0;
}


json_t *pg_section_to_json(const struct pg_section *s)
{
	json_t *o = json_object();
	for (const struct pg_field *f = pg_section_fields; f->name; f++) {
		const char *t = f->type == PG_F_TEXT ? *CAT(s, f, char *) : NULL;
		if (t && t[0])
			json_object_set_new(o, f->name, json_string(t));
		else if (f->type == PG_F_INT32)
			json_object_set_new(o, f->name, json_integer(*CAT(s, f, int)));
		else if (f->type == PG_F_BOOL)
			json_object_set_new(o, f->name, json_boolean(*CAT(s, f, int)));
	}
	return o;
}

int pg_section_from_json(json_t *o, struct pg_section *s)
{
	memset(s, 0, sizeof(*s));
	if (!json_is_string(json_object_get(o, "title")))
		return -1;
	for (const struct pg_field *f = pg_section_fields; f->name; f++) {
		json_t *v = json_object_get(o, f->name);
		if (f->type == PG_F_TEXT && json_is_string(v))
			*AT(s, f, char *) = strdup(json_string_value(v));
		else if (f->type == PG_F_INT32 && json_is_integer(v))
			*AT(s, f, int) = (int)json_integer_value(v);
		else if (f->type == PG_F_BOOL)
			*AT(s, f, int) = json_is_true(v);
	}
	return 0;
}
