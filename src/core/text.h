/* SPDX-License-Identifier: MIT */
/*
 * Text from elsewhere (results files, stores) on its way to a terminal or
 * into a fixed buffer: control characters made visible, UTF-8 cut only
 * between characters.
 */
#ifndef PG_TEXT_H
#define PG_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Length of the UTF-8 character at s (1 to 4), or 0 when s does not start
 * a valid one within n bytes (a stray continuation byte, an overlong or
 * surrogate form, a character cut short). */
size_t pg_utf8_char(const char *s, size_t n);
/* 1 when the n bytes at s are valid UTF-8. */
int pg_utf8_valid(const char *s, size_t n);
/* Drops an incomplete character from the end of s (what snprintf leaves
 * when it truncates in the middle of one); returns the new length. */
size_t pg_utf8_trim(char *s);
/* snprintf into buf, then cut at a character boundary when it truncated. */
void pg_text_copy(char *buf, size_t len, const char *s);

/* A copy of s (NULL: NULL) in which every byte that does not start a valid
 * UTF-8 character is U+FFFD: text from a store someone else wrote, on its
 * way to the writers, which take UTF-8. NULL also when out of memory. */
char *pg_utf8_dup(const char *s);

/* 1 when s holds a C0 or C1 control character or DEL (a tab included). */
int pg_text_has_control(const char *s);

/* s on a terminal: control characters, bytes that are not UTF-8 and '<' as
 * \xHH (a C1 control as \u0080 to \u009f), everything else as it is. A
 * '<' so that foreign text (a results file's, a store's, a peer's, another
 * program's) cannot put a LAVA signal (<LAVA_SIGNAL_TESTCASE ...>, matched
 * anywhere in a line) on a board's console. Everything that prints text
 * perfguide did not write itself goes through this. */
void pg_term_puts(FILE *f, const char *s);
/* The same into buf (cut at a character boundary when it does not fit). */
void pg_term_text(const char *s, char *buf, size_t len);

/* JSON text written with '<', DEL and the C1 controls as \u escapes (jansson
 * writes them raw). In JSON they are only ever inside strings, where the
 * escape is the same character: the same JSON value, and no LAVA signal or
 * terminal control sequence in it. Returns what fwrite's checks give: 0, or
 * -1 when writing failed. */
int pg_json_write_safe(FILE *f, const char *json);

#endif
