/* SPDX-License-Identifier: MIT */
/*
 * The commands this binary has, one line each, and `perfguide help`: a
 * command's page, its man page, and the names the shell completion asks
 * for (contrib/bash-completion/perfguide); how every command says it was
 * given bad input (pg_usage_error).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "help.h"
#include "core/text.h"

const struct pg_command pg_commands[] = {
	{ "list", pg_cmd_list, &pg_doc_list },
	{ "info", pg_cmd_info, &pg_doc_info },
	{ "run", pg_cmd_run, &pg_doc_run },
	{ "serve", pg_cmd_serve, &pg_doc_serve },
#ifdef PG_HAVE_STORE
	{ "import", pg_cmd_import, &pg_doc_import },
	{ "runs", pg_cmd_runs, &pg_doc_runs },
	{ "report", pg_cmd_report, &pg_doc_report },
	{ "compare", pg_cmd_compare, &pg_doc_compare },
	{ "history", pg_cmd_history, &pg_doc_history },
	{ "ab", pg_cmd_ab, &pg_doc_ab },
#endif
	{ "help", pg_cmd_help, &pg_doc_help },
	{ NULL, NULL, NULL },
};

int pg_usage_error(const char *fmt, ...)
{
	va_list ap;
	char msg[2048];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* what a results file or a store said, shown on one line and harmless */
	fputs("perfguide: ", stderr);
	pg_term_puts(stderr, msg);
	fputc('\n', stderr);
	return PG_EXIT_USAGE;
}

const struct pg_command *pg_command_find(const char *name)
{
	for (const struct pg_command *c = pg_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

void pg_usage_print(FILE *f)
{
	fputs("usage: perfguide COMMAND [options]\n\ncommands:\n", f);
	for (const struct pg_command *c = pg_commands; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->doc->summary);
	fputs("\n'perfguide help COMMAND' (or 'perfguide COMMAND --help') describes a command's options;\n"
	      "'man perfguide-COMMAND' is the same page.\n", f);
}

enum { O_MAN = 256, O_COMMANDS, O_OPTIONS };

static const struct pg_opt help_opts[] = {
	{ "man", 0, O_MAN, NULL,
	  "print the man page (roff) instead: perfguide-COMMAND(1), or perfguide(1) without a COMMAND" },
	{ "commands", 0, O_COMMANDS, NULL, "the command names, one per line (for shell completion)" },
	{ "options", 0, O_OPTIONS, NULL,
	  "COMMAND's options, one per line with the name of its value (for shell completion)" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_help = {
	.name = "help",
	.summary = "a command's page, or its man page",
	.usage = "[COMMAND]\n--man [COMMAND]",
	.intro = "Prints the page of COMMAND (what 'perfguide COMMAND --help' prints), or the list of "
		 "commands. The man pages perfguide(1) and perfguide-COMMAND(1) are made from the same "
		 "tables: 'perfguide help --man run' prints perfguide-run(1).",
	.opts = help_opts,
	.exit_status = "0 printed, 2 no such command.",
	.examples = "  perfguide help run\n  perfguide help --man run | man -l -",
};

/* "--suite quick|standard|full", "-p NAME=VALUE[,VALUE...]", "--json" */
static void print_options(const struct pg_cmd_doc *d)
{
	for (const struct pg_opt *o = d->opts; o->name || o->short_name; o++) {
		if (o->name)
			printf("--%s%s%s\n", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		if (o->short_name)
			printf("-%c%s%s\n", o->short_name, o->arg ? " " : "", o->arg ? o->arg : "");
	}
	puts("--help");
}

int pg_cmd_help(int argc, char **argv)
{
	struct pg_getopt g;
	int c, what = 0;
	pg_getopt_tables(&pg_doc_help, &g);
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		switch (c) {
		case O_MAN: case O_COMMANDS: case O_OPTIONS: what = c; break;
		case 'h': pg_help_print(stdout, &pg_doc_help); return PG_EXIT_OK;
		default: return pg_usage_error("help: unknown option '%s' (see 'perfguide help --help')",
					       argv[optind - 1]);
		}
	}
	if (argc - optind > 1)
		return pg_usage_error("help: give one COMMAND");
	const struct pg_command *cmd = NULL;
	if (optind < argc && !(cmd = pg_command_find(argv[optind])))
		return pg_usage_error("help: no command '%s' (try 'perfguide help')", argv[optind]);
	if (what == O_COMMANDS) {
		for (const struct pg_command *k = pg_commands; k->name; k++)
			puts(k->name);
	} else if (what == O_OPTIONS) {
		if (!cmd)
			return pg_usage_error("help: --options needs a COMMAND");
		print_options(cmd->doc);
	} else if (what == O_MAN) {
		pg_help_man(stdout, cmd ? cmd->doc : NULL);
	} else if (cmd) {
		pg_help_print(stdout, cmd->doc);
	} else {
		pg_usage_print(stdout);
	}
	return PG_EXIT_OK;
}
