/* SPDX-License-Identifier: MIT */
#include "record.h"

#include <stdlib.h>
#include <string.h>

static const char *const status_names[] = { [PG_OK] = "ok", [PG_SKIP] = "skipped", [PG_ERROR] = "error" };

const char *pg_status_name(enum pg_status s)
{
	return (unsigned)s < sizeof(status_names) / sizeof(status_names[0]) ? status_names[s] : "error";
}

int pg_status_parse(const char *name, enum pg_status *s)
{
	for (size_t i = 0; name && i < sizeof(status_names) / sizeof(status_names[0]); i++)
		if (strcmp(name, status_names[i]) == 0) {
			*s = (enum pg_status)i;
			return 0;
		}
	return -1;
}

const char *pg_better_name(int higher_is_better)
{
	return higher_is_better ? "higher" : "lower";
}

int pg_better_parse(const char *name)
{
	return !name || strcmp(name, pg_better_name(0)) != 0;
}

#define F(name, type, member, flags, since) \
	{ name, type, offsetof(struct pg_record, member), 0, flags, since }
#define FN(name, member, count, flags, since) \
	{ name, PG_F_REALS, offsetof(struct pg_record, member), offsetof(struct pg_record, count), flags, since }

/* In the order the results file writes them. Schema 1 is the store's first
 * table (its CREATE lists these columns); later columns are added by the
 * migration to their version. */
const struct pg_field pg_record_fields[] = {
	F("bench", PG_F_TEXT, bench, PG_F_KEY, 1),
	F("params", PG_F_JSON, params, PG_F_KEY, 1),
	F("metric", PG_F_TEXT, metric, PG_F_KEY, 1),
	F("unit", PG_F_TEXT, unit, 0, 1),
	F("better", PG_F_BETTER, higher, 0, 1),
	F("hist", PG_F_JSON, hist, PG_F_OK, 3),
	FN("samples", samples, nsamples, PG_F_OK | PG_F_SAMPLES, 1),
	F("median", PG_F_REAL, median, PG_F_OK, 1),
	F("min", PG_F_REAL, min, PG_F_OK, 1),
	F("max", PG_F_REAL, max, PG_F_OK, 1),
	F("mean", PG_F_REAL, mean, PG_F_OK, 1),
	F("stddev", PG_F_REAL, stddev, PG_F_OK, 1),
	F("cv", PG_F_REAL, cv, PG_F_OK, 1),
	F("noisy", PG_F_BOOL, noisy, PG_F_OK, 1),
	F("ci_lo", PG_F_REAL, ci_lo, PG_F_OK, 4),
	F("ci_hi", PG_F_REAL, ci_hi, PG_F_OK, 4),
	F("ci_level", PG_F_REAL, ci_level, PG_F_OK, 4),
	F("ci_rel", PG_F_REAL, ci_rel, PG_F_OK, 4),
	F("stop", PG_F_TEXT, stop, PG_F_OK, 4),
	F("cap_s", PG_F_REAL, cap_s, PG_F_OK | PG_F_NONZERO, 4),
	FN("bimodal", bimodal, nbimodal, PG_F_OK | PG_F_NONZERO, 4),
	F("bimodal_low_n", PG_F_INT32, bimodal_low_n, PG_F_OK | PG_F_NONZERO, 4),
	F("iterations", PG_F_INT, iterations, PG_F_OK, 3),
	F("copies", PG_F_INT32, copies, PG_F_OK, 3),
	FN("sample_s", sample_s, nsample_s, PG_F_OK, 3),
	F("cpu", PG_F_JSON, cpu, 0, 1),
	F("env", PG_F_JSON, env, PG_F_OK, 5),
	/* true or false on every ok result whose conditions were observed */
	F("disturbed", PG_F_BOOL, disturbed, PG_F_OK | PG_F_ENV, 5),
	F("disturbed_why", PG_F_TEXT, disturbed_why, PG_F_OK | PG_F_NONZERO, 5),
	F("processes", PG_F_JSON, processes, PG_F_OK | PG_F_NONZERO, 6),
	/* true or false on every ok result measured in several processes */
	F("processes_bimodal", PG_F_BOOL, processes_bimodal, PG_F_OK | PG_F_PROCS, 6),
	F("bimodal_why", PG_F_TEXT, bimodal_why, PG_F_OK | PG_F_NONZERO, 6),
	{ "busy_pct", PG_F_REAL, offsetof(struct pg_record, busy_pct), offsetof(struct pg_record, have_busy),
	  PG_F_STORED | PG_F_HAVE, 1 },
	F("label", PG_F_TEXT, label, 0, 1),
	F("title", PG_F_TEXT, title, 0, 1),
	F("note", PG_F_TEXT, note, 0, 1),
	F("section", PG_F_TEXT, section, 0, 3),
	F("status", PG_F_STATUS, status, PG_F_KEY, 1),
	F("reason", PG_F_TEXT, reason, PG_F_NOT_OK, 1),
	{ 0 },
};

#define S(name, type, member) { name, type, offsetof(struct pg_section, member), 0, 0, 0 }
const struct pg_field pg_section_fields[] = {
	S("title", PG_F_TEXT, title),
	S("intro", PG_F_TEXT, intro),
	S("order", PG_F_INT32, order),
	S("cpu_load", PG_F_BOOL, cpu_load),
	S("rows_by", PG_F_TEXT, rows_by),
	S("rows_title", PG_F_TEXT, rows_title),
	S("plot_x", PG_F_TEXT, plot_x),
	S("plot_series", PG_F_TEXT, plot_series),
	S("metrics", PG_F_TEXT, metrics),
	S("rows_bench", PG_F_TEXT, rows_bench),
	S("metric_titles", PG_F_TEXT, metric_titles),
	S("rows_shown", PG_F_TEXT, rows_shown),
	S("rows_of", PG_F_TEXT, rows_of),
	S("tables", PG_F_TEXT, tables),
	S("place", PG_F_TEXT, place),
	{ 0 },
};

void pg_section_free(struct pg_section *s)
{
	for (const struct pg_field *f = pg_section_fields; f->name; f++)
		if (f->type == PG_F_TEXT)
			free(*(void **)((char *)s + f->off));
	memset(s, 0, sizeof(*s));
}

/* Whether the value of f in x is 0, NULL or empty (PG_F_NONZERO). */
int pg_field_is_zero(const struct pg_field *f, const void *x)
{
	const char *p = (const char *)x + f->off;
	switch (f->type) {
	case PG_F_REAL: return *(const double *)p == 0;
	case PG_F_INT: return *(const int64_t *)p == 0;
	case PG_F_INT32:
	case PG_F_BOOL: return *(const int *)p == 0;
	case PG_F_REALS: return *(const int *)((const char *)x + f->count_off) == 0;
	default: return *(char *const *)p == NULL;
	}
}

int pg_field_there(const struct pg_field *f, const struct pg_record *x)
{
	if ((f->flags & PG_F_OK) && x->status != PG_OK)
		return 0;
	if ((f->flags & PG_F_HAVE) && !*(const int *)((const char *)x + f->count_off))
		return 0;
	if ((f->flags & PG_F_NONZERO) && pg_field_is_zero(f, x))
		return 0;
	/* a mark that is set is kept without what it is usually read beside:
	 * a file may say bimodal (or disturbed) without its processes (or
	 * conditions), and the store must say what the file said */
	if ((f->flags & PG_F_ENV) && !x->env && pg_field_is_zero(f, x))
		return 0;
	if ((f->flags & PG_F_PROCS) && !x->processes && pg_field_is_zero(f, x))
		return 0;
	return 1;
}

char *pg_strdup0(const char *s)
{
	return s ? strdup(s) : NULL;
}

void pg_record_text_defaults(struct pg_record *x)
{
	char **text[] = { &x->bench, &x->params, &x->metric, &x->unit };
	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		if (!*text[i])
			*text[i] = strdup(text[i] == &x->params ? "{}" : "");
}

void pg_record_free(struct pg_record *x)
{
	for (const struct pg_field *f = pg_record_fields; f->name; f++) {
		char *p = (char *)x + f->off;
		if (f->type == PG_F_TEXT || f->type == PG_F_JSON)
			free(*(char **)p);
		else if (f->type == PG_F_REALS)
			free(*(double **)p);
	}
	memset(x, 0, sizeof(*x));
}
