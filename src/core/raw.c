/* SPDX-License-Identifier: MIT */
/* Raw-output files beside the results file: see raw.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "raw.h"
#include "runner.h"

FILE *pg_raw_open(struct pg_ctx *ctx, const char *ext, char *name, size_t len)
{
	const char *dir = ctx->run ? ctx->run->raw_dir : NULL;
	if (!dir) {
		snprintf(name, len, "not kept (no results file)");
		return NULL;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		snprintf(name, len, "not kept (%s)", strerror(errno));
		return NULL;
	}
	const char *base = strrchr(dir, '/');
	base = base ? base + 1 : dir;
	for (int n = 1; n < 100000; n++) {
		char path[4400];
		snprintf(path, sizeof(path), "%s/%s-%d.%s", dir, ctx->bench->id, n, ext);
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST)
			continue;
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f) {
			snprintf(name, len, "not kept (%s)", strerror(errno));
			if (fd >= 0)
				close(fd);
			return NULL;
		}
		snprintf(name, len, "%s/%s-%d.%s", base, ctx->bench->id, n, ext);
		return f;
	}
	snprintf(name, len, "not kept (too many files in %s)", base);
	return NULL;
}
