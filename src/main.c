/* SPDX-License-Identifier: MIT */
/* perfguide: measure a machine the way board vendors' performance guides do. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "core/registry.h"
#include "pg_build.h"

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
	const struct pg_helper *h = pg_helper_find(argv[1]);
	if (h)
		return h->main(argc - 1, argv + 1);
	const struct pg_command *c = pg_command_find(argv[1]);
	if (c)
		return c->fn(argc - 1, argv + 1);
	return pg_usage_error("unknown command '%s' (try 'perfguide --help')", argv[1]);
}
