/* SPDX-License-Identifier: MIT */
/*
 * A section's intro says only what its results record. The section declares
 * it with placeholders ({engine}, {direct?O_DIRECT|buffered}); each is
 * filled with what the section's results had: the key of that name in their
 * note (what was used where the parameter left a choice: engine=psync after
 * engine=auto), else the parameter. Where boards differ, each says its own.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record_json.h"
#include "core/registry.h"
#include "core/text.h"
#include "table.h"

#define VALUE_MAX 200
#define INTRO_MAX 4000

/* The value of key in a note of "key=value; key=value" pairs. */
static int note_value(const char *note, const char *key, char *buf, size_t len)
{
	size_t n = strlen(key);
	for (const char *p = note; p && *p;) {
		if (strncmp(p, key, n) == 0 && p[n] == '=') {
			size_t v = strcspn(p + n + 1, ";");
			snprintf(buf, len, "%.*s", (int)v, p + n + 1);
			pg_utf8_trim(buf);
			return 1;
		}
		const char *semi = strstr(p, "; ");
		p = semi ? semi + 2 : NULL;
	}
	return 0;
}

/* The value the result had for name (its note's, else its parameter's,
 * displayed as the guide shows parameters: sizes "32m"); 0: none. */
static int result_value(const struct pg_record *x, const char *name, char *buf, size_t len)
{
	if (note_value(x->note, name, buf, len))
		return 1;
	json_t *p = json_loads(x->params ? x->params : "{}", 0, NULL), *v = json_object_get(p, name);
	int found = v != NULL;
	if (found) {
		json_t *one = json_pack("{sO}", name, v);
		char *t = pg_json_text(one), shown[VALUE_MAX + 64];
		pg_params_display(x->bench, t ? t : "{}", shown, sizeof(shown));
		const char *eq = strchr(shown, '=');
		pg_text_copy(buf, len, eq ? eq + 1 : shown);
		free(t);
		json_decref(one);
	}
	json_decref(p);
	return found;
}

/* {name?yes|no}: yes where the value is not 0 (or empty), else no. */
static void choose(const char *alt, const char *val, char *buf, size_t len)
{
	const char *bar = strchr(alt, '|');
	int yes = val[0] && strcmp(val, "0") != 0 && strcmp(val, "no") != 0;
	if (yes)
		snprintf(buf, len, "%.*s", (int)(bar ? (size_t)(bar - alt) : strlen(alt)), alt);
	else
		snprintf(buf, len, "%s", bar ? bar + 1 : "");
	pg_utf8_trim(buf);
}

/* Adds v to the "/"-joined set in set (once). */
static void set_add(char *set, size_t len, const char *v)
{
	size_t n = strlen(v), at = strlen(set);
	for (const char *p = set; *p; p += strcspn(p, "/"), p += *p == '/')
		if (strncmp(p, v, n) == 0 && (p[n] == '/' || !p[n]))
			return;
	snprintf(set + at, len - at, "%s%s", at ? "/" : "", v);
	pg_utf8_trim(set);
}

/* The values column c's results in section s (those its table shows) had
 * for a placeholder (name, and alt after a '?'); "" when none. Figures
 * first: a skipped result's parameters say what was asked, not what ran. */
static void column_values(const struct pg_guide *g, int s, int c, const char *bench, const char *name,
			  const char *alt, char *set, size_t len)
{
	set[0] = '\0';
	for (int ok = 1; ok >= 0 && !set[0]; ok--)
		for (int r = pg_section_first(g, s); r < pg_section_end(g, s); r++) {
			const struct pg_gcell *cell = &g->rows[r].cells[c];
			char v[VALUE_MAX], shown[VALUE_MAX];
			if ((bench && strcmp(g->rows[r].bench, bench) != 0) || !pg_row_main(g, &g->rows[r]) || !cell->rec ||
			    pg_cell_ok(cell) != ok ||
			    !result_value(cell->rec, name, v, sizeof(v)))
				continue;
			if (alt)
				choose(alt, v, shown, sizeof(shown));
			set_add(set, len, alt ? shown : v);
		}
}

/* The placeholder's text for the results of bench (NULL: every one of
 * the section's): one value, or each board's where they differ ("psync
 * (board-a), io_uring (board-b, board-c)"); "" where no result recorded
 * it. */
static void fill_one(const struct pg_guide *g, int s, const char *bench, const char *name, const char *alt,
		     char *out, size_t len)
{
	char (*sets)[VALUE_MAX] = calloc((size_t)g->ncols + 1, sizeof(*sets));
	size_t at = 0;
	out[0] = '\0';
	for (int c = 0; sets && c < g->ncols; c++)
		column_values(g, s, c, bench, name, alt, sets[c], sizeof(sets[c]));
	int groups = 0;
	for (int c = 0; sets && c < g->ncols; c++) {
		int first = sets[c][0] != '\0';
		for (int o = 0; o < c && first; o++)
			first = strcmp(sets[o], sets[c]) != 0;
		groups += first;
	}
	for (int c = 0; sets && c < g->ncols && at < len; c++) {
		int first = sets[c][0] != '\0';
		for (int o = 0; o < c && first; o++)
			first = strcmp(sets[o], sets[c]) != 0;
		if (!first)
			continue;
		at += (size_t)snprintf(out + at, len - at, "%s%s", at ? ", " : "", sets[c]);
		for (int o = c, n = 0; groups > 1 && o < g->ncols && at < len; o++)
			if (strcmp(sets[o], sets[c]) == 0)
				at += (size_t)snprintf(out + at, len - at, "%s%s", n++ ? ", " : " (", g->cols[o].name);
		if (groups > 1 && at < len)
			at += (size_t)snprintf(out + at, len - at, ")");
	}
	pg_utf8_trim(out);
	free(sets);
}

/* Benchmarks of a section told apart in its intro at most: beyond, a
 * placeholder's values are one "/"-joined set. */
#define BENCHES_MAX 16

/* A benchmark as the intro names it: its title (as its result records
 * it, else as this perfguide's registry has it) up to its bracket ("UDP
 * throughput at zero loss"); the table's heading names it in full. */
static void bench_name(const struct pg_grow *row, char *buf, size_t len)
{
	const struct pg_bench *b = row->title ? NULL : pg_registry_find(row->bench);
	const char *t = row->title ? row->title : b && b->title ? b->title : row->bench, *br = strstr(t, " (");
	snprintf(buf, len, "%.*s", (int)(br && br > t ? (size_t)(br - t) : strlen(t)), t);
	pg_utf8_trim(buf);
}

/* The placeholder's text: where the section's benchmarks had different
 * values, each with the words after it in the template (suffix, slen
 * bytes) and the benchmarks it is of ("1 s per trial (TCP bidirectional
 * throughput); 2 s per trial (UDP throughput at zero loss)"), not a set
 * ("1/2 s") that says which of them none; returns 1 then, the suffix
 * said. Else as fill_one, 0. */
static int fill(const struct pg_guide *g, int s, const char *name, const char *alt, const char *suffix,
		size_t slen, char *out, size_t len)
{
	int first = 0, last = -1, nb = 0, distinct = 0;
	const struct pg_grow *bench[BENCHES_MAX];
	char (*text)[INTRO_MAX / 4] = calloc(BENCHES_MAX, sizeof(*text));
	int any = text && pg_section_rows(g, s, &first, &last);
	for (int r = first; any && r <= last && nb <= BENCHES_MAX; r++) {
		const struct pg_grow *row = &g->rows[r];
		int seen = 0;
		for (int b = 0; b < nb && !seen; b++)
			seen = strcmp(bench[b]->bench, row->bench) == 0;
		if (seen || nb == BENCHES_MAX) {
			nb += !seen;	/* one more than fit: none told apart */
			continue;
		}
		bench[nb] = row;
		fill_one(g, s, row->bench, name, alt, text[nb], sizeof(text[nb]));
		int again = !text[nb][0];
		for (int b = 0; b < nb && !again; b++)
			again = strcmp(text[b], text[nb]) == 0;
		distinct += !again;
		nb++;
	}
	if (!text || nb > BENCHES_MAX || distinct < 2) {
		fill_one(g, s, NULL, name, alt, out, len);
		free(text);
		return 0;
	}
	size_t at = 0;
	out[0] = '\0';
	for (int b = 0; b < nb && at < len; b++) {
		int again = !text[b][0];
		for (int o = 0; o < b && !again; o++)
			again = strcmp(text[o], text[b]) == 0;
		if (again)
			continue;
		at += (size_t)snprintf(out + at, len - at, "%s%s%.*s (", at ? "; " : "", text[b], (int)slen, suffix);
		for (int o = b, n = 0; o < nb && at < len; o++) {
			char bn[200];
			if (strcmp(text[o], text[b]) != 0)
				continue;
			bench_name(bench[o], bn, sizeof(bn));
			at += (size_t)snprintf(out + at, len - at, "%s%s", n++ ? ", " : "", bn);
		}
		if (at < len)
			at += (size_t)snprintf(out + at, len - at, ")");
	}
	pg_utf8_trim(out);
	free(text);
	return 1;
}

/* One sentence of the template (up to and with ". ", or the end) into out
 * at *at, its placeholders filled; left out when one of them has no value:
 * a sentence about what the results do not record may be false. Returns
 * where the next sentence starts. */
static const char *sentence(const struct pg_guide *g, int s, const char *t, char *out, size_t *at)
{
	size_t start = *at;
	while (*t && *at + 1 < INTRO_MAX) {
		const char *close = *t == '{' ? strchr(t, '}') : NULL;
		if (!close) {
			int end = t[0] == '.' && t[1] == ' ';
			out[(*at)++] = *t++;
			if (end && *at + 1 < INTRO_MAX) {
				out[(*at)++] = *t++;	/* the space after it */
				break;
			}
			continue;
		}
		char name[64], alt[VALUE_MAX], text[INTRO_MAX / 2];
		size_t n = (size_t)(close - t - 1), q = strcspn(t + 1, "?}");
		snprintf(name, sizeof(name), "%.*s", (int)(q < n ? q : n), t + 1);
		snprintf(alt, sizeof(alt), "%.*s", q < n ? (int)(n - q - 1) : 0, q < n ? t + 2 + q : "");
		/* the words that go with the value: "{time} s per trial" */
		size_t slen = strcspn(close + 1, ",;.{(");
		while (slen > 0 && close[slen] == ' ')
			slen--;
		int said = fill(g, s, name, q < n ? alt : NULL, close + 1, slen, text, sizeof(text));
		if (!text[0]) {		/* not recorded: the sentence goes */
			*at = start;
			while (*t && !(t[0] == '.' && t[1] == ' '))
				t++;
			return *t ? t + 2 : t;
		}
		*at += (size_t)snprintf(out + *at, INTRO_MAX - *at, "%s", text);
		if (*at >= INTRO_MAX)
			*at = INTRO_MAX - 1;
		t = close + 1 + (said ? slen : 0);
	}
	return t;
}

char *pg_section_intro(const struct pg_guide *g, int s)
{
	const char *t = g->sections[s].intro;
	if (!t || !t[0])
		return NULL;
	char *out = malloc(INTRO_MAX);
	size_t at = 0;
	while (out && *t && at + 1 < INTRO_MAX)
		t = sentence(g, s, t, out, &at);
	while (out && at > 0 && out[at - 1] == ' ')
		at--;
	if (out && at == 0) {		/* every sentence went */
		free(out);
		return NULL;
	}
	if (out) {
		out[at] = '\0';
		pg_utf8_trim(out);
	}
	return out;
}
