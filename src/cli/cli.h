/* SPDX-License-Identifier: MIT */
/* One function per subcommand; each parses its own options. */
#ifndef PG_CLI_H
#define PG_CLI_H

/* Exit statuses every subcommand uses. */
#define PG_EXIT_OK 0
#define PG_EXIT_FAIL 1		/* ran, but something failed */
#define PG_EXIT_USAGE 2		/* bad input: nothing was done */
#define PG_EXIT_DOUBT 3		/* report --strict: written, but a figure is to doubt */
#define PG_EXIT_INTERRUPTED 130

int pg_cmd_list(int argc, char **argv);
int pg_cmd_info(int argc, char **argv);
int pg_cmd_run(int argc, char **argv);
int pg_cmd_serve(int argc, char **argv);
int pg_cmd_help(int argc, char **argv);	/* commands.c */
#ifdef PG_HAVE_STORE
int pg_cmd_import(int argc, char **argv);
int pg_cmd_runs(int argc, char **argv);
int pg_cmd_report(int argc, char **argv);
int pg_cmd_compare(int argc, char **argv);
int pg_cmd_history(int argc, char **argv);
int pg_cmd_ab(int argc, char **argv);
#endif

/* "perfguide: <message>" on stderr, then PG_EXIT_USAGE. */
int pg_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
