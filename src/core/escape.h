/* SPDX-License-Identifier: MIT */
/*
 * Text perfguide did not write (results files, stores, a peer's replies,
 * another program's output) on its way into each output: Markdown, rst,
 * csv, html and SVG, a LAVA test case's name. Every writer, the guide's and
 * the gate's alike, escapes through these; the terminal's is pg_term_puts
 * (core/text.h). Control characters never come out as themselves: a newline
 * would end a table row or an rst directive's block.
 */
#ifndef PG_ESCAPE_H
#define PG_ESCAPE_H

#include <stdio.h>

/* Control characters as spaces; md and rst escape what would be markup,
 * and with block set also a first character that would start a list, a
 * heading or a directive. */
void pg_md_text(FILE *out, const char *s, int block);
void pg_rst_text(FILE *out, const char *s, int block);
/* pg_rst_text into a malloc'd string (NULL: out of memory). */
char *pg_rst_string(const char *s, int block);
/* A csv field in double quotes (csv, and rst's csv-table). */
void pg_csv_quote(FILE *out, const char *s);
/* The same for text a spreadsheet must not take for a formula (=, +, -, @
 * first get a quote mark before them). */
void pg_csv_text(FILE *out, const char *s);
/* Text of perfguide's own whose commands and options are between
 * backticks ("run again (`perfguide run SELECTOR --runs 10`)"): each piece
 * in turn to emit, with code set for a command, which every format prints
 * as typed (md and rst literal, html <code>). Text from results put into
 * such text has its backticks made quotes first (pg_no_code). */
void pg_code_spans(const char *s, void (*emit)(void *ctx, const char *piece, int code), void *ctx);
void pg_no_code(char *s);
/* Text in HTML or SVG, in an element or an attribute's quotes. */
void pg_html_esc(FILE *out, const char *s);

/* The characters of a LAVA test case's name: what lava-test-case takes in
 * a name without quoting (no '_': the name's parts are joined by it). */
#define PG_LAVA_NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-"
/* Every byte of s not in alphabet becomes other, in place. */
void pg_lava_word(char *s, const char *alphabet, char other);

#endif
