/* perfguide: measure a machine the way board vendors' performance guides do. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "core/text.h"
#include "pg_build.h"

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
	if (argc < 2) {
		pg_usage_print(stderr);
		return PG_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		pg_usage_print(stdout);
		return PG_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("perfguide %s\n", PG_VERSION);
		return PG_EXIT_OK;
	}
	if (strcmp(argv[1], PG_HELPER_LAT_PROC) == 0)
		return pg_os_proc_helper(argc - 1, argv + 1);
	const struct pg_command *c = pg_command_find(argv[1]);
	if (c)
		return c->fn(argc - 1, argv + 1);
	return pg_usage_error("unknown command '%s' (try 'perfguide --help')", argv[1]);
}
