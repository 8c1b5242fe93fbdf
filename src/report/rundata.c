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
		if (!json_is_string(v))
			return 0;
	return 1;
}

static int add_run(struct pg_rrun *r, json_t *o, char *err, size_t len)
{
	const char *schema = str(o, "schema"), *id = str(o, "id"), *board = str(o, "board");
	if (!schema || strncmp(schema, "perfguide/", 10) != 0) {
		snprintf(err, len, "not a perfguide results file (no \"schema\":\"perfguide/...\")");
		return -1;
	}
	if (strcmp(schema, "perfguide/1") != 0) {
		snprintf(err, len, "results schema %s is newer than this perfguide reads (perfguide/1)", schema);
		return -1;
	}
	if (!id || !id[0] || !board || !board[0]) {
		snprintf(err, len, "run record without \"id\" or \"board\"");
		return -1;
	}
	json_t *labels = json_object_get(o, "labels");
	if (labels && !valid_labels(labels)) {
		snprintf(err, len, "\"labels\" is not an object of strings");
		return -1;
	}
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

static int add_result(struct pg_rrun *r, json_t *o, char *err, size_t len)
{
	struct pg_record x;
	if (pg_record_from_json(o, &x, err, len) < 0)
		return -1;
	struct pg_record *n = realloc(r->res, sizeof(*n) * (size_t)(r->nres + 1));
	if (!n) {
		pg_record_free(&x);
		snprintf(err, len, "out of memory");
		return -1;
	}
	r->res = n;
	r->res[r->nres++] = x;
	return 0;
}

int pg_rrun_add_line(struct pg_rrun *r, const char *line, char *err, size_t len)
{
	json_error_t je;
	json_t *o = json_loads(line, JSON_REJECT_DUPLICATES, &je);
	if (!o) {
		snprintf(err, len, "not JSON: %s", je.text);
		return -1;
	}
	int rc = -1;
	const char *type = str(o, "type");
	if (!json_is_object(o) || !type) {
		snprintf(err, len, "not a perfguide record (no \"type\")");
	} else if (strcmp(type, "run") == 0) {
		if (r->id)
			rc = 1;		/* the next run appended to the same file */
		else
			rc = add_run(r, o, err, len);
	} else if (r->finished) {
		snprintf(err, len, "record after the \"end\" record");
	} else if (!r->id) {
		snprintf(err, len, "not a perfguide results file (the first record is not a \"run\" record)");
	} else if (strcmp(type, "result") == 0) {
		rc = add_result(r, o, err, len);
	} else if (strcmp(type, "end") == 0) {
		const char *fin = str(o, "finished"), *st = str(o, "status");
		r->finished = strdup(fin ? fin : "");
		r->end_status = strdup(st ? st : "complete");
		rc = 0;
	} else {
		snprintf(err, len, "unknown record type '%s'", type);
	}
	json_decref(o);
	return rc;
}

int pg_rrun_read_all(const char *path, struct pg_rrun **runs, int *nruns, char *err, size_t len)
{
	*runs = NULL;
	*nruns = 0;
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	char *line = NULL, msg[256];
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, rc = 0;
	struct pg_rrun *cur = NULL;
	while ((n = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[n - 1] != '\n') {
			snprintf(err, len, "%s: line %d: truncated (the line does not end)", path, lineno);
			rc = -1;
			break;
		}
		int r = cur ? pg_rrun_add_line(cur, line, msg, sizeof(msg)) : 1;
		if (r == 1) {
			/* A run record: a new run begins (a file written with the
			 * same --out twice holds several). */
			struct pg_rrun *p = realloc(*runs, sizeof(*p) * (size_t)(*nruns + 1));
			if (!p) {
				snprintf(err, len, "%s: out of memory", path);
				rc = -1;
				break;
			}
			*runs = p;
			cur = &p[(*nruns)++];
			memset(cur, 0, sizeof(*cur));
			cur->source = strdup(path);
			r = pg_rrun_add_line(cur, line, msg, sizeof(msg));
		}
		if (r < 0) {
			snprintf(err, len, "%s: line %d: %s", path, lineno, msg);
			rc = -1;
			break;
		}
	}
	if (rc == 0 && ferror(f)) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && *nruns == 0) {
		snprintf(err, len, "%s: empty: not a perfguide results file", path);
		rc = -1;
	}
	free(line);
	fclose(f);
	if (rc < 0) {
		for (int i = 0; i < *nruns; i++)
			pg_rrun_free(&(*runs)[i]);
		free(*runs);
		*runs = NULL;
		*nruns = 0;
	}
	return rc;
}

int pg_rrun_read_file(const char *path, struct pg_rrun *r, char *err, size_t len)
{
	struct pg_rrun *runs;
	int n;
	memset(r, 0, sizeof(*r));
	if (pg_rrun_read_all(path, &runs, &n, err, len) < 0)
		return -1;
	if (n > 1) {
		snprintf(err, len, "%s holds %d runs: import it and name the run by its id", path, n);
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
			snprintf(val, sizeof(val), "%s", json_string_value(v));
		else
			snprintf(val, sizeof(val), "%g", json_number_value(v));
		int w = snprintf(buf + at, len - at, "%s%s=%s", at ? " " : "", k, val);
		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
	}
	json_decref(o);
}
