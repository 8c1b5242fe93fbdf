/* SPDX-License-Identifier: MIT */
/*
 * Every command's options in one table: getopt_long is given what the table
 * says, and `--help`, `perfguide help COMMAND`, the man pages (`perfguide
 * help --man COMMAND`, perfguide-COMMAND(1)) and the shell completion print
 * it. A new option is one line of its command's table, and none of them
 * can drift from what the command accepts.
 *
 * Text fields are paragraphs separated by a blank line ("\n\n"); within a
 * paragraph a newline is a space (the text is filled to the width), except
 * in a paragraph whose first line starts with two spaces, which is printed
 * as it is (a list, examples).
 */
#ifndef PG_CLI_HELP_H
#define PG_CLI_HELP_H

#include <getopt.h>
#include <stdio.h>

struct pg_opt {
	const char *name;	/* "suite" for --suite; NULL: only the short form */
	char short_name;	/* 'p' for -p; 0: none */
	int key;		/* what getopt_long returns for it */
	const char *arg;	/* its value's name ("N", "FILE|URL", "quick|standard|full"); NULL: none */
	const char *help;
};

struct pg_cmd_doc {
	const char *name;	/* "run" */
	const char *summary;	/* one line: the command list, the man page's NAME */
	const char *usage;	/* "[SELECTOR...] [options]"; more forms after '\n' */
	const char *intro;	/* what it does, before the options */
	const struct pg_opt *opts;	/* ends with an entry whose name and short_name are both 0 */
	const char *after;	/* more, after the options */
	const char *exit_status;
	const char *examples;	/* command lines, one per line */
};

#define PG_OPT_END { NULL, 0, 0, NULL, NULL }
#define PG_MAX_OPTS 48

/* getopt_long's tables for a command, with -h, --help added (key 'h'). */
struct pg_getopt {
	struct option longs[PG_MAX_OPTS + 2];
	char shorts[3 * PG_MAX_OPTS + 4];
};
void pg_getopt_tables(const struct pg_cmd_doc *d, struct pg_getopt *g);

/* The command's help page, as --help prints it. */
void pg_help_print(FILE *f, const struct pg_cmd_doc *d);
/* Its man page (roff), perfguide-NAME(1); d NULL: perfguide(1). */
void pg_help_man(FILE *f, const struct pg_cmd_doc *d);

/* The commands this binary has, in the order the usage lists them. */
struct pg_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const struct pg_cmd_doc *doc;
};
extern const struct pg_command pg_commands[];	/* ends with a NULL name */
const struct pg_command *pg_command_find(const char *name);

/* The top-level usage: the commands and their summaries. */
void pg_usage_print(FILE *f);

/* Each command's table (src/cli/<command>.c). */
extern const struct pg_cmd_doc pg_doc_list, pg_doc_info, pg_doc_run, pg_doc_serve, pg_doc_help;
extern const struct pg_cmd_doc pg_doc_import, pg_doc_runs, pg_doc_report, pg_doc_compare;
extern const struct pg_cmd_doc pg_doc_history, pg_doc_ab;

#endif
