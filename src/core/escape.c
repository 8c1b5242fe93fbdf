/* SPDX-License-Identifier: MIT */
/*
 * Text from results files in each format the guide is written in: a name,
 * a board, a note or a reason is text, never markup, and never breaks the
 * table it is in. Control characters become spaces in every format (a
 * newline would end a table row or an rst directive's block).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

/* Bytes of the control character at s (C0, DEL, or C1 in UTF-8); 0: none. */
static size_t control_at(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	if (u[0] < 0x20 || u[0] == 0x7f)
		return 1;
	if (u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f)
		return 2;
	return 0;
}

static int word_char(const char *s, const char *start, int off)
{
	if (off < 0 && s == start)
		return 0;
	unsigned char c = (unsigned char)s[off];
	return isalnum(c) || c >= 0x80;
}

/* A character that starts markup at the start of a block (a list, a
 * heading, a directive), unless it is a number's sign. */
static int block_start_mark(const char *s)
{
	if (!ispunct((unsigned char)s[0]))
		return 0;
	return !(s[0] == '-' && (isdigit((unsigned char)s[1]) || s[1] == '.'));
}

/* Whether c at s needs a backslash in md or rst. An underscore inside a
 * word (bw_mem) is plain text in both and is kept as it is. */
static int needs_backslash(const char *s, const char *start, int rst)
{
	switch (*s) {
	case '\\': case '`': case '*': case '[': case ']': case '|': case '<': case '>':
		return 1;
	case '_':
		return !(word_char(s, start, -1) && word_char(s, start, 1));
	case '&': case '~':
		return !rst;
	case ':':	/* rst makes scheme:rest a link (javascript: too) */
		return rst && s[1] && !isspace((unsigned char)s[1]);
	case '-':	/* Sphinx makes "--" a dash: an option as typed keeps its hyphens */
		return rst && (s[1] == '-' || (s > start && s[-1] == '-'));
	default:
		return 0;
	}
}

static void put_escaped(FILE *out, const char *s, int rst, int block)
{
	const char *start = s;
	/* a mark that needs a backslash anyway gets it once, below: two were
	 * an escaped backslash and the mark bare (rst's "\\<") */
	if (block && block_start_mark(s) && !(*s == '<' && !rst) && !needs_backslash(s, start, rst))
		fputc('\\', out);
	while (*s) {
		size_t k = control_at(s);
		if (k) {
			fputc(' ', out);
			s += k;
			continue;
		}
		/* A guide on standard output is what a LAVA job's log shows, and
		 * LAVA takes "<LAVA_SIGNAL_..." anywhere in a line: '<' never comes
		 * out before a name (md: an entity; rst: an escaped space, which
		 * rst removes, after it). */
		if (*s == '<' && !rst) {
			fputs("&lt;", out);
			s++;
			continue;
		}
		if (needs_backslash(s, start, rst))
			fputc('\\', out);
		fputc(*s++, out);
		if (s[-1] == '<')
			fputs("\\ ", out);
	}
}

void pg_md_text(FILE *out, const char *s, int block)
{
	put_escaped(out, s ? s : "", 0, block);
}

void pg_rst_text(FILE *out, const char *s, int block)
{
	put_escaped(out, s ? s : "", 1, block);
}

char *pg_rst_string(const char *s, int block)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	pg_rst_text(m, s, block);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void csv_field(FILE *out, const char *s, int formula_guard)
{
	fputc('"', out);
	/* A spreadsheet runs a cell that starts with one of these as a formula. */
	if (formula_guard && s[0] && strchr("=+-@", s[0]))
		fputc('\'', out);
	while (*s) {
		size_t k = control_at(s);
		if (k) {
			fputc(' ', out);
			s += k;
			continue;
		}
		if (*s == '"')
			fputc('"', out);
		fputc(*s++, out);
	}
	fputc('"', out);
}

void pg_csv_quote(FILE *out, const char *s)
{
	csv_field(out, s ? s : "", 0);
}

void pg_csv_text(FILE *out, const char *s)
{
	csv_field(out, s ? s : "", 1);
}

void pg_html_esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			/* control characters (C0, DEL, C1) are not text in HTML */
			if (c < 0x20 || c == 0x7f) {
				fputc(' ', out);
			} else if (c == 0xc2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f) {
				fputc(' ', out);
				s++;
			} else {
				fputc(c, out);
			}
		}
	}
}

void pg_lava_word(char *s, const char *alphabet, char other)
{
	for (; *s; s++)
		if (!strchr(alphabet, *s))
			*s = other;
}

void pg_code_spans(const char *s, void (*emit)(void *ctx, const char *piece, int code), void *ctx)
{
	int code = 0;
	while (s && *s) {
		size_t n = strcspn(s, "`");
		char *piece = strndup(s, n);
		if (piece && (n || code))
			emit(ctx, piece, code);
		free(piece);
		s += n;
		if (*s == '`') {
			s++;
			code = !code;
		}
	}
}

void pg_no_code(char *s)
{
	for (; s && *s; s++)
		if (*s == '`')
			*s = '\'';
}
