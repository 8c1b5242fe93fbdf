/* SPDX-License-Identifier: MIT */
/*
 * What a run shows on the terminal: a progress line (only on a terminal,
 * redrawn in place) and one table line per finished result (plain text, no
 * control characters, so a pipe or a file gets clean output).
 */
#ifndef PG_CONSOLE_H
#define PG_CONSOLE_H

#include <stdio.h>

#include "runner.h"

struct pg_console {
	FILE *table;		/* stdout, or stderr when stdout carries JSON */
	int progress;		/* stderr is a terminal */
	int shown;		/* a progress line is on screen */
};

void pg_console_init(struct pg_console *c, int json_on_stdout);
void pg_console_progress(struct pg_console *c, int done, int total, const char *what,
			 double seconds_left);
void pg_console_result(struct pg_console *c, const struct pg_result *r);
void pg_console_clear(struct pg_console *c);

/* A value with the precision the seed guides print: 2 decimals, more below 1. */
void pg_format_value(double v, char *buf, size_t len);

#endif
