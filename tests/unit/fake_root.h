/* SPDX-License-Identifier: MIT */
/*
 * A fake machine's /proc and /sys for the tests that read the machine: the
 * files are made under a temporary root that pg_sysinfo_set_root points
 * every read at. Included by one test file each (its definitions are
 * static).
 */
#ifndef PG_TEST_FAKE_ROOT_H
#define PG_TEST_FAKE_ROOT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/sysinfo.h"

static char root[256];

/* Writes path (below the root), making its directories. */
static void put(const char *path, const char *data, size_t len)
{
	char full[512], dir[512];
	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(dir, sizeof(dir), "%s", full);
	for (char *p = dir + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
	FILE *f = fopen(full, "w");
	assert_non_null(f);
	fwrite(data, 1, len, f);
	fclose(f);
}
#define PUT(path, lit) put(path, lit, sizeof(lit) - 1)
#define PUTS(path, text) put(path, text, strlen(text))

/* A new root named /tmp/pg-NAME-XXXXXX, where reads now go. */
static void fake_root_make(const char *name)
{
	snprintf(root, sizeof(root), "/tmp/pg-%s-XXXXXX", name);
	assert_non_null(mkdtemp(root));
	pg_sysinfo_set_root(root);
}

/* Removes it; reads go to the real /proc and /sys again. */
static void fake_root_remove(void)
{
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	pg_sysinfo_set_root(NULL);
}

#endif
