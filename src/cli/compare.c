#include "cli.h"
int pg_cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return pg_usage_error("compare: not yet");
}
