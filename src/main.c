/* perfguide: measure a machine the way board vendors' performance guides do. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/text.h"
#include "pg_build.h"

static const char usage[] =
	"usage: perfguide COMMAND [options]\n"
	"\n"
	"commands:\n"
	"  list [--json]          every benchmark, its parameters and defaults\n"
	"  info [--json]          this machine's identity\n"
	"  run [SELECTOR...]      run benchmarks and write results\n"
	"  serve [--port N]       the network peer the net.* benchmarks talk to\n"
#ifdef PG_HAVE_STORE
	"  import FILE.jsonl...   add results files to the results store\n"
	"  runs [--json]          the runs the store holds\n"
	"  report [options]       write the performance guide (md, rst, csv, json, html)\n"
	"  compare BASE NEW       what changed between two runs; exit 1 on a regression\n"
#endif
	"\n"
	"'perfguide COMMAND --help' describes a command's options.\n";

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

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "list", pg_cmd_list },
		{ "info", pg_cmd_info },
		{ "run", pg_cmd_run },
		{ "serve", pg_cmd_serve },
#ifdef PG_HAVE_STORE
		{ "import", pg_cmd_import },
		{ "runs", pg_cmd_runs },
		{ "report", pg_cmd_report },
		{ "compare", pg_cmd_compare },
#endif
	};
	if (argc < 2) {
		fputs(usage, stderr);
		return PG_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		fputs(usage, stdout);
		return PG_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("perfguide %s\n", PG_VERSION);
		return PG_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	return pg_usage_error("unknown command '%s' (try 'perfguide --help')", argv[1]);
}
