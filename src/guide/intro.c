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
static void column_values(const struct pg_guide *g, int s, int c, const char *name, const char *alt, char *set,
			  size_t len)
{
	set[0] = '\0';
	for (int ok = 1; ok >= 0 && !set[0]; ok--)
		for (int r = pg_section_first(g, s); r < pg_section_end(g, s); r++) {
			const struct pg_gcell *cell = &g->rows[r].cells[c];
			char v[VALUE_MAX], shown[VALUE_MAX];
			if (!pg_row_main(g, &g->rows[r]) || !cell->rec || pg_cell_ok(cell) != ok ||
			    !result_value(cell->rec, name, v, sizeof(v)))
				continue;
			if (alt)
				choose(alt, v, shown, sizeof(shown));
			set_add(set, len, alt ? shown : v);
		}
}

/* The placeholder's text: one value, or each board's where they differ
 * ("psync (board-a), io_uring (board-b, board-c)"); "" where no result
 * recorded it. */
static void fill(const struct pg_guide *g, int s, const char *name, const char *alt, char *out, size_t len)
{
	char (*sets)[VALUE_MAX] = calloc((size_t)g->ncols + 1, sizeof(*sets));
	size_t at = 0;
	out[0] = '\0';
	for (int c = 0; sets && c < g->ncols; c++)
		column_values(g, s, c, name, alt, sets[c], sizeof(sets[c]));
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
		fill(g, s, name, q < n ? alt : NULL, text, sizeof(text));
		if (!text[0]) {		/* not recorded: the sentence goes */
			*at = start;
			while (*t && !(t[0] == '.' && t[1] == ' '))
				t++;
			return *t ? t + 2 : t;
		}
		*at += (size_t)snprintf(out + *at, INTRO_MAX - *at, "%s", text);
		if (*at >= INTRO_MAX)
			*at = INTRO_MAX - 1;
		t = close + 1;
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
