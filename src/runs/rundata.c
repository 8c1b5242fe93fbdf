/* SPDX-License-Identifier: MIT */
/*
 * Reading results files. Every line is checked before anything of the file
 * is used, so that a corrupt or truncated file is refused whole, with the
 * line that is wrong.
 */
#include "rundata.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/params.h"
#include "core/record_json.h"
#include "core/registry.h"
#include "core/text.h"
#include "core/err.h"

void pg_rrun_free(struct pg_rrun *r)
{
	for (int i = 0; i < r->nres; i++)
		pg_record_free(&r->res[i]);
	free(r->res);
	free(r->id);
	free(r->board);
	free(r->started);
	free(r->finished);
	free(r->end_status);
	free(r->version);
	free(r->machine);
	free(r->build);
	free(r->config);
	free(r->sections);
	free(r->labels);
	free(r->source);
	memset(r, 0, sizeof(*r));
}

static int same_text(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

static int same_result(const struct pg_record *a, const struct pg_record *b)
{
	if (!same_text(a->bench, b->bench) || !same_text(a->params, b->params) || !same_text(a->metric, b->metric) ||
	    a->status != b->status)
		return 0;
	return a->status != PG_OK || (a->median == b->median && a->min == b->min && a->max == b->max);
}

int pg_rrun_same(const struct pg_rrun *held, const struct pg_rrun *r, char *what, size_t len)
{
	if (!same_text(held->board, r->board)) {
		snprintf(what, len, "its board is '%s' there", held->board ? held->board : "");
		return 0;
	}
	if (!same_text(held->started, r->started)) {
		snprintf(what, len, "it started at '%s' there", held->started ? held->started : "");
		return 0;
	}
	if (held->finished && r->finished && held->nres != r->nres) {
		snprintf(what, len, "it has %d results there, %d here", held->nres, r->nres);
		return 0;
	}
	for (int i = 0; i < held->nres && i < r->nres; i++)
		if (!same_result(&held->res[i], &r->res[i])) {
			snprintf(what, len, "its result %d (%s %s) differs", i + 1, r->res[i].bench, r->res[i].metric);
			return 0;
		}
	return 1;
}

static const char *str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static int valid_labels(json_t *labels)
{
	const char *k;
	json_t *v;
	if (!json_is_object(labels))
		return 0;
	json_object_foreach(labels, k, v)
		if (!json_is_string(v) || strlen(k) > 64 || json_string_length(v) > 128 || pg_text_has_control(k) ||
		    pg_text_has_control(json_string_value(v)))
			return 0;
	return 1;
}

static int name_check(const char *what, const char *v, size_t max, char *err, size_t errlen)
{
	if (!v || !v[0])
		return pg_err(err, errlen, "run record without \"%s\"", what);
	if (strlen(v) > max)
		return pg_err(err, errlen, "the run's %s is longer than %zu bytes (the limit)", what, max);
	if (pg_text_has_control(v))
		return pg_err(err, errlen, "the run's %s holds a control character", what);
	return 0;
}

int pg_rrun_check_names(const char *id, const char *board, char *err, size_t errlen)
{
	if (name_check("id", id, PG_RUN_ID_MAX, err, errlen) < 0 || name_check("board", board, PG_BOARD_MAX, err, errlen) < 0)
		return -1;
	return 0;
}

static int add_run(struct pg_rrun *r, json_t *o, char *err, size_t errlen)
{
	const char *schema = str(o, "schema"), *id = str(o, "id"), *board = str(o, "board");
	if (!schema || strncmp(schema, "perfguide/", 10) != 0)
		return pg_err(err, errlen, "not a perfguide results file (no \"schema\":\"perfguide/...\")");
	if (strcmp(schema, "perfguide/1") != 0)
		return pg_err(err, errlen, "results schema %s is newer than this perfguide reads (perfguide/1)", schema);
	if (pg_rrun_check_names(id, board, err, errlen) < 0)
		return -1;
	json_t *labels = json_object_get(o, "labels");
	if (labels && !valid_labels(labels))
		return pg_err(err, errlen, "\"labels\" is not an object of short strings (keys to 64 bytes, values to 128, "
			      "no control characters)");
	r->id = strdup(id);
	r->board = strdup(board);
	r->started = pg_strdup0(str(o, "started"));
	json_t *build = json_object_get(o, "build");
	r->version = pg_strdup0(str(build, "version"));
	r->machine = pg_json_text(json_object_get(o, "machine"));
	r->build = pg_json_text(build);
	r->config = pg_json_text(json_object_get(o, "config"));
	json_t *secs = json_object_get(o, "sections");
	r->sections = json_is_array(secs) ? pg_json_text(secs) : NULL;
	r->labels = labels && json_object_size(labels) ? pg_json_text(labels) : NULL;
	if (!r->machine)
		r->machine = strdup("{}");
	return 0;
}

static int add_result(struct pg_rrun *r, json_t *o, char *err, size_t errlen)
{
	struct pg_record x;
	if (pg_record_from_json(o, &x, err, errlen) < 0)
		return -1;
	if (r->nres == r->res_cap) {
		int cap = r->res_cap ? r->res_cap * 2 : 16;
		struct pg_record *n = realloc(r->res, sizeof(*n) * (size_t)cap);
		if (!n) {
			pg_record_free(&x);
			return pg_err(err, errlen, "out of memory");
		}
		r->res = n;
		r->res_cap = cap;
	}
	r->res[r->nres++] = x;
	return 0;
}

int pg_rrun_add_line(struct pg_rrun *r, const char *line, char *err, size_t errlen)
{
	json_error_t je;
	json_t *o = json_loads(line, JSON_REJECT_DUPLICATES, &je);
	if (!o)
		return pg_err(err, errlen, "not JSON: %s", je.text);
	int rc = -1;
	const char *type = str(o, "type");
	if (!json_is_object(o) || !type) {
		pg_err(err, errlen, "not a perfguide record (no \"type\")");
	} else if (strcmp(type, "run") == 0) {
		if (r->id)
			rc = 1;		/* the next run appended to the same file */
		else
			rc = add_run(r, o, err, errlen);
	} else if (r->finished) {
		pg_err(err, errlen, "record after the \"end\" record");
	} else if (!r->id) {
		pg_err(err, errlen, "not a perfguide results file (the first record is not a \"run\" record)");
	} else if (strcmp(type, "result") == 0) {
		rc = add_result(r, o, err, errlen);
	} else if (strcmp(type, "end") == 0) {
		const char *fin = str(o, "finished"), *st = str(o, "status");
		r->finished = strdup(fin ? fin : "");
		r->end_status = strdup(st ? st : "complete");
		rc = 0;
	} else {
		pg_err(err, errlen, "unknown record type '%s'", type);
	}
	json_decref(o);
	return rc;
}

ssize_t pg_read_line(FILE *f, char **buf, size_t *cap, size_t max)
{
	size_t n = 0;
	int c;
	while ((c = getc(f)) != EOF) {
		if (n + 2 > *cap) {
			size_t want = *cap ? *cap * 2 : 4096;
			if (want > max + 2)
				want = max + 2;
			char *p = n + 2 <= want ? realloc(*buf, want) : NULL;
			if (!p)
				return -1;
			*buf = p;
			*cap = want;
		}
		(*buf)[n++] = (char)c;
		if (c == '\n')
			break;
		if (n >= max)
			return -1;
	}
	if (*buf)
		(*buf)[n] = '\0';
	return (ssize_t)n;
}

/* A new run in the list (its room grown by doubling: *nruns a power of
 * two is a full list), its source set. */
static struct pg_rrun *new_run(struct pg_rrun **runs, int *nruns, const char *name)
{
	if (*nruns == 0 || (*nruns & (*nruns - 1)) == 0) {
		struct pg_rrun *p = realloc(*runs, sizeof(*p) * (size_t)(*nruns ? *nruns * 2 : 1));
		if (!p)
			return NULL;
		*runs = p;
	}
	struct pg_rrun *cur = &(*runs)[(*nruns)++];
	memset(cur, 0, sizeof(*cur));
	cur->source = strdup(name);
	return cur;
}

/* One line into the runs; -1 with msg set. */
static int read_record(struct pg_rrun **runs, int *nruns, struct pg_rrun **cur, const char *name, const char *line,
		       size_t n, char *msg, size_t len)
{
	if (line[n - 1] != '\n') {
		snprintf(msg, len, "truncated (the line does not end)");
		return -1;
	}
	if (memchr(line, '\0', n)) {
		snprintf(msg, len, "a NUL byte: not a results file");
		return -1;
	}
	int r = *cur ? pg_rrun_add_line(*cur, line, msg, len) : 1;
	if (r == 1) {
		/* A run record: a new run begins (a file written with the same
		 * --out twice holds several). */
		if (!(*cur = new_run(runs, nruns, name))) {
			snprintf(msg, len, "out of memory");
			return -1;
		}
		r = pg_rrun_add_line(*cur, line, msg, len);
	}
	return r < 0 ? -1 : 0;
}

static int by_id(const void *a, const void *b)
{
	const struct pg_rrun *x = *(const struct pg_rrun *const *)a, *y = *(const struct pg_rrun *const *)b;
	int c = strcmp(x->id ? x->id : "", y->id ? y->id : "");
	return c ? c : (x < y ? -1 : x > y);
}

/* A file's runs are one run per id, as a store holds them: two runs of one
 * id with other content were read by report and compare (one of them
 * dropped unsaid) where import refused the file. 0, or -1 with err set. */
static int one_run_per_id(const char *name, struct pg_rrun *runs, int n, char *err, size_t errlen)
{
	const struct pg_rrun **by = malloc(sizeof(*by) * (size_t)(n + 1));
	int rc = 0;
	if (!by)
		return pg_err(err, errlen, "%s: out of memory", name);
	for (int i = 0; i < n; i++)
		by[i] = &runs[i];
	qsort(by, (size_t)n, sizeof(*by), by_id);
	for (int i = 1; rc == 0 && i < n; i++) {
		char what[300];
		if (strcmp(by[i]->id ? by[i]->id : "", by[i - 1]->id ? by[i - 1]->id : "") == 0 &&
		    !pg_rrun_same(by[i - 1], by[i], what, sizeof(what)))
			rc = pg_err(err, errlen, "%s: two runs of id %s with other content (%s): not one run", name,
				    by[i]->id ? by[i]->id : "", what);
	}
	free(by);
	return rc;
}

int pg_rrun_read_stream(FILE *f, const char *name, struct pg_rrun **runs, int *nruns, char *err, size_t errlen)
{
	*runs = NULL;
	*nruns = 0;
	char *line = NULL, msg[256];
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, rc = 0;
	struct pg_rrun *cur = NULL;
	while ((n = pg_read_line(f, &line, &cap, PG_LINE_MAX)) != 0) {
		lineno++;
		if (n < 0) {
			pg_err(err, errlen, "%s: line %d: longer than %d bytes (the limit of a results file line)",
			       name, lineno, PG_LINE_MAX);
			rc = -1;
			break;
		}
		if (lineno > PG_RECORDS_MAX) {
			pg_err(err, errlen, "%s: more than %d records (the limit of a results file)", name,
			       PG_RECORDS_MAX);
			rc = -1;
			break;
		}
		if (read_record(runs, nruns, &cur, name, line, (size_t)n, msg, sizeof(msg)) < 0) {
			pg_err(err, errlen, "%s: line %d: %s", name, lineno, msg);
			rc = -1;
			break;
		}
	}
	if (rc == 0 && ferror(f)) {
		pg_err(err, errlen, "%s: %s", name, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && *nruns == 0) {
		pg_err(err, errlen, "%s: empty: not a perfguide results file", name);
		rc = -1;
	}
	if (rc == 0)
		rc = one_run_per_id(name, *runs, *nruns, err, errlen);
	free(line);
	if (rc < 0) {
		for (int i = 0; i < *nruns; i++)
			pg_rrun_free(&(*runs)[i]);
		free(*runs);
		*runs = NULL;
		*nruns = 0;
	}
	return rc;
}

int pg_rrun_read_all(const char *path, struct pg_rrun **runs, int *nruns, char *err, size_t errlen)
{
	*runs = NULL;
	*nruns = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return pg_err(err, errlen, "%s: %s", path, strerror(errno));
	int rc = pg_rrun_read_stream(f, path, runs, nruns, err, errlen);
	fclose(f);
	return rc;
}

int pg_rrun_read_file(const char *path, struct pg_rrun *r, char *err, size_t errlen)
{
	struct pg_rrun *runs;
	int n;
	memset(r, 0, sizeof(*r));
	if (pg_rrun_read_all(path, &runs, &n, err, errlen) < 0)
		return -1;
	if (n > 1) {
		pg_err(err, errlen, "%s holds %d runs: import it and name the run by its id", path, n);
		for (int i = 0; i < n; i++)
			pg_rrun_free(&runs[i]);
		free(runs);
		return -1;
	}
	*r = runs[0];
	free(runs);
	return 0;
}

static int param_is_size(const char *bench, const char *name)
{
	const struct pg_bench *b = pg_registry_find(bench);
	if (!b)
		return strcmp(name, "size") == 0;
	const struct pg_param *p = pg_param_find(b, name);
	return p && p->type == PG_P_SIZE;
}

void pg_params_display(const char *bench, const char *params, char *buf, size_t len)
{
	buf[0] = '\0';
	json_t *o = json_loads(params, 0, NULL);
	const char *k;
	json_t *v;
	size_t at = 0;
	json_object_foreach(o, k, v) {
		char val[64];
		if (json_is_integer(v) && param_is_size(bench, k))
			pg_format_size(json_integer_value(v), val, sizeof(val));
		else if (json_is_integer(v))
			snprintf(val, sizeof(val), "%lld", (long long)json_integer_value(v));
		else if (json_is_string(v))
			pg_text_copy(val, sizeof(val), json_string_value(v));
		else
			snprintf(val, sizeof(val), "%g", json_number_value(v));
		int w = snprintf(buf + at, len - at, "%s%s=%s", at ? " " : "", k, val);
		if (w < 0 || (size_t)w >= len - at) {
			pg_utf8_trim(buf);
			break;
		}
		at += (size_t)w;
	}
	json_decref(o);
}

static json_t *labels_json(const char *labels)
{
	json_t *o = labels && labels[0] ? json_loads(labels, 0, NULL) : NULL;
	if (!json_is_object(o)) {
		json_decref(o);
		o = json_object();
	}
	return o;
}

int pg_labels_equal(const char *a, const char *b)
{
	json_t *x = labels_json(a), *y = labels_json(b);
	int eq = json_equal(x, y);
	json_decref(x);
	json_decref(y);
	return eq;
}

int pg_labels_have(const char *labels, const char *key, const char *value)
{
	json_t *o = labels_json(labels);
	const char *v = json_string_value(json_object_get(o, key));
	int have = v && strcmp(v, value) == 0;
	json_decref(o);
	return have;
}

int pg_labels_get(const char *labels, const char *key, char *buf, size_t len)
{
	json_t *o = labels_json(labels);
	const char *v = json_string_value(json_object_get(o, key));
	if (v)
		pg_text_copy(buf, len, v);
	json_decref(o);
	return v != NULL;
}
