/* SPDX-License-Identifier: MIT */
/*
 * A published guide's table as runs, so that its figures and perfguide's
 * share rows: the seed's CSV tables (a header row naming the boards, a row
 * per figure named by its leading columns). A row is mapped onto the
 * benchmark, parameters and metric whose label is its name: perfguide's
 * benchmarks label their results with the seed's row names, so every
 * parameter set the suites run is asked for its label, and "aes-128-cbc
 * 1024" is crypto.aes-128-cbc with size=1024 and the defaults, metric
 * throughput, exactly the key a run of it has. A map file adds names no
 * label gives; a row nothing maps keeps its own key in a section of its own.
 */
#include "table_import.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/hash.h"
#include "core/params.h"
#include "core/record_json.h"
#include "core/registry.h"
#include "core/results.h"
#include "core/text.h"
#include "core/err.h"

#define MAX_COLS 256

/* What a row's name maps onto: of the parameter sets whose label it is,
 * the one nearest the benchmark's defaults (dist: how many parameters
 * differ from them); ambiguous when two are as near (alt: another). */
struct key {
	char *name, *bench, *params, *metric, *unit, *title;
	int higher, ambiguous, dist, nalt;
	char alt[200];
	int used_line;		/* the table's line whose row took it; 0: none */
};

struct keys {
	struct key *k;
	int n, cap;
};

static void keys_free(struct keys *ks)
{
	for (int i = 0; i < ks->n; i++) {
		struct key *k = &ks->k[i];
		free(k->name), free(k->bench), free(k->params), free(k->metric), free(k->unit), free(k->title);
	}
	free(ks->k);
	memset(ks, 0, sizeof(*ks));
}

static struct key *key_find(const struct keys *ks, const char *name)
{
	for (int i = 0; i < ks->n; i++)
		if (strcmp(ks->k[i].name, name) == 0)
			return &ks->k[i];
	return NULL;
}

/* "cpu.linpack n=100 blas=rolled kflops": a key as the messages name it. */
static void key_text(const char *bench, const char *params, const char *metric, char *buf, size_t len)
{
	char shown[160];
	pg_params_display(bench, params, shown, sizeof(shown));
	if ((size_t)snprintf(buf, len, "%s%s%s %s", bench, shown[0] ? " " : "", shown, metric) >= len)
		pg_utf8_trim(buf);
}

static int key_set(struct key *k, const struct pg_bench *b, const char *params, const struct pg_metric *m, int dist)
{
	free(k->bench), free(k->params), free(k->metric), free(k->unit), free(k->title);
	k->bench = strdup(b->id);
	k->params = strdup(params);
	k->metric = strdup(m->name);
	k->unit = strdup(m->unit ? m->unit : "");
	k->title = pg_strdup0(b->title);
	k->higher = m->higher_is_better;
	k->ambiguous = k->nalt = 0;
	k->dist = dist;
	return k->bench && k->params && k->metric && k->unit ? 0 : -1;
}

/* name -> (bench, params, metric m of b), dist parameters away from b's
 * defaults. Of the keys a label names, the nearest the defaults wins (the
 * suites' default parameter set, as a row of the seed was measured); two
 * as near make the name ambiguous, and it maps nothing (a label that
 * names a column, as storage's, not a row). A map line (force) wins. */
static int key_add(struct keys *ks, const char *name, const struct pg_bench *b, const char *params,
		   const struct pg_metric *m, int dist, int force)
{
	struct key *k = key_find(ks, name);
	if (k && !force) {
		int same = strcmp(k->bench, b->id) == 0 && strcmp(k->params, params) == 0 &&
			   strcmp(k->metric, m->name) == 0;
		if (same || dist > k->dist)
			return 0;
		if (dist == k->dist) {
			if (!k->nalt++)
				key_text(b->id, params, m->name, k->alt, sizeof(k->alt));
			k->ambiguous = 1;
			return 0;
		}
	}
	if (!k) {
		if (ks->n == ks->cap) {
			ks->cap = ks->cap ? ks->cap * 2 : 256;
			struct key *n = realloc(ks->k, sizeof(*n) * (size_t)ks->cap);
			if (!n)
				return -1;
			ks->k = n;
		}
		k = &ks->k[ks->n++];
		memset(k, 0, sizeof(*k));
		if (!(k->name = strdup(name)))
			return -1;
	}
	return key_set(k, b, params, m, force ? -1 : dist);
}

/* How many parameters of params (JSON text) take none of their default
 * values (defaults: each parameter's array of them). */
static int distance(const char *params, json_t *defaults)
{
	json_t *p = json_loads(params, 0, NULL), *v;
	const char *name;
	int d = 0;
	json_object_foreach(p, name, v) {
		json_t *vals = json_object_get(defaults, name), *x;
		size_t i;
		int is_default = 0;
		json_array_foreach(vals, i, x)
			is_default |= json_equal(v, x);
		d += !is_default;
	}
	json_decref(p);
	return d;
}

/* The benchmark's default parameters, each with every value its default
 * sweeps ("workload": every workload), as {name: [values]}; NULL: none. */
static json_t *defaults_of(const struct pg_bench *b)
{
	struct pg_args *args;
	int n;
	char err[256];
	if (pg_sweep(b, PG_SUITE_NONE, NULL, 0, 0, &args, &n, err, sizeof(err)) < 0)
		return NULL;
	json_t *d = json_object(), *v;
	const char *name;
	for (int i = 0; i < n; i++) {
		char *t = pg_params_json_text(&args[i]);
		json_t *p = t ? json_loads(t, 0, NULL) : NULL;
		json_object_foreach(p, name, v) {
			json_t *vals = json_object_get(d, name);
			if (!vals)
				json_object_set_new(d, name, vals = json_array());
			json_array_append(vals, v);
		}
		json_decref(p);
		free(t);
	}
	free(args);
	return d;
}

/* Every label of benchmark b, over every parameter set a suite runs. */
static void labels_of(const struct pg_bench *b, void *arg)
{
	struct keys *ks = arg;
	static const enum pg_suite suites[] = { PG_SUITE_NONE, PG_SUITE_QUICK, PG_SUITE_STANDARD, PG_SUITE_FULL };
	char err[256], label[256];
	if (!b->label)
		return;
	json_t *defaults = defaults_of(b);
	for (size_t s = 0; s < sizeof(suites) / sizeof(suites[0]); s++) {
		struct pg_args *args;
		int n;
		if (pg_sweep(b, suites[s], NULL, 0, 0, &args, &n, err, sizeof(err)) < 0)
			continue;
		for (int i = 0; i < n; i++) {
			char *params = pg_params_json_text(&args[i]);
			for (const struct pg_metric *m = b->metrics; params && m && m->name; m++) {
				label[0] = '\0';
				b->label(b, &args[i], m->name, label, sizeof(label));
				if (label[0])
					key_add(ks, label, b, params, m, distance(params, defaults), 0);
			}
			free(params);
		}
		free(args);
	}
	json_decref(defaults);
}

/* A --map line: "ROW NAME,BENCH,NAME=VALUE NAME=VALUE,METRIC"; the
 * parameters not given take their defaults, as a run would. */
static int map_line(struct keys *ks, char **f, int nf, char *err, size_t errlen)
{
	const struct pg_bench *b = nf == 4 ? pg_registry_find(f[1]) : NULL;
	if (nf != 4)
		return pg_err(err, errlen, "a map line is ROW,BENCHMARK,PARAMS,METRIC");
	if (!b)
		return pg_err(err, errlen, "'%s': no such benchmark (see 'perfguide list')", f[1]);
	const struct pg_metric *m = b->metrics;
	while (m && m->name && strcmp(m->name, f[3]) != 0)
		m++;
	if (!m || !m->name)
		return pg_err(err, errlen, "%s has no metric '%s'", b->id, f[3]);
	struct pg_override ov[32];
	int nov = 0;
	for (char *save = NULL, *p = strtok_r(f[2], " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		if (nov == 32 || pg_override_parse(p, &ov[nov++], err, errlen) < 0)
			return -1;
	}
	struct pg_args *args;
	int n;
	if (pg_sweep(b, PG_SUITE_NONE, ov, nov, 0, &args, &n, err, errlen) < 0)
		return -1;
	char *params = n == 1 ? pg_params_json_text(&args[0]) : NULL;
	free(args);
	if (!params)
		return pg_err(err, errlen, "'%s' of %s is not one parameter set", f[2], b->id);
	int rc = key_add(ks, f[0], b, params, m, 0, 1);
	free(params);
	return rc;
}

/* The fields of one CSV line (RFC 4180: quoted fields, "" a quote), in
 * place; returns how many, -1 when a quote is left open, -2 when there
 * are more than max (never cut short without a word). */
static int csv_fields(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;
	line[strcspn(line, "\r\n")] = '\0';
	while (n < max) {
		char *out = p;
		f[n++] = p;
		if (*p == '"') {
			char *q = p + 1;
			for (;;) {
				if (!*q)
					return -1;
				if (*q == '"' && q[1] == '"') {
					*out++ = '"';
					q += 2;
				} else if (*q == '"') {
					q++;
					break;
				} else {
					*out++ = *q++;
				}
			}
			p = q;
		} else {
			while (*p && *p != ',')
				*out++ = *p++;
		}
		char sep = *p;
		*out = '\0';
		if (sep != ',')
			return sep ? -1 : n;
		p++;
	}
	return -2;
}

int pg_table_map_read(const char *path, struct pg_table_map *map, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *fields[8], why[256];
	size_t cap = 0;
	int no = 0, rc = 0;
	if (!f)
		return pg_err(err, errlen, "%s: %s", path, strerror(errno));
	struct keys *ks = map->priv;
	while (rc == 0 && pg_read_line(f, &line, &cap, PG_LINE_MAX) > 0) {
		no++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		int nf = csv_fields(line, fields, 8);
		if (nf < 0 || map_line(ks, fields, nf, why, sizeof(why)) < 0) {
			pg_err(err, errlen, "%s: line %d: %s", path, no, nf == -1 ? "a quote is not closed"
					      : nf == -2 ? "a map line is ROW,BENCHMARK,PARAMS,METRIC" : why);
			rc = -1;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

int pg_table_map_init(struct pg_table_map *map)
{
	struct keys *ks = calloc(1, sizeof(*ks));
	map->priv = ks;
	if (!ks)
		return -1;
	pg_registry_each(labels_of, ks);
	return 0;
}

void pg_table_map_free(struct pg_table_map *map)
{
	if (map->priv)
		keys_free(map->priv);
	free(map->priv);
	map->priv = NULL;
}

/* "M (min X, max Y)" or "V": the samples [X, M, Y] or [V]; 0 when the
 * cell holds no figure. */
static int figure(const char *text, double *med, double *lo, double *hi)
{
	int end = -1;
	if (sscanf(text, " %lf (min %lf, max %lf)%n", med, lo, hi, &end) == 3 && end > 0 &&
	    !text[end + strspn(text + end, " ")])
		return 3;
	char *stop;
	*med = *lo = *hi = strtod(text, &stop);
	while (stop != text && *stop == ' ')
		stop++;
	return stop != text && !*stop && isfinite(*med) ? 1 : 0;
}

/* "bw_file_rd-io-1mb (MB/s)": the name and its unit. */
static void split_unit(const char *row, char *name, size_t nlen, char *unit, size_t ulen)
{
	const char *open = strrchr(row, '(');
	size_t n = strlen(row);
	unit[0] = '\0';
	if (open && open > row && open[-1] == ' ' && n && row[n - 1] == ')') {
		snprintf(unit, ulen, "%.*s", (int)(row + n - 1 - open - 1), open + 1);
		n = (size_t)(open - 1 - row);
	}
	snprintf(name, nlen, "%.*s", (int)n, row);
	pg_utf8_trim(name);
	pg_utf8_trim(unit);
}

/* Units whose figures are better lower (the seed's latency rows). */
static int lower_unit(const char *u)
{
	static const char *const lower[] = { "us", "ns", "ms", "s", "microsec", "nanosec", "usec", "nsec", "sec" };
	for (size_t i = 0; i < sizeof(lower) / sizeof(lower[0]); i++)
		if (strcmp(u, lower[i]) == 0)
			return 1;
	return 0;
}

/* The result record of one cell. */
static json_t *cell_record(const struct key *k, const char *name, const char *unit, const char *section,
			   const char *stem, const char *text)
{
	double med, lo, hi;
	int ns = figure(text, &med, &lo, &hi);
	if (!ns)
		return NULL;
	json_t *samples = ns == 3 ? json_pack("[fff]", lo, med, hi) : json_pack("[f]", med);
	json_t *r = json_pack("{s:s,s:o,s:f,s:f,s:f,s:f,s:s,s:s}", "type", "result", "samples", samples,
			      "median", med, "min", lo, "max", hi, "mean", ns == 3 ? (lo + med + hi) / 3 : med,
			      "status", "ok", "label", name);
	if (k) {
		json_object_set_new(r, "bench", json_string(k->bench));
		json_object_set_new(r, "params", json_loads(k->params, 0, NULL));
		json_object_set_new(r, "metric", json_string(k->metric));
		json_object_set_new(r, "unit", json_string(k->unit));
		json_object_set_new(r, "better", json_string(pg_better_name(k->higher)));
		if (k->title)
			json_object_set_new(r, "title", json_string(k->title));
	} else {
		char bench[200];
		snprintf(bench, sizeof(bench), "table.%s", stem);
		json_object_set_new(r, "bench", json_string(bench));
		json_object_set_new(r, "params", json_pack("{s:s}", "row", name));
		json_object_set_new(r, "metric", json_string("value"));
		json_object_set_new(r, "unit", json_string(unit));
		json_object_set_new(r, "better", json_string(pg_better_name(!lower_unit(unit))));
		json_object_set_new(r, "section", json_string(section));
	}
	return r;
}

/* The table's file name without directory and extension: its runs' ids
 * and the bench id of rows nothing maps ("table.lmbench"). */
static void stem_of(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path, *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	snprintf(buf, len, "%.*s", (int)n, base);
	pg_utf8_trim(buf);
}

struct board_col {
	char name[PG_BOARD_MAX + 1];
	char unit[64];
	json_t *results;
};

/* The header: the keys' columns, then a column per board ("am68_sk-fs" or
 * "am68_sk-fs (KBytes/Sec)"). */
static int read_header(char *line, int keys, struct board_col *cols, int *ncols, char *err, size_t errlen)
{
	char *f[MAX_COLS];
	int nf = csv_fields(line, f, MAX_COLS);
	if (nf < 0)
		return pg_err(err, errlen, "line 1: %s", nf == -1 ? "a quote is not closed"
				: "more than 255 columns (a table of more boards is split in several)");
	if (nf <= keys)
		return pg_err(err, errlen, "line 1: no board columns after the %d naming the rows", keys);
	*ncols = nf - keys;
	for (int c = 0; c < *ncols; c++) {
		split_unit(f[keys + c], cols[c].name, sizeof(cols[c].name), cols[c].unit, sizeof(cols[c].unit));
		if (!cols[c].name[0] || pg_text_has_control(cols[c].name))
			return pg_err(err, errlen, "line 1: column %d names no board", keys + c + 1);
		cols[c].results = json_array();
	}
	return 0;
}

/* Counts the section of a row's benchmark: rows nothing maps go in the
 * one most of the table's rows are in (LMBench for the seed's lmbench
 * table), unless --section names one. */
static void tally(struct pg_table_stats *st, const char *bench)
{
	const struct pg_bench *b = pg_registry_find(bench);
	const char *t = b && b->section ? b->section->title : NULL;
	int i = 0;
	while (t && i < st->nsections && strcmp(st->sections[i], t) != 0)
		i++;
	if (!t || i == PG_TABLE_SECTIONS)
		return;
	if (i == st->nsections) {
		pg_text_copy(st->sections[i], sizeof(st->sections[i]), t);
		st->nsections++;
	}
	st->count[i]++;
}

static const char *most_rows(const struct pg_table_stats *st)
{
	int best = -1;
	for (int i = 0; i < st->nsections; i++)
		if (best < 0 || st->count[i] > st->count[best])
			best = i;
	return best >= 0 ? st->sections[best] : NULL;
}

/* The rows nothing mapped into their section, now that it is known. */
static void place_unmapped(struct board_col *cols, int ncols, const char *section)
{
	for (int c = 0; section && c < ncols; c++) {
		size_t i;
		json_t *r;
		json_array_foreach(cols[c].results, i, r)
			if (json_object_get(r, "section"))
				json_object_set_new(r, "section", json_string(section));
	}
}

/* The row names a table has used, each with its line (core/hash.h's
 * map): a name is one row (two rows of one name would be one result
 * twice). Adds name at line; *first is the line that had it already, else 0. */
static int names_add(struct pg_strmap *ns, const char *name, int line, int *first)
{
	int *at = pg_strmap_get(ns, name);
	*first = at ? *at : 0;
	if (at)
		return 0;
	if (!(at = pg_strmap_put(ns, name)))
		return -1;
	*at = line;
	return 0;
}

/* The key a row maps onto: its whole name's ("aes-128-cbc 1024"), else
 * its name's without the unit; NULL, with why told to o->unmapped, when
 * no label names it, two parameter sets are as near the defaults, or an
 * earlier row took the key. */
static const struct key *map_row(struct keys *ks, const char *row, const char *name, int lineno,
				 const struct pg_table_import *o)
{
	struct key *k = key_find(ks, row);
	if (!k || k->ambiguous)
		k = key_find(ks, name) ? key_find(ks, name) : k;
	char why[700], what[200];
	if (k && !k->ambiguous && !k->used_line) {
		k->used_line = lineno;
		return k;
	}
	if (!k)
		snprintf(why, sizeof(why), "no benchmark's result is labelled so (a --map line names one)");
	else if (k->ambiguous) {
		key_text(k->bench, k->params, k->metric, what, sizeof(what));
		snprintf(why, sizeof(why), "it is the label of %d parameter sets as near the defaults (%s; %s%s); "
			 "a map line (--map) says which", k->nalt + 1, what, k->alt, k->nalt > 1 ? "; ..." : "");
	} else {
		key_text(k->bench, k->params, k->metric, what, sizeof(what));
		snprintf(why, sizeof(why), "the row of line %d maps onto %s already", k->used_line, what);
	}
	pg_utf8_trim(why);
	if (o->unmapped)
		o->unmapped(o->arg, lineno, row, why);
	return NULL;
}

/* One data line into each board's results. */
static int read_row(char *line, int lineno, const struct pg_table_import *o, struct keys *ks, struct pg_strmap *seen,
		    struct board_col *cols, int ncols, const char *stem, struct pg_table_stats *st, char *err, size_t errlen)
{
	char *f[MAX_COLS], row[512] = "", name[512], unit[64];
	int nf = csv_fields(line, f, MAX_COLS), first;
	if (nf == -1 || nf == -2 || nf > o->keys + ncols)
		return pg_err(err, errlen, "line %d: %s", lineno, nf == -1 ? "a quote is not closed" : "more cells than the header");
	for (int i = 0; i < o->keys && i < nf; i++)
		snprintf(row + strlen(row), sizeof(row) - strlen(row), "%s%s", i ? " " : "", f[i]);
	split_unit(row, name, sizeof(name), unit, sizeof(unit));
	if (names_add(seen, row, lineno, &first) < 0)
		return pg_err(err, errlen, "out of memory");
	if (first)
		return pg_err(err, errlen, "line %d: '%s' names line %d's row too: are rows named by %d columns "
			      "(--keys %d)?", lineno, row, first, o->keys + 1, o->keys + 1);
	const struct key *k = map_row(ks, row, name, lineno, o);
	st->matched += k != NULL;
	st->unmatched += k == NULL;
	if (k)
		tally(st, k->bench);
	for (int c = 0; c < ncols && o->keys + c < nf; c++) {
		const char *text = f[o->keys + c];
		if (!text[strspn(text, " ")])
			continue;	/* no figure for this board */
		json_t *r = cell_record(k, name, unit[0] ? unit : cols[c].unit, o->section ? o->section : stem, stem, text);
		if (!r)
			return pg_err(err, errlen, "line %d: '%s' of %s is not a figure", lineno, text, cols[c].name);
		json_array_append_new(cols[c].results, r);
	}
	return 0;
}

/* The runs as a results file's text: a run per board with its figures. */
static char *as_results(const char *path, const char *stem, const struct pg_table_import *o, struct board_col *cols,
			int ncols)
{
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);
	struct stat sb;
	char started[40];
	time_t when = o->date ? o->date : stat(path, &sb) == 0 ? sb.st_mtime : 0;
	struct tm tm;
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&when, &tm));
	/* the machine table's one line for the board: the table it came from */
	char file[200];
	pg_text_copy(file, sizeof(file), strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	if (pg_text_has_control(file))
		pg_text_copy(file, sizeof(file), stem);
	for (int c = 0; m && c < ncols; c++) {
		char id[PG_RUN_ID_MAX + 1], rel[100] = "";
		if (o->labels)
			pg_labels_get(o->labels, "release", rel, sizeof(rel));
		/* a long id is cut: the board and the release tell the runs apart */
		if ((size_t)snprintf(id, sizeof(id), "table-%s-%s%s%s", stem, cols[c].name, rel[0] ? "-" : "", rel) >=
		    sizeof(id))
			pg_utf8_trim(id);
		json_t *run = json_pack("{s:s,s:s,s:s,s:s,s:s,s:{s:s,s:s,s:s},s:{s:s},s:{}}", "type", "run", "schema",
					"perfguide/1", "id", id, "board", cols[c].name, "started", started, "machine",
					"board", cols[c].name, "board_source", "published table", "table", file, "build",
					"version", "published table", "config");
		if (o->labels)
			json_object_set_new(run, "labels", json_loads(o->labels, 0, NULL));
		char *line = json_dumps(run, JSON_COMPACT);
		fprintf(m, "%s\n", line ? line : "");
		free(line);
		json_decref(run);
		size_t i;
		json_t *r;
		json_array_foreach(cols[c].results, i, r) {
			line = json_dumps(r, JSON_COMPACT | JSON_REAL_PRECISION(17));
			fprintf(m, "%s\n", line ? line : "");
			free(line);
		}
		fprintf(m, "{\"type\":\"end\",\"finished\":\"%s\",\"status\":\"complete\"}\n", started);
	}
	if (m)
		fclose(m);
	return text;
}

/* Each board's run has an id of its own: two board columns of one name,
 * or of names alike in as much as an id holds, would be one run twice. */
static int one_run_per_id(const char *path, struct pg_rrun **runs, int *n, char *err, size_t errlen)
{
	for (int i = 0; i < *n; i++)
		for (int k = 0; k < i; k++)
			if (strcmp((*runs)[i].id, (*runs)[k].id) == 0) {
				pg_err(err, errlen, "%s: the boards '%s' and '%s' give one run id, %s: name each board "
				       "once, the names apart within the %d characters an id holds", path, (*runs)[k].board,
				       (*runs)[i].board, (*runs)[i].id, PG_RUN_ID_MAX);
				for (int r = 0; r < *n; r++)
					pg_rrun_free(&(*runs)[r]);
				free(*runs);
				*runs = NULL;
				*n = 0;
				return -1;
			}
	return 0;
}

int pg_table_import(const char *path, const struct pg_table_map *map, const struct pg_table_import *o,
		    struct pg_rrun **runs, int *n, struct pg_table_stats *st, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, stem[100], why[512];
	size_t cap = 0;
	int lineno = 0, ncols = 0, rc = 0;
	struct board_col *cols = calloc(MAX_COLS, sizeof(*cols));
	memset(st, 0, sizeof(*st));
	*runs = NULL;
	*n = 0;
	if (!f || !cols) {
		pg_err(err, errlen, "%s: %s", path, f ? "out of memory" : strerror(errno));
		if (f)
			fclose(f);
		free(cols);
		return -1;
	}
	stem_of(path, stem, sizeof(stem));
	struct keys *ks = map->priv;
	struct pg_strmap seen = { 0 };
	for (int i = 0; i < ks->n; i++)
		ks->k[i].used_line = 0;
	ssize_t len = 0;
	while (rc == 0 && (len = pg_read_line(f, &line, &cap, PG_LINE_MAX)) > 0) {
		if (strlen(line) != (size_t)len)
			rc = pg_err(why, sizeof(why), "line %d holds a NUL byte: not a table", lineno + 1);
		else if (++lineno == 1)
			rc = read_header(line, o->keys, cols, &ncols, why, sizeof(why));
		else if (line[strspn(line, " \r\n")])
			rc = read_row(line, lineno, o, ks, &seen, cols, ncols, stem, st, why, sizeof(why));
	}
	if (rc == 0 && (len < 0 || ferror(f)))
		rc = pg_err(why, sizeof(why), "line %d: %s", lineno + 1,
			    ferror(f) ? strerror(errno) : "longer than 1 MiB, or out of memory");
	fclose(f);
	free(line);
	pg_strmap_free(&seen);
	if (rc == 0 && lineno < 2)
		snprintf(why, sizeof(why), "no rows"), rc = -1;
	if (rc == 0 && !o->section)
		place_unmapped(cols, ncols, most_rows(st));
	char *text = rc == 0 ? as_results(path, stem, o, cols, ncols) : NULL;
	for (int c = 0; c < ncols; c++)
		json_decref(cols[c].results);
	free(cols);
	if (rc < 0) {
		pg_err(err, errlen, "%s: %s", path, why);
		free(text);
		return -1;
	}
	FILE *m = text ? fmemopen(text, strlen(text), "r") : NULL;
	rc = m ? pg_rrun_read_stream(m, path, runs, n, err, errlen) : -1;
	if (!m)
		pg_err(err, errlen, "%s: out of memory", path);
	else
		fclose(m);
	st->boards = *n;
	free(text);
	return rc < 0 ? rc : one_run_per_id(path, runs, n, err, errlen);
}
