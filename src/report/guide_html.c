#include "guide.h"

int pg_guide_write_html(const struct pg_guide *g, FILE *out)
{
	(void)g;
	fputs("<!DOCTYPE html>\n", out);
	return 0;
}
