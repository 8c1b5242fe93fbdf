/* SPDX-License-Identifier: MIT */
/* The formats the guide is written in: one writer each, like main.c's commands. */
#include <stdio.h>
#include <string.h>

#include "writer.h"

static const struct pg_writer *const writers[] = {
	&pg_writer_md, &pg_writer_rst, &pg_writer_csv, &pg_writer_json, &pg_writer_html,
};
#define NWRITERS (sizeof(writers) / sizeof(writers[0]))

const struct pg_writer *pg_writer_find(const char *name)
{
	for (size_t i = 0; i < NWRITERS; i++)
		if (strcmp(writers[i]->name, name) == 0)
			return writers[i];
	return NULL;
}

const char *pg_writer_names(void)
{
	static char names[128];
	size_t at = 0;
	for (size_t i = 0; i < NWRITERS && at < sizeof(names); i++) {
		int w = snprintf(names + at, sizeof(names) - at, "%s%s", i == 0 ? "" : i + 1 < NWRITERS ? ", " : " or ",
				 writers[i]->name);
		if (w < 0)
			break;
		at += (size_t)w;
	}
	return names;
}

