/* SPDX-License-Identifier: MIT */
/*
 * The templates sections declare for what their tables say of a figure:
 * how a row's value is shown (rows_shown: "{size+46}" is the Ethernet
 * frame of a UDP datagram) and which table a figure goes in (tables:
 * "{^medium} {^fs}; {engine}"). A placeholder is filled from the figure's
 * result: the key of that name in its note (what was used: engine=psync),
 * else its parameter, else {title}, the benchmark's title (as the result
 * records it, else as this perfguide's registry has it).
 *
 *   {name}           the value, a parameter as the guide prints it (4k)
 *   {#name}          a parameter's number (4096)
 *   {name+N}         the number plus N ({name-N} less)
 *   {^name}          upper case (the seed's "EMMC EXT4")
 *   {name?yes|no}    yes where the value is not 0, no or empty, else no
 *   {name=v?yes|no}  yes where the value is v, else no
 */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record_json.h"
#include "core/registry.h"
#include "core/text.h"
#include "table.h"

int pg_note_value(const char *note, const char *key, char *buf, size_t len)
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

/* A placeholder taken apart: {^#name+N=v?yes|no}. */
struct holder {
	char name[64], eq[64], yes[200], no[200];
	int upper, number, choice, has_eq;
	long long add;
};

static void parse(const char *p, size_t n, struct holder *h)
{
	memset(h, 0, sizeof(*h));
	for (; n && (*p == '^' || *p == '#'); p++, n--)
		*(*p == '^' ? &h->upper : &h->number) = 1;
	size_t k = 0;
	while (k < n && (isalnum((unsigned char)p[k]) || p[k] == '_'))
		k++;
	snprintf(h->name, sizeof(h->name), "%.*s", (int)k, p);
	p += k, n -= k;
	if (n && (*p == '+' || *p == '-')) {
		h->add = strtoll(p, NULL, 10);
		h->number = 1;
		k = 1;
		while (k < n && isdigit((unsigned char)p[k]))
			k++;
		p += k, n -= k;
	}
	size_t q = 0;
	while (q < n && p[q] != '?')
		q++;
	if (n && *p == '=') {
		h->has_eq = 1;
		snprintf(h->eq, sizeof(h->eq), "%.*s", (int)(q - 1), p + 1);
	}
	if (q < n) {
		const char *alt = p + q + 1, *bar = memchr(alt, '|', n - q - 1);
		size_t yl = bar ? (size_t)(bar - alt) : n - q - 1;
		h->choice = 1;
		snprintf(h->yes, sizeof(h->yes), "%.*s", (int)yl, alt);
		if (bar)
			snprintf(h->no, sizeof(h->no), "%.*s", (int)(n - q - 2 - yl), bar + 1);
	}
}

/* The value of a parameter: as the guide prints it, or (number) its
 * integer plus add; 0 when the row has no such parameter. */
static int param_value(const struct pg_grow *row, const struct holder *h, char *buf, size_t len)
{
	json_t *p = json_loads(row->params ? row->params : "{}", 0, NULL), *v = json_object_get(p, h->name);
	int found = v != NULL && (!h->number || json_is_integer(v));
	if (found && h->number) {
		snprintf(buf, len, "%lld", (long long)json_integer_value(v) + h->add);
	} else if (found) {
		json_t *one = json_pack("{sO}", h->name, v);
		char *t = pg_json_text(one), shown[300];
		pg_params_display(row->bench, t ? t : "{}", shown, sizeof(shown));
		const char *eq = strchr(shown, '=');
		pg_text_copy(buf, len, eq ? eq + 1 : shown);
		free(t);
		json_decref(one);
	}
	json_decref(p);
	return found;
}

static int holder_value(const struct holder *h, const struct pg_grow *row, const struct pg_record *x, char *buf,
			size_t len)
{
	if (strcmp(h->name, "title") == 0) {
		/* a result recorded without its title: this perfguide's, else the id */
		const struct pg_bench *b = row->title ? NULL : pg_registry_find(row->bench);
		pg_text_copy(buf, len, row->title ? row->title : b && b->title ? b->title : row->bench);
		return 1;
	}
	if (!h->number && x && pg_note_value(x->note, h->name, buf, len))
		return 1;
	return param_value(row, h, buf, len);
}

/* One placeholder's text; 0 when the figure has no value for it. */
static int fill_one(const struct holder *h, const struct pg_grow *row, const struct pg_record *x, char *buf,
		    size_t len)
{
	char v[300];
	if (!holder_value(h, row, x, v, sizeof(v)))
		return 0;
	if (h->choice) {
		int yes = h->has_eq ? strcmp(v, h->eq) == 0
				    : v[0] && strcmp(v, "0") != 0 && strcmp(v, "no") != 0;
		pg_text_copy(buf, len, yes ? h->yes : h->no);
		return 1;
	}
	for (char *c = v; h->upper && *c; c++)
		*c = (char)toupper((unsigned char)*c);
	pg_text_copy(buf, len, v);
	return 1;
}

int pg_template_fill(const char *t, const struct pg_grow *row, const struct pg_record *x, char *out, size_t len)
{
	size_t at = 0;
	int missing = 0;
	out[0] = '\0';
	while (t && *t && at + 1 < len) {
		const char *close = *t == '{' ? strchr(t, '}') : NULL;
		if (!close) {
			out[at++] = *t++;
			continue;
		}
		struct holder h;
		char v[300];
		parse(t + 1, (size_t)(close - t - 1), &h);
		if (fill_one(&h, row, x, v, sizeof(v)))
			at += (size_t)snprintf(out + at, len - at, "%s", v);
		else
			missing++;
		at = at < len ? at : len - 1;
		t = close + 1;
	}
	out[at] = '\0';
	pg_utf8_trim(out);
	return missing;
}

int pg_template_number(const char *t, const struct pg_grow *row, double *v)
{
	char buf[64], *end;
	if (pg_template_fill(t, row, NULL, buf, sizeof(buf)) != 0 || !buf[0])
		return 0;
	*v = strtod(buf, &end);
	return *end == '\0';
}

int pg_template_names(const char *t, const char *name)
{
	for (const char *p = t ? strchr(t, '{') : NULL; p; p = strchr(p + 1, '{')) {
		struct holder h;
		const char *close = strchr(p, '}');
		if (!close)
			break;
		parse(p + 1, (size_t)(close - p - 1), &h);
		if (strcmp(h.name, name) == 0)
			return 1;
	}
	return 0;
}
